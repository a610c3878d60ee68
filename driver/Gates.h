//===- Gates.h - Baselines and changed-line filters for CI ------*- C++ -*-===//
//
// Two ways to let CI fail only on what a change introduces:
// - a baseline file records the fingerprints of accepted findings
//   (--write-baseline); later runs (--baseline) drop those. Fingerprints
//   (Report.h) hold no line numbers, so edits that move a finding keep it
//   matched;
// - a diff (--diff-base <git rev>, or a unified diff on stdin) keeps only
//   the findings on added or changed lines.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_GATES_H
#define CUDA_TIDY_GATES_H

#include "Report.h"
#include <map>
#include <set>
#include <string>

namespace cudatidy {

/// Writes the findings (not compile errors) of \p Errors to \p Path; paths
/// in it are relative to the file's folder. Returns "" or an error message.
std::string writeBaseline(llvm::StringRef Path,
                          llvm::ArrayRef<ClangTidyError> Errors,
                          LineIndex &Lines);

/// Reads the fingerprints of a baseline file's text \p Text (\p Path is
/// only used in messages) into \p Known. Returns "" or an error message.
std::string parseBaseline(llvm::StringRef Text, llvm::StringRef Path,
                          std::multiset<std::string> &Known);

/// Removes from \p Errors the findings recorded in the baseline \p Path;
/// sets \p Suppressed to how many. Returns "" or an error message.
std::string applyBaseline(llvm::StringRef Path,
                          std::vector<ClangTidyError> &Errors,
                          LineIndex &Lines, size_t &Suppressed);

/// Lines added or changed, by absolute file path; WholeFile for a file
/// that is new (untracked, or added since the revision).
using ChangedLines = std::map<std::string, std::set<unsigned>>;
inline constexpr unsigned WholeFile = 0;

/// Parses a unified diff; "+++ b/x" paths are taken relative to \p Root; a
/// file whose old side is /dev/null is new.
ChangedLines parseUnifiedDiff(llvm::StringRef Diff, llvm::StringRef Root);

/// Runs `git diff -U0 <Rev>` in the repository that holds \p Dir, and
/// marks the untracked files (`git ls-files --others --exclude-standard`)
/// wholly changed. Returns "" or an error message.
std::string changedLinesSince(llvm::StringRef Rev, llvm::StringRef Dir,
                              ChangedLines &Out);

/// Keeps compile errors, and the findings on changed lines; sets
/// \p Dropped to how many findings were removed.
void keepChangedLines(std::vector<ClangTidyError> &Errors,
                      const ChangedLines &Changed, LineIndex &Lines,
                      size_t &Dropped);

} // namespace cudatidy

#endif
