//===- CompilationDatabase.h - The commands files are analysed with -*- C++ -*-===//
//
// The project's compilation database ("--", -p, or compile_commands.json
// found upwards from the first file), wrapped so that files it does not
// know get a default command, nvcc commands are translated, and CUDA files
// get the analysis flags (docs/driver.md, "Compile databases").
// prepareCommand() is that one step on one command; cuda-clangd applies it
// to every command clangd reads (clangd/ClangdHooks.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_COMPILATIONDATABASE_H
#define CUDA_TIDY_COMPILATIONDATABASE_H

#include "CudaToolkit.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cudatidy {

/// What the driver's options add to every command.
struct CommandSettings {
  std::vector<std::string> ExtraArgsBefore, ExtraArgs;
  /// The flags a CUDA file gets (cudaAnalysisFlags and the compatibility
  /// header); used only with a toolkit.
  std::vector<std::string> CudaFlags;
  /// --cuda-gpu-arch was given: it wins over the entry's architecture.
  bool ExplicitGpuArch = false;
  /// --verbose: print each command and what nvcc translation dropped.
  bool Verbose = false;
  /// Add clang's resource folder (CUDA_TIDY_CLANG_RESOURCE_DIR) to commands
  /// that name none. cuda-clangd passes it to clangd's --resource-dir instead.
  bool AddResourceDir = true;
};

/// Receives what prepareCommand() dropped or added, one line each.
using NoteFn = llvm::function_ref<void(const std::string &)>;

/// Makes the database's command \p C the one its file is analysed with: a
/// compiler launcher removed, an nvcc command translated (NvccTranslation.h),
/// and the flags of \p Settings added (the CUDA flags to a CUDA file, given a
/// toolkit).
void prepareCommand(clang::tooling::CompileCommand &C,
                    const std::optional<CudaToolkit> &Toolkit,
                    const CommandSettings &Settings, NoteFn Note);

/// Wraps the project's compilation database: files it does not know get a
/// default command, and CUDA files get the analysis flags.
class CudaCompilationDatabase : public clang::tooling::CompilationDatabase {
public:
  CudaCompilationDatabase(
      std::unique_ptr<clang::tooling::CompilationDatabase> Inner,
      std::optional<CudaToolkit> Toolkit, CommandSettings Settings)
      : Inner(std::move(Inner)), Toolkit(std::move(Toolkit)),
        Settings(std::move(Settings)) {}

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override;
  std::vector<std::string> getAllFiles() const override {
    return Inner ? Inner->getAllFiles() : std::vector<std::string>();
  }

private:
  void verbose(const std::string &Message) const;

  std::unique_ptr<clang::tooling::CompilationDatabase> Inner;
  std::optional<CudaToolkit> Toolkit;
  CommandSettings Settings;
  mutable std::mutex NotesMutex;
  mutable std::set<std::string> NotesShown;
};

/// The project's database when no "--" was given: compile_commands.json in
/// \p BuildPath (-p, a folder or the file itself), else the first one found
/// upwards from \p FirstFile's folder. Returns null with \p Error empty
/// when there is none to find, and null with \p Error set when the one
/// named or found cannot be read.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadProjectDatabase(llvm::StringRef BuildPath, llvm::StringRef FirstFile,
                    std::string &Error);

} // namespace cudatidy

#endif
