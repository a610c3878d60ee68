//===- CallbackApiCallCheck.cpp -------------------------------------------===//

#include "CallbackApiCallCheck.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "SourceLocations.h"

namespace clang::tidy::cuda {

void CallbackApiCallCheck::checkFunction(const FunctionDecl &FD,
                                         const FunctionCfg &Cfg,
                                         ASTContext &Ctx) {
  if (FD.hasAttr<CUDAGlobalAttr>() ||
      (FD.hasAttr<CUDADeviceAttr>() && !FD.hasAttr<CUDAHostAttr>()))
    return;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &E : *B) {
      const auto *C = dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(E));
      const ApiFunction *Api = CudaApiModel::lookup(C);
      if (!Api || Api->HostCallbackFunctionArg < 0)
        continue;
      if (const FunctionDecl *Callback = namedFunction(
              CudaApiModel::argument(C, Api->HostCallbackFunctionArg)))
        checkCallback(Callback, C, Ctx);
    }
}

void CallbackApiCallCheck::checkCallback(const FunctionDecl *Callback,
                                         const CallExpr *Enqueue,
                                         ASTContext &Ctx) {
  if (!Reach)
    Reach = std::make_unique<CudaUseReachability>(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Enqueuer = Enqueue->getDirectCallee();
  for (const CudaUse &U : Reach->reachableFrom(Callback)) {
    if (U.K == CudaUse::ManagedAccess && !CheckManagedAccess)
      continue;
    SourceLocation Loc = reportOnce(U.At->getBeginLoc(), SM);
    if (Loc.isInvalid())
      continue;
    switch (U.K) {
    case CudaUse::ApiCall:
      diag(Loc, "%0 is called in a stream callback, which must not make CUDA "
                "calls")
          << U.Callee->getDeclName();
      break;
    case CudaUse::Launch:
      diag(Loc, "kernel %0 is launched in a stream callback, which must not "
                "make CUDA calls")
          << U.Callee;
      break;
    case CudaUse::ManagedAccess:
      diag(Loc, "__managed__ variable %0 is accessed in a stream callback, "
                "while kernels on other streams may use it")
          << U.Managed;
      break;
    }
    diag(userVisibleLocation(Enqueue->getBeginLoc(), SM),
         "%0 is enqueued here with %1", DiagnosticIDs::Note)
        << Callback << Enqueuer;
    if (U.Through)
      diag(userVisibleLocation(U.Through->getBeginLoc(), SM),
           "reached through this call", DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::cuda
