//===- ThreadIndexInternal.h - Parts of ThreadIndexAnalysis ---*- C++ -*-===//
//
// What the parts of the thread-index analysis share; not for checks.
// The parts, by concern:
//   ThreadIndexValues.cpp    the thread queries of CudaApiModel.def and
//                            which values derive from them (valueOf),
//                            through helpers' returns;
//   ThreadIndexFacts.cpp     each function's definitions of locals and the
//                            lattice of bound facts (meet, kills);
//   ThreadIndexTransfer.cpp  linear forms, the facts a condition gives,
//                            and the forward data flow over the CFG
//                            (boundsAt);
//   ThreadIndexQueries.cpp   what the checks ask: classifyIndex() and the
//                            text of an expression.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_THREADINDEXINTERNAL_H
#define CUDA_TIDY_THREADINDEXINTERNAL_H

#include "ThreadIndexAnalysis.h"
#include "FunctionCfg.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <deque>
#include <map>
#include <memory>

namespace clang::tidy::cuda {

struct ThreadIndexAnalysis::Subst {
  const FunctionDecl *Callee;
  llvm::ArrayRef<const Expr *> Args;
  const Subst *Outer;
};

struct ThreadIndexAnalysis::FunctionFacts {
  const FunctionDecl *FD = nullptr;
  std::shared_ptr<const FunctionCfg> Cfg; // Kept past the current function.
  /// Values stored into each local variable: its initializer and the
  /// right-hand sides of assignments.
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Defs;
  llvm::DenseSet<const VarDecl *> Modified;
  llvm::DenseSet<const VarDecl *> Escaped;
  llvm::DenseMap<const VarDecl *, ThreadValue> VarValues;
  llvm::DenseSet<const VarDecl *> VarsInProgress;

  bool Solved = false;
  std::deque<BoundFact> Arena;
  llvm::DenseMap<unsigned, FactList> In;
  std::map<std::pair<unsigned, bool>, FactList> EdgeFacts;
  llvm::DenseMap<const Stmt *, FactList> AtCache;
  /// The variables each block's elements kill facts about, with the index
  /// of the element, in order (by block ID; read once, not per visit).
  std::vector<llvm::SmallVector<std::pair<unsigned, const VarDecl *>, 4>>
      BlockKills;
};

namespace tia {

/// The two factors of __mul24(a, b) and the like.
std::optional<std::pair<const Expr *, const Expr *>>
indexProduct(const Expr *E);
/// The value of the integer constant expression \p E.
std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx);
/// The single returned expression of a helper such as
/// `__device__ bool inside(int i, int n) { return i < n; }`.
const Expr *singleReturnOf(const FunctionDecl *FD);
/// Whether the block calls a function that does not return: exit, abort,
/// or a failed assert() in device code.
bool endsThread(const CFGBlock &B);
/// Whether \p FD is a function of the user's code that can be analysed.
bool isUserFunction(const FunctionDecl *FD, const SourceManager &SM);

/// Variables whose stores a statement kills facts about.
void killedBy(const Stmt *S, llvm::SmallVectorImpl<const VarDecl *> &Out);
/// Adds \p F, keeping the stronger of two facts about the same values.
void addFact(FactList &L, const BoundFact *F);
/// Keeps the facts that hold on both paths, each at its weaker bound.
/// Returns whether \p Into changed.
bool intersectInto(FactList &Into, const FactList &Other);
/// Removes the facts about variables that the elements before \p End of a
/// block kill (\p Kills: element index and variable, in order).
void applyKills(FactList &L,
                llvm::ArrayRef<std::pair<unsigned, const VarDecl *>> Kills,
                unsigned End);
/// The facts \p Cond being \p Truth gives, added to \p Out (\p Modified:
/// whether a variable is assigned after its declaration).
void deriveFacts(ASTContext &Ctx, std::deque<BoundFact> &Arena, FactList &Out,
                 llvm::function_ref<bool(const VarDecl *)> Modified,
                 const Expr *Cond, bool Truth);

} // namespace tia

} // namespace clang::tidy::cuda

#endif
