//===- LaunchConfiguration.h - How each kernel is launched ------*- C++ -*-===//
//
// For each kernel of a translation unit, its launch sites and what they say
// about the threads that run it: the grid and block per dimension (constants
// when known), how the grid covers the data it was computed from (a floor
// division never runs past its numerator, a rounded-up one can), the kernel
// parameter bound to that numerator, and the dynamic shared-memory size.
//
// Launch sites are '<<<...>>>' calls, the API launches whose CUDA_LAUNCH and
// CUDA_LAUNCH_SHAPE rows name the kernel, grid and block arguments, and
// launches inside same-TU launcher functions whose grid or block are the
// launcher's parameters (one site per call of the launcher). Values are
// read through locals stored once, dim3 objects assembled field by field,
// const and constexpr globals, macros (already expanded in the AST) and
// helpers whose body is one return ('divUp(n, B)').
//
// A kernel has launch facts only when all its launches can be seen: it is
// defined in the main file, no declaration of it is in a header, and its
// address is used only by launches and by the runtime's attribute queries.
// Registers nothing: checks ask, through TranslationUnitAnalyses.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LAUNCHCONFIGURATION_H
#define CUDA_TIDY_LAUNCHCONFIGURATION_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>

namespace clang::tidy::cuda {

class MemorySpaceAnalysis;
class ThreadIndexAnalysis;

/// How a launch's grid covers the data in one dimension.
enum class GridCover {
  Unknown,   ///< The grid or block cannot be read.
  One,       ///< One block of one thread in this dimension.
  Constant,  ///< Constant grid and block: Threads is their product.
  Floor,     ///< Extent / (k * block) blocks: never past Extent.
  Exact,     ///< Rounded up, but Extent is a known multiple of the block
             ///< (an assert or an early exit before the launch), or one
             ///< block of Extent threads.
  RoundedUp, ///< ceil(Extent / block) blocks: the last block runs past
             ///< Extent unless the block size divides it.
};

/// Where a constant of a launch was read: the expression that folded to it
/// (a literal, a macro's expansion, a constexpr initializer, the right side
/// of 'block.x = 2048'), and whether it came from a caller of the launch's
/// function (an argument of the launcher call, Via).
struct ConstantSource {
  const Expr *E = nullptr;
  bool InCaller = false;
};

/// One dimension of a launch.
struct LaunchDimension {
  /// The grid and block in this dimension, as read (null: 1).
  const Expr *Grid = nullptr, *Block = nullptr;
  /// The constants, set whenever their own expression folds (even when the
  /// other one of the pair cannot be read), and where they were read.
  std::optional<int64_t> GridConst, BlockConst;
  ConstantSource GridFrom, BlockFrom;
  GridCover Cover = GridCover::Unknown;
  /// Floor, Exact, RoundedUp: the value the grid was computed from, as
  /// written where the grid was computed ('n' in '(n + 255) / 256').
  const Expr *Extent = nullptr;
  /// Grid times block, when both are constant.
  std::optional<int64_t> Threads;
  /// The kernel parameters bound at this launch to Extent.
  llvm::SmallVector<unsigned, 1> ExtentParams;

  /// How a grid that is not a constant grows with the data it is computed
  /// from (LaunchConfigurationGridLimits.cpp). Nothing bounds it below the
  /// largest grid: no constant, min(), '%' or guard on the path to the
  /// launch ('TORCH_CHECK(rows <= 65535)', 'if (rows > 65535) return').
  enum class Growth {
    None,     ///< A constant, bounded, or not read.
    Size,     ///< One size: a parameter, a field, 'x.size(0)', 'n / 64'.
    Product,  ///< A product of sizes: 'B * C', 'x.size(0) * x.size(1)'.
    Elements, ///< An element count: 'x.numel() / n2'.
  } GridGrowth = Growth::None;
  /// The grid as read where it was computed, through locals ('B * C' for
  /// 'nrows' in 'dim3 grid(blocks, nrows)'), when GridGrowth is not None.
  const Expr *GridGrowsWith = nullptr;
  /// The grid is capped by a constant: 'std::min(blocks, 4096)', 'blocks <
  /// 4096 ? blocks : 4096' (Minimum.h), or a local set from one. Set for a
  /// grid that is not a constant.
  bool GridCapped = false;
  /// GridGrowsWith grows with a tensor's leading size, its batch or rows:
  /// 'x.size(0)', 'x.sizes()[0]', 'x.numel()', or a local set from one,
  /// scaled or rounded ('(b + 3) / 4', 'ceil_div(b, 4)'); not an inner size
  /// ('x.size(1)', channels or heads, as often a small count), nor a value
  /// divided by a tensor's size ('n / x.size(0)' grows with n).
  bool GridFromLeadingTensorSize = false;

  /// Whether no thread of this launch runs past the extent in this
  /// dimension: its global index is below Extent (or Threads).
  bool staysWithin() const {
    return Cover == GridCover::One || Cover == GridCover::Constant ||
           Cover == GridCover::Floor || Cover == GridCover::Exact;
  }
};

/// One launch of a kernel.
struct LaunchSite {
  /// The launch: a '<<<...>>>' call or a launch API call.
  const CallExpr *Launch = nullptr;
  /// The function that contains Launch.
  const FunctionDecl *Host = nullptr;
  /// The kernel launched (the specialization, for a template kernel).
  const FunctionDecl *Kernel = nullptr;
  /// When the launch is in a launcher: the call of the launcher that
  /// supplied its grid or block (the outermost one), where a note goes.
  const CallExpr *Via = nullptr;
  LaunchDimension Dims[3];
  /// The dynamic shared-memory argument, and its value when constant.
  const Expr *SharedMem = nullptr;
  std::optional<int64_t> SharedMemBytes;
  ConstantSource SharedMemFrom;
  /// The kernel's arguments are known (a '<<<...>>>' call or
  /// cudaLaunchKernelEx's variadic form), so ExtentParams can be set.
  bool ArgumentsKnown = false;

  /// Where a finding about this launch points.
  SourceLocation location() const;
};

/// Everything known about how one kernel is launched.
struct KernelLaunches {
  /// Every launch of the kernel is in this translation unit (see above).
  bool AllVisible = false;
  llvm::SmallVector<LaunchSite, 2> Sites;
  /// blockDim in each dimension and the dynamic shared-memory bytes, when
  /// every launch gives the same constant.
  std::optional<int64_t> BlockDim[3];
  std::optional<int64_t> SharedMemBytes;

  /// Whether launch facts apply: all launches visible and at least one.
  bool known() const { return AllVisible && !Sites.empty(); }
};

/// What the launches of a kernel say about its global thread index
/// (blockIdx * blockDim + threadIdx) in some dimensions.
struct IndexCoverage {
  enum Kind {
    NoFacts,  ///< The launches are not all visible, or there are none.
    Within,   ///< Every launch keeps the index below its extent.
    Overruns, ///< Some launch rounds its grid up past its extent.
    Unknown,  ///< No launch overruns, but some cannot be read.
  } K = NoFacts;
  /// Overruns: the first such launch and the dimension it overruns in.
  const LaunchSite *Site = nullptr;
  unsigned Dim = 0;
};

/// The launch analysis of one translation unit, owned by
/// TranslationUnitAnalyses (launches()).
class LaunchConfiguration {
public:
  /// \p Facts is the translation unit's thread-index analysis.
  LaunchConfiguration(ASTContext &Ctx, ThreadIndexAnalysis &Facts);
  ~LaunchConfiguration();

  /// The launches of \p Kernel (any declaration of it).
  const KernelLaunches &launchesOf(const FunctionDecl *Kernel);
  /// What the launches of \p Kernel say about its global index in the
  /// dimensions of \p DimMask (1 x, 2 y, 4 z; 0 means all three).
  IndexCoverage coverage(const FunctionDecl *Kernel, unsigned DimMask);

  /// The launch sites whose launch is in \p Host, of every kernel, in
  /// source order (a launch in a launcher gives one site per call of it
  /// when its shape is settled by the callers).
  llvm::SmallVector<const LaunchSite *, 4> sitesIn(const FunctionDecl *Host);

  /// How many elements, at every launch of \p Kernel, the buffer passed
  /// for its pointer parameter \p PtrParam holds past the value passed for
  /// its integer parameter \p CountParam: 1 for a buffer of 'n + 1'
  /// elements launched with 'n'. The sizes come from the allocations the
  /// memory-space analysis \p MSA sees at each launch; nullopt when a
  /// launch's buffer or count cannot be read or their difference is not a
  /// constant.
  std::optional<int64_t> elementsPastArgument(const FunctionDecl *Kernel,
                                              unsigned PtrParam,
                                              unsigned CountParam,
                                              MemorySpaceAnalysis &MSA);
  /// The same, past the extent the grid of dimension \p Dim was computed
  /// from ('n' in 'n / 256' blocks): 2 * R for a buffer padded by R on
  /// each side. Every launch must keep its index within the extent.
  std::optional<int64_t> elementsPastExtent(const FunctionDecl *Kernel,
                                            unsigned PtrParam, unsigned Dim,
                                            MemorySpaceAnalysis &MSA);

  /// A call that may raise a kernel's dynamic shared-memory limit.
  struct LimitRaise {
    const CallExpr *Call = nullptr;
    const FunctionDecl *Host = nullptr; ///< Null outside a function.
  };
  /// The calls of the translation unit that may raise \p Kernel's dynamic
  /// shared-memory limit (CUDA_FUNC_SET_ATTRIBUTE rows): those that set
  /// the MaxDynamicSharedAttribute of the kernel, and those whose kernel
  /// or attribute cannot be read.
  llvm::SmallVector<LimitRaise, 2>
  sharedMemoryLimitRaises(const FunctionDecl *Kernel);

  class Impl;

private:
  std::unique_ptr<Impl> P;
};

/// The bytes of constant-sized static shared memory \p Kernel uses: the
/// '__shared__' variables declared in its body and in the same-TU device
/// functions it calls, and the namespace-scope ones they name. Variables
/// of other sizes are left out, so this is a lower bound.
int64_t staticSharedMemoryBytes(const FunctionDecl *Kernel, ASTContext &Ctx);

} // namespace clang::tidy::cuda

#endif
