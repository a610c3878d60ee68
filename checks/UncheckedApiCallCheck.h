//===- UncheckedApiCallCheck.h ----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_UNCHECKEDAPICALLCHECK_H
#define CUDA_TIDY_UNCHECKEDAPICALLCHECK_H

#include "ArchConditionals.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// Finds calls to CUDA API functions whose returned error code is never
/// examined.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-unchecked-api-call.md
class UncheckedApiCallCheck : public ClangTidyCheck {
public:
  UncheckedApiCallCheck(StringRef Name, ClangTidyContext *Context);
  // Host code in .cpp and .c files calls the runtime API too.
  bool isLanguageVersionSupported(const LangOptions &) const override {
    return true;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;

private:
  bool isIgnored(const FunctionDecl *Callee) const;
  void checkCall(const CallExpr *Call, const class FunctionCfg &Cfg,
                 const SourceManager &SM);

  const std::string RawCheckedReturnTypes;
  const std::string RawIgnoredFunctions;
  const std::string ErrorCheckMacro;
  const bool AllowCastToVoid;
  const bool AllowReleaseInDestructors;
  std::vector<StringRef> CheckedReturnTypes;
  std::vector<StringRef> IgnoredFunctions;
  llvm::DenseSet<unsigned> Reported;
  ArchConditionals Arch;
};

} // namespace clang::tidy::cuda

#endif
