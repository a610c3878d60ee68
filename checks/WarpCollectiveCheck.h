//===- WarpCollectiveCheck.h ------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_WARPCOLLECTIVECHECK_H
#define CUDA_TIDY_WARPCOLLECTIVECHECK_H

#include "CudaApiModel.h"
#include "CudaFunctionCheck.h"

namespace clang::tidy::cuda {

class WarpLanes;

/// Finds warp collectives whose constant lane mask names lanes that a
/// condition on the lane keeps from executing them, shuffles whose source
/// lane is outside the mask, and shuffle widths that are not a power of two
/// up to 32.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-warp-collective.md
class WarpCollectiveCheck : public CudaFunctionCheck {
public:
  WarpCollectiveCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context, {FunctionScope::DeviceCode}) {}

  /// One call of a warp collective in the function being checked.
  struct Collective {
    const CallExpr *Call;
    const CFGBlock *Block;
    WarpCollectiveInfo Info;
    std::optional<uint32_t> Mask; ///< When it is a constant.
  };

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void checkWidth(const Collective &C, ASTContext &Ctx);
  void checkSourceLane(const Collective &C, ASTContext &Ctx);
  void checkMask(const Collective &C, llvm::ArrayRef<Collective> All,
                 WarpLanes &Lanes, const FunctionCfg &Cfg, ASTContext &Ctx);
};

} // namespace clang::tidy::cuda

#endif
