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
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
}

namespace clang::tidy::cuda {

/// The source ranges that the preprocessor skipped because of a condition on
/// __CUDA_ARCH__, in the main file and the headers it includes.
class ArchConditionals {
public:
  /// Starts recording for the translation unit \p PP preprocesses. Every
  /// check attaches its own ArchConditionals; they share one recording.
  void attach(Preprocessor &PP);
  /// Whether \p R contains a skipped __CUDA_ARCH__ region.
  bool hidesCodeIn(SourceRange R, const SourceManager &SM) const;

  /// What one preprocessor skipped, and an index for hidesCodeIn.
  struct Recording {
    std::vector<SourceRange> Skipped;
    /// Whether the recorder is still attached to its preprocessor.
    bool Live = true;
    /// The starts of Skipped per file, in file order; built on first query.
    llvm::DenseMap<FileID, llvm::SmallVector<SourceLocation, 4>> StartsByFile;
    size_t Indexed = 0;
  };

private:
  std::shared_ptr<Recording> Shared;
};

/// The GPU architecture the analysed compilation targets, as its sm number
/// (90 for sm_90 and sm_90a): the device target's CPU, or in a host
/// compilation the auxiliary (device) target's, when it names one.
std::optional<unsigned> targetSmVersion(const ASTContext &Ctx);

} // namespace clang::tidy::cuda

#endif
