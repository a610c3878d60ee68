//===- MissingHostSyncCheck.h -----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_MISSINGHOSTSYNCCHECK_H
#define CUDA_TIDY_MISSINGHOSTSYNCCHECK_H

#include "AsyncWorkAnalysis.h"
#include "CudaFunctionCheck.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

struct SyncHazard;

/// Finds host code that touches memory queued device work may still be
/// using: reading the destination of an asynchronous copy or the output of a
/// kernel before the stream, event or device is synchronized, writing or
/// freeing a buffer such work still reads, freeing in stream order on an
/// unordered stream, and reading an event's elapsed time before the event
/// has completed.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-missing-host-sync.md
class MissingHostSyncCheck : public CudaFunctionCheck {
public:
  MissingHostSyncCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::All, CheckLanguages::Cuda,
                           /*NeedsWholeBody=*/true,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true,
                           ErrorGate::Paths}),
        ReportPageableAsyncCopies(
            Options.get("ReportPageableAsyncCopies", true)) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  /// Report host reads of pageable memory an asynchronous device-to-host
  /// copy writes (correct today only because such a copy returns when done).
  const bool ReportPageableAsyncCopies;
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  /// Host functions only: no CFG is built for kernels and device code.
  bool mayReportIn(const FunctionDecl &FD, ASTContext &) override {
    return AsyncWorkAnalysis::isHostFunction(FD);
  }
  void report(const SyncHazard &H, ASTContext &Ctx);
};

} // namespace clang::tidy::cuda

#endif
