//===- LaunchConfigurationLaunches.cpp - Launch sites ---------------------===//
//
// Which launches each kernel has: the one walk of the translation unit
// that finds launches, calls, attribute settings and the uses of kernels'
// addresses; the launches inside launchers, read once per call of the
// launcher; and the facts every launch of a kernel agrees on.
//
//===----------------------------------------------------------------------===//

#include "LaunchConfigurationInternal.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "MemorySpaceAnalysis.h"
#include "ThreadIndexAnalysis.h"
#include "TranslationUnitScan.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda {
namespace launch_config {

/// \p E without parentheses, casts and a leading '&'; null for null.
const Expr *withoutAddressOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenCasts();
  return E;
}

/// The reference to a kernel that \p E is ('kernel', '&kernel'), or null.
const DeclRefExpr *kernelReference(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(withoutAddressOf(E));
  const auto *FD = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  return FD && FD->hasAttr<CUDAGlobalAttr>() ? DRE : nullptr;
}

/// Collects launches, calls and kernel references of the translation unit.
/// (Replays the walk with instantiations and without implicit code.)
class Collector : public ScanVisitor<Collector> {
public:
  using Sites =
      llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 2>;
  Collector(const SourceManager &SM) : SM(SM) {}

  bool VisitCallExpr(CallExpr *Call) {
    if (const auto *KC = dyn_cast<CUDAKernelCallExpr>(Call)) {
      if (const FunctionDecl *K = KC->getDirectCallee())
        Launches[K->getCanonicalDecl()].push_back({Call, Current});
      else if (const VarDecl *P = pointerVar(Call->getCallee()))
        PointerLaunches[P].push_back({Call, Current});
      markBenign(Call->getCallee());
      return true;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    if (const ApiFunction *F = CudaApiModel::lookup(Call)) {
      if (F->Launch)
        if (const FunctionDecl *K = CudaApiModel::launchedKernel(Call))
          Launches[K->getCanonicalDecl()].push_back({Call, Current});
      if (F->SetAttribute)
        AttributeSets.push_back({Call, Current});
    }
    // The runtime's own functions (launches, attribute and occupancy
    // queries) use a kernel's address without calling it elsewhere.
    if (Callee->getIdentifier() && Callee->getName().starts_with("cuda") &&
        SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
      for (const Expr *Arg : Call->arguments())
        markBenign(Arg);
    markBenign(Call->getCallee());
    Calls[Callee->getCanonicalDecl()].push_back({Call, Current});
    return true;
  }

  // A kernel chosen into a function pointer that is then launched
  // ('kernel = &transposeNaive; ... kernel<<<grid, block>>>(...)'): each
  // launch through the pointer is a launch of every kernel stored in it,
  // as long as the pointer is used for nothing else.
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign) {
      if (const VarDecl *P = pointerVar(BO->getLHS()))
        storeInto(P, BO->getRHS(), BO->getLHS());
    } else if (BO->isEqualityOp()) {
      // 'kernel == &copy' only compares.
      for (const Expr *Side : {BO->getLHS(), BO->getRHS()})
        if (kernelOf(Side) || pointerVar(Side))
          markBenign(Side);
    }
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (isFunctionPointerVariable(VD) && VD->getInit())
      storeInto(VD, VD->getInit(), nullptr);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (FD->hasAttr<CUDAGlobalAttr>())
        KernelRefs.push_back({DRE, FD->getCanonicalDecl()});
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (isFunctionPointerVariable(VD))
        PointerRefs.push_back({DRE, VD});
    return true;
  }

  /// Kernels used other than by a launch or a runtime query; adds the
  /// launches through function pointers to Launches.
  llvm::DenseSet<const FunctionDecl *> finish() {
    llvm::DenseSet<const VarDecl *> PointerEscapes;
    for (auto &[DRE, VD] : PointerRefs)
      if (!Benign.count(DRE))
        PointerEscapes.insert(VD);
    for (auto &[VD, Kernels] : PointerTargets) {
      bool Known = !PointerEscapes.count(VD) && !VD->hasGlobalStorage();
      for (auto &[DRE, K] : Kernels) {
        if (!Known)
          continue;
        Benign.insert(DRE);
        for (auto &Site : PointerLaunches.lookup(VD))
          Launches[K].push_back(Site);
      }
    }
    llvm::DenseSet<const FunctionDecl *> Out;
    for (auto &[DRE, K] : KernelRefs)
      if (!Benign.count(DRE))
        Out.insert(K);
    return Out;
  }

  llvm::DenseMap<const FunctionDecl *, Sites> Launches, Calls;
  /// Calls that set an attribute of a kernel (cudaFuncSetAttribute).
  Sites AttributeSets;

private:
  static const VarDecl *pointerVar(const Expr *E) {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
        E ? E->IgnoreParenImpCasts() : nullptr);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return VD && isFunctionPointerVariable(VD) ? VD : nullptr;
  }
  static const DeclRefExpr *kernelOf(const Expr *E) {
    return kernelReference(E);
  }
  void storeInto(const VarDecl *P, const Expr *Value, const Expr *LHS) {
    if (const DeclRefExpr *K = kernelOf(Value)) {
      PointerTargets[P].push_back(
          {K, cast<FunctionDecl>(K->getDecl())->getCanonicalDecl()});
      if (LHS)
        markBenign(LHS);
    }
  }

  void markBenign(const Expr *E) {
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(withoutAddressOf(E)))
      Benign.insert(DRE);
  }

  const SourceManager &SM;
  llvm::DenseSet<const DeclRefExpr *> Benign;
  llvm::SmallVector<std::pair<const DeclRefExpr *, const FunctionDecl *>, 16>
      KernelRefs;
  llvm::SmallVector<std::pair<const DeclRefExpr *, const VarDecl *>, 16>
      PointerRefs;
  llvm::DenseMap<const VarDecl *, Sites> PointerLaunches;
  llvm::DenseMap<const VarDecl *,
                 llvm::SmallVector<std::pair<const DeclRefExpr *,
                                             const FunctionDecl *>, 4>>
      PointerTargets;
};

} // namespace launch_config

using namespace launch_config;

LaunchConfiguration::Impl::Impl(ASTContext &Ctx, ThreadIndexAnalysis &Facts)
    : Ctx(Ctx), Facts(Facts) {}
LaunchConfiguration::Impl::~Impl() = default;

void LaunchConfiguration::Impl::collect() {
  if (Collected)
    return;
  Collected = true;
  C = std::make_unique<Collector>(Ctx.getSourceManager());
  C->replay(TranslationUnitAnalyses::get(Ctx).scan().nodes(
                /*ImplicitCode=*/false),
            /*Instantiations=*/true);
  Escaped = C->finish();
  // Which kernels each function launches, in the order of C->Launches.
  for (auto &[Kernel, Sites] : C->Launches) {
    llvm::SmallPtrSet<const FunctionDecl *, 4> Hosts;
    for (auto &Site : Sites)
      if (Hosts.insert(Site.second).second)
        KernelsByHost[Site.second].push_back(Kernel);
  }
}

bool LaunchConfiguration::Impl::allVisible(const FunctionDecl *Kernel) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Pattern = Kernel;
  if (const FunctionDecl *P = Kernel->getTemplateInstantiationPattern())
    Pattern = P;
  auto InMain = [&](const Decl *D) {
    return SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
  };
  const FunctionDecl *Def = Pattern->getDefinition();
  if (!Def || !InMain(Def))
    return false;
  for (const FunctionDecl *R : Pattern->redecls())
    if (!InMain(R))
      return false;
  if (const FunctionTemplateDecl *T = Pattern->getDescribedFunctionTemplate())
    for (const RedeclarableTemplateDecl *R : T->redecls())
      if (!InMain(R))
        return false;
  return !Escaped.count(Kernel->getCanonicalDecl());
}

bool LaunchConfiguration::Impl::isLauncher(const FunctionDecl *FD) {
  if (!FD || FD->isMain() || FD->hasAttr<CUDAGlobalAttr>() ||
      (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>()))
    return false;
  auto It = C->Calls.find(FD->getCanonicalDecl());
  if (It == C->Calls.end() || It->second.empty())
    return false;
  return !TranslationUnitAnalyses::get(Ctx).isAddressTaken(FD);
}

void LaunchConfiguration::Impl::addSites(const CallExpr *Launch,
                                         const FunctionDecl *Host,
                                         const FunctionDecl *Kernel,
                                         KernelLaunches &Out) {
  // The launch read in its own function, and, when its shape is not
  // settled there and it is in a launcher, once per call of the launcher.
  struct Work {
    const Frame *Top;
    unsigned Level;
  };
  llvm::SmallVector<Work, 4> Queue{{frame(Host, nullptr, nullptr, Launch), 0}};
  unsigned Produced = 0;
  while (!Queue.empty() && Produced < 64) {
    Work W = Queue.pop_back_val();
    LaunchSite Site = readSite(Launch, W.Top, Kernel);
    bool Settled = llvm::all_of(Site.Dims, [](const LaunchDimension &D) {
      return D.Cover != GridCover::Unknown && D.Cover != GridCover::RoundedUp;
    });
    // The outermost function of the chain, whose callers may settle it.
    const Frame *Outer = W.Top;
    while (Outer->Parent)
      Outer = Outer->Parent;
    if (!Settled && W.Level < 3 && isLauncher(Outer->FD)) {
      auto It = C->Calls.find(Outer->FD->getCanonicalDecl());
      bool Recursive = false;
      for (auto &[Call, Caller] : It->second)
        for (const Frame *F = W.Top; F; F = F->Parent)
          if (F->FD == Caller)
            Recursive = true;
      if (!Recursive) {
        for (auto &[Call, Caller] : It->second) {
          // Rebuild the chain under the caller's frame.
          const Frame *CallerFrame = frame(Caller, nullptr, nullptr, Call);
          llvm::SmallVector<const Frame *, 4> Chain;
          for (const Frame *F = W.Top; F; F = F->Parent)
            Chain.push_back(F);
          const Frame *Parent = CallerFrame;
          for (auto I = Chain.rbegin(); I != Chain.rend(); ++I)
            Parent = frame((*I)->FD, *I == Outer ? Call : (*I)->Call, Parent,
                           (*I)->At);
          Queue.push_back({Parent, W.Level + 1});
        }
        continue;
      }
    }
    Out.Sites.push_back(std::move(Site));
    ++Produced;
  }
}

/// The constant \p Of gives at every one of \p Sites, when there is at
/// least one site and they all give the same.
static std::optional<int64_t>
agreed(llvm::ArrayRef<LaunchSite> Sites,
       llvm::function_ref<std::optional<int64_t>(const LaunchSite &)> Of) {
  std::optional<int64_t> V;
  for (const LaunchSite &S : Sites) {
    std::optional<int64_t> X = Of(S);
    if (!X || (V && *V != *X))
      return std::nullopt;
    V = X;
  }
  return V;
}

const KernelLaunches &
LaunchConfiguration::Impl::launchesOf(const FunctionDecl *Kernel) {
  const FunctionDecl *Canon = Kernel->getCanonicalDecl();
  auto &Slot = Known[Canon];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<KernelLaunches>();
  collect();
  KernelLaunches &Out = *Slot;
  Out.AllVisible = allVisible(Kernel);
  auto It = C->Launches.find(Canon);
  if (It != C->Launches.end()) {
    for (auto &[Launch, Host] : It->second) {
      if (Host)
        addSites(Launch, Host, Kernel, Out);
      else
        Out.AllVisible = false;
    }
  }
  // Facts every launch agrees on.
  for (unsigned D = 0; D < 3; ++D)
    Out.BlockDim[D] = agreed(Out.Sites, [D](const LaunchSite &S) {
      return S.Dims[D].BlockConst;
    });
  Out.SharedMemBytes = agreed(Out.Sites, [](const LaunchSite &S) {
    return S.SharedMem ? S.SharedMemBytes : 0;
  });
  return Out;
}

llvm::SmallVector<const LaunchSite *, 4>
LaunchConfiguration::Impl::sitesIn(const FunctionDecl *Host) {
  collect();
  llvm::SmallVector<const LaunchSite *, 4> Out;
  auto Launched = KernelsByHost.find(Host);
  if (Launched == KernelsByHost.end())
    return Out;
  for (const FunctionDecl *K : Launched->second)
    for (const LaunchSite &S : launchesOf(K).Sites)
      if (S.Host == Host)
        Out.push_back(&S);
  const SourceManager &SM = Ctx.getSourceManager();
  // In source order, sites of one place in the order they were found.
  auto Before = [&](const LaunchSite *A, const LaunchSite *B) {
    return SM.isBeforeInTranslationUnit(A->location(), B->location());
  };
  for (unsigned I = 1; I < Out.size(); ++I)
    for (unsigned J = I; J > 0 && Before(Out[J], Out[J - 1]); --J)
      std::swap(Out[J], Out[J - 1]);
  return Out;
}

/// The kernel a function-attribute call names, or null when it cannot be
/// read (a function pointer, a CUfunction handle).
static const FunctionDecl *kernelNamedBy(const Expr *Arg) {
  const DeclRefExpr *DRE = kernelReference(Arg);
  return DRE ? cast<FunctionDecl>(DRE->getDecl()) : nullptr;
}

llvm::SmallVector<LaunchConfiguration::LimitRaise, 2>
LaunchConfiguration::Impl::sharedMemoryLimitRaises(const FunctionDecl *Kernel) {
  collect();
  llvm::SmallVector<LaunchConfiguration::LimitRaise, 2> Out;
  for (auto &[Call, Host] : C->AttributeSets) {
    const FuncAttributeInfo &A = *CudaApiModel::lookup(Call)->SetAttribute;
    const FunctionDecl *Named =
        kernelNamedBy(CudaApiModel::argument(Call, A.KernelArg));
    if (Named && Named->getCanonicalDecl() != Kernel->getCanonicalDecl())
      continue;
    // A helper's parameter ('setLimit(const void *k, ...)') names kernels
    // passed to the helper, whose address escapes; not this one.
    const Expr *KernelArg = CudaApiModel::argument(Call, A.KernelArg);
    const auto *Param =
        KernelArg ? dyn_cast<DeclRefExpr>(KernelArg->IgnoreParenCasts())
                  : nullptr;
    if (!Named && Param && isa<ParmVarDecl>(Param->getDecl()) &&
        !Escaped.count(Kernel->getCanonicalDecl()))
      continue;
    const Expr *Attr = CudaApiModel::argument(Call, A.AttributeArg);
    const auto *DRE =
        Attr ? dyn_cast<DeclRefExpr>(Attr->IgnoreParenImpCasts()) : nullptr;
    if (DRE && isa<EnumConstantDecl>(DRE->getDecl()) &&
        DRE->getDecl()->getName() != A.MaxDynamicSharedAttribute)
      continue;
    Out.push_back({Call, Host});
  }
  return Out;
}

} // namespace clang::tidy::cuda
