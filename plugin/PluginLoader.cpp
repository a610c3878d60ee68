// CudaTidy.so: the clang-tidy plugin's entry point.
//
// The checks live in CudaTidyChecks.so beside this file, which needs the
// symbols of the exact clang-tidy major version it was built for. Loaded
// into another version, the dynamic loader would fail with an undefined
// symbol and clang-tidy would run on without our checks. This loader has no
// LLVM dependency: it finds the LLVM library that the host process uses,
// compares its major version, and only then loads the checks.
#include <dlfcn.h>
#include <link.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

#ifndef CUDA_TIDY_LLVM_MAJOR
#error "CUDA_TIDY_LLVM_MAJOR must be defined"
#endif

namespace {

// The major version in a name such as libLLVM.so.22.1 or libLLVM-14.so.1;
// -1 when the name is not an LLVM library.
int llvmMajorOf(const char *Path) {
  const char *Base = std::strrchr(Path, '/');
  Base = Base ? Base + 1 : Path;
  if (std::strncmp(Base, "libLLVM", 7) != 0)
    return -1;
  const char *P = Base + 7;
  if (*P == '-')
    return std::atoi(P + 1);
  if (std::strncmp(P, ".so.", 4) == 0)
    return std::atoi(P + 4);
  return -1;
}

int hostLlvmMajor(std::string &Library) {
  struct Found {
    int Major = -1;
    std::string Name;
  } F;
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        auto *F = static_cast<Found *>(Data);
        int Major = Info->dlpi_name ? llvmMajorOf(Info->dlpi_name) : -1;
        if (Major > 0 && F->Major < 0) {
          F->Major = Major;
          F->Name = Info->dlpi_name;
        }
        return 0;
      },
      &F);
  Library = F.Name;
  return F.Major;
}

std::string thisLibraryDir() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&thisLibraryDir), &Info) ||
      !Info.dli_fname)
    return ".";
  std::string Path = Info.dli_fname;
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

__attribute__((constructor)) void loadCudaTidyChecks() {
  std::string HostLibrary;
  int Major = hostLlvmMajor(HostLibrary);
  if (Major > 0 && Major != CUDA_TIDY_LLVM_MAJOR) {
    std::fprintf(stderr,
                 "error: CudaTidy.so was built for clang-tidy %d, but this "
                 "clang-tidy uses LLVM %d (%s); run clang-tidy-%d, or use "
                 "the cuda-tidy driver\n",
                 CUDA_TIDY_LLVM_MAJOR, Major, HostLibrary.c_str(),
                 CUDA_TIDY_LLVM_MAJOR);
    std::fflush(stderr);
    _exit(3);
  }
  std::string Checks = thisLibraryDir() + "/CudaTidyChecks.so";
  if (!dlopen(Checks.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
    std::fprintf(stderr, "error: cannot load the cuda-tidy checks: %s\n",
                 dlerror());
    std::fflush(stderr);
    _exit(3);
  }
}

} // namespace
