//===- TensorDeviceCheck.h --------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_TENSORDEVICECHECK_H
#define CUDA_TIDY_TENSORDEVICECHECK_H

#include "CudaFunctionCheck.h"
#include "TorchTensors.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds pointers and accessors of tensors that reach a kernel when nothing
/// ties the tensor to a GPU: a tensor from Python with no is_cuda() check
/// (or CHECK_CUDA macro, or device guard of its device), or a tensor
/// created without a device in its options, which is on the CPU.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-tensor-device.md
class TensorDeviceCheck : public CudaFunctionCheck {
public:
  TensorDeviceCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::All, CheckLanguages::Cuda,
                           /*NeedsWholeBody=*/false}) {}

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Tensors.reset(); }
  std::unique_ptr<TorchTensorAnalysis> Tensors;
};

} // namespace clang::tidy::cuda

#endif
