//===- IndexOverruns.h - Global accesses that may run past ------*- C++ -*-===//
//
// Which reads and writes of global memory in a kernel, and in the device
// helpers it calls, sit at a thread-derived index with no upper bound (or
// with a bound the index can reach), and how sure that is: what the
// kernel's launches say about its global index, how much room the buffers
// they pass have past the extent, whether the index is in a form the
// thread-index analysis reads with confidence, and the kernel's own
// evidence when no launch is visible.
//
// Built on ThreadIndexAnalysis (values and bounds) and LaunchConfiguration
// (grids and the buffers bound at each launch). cuda-unguarded-thread-index
// reports what it finds.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_INDEXOVERRUNS_H
#define CUDA_TIDY_INDEXOVERRUNS_H

#include "LaunchConfiguration.h"
#include "ThreadIndexAnalysis.h"
#include "VariableStores.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

class ArchConditionals;
class FunctionCfg;

/// A read or write of global memory at an index.
struct GlobalAccess {
  enum Kind { Read, Write, AddressOf };
  const Expr *At = nullptr;        ///< The subscript or dereference.
  const ValueDecl *Base = nullptr; ///< The pointer or __device__ array.
  const Expr *Index = nullptr;
  Kind K = Read;
  /// For an access inside a helper: the helper's pointer parameter (Base
  /// is then the kernel's pointer or array passed for it).
  const ValueDecl *HelperParam = nullptr;
};

/// An access whose index may run past its buffer.
struct IndexOverrun {
  GlobalAccess Access;
  IndexVerdict Verdict; ///< Unbounded or PastBound.
  /// For an access in a helper: the call of the helper in the kernel, and
  /// the argument that gives the helper's index (null when the helper
  /// computes its own thread index).
  const CallExpr *ThroughCall = nullptr;
  const Expr *CallerIndex = nullptr;
  /// What the launches say about the unguarded dimensions (left NoFacts
  /// when certainty was not asked for).
  IndexCoverage Cover;
  /// A neighbour loop 'for (i = off[k]; i <= off[k + 1]; ++i)' around an
  /// access at 'i': Verdict.Fact's guard is the loop's condition.
  bool PastSegment = false;
  /// A block per item ('item = blockIdx.x', 'blockIdx.x + blockIdx.y *
  /// gridDim.x') with no bound on the item: a launch that runs more blocks
  /// than the kernel's item count ItemCount, which it was given as
  /// ItemCountArg (Verdict is Unbounded, its one part the item).
  const LaunchSite *BlockSite = nullptr;
  const ParmVarDecl *ItemCount = nullptr;
  const Expr *ItemCountArg = nullptr;
  /// The index as shown: the caller's argument, or the access's own.
  const Expr *shownIndex() const {
    return CallerIndex ? CallerIndex : Access.Index;
  }
};

/// Whether \p D is a __device__ array of global memory (not __shared__ or
/// __constant__).
bool isGlobalDeviceArray(const ValueDecl *D);

/// A kernel parameter that plausibly holds the extent of the dimensions
/// \p Dims (1 x, 2 y, 4 z), by its name ('n', 'width', 'ny'), or "".
std::string extentParameterName(const FunctionDecl *Kernel, unsigned Dims);

/// The overrun questions of one translation unit, asked kernel by kernel.
class IndexOverruns {
public:
  IndexOverruns(ASTContext &Ctx, ThreadIndexAnalysis &TI,
                LaunchConfiguration &Launches, const ArchConditionals &Arch);

  /// Calls \p Found, in CFG order, for each access of \p Kernel (and of
  /// the same-TU device functions it calls) whose index may overrun. With
  /// \p OnlyCertain, only those the evidence makes certain (the default
  /// mode of the check); otherwise every Unbounded or PastBound verdict.
  void overrunsIn(const FunctionDecl *Kernel, const FunctionCfg &Cfg,
                  bool OnlyCertain,
                  llvm::function_ref<void(const IndexOverrun &)> Found);

  /// The global access \p S makes in the function of \p Cfg, if any: a
  /// subscript or dereference of an unmodified pointer parameter or of a
  /// __device__ array.
  std::optional<GlobalAccess> accessAt(const Stmt *S, const FunctionCfg &Cfg);

private:
  void helperCall(const CallExpr *Call, const FunctionDecl *Kernel,
                  bool OnlyCertain,
                  llvm::function_ref<void(const IndexOverrun &)> Found);
  void consider(IndexOverrun O, const FunctionDecl *Kernel, bool OnlyCertain,
                llvm::function_ref<void(const IndexOverrun &)> Found);
  bool isCertain(IndexOverrun &O, const FunctionDecl *Kernel);
  /// Whether \p O's access is at a block-per-item index with no bound,
  /// and a launch of \p Kernel runs more blocks than its items: fills
  /// \p O's verdict and BlockSite.
  bool blockPerItem(IndexOverrun &O, const FunctionDecl *Kernel);
  /// Whether \p A and \p B, read in \p Host, hold the same value: the
  /// same expression, through locals stored once.
  bool sameHostValue(const Expr *A, const Expr *B, const FunctionDecl *Host);
  /// Whether the buffers the launches pass for the accessed pointer hold
  /// the elements the index can reach past its bound or extent.
  bool pinnedToBound(const IndexOverrun &O, const FunctionDecl *Kernel);
  bool fitsAllocation(const IndexOverrun &O, const FunctionDecl *Kernel);
  const VariableStores &storesOf(const FunctionDecl *Kernel);
  /// The statements of the CFG elements of \p Cfg's function, in CFG
  /// order, each with the global access it makes (read once per function:
  /// a kernel is walked twice and a helper once per call of it).
  struct ElementAccess {
    const Stmt *S;
    std::optional<GlobalAccess> Access;
  };
  const std::vector<ElementAccess> &accessesIn(const FunctionCfg &Cfg);

  ASTContext &Ctx;
  ThreadIndexAnalysis &TI;
  LaunchConfiguration &Launches;
  const ArchConditionals &Arch;
  const FunctionDecl *StoresFunction = nullptr;
  VariableStores Stores;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<std::vector<ElementAccess>>>
      Accesses;
  /// The bounds of neighbour loops that walk one entry past their segment
  /// ('i <= off[k + 1]'), which the verdicts point to.
  std::deque<BoundFact> SegmentFacts;
  const FunctionDecl *HostStoresFunction = nullptr;
  VariableStores HostStores;
};

} // namespace clang::tidy::cuda

#endif
