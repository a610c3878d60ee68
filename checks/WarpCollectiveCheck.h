//===- WarpCollectiveCheck.h ------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_WARPCOLLECTIVECHECK_H
#define CUDA_TIDY_WARPCOLLECTIVECHECK_H

#include "CudaApiModel.h"
#include "CudaFunctionCheck.h"
#include "WarpLanes.h"

namespace clang::tidy::cuda {

class ThreadDivergence;

/// Finds warp collectives whose lane mask names lanes that do not execute
/// them or lacks lanes that do, full masks under branches on per-lane data,
/// shuffles whose source lane is outside the mask, and shuffle widths that
/// are not a power of two up to 32.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-warp-collective.md
class WarpCollectiveCheck : public CudaFunctionCheck {
public:
  WarpCollectiveCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::DeviceCode, CheckLanguages::Cuda,
                           /*NeedsWholeBody=*/true,
                           /*AnalysesTemplatePatterns=*/true}) {}

  /// One call of a warp collective in the function being checked.
  struct Collective {
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
  struct HelperCollective {
    const CallExpr *Inner;
    int MaskParam = -1;
    std::optional<uint32_t> Mask;
  };

  void startTranslationUnit() override { HelperCollectives.clear(); }

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  /// The collective \p Call's callee makes (wrappedCollective), asked once
  /// per callee.
  std::optional<HelperCollective> helperCollective(const CallExpr *Call,
                                                   ASTContext &Ctx);
  /// HelperCollective of each callee called.
  llvm::DenseMap<const FunctionDecl *, std::optional<HelperCollective>>
      HelperCollectives;
  void checkWidth(const Collective &C, ASTContext &Ctx);
  void checkSourceLane(const Collective &C, ASTContext &Ctx);
  /// Lanes that \p Named (the mask, per warp) names but that certainly do
  /// not execute \p C.
  bool checkMask(const Collective &C, llvm::ArrayRef<Collective> All,
                 const WarpLaneSets &Named, WarpLanes &Lanes,
                 const FunctionCfg &Cfg, ASTContext &Ctx);
  /// Data in the mask slot: a floating-point value, or a value of the
  /// shuffled data's template type.
  void checkMaskType(const Collective &C, const FunctionDecl &FD,
                     ASTContext &Ctx);
  static const Expr *maskArgument(const Collective &C);
  static std::string maskText(const Collective &C, ASTContext &Ctx);
  /// Lanes of a constant mask that the launches' blocks do not have (a
  /// block of fewer than 32 threads, or a partial last warp).
  bool checkAbsentLanes(const Collective &C, const FunctionDecl &FD,
                        WarpLanes &Lanes, ASTContext &Ctx);
  /// Lanes that certainly execute \p C but are not in the mask they pass.
  bool checkCallers(const Collective &C, llvm::ArrayRef<Collective> All,
                    WarpLanes &Lanes, ThreadDivergence &Divergences,
                    const FunctionCfg &Cfg, ASTContext &Ctx);
  /// A mask of several lanes under a branch on data the lanes of a warp
  /// may disagree on.
  /// A full mask under a bound of a consecutive index on a size
  /// ('if (x < width)'): the warp at the edge is split.
  bool checkEdgeBound(const Collective &C, WarpLanes &Lanes,
                      ThreadDivergence &Divergences, const FunctionCfg &Cfg,
                      ASTContext &Ctx);
  /// Whether the mask of the shuffle \p C is the value it moves: a word
  /// of a union, or the variable its result is assigned to.
  bool maskIsShuffledData(const Collective &C, const Expr *Mask,
                          ASTContext &Ctx);
  bool checkDataBranch(const Collective &C, WarpLanes &Lanes,
                       ThreadDivergence &Divergences, const FunctionCfg &Cfg,
                       ASTContext &Ctx);
};

} // namespace clang::tidy::cuda

#endif
