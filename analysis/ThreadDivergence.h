//===- ThreadDivergence.h - Why values differ between threads ---*- C++ -*-===//
//
// Whether a value, or a branch condition, may differ between the threads
// of a block, and why: through the thread index, or through per-thread
// data (a load through a thread-dependent index or pointer, an atomic, a
// shuffle, a call with a thread-dependent argument, a local any of whose
// stored values is one). Conditions read their variables through the
// stores that reach them. docs/design.md, "Barrier analysis", step 3.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_THREADDIVERGENCE_H
#define CUDA_TIDY_THREADDIVERGENCE_H

#include "FunctionCfg.h"
#include "ThreadIndexAnalysis.h"
#include "VariableStores.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
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

  const FunctionDecl *FD;
  ThreadIndexAnalysis *Analysis;
  /// The condition being classified: its block, and its variable reads,
  /// whose values are taken from the stores that reach it.
  const CFGBlock *CondBlock = nullptr;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> CondRefs;
  VariableStores Stores;
  llvm::DenseMap<const VarDecl *, Divergence> VarCache;
  llvm::DenseMap<const VarDecl *, bool> TemplateValueCache;
};

} // namespace clang::tidy::cuda

#endif
