//===- WrongMemorySpaceCheck.cpp ------------------------------------------===//

#include "WrongMemorySpaceCheck.h"
#include "CudaApiModel.h"
#include "MemoryCheckSupport.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

WrongMemorySpaceCheck::WrongMemorySpaceCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : MemorySpaceCheck(Name, Context,
                       {FunctionScope::All, CheckLanguages::Cuda,
                        /*NeedsWholeBody=*/true,
                        /*AnalysesTemplatePatterns=*/false,
                        /*ReadsCodeWithErrors=*/true, ErrorGate::Operands}),
      HostReadFunctions(Options.get("HostReadFunctions", "")) {
  for (StringRef Name : utils::options::parseStringList(HostReadFunctions))
    HostReadNames.push_back(Name.str());
}

void WrongMemorySpaceCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "HostReadFunctions", HostReadFunctions);
}

namespace {
/// The arguments a printf-like call reads as strings (%s).
llvm::SmallVector<unsigned, 2> stringArguments(const CallExpr *Call,
                                               unsigned FormatArg) {
  llvm::SmallVector<unsigned, 2> Result;
  if (FormatArg >= Call->getNumArgs())
    return Result;
  const auto *Lit = dyn_cast<StringLiteral>(
      Call->getArg(FormatArg)->IgnoreParenImpCasts());
  if (!Lit || !Lit->isOrdinary())
    return Result;
  StringRef F = Lit->getString();
  unsigned Next = FormatArg + 1;
  for (size_t I = 0; I < F.size(); ++I) {
    if (F[I] != '%')
      continue;
    ++I;
    if (I < F.size() && F[I] == '%')
      continue;
    // Flags, width, precision, length.
    while (I < F.size() && StringRef("-+ #0123456789.*hlLqjzt").contains(F[I])) {
      if (F[I] == '*')
        ++Next;
      ++I;
    }
    if (I >= F.size())
      break;
    if (F[I] == 's')
      Result.push_back(Next);
    ++Next;
  }
  return Result;
}

bool isSymbolVariable(const VarDecl *VD) {
  return VD->hasGlobalStorage() &&
         (CudaApiModel::isDeclaredDeviceVariable(VD) ||
          CudaApiModel::isDeclaredConstantVariable(VD) ||
          isManagedVariableDecl(VD));
}
} // namespace

void WrongMemorySpaceCheck::checkStmt(const Stmt *S,
                                      const FunctionMemorySpaces &M,
                                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  MemorySpaceAnalysis &MSA = MemorySpaceAnalysis::get(Ctx, arch());

  // Device memory read or written on the host.
  if (const Expr *Base = dereferencedPointer(S, M.cfg().parents())) {
    PointerFact F = M.factOf(Base);
    if (!F.isOnly(MS_Device) || F.Freed)
      return;
    SourceLocation Loc = reportOnce(S->getBeginLoc(), SM);
    if (Loc.isInvalid())
      return;
    diag(Loc, "device memory %0 is dereferenced on the host")
        << pointerName(Base, Ctx);
    noteAllocation(*this, F, SM);
    return;
  }

  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return;
  const FunctionDecl *Callee = Call->getDirectCallee();

  // Host memory given to a kernel that dereferences it.
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call)) {
    const FunctionDecl *Kernel = Launch->getDirectCallee();
    if (!Kernel)
      return;
    for (unsigned I = 0; I < Launch->getNumArgs(); ++I) {
      const Expr *A = Launch->getArg(I);
      if (!A->getType()->isPointerType())
        continue;
      PointerFact F = M.factOf(A);
      if (!F.isOnly(MS_Host) || F.Registered || F.Freed)
        continue;
      if (!MSA.kernelDereferences(Kernel, I))
        continue;
      SourceLocation Loc = reportOnce(A->getBeginLoc(), SM);
      if (Loc.isInvalid())
        continue;
      diag(Loc, "host memory %0 is passed to kernel %1, which dereferences it "
                "on the device")
          << pointerName(A, Ctx) << Kernel->getDeclName();
      noteAllocation(*this, F, SM);
    }
    return;
  }

  if (!Callee)
    return;
  const ApiFunction *Api = CudaApiModel::lookup(Call);
  auto ReportDeviceArg = [&](const Expr *A) {
    PointerFact F = M.factOf(A);
    if (!F.isOnly(MS_Device) || F.Freed)
      return false;
    SourceLocation Loc = reportOnce(A->getBeginLoc(), SM);
    if (Loc.isInvalid())
      return true;
    diag(Loc, "device memory %0 is passed to %1, which reads or writes it on "
              "the host")
        << pointerName(A, Ctx) << Callee->getDeclName();
    noteAllocation(*this, F, SM);
    return true;
  };

  // A non-symbol given to cudaMemcpyToSymbol/FromSymbol.
  if (Api && Api->Copy &&
      (Api->Copy->Flags & (CF_ToSymbol | CF_FromSymbol))) {
    int SymArg = (Api->Copy->Flags & CF_ToSymbol) ? Api->Copy->DstArg
                                                  : Api->Copy->SrcArg;
    if (SymArg < 0 || (unsigned)SymArg >= Call->getNumArgs())
      return;
    const Expr *Sym = Call->getArg(SymArg)->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Sym);
        U && U->getOpcode() == UO_AddrOf)
      Sym = U->getSubExpr()->IgnoreParenCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(Sym);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || isa<ParmVarDecl>(VD) || VD->getType()->isReferenceType() ||
        isSymbolVariable(VD) || DRE->refersToEnclosingVariableOrCapture())
      return;
    if (!VD->hasLocalStorage() && !VD->hasGlobalStorage())
      return;
    SourceLocation Loc = reportOnce(Call->getBeginLoc(), SM);
    if (Loc.isInvalid())
      return;
    PointerFact F = M.factOf(Call->getArg(SymArg));
    if (F.isKnown() && F.Spaces == MS_Device)
      diag(Loc, "%0 is given %1, which is device memory, not a __device__ or "
                "__constant__ variable")
          << Callee->getDeclName() << VD;
    else
      diag(Loc, "%0 is given %1, which is not a __device__ or __constant__ "
                "variable")
          << Callee->getDeclName() << VD;
    diag(VD->getLocation(), "%0 is declared here", DiagnosticIDs::Note) << VD;
    if (F.isKnown())
      noteAllocation(*this, F, SM);
    return;
  }

  // Host C library functions that read or write memory.
  if (Api && Api->Library == ApiLibrary::CLib) {
    if (Api->Copy) {
      for (int I : {Api->Copy->DstArg, Api->Copy->SrcArg})
        if (I >= 0 && (unsigned)I < Call->getNumArgs() &&
            ReportDeviceArg(Call->getArg(I)))
          return;
      return;
    }
    if (Api->FormatArg >= 0) {
      for (unsigned I : stringArguments(Call, Api->FormatArg))
        if (I < Call->getNumArgs() && ReportDeviceArg(Call->getArg(I)))
          return;
      return;
    }
    return;
  }
  // Functions the user names as reading their pointer arguments.
  if (!HostReadNames.empty() && Callee->getIdentifier()) {
    if (llvm::is_contained(HostReadNames, Callee->getName().str()))
      for (const Expr *A : Call->arguments())
        if (A->getType()->isPointerType() && ReportDeviceArg(A))
          return;
  }
}

} // namespace clang::tidy::cuda
