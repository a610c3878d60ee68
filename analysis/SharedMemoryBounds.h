//===- SharedMemoryBounds.h - Shared tiles indexed past their extent -*- C++ -*-===//
//
// Which subscripts of statically sized __shared__ arrays ('__shared__ float
// tile[16][16]', 's[256]') reach past the array's extent, or below zero,
// for some thread of a block the kernel is launched with: an index that is
// an affine function of the thread's coordinates and constants only
// ('tile[ty][tx + 1]', 's[tx + RADIUS]', 'tile[ty][tx - 1]'), evaluated at
// the largest (or smallest) coordinate of the threads that reach it.
//
// The coordinates' range comes from the block of the kernel's launches in
// the translation unit (LaunchConfiguration), from its __launch_bounds__
// for a kernel that reads only threadIdx.x, and from the constant bounds
// that guard the access ('if (tx < TILE)', an early 'return' for
// 'tx >= TILE - 1', ThreadIndexAnalysis's facts). An access is reported
// only when every condition on the thread that decides whether it runs is
// read: a test the analysis does not read ('tx % 2 == 0', 'tx < width')
// makes it silent, as does any term that is not a coordinate or a
// constant (a loop counter, a uniform stride, data).
//
// Accesses in the kernel's body and in the __device__ helpers it calls
// (two calls deep), with the block of the kernel and the conditions around
// each call. A helper's parameter that nothing in the helper changes
// stands for the argument of the call: an integer for the caller's index
// expression ('load_tile(s, threadIdx.x + 1)'), a pointer or array
// reference for the caller's __shared__ array. cuda-shared-memory-bounds
// reports what it finds.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_SHAREDMEMORYBOUNDS_H
#define CUDA_TIDY_SHAREDMEMORYBOUNDS_H

#include "FunctionCfg.h"
#include "LaunchConfiguration.h"
#include "ThreadIndexAnalysis.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <array>
#include <optional>

namespace clang::tidy::cuda {

/// One subscript of a shared array that some thread runs past.
struct SharedBoundsOverrun {
  /// The subscript expression of the overrunning dimension, and its index.
  const ArraySubscriptExpr *At = nullptr;
  const Expr *Index = nullptr;
  /// The whole access (the outermost subscript).
  const ArraySubscriptExpr *Access = nullptr;
  const VarDecl *Array = nullptr;
  /// Which subscript (0 the leftmost) of how many the array has.
  unsigned Subscript = 0, Rank = 1;
  /// The dimension's number of elements.
  int64_t Extent = 0;
  /// The value of the index for Thread: >= Extent or < 0.
  int64_t Reached = 0;
  /// The thread that reaches it: its coordinate in each dimension the
  /// index reads (UsedDims: 1 x, 2 y, 4 z).
  std::array<int64_t, 3> Thread = {0, 0, 0};
  unsigned UsedDims = 0;
  enum Access_ { Read, Write, Update } How = Read;
  /// Why the thread exists.
  enum Reason {
    BlockOfLaunch,   ///< The block of a launch in this translation unit.
    LaunchBounds,    ///< The kernel's __launch_bounds__ (x only).
    Guard,           ///< A constant bound that lets it through.
    FirstThread,     ///< Coordinate 0 (an index that goes below zero).
  } Why = FirstThread;
  /// BlockOfLaunch: the launch with the largest block, and that block.
  const LaunchSite *Site = nullptr;
  std::array<int64_t, 3> Block = {1, 1, 1};
  /// Guard: the condition whose bound the thread reaches.
  const Expr *GuardExpr = nullptr;
  /// When the access is in a __device__ helper and its array or index
  /// is the helper's parameter: the outermost call that bound one, the
  /// parameter and the argument it was bound to there.
  const CallExpr *BoundAt = nullptr;
  const ParmVarDecl *BoundParam = nullptr;
  const Expr *BoundArg = nullptr;
};

/// The bounds questions of one translation unit, asked kernel by kernel.
class SharedMemoryBounds {
public:
  SharedMemoryBounds(ThreadIndexAnalysis &TI, LaunchConfiguration &Launches)
      : TI(TI), Launches(Launches) {}

  /// Calls \p Found for each subscript of a statically sized shared array
  /// in \p Kernel's body that some thread of its block runs past.
  void overrunsIn(const FunctionDecl &Kernel, const FunctionCfg &Cfg,
                  llvm::function_ref<void(const SharedBoundsOverrun &)> Found);

  /// A lane or a group of one coordinate t: 't % C' ('t & (C - 1)') or
  /// 't / C' ('t >> k').
  struct Derived {
    int Dim = -1;
    enum Kind { Mod, Div } K = Mod;
    int64_t C = 1;
    bool operator==(const Derived &O) const {
      return Dim == O.Dim && K == O.K && C == O.C;
    }
  };
  /// An index read as sum(C[d] * coordinate d) + Const, or as
  /// DCoeff * D + Const for one lane or group D (never both).
  struct CoordForm {
    int64_t C[3] = {0, 0, 0};
    int64_t Const = 0;
    std::optional<Derived> D;
    int64_t DCoeff = 0;
    bool usesCoordinates() const {
      return C[0] || C[1] || C[2] || (D && DCoeff);
    }
  };
  /// The values a lane ('t % C') takes where the access runs, from the
  /// conditions on it ('lane < 8').
  struct LaneRange {
    Derived D;
    int64_t Lo = 0, Hi = INT64_MAX;
    const Expr *Guard = nullptr; ///< What set Hi.
  };

  /// The range each coordinate takes, and where its upper end came from.
  struct Range {
    int64_t Lo = 0;
    std::optional<int64_t> Hi;
    SharedBoundsOverrun::Reason Why = SharedBoundsOverrun::FirstThread;
    const Expr *GuardExpr = nullptr;
  };
  using Ranges = std::array<Range, 3>;

private:
  bool readCoords(const Expr *E, int64_t K, CoordForm &F, int Depth);
  /// Applies what \p Cond being \p Truth says about the coordinates; false
  /// when it tests a thread in a way that is not read.
  bool applyCondition(const Expr *Cond, bool Truth, Ranges &R);
  /// applyCondition() for a comparison of a lane or group with a constant.
  bool applyDerivedCondition(CoordForm L, CoordForm Rt, BinaryOperatorKind Op,
                             const Expr *Guard, Ranges &R);
  bool mentionsSource(const Expr *E, unsigned Mask, int Depth);
  /// Whether \p Body, or a helper it calls (two deep), names a statically
  /// sized __shared__ array.
  bool usesStaticSharedArray(const Stmt *Body, int Depth);
  /// The constant C of a size capped by it, 'min(n - start, C)' (through
  /// a local), where the size grows with a parameter of the function.
  std::optional<int64_t> cappedSize(const Expr *E, int Depth);
  bool mentionsThreadInBlock(const Expr *E);
  bool mentionsBlockIndex(const Expr *E);
  /// Whether the index \p F with a lane or group runs past O's extent
  /// (or below 0) for some thread of \p Rs; fills \p O.
  bool checkDerived(const CoordForm &F, const Ranges &Rs,
                    SharedBoundsOverrun &O);
  void check(const ArraySubscriptExpr *Outer, const Ranges &Block,
             const llvm::SmallVector<LaneRange, 2> &StartLanes,
             llvm::function_ref<void(const SharedBoundsOverrun &)> Found);
  /// Checks the accesses of \p Body (of FD, whose CFG is Cfg) for the
  /// threads \p Start, then the __device__ helpers it calls, \p Depth of
  /// 2 deep.
  void checkBody(const Stmt *Body, const Ranges &Start,
                 const llvm::SmallVector<LaneRange, 2> &StartLanes, int Depth,
                 llvm::function_ref<void(const SharedBoundsOverrun &)> Found);
  /// Narrows \p R (and Lanes) by the conditions that decide whether
  /// \p From, at \p Point of Cfg, runs; false when one is not read.
  bool narrowAt(const Stmt *From, const CfgPoint &Point, Ranges &R);

  /// The call of the helper being read, which binds its parameters, and
  /// the caller's own binding.
  struct Binding {
    const FunctionDecl *Callee = nullptr;
    const CallExpr *Call = nullptr;
    const FunctionDecl *Caller = nullptr;
    const FunctionCfg *CallerCfg = nullptr;
    const Binding *Parent = nullptr;
  };
  /// The argument \p PV of the function being read is bound to, read in
  /// the caller: switches FD, Cfg and Bound to the caller and returns the
  /// argument; null when \p PV is not bound or the helper changes it.
  const Expr *enterArgument(const ParmVarDecl *PV);
  /// The shared array \p VD is, through the bound parameters; null when
  /// it is not a __shared__ array.
  const VarDecl *sharedArray(const VarDecl *VD);
  /// Notes the outermost binding used, for the report.
  void noteBinding(const Binding *B, const ParmVarDecl *PV, const Expr *Arg);

  ThreadIndexAnalysis &TI;
  LaunchConfiguration &Launches;
  const Binding *Bound = nullptr;
  /// The outermost binding the access being checked used.
  const Binding *UsedBinding = nullptr;
  const ParmVarDecl *UsedParam = nullptr;
  const Expr *UsedArg = nullptr;
  /// The lane ranges of the access being checked.
  llvm::SmallVector<LaneRange, 2> Lanes;
  const FunctionDecl *FD = nullptr;
  const FunctionCfg *Cfg = nullptr;
  const LaunchSite *Widest = nullptr;
  std::array<int64_t, 3> WidestBlock = {1, 1, 1};
};

} // namespace clang::tidy::cuda

#endif
