//===- ResultCache.h - Results cached per translation unit -----*- C++ -*-===//
//
// The findings of one file are stored under a key that covers everything
// they depend on:
// - what the preprocessor reads: the content of every file it enters (the
//   source, every header, the CUDA wrappers), found with the file's real
//   command line by clang's dependency scanner (a preprocessor run over
//   sources reduced to their directives), or, if the scanner fails, by full
//   preprocessing; include paths, macros and __has_include all count;
// - the compile command and its folder;
// - the clang-tidy configuration for the file (checks, options, filters);
// - the tool: cuda-tidy's version, clang's, and a hash of the executable,
//   so that a rebuilt check never reads results of the old one.
// The scan costs a few percent of the analysis (no Sema, no AST, no
// checks); on a hit, that is all a file costs.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_RESULTCACHE_H
#define CUDA_TIDY_RESULTCACHE_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>
#include <string>
#include <vector>

namespace cudatidy {

class ResultCache {
public:
  /// \p Dir is created on first store. \p ToolIdentity is what identifies
  /// the analysis code (see toolIdentity()).
  ResultCache(std::string Dir, std::string ToolIdentity)
      : Dir(std::move(Dir)), ToolIdentity(std::move(ToolIdentity)) {}

  /// The key of \p File, or "" when it cannot be computed (the file does
  /// not preprocess): such a file is analysed and not cached.
  std::string
  key(const clang::tooling::CompilationDatabase &Compilations,
      llvm::StringRef File, llvm::StringRef ConfigText,
      const std::vector<std::string> &ExtraArgsBefore,
      const std::vector<std::string> &ExtraArgsAfter) const;

  enum class Lookup { Miss, Hit, Damaged };
  /// Reads the entry of \p Key. An entry that cannot be read back whole
  /// (truncated, edited, written for another key, pointing past the end of
  /// its files) is Damaged, with the reason in \p Why: the caller analyses
  /// the file again, and the next store replaces the entry.
  /// \p Stats, when given, gets the counts of suppressed findings stored
  /// with the entry (zero in entries that have none).
  Lookup lookup(llvm::StringRef Key,
                std::vector<clang::tidy::ClangTidyError> &Errors,
                std::string &Why,
                clang::tidy::ClangTidyStats *Stats = nullptr) const;

  /// Parses the text of an entry written for \p Key. Returns "" or why it
  /// cannot be used.
  static std::string
  parseEntry(llvm::StringRef Text, llvm::StringRef Key,
             std::vector<clang::tidy::ClangTidyError> &Errors,
             clang::tidy::ClangTidyStats *Stats = nullptr);
  /// The text of an entry for \p Key.
  static std::string
  entryText(llvm::StringRef Key,
            llvm::ArrayRef<clang::tidy::ClangTidyError> Errors,
            const clang::tidy::ClangTidyStats *Stats = nullptr);
  /// Returns "" or why the entry could not be written (never fatal).
  std::string store(llvm::StringRef Key,
                    llvm::ArrayRef<clang::tidy::ClangTidyError> Errors,
                    const clang::tidy::ClangTidyStats *Stats = nullptr) const;

  const std::string &dir() const { return Dir; }

private:
  std::string entryPath(llvm::StringRef Key) const;
  std::string
  finishKey(const std::vector<clang::tooling::CompileCommand> &Commands,
            llvm::StringRef ConfigText,
            const std::map<std::string, std::string> &Hashes) const;
  std::string Dir, ToolIdentity;
};

/// cuda-tidy's version, clang's version and a hash of the executable at
/// \p ExecutablePath.
std::string toolIdentity(llvm::StringRef ExecutablePath);

/// The cache folder when none is given: $CUDA_TIDY_CACHE_DIR,
/// $XDG_CACHE_HOME/cuda-tidy or ~/.cache/cuda-tidy; "" if none can be found.
std::string defaultCacheDir();

} // namespace cudatidy

#endif
