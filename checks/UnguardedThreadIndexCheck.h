//===- UnguardedThreadIndexCheck.h ------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_UNGUARDEDTHREADINDEXCHECK_H
#define CUDA_TIDY_UNGUARDEDTHREADINDEXCHECK_H

#include "CudaFunctionCheck.h"
#include "IndexOverruns.h"
#include "LoopSizedRawIndex.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds reads and writes of global memory at a thread-derived index that
/// has no upper bound on some path through the kernel.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-unguarded-thread-index.md
class UnguardedThreadIndexCheck : public CudaFunctionCheck {
public:
  UnguardedThreadIndexCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Overruns.reset(); }
  /// A template pattern is read only for the loop-sized raw arrays of a
  /// CuPy ElementwiseKernel: no CFG is built for the others.
  bool mayReportIn(const FunctionDecl &FD, ASTContext &) override {
    return !inTemplatePattern() || hasLoopSizedRawParameter(FD);
  }
  void report(const IndexOverrun &O, const FunctionDecl *Kernel,
              ASTContext &Ctx);
  void reportLoopSized(const LoopSizedOverrun &O, ASTContext &Ctx);

  const bool StrictMode;
  /// This translation unit's, created by the first checkFunction().
  std::unique_ptr<IndexOverruns> Overruns;
};

} // namespace clang::tidy::cuda

#endif
