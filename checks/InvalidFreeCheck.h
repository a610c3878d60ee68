//===- InvalidFreeCheck.h ---------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_INVALIDFREECHECK_H
#define CUDA_TIDY_INVALIDFREECHECK_H

#include "ArchConditionals.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda {

class FunctionMemorySpaces;

/// Finds memory released by the wrong function, released twice, or used
/// after it was released.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-invalid-free.md
class InvalidFreeCheck : public ClangTidyCheck {
public:
  InvalidFreeCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;

private:
  void checkStmt(const Stmt *S, const FunctionMemorySpaces &M, ASTContext &Ctx);

  const bool CheckUseAfterFree;
  llvm::DenseSet<unsigned> Reported;
  ArchConditionals Arch;
};

} // namespace clang::tidy::cuda

#endif
