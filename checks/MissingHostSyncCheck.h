//===- MissingHostSyncCheck.h -----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_MISSINGHOSTSYNCCHECK_H
#define CUDA_TIDY_MISSINGHOSTSYNCCHECK_H

#include "ArchConditionals.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

struct SyncHazard;

/// Finds host code that touches memory queued device work may still be
/// using: reading the destination of an asynchronous copy or the output of a
/// kernel before the stream, event or device is synchronized, writing or
/// freeing a buffer such work still reads, freeing in stream order on an
/// unordered stream, and reading an event's elapsed time before the event
/// has completed.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-missing-host-sync.md
class MissingHostSyncCheck : public ClangTidyCheck {
public:
  MissingHostSyncCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;

private:
  void report(const SyncHazard &H, ASTContext &Ctx);

  ArchConditionals Arch;
  Preprocessor *PP = nullptr;
  llvm::DenseSet<unsigned> Reported;
};

} // namespace clang::tidy::cuda

#endif
