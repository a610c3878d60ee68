//===- WarpLanes.h - Which lanes of a warp reach each block -----*- C++ -*-===//
//
// For a device function, which lanes of each warp may reach each CFG block,
// from the branch conditions that can be evaluated thread by thread: those
// on threadIdx.x, on a lane id derived from it (threadIdx.x & 31,
// threadIdx.x % 32, a global index modulo 32) and on the ranks of
// cooperative-groups tiles. Other conditions let every lane through.
//
// The model: when every launch of a kernel gives the same constant block,
// its threads are enumerated (lane = linear thread index % 32, so a 16 x 16
// block puts two rows in a warp). Otherwise blockDim.x is taken to be a
// multiple of 32, so a warp is 32 consecutive values of threadIdx.x in one
// row (threadIdx.y and .z are the same in the whole warp), and the 32 warps
// of a 1024-thread row are tracked. Each warp has a 32-bit lane set. Every
// lane of every warp enters the function.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_WARPLANES_H
#define CUDA_TIDY_WARPLANES_H

#include "FunctionCfg.h"
#include "ThreadDivergence.h"
#include "VariableStores.h"
#include "llvm/ADT/DenseMap.h"
#include <array>
#include <cstdint>
#include <optional>

namespace clang::tidy::cuda {

/// A lane set per warp of a block row: bit l of [w] is lane l of warp w
/// (threadIdx.x == 32 * w + l).
using WarpLaneSets = std::array<uint32_t, 32>;

class WarpLanes {
public:
  WarpLanes(const FunctionCfg &Cfg, ASTContext &Ctx);

  /// The lanes that may reach \p B (none when it is unreachable).
  const WarpLaneSets &reaching(const CFGBlock *B) const;

  /// The lanes for which \p Cond may be true (first) and may be false
  /// (second), or none when it does not depend on the lane in a way that
  /// can be evaluated.
  std::optional<std::pair<WarpLaneSets, WarpLaneSets>>
  split(const Expr *Cond);

  /// The lanes that exist: all of them, but for a known block shape whose
  /// size is not a multiple of 32 or is below 1024 threads.
  const WarpLaneSets &existing() const { return Exist; }

  /// The lanes of every warp that hold in \p Sets, or'ed together.
  static uint32_t anyWarp(const WarpLaneSets &Sets);

  /// Lets __activemask() be evaluated: its value is the lanes of the warp
  /// that reach it, where they are known exactly (\p Divergences tells
  /// which conditions are the same for every thread).
  void useDivergences(ThreadDivergence &Divergences) { Div = &Divergences; }

  /// The value of \p E for the thread of linear index \p Thread, when it
  /// can be evaluated (a mask computed per lane, a ballot's lane mask,
  /// __activemask()).
  std::optional<int64_t> valueFor(const Expr *E, int64_t Thread);
  /// The threads of the block that the model enumerates.
  int64_t threadCount() const { return ThreadCount; }
  /// Whether reaching(B) is exact: every condition that decides whether
  /// \p B runs is either evaluated for each lane or the same for every
  /// thread of the block (\p Divergences).
  bool reachedExactly(const CFGBlock *B, ThreadDivergence &Divergences);
  /// A load in \p Cond whose index differs between the lanes of a warp
  /// ('valid[tid]'): per-thread data the lanes of one warp may disagree on.
  const Expr *laneVaryingLoad(const Expr *Cond, int Depth = 0);

  /// The value of an expression for one thread (WarpLanes.cpp).
  struct Value;
  /// One thread: its coordinates in the block and its linear index.
  struct Thread {
    int64_t X = 0, Y = 0, Z = 0, Linear = 0;
  };

  /// Whether the value of \p P, a parameter of the function, is known for
  /// each thread: a kernel's, or a __device__ function's whose every call
  /// in this translation unit passes a value that can be evaluated.
  bool parameterKnown(const ParmVarDecl *P);
  /// The comparison in \p Cond (or one of its '&&' and '||' operands) of
  /// an index that is consecutive across the lanes of a warp with a bound
  /// that is the same in the warp but not a constant ('x < width'): at the
  /// bound, one warp has lanes on both sides.
  const BinaryOperator *edgeBound(const Expr *Cond, int Depth = 0);
  /// Whether \p Cond has one value in the whole warp, known or not.
  bool warpInvariant(const Expr *Cond);

private:
  Value eval(const Expr *E, const Thread &T, int Depth);
  Value parameterValue(const ParmVarDecl *P, const Thread &T, int Depth);
  Value evalIn(const Expr *E, const FunctionDecl *Caller, const Thread &T,
               int Depth);
  bool CallsKnown = false, CallSitesComplete = false;
  llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 4>
      CallSites;
  llvm::DenseMap<const FunctionDecl *, VariableStores> CallerStores;
  Thread threadAt(int64_t Linear) const;
  Value query(const Expr *E, unsigned Source, unsigned Dim, const Thread &T);
  std::optional<bool> truth(const Expr *E, const Thread &T, int Depth);
  void solve();

  const FunctionCfg &Cfg;
  ASTContext &Ctx;
  VariableStores Stores;
  bool IsKernel;
  /// The block every launch gives, when known.
  std::optional<std::array<int64_t, 3>> Shape;
  int64_t ThreadCount = 1024;
  WarpLaneSets Exist;
  llvm::DenseMap<const CFGBlock *, WarpLaneSets> In;
  llvm::DenseMap<const Expr *,
                 std::optional<std::pair<WarpLaneSets, WarpLaneSets>>>
      Splits;
  /// A vote's lane mask, per call and warp.
  llvm::DenseMap<std::pair<const CallExpr *, int64_t>, std::optional<int64_t>>
      Votes;
  std::optional<int64_t> vote(const CallExpr *Call, unsigned PredicateArg,
                              const Thread &T, int Depth);
  /// The lanes of \p T's warp that execute \p Call, an __activemask().
  std::optional<int64_t> activeLanes(const CallExpr *Call, const Thread &T);
  ThreadDivergence *Div = nullptr;
  bool Solved = false;
  /// Blocks whose reaching lanes are known exactly (reachedExactly).
  llvm::DenseMap<const CFGBlock *, bool> Exact;
};

} // namespace clang::tidy::cuda

#endif
