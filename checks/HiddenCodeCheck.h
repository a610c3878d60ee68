//===- HiddenCodeCheck.h ----------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_HIDDENCODECHECK_H
#define CUDA_TIDY_HIDDENCODECHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::cuda {

/// Says when most of a file's CUDA code is under a preprocessor condition
/// on a macro that the compilation does not define (`#ifdef USE_CUDA`,
/// `#if HAVE_GPU`), so that the other checks did not see it, and how to
/// define the macro.
///
/// A preprocessor-only check: it analyses no function, so it derives from
/// ClangTidyCheck rather than CudaFunctionCheck.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-hidden-code.md
class HiddenCodeCheck : public ClangTidyCheck {
public:
  HiddenCodeCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus || LangOpts.CUDA;
  }
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
};

} // namespace clang::tidy::cuda

#endif
