//===- LaunchConfigurationQueries.cpp - What the checks ask ---------------===//
//
// The public face of the launch analysis: the launches of a kernel, the
// coverage of its global index, how many elements its buffers hold past
// an argument or an extent, the calls that raise its shared-memory limit,
// and the static shared memory it uses.
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

/// The fewest elements past the count, over every launch in \p L: \p Count
/// gives the count at a launch, or null when it cannot be read there.
std::optional<int64_t>
leastElementsPast(const KernelLaunches &L, unsigned PtrParam,
                  llvm::function_ref<const Expr *(const LaunchSite &)> Count,
                  MemorySpaceAnalysis &MSA) {
  std::optional<int64_t> Least;
  for (const LaunchSite &S : L.Sites) {
    const Expr *N = S.ArgumentsKnown ? Count(S) : nullptr;
    std::optional<int64_t> Room =
        N ? elementsPast(S, PtrParam, N, MSA) : std::nullopt;
    if (!Room)
      return std::nullopt;
    Least = Least ? std::min(*Least, *Room) : *Room;
  }
  return Least;
}

} // namespace

std::optional<int64_t> LaunchConfiguration::elementsPastArgument(
    const FunctionDecl *Kernel, unsigned PtrParam, unsigned CountParam,
    MemorySpaceAnalysis &MSA) {
  const KernelLaunches &L = launchesOf(Kernel);
  if (!L.known())
    return std::nullopt;
  return leastElementsPast(
      L, PtrParam,
      [&](const LaunchSite &S) -> const Expr * {
        return CountParam < S.Launch->getNumArgs()
                   ? S.Launch->getArg(CountParam)
                   : nullptr;
      },
      MSA);
}

std::optional<int64_t> LaunchConfiguration::elementsPastExtent(
    const FunctionDecl *Kernel, unsigned PtrParam, unsigned Dim,
    MemorySpaceAnalysis &MSA) {
  const KernelLaunches &L = launchesOf(Kernel);
  if (!L.known() || Dim > 2)
    return std::nullopt;
  return leastElementsPast(
      L, PtrParam,
      [&](const LaunchSite &S) -> const Expr * {
        const LaunchDimension &D = S.Dims[Dim];
        return D.Cover == GridCover::Floor || D.Cover == GridCover::Exact
                   ? D.Extent
                   : nullptr;
      },
      MSA);
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
