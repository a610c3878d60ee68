//===- TorchSupport.h - PyTorch extensions: headers, flags ------*- C++ -*-===//
//
// A PyTorch C++/CUDA extension (torch.utils.cpp_extension) is compiled with
// torch's include folders, Python's, and flags that torch's build adds. This
// file gives the driver the same (docs/torch.md):
//
// - where a file includes torch, ATen or c10 headers, the installed torch is
//   found without importing it (the Python that --python, CUDA_TIDY_PYTHON
//   or PATH names locates the package), or --torch-include names its
//   include folder, and torch's flags are added to the file's command;
// - torch's own build files are read as compile databases: the build.ninja
//   that BuildExtension writes under build/temp.*, and the one load()
//   writes under TORCH_EXTENSIONS_DIR or ~/.cache/torch_extensions;
// - a setup.py that has not been built is read with Python's own parser
//   (share/cuda-tidy/python/torch_setup_commands.py) for its CUDAExtension
//   sources and flags.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TORCHSUPPORT_H
#define CUDA_TIDY_TORCHSUPPORT_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudatidy {

/// Where torch is, as the driver's options say to look for it.
struct TorchSettings {
  /// --torch-include: torch's include folder (holding torch/extension.h).
  std::string ExplicitInclude;
  /// --python, else $CUDA_TIDY_PYTHON, else python3 on PATH.
  std::string Python;
  /// share/cuda-tidy/python/torch_setup_commands.py ("" when missing).
  std::string SetupReader;
};

/// An installed torch, found without importing it.
struct TorchInstall {
  /// torch/include, and torch/include/torch/csrc/api/include.
  std::vector<std::string> IncludeDirs;
  /// Python.h's folder ("" when the Python has none).
  std::string PythonInclude;
  /// The package's version, "" when unknown.
  std::string Version;
};

/// Sets the options the functions below use (once, from main).
void setTorchSettings(TorchSettings Settings);

/// Whether the file \p Path includes a torch, ATen or c10 header, itself or
/// through headers it includes with quotes from its own folder (three
/// levels deep): then it needs torch's include folders.
bool includesTorchHeaders(llvm::StringRef Path);

/// The same for a command's file, looking for quoted headers in the
/// command's -I, -iquote and -isystem folders too.
bool commandIncludesTorch(const clang::tooling::CompileCommand &Command);

/// Whether \p Args already name torch's include folder (-I, -isystem).
bool namesTorchInclude(const std::vector<std::string> &Args);

/// The torch install (found once a run); null with \p Error set when
/// there is none to find.
const TorchInstall *findTorch(std::string &Error);

/// Adds torch's include folders (when \p Command lacks them) and the flags
/// torch's build passes (the CUDA half/bfloat16 defines, TORCH_EXTENSION_NAME,
/// TORCH_API_INCLUDE_EXTENSION_H, -std=c++17) to a command of a file that
/// includes torch's headers, before the command's own flags so that those
/// win. Does nothing for other files.
void addTorchFlags(clang::tooling::CompileCommand &Command);

/// The compile database of torch's build files in \p Dir: a build.ninja that
/// torch wrote, else a setup.py read without building. Null with \p Error
/// empty when \p Dir holds neither.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadTorchBuildDatabase(llvm::StringRef Dir, std::string &Error);

/// The build.ninja that a torch.utils.cpp_extension.load() build of
/// \p SourceFile wrote (under $TORCH_EXTENSIONS_DIR or
/// ~/.cache/torch_extensions), as a database; null when none names it.
std::unique_ptr<clang::tooling::CompilationDatabase>
findLoadBuildDatabase(llvm::StringRef SourceFile);

/// With no compile_commands.json for \p FirstFile: when it includes torch,
/// the build.ninja of a load() build that names it; else the nearest
/// setup.py above it that builds a CUDAExtension or CppExtension. A setup.py
/// that cannot be read is only warned about (the file is then analysed with the
/// default command).
std::unique_ptr<clang::tooling::CompilationDatabase>
findTorchDatabaseFor(llvm::StringRef FirstFile, std::string &Error);

/// The compile commands of a torch build.ninja's compile steps.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadTorchNinja(llvm::StringRef BuildNinja, std::string &Error);

} // namespace cudatidy

#endif
