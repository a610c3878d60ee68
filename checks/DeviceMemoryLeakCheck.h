//===- DeviceMemoryLeakCheck.h ----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_DEVICEMEMORYLEAKCHECK_H
#define CUDA_TIDY_DEVICEMEMORYLEAKCHECK_H

#include "AllocationTracking.h"
#include "CudaFunctionCheck.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds device, pinned and managed allocations, and CUDA handles, that
/// some path of the allocating function never frees.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-device-memory-leak.md
class DeviceMemoryLeakCheck : public CudaFunctionCheck {
public:
  DeviceMemoryLeakCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Tracker.reset(); }
  /// An allocation into a file-scope variable or member never freed.
  void reportStorage(const StorageLeak &L, const SourceManager &SM);

  const bool IgnoreMainExit;
  const std::string RawCheckedResources;
  ResourceSet CheckedResources;
  std::unique_ptr<AllocationTracker> Tracker;
};

} // namespace clang::tidy::cuda

#endif
