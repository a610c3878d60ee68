//===- FileSelection.h - Which files a run analyses -------------*- C++ -*-===//
//
// The files come from the command line, --files-from, or, with -p and no
// file, every entry of the compilation database in its order; then
// --path-regex keeps the paths it matches and --shard I/N takes this job's
// share (docs/driver.md, "Whole projects").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_FILESELECTION_H
#define CUDA_TIDY_FILESELECTION_H

#include "clang/Tooling/CompilationDatabase.h"
#include <string>
#include <vector>

namespace cudatidy {

/// The files of \p DB's entries, absolute, each once, in the database's
/// order. Entries that are not C, C++ or CUDA sources are counted in
/// \p Skipped.
std::vector<std::string>
databaseFiles(const clang::tooling::CompilationDatabase &DB, size_t &Skipped);

/// Appends the paths listed in \p ListFile ("-": stdin), one a line; blank
/// lines and lines starting with '#' are skipped. Returns "" or an error.
std::string readFileList(llvm::StringRef ListFile,
                         std::vector<std::string> &Paths);

/// --shard I/N: this job takes the files at positions I-1, I-1+N, ...
struct Shard {
  unsigned Index = 1, Count = 1;
};

/// Parses "I/N" (1 <= I <= N). Returns "" or what is wrong.
std::string parseShard(llvm::StringRef Spec, Shard &Out);

/// The files of shard \p S of \p Files.
std::vector<std::string> shardOf(const std::vector<std::string> &Files,
                                 Shard S);

/// Keeps the paths that \p Regex matches (anywhere in the absolute path,
/// as run-clang-tidy matches). Returns "" or why the regex is invalid.
std::string filterPaths(llvm::StringRef Regex,
                        std::vector<std::string> &Paths);

/// Whole-project runs (-p without files): appends the .py files under
/// \p Root that may hold CUDA (PythonInput.h, mayHoldCuda), skipping hidden
/// folders, the build folder \p BuildDir and installed packages
/// (site-packages, virtual environments, node_modules, __pycache__), in
/// path order. Returns how many were added.
size_t addProjectPythonFiles(llvm::StringRef Root, llvm::StringRef BuildDir,
                             std::vector<std::string> &Paths);

} // namespace cudatidy

#endif
