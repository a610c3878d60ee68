//===- Report.h - Findings as SARIF, JSON, and for baselines ----*- C++ -*-===//
//
// The driver collects clang-tidy's errors for every file, puts them in one
// order that does not depend on -j, and then prints them as clang-style text
// (clang-tidy's own printer), SARIF 2.1.0 or JSON. This file holds the
// order, the line/column lookup, the SARIF and JSON writers, the stable
// fingerprints that baselines use, and the (de)serialization the result
// cache stores.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_REPORT_H
#define CUDA_TIDY_REPORT_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <vector>

namespace cudatidy {

using clang::tidy::ClangTidyError;

/// Sorts by file, offset, check and message; notes stay with their error.
void sortErrors(std::vector<ClangTidyError> &Errors);

/// Makes the path of every finding, note and fix absolute (paths relative
/// to a compile command's directory, as headers' are, do not open from the
/// user's folder).
void makePathsAbsolute(std::vector<ClangTidyError> &Errors);

/// The absolute path of a diagnostic message's file ("" when it has none).
std::string absolutePath(const clang::tooling::DiagnosticMessage &M,
                         llvm::StringRef BuildDirectory);

/// Turns file offsets into 1-based lines and byte columns, as clang prints
/// them, reading each file once.
class LineIndex {
public:
  struct Position {
    unsigned Line = 0, Column = 0;
  };
  Position position(llvm::StringRef File, unsigned Offset);
  /// The text of a 1-based line, without its end of line.
  llvm::StringRef lineText(llvm::StringRef File, unsigned Line);

private:
  struct FileLines {
    std::string Text;
    std::vector<unsigned> Starts; ///< Offset of each line's first byte.
    bool Loaded = false;
  };
  FileLines &load(llvm::StringRef File);
  std::map<std::string, FileLines> Files;
};

/// The level a finding is shown with: "error" for compile errors and
/// warnings-as-errors, "warning" otherwise.
llvm::StringRef levelOf(const ClangTidyError &E);

/// A fingerprint of a finding that survives edits that only move it: the
/// check, the file (relative to \p Root when under it), the message, and the
/// trimmed text of its line, numbered when several are identical.
std::vector<std::string> fingerprints(llvm::ArrayRef<ClangTidyError> Errors,
                                      LineIndex &Lines, llvm::StringRef Root);

/// Summaries of the documented checks (docs/checks/<name>.md), by name.
const llvm::StringMap<std::string> &checkSummaries();

/// A run that was interrupted: its report covers only the files that were
/// analysed, and says so.
struct PartialRun {
  size_t FilesAnalysed = 0, FilesTotal = 0;
  std::string message() const;
};

/// A file whose analysis crashed (docs/reliability.md, "Crash isolation"):
/// its findings are missing, the other files' are reported.
struct InternalError {
  std::string File;
  std::string Check; ///< The check that was running; "" when unknown.
  /// "internal error while analysing FILE (check CHECK); the other files
  /// were analysed".
  std::string message() const;
};

/// With \p Partial or \p Crashes, the SARIF run's invocation is marked
/// unsuccessful with one notification each; the JSON report gets
/// "partial": true and the counts, and "internal_errors".
/// Compile errors become notifications of the invocation too, which is
/// always there: executionSuccessful says whether every file was analysed.
/// Rules of cuda-* checks get \p DocsUrl + NAME.md as helpUri (none when
/// it is empty), stock checks clang-tidy's page.
void writeSarif(llvm::raw_ostream &OS, llvm::ArrayRef<ClangTidyError> Errors,
                LineIndex &Lines, llvm::StringRef Root,
                llvm::StringRef ToolVersion,
                const PartialRun *Partial = nullptr,
                llvm::ArrayRef<InternalError> Crashes = {},
                llvm::StringRef DocsUrl = "");

/// The helpUri of a check's SARIF rule ("" when none).
std::string helpUri(llvm::StringRef Check, llvm::StringRef DocsUrl);
void writeJson(llvm::raw_ostream &OS, llvm::ArrayRef<ClangTidyError> Errors,
               LineIndex &Lines, llvm::StringRef ToolVersion,
               const PartialRun *Partial = nullptr,
               llvm::ArrayRef<InternalError> Crashes = {});

/// Round trip of errors, fixes included, for the result cache.
llvm::json::Value errorsToJson(llvm::ArrayRef<ClangTidyError> Errors);
bool errorsFromJson(const llvm::json::Value &V,
                    std::vector<ClangTidyError> &Errors);

} // namespace cudatidy

#endif
