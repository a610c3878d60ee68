//===- UncheckedApiCallCheck.h ----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_UNCHECKEDAPICALLCHECK_H
#define CUDA_TIDY_UNCHECKEDAPICALLCHECK_H

#include "CudaFunctionCheck.h"
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
  bool isIgnored(const FunctionDecl *Callee) const;
  void checkCall(const CallExpr *Call, const class FunctionCfg &Cfg,
                 const SourceManager &SM);
  static SourceRange wrappableRange(const CallExpr *Call,
                                    const SourceManager &SM);
  void reportReevaluation(const CallExpr *Call, const CallExpr *Again,
                          const SourceManager &SM);

  const std::string RawCheckedReturnTypes;
  const std::string RawIgnoredFunctions;
  const std::string ErrorCheckMacro;
  const bool AllowCastToVoid;
  const bool AllowReleaseInDestructors;
  std::vector<StringRef> CheckedReturnTypes;
  std::vector<StringRef> IgnoredFunctions;
};

} // namespace clang::tidy::cuda

#endif
