//===- Merge.h - One report from the reports of several shards --*- C++ -*-===//
//
// `cuda-tidy --merge a.sarif b.sarif ...` combines the SARIF (or JSON)
// reports of a sharded run (--shard I/N) into one: the findings of all,
// each once (a header's finding can come from several shards), sorted; the
// rules, invocations and notifications of all (docs/driver.md, "Whole
// projects").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MERGE_H
#define CUDA_TIDY_MERGE_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace cudatidy {

enum class ReportKind { Sarif, Json };

/// What a merge found in the reports, for the exit code.
struct MergeSummary {
  size_t Findings = 0;      ///< Results of level warning or error.
  bool AnalysisErrors = false; ///< Compile or internal errors, partial runs.
};

/// Reads \p Paths, all of kind \p Wanted (by default the first's), and
/// writes the merged report to \p OS. Returns "" or what is wrong.
std::string mergeReports(const std::vector<std::string> &Paths,
                         std::optional<ReportKind> Wanted,
                         llvm::raw_ostream &OS, MergeSummary &Summary);

/// The kind of a parsed report: SARIF has "runs", JSON "findings".
std::optional<ReportKind> reportKind(const llvm::json::Value &Report);

} // namespace cudatidy

#endif
