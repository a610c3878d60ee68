//===- TensorDeviceCheck.h --------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_TENSORDEVICECHECK_H
#define CUDA_TIDY_TENSORDEVICECHECK_H

#include "CudaFunctionCheck.h"
#include "TorchTensors.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds pointers and accessors of tensors that reach a kernel when nothing
/// ties the tensor to a GPU: a tensor from Python with no is_cuda() check
/// (or CHECK_CUDA macro, or device guard of its device), or a tensor
/// created without a device in its options, which is on the CPU; and
/// launches on tensors from Python that may sit on another GPU than the
/// current one, with no device guard in scope (option DeviceGuard).
///
/// For the user-facing documentation see:
/// docs/checks/cuda-tensor-device.md
class TensorDeviceCheck : public CudaFunctionCheck {
public:
  TensorDeviceCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::All, CheckLanguages::CudaOrCxx,
                           /*NeedsWholeBody=*/false,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true,
                           ErrorGate::Operands}),
        DeviceGuard(Options.get("DeviceGuard", true)) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  /// Report launches with no device guard on tensors from Python.
  const bool DeviceGuard;
  bool mayReportIn(const FunctionDecl &FD, ASTContext &Ctx) override;
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void reportUnguarded(TorchTensorAnalysis &Tensors, const FunctionDecl &FD,
                       const TensorPointerUse &U,
                       const VarDecl *Tensor,
                       llvm::DenseSet<const CallExpr *> &Reported,
                       const SourceManager &SM);
};

} // namespace clang::tidy::cuda

#endif
