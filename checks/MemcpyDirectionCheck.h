//===- MemcpyDirectionCheck.h -----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_MEMCPYDIRECTIONCHECK_H
#define CUDA_TIDY_MEMCPYDIRECTIONCHECK_H

#include "CudaFunctionCheck.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// Finds CUDA copies whose cudaMemcpyKind contradicts where the destination
/// and source memory live.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-memcpy-direction.md
class MemcpyDirectionCheck : public MemorySpaceCheck {
public:
  MemcpyDirectionCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkStmt(const Stmt *S, const FunctionMemorySpaces &M,
                 ASTContext &Ctx) override;

  const bool IgnoreSingleSide;
};

} // namespace clang::tidy::cuda

#endif
