//===- ReachingValues.h - Constants a variable holds at a point -*- C++ -*-===//
//
// A value chosen at run time is often one of a few constants: `kind = up ?
// cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost`, or a variable set in the
// branches of an `if`. This walk finds the constants that a local variable
// may hold at one statement, each with the store that gives it, following
// only paths on which branches over unchanging variables agree (a `?:` on
// `up` and a later `if (up)` go the same way; BranchCorrelation.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_REACHINGVALUES_H
#define CUDA_TIDY_REACHINGVALUES_H

#include "BranchCorrelation.h"
#include "FunctionCfg.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::cuda {

/// One value that reaches the point, and the store that gives it.
struct ReachingValue {
  int64_t Value;
  const Stmt *Store; ///< The declaration or assignment.
};

/// The constants \p VD may hold when \p At is evaluated, one entry per
/// (value, store). Nothing when \p VD is not a local variable written only
/// by its initializer and plain assignments, when some path brings it a
/// value that is not a constant (or a `?:` of constants), or when the walk
/// grows too large.
std::optional<llvm::SmallVector<ReachingValue, 4>>
reachingConstants(const VarDecl *VD, const Stmt *At, const FunctionCfg &Cfg,
                  ASTContext &Ctx, UnchangingPredicate IsUnchanging);

} // namespace clang::tidy::cuda

#endif
