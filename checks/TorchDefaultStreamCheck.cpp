//===- TorchDefaultStreamCheck.cpp ----------------------------------------===//

#include "TorchDefaultStreamCheck.h"
#include "CudaApiModel.h"
#include "SourceLocations.h"
#include "TorchApiModel.h"
#include "llvm/ADT/DenseMap.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda {
namespace {

/// The calls written in one function's body (nested lambdas are functions
/// of their own).
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  bool shouldVisitLambdaBodies() const { return false; }
  bool VisitCallExpr(CallExpr *C) {
    Calls.push_back(C);
    return true;
  }
  std::vector<const CallExpr *> Calls;
};

/// How a stream argument names the default stream: "" when it does not (a
/// stream variable, the current stream), else how it is spelled.
StringRef defaultStreamSpelling(const Expr *Stream, const ASTContext &Ctx) {
  if (!Stream || isa<CXXDefaultArgExpr>(Stream))
    return "no stream";
  const Expr *E = Stream->IgnoreParenCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return "a null stream";
  if (const auto *IL = dyn_cast<IntegerLiteral>(E)) {
    std::optional<SpecialStream> S =
        CudaApiModel::specialStream(IL->getValue().getSExtValue());
    if (!S)
      return "";
    switch (*S) {
    case SpecialStream::Default:
      return "stream 0";
    case SpecialStream::Legacy:
      return "cudaStreamLegacy";
    case SpecialStream::PerThread:
      return "cudaStreamPerThread";
    }
  }
  return "";
}

/// The local variable \p E names (through casts and parentheses), or the
/// one whose address it takes when \p AddressOf.
const VarDecl *localNamed(const Expr *E, bool AddressOf) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (AddressOf) {
    const auto *U = dyn_cast<UnaryOperator>(E);
    if (!U || U->getOpcode() != UO_AddrOf)
      return nullptr;
    E = U->getSubExpr()->IgnoreParenCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) ? VD : nullptr;
}

/// Whether \p S mentions \p VD.
bool mentions(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD)
    return true;
  for (const Stmt *Child : S->children())
    if (mentions(Child, VD))
      return true;
  return false;
}

} // namespace

void TorchDefaultStreamCheck::checkLibraryHandles(
    const std::vector<const CallExpr *> &Calls, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // Each local handle this function creates, in the order of the calls
  // (the body's order): its creation, whether its stream was set (to
  // anything but the default stream), and whether it escaped to code that
  // might set it.
  struct HandleState {
    const CallExpr *Create = nullptr;
    bool StreamSet = false, Escaped = false, Reported = false;
  };
  llvm::DenseMap<const VarDecl *, HandleState> Handles;
  for (const CallExpr *C : Calls) {
    if (isa<CUDAKernelCallExpr>(C))
      continue;
    LibraryHandleRole Role = TorchApiModel::libraryHandleRole(C);
    if (Role == LibraryHandleRole::Create) {
      if (const VarDecl *H = localNamed(C->getArg(0), /*AddressOf=*/true))
        Handles[H] = HandleState{C};
      continue;
    }
    if (Role == LibraryHandleRole::SetStream && C->getNumArgs() >= 2) {
      if (const VarDecl *H = localNamed(C->getArg(0), false);
          H && Handles.count(H) &&
          defaultStreamSpelling(C->getArg(1), Ctx).empty())
        Handles[H].StreamSet = true;
      continue;
    }
    if (Role == LibraryHandleRole::Use || Role == LibraryHandleRole::Destroy) {
      const VarDecl *H = localNamed(C->getArg(0), false);
      auto It = H ? Handles.find(H) : Handles.end();
      if (Role == LibraryHandleRole::Destroy || It == Handles.end() ||
          It->second.StreamSet || It->second.Escaped || It->second.Reported)
        continue;
      It->second.Reported = true;
      SourceLocation Loc = reportOnce(SM.getFileLoc(C->getBeginLoc()), SM);
      if (Loc.isInvalid())
        continue;
      std::optional<LibraryHandleInfo> Info = TorchApiModel::libraryHandle(
          C->getDirectCallee()->getParamDecl(0)->getType());
      diag(Loc, "%0 uses the default stream, not PyTorch's current stream: "
                "no %1 gives %2 handle %3 a stream; %select{|use %5() (its "
                "stream is the current one), or }4call %1(%6, "
                "at::cuda::getCurrentCUDAStream()) first")
          << C->getDirectCallee() << Info->SetStream << Info->Library << H
          << !Info->TorchHandle.empty() << Info->TorchHandle << H->getName();
      diag(userVisibleLocation(It->second.Create->getBeginLoc(), SM),
           "%0 is created here", DiagnosticIDs::Note)
          << H;
      continue;
    }
    // Any other call the handle reaches may set its stream.
    for (const Expr *Arg : C->arguments())
      for (auto &[H, State] : Handles)
        if (mentions(Arg, H))
          State.Escaped = true;
  }
}

bool TorchDefaultStreamCheck::mayReportIn(const FunctionDecl &,
                                          ASTContext &Ctx) {
  return TorchApiModel::declaresTensor(Ctx);
}

void TorchDefaultStreamCheck::checkFunction(const FunctionDecl &FD,
                                            const FunctionCfg &,
                                            ASTContext &Ctx) {
  if (!UsesTorch)
    UsesTorch = TorchApiModel::declaresTensor(Ctx);
  if (!*UsesTorch || FD.hasAttr<CUDAGlobalAttr>() || !FD.hasBody())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  CallCollector Collect;
  Collect.TraverseStmt(FD.getBody());
  checkLibraryHandles(Collect.Calls, Ctx);
  for (const CallExpr *C : Collect.Calls) {
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(C)) {
      const CallExpr *Config = K->getConfig();
      const Expr *Stream =
          Config && Config->getNumArgs() > 3 ? Config->getArg(3) : nullptr;
      StringRef How = defaultStreamSpelling(Stream, Ctx);
      if (How.empty())
        continue;
      SourceLocation Loc = reportOnce(SM.getFileLoc(K->getBeginLoc()), SM);
      if (Loc.isInvalid())
        continue;
      const FunctionDecl *Kernel = K->getDirectCallee();
      diag(Loc, "launch of %select{a kernel|kernel %1}0 uses the default "
                "stream (%2), not PyTorch's current stream; pass "
                "at::cuda::getCurrentCUDAStream() as the fourth launch "
                "argument")
          << (Kernel != nullptr) << Kernel << How;
      continue;
    }
    const ApiFunction *Api = CudaApiModel::lookup(C);
    if (!Api)
      continue;
    int StreamArg = -1;
    if (Api->Copy && Api->Copy->isAsync())
      StreamArg = Api->Copy->StreamArg;
    else if (Api->Launch)
      StreamArg = Api->Launch->StreamArg;
    if (StreamArg < 0)
      continue;
    StringRef How =
        defaultStreamSpelling(CudaApiModel::argument(C, StreamArg), Ctx);
    if (How.empty())
      continue;
    SourceLocation Loc = reportOnce(SM.getFileLoc(C->getBeginLoc()), SM);
    if (Loc.isInvalid())
      continue;
    diag(Loc, "%0 uses the default stream (%1), not PyTorch's current "
              "stream; pass at::cuda::getCurrentCUDAStream()")
        << C->getDirectCallee() << How;
  }
}

} // namespace clang::tidy::cuda
