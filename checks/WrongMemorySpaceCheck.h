//===- WrongMemorySpaceCheck.h ----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_WRONGMEMORYSPACECHECK_H
#define CUDA_TIDY_WRONGMEMORYSPACECHECK_H

#include "ArchConditionals.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda {

class FunctionMemorySpaces;

/// Finds pointers used in a memory space they do not point into: host memory
/// passed to kernels, device memory dereferenced on the host.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-wrong-memory-space.md
class WrongMemorySpaceCheck : public ClangTidyCheck {
public:
  WrongMemorySpaceCheck(StringRef Name, ClangTidyContext *Context);
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

  const std::string HostReadFunctions;
  std::vector<std::string> HostReadNames;
  llvm::DenseSet<unsigned> Reported;
  ArchConditionals Arch;
};

} // namespace clang::tidy::cuda

#endif
