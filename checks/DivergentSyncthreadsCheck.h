//===- DivergentSyncthreadsCheck.h ------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_DIVERGENTSYNCTHREADSCHECK_H
#define CUDA_TIDY_DIVERGENTSYNCTHREADSCHECK_H

#include "CudaFunctionCheck.h"
#include "ThreadIndexAnalysis.h"
#include "VariableStores.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
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
  /// The stores of the function being checked.
  VariableStores Stores;
  llvm::DenseMap<const VarDecl *, Divergence> VarCache;
};

} // namespace clang::tidy::cuda

#endif
