//===- UncheckedApiCallCheck.h ----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_UNCHECKEDAPICALLCHECK_H
#define CUDA_TIDY_UNCHECKEDAPICALLCHECK_H

#include "CudaFunctionCheck.h"
#include "ErrorCheckWrapper.h"
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
class UncheckedApiCallCheck : public CudaFunctionCheck {
public:
  UncheckedApiCallCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Learned.reset(); }
  bool isIgnored(const FunctionDecl *Callee) const;
  void checkCall(const CallExpr *Call, const class FunctionCfg &Cfg,
                 const SourceManager &SM);
  static SourceRange wrappableRange(const CallExpr *Call,
                                    const SourceManager &SM);
  /// The wrapper a fix of \p Call may use: ErrorCheckMacro, or else the
  /// unit's own learned one where it is visible at \p At.
  const ErrorCheckWrapper *learnedWrapperAt(SourceLocation At,
                                            ASTContext &Ctx);
  void reportReevaluation(const CallExpr *Call, const CallExpr *Again,
                          const SourceManager &SM);

  const std::string RawCheckedReturnTypes;
  const std::string RawIgnoredFunctions;
  const std::string ErrorCheckMacro;
  const bool AllowCastToVoid;
  const bool AllowReleaseInDestructors;
  std::vector<StringRef> CheckedReturnTypes;
  std::vector<StringRef> IgnoredFunctions;
  /// The unit's learned error-check wrapper (ErrorCheckWrapper.h), once
  /// asked for: none inside when the unit has none.
  std::optional<std::optional<ErrorCheckWrapper>> Learned;
};

} // namespace clang::tidy::cuda

#endif
