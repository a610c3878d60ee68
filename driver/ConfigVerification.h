//===- ConfigVerification.h - Typos in configurations -----------*- C++ -*-===//
//
// --verify-config, as in clang-tidy: every check glob of every
// configuration a file reads must match some check, and every check option
// must be one a check reads. A run without --verify-config warns about the
// unknown options and the globs that match no check (a misspelt name is
// otherwise ignored) (docs/driver.md, "Check selection").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CONFIGVERIFICATION_H
#define CUDA_TIDY_CONFIGVERIFICATION_H

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace cudatidy {

/// What is unknown in the configurations that \p Files read (each source
/// once): check options, and with \p Checks the check globs too. Each
/// message names the source and, where one is close, the known name meant.
std::vector<std::string>
unknownConfigNames(clang::tidy::ClangTidyOptionsProvider &Provider,
                   const std::vector<std::string> &Files, bool Checks);

} // namespace cudatidy

#endif
