//===- ContextStackCheck.h --------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_CONTEXTSTACKCHECK_H
#define CUDA_TIDY_CONTEXTSTACKCHECK_H

#include "ContextStack.h"
#include "CudaFunctionCheck.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds driver-API contexts that a function leaves pushed on some paths
/// and pops on others, pops of the context stack past what the function
/// pushed, primary contexts released without being retained, and contexts
/// destroyed while they are still on the stack under another.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-context-stack.md
class ContextStackCheck : public CudaFunctionCheck {
public:
  ContextStackCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::All, CheckLanguages::Any,
                           /*NeedsWholeBody=*/true,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true,
                           ErrorGate::Paths}) {}

private:
  std::unique_ptr<ContextStackAnalysis> Analysis;
  void startTranslationUnit() override { Analysis.reset(); }
  bool mayReportIn(const FunctionDecl &FD, ASTContext &) override {
    return !FD.hasAttr<CUDAGlobalAttr>() &&
           (!FD.hasAttr<CUDADeviceAttr>() || FD.hasAttr<CUDAHostAttr>());
  }
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
};

} // namespace clang::tidy::cuda

#endif
