//===- WarpCollectives.h - Warp collectives and their masks -----*- C++ -*-===//
//
// The warp collectives of a device function (shuffles, votes, match,
// reduce, __syncwarp) and what is known of their lane masks: the calls of
// the intrinsics and of same-TU __device__ helpers that make one on every
// path (a summary per helper), the lanes a mask names that do not execute
// the call (and the condition that sends them away), the lanes that
// execute it outside the mask, lanes that do not exist in the launches'
// blocks, a full mask under an edge bound ('if (x < n)') or under a branch
// on per-lane data, and data passed in the mask slot.
//
// It asks WarpLanes which lanes reach each block and ThreadDivergence
// which conditions may differ between threads; cuda-warp-collective asks
// these questions and reports the answers.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_WARPCOLLECTIVES_H
#define CUDA_TIDY_WARPCOLLECTIVES_H

#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "WarpLanes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang::tidy::cuda {

class ThreadDivergence;

/// One call of a warp collective in a function: of an intrinsic, or of a
/// helper that makes one with a mask it is given.
struct WarpCollective {
  const CallExpr *Call;
  const CFGBlock *Block;
  WarpCollectiveInfo Info;
  std::optional<uint32_t> Mask; ///< When it is a constant.
  /// The helper that makes the call with a mask it is given (and its
  /// default argument); Call is then the call of the helper.
  const CallExpr *Inner = nullptr;
};

/// The one collective a device helper makes on every path, with the mask
/// it passes (a constant, or its parameter MaskParam).
struct WrappedCollective {
  const CallExpr *Inner;
  int MaskParam = -1;
  std::optional<uint32_t> Mask;
};

/// The function \p Call names; in a template pattern, the intrinsic that
/// every candidate of an unresolved call is.
std::string collectiveName(const CallExpr *Call);
/// '0x0000ffff'.
std::string hexMask(uint32_t Mask);
/// The mask argument of \p C, if it has one.
const Expr *maskArgument(const WarpCollective &C);
/// The text of \p C's mask in a message: the constant, or the expression
/// in quotes.
std::string maskText(const WarpCollective &C, ASTContext &Ctx);
/// The constant value of argument \p Index of \p Call; a default argument
/// counts only when \p AllowDefault.
std::optional<int64_t> constantArgument(const CallExpr *Call, int Index,
                                        ASTContext &Ctx, bool AllowDefault);

/// The summaries of the same-TU helpers that make a warp collective, kept
/// for one translation unit.
class WarpCollectiveSummaries {
public:
  void clear() { Helpers.clear(); }
  /// The collective \p Call's callee makes on every path, asked once per
  /// callee.
  std::optional<WrappedCollective> helperCollective(const CallExpr *Call,
                                                    ASTContext &Ctx);
  /// The collectives that the function of \p Cfg calls, in block order.
  llvm::SmallVector<WarpCollective, 8> collectives(const FunctionCfg &Cfg,
                                                   ASTContext &Ctx);

private:
  llvm::DenseMap<const FunctionDecl *, std::optional<WrappedCollective>>
      Helpers;
};

/// Questions about the masks of the collectives of one function.
class WarpCollectiveMasks {
public:
  WarpCollectiveMasks(const FunctionCfg &Cfg, ASTContext &Ctx,
                      llvm::ArrayRef<WarpCollective> All, WarpLanes &Lanes,
                      ThreadDivergence &Divergences)
      : Cfg(Cfg), Ctx(Ctx), All(All), Lanes(Lanes),
        Divergences(Divergences) {}

  /// A width argument that is a constant but not a power of two up to 32.
  static std::optional<int64_t> badWidth(const WarpCollective &C,
                                         ASTContext &Ctx);

  /// A constant source lane that a segment of the mask reads although
  /// the mask does not name it.
  struct SourceLane {
    int64_t Lane;  ///< In the warp.
    int64_t Src;   ///< As written.
    int64_t Width; ///< Of the segments.
  };
  static std::optional<SourceLane> sourceLaneOutside(const WarpCollective &C,
                                                     ASTContext &Ctx);

  /// Data in the mask slot: a floating-point value, a value of the
  /// shuffled data's template type, or the value the shuffle moves.
  static bool maskIsData(const WarpCollective &C, const FunctionDecl &FD,
                         ASTContext &Ctx);

  /// Lanes that the mask names (\p Named, per warp) but that certainly do
  /// not execute \p C, and the condition that sends them away.
  struct MissingLanes {
    uint32_t Missing;
    /// The whole condition of the if or loop, or the part that decides.
    const Expr *Cond;
    /// The lanes of Missing that Cond sends away.
    uint32_t Leaving;
    /// Whether the call is inside the statement of Cond.
    bool Under;
    /// A computed mask's value, where every warp that executes the call
    /// has the same.
    std::optional<uint32_t> Value;
  };
  std::optional<MissingLanes> missingLanes(const WarpCollective &C,
                                           const WarpLaneSets &Named);

  /// Lanes of a constant mask of a kernel's collective that the launches'
  /// blocks do not have (a block of fewer than 32 threads, or a partial
  /// last warp).
  uint32_t absentLanes(const WarpCollective &C, const FunctionDecl &FD);

  /// The lanes that execute \p C against the mask they pass.
  struct Callers {
    /// Lanes that execute the call but are not in the mask.
    uint32_t Outside = 0;
    /// The lanes each warp names.
    WarpLaneSets Named{};
    /// Whether the lanes of each warp agree on the mask.
    bool WarpUniform = true;
  };
  /// None where a mask is unknown for some lane, or where the mask is a
  /// helper's parameter (checked where the helper is called).
  std::optional<Callers> callers(const WarpCollective &C);
  /// Whether the lanes that reach \p C are known exactly.
  bool reachedExactly(const WarpCollective &C);

  /// Whether a condition of the function tests a parameter whose value per
  /// lane is unknown (a __device__ helper's).
  bool branchesOnUnknownParameter();

  /// A full mask under a bound of a consecutive index on a size.
  struct Branch {
    /// The bound ('x < width'), or the load the lanes may disagree on.
    const Expr *Why;
    /// The condition the call depends on.
    const Expr *Cond;
  };
  std::optional<Branch> edgeBound(const WarpCollective &C);
  /// A mask of several lanes under a branch on per-lane data.
  std::optional<Branch> dataBranch(const WarpCollective &C);

private:
  const FunctionCfg &Cfg;
  ASTContext &Ctx;
  llvm::ArrayRef<WarpCollective> All;
  WarpLanes &Lanes;
  ThreadDivergence &Divergences;
};

} // namespace clang::tidy::cuda

#endif
