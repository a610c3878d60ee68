//===- UncheckedApiCallCheck.h ----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_UNCHECKEDAPICALLCHECK_H
#define CUDA_TIDY_UNCHECKEDAPICALLCHECK_H

#include "CudaFunctionCheck.h"
#include "ErrorCheckWrapper.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
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
  void startTranslationUnit() override { Learned.clear(); }
  bool isIgnored(const FunctionDecl *Callee) const;
  void checkCall(const CallExpr *Call, const class FunctionCfg &Cfg,
                 const SourceManager &SM);
  static SourceRange wrappableRange(const CallExpr *Call,
                                    const SourceManager &SM);
  /// The unit's own learned wrapper for a fix at \p At in \p FD (one
  /// learned from code that runs where \p FD runs), where it is visible
  /// there; null otherwise.
  const ErrorCheckWrapper *learnedWrapperAt(SourceLocation At,
                                            const FunctionDecl *FD,
                                            StringRef Family,
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
  /// The unit's learned error-check wrappers (ErrorCheckWrapper.h) for
  /// host code (false) and device code (true), by status family (empty:
  /// the runtime's and driver's; else a CUDA library's, whose status only
  /// its own wrapper takes), once asked for: none inside when the unit has
  /// none.
  std::map<std::pair<bool, std::string>, std::optional<ErrorCheckWrapper>>
      Learned;
};

} // namespace clang::tidy::cuda

#endif
