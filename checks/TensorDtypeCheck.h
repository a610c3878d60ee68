//===- TensorDtypeCheck.h ---------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_TENSORDTYPECHECK_H
#define CUDA_TIDY_TENSORDTYPECHECK_H

#include "CudaFunctionCheck.h"
#include "TorchTensors.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds untyped tensor pointers (data_ptr(), const_data_ptr()) cast to an
/// element type that no check, dispatch or conversion fixes for the tensor,
/// and typed or untyped pointers whose element type is known to differ from
/// the tensor's dtype (an AT_DISPATCH_* case, a conversion).
///
/// For the user-facing documentation see:
/// docs/checks/cuda-tensor-dtype.md
class TensorDtypeCheck : public CudaFunctionCheck {
public:
  TensorDtypeCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::All, CheckLanguages::CudaOrCxx,
                           /*NeedsWholeBody=*/false,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true,
                           ErrorGate::Operands}) {}

private:
  bool mayReportIn(const FunctionDecl &FD, ASTContext &Ctx) override;
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
};

} // namespace clang::tidy::cuda

#endif
