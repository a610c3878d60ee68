//===- ThreadDivergence.h - Why values differ between threads ---*- C++ -*-===//
//
// Whether a value, or a branch condition, may differ between the threads
// of a block, and why: through the thread index, or through per-thread
// data (a load through a thread-dependent index or pointer, an atomic, a
// shuffle, a call with a thread-dependent argument, a local any of whose
// stored values is one). Conditions read their variables through the
// stores that reach them, and a variable that some threads store and others
// do not (a store under a condition that differs between threads) differs
// after the join. A '__shared__' scalar read in a barrier interval in which
// no thread writes it is the same for every thread. docs/design.md,
// "Barrier analysis", step 3.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_THREADDIVERGENCE_H
#define CUDA_TIDY_THREADDIVERGENCE_H

#include "BarrierIntervals.h"
#include "FunctionCfg.h"
#include "ThreadIndexAnalysis.h"
#include "VariableStores.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <memory>
#include <optional>

namespace clang::tidy::cuda {

/// Why a value differs between the threads of a block.
enum class Divergence { None, ThreadIndex, PerThreadData };

/// The divergence facts of one device function.
class ThreadDivergence {
public:
  ThreadDivergence(const FunctionDecl &FD, ThreadIndexAnalysis &Analysis);

  /// The divergence of \p Cond, the condition that ends \p Block.
  Divergence ofCondition(const Expr *Cond, const CFGBlock *Block);
  /// The divergence of \p E, its variables read through all their stores.
  Divergence of(const Expr *E) { return divergenceOf(E, FD, 0); }
  /// Whether every thread runs \p Loop the same number of times (a thread-
  /// or grid-stride loop whose bound is a multiple of the stride).
  bool hasUniformTripCount(const Stmt *Loop);
  /// Whether \p E, or a value stored into a local variable it reads, depends
  /// on template arguments: in a template pattern, such a condition may be
  /// uniform or not depending on the instantiation ('lane < WIDTH').
  bool readsTemplateValue(const Expr *E);

private:
  Divergence divergenceOf(const Expr *E, const FunctionDecl *FD, int Depth);
  Divergence divergenceOfVar(const VarDecl *VD, const FunctionDecl *FD,
                             int Depth);
  /// The divergence of the values of \p Ref's variable that reach the
  /// condition being classified; none when they cannot all be known.
  std::optional<Divergence> divergenceReaching(const DeclRefExpr *Ref,
                                               const FunctionDecl *FD,
                                               int Depth);
  bool mentionsCondRef(const Stmt *S) const;
  /// Whether \p Ref reads a function-local '__shared__' scalar that no
  /// thread writes in the barrier intervals of the read: every thread of
  /// the block then reads the value stored before the barrier.
  bool readsSettledShared(const DeclRefExpr *Ref);
  /// Whether \p Ref reads a function-local '__shared__' scalar.
  static bool isSharedScalar(const DeclRefExpr *Ref);
  /// Whether \p E reads such a scalar, directly or through the values of
  /// the locals it reads.
  bool readsSharedScalar(const Expr *E, int Depth);
  /// The divergence of the conditions that decide whether the store at
  /// \p Store runs, leaving out those that also decide whether the read
  /// being classified runs (its threads all took them the same way).
  Divergence controlDivergence(const CFGBlock *Store);
  /// This function's CFG, or null.
  const FunctionCfg *cfg();

  const FunctionDecl *FD;
  ThreadIndexAnalysis *Analysis;
  /// The condition being classified: its block, and its variable reads,
  /// whose values are taken from the stores that reach it.
  const CFGBlock *CondBlock = nullptr;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> CondRefs;
  VariableStores Stores;
  llvm::DenseMap<const VarDecl *, Divergence> VarCache;
  llvm::DenseMap<const VarDecl *, bool> TemplateValueCache;
  std::shared_ptr<const FunctionCfg> Cfg;
  bool CfgAsked = false;
  std::optional<BarrierIntervals> Intervals;
  llvm::DenseMap<const DeclRefExpr *, bool> SettledReads;
  llvm::DenseMap<const VarDecl *, bool> ReadsShared;
  /// The conditions being classified, outermost first: a store's control
  /// dependence may ask about a condition while another is classified.
  llvm::SmallVector<const CFGBlock *, 4> ConditionsInProgress;
};

} // namespace clang::tidy::cuda

#endif
