//===- TorchDefaultStreamCheck.cpp ----------------------------------------===//

#include "TorchDefaultStreamCheck.h"
#include "CudaApiModel.h"
#include "SourceLocations.h"
#include "TorchApiModel.h"
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

} // namespace

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
