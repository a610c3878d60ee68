//===- UnguardedThreadIndexCheck.h ------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_UNGUARDEDTHREADINDEXCHECK_H
#define CUDA_TIDY_UNGUARDEDTHREADINDEXCHECK_H

#include "ArchConditionals.h"
#include "ThreadIndexAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <optional>
#include <set>

namespace clang::tidy::cuda {

/// Finds reads and writes of global memory at a thread-derived index that
/// has no upper bound on some path through the kernel.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-unguarded-thread-index.md
class UnguardedThreadIndexCheck : public ClangTidyCheck {
public:
  UnguardedThreadIndexCheck(StringRef Name, ClangTidyContext *Context);
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
  /// A read or write of global memory.
  struct Access {
    const Expr *At = nullptr;       ///< The subscript or dereference.
    const ValueDecl *Base = nullptr; ///< The pointer or __device__ array.
    const Expr *Index = nullptr;
    unsigned Kind = 0; ///< 0 read, 1 write, 2 address taken.
    /// For an access inside a helper: the helper's pointer parameter.
    const ValueDecl *HelperParam = nullptr;
  };
  std::optional<Access> globalAccess(const Stmt *S, const FunctionCfg &Cfg,
                                     bool ParamsAreGlobal);
  /// Whether every launch of \p Kernel in the translation unit runs exactly
  /// as many threads as the data has elements.
  bool launchesCoverExactly(const FunctionDecl *Kernel, ASTContext &Ctx);
  bool launchIsExact(const CallExpr *Launch, const FunctionDecl *Host,
                     ASTContext &Ctx);
  void checkHelperCall(const CallExpr *Call, const FunctionDecl *Kernel,
                       const FunctionCfg &KernelCfg, ASTContext &Ctx);
  void reportAccess(const Access &A, const IndexVerdict &V,
                    const FunctionDecl *Kernel, ASTContext &Ctx,
                    const CallExpr *ThroughCall = nullptr,
                    const Expr *CallerIndex = nullptr);

  const bool StrictMode;
  std::unique_ptr<ThreadIndexAnalysis> Analysis;
  /// Kernel (canonical) -> its launches and the functions that make them.
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<std::pair<const CallExpr *,
                                             const FunctionDecl *>, 2>>
      Launches;
  bool LaunchesCollected = false;
  llvm::DenseMap<const FunctionDecl *, bool> Exact;
  llvm::DenseSet<unsigned> Reported;
  ArchConditionals Arch;
};

} // namespace clang::tidy::cuda

#endif
