//===- DivergentSyncthreadsCheck.h ------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_DIVERGENTSYNCTHREADSCHECK_H
#define CUDA_TIDY_DIVERGENTSYNCTHREADSCHECK_H

#include "BarrierIntervals.h"
#include "CudaFunctionCheck.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::cuda {

/// Finds block barriers that only some threads of the block reach, because
/// a condition on the way depends on the thread index or per-thread data.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-divergent-syncthreads.md
class DivergentSyncthreadsCheck : public CudaFunctionCheck {
public:
  DivergentSyncthreadsCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::DeviceCode, CheckLanguages::Cuda,
                           /*NeedsWholeBody=*/true,
                           /*AnalysesTemplatePatterns=*/true,
                           /*ReadsCodeWithErrors=*/true, ErrorGate::Accesses}) {}

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { HelperWaits.clear(); }

  /// Whether each same-TU __device__ helper waits at a block barrier.
  BarrierWaitCache HelperWaits;
};

} // namespace clang::tidy::cuda

#endif
