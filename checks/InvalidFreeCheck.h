//===- InvalidFreeCheck.h ---------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_INVALIDFREECHECK_H
#define CUDA_TIDY_INVALIDFREECHECK_H

#include "CudaFunctionCheck.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// Finds memory released by the wrong function, released twice, or used
/// after it was released.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-invalid-free.md
class InvalidFreeCheck : public MemorySpaceCheck {
public:
  InvalidFreeCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkStmt(const Stmt *S, const FunctionMemorySpaces &M,
                 ASTContext &Ctx) override;

  const bool CheckUseAfterFree;
};

} // namespace clang::tidy::cuda

#endif
