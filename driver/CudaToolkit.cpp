//===- CudaToolkit.cpp ----------------------------------------------------===//

#include "CudaToolkit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/FileUtilities.h"

namespace cudatidy {

std::string CudaToolkit::versionString() const {
  if (!Major)
    return "unknown";
  return std::to_string(Major) + "." + std::to_string(Minor);
}

/// A toolkit has an include/cuda.h that defines CUDA_VERSION; a folder
/// with some other cuda.h (a stub, a damaged install) is not one, and would
/// only make every file fail to parse.
static bool looksLikeToolkit(llvm::StringRef Root, std::string *Why = nullptr) {
  llvm::SmallString<256> Header(Root);
  llvm::sys::path::append(Header, "include", "cuda.h");
  if (!llvm::sys::fs::is_regular_file(Header)) {
    if (Why)
      *Why = "no include/cuda.h there";
    return false;
  }
  auto Buffer = llvm::MemoryBuffer::getFile(Header);
  if (!Buffer) {
    if (Why)
      *Why = "cannot read include/cuda.h: " + Buffer.getError().message();
    return false;
  }
  llvm::StringRef Text = (*Buffer)->getBuffer();
  size_t Pos = Text.find("#define CUDA_VERSION ");
  unsigned Value = 0;
  if (Pos == llvm::StringRef::npos ||
      Text.substr(Pos + strlen("#define CUDA_VERSION "))
          .ltrim()
          .take_while(llvm::isDigit)
          .getAsInteger(10, Value) ||
      Value < 1000 || Value >= 100000) {
    if (Why)
      *Why = "its include/cuda.h does not define a CUDA_VERSION";
    return false;
  }
  return true;
}

static void readVersion(CudaToolkit &TK) {
  llvm::SmallString<256> Header(TK.Root);
  llvm::sys::path::append(Header, "include", "cuda.h");
  auto Buffer = llvm::MemoryBuffer::getFile(Header);
  if (!Buffer)
    return;
  llvm::StringRef Text = (*Buffer)->getBuffer();
  size_t Pos = Text.find("#define CUDA_VERSION ");
  if (Pos == llvm::StringRef::npos)
    return;
  llvm::StringRef Rest =
      Text.substr(Pos + strlen("#define CUDA_VERSION ")).ltrim();
  unsigned Value = 0;
  if (Rest.take_while(llvm::isDigit).getAsInteger(10, Value) || !Value)
    return;
  TK.Major = Value / 1000;
  TK.Minor = (Value % 1000) / 10;
}

static std::optional<CudaToolkit> makeToolkit(llvm::StringRef Root,
                                              llvm::StringRef FoundBy) {
  if (Root.empty() || !looksLikeToolkit(Root))
    return std::nullopt;
  CudaToolkit TK;
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Root, Real))
    Real = Root;
  TK.Root = std::string(Real);
  TK.FoundBy = std::string(FoundBy);
  readVersion(TK);
  llvm::SmallString<256> Cccl(TK.Root);
  llvm::sys::path::append(Cccl, "include", "cccl");
  TK.HasCccl = llvm::sys::fs::is_directory(Cccl);
  return TK;
}

std::optional<CudaToolkit> findCudaToolkit(llvm::StringRef ExplicitPath,
                                           std::string &Error) {
  if (!ExplicitPath.empty()) {
    if (auto TK = makeToolkit(ExplicitPath, "--cuda-path"))
      return TK;
    std::string Why;
    looksLikeToolkit(ExplicitPath, &Why);
    Error = "--cuda-path='" + ExplicitPath.str() + "' is not a CUDA toolkit (" +
            Why + ")";
    return std::nullopt;
  }
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"}) {
    if (std::optional<std::string> Value = llvm::sys::Process::GetEnv(Var)) {
      if (auto TK = makeToolkit(*Value, Var))
        return TK;
    }
  }
  if (llvm::ErrorOr<std::string> Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(*Nvcc, Real)) {
      llvm::StringRef Root =
          llvm::sys::path::parent_path(llvm::sys::path::parent_path(Real));
      if (auto TK = makeToolkit(Root, "nvcc on PATH"))
        return TK;
    }
  }
  // The last resort is /usr/local/cuda, or where CUDA_TIDY_DEFAULT_CUDA_PATH
  // says a distribution keeps it.
  std::string Fallback = llvm::sys::Process::GetEnv("CUDA_TIDY_DEFAULT_CUDA_PATH")
                             .value_or("/usr/local/cuda");
  if (auto TK = makeToolkit(Fallback, Fallback))
    return TK;
  Error = "no CUDA toolkit found; pass --cuda-path=<dir>, set CUDA_PATH or "
          "CUDA_HOME, or put nvcc on PATH";
  return std::nullopt;
}

std::vector<std::string> cudaAnalysisFlags(const CudaToolkit &TK,
                                           llvm::StringRef GpuArch,
                                           CudaPass Pass) {
  std::vector<std::string> Flags = {
      "--cuda-path=" + TK.Root,
      "--cuda-gpu-arch=" + GpuArch.str(),
      // One pass: by default the device compilation, which sees host and
      // device code (docs/design.md, "Analysis pass").
      Pass == CudaPass::Device ? "--cuda-device-only" : "--cuda-host-only",
      "-nocudalib",
      "-Wno-unknown-cuda-version",
  };
  if (TK.Major) {
    // Without the SDK version the device job does not declare the launch
    // configuration API, and every <<<...>>> launch fails to parse.
    Flags.push_back("-Xclang");
    Flags.push_back("-target-sdk-version=" + TK.versionString());
  }
  if (TK.HasCccl) {
    Flags.push_back("-isystem");
    Flags.push_back(TK.Root + "/include/cccl");
  }
  for (std::string &F : nvccCompatFlags(TK))
    Flags.push_back(std::move(F));
  return Flags;
}

std::string hostCompilerOpenMPDir() {
  static const std::string Dir = [] {
    std::string Result;
    // nvcc preprocesses with its host compiler, gcc, which always finds
    // its own omp.h; clang has one only with libomp-dev installed.
    std::string Compiler =
        llvm::sys::Process::GetEnv("CUDA_TIDY_HOST_COMPILER").value_or("");
    if (Compiler.empty()) {
      llvm::ErrorOr<std::string> Gcc = llvm::sys::findProgramByName("gcc");
      if (!Gcc)
        return Result;
      Compiler = *Gcc;
    }
    llvm::SmallString<128> Out;
    if (llvm::sys::fs::createTemporaryFile("cuda-tidy-gcc", "txt", Out))
      return Result;
    llvm::FileRemover Remove(Out);
    std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Out.str(),
                                                  llvm::StringRef("")};
    llvm::StringRef Args[] = {Compiler, "-print-file-name=include"};
    if (llvm::sys::ExecuteAndWait(Compiler, Args, std::nullopt, Redirects,
                                  /*SecondsToWait=*/10) != 0)
      return Result;
    auto Buffer = llvm::MemoryBuffer::getFile(Out);
    if (!Buffer)
      return Result;
    // gcc prints the path of its own include folder when it has one, and
    // the bare name if not.
    llvm::StringRef Folder = (*Buffer)->getBuffer().trim();
    llvm::SmallString<256> OmpH(Folder);
    llvm::sys::path::append(OmpH, "omp.h");
    if (llvm::sys::path::is_absolute(Folder) &&
        llvm::sys::fs::is_regular_file(OmpH))
      Result = std::string(Folder);
    return Result;
  }();
  return Dir;
}

std::vector<std::string> nvccCompatFlags(const CudaToolkit &TK) {
  std::vector<std::string> Flags = {
      // nvcc accepts the C++17-removed 'register' specifier; clang makes
      // it an error by default (-Wregister is a warning that defaults to
      // one). The specifier has no meaning either way.
      "-Wno-register",
      // clang's CUDA wrapper includes "cuda.h" by quotes from its own
      // folder, so a project cuda.h in an -I folder hid the toolkit's:
      // "cuda.h did not define CUDA_VERSION". nvcc's headers include their
      // siblings. A quote folder is searched before -I folders, and only
      // for quoted includes; a project header next to its includer still
      // wins, as under nvcc.
      "-iquote",
      TK.Root + "/include",
  };
  if (TK.Major) {
    // nvcc defines its version; code chooses APIs by it (CUB iterators
    // removed in CUDA 13). CCCL reads it only under __NVCC__ or NVRTC.
    Flags.push_back("-D__CUDACC_VER_MAJOR__=" + std::to_string(TK.Major));
    Flags.push_back("-D__CUDACC_VER_MINOR__=" + std::to_string(TK.Minor));
    Flags.push_back("-D__CUDACC_VER_BUILD__=0");
  }
  // omp.h: nvcc finds gcc's, in every file, with or without -fopenmp.
  // After every other folder, so that clang's own headers always win.
  std::string OpenMP = hostCompilerOpenMPDir();
  if (!OpenMP.empty()) {
    Flags.push_back("-idirafter");
    Flags.push_back(OpenMP);
  }
  return Flags;
}

std::string findNvccCompatHeader(llvm::StringRef Executable) {
  llvm::SmallString<256> P(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Executable)));
  llvm::sys::path::append(P, "share", "cuda-tidy", "include",
                          "cuda_tidy_nvcc_compat.h");
  return llvm::sys::fs::exists(P) ? std::string(P) : std::string();
}

bool isCudaFileName(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}

bool isSupportedFileName(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return llvm::StringSwitch<bool>(Ext)
      .Cases({".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c++", ".C", ".c", ".h",
              ".hh", ".hpp", ".hxx", ".inl"},
             true)
      .Default(false);
}

} // namespace cudatidy
