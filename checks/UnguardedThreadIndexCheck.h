//===- UnguardedThreadIndexCheck.h ------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_UNGUARDEDTHREADINDEXCHECK_H
#define CUDA_TIDY_UNGUARDEDTHREADINDEXCHECK_H

#include "CudaFunctionCheck.h"
#include "LaunchConfiguration.h"
#include "ThreadIndexAnalysis.h"
#include "VariableStores.h"
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
class UnguardedThreadIndexCheck : public CudaFunctionCheck {
public:
  UnguardedThreadIndexCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { StoresFunction = nullptr; }
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
  void checkHelperCall(const CallExpr *Call, const FunctionDecl *Kernel,
                       const FunctionCfg &KernelCfg, ASTContext &Ctx);
  bool isCertain(const Access &A, const IndexVerdict &V,
                 const FunctionDecl *Kernel, ASTContext &Ctx,
                 const CallExpr *ThroughCall, const Expr *CallerIndex,
                 IndexCoverage &Cover);
  void reportAccess(const Access &A, const IndexVerdict &V,
                    const FunctionDecl *Kernel, ASTContext &Ctx,
                    const CallExpr *ThroughCall = nullptr,
                    const Expr *CallerIndex = nullptr);

  /// The stores of \p Kernel's variables, summarized once per kernel.
  const VariableStores &storesOf(const FunctionDecl *Kernel);

  const bool StrictMode;
  const FunctionDecl *StoresFunction = nullptr;
  VariableStores Stores;
  /// This translation unit's, set by checkFunction().
  ThreadIndexAnalysis *Analysis = nullptr;
};

} // namespace clang::tidy::cuda

#endif
