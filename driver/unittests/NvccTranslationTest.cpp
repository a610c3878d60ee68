//===- NvccTranslationTest.cpp - Unit tests of the nvcc translation -------===//
//
// Run by test/driver/nvcc-unittests.test. Each case is an nvcc command line
// and the clang flags it must become; the lit tests show the same rules on
// the command lines CMake and bear write.
//
//===----------------------------------------------------------------------===//

#include "CudaToolkit.h"
#include "NvccTranslation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace cudatidy;

static int Failures = 0, Checks = 0;

static void expectEq(const std::string &Got, const std::string &Want,
                     const std::string &What) {
  ++Checks;
  if (Got == Want)
    return;
  ++Failures;
  llvm::errs() << "FAIL: " << What << "\n  want: " << Want
               << "\n  got:  " << Got << "\n";
}

static std::map<std::string, std::string> Files = {
    {"/build/flags.rsp", "-DFROM_RSP -I inc"},
    {"/build/nested.rsp", "@flags.rsp -DNESTED"},
};

static bool readFake(llvm::StringRef Path, std::string &Contents) {
  auto It = Files.find(Path.str());
  if (It == Files.end())
    return false;
  Contents = It->second;
  return true;
}

/// Translates \p Line (split at spaces) and returns the flags after
/// "clang++", space-separated, with the notes after " | ".
static std::string tr(const std::string &Line) {
  llvm::SmallVector<llvm::StringRef> Parts;
  llvm::StringRef(Line).split(Parts, ' ', -1, false);
  std::vector<std::string> Args(Parts.begin(), Parts.end());
  NvccTranslation T = translateNvccCommand(Args, "/build", readFake);
  std::string Out = llvm::join(llvm::ArrayRef(T.Args).drop_front(), " ");
  if (!T.Notes.empty())
    Out += (Out.empty() ? "| " : " | ") + llvm::join(T.Notes, "; ");
  return Out;
}

static void check(const std::string &Line, const std::string &Want) {
  expectEq(tr(Line), Want, Line);
}

int main() {
  // Which compilers are nvcc.
  expectEq(isNvccCompiler("/usr/local/cuda/bin/nvcc") ? "y" : "n", "y", "path");
  expectEq(isNvccCompiler("nvcc") ? "y" : "n", "y", "name");
  expectEq(isNvccCompiler("x86_64-linux-gnu-nvcc") ? "y" : "n", "y", "prefix");
  expectEq(isNvccCompiler("nvcc.exe") ? "y" : "n", "y", ".exe");
  expectEq(isNvccCompiler("/usr/bin/clang++") ? "y" : "n", "n", "clang");
  expectEq(isNvccCompiler("/opt/nvcc/bin/gcc") ? "y" : "n", "n", "folder");

  // Compiler launchers in front of the compiler.
  {
    std::vector<std::string> A = {"/usr/bin/ccache", "nvcc", "-c", "a.cu"};
    expectEq(stripCompilerLauncher(A) ? "y" : "n", "y", "ccache stripped");
    expectEq(llvm::join(A, " "), "nvcc -c a.cu", "ccache nvcc");
    std::vector<std::string> B = {"sccache", "clang++", "a.cu"};
    stripCompilerLauncher(B);
    expectEq(llvm::join(B, " "), "clang++ a.cu", "sccache clang++");
    std::vector<std::string> C = {"nvcc", "a.cu"};
    expectEq(stripCompilerLauncher(C) ? "y" : "n", "n", "no launcher");
  }

  // Architectures: the highest real one.
  expectEq(pickGpuArch({"arch=compute_80,code=[compute_80,sm_80]",
                        "arch=compute_90,code=sm_90"}),
           "sm_90", "gencode list");
  expectEq(pickGpuArch({"sm_75"}), "sm_75", "-arch");
  expectEq(pickGpuArch({"compute_86"}), "sm_86", "virtual only");
  expectEq(pickGpuArch({"sm_90a"}), "sm_90a", "arch-specific");
  expectEq(pickGpuArch({"sm_90", "sm_90a"}), "sm_90a", "a wins a tie");
  expectEq(pickGpuArch({"sm_100f"}), "sm_100", "family");
  expectEq(pickGpuArch({"sm_35"}), "", "too old");
  expectEq(pickGpuArch({"native"}), "", "native");
  expectEq(pickGpuArch({"all-major"}), "", "all-major");
  expectEq(pickGpuArch({"arch=compute_120,code=\"sm_120,compute_120\""}),
           "sm_120", "quoted code list");

  // Every spelling of a value.
  check("nvcc -I inc a.cu", "-Iinc a.cu");
  check("nvcc -Iinc a.cu", "-Iinc a.cu");
  check("nvcc -I=inc a.cu", "-Iinc a.cu");
  check("nvcc --include-path inc a.cu", "-Iinc a.cu");
  check("nvcc --include-path=inc a.cu", "-Iinc a.cu");
  check("nvcc -include-path=inc a.cu", "-Iinc a.cu");
  check("nvcc -I a,b a.cu", "-Ia -Ib a.cu");
  check("nvcc -isystem s a.cu", "-isystem s a.cu");
  check("nvcc -isystem=s a.cu", "-isystem s a.cu");
  check("nvcc --system-include=s a.cu", "-isystem s a.cu");
  check("nvcc -D X=1 a.cu", "-DX=1 a.cu");
  check("nvcc -DX=1,Y a.cu", "-DX=1 -DY a.cu");
  check("nvcc --define-macro=X a.cu", "-DX a.cu");
  check("nvcc -U X --undefine-macro=Y a.cu", "-UX -UY a.cu");
  check("nvcc -include pre.h --pre-include=p2.h a.cu",
        "-include pre.h -include p2.h a.cu");
  check("nvcc -std=c++17 a.cu", "-std=c++17 a.cu");
  check("nvcc -std c++20 a.cu", "-std=c++20 a.cu");
  check("nvcc --std=c++14 a.cu", "-std=c++14 a.cu");
  check("nvcc -x cu a.cpp", "-x cuda a.cpp");
  check("nvcc --x=cu a.cpp", "-x cuda a.cpp");
  check("nvcc -xcu a.cpp", "-x cuda a.cpp");
  check("nvcc -x c++ a.cpp", "-x c++ a.cpp");
  check("nvcc -x ptx a.ptx",
        "| dropped '-x ptx': only cu, c++ and c inputs are analysed; "
        "dropped the input 'a.ptx' (not a source file)");
  check("nvcc -O3 -c a.cu -o a.o", "-O3 -c a.cu");

  // Relocatable device code.
  check("nvcc -rdc=true a.cu", "-fgpu-rdc a.cu");
  check("nvcc -rdc true a.cu", "-fgpu-rdc a.cu");
  check("nvcc --relocatable-device-code=true a.cu", "-fgpu-rdc a.cu");
  check("nvcc -rdc=false a.cu", "a.cu");
  check("nvcc -dc a.cu", "-fgpu-rdc -c a.cu");
  check("nvcc --device-c a.cu", "-fgpu-rdc -c a.cu");
  check("nvcc -dw a.cu", "-c a.cu");

  // Architectures on the command line.
  check("nvcc -gencode arch=compute_80,code=sm_80 a.cu",
        "--cuda-gpu-arch=sm_80 a.cu");
  check("nvcc -gencode=arch=compute_80,code=sm_80 a.cu",
        "--cuda-gpu-arch=sm_80 a.cu");
  check("nvcc --generate-code=arch=compute_75,code=[compute_75,sm_75] "
        "--generate-code arch=compute_86,code=sm_86 a.cu",
        "--cuda-gpu-arch=sm_86 a.cu");
  check("nvcc -arch=sm_70 a.cu", "--cuda-gpu-arch=sm_70 a.cu");
  check("nvcc -arch sm_70 a.cu", "--cuda-gpu-arch=sm_70 a.cu");
  check("nvcc --gpu-architecture=compute_75 --gpu-code=sm_75,compute_75 a.cu",
        "--cuda-gpu-arch=sm_75 a.cu");
  check("nvcc -arch=compute_80 -code=sm_86 a.cu", "--cuda-gpu-arch=sm_86 a.cu");
  check("nvcc -arch=native a.cu", "a.cu");

  // Host compiler flags: parsing ones kept.
  check("nvcc -Xcompiler -Wall,-fPIC,-O2 a.cu",
        "-Wall -fPIC a.cu | dropped the host-compiler flag '-O2'");
  check("nvcc -Xcompiler=-Wextra --compiler-options=-DH=1 "
        "--compiler-options -fno-rtti a.cu",
        "-Wextra -DH=1 -fno-rtti a.cu");
  check("nvcc -Xcompiler -Werror,-Wl,-z a.cu",
        "a.cu | dropped the host-compiler flag '-Werror'; dropped the "
        "host-compiler flag '-Wl'; dropped the host-compiler flag '-z'");
  check("nvcc -forward-unknown-to-host-compiler -Wshadow -fopenmp -march=native a.cu",
        "-Wshadow -fopenmp a.cu | dropped the unknown flag "
        "'-march=native'");
  check("nvcc --frobnicate a.cu", "a.cu | dropped the unknown flag '--frobnicate'");

  // Flags for other tools, and toolchain choices: dropped silently.
  check("nvcc -Xcudafe --diag_suppress=177 -Xptxas -v -Xlinker -rpath=/x "
        "-Xnvlink -s -Xarchive x -Xfatbin -compress-all a.cu",
        "a.cu");
  check("nvcc -Xptxas=-O3 --ptxas-options=-v --linker-options=-s a.cu", "a.cu");
  check("nvcc -ccbin g++ --compiler-bindir=/usr/bin/g++ -ccbin=clang a.cu", "a.cu");
  check("nvcc -lineinfo --generate-line-info -G --device-debug -g a.cu", "a.cu");
  check("nvcc --expt-relaxed-constexpr -expt-relaxed-constexpr "
        "--expt-extended-lambda --extended-lambda -extended-lambda a.cu",
        "a.cu");
  check("nvcc -use_fast_math -ftz=true -prec-div=false -maxrregcount=32 "
        "--diag-suppress 20012 -Wno-deprecated-gpu-targets a.cu",
        "a.cu");
  check("nvcc -MD -MF a.d -MT a.o -M a.cu", "a.cu");
  check("nvcc -L/lib -lcublas -l cudnn -m64 --machine 64 -cudart static a.cu",
        "a.cu");
  check("nvcc -Werror all-warnings,reorder a.cu", "a.cu");
  check("nvcc -Werror=all-warnings a.cu", "a.cu");
  check("nvcc --default-stream per-thread a.cu",
        "-DCUDA_API_PER_THREAD_DEFAULT_STREAM a.cu");
  check("nvcc --default-stream=legacy a.cu", "a.cu");
  check("nvcc -t 8 --threads=4 -split-compile 0 a.cu", "a.cu");

  // Response and options files, relative to the entry's folder.
  check("nvcc @flags.rsp a.cu", "-DFROM_RSP -Iinc a.cu");
  check("nvcc --options-file flags.rsp a.cu", "-DFROM_RSP -Iinc a.cu");
  check("nvcc --options-file=/build/flags.rsp a.cu", "-DFROM_RSP -Iinc a.cu");
  check("nvcc -optf flags.rsp a.cu", "-DFROM_RSP -Iinc a.cu");
  check("nvcc @nested.rsp a.cu", "-DFROM_RSP -Iinc -DNESTED a.cu");
  check("nvcc @missing.rsp a.cu",
        "a.cu | cannot read the options file '/build/missing.rsp'");

  // Values missing at the end, inputs that are not sources.
  check("nvcc a.cu -o", "a.cu | dropped '-o': its value is missing");
  check("nvcc a.cu b.o", "a.cu | dropped the input 'b.o' (not a source file)");

  // The nvcc compatibility flags (docs/nvcc-compat.md): the version
  // macros come from the toolkit's CUDA_VERSION, gcc's omp.h folder last.
  {
    CudaToolkit TK;
    TK.Root = "/opt/cuda";
    TK.Major = 12;
    TK.Minor = 8;
    std::vector<std::string> F = nvccCompatFlags(TK);
    std::string Joined = llvm::join(F, " ");
    expectEq(Joined.substr(0, 115),
             "-Wno-register -iquote /opt/cuda/include -D__CUDACC_VER_MAJOR__=12 "
             "-D__CUDACC_VER_MINOR__=8 -D__CUDACC_VER_BUILD__=0",
             "compat flags");
    std::string OpenMP = hostCompilerOpenMPDir();
    expectEq(OpenMP.empty() ? Joined : F[F.size() - 2] + " " + F.back(),
             OpenMP.empty() ? Joined : "-idirafter " + OpenMP,
             "omp.h folder last");
    TK.Major = 0;
    expectEq(llvm::join(nvccCompatFlags(TK), " ").find("__CUDACC_VER") ==
                     std::string::npos
                 ? "none"
                 : "some",
             "none", "no version macros for an unknown version");
    std::vector<std::string> All = cudaAnalysisFlags(TK, "sm_90");
    expectEq(llvm::is_contained(All, "-Wno-register") ? "y" : "n", "y",
             "analysis flags include the compat flags");
  }

  if (Failures) {
    llvm::errs() << Failures << " of " << Checks << " checks failed\n";
    return 1;
  }
  llvm::outs() << "all " << Checks << " checks passed\n";
  return 0;
}
