//===- GlobalMemoryRaces.h - Lost updates of global memory ------*- C++ -*-===//
//
// Which plain read-modify-writes of global memory in a kernel can lose
// updates: two threads of one launch load the same element, each computes
// a new value from what it loaded, and the later store overwrites the
// earlier one. An update is reported when its new value depends on the old
// one (a compound assignment or increment, 'a[k] = a[k] + x', a store under
// a comparison with the old value such as 'if (d < dist[v]) dist[v] = d')
// and its index is not one-to-one in the thread:
//
//  - the same element for every thread of the grid (a constant, a scalar,
//    a value uniform in the grid), or for every thread of a block (an index
//    built from blockIdx only);
//  - an index read from memory ('v = adj[e]', 'bin = key[i] / w'), which
//    two threads may share.
//
// A plain store of a value that differs between threads (it depends on the
// thread index or on per-thread data, and on no helper, shuffle broadcast
// or shared-memory read that could make it the same) to an element shared
// by the block or the grid, reached by every thread of the block, is a
// write-write race: the result depends on which thread stores last.
//
// Stores at a thread-derived index (tid, a grid-stride loop, a row per
// thread), atomics, other stores of a value that does not depend on the old one,
// stores that a guard confines to one thread (of the block for a per-block
// element, of the grid otherwise), and pointers not known to be global
// memory (a kernel's pointer parameter, a __device__ variable) are left
// alone. A __device__ helper that no function of the unit calls is read
// the same way, with its parameters unknown (isUncalledHelper).
// docs/checks/cuda-global-memory-race.md, docs/design.md.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_GLOBALMEMORYRACES_H
#define CUDA_TIDY_GLOBALMEMORYRACES_H

#include "FunctionCfg.h"
#include "ThreadIndexAnalysis.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>
#include <vector>

namespace clang::tidy::cuda {

/// A plain update of global memory that concurrent threads can lose.
struct LostUpdate {
  /// Who shares the element.
  enum Sharing {
    Grid,  ///< Every thread of the grid: a constant or grid-uniform index.
    Block, ///< Every thread of a block: an index built from blockIdx.
    Data,  ///< Threads whose index, read from memory, is the same.
  } Shared = Grid;
  /// How the new value depends on the old one.
  enum Update {
    Compound,     ///< '+=', '++' and the like.
    ReadModify,   ///< 'a[k] = f(a[k])', directly or through a local.
    CompareStore, ///< 'if (x < a[k]) a[k] = x'.
    /// A plain store, by every thread of a block, of a value that differs
    /// between them ('out[blockIdx.x] = partial'): which thread's value
    /// is kept depends on the order of the stores.
    WriteWrite,
  } How = Compound;
  /// The store: the assignment or increment.
  const Expr *Store = nullptr;
  /// The element written: the subscript, dereference or variable.
  const Expr *Target = nullptr;
  /// The pointer parameter or __device__ variable written.
  const ValueDecl *Base = nullptr;
  /// The index as written (null for a scalar or '*p').
  const Expr *Index = nullptr;
  /// ReadModify and CompareStore: the read of the old value.
  const Expr *OldRead = nullptr;
  /// The atomic that would do the update ("atomicAdd"), or "".
  const char *Atomic = "";
};

/// A hazard of the last-block pattern: each block stores a partial result
/// to global memory, one thread takes a ticket from a counter
/// ('atomicAdd(&count, 1)'), and the block that draws the last ticket
/// reads every block's partial.
struct LastBlockHazard {
  enum Kind {
    /// A path from the partial store reaches the ticket atomic with no
    /// memory fence between: the last block may read a stale partial.
    NoFence,
    /// Threads of the block store their parts, and one thread takes the
    /// ticket on a path with no block barrier after those stores: the
    /// block may count as finished before its other threads have stored.
    NoBarrier,
    /// The ticket counts up on a '__device__' counter that nothing in the
    /// translation unit resets (no other use of the variable, in device
    /// or host code) and that does not wrap at the last ticket: on the
    /// next launch no block draws the last ticket.
    NoReset,
  } What = NoFence;
  /// The ticket atomic.
  const CallExpr *Ticket = nullptr;
  /// The partial store (an assignment, or a call of a same-TU helper that
  /// stores through the buffer); null for NoReset.
  const Expr *Store = nullptr;
  /// A read of the partials in the last block's branch.
  const Expr *Read = nullptr;
  /// The buffer of partials; for NoReset, the counter.
  const ValueDecl *Base = nullptr;
};

/// The lost-update questions of one translation unit.
class GlobalMemoryRaces {
public:
  explicit GlobalMemoryRaces(ThreadIndexAnalysis &TI) : TI(TI) {}

  /// The lost updates of \p Kernel, a __global__ function or an uncalled
  /// helper (isUncalledHelper), in source order.
  std::vector<LostUpdate> lostUpdatesIn(const FunctionDecl &Kernel,
                                        const FunctionCfg &Cfg);

  /// Whether \p FD is a __device__ function, not a kernel, that no function
  /// of the translation unit calls (a header's helper). lostUpdatesIn reads
  /// it as a kernel whose parameters are unknown: its pointer parameters
  /// are not known to be global memory, and an update whose index or guard
  /// reads a parameter is left alone; what remains ('__device__' variables
  /// at indices from constants, the block or loaded data) races whoever
  /// the caller is, when the helper reads the thread's coordinates.
  static bool isUncalledHelper(const FunctionDecl &FD);

  /// The last-block hazards of \p Kernel, in source order of their
  /// tickets, at most one per ticket and kind.
  std::vector<LastBlockHazard> lastBlockHazardsIn(const FunctionDecl &Kernel,
                                                  const FunctionCfg &Cfg);

private:
  ThreadIndexAnalysis &TI;
  /// The '__device__' variables of the translation unit that something
  /// other than a ticket atomic ('atomicAdd(&v, 1)') uses; filled on first
  /// use.
  std::optional<llvm::DenseSet<const VarDecl *>> UsedBesideTickets;
  bool usedBesideTickets(const VarDecl *VD);
};

} // namespace clang::tidy::cuda

#endif
