//===- LaunchConfiguration.cpp - How each kernel is launched --------------===//

#include "LaunchConfiguration.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "MemorySpaceAnalysis.h"
#include "ThreadIndexAnalysis.h"
#include "TranslationUnitScan.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include <deque>

namespace clang::tidy::cuda {

namespace {

/// A place values are read in: a function, and the call that bound its
/// parameters (null at the launch's own function).
struct Frame {
  const FunctionDecl *FD = nullptr;
  const CallExpr *Call = nullptr; ///< The call of FD, in Parent.
  const Frame *Parent = nullptr;
  /// The statement of FD at which the launch happens (the launch, or the
  /// call that leads to it); null in a helper read for its return value.
  const Stmt *At = nullptr;
};

/// An expression and the frame it is read in.
struct Val {
  const Expr *E = nullptr;
  const Frame *F = nullptr;
  bool Unknown = false; ///< A component that cannot be read.
  static Val unknown() {
    Val V;
    V.Unknown = true;
    return V;
  }
};

/// How a function uses each of its local variables and parameters.
struct VarUse {
  llvm::SmallVector<const Expr *, 1> Stores; ///< Whole assignments.
  llvm::SmallVector<std::pair<llvm::StringRef, const Expr *>, 3> FieldStores;
  bool Escapes = false; ///< Address taken, incremented, bound to a ref...
};

const Expr *singleReturn(const FunctionDecl *FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  return Ret ? Ret->getRetValue() : nullptr;
}

bool isDim3(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "dim3";
}

int fieldIndex(llvm::StringRef Name) {
  if (Name == "x")
    return 0;
  if (Name == "y")
    return 1;
  if (Name == "z")
    return 2;
  return -1;
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
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf)
        E = U->getSubExpr()->IgnoreParenCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *FD = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
    return FD && FD->hasAttr<CUDAGlobalAttr>() ? DRE : nullptr;
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
    if (!E)
      return;
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf)
        E = U->getSubExpr()->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
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

/// The shape of a grid expression.
struct GridShape {
  enum Kind { None, Floor, Ceil } K = None;
  Val Extent;          ///< The numerator.
  Val Den;             ///< The denominator, when an expression.
  std::optional<int64_t> DenConst;
};

} // namespace

class LaunchConfiguration::Impl {
public:
  Impl(ASTContext &Ctx, ThreadIndexAnalysis &Facts) : Ctx(Ctx), Facts(Facts) {}

  const KernelLaunches &launchesOf(const FunctionDecl *Kernel);
  llvm::SmallVector<const LaunchSite *, 4> sitesIn(const FunctionDecl *Host);
  llvm::SmallVector<LaunchConfiguration::LimitRaise, 2>
  sharedMemoryLimitRaises(const FunctionDecl *Kernel);

private:
  void collect();
  bool allVisible(const FunctionDecl *Kernel);
  void addSites(const CallExpr *Launch, const FunctionDecl *Host,
                const FunctionDecl *Kernel, KernelLaunches &Out);
  LaunchSite readSite(const CallExpr *Launch, const Frame *Top,
                      const FunctionDecl *Kernel);
  bool isLauncher(const FunctionDecl *FD);

  const Frame *frame(const FunctionDecl *FD, const CallExpr *Call,
                     const Frame *Parent, const Stmt *At) {
    Frames.push_back(Frame{FD, Call, Parent, At});
    return &Frames.back();
  }
  const VarUse *useOf(const VarDecl *VD, const FunctionDecl *FD);
  Val resolve(Val V, unsigned Depth = 0);
  std::optional<int64_t> evaluate(Val V, unsigned Depth = 0,
                                  ConstantSource *From = nullptr);
  bool same(Val A, Val B, unsigned Depth = 0);
  bool components(Val V, Val Out[3], unsigned Depth = 0);
  std::optional<Val> fieldOf(Val Object, llvm::StringRef Field,
                             unsigned Depth);
  GridShape shapeOf(Val G, unsigned Depth = 0);
  GridShape shapeOfCeilCall(const CallExpr *Call, Val G, unsigned Depth);
  bool isMultipleOf(Val X, const GridShape &S);
  void classify(LaunchDimension &D, Val G, Val B, const LaunchSite &Site,
                llvm::ArrayRef<Val> Args);

  ASTContext &Ctx;
  ThreadIndexAnalysis &Facts;
  bool Collected = false;
  std::unique_ptr<Collector> C;
  llvm::DenseSet<const FunctionDecl *> Escaped;
  /// The kernels each function launches (collect()).
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<const FunctionDecl *, 4>>
      KernelsByHost;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<KernelLaunches>> Known;
  llvm::DenseMap<const FunctionDecl *,
                 std::unique_ptr<llvm::DenseMap<const VarDecl *, VarUse>>>
      Uses;
  std::deque<Frame> Frames;
  /// The launch readSite is reading, for ConstantSource::InCaller.
  const Stmt *ReadingLaunch = nullptr;
};

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

const VarUse *LaunchConfiguration::Impl::useOf(const VarDecl *VD,
                                               const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return nullptr;
  auto &Slot = Uses[FD];
  if (!Slot) {
    Slot = std::make_unique<llvm::DenseMap<const VarDecl *, VarUse>>();
    // The CFG's parent map, which the checks build anyway.
    std::optional<ParentMap> OwnParents;
    const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).cfgOf(FD);
    const ParentMap &PM =
        Cfg ? Cfg->parents() : OwnParents.emplace(FD->getBody());
    // Walks every reference to a variable and classifies its use.
    struct Walker : RecursiveASTVisitor<Walker> {
      const ParentMap &PM;
      llvm::DenseMap<const VarDecl *, VarUse> &Out;
      Walker(const ParentMap &PM,
             llvm::DenseMap<const VarDecl *, VarUse> &Out)
          : PM(PM), Out(Out) {}
      /// \p S with the parentheses and no-op casts around it, and the
      /// parent of that.
      std::pair<const Stmt *, const Stmt *> climb(const Stmt *S) {
        const Stmt *P = PM.getParent(S);
        while (P && (isa<ParenExpr>(P) ||
                     (isa<ImplicitCastExpr>(P) &&
                      cast<ImplicitCastExpr>(P)->getCastKind() == CK_NoOp))) {
          S = P;
          P = PM.getParent(S);
        }
        return {S, P};
      }
      const Stmt *up(const Stmt *S) { return climb(S).second; }
      const Stmt *self(const Stmt *S) { return climb(S).first; }
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        if (!VD)
          return true;
        VarUse &U = Out[VD];
        const Stmt *Me = self(DRE);
        const Stmt *P = up(DRE);
        if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
          // A field: 'grid.x = 12' stores it, a read reads it.
          if (ME->isArrow())
            return U.Escapes = true, true;
          const Stmt *MP = up(ME);
          const Stmt *MS = self(ME);
          if (const auto *BO = dyn_cast_or_null<BinaryOperator>(MP)) {
            if (BO->isAssignmentOp() && BO->getLHS() == MS) {
              if (BO->getOpcode() == BO_Assign && ME->getMemberDecl() &&
                  ME->getMemberDecl()->getIdentifier())
                U.FieldStores.push_back(
                    {ME->getMemberDecl()->getName(), BO->getRHS()});
              else
                U.Escapes = true;
            }
            return true;
          }
          // A struct field assigned whole: 'cfg.blockDim = dim3(256)'.
          if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(MP)) {
            if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
                OC->getArg(0) == MS && ME->getMemberDecl()->getIdentifier()) {
              U.FieldStores.push_back(
                  {ME->getMemberDecl()->getName(), OC->getArg(1)});
              return true;
            }
          }
          if (const auto *UO = dyn_cast_or_null<UnaryOperator>(MP))
            if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
              U.Escapes = true;
          if (isa_and_nonnull<MemberExpr>(MP)) // cfg.gridDim.x = ...
            if (const auto *BO = dyn_cast_or_null<BinaryOperator>(up(MP)))
              if (BO->isAssignmentOp())
                U.Escapes = true;
          if (ME->getType()->isRecordType() && !isa_and_nonnull<MemberExpr>(MP) &&
              !isa_and_nonnull<CXXConstructExpr>(MP) &&
              !isa_and_nonnull<ImplicitCastExpr>(MP))
            U.Escapes = true; // A field object passed on by reference.
          return true;
        }
        if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P)) {
          if (BO->isAssignmentOp() && BO->getLHS() == Me) {
            if (BO->getOpcode() == BO_Assign)
              U.Stores.push_back(BO->getRHS());
            else
              U.Escapes = true;
          }
          return true;
        }
        if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P)) {
          if (UO->isIncrementDecrementOp())
            U.Escapes = true;
          else if (UO->getOpcode() == UO_AddrOf) {
            // '&cfg' given to a launch is read, not kept.
            const Stmt *Q = up(UO);
            while (isa_and_nonnull<ImplicitCastExpr, CStyleCastExpr>(Q))
              Q = up(Q);
            const auto *Call = dyn_cast_or_null<CallExpr>(Q);
            const ApiFunction *F = Call ? CudaApiModel::lookup(Call) : nullptr;
            if (!F || !F->Launch || F->Launch->ConfigArg < 0)
              U.Escapes = true;
          }
          return true;
        }
        if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P)) {
          if (IC->getCastKind() != CK_LValueToRValue &&
              IC->getCastKind() != CK_ArrayToPointerDecay &&
              IC->getCastKind() != CK_DerivedToBase &&
              IC->getCastKind() != CK_UncheckedDerivedToBase)
            U.Escapes = true;
          if (IC->getCastKind() == CK_ArrayToPointerDecay)
            U.Escapes = true;
          return true;
        }
        if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(P)) {
          // A copy (dim3 passed by value to a launch) reads it.
          if (!CE->getConstructor()->isCopyOrMoveConstructor())
            U.Escapes = true;
          return true;
        }
        if (isa_and_nonnull<CallExpr>(P)) {
          // Passed by reference.
          if (!VD->getType()->isReferenceType())
            U.Escapes = true;
          return true;
        }
        if (P && !isa<MemberExpr, ArraySubscriptExpr>(P) &&
            DRE->isGLValue() && !VD->getType()->isArrayType())
          U.Escapes = true;
        return true;
      }
      bool TraverseLambdaExpr(LambdaExpr *L) {
        // Captures by reference may change anything they capture.
        for (const LambdaCapture &Cap : L->captures())
          if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef)
            if (const auto *VD = dyn_cast<VarDecl>(Cap.getCapturedVar()))
              Out[VD].Escapes = true;
        return true;
      }
    } W(PM, *Slot);
    W.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  }
  auto It = Slot->find(VD);
  static const VarUse Unused;
  return It == Slot->end() ? &Unused : &It->second;
}

Val LaunchConfiguration::Impl::resolve(Val V, unsigned Depth) {
  for (unsigned Step = 0; Step < 24 && V.E && !V.Unknown; ++Step) {
    const Expr *E = ThreadIndexAnalysis::strip(V.E);
    V.E = E;
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E)) {
      V.E = DA->getExpr();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return V;
      if (const auto *PV = dyn_cast<ParmVarDecl>(VD)) {
        const Frame *F = V.F;
        if (!F || !F->Call || PV->getDeclContext() != F->FD)
          return V;
        const VarUse *U = useOf(PV, F->FD);
        if (!U || U->Escapes || !U->Stores.empty() || !U->FieldStores.empty())
          return V;
        unsigned I = PV->getFunctionScopeIndex();
        if (I >= F->Call->getNumArgs())
          return V;
        V.E = F->Call->getArg(I);
        V.F = F->Parent;
        continue;
      }
      if (VD->hasLocalStorage()) {
        const FunctionDecl *Owner =
            dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
        if (!Owner || !V.F || V.F->FD != Owner)
          return V;
        const VarUse *U = useOf(VD, Owner);
        if (!U || U->Escapes || !U->FieldStores.empty())
          return V;
        const Expr *Init = VD->getInit();
        bool TrivialInit =
            !Init || (isa<CXXConstructExpr>(ThreadIndexAnalysis::strip(Init)) &&
                      cast<CXXConstructExpr>(ThreadIndexAnalysis::strip(Init))
                              ->getNumArgs() == 0);
        if (U->Stores.empty() && Init) {
          V.E = Init;
          continue;
        }
        if (U->Stores.size() == 1 && TrivialInit) {
          V.E = U->Stores.front();
          continue;
        }
        return V;
      }
      // A constant global: 'const int kBlock = 256;', constexpr.
      if (VD->hasGlobalStorage() &&
          (VD->getType().isConstQualified() || VD->isConstexpr()) &&
          VD->getAnyInitializer()) {
        V.E = VD->getAnyInitializer();
        V.F = nullptr;
        continue;
      }
      return V;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // One component of a dim3: 'block.x'.
      int I = ME->getMemberDecl() && ME->getMemberDecl()->getIdentifier()
                  ? fieldIndex(ME->getMemberDecl()->getName())
                  : -1;
      if (I < 0 || ME->isArrow() || !isDim3(ME->getBase()->getType()) ||
          Depth > 6)
        return V;
      Val Parts[3];
      if (!components({ME->getBase(), V.F}, Parts, Depth + 1))
        return V;
      if (Parts[I].Unknown)
        return V;
      if (!Parts[I].E) { // A default component: 1.
        V.E = IntegerLiteral::Create(Ctx, llvm::APInt(32, 1), Ctx.IntTy,
                                     ME->getExprLoc());
        V.F = nullptr;
        return V;
      }
      V = Parts[I];
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      // A helper whose body is one return: 'divUp(n, 256)'.
      const FunctionDecl *Callee = Call->getDirectCallee();
      const FunctionDecl *Def = nullptr;
      if (!Callee || isa<CUDAKernelCallExpr>(Call) || Depth > 6 ||
          !Callee->hasBody(Def) ||
          Ctx.getSourceManager().isInSystemHeader(
              Ctx.getSourceManager().getExpansionLoc(Def->getLocation())))
        return V;
      const Expr *Ret = singleReturn(Def);
      if (!Ret)
        return V;
      V.F = frame(Def, Call, V.F, nullptr);
      V.E = Ret;
      ++Depth;
      continue;
    }
    return V;
  }
  return V;
}

std::optional<int64_t> LaunchConfiguration::Impl::evaluate(
    Val V, unsigned Depth, ConstantSource *From) {
  if (Depth > 12 || V.Unknown)
    return std::nullopt;
  if (!V.E)
    return 1;
  V = resolve(V, Depth);
  if (From) {
    // The frames of the launch chain have At set, helpers' frames do not;
    // the launch's own function is the one at the launch.
    const Frame *F = V.F;
    while (F && !F->At)
      F = F->Parent;
    From->E = V.E;
    From->InCaller = F && F->At != ReadingLaunch;
  }
  if (!V.E || V.E->isValueDependent() ||
      !V.E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (auto C = ThreadIndexAnalysis::integerConstant(V.E, Ctx))
    return C;
  const auto *BO = dyn_cast<BinaryOperator>(V.E);
  if (!BO)
    return std::nullopt;
  auto L = evaluate({BO->getLHS(), V.F}, Depth + 1);
  if (!L)
    return std::nullopt;
  auto R = evaluate({BO->getRHS(), V.F}, Depth + 1);
  if (!R)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case BO_Add:
    return *L + *R;
  case BO_Sub:
    return *L - *R;
  case BO_Mul:
    return *L * *R;
  case BO_Div:
    return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
  case BO_Rem:
    return *R ? std::optional<int64_t>(*L % *R) : std::nullopt;
  case BO_Shl:
    return *R >= 0 && *R < 62 ? std::optional<int64_t>(*L << *R)
                              : std::nullopt;
  case BO_Shr:
    return *R >= 0 && *R < 62 ? std::optional<int64_t>(*L >> *R)
                              : std::nullopt;
  default:
    return std::nullopt;
  }
}

bool LaunchConfiguration::Impl::same(Val A, Val B, unsigned Depth) {
  if (Depth > 10 || !A.E || !B.E || A.Unknown || B.Unknown)
    return false;
  auto CA = evaluate(A, Depth + 1), CB = evaluate(B, Depth + 1);
  if (CA || CB)
    return CA && CB && *CA == *CB;
  A = resolve(A, Depth);
  B = resolve(B, Depth);
  if (A.E == B.E && A.F == B.F)
    return true;
  if (const auto *DA = dyn_cast<DeclRefExpr>(A.E)) {
    const auto *DB = dyn_cast<DeclRefExpr>(B.E);
    return DB && DA->getDecl() == DB->getDecl();
  }
  if (const auto *MA = dyn_cast<MemberExpr>(A.E)) {
    const auto *MB = dyn_cast<MemberExpr>(B.E);
    return MB && MA->getMemberDecl() == MB->getMemberDecl() &&
           same({MA->getBase(), A.F}, {MB->getBase(), B.F}, Depth + 1);
  }
  if (const auto *BA = dyn_cast<BinaryOperator>(A.E)) {
    const auto *BB = dyn_cast<BinaryOperator>(B.E);
    if (!BB || BA->getOpcode() != BB->getOpcode())
      return false;
    if (same({BA->getLHS(), A.F}, {BB->getLHS(), B.F}, Depth + 1) &&
        same({BA->getRHS(), A.F}, {BB->getRHS(), B.F}, Depth + 1))
      return true;
    return (BA->getOpcode() == BO_Add || BA->getOpcode() == BO_Mul) &&
           same({BA->getLHS(), A.F}, {BB->getRHS(), B.F}, Depth + 1) &&
           same({BA->getRHS(), A.F}, {BB->getLHS(), B.F}, Depth + 1);
  }
  if (const auto *UA = dyn_cast<UnaryOperator>(A.E)) {
    const auto *UB = dyn_cast<UnaryOperator>(B.E);
    return UB && UA->getOpcode() == UB->getOpcode() &&
           same({UA->getSubExpr(), A.F}, {UB->getSubExpr(), B.F}, Depth + 1);
  }
  if (const auto *CA2 = dyn_cast<CallExpr>(A.E)) {
    const auto *CB2 = dyn_cast<CallExpr>(B.E);
    if (!CB2 || !CA2->getDirectCallee() ||
        CA2->getDirectCallee() != CB2->getDirectCallee() ||
        CA2->getNumArgs() != CB2->getNumArgs())
      return false;
    for (unsigned I = 0; I < CA2->getNumArgs(); ++I)
      if (!same({CA2->getArg(I), A.F}, {CB2->getArg(I), B.F}, Depth + 1))
        return false;
    return true;
  }
  return false;
}

std::optional<Val> LaunchConfiguration::Impl::fieldOf(Val Object,
                                                      llvm::StringRef Field,
                                                      unsigned Depth) {
  Object.E = ThreadIndexAnalysis::strip(Object.E);
  if (const auto *U = dyn_cast<UnaryOperator>(Object.E))
    if (U->getOpcode() == UO_AddrOf)
      Object.E = ThreadIndexAnalysis::strip(U->getSubExpr());
  const auto *DRE = dyn_cast<DeclRefExpr>(Object.E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || !Object.F)
    return std::nullopt;
  const VarUse *U = useOf(VD, Object.F->FD);
  if (!U || U->Escapes || !U->Stores.empty())
    return std::nullopt;
  const Expr *Found = nullptr;
  for (auto &[Name, RHS] : U->FieldStores)
    if (Name == Field) {
      if (Found)
        return std::nullopt;
      Found = RHS;
    }
  if (Found)
    return Val{Found, Object.F};
  // An aggregate initializer: '= {grid, block, bytes}'.
  const auto *RD = VD->getType()->getAsRecordDecl();
  const auto *IL = dyn_cast_or_null<InitListExpr>(
      VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr);
  if (RD && IL) {
    unsigned I = 0;
    for (const FieldDecl *FDecl : RD->fields()) {
      if (FDecl->getName() == Field)
        return I < IL->getNumInits() ? std::optional<Val>(Val{IL->getInit(I), Object.F})
                                     : std::nullopt;
      ++I;
    }
  }
  return std::nullopt;
}

bool LaunchConfiguration::Impl::components(Val V, Val Out[3],
                                           unsigned Depth) {
  for (unsigned Step = 0; Step < 8 && Depth < 8; ++Step) {
    V = resolve(V, Depth);
    if (V.Unknown || !V.E || V.E->isTypeDependent() || V.E->isValueDependent())
      return false;
    const Expr *E = V.E;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getNumArgs() == 1) {
        V.E = CE->getArg(0);
        continue;
      }
      if (CE->getNumArgs() == 0) {
        for (unsigned D = 0; D < 3; ++D)
          Out[D] = Val{};
        return true;
      }
      if (CE->getNumArgs() != 3)
        return false;
      for (unsigned D = 0; D < 3; ++D) {
        const Expr *Arg = CE->getArg(D);
        if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(Arg))
          Out[D] = Val{DA->getExpr(), nullptr};
        else
          Out[D] = Val{Arg, V.F};
      }
      return true;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      if (!isDim3(IL->getType()) || IL->getNumInits() > 3)
        return false;
      for (unsigned D = 0; D < 3; ++D)
        Out[D] = D < IL->getNumInits() ? Val{IL->getInit(D), V.F} : Val{};
      return true;
    }
    if (E->getType()->isIntegerType()) {
      Out[0] = V;
      Out[1] = Out[2] = Val{};
      return true;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // A struct's dim3 field: 'cfg.gridDim'.
      if (ME->isArrow() || !ME->getMemberDecl()->getIdentifier())
        return false;
      std::optional<Val> F =
          fieldOf({ME->getBase(), V.F}, ME->getMemberDecl()->getName(), Depth);
      if (!F)
        return false;
      V = *F;
      continue;
    }
    // A dim3 assembled field by field: 'dim3 grid; grid.x = 12;'.
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        !isDim3(VD->getType()) || !V.F ||
        V.F->FD != dyn_cast_or_null<FunctionDecl>(VD->getDeclContext()))
      return false;
    const VarUse *U = useOf(VD, V.F->FD);
    if (!U || U->Escapes || U->Stores.size() > 1)
      return false;
    if (U->Stores.size() == 1) {
      if (!components({U->Stores.front(), V.F}, Out, Depth + 1))
        return false;
    } else if (VD->getInit()) {
      if (!components({VD->getInit(), V.F}, Out, Depth + 1))
        return false;
    } else {
      for (unsigned D = 0; D < 3; ++D)
        Out[D] = Val{};
    }
    for (unsigned D = 0; D < 3; ++D) {
      const char *Name[] = {"x", "y", "z"};
      unsigned N = 0;
      for (auto &[Field, RHS] : U->FieldStores)
        if (Field == Name[D]) {
          Out[D] = Val{RHS, V.F};
          ++N;
        }
      if (N > 1)
        Out[D] = Val::unknown();
    }
    return true;
  }
  return false;
}

/// The shape of a grid expression: Extent / Den (floor) or rounded up.
GridShape LaunchConfiguration::Impl::shapeOf(Val G, unsigned Depth) {
  GridShape S;
  if (Depth > 6 || !G.E || G.Unknown)
    return S;
  G = resolve(G, Depth);
  const Expr *E = G.E;
  // Sums and differences flattened into signed leaves, each with its
  // value when it is a constant ('n', 'threads', '-1').
  struct Leaf {
    int Sign;
    Val V;
    std::optional<int64_t> C;
  };
  auto Flatten = [&](Val N, llvm::SmallVectorImpl<Leaf> &Leaves) {
    llvm::SmallVector<std::pair<int, Val>, 4> Work{{1, N}};
    while (!Work.empty() && Leaves.size() < 8) {
      auto [Sign, Written] = Work.pop_back_val();
      Val W = resolve(Written, Depth + 1);
      const auto *BO = dyn_cast<BinaryOperator>(W.E);
      if (BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
        Work.push_back({Sign, {BO->getLHS(), W.F}});
        Work.push_back({BO->getOpcode() == BO_Add ? Sign : -Sign,
                        {BO->getRHS(), W.F}});
        continue;
      }
      Leaves.push_back({Sign, Written, evaluate(Written, Depth + 1)});
    }
  };
  // The extent in a numerator and the constant added to it: the one leaf
  // that is not a constant, or else the largest constant.
  auto Split = [&](llvm::SmallVectorImpl<Leaf> &Leaves, Val &Extent,
                   int64_t &Const) {
    int X = -1;
    for (unsigned I = 0; I < Leaves.size(); ++I)
      if (!Leaves[I].C) {
        if (X >= 0 || Leaves[I].Sign != 1)
          return false;
        X = I;
      }
    if (X < 0)
      for (unsigned I = 0; I < Leaves.size(); ++I)
        if (Leaves[I].Sign == 1 && (X < 0 || *Leaves[I].C > *Leaves[X].C))
          X = I;
    if (X < 0)
      return false;
    Const = 0;
    for (unsigned I = 0; I < Leaves.size(); ++I)
      if (int(I) != X)
        Const += Leaves[I].Sign * *Leaves[I].C;
    Extent = Leaves[X].V;
    return true;
  };
  // Numerator N over the denominator: floor, or rounded up when N adds
  // Den - 1 (or any positive constant) to the extent.
  auto Divide = [&](Val N, Val Den, std::optional<int64_t> DenC) {
    GridShape R;
    R.Den = Den;
    R.DenConst = DenC ? DenC : evaluate(Den, Depth + 1);
    llvm::SmallVector<Leaf, 4> Leaves;
    Flatten(N, Leaves);
    bool HasDen = false;
    if (Leaves.size() > 1)
      for (unsigned I = 0; I < Leaves.size(); ++I)
        if (Leaves[I].Sign == 1 &&
            ((Den.E && same(Leaves[I].V, Den, Depth + 1)) ||
             (!Den.E && R.DenConst && Leaves[I].C &&
              *Leaves[I].C == *R.DenConst))) {
          Leaves.erase(Leaves.begin() + I);
          HasDen = true;
          break;
        }
    int64_t Const = 0;
    if (!Split(Leaves, R.Extent, Const))
      return R;
    if (!HasDen && Const <= 0) {
      // Keep the numerator as written: (n - 1) / B stays within n - 1.
      R.Extent = N;
      R.K = GridShape::Floor;
    } else if ((HasDen && (Const == -1 || Const == 0)) ||
               (!HasDen && Const > 0)) {
      R.K = GridShape::Ceil;
    }
    return R;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Div:
      return Divide({BO->getLHS(), G.F}, {BO->getRHS(), G.F}, std::nullopt);
    case BO_Shr: {
      auto Sh = evaluate({BO->getRHS(), G.F}, Depth + 1);
      if (!Sh || *Sh < 0 || *Sh > 30)
        return S;
      return Divide({BO->getLHS(), G.F}, Val{}, int64_t(1) << *Sh);
    }
    case BO_Add: {
      // X / D + 1, X / D + (X % D != 0), X / D + (X % D ? 1 : 0) and
      // (X - 1) / D + 1: rounded up.
      for (int Side = 0; Side < 2; ++Side) {
        const Expr *L = Side ? BO->getRHS() : BO->getLHS();
        const Expr *R = Side ? BO->getLHS() : BO->getRHS();
        GridShape Base = shapeOf({L, G.F}, Depth + 1);
        if (Base.K == GridShape::None)
          continue;
        auto One = evaluate({R, G.F}, Depth + 1);
        const Expr *RS = ThreadIndexAnalysis::strip(R);
        bool Remainder = isa<BinaryOperator>(RS) || isa<ConditionalOperator>(RS);
        if ((One && *One == 1) || (!One && Remainder)) {
          if (Base.K == GridShape::Floor) {
            // (X - 1) / D + 1 is the extent X rounded up.
            llvm::SmallVector<Leaf, 4> Leaves;
            Flatten(Base.Extent, Leaves);
            Val X;
            int64_t Const = 0;
            if (Split(Leaves, X, Const) && Const == -1)
              Base.Extent = X;
          }
          Base.K = GridShape::Ceil;
          return Base;
        }
      }
      return S;
    }
    default:
      return S;
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    GridShape T = shapeOf({CO->getTrueExpr(), G.F}, Depth + 1);
    GridShape F = shapeOf({CO->getFalseExpr(), G.F}, Depth + 1);
    if (T.K == GridShape::None || F.K == GridShape::None ||
        !same(T.Extent, F.Extent, Depth + 1))
      return S;
    return T.K == GridShape::Ceil ? T : F;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return shapeOfCeilCall(Call, G, Depth);
  return S;
}

/// ceil(n / (float)B): rounded up.
GridShape LaunchConfiguration::Impl::shapeOfCeilCall(const CallExpr *Call,
                                                     Val G, unsigned Depth) {
  GridShape S;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() != 1)
    return S;
  llvm::StringRef Name = Callee->getName();
  if (Name != "ceil" && Name != "ceilf" && Name != "__builtin_ceil" &&
      Name != "__builtin_ceilf")
    return S;
  const auto *Div =
      dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(Call->getArg(0)));
  if (!Div || Div->getOpcode() != BO_Div)
    return S;
  S.K = GridShape::Ceil;
  S.Extent = {ThreadIndexAnalysis::strip(Div->getLHS()), G.F};
  S.Den = {Div->getRHS(), G.F};
  S.DenConst = evaluate(S.Den, Depth + 1);
  return S;
}

bool LaunchConfiguration::Impl::isMultipleOf(Val X, const GridShape &S) {
  auto XC = evaluate(X);
  if (XC && S.DenConst)
    return *S.DenConst != 0 && *XC % *S.DenConst == 0;
  // The facts at the launch: assert(n % B == 0), if (n % B) return. They
  // are asked in the function the extent is read in, with the extent as
  // written there and then followed through parameters and locals.
  const Expr *Den = S.Den.E;
  if (S.DenConst)
    Den = IntegerLiteral::Create(Ctx, llvm::APInt(64, *S.DenConst),
                                 Ctx.LongLongTy, SourceLocation());
  if (!Den)
    return false;
  for (unsigned Step = 0; Step < 6 && X.E; ++Step) {
    const Frame *F = X.F;
    while (F && !F->At)
      F = F->Parent;
    if (F && Facts.isKnownMultiple(X.E, Den, F->At, F->FD))
      return true;
    const Expr *Here = ThreadIndexAnalysis::strip(X.E);
    if (!isa<DeclRefExpr>(Here))
      break;
    Val Next = resolve({Here, X.F});
    if (Next.E == Here && Next.F == X.F)
      break;
    X = Next;
  }
  return false;
}

void LaunchConfiguration::Impl::classify(LaunchDimension &D, Val G, Val B,
                                         const LaunchSite &Site,
                                         llvm::ArrayRef<Val> Args) {
  if (G.Unknown || B.Unknown)
    return;
  D.Grid = G.E;
  D.Block = B.E;
  if (D.GridConst && D.BlockConst)
    D.Threads = *D.GridConst * *D.BlockConst;
  // The grid's shape first: '(1000 + 15) / 16' is a constant, and still
  // rounded up past 1000.
  GridShape S = G.E ? shapeOf(G) : GridShape();
  bool DenIsBlock = false, DenIsMultiple = false, BlockAtLeastDen = false;
  if (S.K != GridShape::None) {
    // How the denominator relates to the block: a floor division by a
    // multiple of the block stays within the extent; a rounded-up one by
    // the block (or less) runs past it.
    DenIsBlock = (S.Den.E && same(S.Den, B)) ||
                 (S.DenConst && D.BlockConst && *S.DenConst == *D.BlockConst);
    DenIsMultiple = DenIsBlock ||
                    (S.DenConst && D.BlockConst && *D.BlockConst > 0 &&
                     *S.DenConst % *D.BlockConst == 0);
    if (!DenIsMultiple && S.Den.E) {
      Val RD = resolve(S.Den);
      if (const auto *M = dyn_cast<BinaryOperator>(RD.E))
        if (M->getOpcode() == BO_Mul &&
            (same({M->getLHS(), RD.F}, B) || same({M->getRHS(), RD.F}, B)))
          DenIsMultiple = true;
    }
    BlockAtLeastDen = DenIsBlock || (S.DenConst && D.BlockConst &&
                                     *D.BlockConst >= *S.DenConst);
  }
  Val Extent;
  if (S.K == GridShape::Ceil && BlockAtLeastDen) {
    Extent = S.Extent;
    D.Cover = isMultipleOf(S.Extent, S) && DenIsBlock ? GridCover::Exact
                                                      : GridCover::RoundedUp;
  } else if (D.Threads) {
    D.Cover = *D.Threads == 1 ? GridCover::One : GridCover::Constant;
    return;
  } else if (D.GridConst && *D.GridConst == 1) {
    // One block of B threads.
    D.Cover = GridCover::Exact;
    Extent = B;
  } else if (S.K == GridShape::Floor && DenIsMultiple) {
    Extent = S.Extent;
    D.Cover = GridCover::Floor;
  } else {
    return;
  }
  // The extent as the launching code wrote it: a helper's or launcher's
  // parameter is shown as its argument ('n', not divUp's 'a').
  Val Shown = Extent;
  for (unsigned Step = 0; Step < 8 && Shown.E; ++Step) {
    const auto *DRE =
        dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(Shown.E));
    const auto *PV = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!PV || !Shown.F || !Shown.F->Call ||
        PV->getDeclContext() != Shown.F->FD ||
        PV->getFunctionScopeIndex() >= Shown.F->Call->getNumArgs())
      break;
    Shown = {Shown.F->Call->getArg(PV->getFunctionScopeIndex()),
             Shown.F->Parent};
  }
  D.Extent = ThreadIndexAnalysis::strip(Shown.E);
  for (unsigned I = 0; I < Args.size(); ++I)
    if (Args[I].E && same(Args[I], Extent))
      D.ExtentParams.push_back(I);
  (void)Site;
}

LaunchSite LaunchConfiguration::Impl::readSite(const CallExpr *Launch,
                                               const Frame *Top,
                                               const FunctionDecl *Kernel) {
  LaunchSite Site;
  Site.Launch = Launch;
  Site.Host = Top->FD;
  Site.Kernel = Kernel;
  ReadingLaunch = Launch;
  for (const Frame *F = Top; F; F = F->Parent)
    if (F->Call)
      Site.Via = F->Call;
  Val Grid = Val::unknown(), Block = Val::unknown(), Shared = Val::unknown();
  llvm::SmallVector<Val, 8> Args;
  unsigned NumParams = Kernel->getNumParams();
  if (const auto *KC = dyn_cast<CUDAKernelCallExpr>(Launch)) {
    if (const CallExpr *Config = KC->getConfig()) {
      if (Config->getNumArgs() >= 2) {
        Grid = {Config->getArg(0), Top};
        Block = {Config->getArg(1), Top};
      }
      if (Config->getNumArgs() >= 3)
        Shared = {Config->getArg(2), Top};
    }
    Site.ArgumentsKnown = true;
    for (unsigned I = 0; I < KC->getNumArgs() && I < NumParams; ++I)
      Args.push_back({KC->getArg(I), Top});
  } else if (const ApiFunction *F = CudaApiModel::lookup(Launch);
             F && F->Launch) {
    const LaunchInfo &L = *F->Launch;
    auto Arg = [&](int I) -> Val {
      if (I < 0 || (unsigned)I >= Launch->getNumArgs())
        return Val::unknown();
      return {Launch->getArg(I), Top};
    };
    if (L.ConfigArg >= 0) {
      Val Config = Arg(L.ConfigArg);
      if (!Config.Unknown) {
        if (auto G = fieldOf(Config, "gridDim", 0))
          Grid = *G;
        if (auto B = fieldOf(Config, "blockDim", 0))
          Block = *B;
        if (auto S = fieldOf(Config, "dynamicSmemBytes", 0))
          Shared = *S;
      }
      // The variadic form passes the kernel's own arguments.
      if (L.KernelArg >= 0 &&
          Launch->getNumArgs() == unsigned(L.KernelArg) + 1 + NumParams) {
        Site.ArgumentsKnown = true;
        for (unsigned I = 0; I < NumParams; ++I)
          Args.push_back(Arg(L.KernelArg + 1 + I));
      }
    } else {
      Grid = Arg(L.GridArg);
      Block = Arg(L.BlockArg);
      Shared = Arg(L.SharedMemArg);
    }
  }
  if (!Shared.Unknown && Shared.E) {
    Site.SharedMem = Shared.E;
    Site.SharedMemBytes = evaluate(Shared, 0, &Site.SharedMemFrom);
  }
  Val G[3], B[3];
  bool GridKnown = !Grid.Unknown && components(Grid, G);
  bool BlockKnown = !Block.Unknown && components(Block, B);
  for (unsigned D = 0; D < 3; ++D) {
    LaunchDimension &LD = Site.Dims[D];
    if (GridKnown)
      LD.GridConst = evaluate(G[D], 0, &LD.GridFrom);
    if (BlockKnown)
      LD.BlockConst = evaluate(B[D], 0, &LD.BlockFrom);
    if (GridKnown && BlockKnown)
      classify(LD, G[D], B[D], Site, Args);
  }
  return Site;
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
  for (unsigned D = 0; D < 3; ++D) {
    std::optional<int64_t> V;
    bool Agree = !Out.Sites.empty();
    for (const LaunchSite &S : Out.Sites) {
      const LaunchDimension &LD = S.Dims[D];
      if (!LD.BlockConst || (V && *V != *LD.BlockConst)) {
        Agree = false;
        break;
      }
      V = LD.BlockConst;
    }
    if (Agree)
      Out.BlockDim[D] = V;
  }
  std::optional<int64_t> Bytes;
  bool Agree = !Out.Sites.empty();
  for (const LaunchSite &S : Out.Sites) {
    std::optional<int64_t> B = S.SharedMem ? S.SharedMemBytes : 0;
    if (!B || (Bytes && *Bytes != *B)) {
      Agree = false;
      break;
    }
    Bytes = B;
  }
  if (Agree)
    Out.SharedMemBytes = Bytes;
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
  if (!Arg)
    return nullptr;
  Arg = Arg->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Arg))
    if (U->getOpcode() == UO_AddrOf)
      Arg = U->getSubExpr()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Arg);
  const auto *FD = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  return FD && FD->hasAttr<CUDAGlobalAttr>() ? FD : nullptr;
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

namespace {
/// Sums the constant-sized __shared__ variables a kernel declares or names,
/// following calls of same-TU device functions.
class SharedBytesCounter : public RecursiveASTVisitor<SharedBytesCounter> {
public:
  explicit SharedBytesCounter(ASTContext &Ctx) : Ctx(Ctx) {}
  bool shouldVisitImplicitCode() const { return false; }

  void addFunction(const FunctionDecl *FD, unsigned Depth) {
    const FunctionDecl *Def = nullptr;
    if (Depth > 8 || !FD->hasBody(Def) || !Functions.insert(Def).second ||
        Ctx.getSourceManager().isInSystemHeader(
            Ctx.getSourceManager().getExpansionLoc(Def->getLocation())))
      return;
    unsigned Saved = CurrentDepth;
    CurrentDepth = Depth;
    TraverseStmt(Def->getBody());
    CurrentDepth = Saved;
  }
  bool VisitVarDecl(VarDecl *VD) {
    addVariable(VD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      addVariable(VD);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->hasAttr<CUDADeviceAttr>() &&
        !Callee->hasAttr<CUDAGlobalAttr>())
      addFunction(Callee, CurrentDepth + 1);
    return true;
  }
  int64_t Bytes = 0;

private:
  void addVariable(const VarDecl *VD) {
    QualType T = VD->getType();
    if (!VD->hasAttr<CUDASharedAttr>() || VD->hasExternalStorage() ||
        T->isIncompleteType() || T->isDependentType() ||
        !T->isConstantSizeType() ||
        !Variables.insert(VD->getCanonicalDecl()).second)
      return;
    Bytes += Ctx.getTypeSizeInChars(T).getQuantity();
  }
  ASTContext &Ctx;
  unsigned CurrentDepth = 0;
  llvm::DenseSet<const FunctionDecl *> Functions;
  llvm::DenseSet<const VarDecl *> Variables;
};
} // namespace

int64_t staticSharedMemoryBytes(const FunctionDecl *Kernel, ASTContext &Ctx) {
  SharedBytesCounter Counter(Ctx);
  Counter.addFunction(Kernel, 0);
  return Counter.Bytes;
}

SourceLocation LaunchSite::location() const {
  return Via ? Via->getBeginLoc() : Launch->getBeginLoc();
}

LaunchConfiguration::LaunchConfiguration(ASTContext &Ctx,
                                         ThreadIndexAnalysis &Facts)
    : P(std::make_unique<Impl>(Ctx, Facts)) {}
LaunchConfiguration::~LaunchConfiguration() = default;

const KernelLaunches &
LaunchConfiguration::launchesOf(const FunctionDecl *Kernel) {
  return P->launchesOf(Kernel);
}

llvm::SmallVector<const LaunchSite *, 4>
LaunchConfiguration::sitesIn(const FunctionDecl *Host) {
  return P->sitesIn(Host);
}

llvm::SmallVector<LaunchConfiguration::LimitRaise, 2>
LaunchConfiguration::sharedMemoryLimitRaises(const FunctionDecl *Kernel) {
  return P->sharedMemoryLimitRaises(Kernel);
}

namespace {

/// The elements the buffer passed at \p Site for the kernel's pointer
/// parameter \p PtrParam holds past the value of \p Count, evaluated at
/// the launch.
std::optional<int64_t> elementsPast(const LaunchSite &Site, unsigned PtrParam,
                                    const Expr *Count,
                                    MemorySpaceAnalysis &MSA) {
  const auto *Launch = dyn_cast_or_null<CUDAKernelCallExpr>(Site.Launch);
  if (!Launch || !Count || PtrParam >= Launch->getNumArgs() ||
      PtrParam >= Site.Kernel->getNumParams())
    return std::nullopt;
  QualType Elem =
      Site.Kernel->getParamDecl(PtrParam)->getType()->getPointeeType();
  ASTContext &Ctx = MSA.context();
  if (Elem.isNull() || Elem->isIncompleteType() || Elem->isDependentType())
    return std::nullopt;
  int64_t ElemBytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
  const FunctionMemorySpaces *Host = MSA.analyse(Site.Host);
  if (!Host || ElemBytes <= 0)
    return std::nullopt;
  const Expr *Buffer = Launch->getArg(PtrParam);
  PointerFact F = Host->factOf(Buffer);
  if (!Site.Via && F.isKnown() && (F.Offset || F.Freed))
    return std::nullopt;
  SymbolicSize Counted = SymbolicSize::of(Count, MSA, Site.Host);
  if (!Counted.valid())
    return std::nullopt;
  auto ElementsPast = [&](const SymbolicSize &Bytes) -> std::optional<int64_t> {
    if (!Bytes.valid())
      return std::nullopt;
    std::optional<int64_t> Spare =
        Bytes.minus(Counted.times(ElemBytes)).constant();
    if (!Spare || *Spare < 0)
      return std::nullopt;
    return *Spare / ElemBytes;
  };
  // A launcher's arguments are its parameters: their allocations are the
  // callers', read with other values; only what the launcher itself shows
  // is in its own terms.
  if (!Site.Via && F.isKnown() && F.Size.Known) {
    // A wrapper's size is read in the wrapper, with its parameters bound
    // to the call's arguments.
    const FunctionDecl *AllocFD = Site.Host;
    if (F.Size.ViaCall) {
      const FunctionDecl *Callee = F.Size.ViaCall->getDirectCallee();
      if (!Callee || !Callee->hasBody(AllocFD))
        return std::nullopt;
    }
    return ElementsPast(SymbolicSize::of(F.Size, MSA, AllocFD));
  }
  // The allocation is not in sight (a member allocated by another method,
  // a caller's buffer): the sizes the launching function itself copies
  // into or out of the buffer before the launch.
  std::optional<int64_t> Most;
  for (const Expr *Bytes : MSA.bytesShownBefore(Site.Host, Buffer, Launch))
    if (std::optional<int64_t> Room =
            ElementsPast(SymbolicSize::of(Bytes, MSA, Site.Host)))
      Most = Most ? std::max(*Most, *Room) : *Room;
  return Most;
}

} // namespace

std::optional<int64_t> LaunchConfiguration::elementsPastArgument(
    const FunctionDecl *Kernel, unsigned PtrParam, unsigned CountParam,
    MemorySpaceAnalysis &MSA) {
  const KernelLaunches &L = launchesOf(Kernel);
  if (!L.known())
    return std::nullopt;
  std::optional<int64_t> Least;
  for (const LaunchSite &S : L.Sites) {
    if (!S.ArgumentsKnown || CountParam >= S.Launch->getNumArgs())
      return std::nullopt;
    std::optional<int64_t> Room =
        elementsPast(S, PtrParam, S.Launch->getArg(CountParam), MSA);
    if (!Room)
      return std::nullopt;
    Least = Least ? std::min(*Least, *Room) : *Room;
  }
  return Least;
}

std::optional<int64_t> LaunchConfiguration::elementsPastExtent(
    const FunctionDecl *Kernel, unsigned PtrParam, unsigned Dim,
    MemorySpaceAnalysis &MSA) {
  const KernelLaunches &L = launchesOf(Kernel);
  if (!L.known() || Dim > 2)
    return std::nullopt;
  std::optional<int64_t> Least;
  for (const LaunchSite &S : L.Sites) {
    const LaunchDimension &D = S.Dims[Dim];
    if (!S.ArgumentsKnown ||
        (D.Cover != GridCover::Floor && D.Cover != GridCover::Exact))
      return std::nullopt;
    std::optional<int64_t> Room = elementsPast(S, PtrParam, D.Extent, MSA);
    if (!Room)
      return std::nullopt;
    Least = Least ? std::min(*Least, *Room) : *Room;
  }
  return Least;
}

IndexCoverage LaunchConfiguration::coverage(const FunctionDecl *Kernel,
                                            unsigned DimMask) {
  IndexCoverage R;
  const KernelLaunches &L = launchesOf(Kernel);
  if (!L.known())
    return R;
  if (!DimMask)
    DimMask = 7;
  bool Unknown = false;
  for (const LaunchSite &S : L.Sites)
    for (unsigned D = 0; D < 3; ++D) {
      if (!(DimMask & (1u << D)))
        continue;
      if (S.Dims[D].Cover == GridCover::RoundedUp) {
        R.K = IndexCoverage::Overruns;
        R.Site = &S;
        R.Dim = D;
        return R;
      }
      if (!S.Dims[D].staysWithin())
        Unknown = true;
    }
  R.K = Unknown ? IndexCoverage::Unknown : IndexCoverage::Within;
  return R;
}

} // namespace clang::tidy::cuda
