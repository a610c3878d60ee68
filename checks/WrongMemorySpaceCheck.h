//===- WrongMemorySpaceCheck.h ----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_WRONGMEMORYSPACECHECK_H
#define CUDA_TIDY_WRONGMEMORYSPACECHECK_H

#include "CudaFunctionCheck.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// Finds pointers used in a memory space they do not point into: host memory
/// passed to kernels, device memory dereferenced on the host.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-wrong-memory-space.md
class WrongMemorySpaceCheck : public MemorySpaceCheck {
public:
  WrongMemorySpaceCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkStmt(const Stmt *S, const FunctionMemorySpaces &M,
                 ASTContext &Ctx) override;

  const std::string HostReadFunctions;
  std::vector<std::string> HostReadNames;
};

} // namespace clang::tidy::cuda

#endif
