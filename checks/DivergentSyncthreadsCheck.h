//===- DivergentSyncthreadsCheck.h ------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_DIVERGENTSYNCTHREADSCHECK_H
#define CUDA_TIDY_DIVERGENTSYNCTHREADSCHECK_H

#include "ArchConditionals.h"
#include "ThreadIndexAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds block barriers that only some threads of the block reach, because
/// a condition on the way depends on the thread index or per-thread data.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-divergent-syncthreads.md
class DivergentSyncthreadsCheck : public ClangTidyCheck {
public:
  DivergentSyncthreadsCheck(StringRef Name, ClangTidyContext *Context)
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
  /// Why a value differs between the threads of a block.
  enum class Divergence { None, ThreadIndex, PerThreadData };
  Divergence divergenceOf(const Expr *E, const FunctionDecl *FD, int Depth);
  Divergence divergenceOfVar(const VarDecl *VD, const FunctionDecl *FD,
                             int Depth);

  std::unique_ptr<ThreadIndexAnalysis> Analysis;
  /// Per function: each local variable's initializer and assigned values;
  /// variables whose address escapes map to an empty list and a null entry.
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Defs;
  llvm::DenseMap<const VarDecl *, Divergence> VarCache;
  llvm::DenseMap<const VarDecl *, bool> Escaped;
  ArchConditionals Arch;
};

} // namespace clang::tidy::cuda

#endif
