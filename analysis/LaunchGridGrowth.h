//===- LaunchGridGrowth.h - What a grid dimension grows with ----*- C++ -*-===//
//
// Two questions about the expression of one grid dimension, as the launch
// analysis read it (LaunchDimension::Grid, ::GridGrowsWith), for
// cuda-launch-configuration's reading of a grid whose one dimension that
// grows with the data is y or z (x and y swapped). They read the
// expression again where LaunchConfigurationGridLimits.cpp's magnitude
// already did; a field of LaunchDimension could carry both instead.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_LAUNCHGRIDGROWTH_H
#define CUDA_TIDY_ANALYSIS_LAUNCHGRIDGROWTH_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::cuda {

/// Whether the size \p E grows with a tensor's leading size, its batch or
/// rows: 'x.size(0)', 'x.sizes()[0]', or a local set from one, scaled or
/// rounded ('(b + 3) / 4', 'ceil_div(b, 4)'); not an inner size
/// ('x.size(1)', channels or heads, as often a small count), nor a value
/// divided by a tensor's size ('n / x.size(0)' grows with n).
bool gridLeadingTensorSize(const Expr *E, const ASTContext &Ctx);

/// Whether the grid \p E is capped by a constant: 'std::min(blocks, 4096)',
/// 'blocks < 4096 ? blocks : 4096' (Minimum.h), or a local set from one.
bool gridCappedByConstant(const Expr *E, const ASTContext &Ctx);

} // namespace clang::tidy::cuda

#endif // CUDA_TIDY_ANALYSIS_LAUNCHGRIDGROWTH_H
