//===- DeviceMemoryLeakCheck.h ----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_DEVICEMEMORYLEAKCHECK_H
#define CUDA_TIDY_DEVICEMEMORYLEAKCHECK_H

#include "AllocationTracking.h"
#include "ArchConditionals.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds device, pinned and managed allocations, and CUDA handles, that
/// some path of the allocating function never frees.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-device-memory-leak.md
class DeviceMemoryLeakCheck : public ClangTidyCheck {
public:
  DeviceMemoryLeakCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA || LangOpts.CPlusPlus;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  const bool IgnoreMainExit;
  const std::string RawCheckedResources;
  ResourceSet CheckedResources;
  ArchConditionals Arch;
  std::unique_ptr<AllocationTracker> Tracker;
  llvm::DenseSet<unsigned> Reported;
};

} // namespace clang::tidy::cuda

#endif
