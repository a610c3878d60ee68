//===- BranchCorrelation.h - Branches on variables that never change -*- C++ -*-===//
//
// Two branches on a variable that a function never modifies go the same
// way: `if (async) launch; ... if (async) sync;`, or an allocation in
// `switch (mode) { case A: ... }` and its free in a second `switch (mode)`.
// A path records what the branches it took say about such variables (a
// BranchHistory); an edge that contradicts the history is not a path. The
// queued-work analysis and the allocation walk share this. A variable
// written after a branch on it no longer correlates with it: a plain store
// (assignment, increment) ends what the history knows about it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_BRANCHCORRELATION_H
#define CUDA_TIDY_BRANCHCORRELATION_H

#include "FunctionCfg.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace clang::tidy::cuda {

/// What is known of one integer or boolean variable: one of a set of values
/// (`case A: case B:`), or different from each of a set of values.
struct ValueFact {
  bool HasOneOf = false;
  llvm::SmallVector<int64_t, 2> OneOf;    ///< Sorted, when HasOneOf.
  llvm::SmallVector<int64_t, 2> Excludes; ///< Sorted, when not HasOneOf.
  bool operator==(const ValueFact &O) const {
    return HasOneOf == O.HasOneOf && OneOf == O.OneOf &&
           Excludes == O.Excludes;
  }
};

/// The fact that one edge of a branch establishes about one variable.
struct EdgeFact {
  const VarDecl *Var = nullptr;
  ValueFact Fact;
};

/// Which variables may be correlated: locals and parameters that the
/// function never modifies, or modifies only by plain stores, which end
/// their facts (the caller decides).
using UnchangingPredicate = llvm::function_ref<bool(const VarDecl *)>;

/// The fact that taking successor \p SuccIndex of \p From gives: the true
/// or false edge of `if (v)`, `if (!v)`, `if (v == C)`, `if (v != C)`, or a
/// case of `switch (v)` (the last successor of a switch is its default).
std::optional<EdgeFact> edgeFact(const CFGBlock *From, unsigned SuccIndex,
                                 ASTContext &Ctx,
                                 UnchangingPredicate IsUnchanging);

/// The branch facts one path holds.
class BranchHistory {
public:
  bool operator==(const BranchHistory &O) const { return Facts == O.Facts; }
  bool operator!=(const BranchHistory &O) const { return !(*this == O); }
  bool empty() const { return Facts.empty(); }

  /// Adds \p E; false when it contradicts a fact already held (the edge is
  /// then not a path).
  bool add(const EdgeFact &E);
  /// Keeps what both this and \p O imply (a join of two paths); true when
  /// that changed this history.
  bool meet(const BranchHistory &O);
  size_t hash() const;
  /// Drops what is known of \p V (a store to it).
  void forget(const VarDecl *V);

private:
  using Entry = std::pair<const VarDecl *, ValueFact>;
  /// Sorted by variable: histories are copied and compared on every edge,
  /// and hold a handful of variables.
  llvm::SmallVector<Entry, 2> Facts;
};

/// The local variable or parameter that \p S stores to directly: the
/// left side of an assignment (compound or not), the operand of an
/// increment or decrement, or the variable a declaration (re)initializes;
/// null otherwise.
const VarDecl *variableStoredBy(const Stmt *S);

/// The history that holds on every path from the entry to each block
/// (indexed by block ID; nullopt for blocks no path reaches, and for all
/// but the entry when no branch says anything), so that a walk starting
/// inside the function knows which branches led there. Stores to a
/// variable in a block end its facts there (variableStoredBy).
std::vector<std::optional<BranchHistory>>
historiesAtEntry(const FunctionCfg &Cfg, ASTContext &Ctx,
                 UnchangingPredicate IsUnchanging);

} // namespace clang::tidy::cuda

#endif
