//===- Run.h - Analysing the files, in parallel, crash by crash -*- C++ -*-===//
//
// Each file is analysed on its own (its own ClangTidyContext, options
// provider and file system), by a pool of -j workers; the results are kept
// per file, so that the report does not depend on scheduling
// (docs/driver.md, "Parallel runs"). A file's analysis runs isolated
// (CrashIsolation.h): a crash in it is reported, the other files' results
// are kept. Results come from, and go to, the result cache.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_RUN_H
#define CUDA_TIDY_RUN_H

#include "PrefixCache.h"
#include "Report.h"
#include "ResultCache.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cudatidy {

class PythonReaderPool;

struct RunSettings {
  /// Makes the options provider of one file, on that file's file system.
  std::function<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>(
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>)>
      MakeOptionsProvider;
  unsigned Jobs = 0; ///< 0: the number of cores.
  bool FixNotes = false;
  /// Source files are read with nvcc's spaced launch chevrons joined
  /// (LaunchChevrons.h); off with --no-nvcc-compat.
  bool JoinLaunchChevrons = true;
  bool ShowProgress = false; ///< The progress line on stderr.
  bool Verbose = false;      ///< Cache hits and misses.
  ResultCache *Cache = nullptr;
  /// The precompiled CUDA prefix (PrefixCache.h); null: files parse it.
  PrefixCache *Prefix = nullptr;
  /// The readers of .py files (PythonInput.h); null when no .py file may
  /// hold CUDA.
  PythonReaderPool *PythonReaders = nullptr;
};

struct RunResults {
  /// The findings of each file, in the order of the files.
  std::vector<std::vector<clang::tidy::ClangTidyError>> PerFile;
  /// The files whose analysis crashed, in the order of the files.
  std::vector<InternalError> Crashes;
  /// Findings not reported (NOLINT, header filter, ...), over all files.
  clang::tidy::ClangTidyStats Suppressed;
  /// Ctrl-C stopped the run after FilesAnalysed files.
  bool Interrupted = false;
  size_t FilesAnalysed = 0;
};

/// Prints clang-tidy's line of suppressed findings, if any were.
void printSuppressed(const clang::tidy::ClangTidyStats &Stats,
                     llvm::raw_ostream &OS);

/// Analyses \p Files, commands from \p Compilations.
RunResults analyseFiles(const std::vector<std::string> &Files,
                        const clang::tooling::CompilationDatabase &Compilations,
                        const RunSettings &Settings);

} // namespace cudatidy

#endif
