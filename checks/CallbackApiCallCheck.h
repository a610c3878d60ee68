//===- CallbackApiCallCheck.h -----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_CALLBACKAPICALLCHECK_H
#define CUDA_TIDY_CALLBACKAPICALLCHECK_H

#include "CudaFunctionCheck.h"
#include "CudaUseReachability.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds CUDA runtime and driver calls, kernel launches and __managed__
/// accesses in host functions enqueued with cudaLaunchHostFunc,
/// cudaStreamAddCallback or cuLaunchHostFunc, followed through calls of
/// this translation unit.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-callback-api-call.md
class CallbackApiCallCheck : public CudaFunctionCheck {
public:
  CallbackApiCallCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::All, CheckLanguages::CudaOrCxx,
                           /*NeedsWholeBody=*/false,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true,
                           ErrorGate::Operands}),
        CheckManagedAccess(Options.get("CheckManagedAccess", true)) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "CheckManagedAccess", CheckManagedAccess);
  }

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Reach.reset(); }
  void checkCallback(const FunctionDecl *Callback, const CallExpr *Enqueue,
                     ASTContext &Ctx);

  const bool CheckManagedAccess;
  std::unique_ptr<CudaUseReachability> Reach;
};

} // namespace clang::tidy::cuda

#endif
