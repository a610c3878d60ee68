//===- TorchDefaultStreamCheck.h --------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_TORCHDEFAULTSTREAMCHECK_H
#define CUDA_TIDY_TORCHDEFAULTSTREAMCHECK_H

#include "CudaFunctionCheck.h"
#include <optional>
#include <vector>

namespace clang::tidy::cuda {

/// In a PyTorch extension, finds kernel launches, asynchronous copies and
/// launch calls that use the default stream (no stream, 0, nullptr,
/// cudaStreamLegacy, cudaStreamPerThread) instead of PyTorch's current
/// stream: they are not ordered with the work PyTorch queued on it.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-torch-default-stream.md
class TorchDefaultStreamCheck : public CudaFunctionCheck {
public:
  TorchDefaultStreamCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::All, CheckLanguages::Cuda,
                           /*NeedsWholeBody=*/false,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true,
                           ErrorGate::Operands}) {}

private:
  bool mayReportIn(const FunctionDecl &FD, ASTContext &Ctx) override;
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  /// Library calls on a handle the function creates and gives no stream.
  void checkLibraryHandles(const std::vector<const CallExpr *> &Calls,
                           const ASTContext &Ctx);
  void startTranslationUnit() override { UsesTorch.reset(); }
  std::optional<bool> UsesTorch;
};

} // namespace clang::tidy::cuda

#endif
