//===- SideParse.h - A parse beside clang-tidy's own ----------*- C++ -*-===//
//
// The result cache and the precompiled prefix parse a file themselves; the
// parse must see what clang-tidy's own run of the file sees.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_SIDEPARSE_H
#define CUDA_TIDY_SIDEPARSE_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include <string>
#include <vector>

namespace cudatidy {

/// Gives \p Tool the configuration's extra arguments and no plugins, as
/// clang-tidy's run does, and sends its diagnostics to \p Quiet.
inline void setUpSideParse(clang::tooling::ClangTool &Tool,
                           const std::vector<std::string> &ExtraArgsBefore,
                           const std::vector<std::string> &ExtraArgsAfter,
                           clang::IgnoringDiagConsumer &Quiet) {
  namespace tooling = clang::tooling;
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      ExtraArgsBefore, tooling::ArgumentInsertPosition::BEGIN));
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      ExtraArgsAfter, tooling::ArgumentInsertPosition::END));
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());
  Tool.setDiagnosticConsumer(&Quiet);
  Tool.setPrintErrorMessage(false);
}

} // namespace cudatidy

#endif
