//===- BarrierIntervals.h - Stretches of code between barriers --*- C++ -*-===//
//
// The barrier intervals of one function: the stretches of its CFG between
// block barriers, within which the threads of a block run in no fixed
// order. What ends an interval is decided here once, for the race analysis
// (SharedMemoryRaces) and the divergence analysis (ThreadDivergence): a
// block barrier, a same-TU __device__ helper that waits at one, and, in a
// template pattern, a call that only instantiation resolves.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_BARRIERINTERVALS_H
#define CUDA_TIDY_BARRIERINTERVALS_H

#include "FunctionCfg.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

/// The same-TU definition of the __device__ function \p Call calls, outside
/// system headers; null for kernels, API functions and unknown callees.
const FunctionDecl *deviceHelperDefinition(const CallExpr *Call);

/// waitsAtBlockBarrier's answers for one translation unit, by helper and
/// by the depth it is asked at (a helper asked deeper follows fewer of its
/// own calls), so that an answer does not depend on the questions asked
/// before it.
using BarrierWaitCache =
    llvm::DenseMap<std::pair<const FunctionDecl *, int>, bool>;

/// Whether \p Helper, or a same-TU helper it calls (three calls deep from
/// \p Depth 0), waits at a block barrier.
bool waitsAtBlockBarrier(const FunctionDecl *Helper, BarrierWaitCache &Cache,
                         int Depth = 0);

/// Whether \p S, in a template pattern \p FD, is a call whose callee only
/// instantiation decides ('tile.sync()' on a dependent tile, a dependent
/// policy's member): it may wait at a barrier. Operators do not.
bool mayWaitInPattern(const Stmt *S, const FunctionDecl *FD);

/// The barrier intervals of one function.
class BarrierIntervals {
public:
  explicit BarrierIntervals(const FunctionCfg &Cfg) : Cfg(Cfg) {}

  /// Whether every thread that runs \p S waits at a block barrier there:
  /// a block barrier, or a call of a helper that waits at one (in a
  /// template pattern, also a call that instantiation may make one).
  bool endsInterval(const Stmt *S);

  /// Where the intervals that hold \p P begin: the barriers that reach
  /// \p P on some path without another barrier between, and whether the
  /// function's entry does.
  struct Starts {
    llvm::SmallVector<CfgPoint, 4> Barriers;
    bool FromEntry = false;
  };
  Starts startsOf(CfgPoint P);

  /// Whether some statement of an interval that holds \p P satisfies
  /// \p Pred: the statements after each start up to the next barriers.
  bool anyInIntervalsOf(CfgPoint P,
                        llvm::function_ref<bool(const Stmt *)> Pred);

  /// Whether \p A and \p B lie in one interval: some start reaches both
  /// with no barrier between.
  bool shareInterval(CfgPoint A, CfgPoint B);

private:
  const FunctionCfg &Cfg;
  BarrierWaitCache HelperWaits;
};

} // namespace clang::tidy::cuda

#endif
