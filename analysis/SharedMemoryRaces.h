//===- SharedMemoryRaces.h - Races on __shared__ memory ---------*- C++ -*-===//
//
// Which elements of __shared__ memory two different threads of a block may
// touch in one barrier interval, one of them writing. Each access of a
// kernel (and of the __device__ helpers it calls) is read as a linear form
// of the thread's index; from every access the CFG is walked forward to
// the barriers that end its interval, and each access met on the way is
// compared with it. docs/analyses-kernel.md, "Missing barriers", tells the rules.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_SHAREDMEMORYRACES_H
#define CUDA_TIDY_SHAREDMEMORYRACES_H

#include "BarrierIntervals.h"
#include "FunctionCfg.h"
#include "ThreadDivergence.h"
#include "ThreadIndexAnalysis.h"
#include "VariableStores.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// The shared-memory race analysis of one translation unit. Create one per
/// translation unit and ask it about each kernel in turn.
class SharedMemoryRaces {
public:
  /// One subscript of a multi-dimensional element access, read as
  /// Coeff * t[Coord] + sum(Uniform) + Const, where t is the thread's
  /// (x, y, z) coordinate in its block and Coord is -1 when it has none.
  struct DimIndex {
    int Coord = -1;
    int64_t Coeff = 0;
    std::map<std::string, int64_t> Uniform;
    std::map<std::string, const Expr *> UniformExprs;
    int64_t Const = 0;
  };

  /// One read or write of a __shared__ array. One-dimensional arrays
  /// indexed by the one-dimensional thread index have their index read as
  /// Coeff * tid + sum(Uniform) + Const; multi-dimensional ones, and
  /// flattened tiles indexed by threadIdx.y or .z, have Dims instead.
  struct Access {
    const Expr *At = nullptr;      ///< The subscript, or the scalar.
    /// The kernel's CFG element where it happens: the call of the helper
    /// for an access made in a __device__ helper.
    const Stmt *Point = nullptr;
    /// The function At is in, and its CFG element there.
    const FunctionDecl *Fn = nullptr;
    const Stmt *Local = nullptr;
    /// The calls through which a helper makes the access, innermost first,
    /// each with the function that makes it; empty for the kernel's own.
    llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 2>
        Calls;
    /// The innermost call, or null.
    const CallExpr *call() const {
      return Calls.empty() ? nullptr : Calls.front().first;
    }
    const VarDecl *Array = nullptr;
    bool Scalar = false;           ///< A '__shared__' scalar, not an array.
    bool Read = false, Write = false;
    int64_t Coeff = 0;
    const Expr *Thread = nullptr;  ///< The tid expression, when Coeff != 0.
    std::map<std::string, int64_t> Uniform; ///< Term text -> coefficient.
    std::map<std::string, const Expr *> UniformExprs;
    llvm::SmallVector<const VarDecl *, 2> Vars; ///< Variables in Uniform.
    int64_t Const = 0;
    bool Multi = false;
    /// The index is a group's base plus an offset ('(tid / 32) * 32 + i'):
    /// the elements of the thread's own warp, which __syncwarp() orders.
    bool WarpLocal = false;
    /// The index counts groups of this many threads ('(tid / 8) * 8 + j',
    /// 'tid - tid % 4 + j'): Coeff multiplies tid / Group, not tid.
    int64_t Group = 1;
    llvm::SmallVector<DimIndex, 3> Dims;
    /// An atomic read-modify-write ('atomicAdd(&count, 1)'): it races
    /// with other threads' plain reads and writes of its element, never
    /// with their atomics.
    bool Atomic = false;
    /// The element is not known: an atomic's data-dependent subscript,
    /// or a slot that an atomic's old value picks.
    bool AnySlot = false;
    /// The subscript is an atomic ticket ('q[atomicAdd(&tail, 1)] = v'):
    /// a slot no other thread's ticket names.
    bool TicketSlot = false;
    /// An access made in a helper that waits at a block barrier (its
    /// Point is the caller's call of it), and whether some path from the helper's
    /// entry reaches it with no barrier between (it happens before the
    /// call's barrier), and some path from it reaches the helper's return
    /// with none (after it). True for every other access.
    bool InWaitingCall = false, BeforeWait = true, AfterWait = true;
  };
  /// A linear form over the thread coordinates, with a part multiplied by
  /// a non-constant uniform stride (Level 1).
  struct Linear;

  /// Two accesses by different threads that some path reaches one after
  /// the other with no barrier between them: First, then Second. InWarp:
  /// both are confined to one warp, where __syncwarp() would order them.
  /// WriteWrite: First is a store that several threads make with
  /// different values (or a read-modify-write they all make), and Second
  /// a later read of the element, which sees one of them.
  struct Race {
    Access First, Second;
    bool InWarp = false;
    bool WriteWrite = false;
    /// WriteWrite: the store of other threads that First races with, when
    /// it is another statement.
    std::optional<Access> OtherStore;
    /// WriteWrite: no access of the kernel reads the array.
    bool Unread = false;
  };

  /// The races of \p Kernel, its own and those in the helpers it calls,
  /// less those whose second access an earlier call already returned.
  std::vector<Race> racesIn(const FunctionDecl &Kernel, const FunctionCfg &Cfg,
                            ASTContext &Ctx);

private:
  bool readLinear(const Expr *E, int64_t Coeff, int Level, Linear &L,
                  Access &A, const FunctionDecl *FD, ASTContext &Ctx,
                  int Depth);
  bool conflictsMulti(const Access &First, const Access &Second,
                      bool GuardsHold, const FunctionDecl *FD);
  /// The range of each thread coordinate that makes an access: from the
  /// launches' block and the constant bounds around it ('if (tx < 8)').
  using CoordRanges = std::array<std::pair<int64_t, int64_t>, 3>;
  CoordRanges coordinateRanges(const Access &A);
  void boundCoordinates(const Expr *Cond, const FunctionDecl *Fn,
                        CoordRanges &R);
  bool constantCoordinateBound(const Expr *Cond, const FunctionDecl *Fn);
  bool separatesThreads(const Access &At, const Access &First,
                        const Access &Second, const FunctionDecl *FD);
  bool harmlessBound(const Expr *Bound, const Access &First,
                     const Access &Second, const FunctionDecl *FD);
  bool harmlessCondition(const Expr *Cond, const Access &First,
                         const Access &Second, const FunctionDecl *FD);
  bool varies(const Expr *E, const FunctionDecl *FD);
  /// The thread index t of a group's base '(t / W) * W' (W a power of
  /// two up to 32), or null.
  const Expr *groupBase(const BinaryOperator *Mul, const FunctionDecl *FD,
                        ASTContext &Ctx);
  /// Whether \p A is made only by the first lane of each group of the
  /// base's width ('if (tid % 32 == 0)'), for which the base is the
  /// thread's own index.
  bool underLeaderGuard(const Access &A, const Expr *Tid,
                        const BinaryOperator *Base, const FunctionDecl *FD,
                        ASTContext &Ctx);
  /// Reads the first slot of \p Tid's group of \p W threads into \p A.
  bool readGroupBase(const Expr *Tid, int64_t W, int64_t Coeff, Access &A);
  bool readIndex(const Expr *E, int64_t Coeff, Access &A,
                 const FunctionDecl *FD, ASTContext &Ctx);
  /// The argument a parameter of the helper being read is bound to, and
  /// the function the argument is in.
  const Expr *boundArgument(const Expr *E, const FunctionDecl *FD,
                            const FunctionDecl *&ArgFn);
  /// The shared array or scalar \p E names, through bound parameters.
  /// The shared variable whose whole element (or scalar) E names, with the
  /// indices of E in order; null when E is no whole shared element.
  const VarDecl *sharedElementOf(const Expr *E, const FunctionDecl *FD,
                                 llvm::SmallVector<const Expr *, 3> &Indices);
  const VarDecl *sharedVariableOf(const Expr *E, const FunctionDecl *FD,
                                  unsigned &Rank);
  /// The one-dimensional __shared__ array that the pointer member \p F
  /// holds in every object of this translation unit: each construction,
  /// aggregate initialization and assignment that sets F stores that
  /// whole array ('Tiler t(tile)' through 'tile(s)', 'p.sh = tile'), and
  /// nothing else does; null otherwise.
  const VarDecl *memberSharedArray(const FieldDecl *F);
  /// Whether \p E is such a member (memberSharedArray()).
  bool namesSharedMember(const Expr *E);
  const VariableStores &storesOf(const FunctionDecl *FD);
  /// Whether \p VD is changed in \p FD after its declaration: assigned,
  /// incremented or its address taken.
  bool changedIn(const VarDecl *VD, const FunctionDecl *FD);
  /// The conditions \p A is under, in its function and at the helper's
  /// call, with their function and whether A is on their false side.
  struct Condition {
    const Expr *Cond;
    const FunctionDecl *Fn;
    bool Negated;
  };
  llvm::SmallVector<Condition, 4> conditionsOver(const Access &A);
  bool underTileGuard(const Access &A);
  bool noThreadAt(int64_t Offset);
  /// The constant range of the threads that make \p A: lower bounds from
  /// the conditions around it ('tid >= 256'), upper bounds from its facts
  /// and from the launches' block.
  std::pair<int64_t, int64_t> threadRange(const Access &A);
  /// The BoundFacts at \p A: in its function, and at the helper's call.
  using FactIn = std::pair<const BoundFact *, const FunctionDecl *>;
  llvm::SmallVector<FactIn, 8> factsAt(const Access &A, bool &Known);
  /// Whether \p Callee, or a same-TU function it calls, waits at a block
  /// barrier.
  bool waitsAtBarrier(const FunctionDecl *Callee, int Depth);

  bool isThreadId(const Expr *E, const FunctionDecl *FD);
  bool isUniform(const Expr *E, const FunctionDecl *FD, int Depth);
  /// Whether First then Second (by other threads) conflict; sets the
  /// hazard kind. \p GuardsHold: no variable of the guards changed between.
  bool conflicts(const Access &First, const Access &Second, bool GuardsHold,
                 const FunctionDecl *FD);
  bool guardedBelow(const Access &A, const std::string &RHSKey, int64_t Max,
                    const FunctionDecl *FD);
  bool hasThreadGuard(const Access &At, const Expr *Thread,
                      const FunctionDecl *FD);
  int64_t warpBound(const Access &A, const FunctionDecl *FD);
  bool mentionsThread(const Expr *E, const FunctionDecl *FD);
  /// Whether \p Cond lets a thread through by an upper bound on its index
  /// ('tid < count', 'tid <= s && k < n') or names one thread ('tid == 0'),
  /// with no other condition on the thread.
  bool upperBoundOnThread(const Expr *Cond, const FunctionDecl *FD);
  /// Whether the conditions on the thread around \p Own, an access of the
  /// thread's own element, are all upperBoundOnThread(): the thread that
  /// owns a fixed element passes them, but for threadRange().
  bool ownerMayWrite(const Access &Own, const FunctionDecl *FD);
  bool writerIsOneThread(const Access &W, const FunctionDecl *FD);
  /// Whether the conditions on the thread that \p A is made under let more
  /// than one thread through: each is a bound on a thread-derived value
  /// by a value that does not mention the thread and is not a constant
  /// ('tid < n', a thread-stride loop's 'p < n'), or a constant bound of
  /// at least 2 on the thread index itself ('tid < 32'). A reader under
  /// such conditions and a writer that is one thread are other threads.
  bool admitsManyThreads(const Access &A, const FunctionDecl *FD);
  /// \p Cond, on its \p Negated side, is such a bound (admitsManyThreads).
  bool openBound(const Expr *Cond, bool Negated, const FunctionDecl *FD);
  /// Whether \p A is made by one thread only, under 'if (tid == Thread)'.
  bool onlyThread(const Access &A, const FunctionDecl *FD, int64_t &Thread);
  /// Whether \p VD is the counter of a for loop whose body holds \p At.
  bool isEnclosingLoopCounter(const VarDecl *VD, const Stmt *At,
                              const FunctionDecl *FD);
  bool readsOtherThreadsElement(const Access &Reader, const Access &Writer,
                                const FunctionDecl *FD);

  struct Candidate;
  /// The atomic update of shared memory \p S makes, if it is one, with
  /// the subscripts of its element in \p Indices.
  std::optional<Access>
  atomicAccessAt(const Stmt *S, const FunctionCfg &Cfg, const FunctionDecl *FD,
                 llvm::SmallVector<const Expr *, 3> &Indices);
  /// Whether \p E is an atomic's ticket: its old value, directly or
  /// through a local that holds nothing else.
  bool isTicket(const Expr *E, const FunctionDecl *FD);
  /// conflicts() for pairs of flat accesses at least one of which has a
  /// stride ('a[2 * tid + 1]', 'a[j + tid * 4]' over a loop counter j):
  /// whether some element is one thread's in one and another thread's in
  /// the other, within the threads that make each.
  bool conflictsStrided(const Access &First, const Access &Second,
                        bool GuardsHold, const FunctionDecl *FD);
  /// The constant range of the threads that make \p A, when its guards
  /// on the thread are bounds by constants, one thread, or bounds that let
  /// many threads through (then: all of the block); none otherwise.
  std::optional<std::pair<int64_t, int64_t>> stridedThreads(const Access &A,
                                                            const FunctionDecl *FD);
  /// conflicts() for pairs with an atomic or an unknown slot.
  bool conflictsAtomic(const Access &First, const Access &Second,
                       bool GuardsHold, const FunctionDecl *FD);
  std::optional<Access> accessAt(const Stmt *S, const FunctionCfg &Cfg,
                                 const FunctionDecl *FD,
                                 llvm::SmallVector<const Expr *, 3> &Indices);
  void addCandidate(Access A, const llvm::SmallVector<const Expr *, 3> &Indices,
                    std::vector<Candidate> &Out, ASTContext &Ctx);
  /// Binds \p Call's arguments to the parameters of \p Def; the accesses
  /// of \p Def's body, through the calls \p Chain (innermost first).
  void bindArguments(const CallExpr *Call, const FunctionDecl *Caller,
                     const FunctionDecl *Def);
  std::vector<Candidate>
  accessesIn(const FunctionDecl *Def, const FunctionCfg &HelperCfg,
             const decltype(Access::Calls) &Chain, ASTContext &Ctx);
  /// The helpers \p Fn (\p FnCfg its CFG) calls on its reachable paths,
  /// but itself, the kernel, operators, those already on \p Chain and
  /// those \p Skip names: \p Visit gets each call, the helper, its CFG
  /// and the chain through the call, with the call's arguments bound to
  /// the helper's parameters.
  void forEachCalledHelper(
      const FunctionDecl *Fn, const FunctionCfg &FnCfg,
      const decltype(Access::Calls) &Chain, ASTContext &Ctx,
      llvm::function_ref<bool(const CallExpr *, const FunctionDecl *)> Skip,
      llvm::function_ref<void(const CallExpr *, const FunctionDecl *,
                              const FunctionCfg &,
                              const decltype(Access::Calls) &)>
          Visit);
  void collectHelperAccesses(const CallExpr *Call, const Stmt *Point,
                             std::vector<Candidate> &Out,
                             ASTContext &Ctx);
  /// Checks the accesses inside the helper \p Call calls against each
  /// other, then the helpers it calls (\p Depth deep).
  void checkHelperBody(const CallExpr *Call,
                       decltype(Access::Calls) Chain, ASTContext &Ctx,
                       int Depth);
  /// What one function's CFG tells of shared memory: whether an access
  /// or a call's argument in it may name a shared variable (the variable
  /// accessAt() and boundArgument() end at), and the helpers it calls.
  struct SharedNames {
    bool Names = false;
    llvm::SmallVector<const FunctionDecl *, 4> Helpers;
  };
  const SharedNames &sharedNamesOf(const FunctionDecl *FD,
                                   const FunctionCfg &Cfg);
  /// Whether \p FD (\p Cfg its CFG) or a helper it reaches, three calls
  /// deep (as checkHelperBody() goes), names a shared variable: when none
  /// does, it makes no access, and has no race.
  bool mayAccessShared(const FunctionDecl *FD, const FunctionCfg &Cfg,
                       ASTContext &Ctx);
  std::vector<Candidate> collectCandidates(const FunctionCfg &Cfg,
                                           const FunctionDecl *FD,
                                           ASTContext &Ctx);
  std::vector<Access> chooseReadings(std::vector<Candidate> &Candidates);
  void report(const Access &First, const Access &Second, bool InWarp);
  void reportConflicts(const std::vector<Access> &Accesses,
                       const FunctionCfg &Cfg, const FunctionDecl *FD,
                       ASTContext &Ctx);
  /// The stores of one element that every thread of the block makes, with
  /// values that differ between them, and that a later access reads.
  void reportWriteWrites(const std::vector<Access> &Accesses,
                         const FunctionCfg &Cfg, const FunctionDecl *FD);
  /// Whether every thread of the block reaches \p A's point: no condition
  /// it depends on differs between threads, but for \p Selector, when
  /// given (then: every thread that \p Selector lets through).
  bool runByEveryThread(const Access &A, const FunctionCfg &Cfg,
                        ThreadDivergence &Divergences,
                        const Expr *Selector = nullptr);
  /// How many threads make a store of one element, and which.
  struct Writers;
  /// Which threads make the store \p W; Kind None when not known.
  Writers writersOf(const Access &W, const FunctionCfg &Cfg,
                    ThreadDivergence &Divergences);
  /// Whether \p E is a thread's lane in its warp: 't % 32', 't & 31', a
  /// tile's rank, or a local that holds one and is never reassigned.
  bool isLaneOf(const Expr *E, const FunctionDecl *FD, int Depth = 0);

  /// The stores of the kernel being checked, and of the helpers it calls.
  const VariableStores *CurrentStores = nullptr;
  std::map<const FunctionDecl *, VariableStores> HelperStores;
  const FunctionDecl *Kernel = nullptr;
  /// How many locals readIndex() is following.
  int LocalDepth = 0;
  /// The parameters of the helper being read, and their arguments.
  llvm::DenseMap<const ParmVarDecl *,
                 std::pair<const Expr *, const FunctionDecl *>>
      ArgumentOf;
  BarrierWaitCache WaitsAtBarrier;
  /// memberSharedArray()'s answers, from one scan of the unit.
  std::optional<llvm::DenseMap<const FieldDecl *, const VarDecl *>>
      MemberArrays;
  /// sharedNamesOf()'s answers.
  llvm::DenseMap<const FunctionDecl *, SharedNames> NamesOf;
  /// This translation unit's, set by checkFunction().
  ThreadIndexAnalysis *Analysis = nullptr;
  /// The second accesses of the races found so far in this translation
  /// unit: each is one race's, however many kernels reach it.
  llvm::DenseSet<const Expr *> Reported;
  /// The (first, second) accesses of the races found so far: a pair seen
  /// the other way round (a write then a read in one pass of a loop, the
  /// read then the write across its back edge) is one race, reported once.
  llvm::DenseSet<std::pair<const Expr *, const Expr *>> ReportedPairs;
  /// Where report() puts the races of the kernel being analysed.
  std::vector<Race> *Found = nullptr;
};


} // namespace clang::tidy::cuda

#endif
