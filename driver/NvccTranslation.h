//===- NvccTranslation.h - nvcc command lines to clang CUDA flags -*- C++ -*-===//
//
// Real CUDA projects are built with nvcc, so the compile_commands.json that
// CMake or bear writes holds nvcc command lines, which clang rejects. This
// file turns one into the clang command line that analyses the same code:
// the preprocessor state (-I, -isystem, -D, -U, -include), the language
// (-x cu, -std), relocatable device code, one GPU architecture; everything
// that only concerns code generation, linking or the toolchain is dropped.
// Unknown flags are dropped with a note, never a failure.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_NVCCTRANSLATION_H
#define CUDA_TIDY_NVCCTRANSLATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace cudatidy {

/// Whether \p Compiler (argv[0] of an entry) is nvcc: any path or name that
/// ends in "nvcc", such as /usr/local/cuda/bin/nvcc or x86_64-nvcc.
bool isNvccCompiler(llvm::StringRef Compiler);

/// Removes a compiler launcher (ccache, sccache, distcc, icecc, as CMake's
/// <LANG>_COMPILER_LAUNCHER writes them) from the front of \p Args, so that
/// argv[0] is the compiler. Returns whether one was removed.
bool stripCompilerLauncher(std::vector<std::string> &Args);

/// Reads a response or options file, as nvcc does for @file and
/// --options-file. Returns false when the file cannot be read.
using ReadFileFn =
    bool (*)(llvm::StringRef Path, std::string &Contents);

struct NvccTranslation {
  /// The clang command line: "clang++", the translated flags, then the
  /// source files of the original command.
  std::vector<std::string> Args;
  /// The analysis architecture chosen from -gencode/-arch/-code, such as
  /// "sm_90", or empty when the command named none clang can use.
  std::string GpuArch;
  /// One line per flag that was dropped because it is unknown, or that
  /// could not be used (an unreadable options file, an unsupported -x).
  std::vector<std::string> Notes;
};

/// Translates the nvcc command line \p NvccArgs (argv[0] included).
/// Relative options files are resolved against \p Directory, the entry's
/// working folder. \p ReadFile defaults to reading from the real file system.
NvccTranslation translateNvccCommand(llvm::ArrayRef<std::string> NvccArgs,
                                     llvm::StringRef Directory,
                                     ReadFileFn ReadFile = nullptr);

/// Picks the architecture clang analyses for from nvcc's -gencode, -arch and
/// -code values (e.g. "arch=compute_80,code=[compute_80,sm_80]", "sm_90",
/// "compute_75"): the highest real architecture named. Returns "" for none
/// or only "native", "all", "all-major".
std::string pickGpuArch(llvm::ArrayRef<std::string> ArchValues);

} // namespace cudatidy

#endif
