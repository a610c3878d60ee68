//===- LibraryObjects.h - What an allocation is called ----------*- C++ -*-===//
//
// The name a leak report gives what an allocating call made: the kind's own
// ("device memory", "cuBLAS handle"), or, for a CUDA library object that
// shares a kind with others (cuSOLVER's handles and info objects, NVRTC
// programs), the name its create's CUDA_RESOURCE_NOUN row gives.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIBRARYOBJECTS_H
#define CUDA_TIDY_LIBRARYOBJECTS_H

#include "AllocationTracking.h"
#include "clang/AST/Expr.h"
#include <string>

namespace clang::tidy::cuda {

/// What \p Kind, made by the call \p Site, is called in a message.
std::string describeAllocation(const AllocationKind &Kind,
                               const CallExpr *Site);

} // namespace clang::tidy::cuda

#endif
