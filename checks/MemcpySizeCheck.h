//===- MemcpySizeCheck.h ----------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_MEMCPYSIZECHECK_H
#define CUDA_TIDY_MEMCPYSIZECHECK_H

#include "ArchConditionals.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda {

class FunctionMemorySpaces;

/// Finds CUDA copies and memsets whose byte count is inconsistent with the
/// buffers they touch.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-memcpy-size.md
class MemcpySizeCheck : public ClangTidyCheck {
public:
  MemcpySizeCheck(StringRef Name, ClangTidyContext *Context);
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

  const bool CheckElementCounts;
  llvm::DenseSet<unsigned> Reported;
  ArchConditionals Arch;
};

} // namespace clang::tidy::cuda

#endif
