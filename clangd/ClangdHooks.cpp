//===- ClangdHooks.cpp - What cuda-clangd changes in clangd ---------------===//
//
// clangd has no extension point for compile commands or for its clang-tidy
// check policy, and installs no headers. cuda-clangd changes four clangd
// functions at link time (CMakeLists.txt links with --wrap=<symbol>: each
// call that clangd makes to <symbol> reaches __wrap_<symbol>, which calls
// the original as __real_<symbol>):
//
// - CommandMangler::operator(), which every compile command passes through
//   (from compile_commands.json, compile_flags.txt or the fallback) before
//   clangd applies the .clangd CompileFlags: the command first goes through
//   the driver's own prepareCommand (driver/CompilationDatabase.h), which
//   translates nvcc commands and adds the CUDA flags to CUDA files. .clangd
//   edits still apply after it.
// - provideDefaultChecks(), the clang-tidy provider that runs after
//   .clang-tidy files and .clangd: it puts cuda-* at the front of the check
//   list, so that any later "-*" or "-cuda-*" still turns them off, as in
//   the driver, whose default list is "-*,cuda-*".
// - isFastTidyCheck(), clangd's table of measured check latencies, which
//   FastCheckFilter reads: cuda-* checks are reported fast (bench/clangd_latency.py,
//   docs/editors.md), so the default Strict filter keeps them. Stock checks
//   get clangd's own answer.
// - versionString(), which --version, the log and the LSP serverInfo show:
//   it names cuda-clangd and its cuda-tidy version before clangd's own.
//
// --cuda-checks=false leaves the last two to clangd.
//
//===----------------------------------------------------------------------===//

#include "CompilationDatabase.h"
#include "CudaToolkit.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>

using clang::tooling::CompileCommand;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory Category("cuda-clangd options");
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("The CUDA toolkit to use (default: "
                                       "CUDA_PATH, CUDA_HOME, nvcc on PATH, "
                                       "/usr/local/cuda)"),
                              cl::init(""), cl::cat(Category));
cl::opt<std::string> CudaGpuArch(
    "cuda-gpu-arch",
    cl::desc("GPU architecture to analyse for when the compile command "
             "names none (default: sm_90)"),
    cl::init("sm_90"), cl::cat(Category));
cl::opt<bool> CudaChecks(
    "cuda-checks",
    cl::desc("Run the cuda-* checks by default, whatever FastCheckFilter "
             "says (default: on; off leaves both to the configuration)"),
    cl::init(true), cl::cat(Category));
cl::opt<bool> NoNvccCompat(
    "no-nvcc-compat",
    cl::desc("Do not force-include the nvcc compatibility header "
             "(docs/nvcc-compat.md)"),
    cl::init(false), cl::cat(Category));

/// The toolkit and the flags CUDA files get, found on first use (after
/// clangd has parsed the options).
struct CudaSetup {
  std::optional<cudatidy::CudaToolkit> Toolkit;
  cudatidy::CommandSettings Settings;
};

const CudaSetup &cudaSetup() {
  static const CudaSetup Setup = [] {
    CudaSetup S;
    // main() passes clangd --resource-dir, which the user may override.
    S.Settings.AddResourceDir = false;
    S.Settings.ExplicitGpuArch = CudaGpuArch.getNumOccurrences() > 0;
    std::string Error;
    S.Toolkit = cudatidy::findCudaToolkit(CudaPath, Error);
    if (!S.Toolkit) {
      llvm::errs() << "cuda-clangd: " << Error
                   << "; CUDA files get no CUDA flags\n";
      return S;
    }
    S.Settings.CudaFlags = cudatidy::cudaAnalysisFlags(
        *S.Toolkit, CudaGpuArch, cudatidy::CudaPass::Device);
    if (NoNvccCompat)
      return S;
    std::string Header = cudatidy::findNvccCompatHeader(
        llvm::sys::fs::getMainExecutable(
            nullptr, reinterpret_cast<void *>(&cudaSetup)));
    if (Header.empty()) {
      llvm::errs() << "cuda-clangd: the nvcc compatibility header is missing "
                      "(expected in share/cuda-tidy/include beside bin/)\n";
      return S;
    }
    S.Settings.CudaFlags.push_back("-include");
    S.Settings.CudaFlags.push_back(Header);
    return S;
  }();
  return Setup;
}

using TidyProvider = llvm::unique_function<void(
    clang::tidy::ClangTidyOptions &, llvm::StringRef) const>;

} // namespace

// clang::clangd::CommandMangler::operator()(CompileCommand &, StringRef)
// const, called as a function whose first argument is the mangler.
#define CUDA_CLANGD_MANGLER                                                    \
  "_ZNK5clang6clangd14CommandManglerclERNS_7tooling14CompileCommandEN4llvm9"  \
  "StringRefE"
void clangdMangleCommand(const void *Mangler, CompileCommand &Command,
                         llvm::StringRef File)
    __asm__("__real_" CUDA_CLANGD_MANGLER);
void cudaMangleCommand(const void *Mangler, CompileCommand &Command,
                       llvm::StringRef File)
    __asm__("__wrap_" CUDA_CLANGD_MANGLER);

void cudaMangleCommand(const void *Mangler, CompileCommand &Command,
                       llvm::StringRef File) {
  if (Command.Filename.empty())
    Command.Filename = File.str();
  const CudaSetup &Setup = cudaSetup();
  cudatidy::prepareCommand(Command, Setup.Toolkit, Setup.Settings,
                           [](const std::string &) {});
  clangdMangleCommand(Mangler, Command, File);
}

// clang::clangd::provideDefaultChecks()
TidyProvider clangdDefaultChecks()
    __asm__("__real__ZN5clang6clangd20provideDefaultChecksEv");
TidyProvider cudaDefaultChecks()
    __asm__("__wrap__ZN5clang6clangd20provideDefaultChecksEv");

TidyProvider cudaDefaultChecks() {
  return [Stock = clangdDefaultChecks()](clang::tidy::ClangTidyOptions &Opts,
                                         llvm::StringRef File) {
    Stock(Opts, File);
    if (!CudaChecks)
      return;
    std::string Rest = Opts.Checks.value_or("");
    Opts.Checks = Rest.empty() ? std::string("cuda-*") : "cuda-*," + Rest;
  };
}

// clang::clangd::isFastTidyCheck(StringRef)
std::optional<bool> clangdIsFastCheck(llvm::StringRef Check)
    __asm__("__real__ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE");
std::optional<bool> cudaIsFastCheck(llvm::StringRef Check)
    __asm__("__wrap__ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE");

std::optional<bool> cudaIsFastCheck(llvm::StringRef Check) {
  if (CudaChecks && Check.starts_with("cuda-"))
    return true;
  return clangdIsFastCheck(Check);
}

// clang::clangd::versionString(), which clangd prints for --version, logs
// at start, and sends as the LSP serverInfo's version: say that this is
// cuda-clangd, which cuda-tidy, and which clangd it is built on.
std::string clangdVersionString()
    __asm__("__real__ZN5clang6clangd13versionStringB5cxx11Ev");
std::string cudaVersionString()
    __asm__("__wrap__ZN5clang6clangd13versionStringB5cxx11Ev");

std::string cudaVersionString() {
  return "cuda-clangd " CUDA_TIDY_VERSION " (the cuda-* checks of cuda-tidy " CUDA_TIDY_VERSION
         "), built on " +
         clangdVersionString();
}
