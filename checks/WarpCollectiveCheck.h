//===- WarpCollectiveCheck.h ------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_WARPCOLLECTIVECHECK_H
#define CUDA_TIDY_WARPCOLLECTIVECHECK_H

#include "CudaApiModel.h"
#include "CudaFunctionCheck.h"
#include "WarpCollectives.h"
#include "WarpLanes.h"

namespace clang::tidy::cuda {

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
                           /*AnalysesTemplatePatterns=*/true,
                           /*ReadsCodeWithErrors=*/true, ErrorGate::Accesses}) {}

  void startTranslationUnit() override { Summaries.clear(); }

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  /// The helpers that make a collective, summarised once per unit.
  WarpCollectiveSummaries Summaries;
  void checkWidth(const WarpCollective &C, ASTContext &Ctx);
  void checkSourceLane(const WarpCollective &C, ASTContext &Ctx);
  /// Lanes that \p Named (the mask, per warp) names but that certainly do
  /// not execute \p C.
  bool checkMask(const WarpCollective &C, const WarpLaneSets &Named,
                 WarpCollectiveMasks &Masks, ASTContext &Ctx);
  /// Data in the mask slot.
  void checkMaskType(const WarpCollective &C, const FunctionDecl &FD,
                     ASTContext &Ctx);
  /// Lanes of a constant mask that the launches' blocks do not have.
  bool checkAbsentLanes(const WarpCollective &C, const FunctionDecl &FD,
                        WarpCollectiveMasks &Masks, const WarpLanes &Lanes,
                        ASTContext &Ctx);
  /// Lanes that certainly execute \p C but are not in the mask they pass.
  bool checkCallers(const WarpCollective &C, WarpCollectiveMasks &Masks,
                    ASTContext &Ctx);
  /// A mask under a condition that some of its lanes fail: a bound of a
  /// consecutive index on a size ('if (x < width)', \p Edge: the warp at
  /// the edge is split), or a branch on data the lanes of a warp may
  /// disagree on.
  bool checkBranch(const WarpCollective &C,
                   const std::optional<WarpCollectiveMasks::Branch> &Branch,
                   bool Edge, ASTContext &Ctx);
};

} // namespace clang::tidy::cuda

#endif
