//===- UncheckedKernelLaunchCheck.h -----------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_UNCHECKEDKERNELLAUNCHCHECK_H
#define CUDA_TIDY_UNCHECKEDKERNELLAUNCHCHECK_H

#include "CudaFunctionCheck.h"
#include "TorchTensors.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

class FunctionCfg;

/// Finds kernel launches after which some path leaves the function without
/// examining the launch error.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-unchecked-kernel-launch.md
class UncheckedKernelLaunchCheck : public CudaFunctionCheck {
public:
  UncheckedKernelLaunchCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override;
  /// What a function does to launch errors, seen from its callers.
  struct Summary {
    /// Every path from entry to exit examines the launch error.
    bool ExaminesOnEveryPath = false;
    /// Some launch in it (or in a callee) may still be unexamined when it
    /// returns; this is that launch.
    const CallExpr *PendingLaunch = nullptr;
  };
  /// Facts about one launch site inside a function.
  struct SiteResult {
    bool Unexamined = false;
    const Stmt *ExitStmt = nullptr; ///< Last statement on the bad path.
  };

  const Summary &summarize(const FunctionDecl *FD, ASTContext &Ctx);
  /// Whether the call at this element examines launch errors.
  bool examines(const CallExpr *Call, const FunctionCfg &Cfg,
                ASTContext &Ctx);
  /// The launch a call starts, directly or through a callee that leaves its
  /// launch unexamined; null when the call launches nothing.
  const CallExpr *launchStartedBy(const CallExpr *Call, const FunctionCfg &Cfg,
                                  ASTContext &Ctx);
  SiteResult followLaunch(const CallExpr *Site, const FunctionCfg &Cfg,
                          ASTContext &Ctx);
  void report(const CallExpr *Site, const CallExpr *Origin,
              const SiteResult &R, const FunctionCfg &Cfg,
              const SourceManager &SM, const LangOptions &LO);

  const std::string ErrorCheckMacro;
  const bool StrictLaunchErrorCheck;
  const bool ReportExportedLaunchers;
  llvm::DenseMap<const FunctionDecl *, Summary> Summaries;
  llvm::DenseSet<const FunctionDecl *> InProgress;
};

} // namespace clang::tidy::cuda

#endif
