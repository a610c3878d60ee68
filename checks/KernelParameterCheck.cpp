//===- KernelParameterCheck.cpp -------------------------------------------===//

#include "KernelParameterCheck.h"
#include "CudaApiModel.h"
#include "CudaUseReachability.h"
#include "FunctionCfg.h"
#include "MemorySpaceAnalysis.h"
#include "SourceLocations.h"
#include "TypeFacts.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda {

using Reason = KernelParameterCheck::Reason;

KernelParameterCheck::KernelParameterCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CudaFunctionCheck(Name, Context,
                        {FunctionScope::All, CheckLanguages::Cuda,
                         /*NeedsWholeBody=*/false,
                         /*AnalysesTemplatePatterns=*/true}),
      RawAllowedTypes(Options.get("AllowedTypes", "")) {
  AllowedTypes = utils::options::parseStringList(RawAllowedTypes);
}

void KernelParameterCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AllowedTypes", RawAllowedTypes);
}

bool KernelParameterCheck::isAllowedType(QualType T) const {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  std::string Name = RD->getQualifiedNameAsString();
  for (StringRef A : AllowedTypes) {
    A.consume_front("::");
    if (A == Name)
      return true;
  }
  return false;
}

namespace {

const CXXMethodDecl *firstVirtual(const CXXRecordDecl *RD) {
  for (const CXXMethodDecl *M : RD->methods())
    if (M->isVirtual() && !M->isImplicit())
      return M;
  return nullptr;
}

/// Why values of \p T cannot be copied to the device, when they cannot.
std::optional<Reason> unsuitable(QualType T, unsigned Depth = 0) {
  const CXXRecordDecl *RD =
      T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Depth > 8)
    return std::nullopt;
  RD = RD->getDefinition();
  bool Copyable = RD->isTriviallyCopyable() ||
                  (!RD->hasNonTrivialCopyConstructor() &&
                   !RD->hasNonTrivialMoveConstructor() &&
                   !RD->hasNonTrivialDestructor());
  if (Copyable && !RD->isPolymorphic())
    return std::nullopt;
  if (RD->isPolymorphic() && !RD->getNumVBases())
    if (const CXXMethodDecl *V = firstVirtual(RD)) {
      Reason R;
      R.Polymorphic = true;
      R.Culprit = V;
      R.CulpritClass = RD->getASTContext().getCanonicalTagType(RD);
      return R;
    }
  for (const CXXBaseSpecifier &B : RD->bases())
    if (std::optional<Reason> R = unsuitable(B.getType(), Depth + 1)) {
      R->Path.insert(R->Path.begin(), {nullptr, B.getType(), B.getBeginLoc()});
      return R;
    }
  for (const FieldDecl *F : RD->fields())
    if (std::optional<Reason> R = unsuitable(F->getType(), Depth + 1)) {
      R->Path.insert(R->Path.begin(), {F, F->getType(), F->getLocation()});
      return R;
    }
  // Special members that are empty or copy member by member do what the
  // launch's bitwise copy does.
  if (const FunctionDecl *Special = copyWithEffects(RD)) {
    Reason R;
    R.Culprit = Special;
    R.CulpritClass = RD->getASTContext().getCanonicalTagType(RD);
    return R;
  }
  return std::nullopt;
}

} // namespace

void KernelParameterCheck::checkFunction(const FunctionDecl &FD,
                                         const FunctionCfg &Cfg,
                                         ASTContext &Ctx) {
  if (FD.hasAttr<CUDAGlobalAttr>()) {
    checkParameters(FD, Ctx);
    return;
  }
  if (FD.hasAttr<CUDADeviceAttr>() && !FD.hasAttr<CUDAHostAttr>())
    return;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &E : *B)
      if (const auto *K =
              dyn_cast_or_null<CUDAKernelCallExpr>(FunctionCfg::stmtOf(E)))
        checkLaunch(K, Ctx);
}

void KernelParameterCheck::checkParameters(const FunctionDecl &Kernel,
                                           ASTContext &Ctx) {
  for (unsigned I = 0; I < Kernel.getNumParams(); ++I) {
    const ParmVarDecl *P = Kernel.getParamDecl(I);
    QualType T = P->getType();
    if (T->isReferenceType()) {
      checkReferenceParameter(Kernel, I, Ctx);
      continue;
    }
    if (T->isDependentType() || isAllowedType(T))
      continue;
    if (std::optional<Reason> R = unsuitable(T))
      reportType(P, *R, Ctx);
  }
}

const std::vector<const CUDAKernelCallExpr *> &
KernelParameterCheck::launchesOf(const FunctionDecl *Kernel, ASTContext &Ctx) {
  if (!LaunchesKnown) {
    LaunchesKnown = true;
    Launches.clear();
    struct Finder : RecursiveASTVisitor<Finder> {
      decltype(Launches) &Out;
      explicit Finder(decltype(Launches) &Out) : Out(Out) {}
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *K) {
        if (const FunctionDecl *Callee = K->getDirectCallee())
          Out[Callee->getCanonicalDecl()].push_back(K);
        return true;
      }
    } F(Launches);
    F.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  return Launches[Kernel->getCanonicalDecl()];
}

void KernelParameterCheck::checkReferenceParameter(const FunctionDecl &Kernel,
                                                   unsigned Index,
                                                   ASTContext &Ctx) {
  const ParmVarDecl *P = Kernel.getParamDecl(Index);
  // References bound to __managed__ variables at every launch are valid.
  const Expr *HostArgument = nullptr;
  const auto &Sites = launchesOf(&Kernel, Ctx);
  for (const CUDAKernelCallExpr *K : Sites) {
    if (Index >= K->getNumArgs())
      continue;
    // A default argument is written at the parameter.
    const Expr *Arg = K->getArg(Index);
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
      Arg = Default->getExpr();
    const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (VD && isManagedVariableDecl(VD))
      continue;
    if (!HostArgument)
      HostArgument = Arg;
  }
  if (!Sites.empty() && !HostArgument)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(P->getLocation(), SM);
  if (Loc.isInvalid())
    return;
  diag(Loc, "kernel parameter %0 is a reference; the kernel receives the "
            "host address of its argument")
      << P;
  if (HostArgument)
    diag(userVisibleLocation(HostArgument->getBeginLoc(), SM),
         "the launch binds it to this argument, which is not a __managed__ "
         "variable",
         DiagnosticIDs::Note);
}

void KernelParameterCheck::reportType(const ParmVarDecl *P, const Reason &R,
                                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(P->getLocation(), SM);
  if (Loc.isInvalid())
    return;
  if (R.Polymorphic)
    diag(Loc, "kernel parameter %0 of type %1 holds a virtual table pointer, "
              "which is a host address on the device")
        << P << P->getType();
  else
    diag(Loc, "kernel parameter %0 of type %1 is not trivially copyable; "
              "the device gets a bitwise copy made on the host")
        << P << P->getType();
  for (const Reason::Step &S : R.Path) {
    if (S.Member)
      diag(S.Loc, "because of member %0 of type %1", DiagnosticIDs::Note)
          << S.Member << S.Type;
    else
      diag(S.Loc, "because of base class %0", DiagnosticIDs::Note) << S.Type;
  }
  if (!R.Culprit || SM.isInSystemHeader(R.Culprit->getLocation()))
    return;
  if (R.Polymorphic)
    diag(R.Culprit->getLocation(), "%0 is virtual in %1", DiagnosticIDs::Note)
        << R.Culprit << R.CulpritClass;
  else if (isa<CXXDestructorDecl>(R.Culprit))
    diag(R.Culprit->getLocation(),
         "%0 has a user-provided destructor, which runs on the host on the "
         "launch's copy while the kernel may still run",
         DiagnosticIDs::Note)
        << R.CulpritClass;
  else
    diag(R.Culprit->getLocation(),
         "%0 has a user-provided copy or move constructor, which the copy to "
         "the device does not run",
         DiagnosticIDs::Note)
        << R.CulpritClass;
}

void KernelParameterCheck::checkLaunch(const CUDAKernelCallExpr *Launch,
                                       ASTContext &Ctx) {
  const FunctionDecl *Kernel = Launch->getDirectCallee();
  if (!Kernel)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  for (unsigned I = 0; I < Launch->getNumArgs(); ++I) {
    const Expr *Arg = Launch->getArg(I);
    if (I < Kernel->getNumParams() &&
        Kernel->getParamDecl(I)->getType()->isReferenceType())
      continue; // Reported at the parameter.
    const FunctionDecl *F =
        Arg->getType()->isFunctionPointerType() ? namedFunction(Arg) : nullptr;
    if (F && (F->hasAttr<CUDAGlobalAttr>() || (F->hasAttr<CUDADeviceAttr>() &&
                                                !F->hasAttr<CUDAHostAttr>())))
      F = nullptr; // Device code has the address of a device function.
    if (!F)
      continue; // Host variables' addresses: cuda-wrong-memory-space.
    SourceLocation Loc = reportOnce(Arg->getBeginLoc(), SM);
    if (Loc.isInvalid())
      continue;
    diag(Loc, "kernel %0 is given the address of host function %1, which "
              "the device cannot call")
        << Kernel << F;
    diag(F->getLocation(), "%0 declared here", DiagnosticIDs::Note) << F;
  }
}

} // namespace clang::tidy::cuda
