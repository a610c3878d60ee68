//===- InvalidFreeCheck.cpp -----------------------------------------------===//

#include "InvalidFreeCheck.h"
#include "MemoryCheckSupport.h"
#include "ResultUse.h"
#include "SourceLocations.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

InvalidFreeCheck::InvalidFreeCheck(StringRef Name, ClangTidyContext *Context)
    : MemorySpaceCheck(Name, Context,
                       {FunctionScope::All, CheckLanguages::Cuda,
                        /*NeedsWholeBody=*/true,
                        /*AnalysesTemplatePatterns=*/false,
                        /*ReadsCodeWithErrors=*/true, ErrorGate::Operands}),
      CheckUseAfterFree(Options.get("CheckUseAfterFree", true)) {}

void InvalidFreeCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CheckUseAfterFree", CheckUseAfterFree);
}

namespace {
/// A pointer, or the driver API's device address (CUdeviceptr, an
/// integer that cuMemAlloc writes and cuMemFree releases, as for a
/// pointer; PyCUDA's DeviceAllocation is lowered to one).
bool isAddress(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  QualType T = E->getType();
  if (T->isPointerType())
    return true;
  // A cast to the parameter's integer type (whose typedef a template
  // argument may have lost) of a CUdeviceptr.
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
      Cast && T->isIntegerType())
    return isAddress(Cast->getSubExpr());
  while (const auto *TT = T->getAs<TypedefType>()) {
    llvm::StringRef Name = TT->getDecl()->getName();
    if (Name == "CUdeviceptr" || Name == "CUdeviceptr_v2")
      return true;
    T = TT->getDecl()->getUnderlyingType();
  }
  return false;
}

/// The handle that \p Call destroys (a CUDA_RESOURCE destroy row), or null.
const Expr *destroyedHandle(const ApiFunction *Api, const CallExpr *Call) {
  if (!Api || !Call || !Api->Resource ||
      Api->Resource->Role != ResourceRole::Destroy)
    return nullptr;
  return CudaApiModel::argument(Call, Api->Resource->HandleArg);
}

/// Whether \p Callee is a function of a CUDA library that a handle may be
/// given to: the runtime, the driver or a library built on them
/// (CUDA_API_PREFIX rows), or another whose result is a CUDA_STATUS_TYPE
/// (NVRTC, which needs no runtime).
bool isLibraryCall(const FunctionDecl *Callee) {
  if (!Callee)
    return false;
  if (CudaApiModel::isRuntimeOrDriverCall(Callee))
    return true;
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  return Callee->getIdentifier() &&
         Callee->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
         SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())) &&
         !CudaApiModel::statusLibrary(Callee->getReturnType()).empty();
}

/// The opaque object that a handle of type \p T points to (the record of
/// cusparseSpMatDescr_t, of cudaEvent_t), or null when \p T is no pointer
/// to a record.
const RecordDecl *handleObject(QualType T) {
  const auto *PT = T.isNull() ? nullptr : T->getAs<PointerType>();
  if (!PT)
    return nullptr;
  const RecordDecl *RD = PT->getPointeeType()->getAsRecordDecl();
  return RD ? cast<RecordDecl>(RD->getCanonicalDecl()) : nullptr;
}

/// The name a user knows \p T by: its first typedef declared at file scope
/// in a system header (cusparseSpMatDescr_t), past the sugar of the Python
/// reader's helpers (cuda_tidy_host::out_t<...>); the type as written when
/// there is none.
std::string handleTypeName(QualType T, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (QualType Q = T; !Q.isNull();) {
    if (const auto *TT = dyn_cast<TypedefType>(Q.getTypePtr());
        TT && TT->getDecl()->getDeclContext()->isTranslationUnit() &&
        SM.isInSystemHeader(TT->getDecl()->getLocation()))
      return TT->getDecl()->getName().str();
    QualType Next = Q.getSingleStepDesugaredType(Ctx);
    if (Next == Q)
      break;
    Q = Next;
  }
  // A type deduced through templates has lost its typedef: the first
  // file-scope typedef of a system header that names the same type.
  QualType Canon = T.getCanonicalType();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *TD = dyn_cast<TypedefNameDecl>(D);
        TD && SM.isInSystemHeader(TD->getLocation()) &&
        TD->getUnderlyingType().getCanonicalType() == Canon)
      return TD->getName().str();
  return T.getAsString();
}

/// The variable or member that \p E names, or null.
const ValueDecl *namedHandle(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->getMemberDecl();
  return nullptr;
}

/// \p E named in a message: a member of `this` by its name (the Python
/// reader writes `self.h` as `this->h`), anything else as written.
std::string handleName(const Expr *E, const ASTContext &Ctx) {
  if (const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenCasts());
      ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return "'" + ME->getMemberDecl()->getNameAsString() + "'";
  return pointerName(E, Ctx);
}

/// Whether some create of the main file writes an \p Object handle into
/// \p Handle (through a cast of its address: one Python variable made by
/// cudaEventCreate and later by cudaStreamCreate has the first one's type).
bool mayHoldObject(const ValueDecl *Handle, const RecordDecl *Object,
                   ASTContext &Ctx) {
  for (const BoundNodes &N :
       match(callExpr(isExpansionInMainFile()).bind("c"), Ctx)) {
    const auto *C = N.getNodeAs<CallExpr>("c");
    const ApiFunction *Api = CudaApiModel::lookup(C);
    const FunctionDecl *Create = C->getDirectCallee();
    if (!Api || !Api->Resource || Api->Resource->Role != ResourceRole::Create ||
        !Create || (unsigned)Api->Resource->HandleArg >= Create->getNumParams())
      continue;
    const Expr *Out = CudaApiModel::argument(C, Api->Resource->HandleArg);
    const auto *UO = Out ? dyn_cast<UnaryOperator>(Out->IgnoreParenCasts())
                         : nullptr;
    if (!UO || UO->getOpcode() != UO_AddrOf ||
        namedHandle(UO->getSubExpr()) != Handle)
      continue;
    QualType Param =
        Create->getParamDecl(Api->Resource->HandleArg)->getType();
    if (const auto *PT = Param->getAs<PointerType>();
        PT && handleObject(PT->getPointeeType()) == Object)
      return true;
  }
  return false;
}

const char *releaserFor(unsigned Spaces) {
  switch (Spaces) {
  case MS_Host:
    return "free or delete";
  case MS_Device:
  case MS_Managed:
  case MS_Device | MS_Managed:
    return "cudaFree";
  case MS_Pinned:
    return "cudaFreeHost";
  default:
    return nullptr;
  }
}
} // namespace

void InvalidFreeCheck::checkStmt(const Stmt *S, const FunctionMemorySpaces &M,
                                 ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto UseAfterFree = [&](const Expr *Ptr, const Stmt *At, const char *How) {
    PointerFact F = M.factOf(Ptr);
    if (!F.Freed || F.Unknown)
      return false;
    SourceLocation Loc = reportOnce(At->getBeginLoc(), SM);
    if (Loc.isInvalid())
      return true;
    diag(Loc, "%0 is %1 after it was freed") << pointerName(Ptr, Ctx) << How;
    if (F.FreedAt)
      diag(userVisibleLocation(F.FreedAt->getBeginLoc(), SM),
           "the memory was freed here", DiagnosticIDs::Note);
    return true;
  };

  // Releases: the wrong function, or a second time.
  const Expr *Released = nullptr;
  std::string Releaser;
  unsigned Accepted = 0;
  const auto *Call = dyn_cast<CallExpr>(S);
  const ApiFunction *Api = CudaApiModel::lookup(Call);
  if (const Expr *Handle = destroyedHandle(Api, Call)) {
    // A handle given to the destroy of another kind of object (a sparse
    // matrix to cusparseDestroyDnMat, an event to cudaStreamDestroy): a
    // type error in C++, but not through a cast, nor in the Python reader's
    // units (ctypes passes a c_void_p).
    const FunctionDecl *Destroy = Call->getDirectCallee();
    unsigned HandleArg = Api->Resource->HandleArg;
    if (Destroy && HandleArg < Destroy->getNumParams()) {
      const Expr *Arg = Handle->IgnoreParenCasts();
      QualType Param = Destroy->getParamDecl(HandleArg)->getType();
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg);
          UO && UO->getOpcode() == UO_AddrOf) {
        Arg = UO->getSubExpr()->IgnoreParenCasts();
        const auto *PT = Param->getAs<PointerType>();
        Param = PT ? PT->getPointeeType() : QualType();
      }
      const RecordDecl *Given = handleObject(Arg->getType());
      const RecordDecl *Taken = handleObject(Param);
      const ValueDecl *Named = namedHandle(Arg);
      if (Given && Taken && Given != Taken && Named &&
          !mayHoldObject(Named, Taken, Ctx)) {
        SourceLocation Loc = reportOnce(Arg->getBeginLoc(), SM);
        if (Loc.isValid())
          diag(Loc, "%0 is a '%1', but it is destroyed with '%2', which "
                    "takes a '%3'")
              << handleName(Arg, Ctx) << handleTypeName(Arg->getType(), Ctx)
              << Api->Name << handleTypeName(Param, Ctx);
        return;
      }
    }
    // A handle destroyed twice (cublasDestroy, cufftDestroy): the memory
    // space analysis marks it freed at its first destroy.
    PointerFact F = M.factOf(Handle);
    if (F.Unknown || F.Bottom || !F.Freed)
      return;
    if (F.FreedAt && isa<Expr>(F.FreedAt) &&
        sameMacroArgument(cast<Expr>(F.FreedAt), cast<Expr>(S), SM))
      return;
    SourceLocation Loc = reportOnce(S->getBeginLoc(), SM);
    if (Loc.isInvalid())
      return;
    diag(Loc, "%0 is destroyed twice: it was already destroyed on every path "
              "to this '%1'")
        << pointerName(Handle, Ctx) << Api->Name;
    if (F.FreedAt)
      diag(userVisibleLocation(F.FreedAt->getBeginLoc(), SM),
           "it was destroyed here", DiagnosticIDs::Note);
    return;
  }
  if (Api && Api->Free && Api->Free->PtrArg >= 0 &&
      (unsigned)Api->Free->PtrArg < Call->getNumArgs()) {
    Released = Call->getArg(Api->Free->PtrArg);
    Releaser = "'" + Api->Name.str() + "'";
    Accepted = Api->Free->AcceptedSpaces;
  } else if (const auto *Del = dyn_cast<CXXDeleteExpr>(S)) {
    Released = Del->getArgument();
    Releaser = Del->isArrayForm() ? "'delete[]'" : "'delete'";
    Accepted = MS_Host; // A language fact, not an API one.
  }
  if (Released) {
    PointerFact F = M.factOf(Released);
    if (F.Unknown || F.Bottom)
      return;
    if (F.Freed) {
      // A macro that evaluates its argument again when it fails:
      // cuda-unchecked-api-call reports the macro.
      if (F.FreedAt && isa<Expr>(F.FreedAt) &&
          sameMacroArgument(cast<Expr>(F.FreedAt), cast<Expr>(S), SM))
        return;
      SourceLocation Loc = reportOnce(S->getBeginLoc(), SM);
      if (Loc.isInvalid())
        return;
      diag(Loc, "%0 is freed twice: it was already freed on every path to "
                "this %1")
          << pointerName(Released, Ctx) << Releaser;
      if (F.FreedAt)
        diag(userVisibleLocation(F.FreedAt->getBeginLoc(), SM),
             "the memory was freed here", DiagnosticIDs::Note);
      return;
    }
    // Registered host memory is still released by free/delete.
    if (F.Registered && (Accepted & MS_Host))
      return;
    if (!F.isKnown() || (F.Spaces & Accepted))
      return;
    SourceLocation Loc = reportOnce(S->getBeginLoc(), SM);
    if (Loc.isInvalid())
      return;
    if (const char *Right = releaserFor(F.Spaces))
      diag(Loc, "%0 is %1 memory, but it is released with %2; use %3")
          << pointerName(Released, Ctx) << spaceName(F.Spaces) << Releaser
          << Right;
    else
      diag(Loc, "%0 is %1 memory, but it is released with %2")
          << pointerName(Released, Ctx) << spaceName(F.Spaces) << Releaser;
    noteAllocation(*this, F, SM);
    return;
  }

  if (!CheckUseAfterFree)
    return;
  if (const Expr *Base = dereferencedPointer(S, M.cfg().parents())) {
    UseAfterFree(Base, S, "dereferenced");
    return;
  }
  if (!Call)
    return;
  // A destroyed handle given to a call of its library (cublasSgemm_v2 after
  // cublasDestroy_v2).
  if (const FunctionDecl *Callee = Call->getDirectCallee();
      isLibraryCall(Callee))
    for (const Expr *A : Call->arguments()) {
      PointerFact F = M.factOf(A);
      if (F.Unknown || F.Bottom || !F.Freed || !F.FreedAt ||
          !destroyedHandle(CudaApiModel::lookup(dyn_cast<CallExpr>(F.FreedAt)),
                           dyn_cast<CallExpr>(F.FreedAt)))
        continue;
      SourceLocation Loc = reportOnce(A->IgnoreParenCasts()->getBeginLoc(), SM);
      if (Loc.isInvalid())
        return;
      diag(Loc, "%0 is passed to %1 after it was destroyed")
          << pointerName(A, Ctx) << Callee->getDeclName();
      diag(userVisibleLocation(F.FreedAt->getBeginLoc(), SM),
           "it was destroyed here", DiagnosticIDs::Note);
      return;
    }
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call)) {
    for (const Expr *A : Launch->arguments())
      if (A->getType()->isPointerType() &&
          UseAfterFree(A, A, "passed to a kernel"))
        return;
    return;
  }
  if (Api && Api->Copy) {
    for (int I : {Api->Copy->DstArg, Api->Copy->SrcArg})
      if (I >= 0 && (unsigned)I < Call->getNumArgs() &&
          isAddress(Call->getArg(I)) &&
          UseAfterFree(Call->getArg(I), Call->getArg(I),
                       I == Api->Copy->DstArg ? "written by a copy"
                                              : "read by a copy"))
        return;
  }
}

} // namespace clang::tidy::cuda
