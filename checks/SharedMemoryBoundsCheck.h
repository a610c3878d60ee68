//===- SharedMemoryBoundsCheck.h --------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_SHAREDMEMORYBOUNDSCHECK_H
#define CUDA_TIDY_SHAREDMEMORYBOUNDSCHECK_H

#include "CudaFunctionCheck.h"
#include "SharedMemoryBounds.h"
#include <optional>

namespace clang::tidy::cuda {

/// Finds subscripts of statically sized __shared__ arrays that some thread
/// of a block the kernel is launched with runs past: a tile read one column
/// past its width at the block's edge ('tile[ty][tx + 1]'), or below zero.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-shared-memory-bounds.md
class SharedMemoryBoundsCheck : public CudaFunctionCheck {
public:
  SharedMemoryBoundsCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::Kernels, CheckLanguages::Cuda,
                           /*NeedsWholeBody=*/true,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true, ErrorGate::Accesses}) {}

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Bounds.reset(); }

  std::optional<SharedMemoryBounds> Bounds;
};

} // namespace clang::tidy::cuda

#endif
