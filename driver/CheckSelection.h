//===- CheckSelection.h - Which checks a configuration selects -*- C++ -*-===//
//
// A .clang-tidy written for clang-tidy works unchanged in cuda-tidy: the
// checks it names run, plus cuda-*, unless some configuration the run reads
// (a .clang-tidy, -config, -config-file, -checks) names a cuda- check itself;
// then it is taken as written (docs/driver.md, "Check selection").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKSELECTION_H
#define CUDA_TIDY_CHECKSELECTION_H

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace cudatidy {

/// cuda-tidy's default, under every configuration (clang-tidy's is
/// clang-analyzer-*, which a configuration can name).
inline constexpr llvm::StringLiteral CudaTidyDefaultChecks = "-*,cuda-*";

/// The source name of the cuda-* that addCudaChecks adds.
inline constexpr llvm::StringLiteral AddedCudaChecksSource =
    "cuda-tidy (cuda-* added: the configuration names no cuda- check)";

/// Wraps \p Inner: when no configuration source names a cuda- check, a last
/// source enables cuda-*. Sources named \p ConfigSourceName (the -config
/// source) are renamed \p ConfigFile when that is not empty.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
addCudaChecks(std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Inner,
              std::string ConfigFile);

/// \p Checks with the globs that decide nothing left out: those before a
/// '*' or '-*', and those whose pattern comes again later (the last glob
/// that matches a check decides), as --dump-config prints it.
std::string simplifyChecks(llvm::StringRef Checks);

/// Whether a Checks value names a cuda- check (enabled or disabled).
bool mentionsCudaChecks(llvm::StringRef Checks);

/// The configuration source that left no check enabled for \p File: the last
/// one whose Checks took the enabled set from some to none, or else the last
/// one that sets Checks. "" when checks are enabled.
std::string sourceThatDisabledAllChecks(
    clang::tidy::ClangTidyOptionsProvider &Provider, llvm::StringRef File);

/// --explain-config: for each enabled check, the source that enables it.
void explainConfig(clang::tidy::ClangTidyOptionsProvider &Provider,
                   llvm::StringRef File,
                   const std::vector<std::string> &Enabled,
                   llvm::raw_ostream &OS);

} // namespace cudatidy

#endif
