//===- DivergentSyncthreadsCheck.h ------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_DIVERGENTSYNCTHREADSCHECK_H
#define CUDA_TIDY_DIVERGENTSYNCTHREADSCHECK_H

#include "CudaFunctionCheck.h"
#include "ThreadIndexAnalysis.h"
#include "VariableStores.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>
#include <memory>

namespace clang::tidy::cuda {

/// Finds block barriers that only some threads of the block reach, because
/// a condition on the way depends on the thread index or per-thread data.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-divergent-syncthreads.md
class DivergentSyncthreadsCheck : public CudaFunctionCheck {
public:
  DivergentSyncthreadsCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context, {FunctionScope::DeviceCode}) {}

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  /// Why a value differs between the threads of a block.
  enum class Divergence { None, ThreadIndex, PerThreadData };
  Divergence divergenceOf(const Expr *E, const FunctionDecl *FD, int Depth);
  Divergence divergenceOfVar(const VarDecl *VD, const FunctionDecl *FD,
                             int Depth);

  /// This translation unit's, set by checkFunction().
  ThreadIndexAnalysis *Analysis = nullptr;
  /// The divergence of the values of \p Ref's variable that reach the
  /// condition being classified; none when they cannot all be known.
  std::optional<Divergence> divergenceReaching(const DeclRefExpr *Ref,
                                               const FunctionDecl *FD,
                                               int Depth);
  bool mentionsCondRef(const Stmt *S) const;
  /// Whether every thread runs \p Loop the same number of times.
  bool hasUniformTripCount(const Stmt *Loop, const FunctionDecl *FD,
                           const ASTContext &Ctx);

  /// The condition being classified: its block, and its variable reads,
  /// whose values are taken from the stores that reach it.
  const CFGBlock *CondBlock = nullptr;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> CondRefs;
  /// The stores of the function being checked.
  VariableStores Stores;
  llvm::DenseMap<const VarDecl *, Divergence> VarCache;
};

} // namespace clang::tidy::cuda

#endif
