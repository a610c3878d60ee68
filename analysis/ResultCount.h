//===- ResultCount.h - Statuses examined through a result count -*- C++ -*-===//
//
// Some queries write how many results they found through an out-parameter
// and write nothing there when they fail (CUDA_RESULT_COUNT rows of
// CudaApiModel.def: cublasLtMatmulAlgoGetHeuristic's returnAlgoCount). Code
// that sets the count first and branches on it after the call sees a failure
// as "no result": the status is examined through the count.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_RESULTCOUNT_H
#define CUDA_TIDY_RESULTCOUNT_H

#include "FunctionCfg.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::cuda {

/// The out-parameter through which \p Callee writes its result count
/// (CUDA_RESULT_COUNT rows), or -1.
int resultCountArgument(const FunctionDecl *Callee);

/// Whether the result count of \p Call (its CUDA_RESULT_COUNT argument,
/// written `&count`) tells a failure apart: `count` is a local integer
/// initialised to a constant where it is declared, written by nothing but
/// \p Call, and every path from \p Call reaches a branch whose condition
/// reads it (`if (count == 0)`, a loop `i < count`, an assert) before the
/// function returns.
bool resultCountTestedAfter(const CallExpr *Call, const FunctionCfg &Cfg,
                            ASTContext &Ctx);

} // namespace clang::tidy::cuda

#endif
