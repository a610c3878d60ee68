//===- CudaToolkit.h - Finding the CUDA toolkit and its flags ---*- C++ -*-===//

#ifndef CUDA_TIDY_CUDATOOLKIT_H
#define CUDA_TIDY_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cudatidy {

struct CudaToolkit {
  std::string Root;       ///< The folder that holds include/cuda.h.
  std::string FoundBy;    ///< "--cuda-path", "CUDA_PATH", "nvcc on PATH"...
  int Major = 0, Minor = 0; ///< From CUDA_VERSION in cuda.h; 0 if unknown.
  bool HasCccl = false;   ///< include/cccl exists (CUDA 13 keeps Thrust there).

  std::string versionString() const;
};

/// Finds the toolkit: \p ExplicitPath (from --cuda-path), then CUDA_PATH,
/// CUDA_HOME, nvcc on PATH, /usr/local/cuda (or $CUDA_TIDY_DEFAULT_CUDA_PATH). On failure returns nullopt and
/// sets \p Error to a message that says how to point at one.
std::optional<CudaToolkit> findCudaToolkit(llvm::StringRef ExplicitPath,
                                           std::string &Error);

/// Which of clang's CUDA compilations the analysis runs (docs/design.md,
/// "Analysis pass").
enum class CudaPass { Device, Host };

/// The flags cuda-tidy adds to the compile command of a CUDA file, and the
/// ones a plugin user passes after `--`.
std::vector<std::string> cudaAnalysisFlags(const CudaToolkit &TK,
                                           llvm::StringRef GpuArch,
                                           CudaPass Pass = CudaPass::Device);

/// The flags among cudaAnalysisFlags() that make clang accept what nvcc
/// accepts (docs/nvcc-compat.md): -Wno-register, the toolkit's include
/// folder for quoted includes, nvcc's version macros, and the folder of
/// the host compiler's omp.h.
std::vector<std::string> nvccCompatFlags(const CudaToolkit &TK);

/// The nvcc compatibility header of the installation that holds the
/// executable \p Executable: share/cuda-tidy/include beside its bin/, in the
/// build tree as once installed; "" when it is missing.
std::string findNvccCompatHeader(llvm::StringRef Executable);

/// The folder of gcc's omp.h ($CUDA_TIDY_HOST_COMPILER, else gcc on PATH,
/// asked once with -print-file-name=include), when it holds omp.h; ""
/// otherwise.
std::string hostCompilerOpenMPDir();

/// Whether a file is CUDA by its name.
bool isCudaFileName(llvm::StringRef Path);
/// Whether a file is a CUDA, C or C++ source or header by its name.
bool isSupportedFileName(llvm::StringRef Path);

} // namespace cudatidy

#endif
