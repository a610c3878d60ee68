//===- SourceLocations.h - Where to put a finding ---------------*- C++ -*-===//

#ifndef CUDA_TIDY_SOURCELOCATIONS_H
#define CUDA_TIDY_SOURCELOCATIONS_H

#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {

/// \p Loc, moved out of macros that system headers define (such as
/// cuBLAS's `#define cublasCreate cublasCreate_v2`) to where the user wrote
/// the macro; clang-tidy would otherwise hide the finding as one in a
/// system header.
inline SourceLocation userVisibleLocation(SourceLocation Loc,
                                          const SourceManager &SM) {
  while (Loc.isMacroID() && SM.isInSystemMacro(Loc))
    Loc = SM.getImmediateExpansionRange(Loc).getBegin();
  return Loc;
}

} // namespace clang::tidy::cuda

#endif
