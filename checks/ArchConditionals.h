//===- ArchConditionals.h - Code hidden by __CUDA_ARCH__ --------*- C++ -*-===//
//
// cuda-tidy analyses one of clang's CUDA compilations (the device one by
// default). Code under `#ifdef __CUDA_ARCH__` or `#ifndef __CUDA_ARCH__`
// differs between host and device: in the analysed compilation one side is
// skipped by the preprocessor. A function whose body has such a skipped
// region is not fully visible, so the flow analyses treat it as unknown.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ARCHCONDITIONALS_H
#define CUDA_TIDY_ARCHCONDITIONALS_H

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include <vector>

namespace clang::tidy::cuda {

/// The source ranges that the preprocessor skipped because of a condition on
/// __CUDA_ARCH__, in the main file and the headers it includes.
class ArchConditionals {
public:
  /// Starts recording for the translation unit \p PP preprocesses.
  void attach(Preprocessor &PP);
  /// Whether \p R contains a skipped __CUDA_ARCH__ region.
  bool hidesCodeIn(SourceRange R, const SourceManager &SM) const;

private:
  friend class ArchConditionalsRecorder;
  std::vector<SourceRange> Skipped;
};

} // namespace clang::tidy::cuda

#endif
