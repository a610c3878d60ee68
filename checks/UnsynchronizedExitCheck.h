//===- UnsynchronizedExitCheck.h --------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_UNSYNCHRONIZEDEXITCHECK_H
#define CUDA_TIDY_UNSYNCHRONIZEDEXITCHECK_H

#include "AsyncWorkAnalysis.h"
#include "CudaFunctionCheck.h"

namespace clang::tidy::cuda {

/// Finds the returns of main, and the calls of exit(), reached while
/// kernels, asynchronous copies or memsets may still be queued: their
/// asynchronous errors are never reported.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-unsynchronized-exit.md
class UnsynchronizedExitCheck : public CudaFunctionCheck {
public:
  UnsynchronizedExitCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::All, CheckLanguages::Cuda,
                           /*NeedsWholeBody=*/true,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true,
                           ErrorGate::Paths}),
        RequireCheckedSync(Options.get("RequireCheckedSync", false)) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "RequireCheckedSync", RequireCheckedSync);
  }

private:
  /// A synchronization counts only when its error code is examined.
  const bool RequireCheckedSync;
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  /// Host functions only: no CFG is built for kernels and device code.
  bool mayReportIn(const FunctionDecl &FD, ASTContext &) override {
    return AsyncWorkAnalysis::isHostFunction(FD);
  }
};

} // namespace clang::tidy::cuda

#endif
