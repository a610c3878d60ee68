//===- TensorContiguityCheck.h ----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_TENSORCONTIGUITYCHECK_H
#define CUDA_TIDY_TENSORCONTIGUITYCHECK_H

#include "CudaFunctionCheck.h"
#include "TorchTensors.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds raw pointers taken from tensors that come from Python with no
/// .contiguous() or is_contiguous() on the way and reach a kernel, which
/// indexes them as if the tensor were contiguous.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-tensor-contiguity.md
class TensorContiguityCheck : public CudaFunctionCheck {
public:
  TensorContiguityCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::All, CheckLanguages::CudaOrCxx,
                           /*NeedsWholeBody=*/false,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true,
                           ErrorGate::Operands}) {}

private:
  bool mayReportIn(const FunctionDecl &FD, ASTContext &Ctx) override;
  void reportMaybeStrided(const TensorPointerUse &U, const TensorVerdict &V,
                          const VarDecl *Tensor, const SourceManager &SM);
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  /// A CuPy launch the Python reader wrote: arrays that the launching
  /// function received and never made contiguous, given to a kernel
  /// parameter the kernel indexes densely.
  void checkPythonLaunch(const FunctionDecl &Launch, ASTContext &Ctx);
};

} // namespace clang::tidy::cuda

#endif
