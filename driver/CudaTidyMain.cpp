//===- CudaTidyMain.cpp - The cuda-tidy driver ----------------------------===//
//
// clang-tidy's engine with the cuda-* checks built in. It takes clang-tidy's
// usual options, reads .clang-tidy files, enables cuda-* by default, finds
// the CUDA toolkit and adds the flags that clang needs to analyse CUDA.
//
// main runs the stages in order: parse the command line, find the toolkit,
// gather the inputs (configuration, files, compilation database), check the
// output and gate options, analyse (Run.h), report.
//
// Exit codes: 0 no findings, 1 findings, 2 a file could not be analysed
// (compile errors, or an internal error), 3 usage, configuration or
// environment errors, 130 interrupted. docs/driver.md describes what it
// does on real projects.
//
//===----------------------------------------------------------------------===//

#include "CheckSelection.h"
#include "CompilationDatabase.h"
#include "ConfigVerification.h"
#include "CrashIsolation.h"
#include "CudaToolkit.h"
#include "FileSelection.h"
#include "Merge.h"
#include "PythonInput.h"
#include "Gates.h"
#include "Report.h"
#include "ResultCache.h"
#include "Run.h"
#include "TensorCallers.h"
#include "TorchApiModel.h"
#include "TorchSupport.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Basic/Version.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <sys/stat.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
namespace cl = llvm::cl;

namespace clang::tidy {
extern volatile int CudaTidyModuleAnchorSource;
[[maybe_unused]] static int CudaTidyModuleAnchorDestination =
    CudaTidyModuleAnchorSource;
} // namespace clang::tidy

namespace {

enum ExitCode {
  ExitClean = 0,
  ExitFindings = 1,
  ExitAnalysisError = 2,
  ExitUsageError = 3,
  ExitTorchMissing = 4, ///< a file includes torch's headers; no torch found
  ExitPythonMissing = 5, ///< a .py file names CUDA; no Python to read it
  ExitInterrupted = 130, ///< Ctrl-C, as shells report SIGINT.
};

cl::OptionCategory Category("cuda-tidy options");

cl::list<std::string> SourcePaths(cl::Positional, cl::desc("<source files>"),
                                  cl::cat(Category));
cl::list<std::string> FilesFrom("files-from",
                                cl::desc("Analyse the files listed in this "
                                         "file, one a line ('-': stdin)"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> PathRegex("path-regex",
                               cl::desc("Analyse only the files whose "
                                        "absolute path this regular "
                                        "expression matches"),
                               cl::value_desc("regex"), cl::cat(Category));
cl::opt<std::string> ShardSpec("shard",
                               cl::desc("Analyse only share I of N of the "
                                        "files (1 <= I <= N), for CI jobs "
                                        "in parallel; see --merge"),
                               cl::value_desc("I/N"), cl::cat(Category));
cl::opt<bool> Merge("merge",
                    cl::desc("Merge the SARIF or JSON reports given as "
                             "arguments (of --shard runs) into one"),
                    cl::init(false), cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build folder that holds "
                                             "compile_commands.json"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::list<std::string> ExtraArgs("extra-arg",
                                cl::desc("Add an argument to the end of the "
                                         "compile command"),
                                cl::cat(Category));
cl::list<std::string> ExtraArgsBefore("extra-arg-before",
                                      cl::desc("Add an argument to the start "
                                               "of the compile command"),
                                      cl::cat(Category));
cl::opt<std::string> Checks("checks",
                            cl::desc("Comma-separated globs of checks to "
                                     "run (default: cuda-*)"),
                            cl::init(""), cl::cat(Category));
cl::opt<std::string> WarningsAsErrors("warnings-as-errors",
                                      cl::desc("Checks whose warnings are "
                                               "errors"),
                                      cl::init(""), cl::cat(Category));
cl::opt<std::string> HeaderFilter("header-filter",
                                  cl::desc("Regex of headers whose findings "
                                           "are shown (default: '.*', every "
                                           "non-system header)"),
                                  cl::init(".*"), cl::cat(Category));
cl::opt<std::string> ExcludeHeaderFilter("exclude-header-filter",
                                         cl::desc("Regex of headers whose "
                                                  "findings are hidden"),
                                         cl::init(""), cl::cat(Category));
cl::opt<bool> SystemHeaders("system-headers",
                            cl::desc("Show findings in system headers"),
                            cl::init(false), cl::cat(Category));
cl::opt<std::string> Config("config",
                            cl::desc("Configuration in YAML/JSON, as in "
                                     ".clang-tidy"),
                            cl::init(""), cl::cat(Category));
cl::opt<std::string> ConfigFile("config-file",
                                cl::desc("Read the configuration from this "
                                         "file"),
                                cl::init(""), cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fixes"),
                  cl::init(false), cl::cat(Category));
cl::opt<bool> FixErrors("fix-errors",
                        cl::desc("Apply fixes even when there are compile "
                                 "errors"),
                        cl::init(false), cl::cat(Category));
cl::opt<bool> FixNotes("fix-notes", cl::desc("Also apply fixes found in notes"),
                       cl::init(false), cl::cat(Category));
cl::opt<std::string> FormatStyle("format-style",
                                 cl::desc("Style for formatting code around "
                                          "applied fixes"),
                                 cl::init("none"), cl::cat(Category));
cl::opt<std::string> ExportFixes("export-fixes",
                                 cl::desc("Write the fixes to this YAML file"),
                                 cl::value_desc("filename"), cl::cat(Category));
cl::opt<bool> ListChecks("list-checks", cl::desc("List the enabled checks"),
                         cl::init(false), cl::cat(Category));
cl::opt<bool> ExplainConfig("explain-config",
                            cl::desc("For each enabled check, say which "
                                     "configuration enables it"),
                            cl::init(false), cl::cat(Category));
cl::opt<bool> VerifyConfig("verify-config",
                           cl::desc("Check the configuration for unknown "
                                    "checks and check options, and exit "
                                    "(0 when it is clean, 3 otherwise)"),
                           cl::init(false), cl::cat(Category));
cl::opt<bool> DumpConfig("dump-config",
                         cl::desc("Print the effective configuration"),
                         cl::init(false), cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("Print no statistics"), cl::init(false),
                    cl::cat(Category));
cl::opt<bool> UseColor("use-color", cl::desc("Use colors in the output"),
                       cl::init(false), cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("The CUDA toolkit to use (default: "
                                       "CUDA_PATH, CUDA_HOME, nvcc on PATH, "
                                       "/usr/local/cuda)"),
                              cl::init(""), cl::cat(Category));
cl::opt<std::string> CudaGpuArch("cuda-gpu-arch",
                                 cl::desc("GPU architecture to analyse for"),
                                 cl::init("sm_90"), cl::cat(Category));
cl::opt<cudatidy::CudaPass> CudaPassOpt(
    "cuda-pass", cl::desc("Which CUDA compilation to analyse"),
    cl::values(clEnumValN(cudatidy::CudaPass::Device, "device",
                          "the device compilation, which also holds host "
                          "code (default)"),
               clEnumValN(cudatidy::CudaPass::Host, "host",
                          "the host compilation; device intrinsics fail to "
                          "parse")),
    cl::init(cudatidy::CudaPass::Device), cl::cat(Category));
cl::opt<bool> Verbose("verbose",
                      cl::desc("Say what was dropped from nvcc command lines, "
                               "which command each file is analysed with, "
                               "and the cache's hits and misses"),
                      cl::init(false), cl::cat(Category));
enum class OutputFormat { Text, Sarif, Json };
cl::opt<OutputFormat> Format(
    "format", cl::desc("How findings are printed"),
    cl::values(clEnumValN(OutputFormat::Text, "text",
                          "clang-style text, which editors parse (default)"),
               clEnumValN(OutputFormat::Sarif, "sarif",
                          "SARIF 2.1.0, for GitHub code scanning"),
               clEnumValN(OutputFormat::Json, "json", "JSON")),
    cl::init(OutputFormat::Text), cl::cat(Category));
cl::opt<std::string> DocsUrl(
    "docs-url",
    cl::desc("Where the cuda-* checks' docs are, for SARIF's helpUri: "
             "<url><check>.md (default: " CUDA_TIDY_DOCS_URL ")"),
    cl::init(CUDA_TIDY_DOCS_URL), cl::value_desc("url"), cl::cat(Category));
cl::opt<std::string> OutputFile("output-file",
                                cl::desc("Write the SARIF or JSON report to "
                                         "this file instead of stdout"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<unsigned> Jobs("j",
                       cl::desc("Files analysed in parallel (default: the "
                                "number of cores)"),
                       cl::init(0), cl::Prefix, cl::cat(Category));
cl::opt<std::string> BaselineFile(
    "baseline",
    cl::desc("Report only findings that this baseline file does not hold"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> WriteBaseline(
    "write-baseline",
    cl::desc("Record the findings in this baseline file and exit 0 (2 if a "
             "file could not be analysed)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> DiffBase(
    "diff-base",
    cl::desc("Report only findings on lines changed since this git revision "
             "(working tree included); '-' reads a unified diff from stdin"),
    cl::value_desc("rev"), cl::cat(Category));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Where results are cached per file (default: "
             "$CUDA_TIDY_CACHE_DIR, $XDG_CACHE_HOME/cuda-tidy or "
             "~/.cache/cuda-tidy; 'off' disables the cache)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoPrefixCache(
    "no-prefix-cache",
    cl::desc("Parse the implicit CUDA prefix (clang's runtime wrapper, the "
             "compatibility header) in every file instead of precompiling "
             "it once (docs/prefix.md)"),
    cl::init(false), cl::cat(Category));
cl::opt<bool> NoCache("no-cache", cl::desc("Neither read nor write the cache"),
                      cl::init(false), cl::cat(Category));
cl::opt<bool> NoNvccCompat(
    "no-nvcc-compat",
    cl::desc("Do not force-include the nvcc compatibility header, nor join "
             "nvcc's spaced launch chevrons ('<< <') (docs/nvcc-compat.md)"),
    cl::init(false), cl::cat(Category));
cl::opt<std::string> TorchInclude(
    "torch-include",
    cl::desc("PyTorch's include folder (the one holding torch/extension.h), "
             "instead of finding it through Python"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> CupyInclude(
    "cupy-include",
    cl::desc("CuPy's include folder (the one holding cupy/carray.cuh), for "
             "Python kernels that need CuPy's headers, instead of locating "
             "the cupy package through Python (docs/python.md)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> TensorCallersFile(
    "tensor-callers",
    cl::desc("Keep the project's summary of what callers in other files pass "
             "for tensor parameters in this file (read first if it exists, "
             "written after the run); the files that bind functions to "
             "Python are analysed first, and the result cache is not used "
             "(docs/torch.md, \"Across files\")"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> NoTensorCallers(
    "no-tensor-callers",
    cl::desc("With -p, do not record what the files that bind functions to "
             "Python pass to functions of other files (docs/torch.md, "
             "\"Across files\"): each file is analysed alone and may come "
             "from the result cache"),
    cl::init(false), cl::cat(Category));
cl::opt<bool> PrintCudaFlags("print-cuda-flags",
                             cl::desc("Print the flags added to CUDA files "
                                      "(pass them after -- to the plugin)"),
                             cl::init(false), cl::cat(Category));
cl::opt<std::string> PythonOpt(
    "python",
    cl::desc("The Python that reads .py files and locates PyTorch for files "
             "that include torch, ATen or c10 headers (default: "
             "$CUDA_TIDY_PYTHON, else python3 on PATH; torch is located, not "
             "imported; docs/python.md, docs/torch.md)"),
    cl::value_desc("interpreter"), cl::cat(Category));
cl::opt<std::string> InjectCrash(
    "inject-crash",
    cl::desc("Test only: crash (segv, abort, trap, stack-overflow) in the "
             "analysis of files whose path contains SUBSTRING"),
    cl::value_desc("kind:substring"), cl::Hidden, cl::cat(Category));

/// load_inline's CUDA sources include torch's headers: when a Python input
/// calls load_inline and CUDA_TIDY_TORCH_INCLUDE does not already say where
/// they are, tell the Python reader where the located torch keeps them
/// (docs/python.md). Runs before any analysis thread starts.
void exportTorchIncludeForLoadInline(const std::vector<std::string> &Files) {
  if (llvm::sys::Process::GetEnv("CUDA_TIDY_TORCH_INCLUDE"))
    return;
  bool UsesLoadInline = llvm::any_of(Files, [](const std::string &F) {
    if (!cudatidy::isPythonFileName(F))
      return false;
    auto Text = llvm::MemoryBuffer::getFile(F);
    return Text && (*Text)->getBuffer().contains("load_inline");
  });
  std::string Why;
  const cudatidy::TorchInstall *Torch =
      UsesLoadInline ? cudatidy::findTorch(Why) : nullptr;
  if (!Torch || Torch->IncludeDirs.empty())
    return; // the reader then skips those sources and --verbose says why
  ::setenv("CUDA_TIDY_TORCH_INCLUDE",
           llvm::join(Torch->IncludeDirs, ":").c_str(), /*overwrite=*/0);
}

/// The nvcc compatibility header that CUDA files get with -include, or ""
/// (--no-nvcc-compat). Set once in main.
std::string CompatHeader;

/// The flags cuda-tidy adds to a CUDA file's command.
std::vector<std::string> cudaFlags(const cudatidy::CudaToolkit &TK) {
  std::vector<std::string> Flags =
      cudatidy::cudaAnalysisFlags(TK, CudaGpuArch, CudaPassOpt);
  if (!CompatHeader.empty()) {
    Flags.push_back("-include");
    Flags.push_back(CompatHeader);
  }
  return Flags;
}

/// Finds the compatibility header (cudatidy::findNvccCompatHeader).
std::string findCompatHeader(const char *Argv0) {
  return cudatidy::findNvccCompatHeader(llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findCompatHeader)));
}

/// share/cuda-tidy/<Folder>/<Name> beside bin/, or "".
std::string findSharedFile(const char *Argv0, StringRef Folder,
                           StringRef Name) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findCompatHeader));
  llvm::SmallString<256> P(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(P, "share", "cuda-tidy", Folder, Name);
  return llvm::sys::fs::exists(P) ? std::string(P) : std::string();
}

void error(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "cuda-tidy") << Message << "\n";
}


std::unique_ptr<ClangTidyOptionsProvider>
createOptionsProvider(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  ClangTidyGlobalOptions GlobalOptions;
  ClangTidyOptions DefaultOptions;
  DefaultOptions.Checks = cudatidy::CudaTidyDefaultChecks.str();
  DefaultOptions.WarningsAsErrors = "";
  DefaultOptions.HeaderFilterRegex = HeaderFilter;
  DefaultOptions.ExcludeHeaderFilterRegex = ExcludeHeaderFilter;
  DefaultOptions.SystemHeaders = SystemHeaders;
  DefaultOptions.FormatStyle = FormatStyle;
  DefaultOptions.User = llvm::sys::Process::GetEnv("USER");

  ClangTidyOptions OverrideOptions;
  if (Checks.getNumOccurrences())
    OverrideOptions.Checks = Checks;
  if (WarningsAsErrors.getNumOccurrences())
    OverrideOptions.WarningsAsErrors = WarningsAsErrors;
  if (HeaderFilter.getNumOccurrences())
    OverrideOptions.HeaderFilterRegex = HeaderFilter;
  if (ExcludeHeaderFilter.getNumOccurrences())
    OverrideOptions.ExcludeHeaderFilterRegex = ExcludeHeaderFilter;
  if (SystemHeaders.getNumOccurrences())
    OverrideOptions.SystemHeaders = SystemHeaders;
  if (FormatStyle.getNumOccurrences())
    OverrideOptions.FormatStyle = FormatStyle;
  if (UseColor.getNumOccurrences())
    OverrideOptions.UseColor = UseColor;
  if (!InjectCrash.empty())
    // Test only: the crashing check runs after the configured ones.
    OverrideOptions.Checks =
        (OverrideOptions.Checks ? *OverrideOptions.Checks + "," : "") +
        cudatidy::InjectedCrashCheck.str();

  auto FromText = [&](StringRef Text, StringRef Source)
      -> std::unique_ptr<ClangTidyOptionsProvider> {
    llvm::ErrorOr<ClangTidyOptions> Parsed =
        parseConfiguration(llvm::MemoryBufferRef(Text, Source));
    if (!Parsed) {
      error("invalid configuration in " + Source + ": " +
            Parsed.getError().message());
      return nullptr;
    }
    return cudatidy::addCudaChecks(
        std::make_unique<ConfigOptionsProvider>(
            std::move(GlobalOptions),
            ClangTidyOptions::getDefaults().merge(DefaultOptions, 0),
            std::move(*Parsed), std::move(OverrideOptions), std::move(FS)),
        ConfigFile);
  };
  if (!ConfigFile.empty()) {
    if (!Config.empty()) {
      error("-config-file and -config cannot be used together");
      return nullptr;
    }
    auto Text = llvm::MemoryBuffer::getFile(ConfigFile);
    if (!Text) {
      error("cannot read the config file '" + ConfigFile +
            "': " + Text.getError().message());
      return nullptr;
    }
    return FromText((*Text)->getBuffer(), ConfigFile);
  }
  if (!Config.empty())
    return FromText(Config, "<command-line-config>");
  return cudatidy::addCudaChecks(
      std::make_unique<FileOptionsProvider>(
          std::move(GlobalOptions), std::move(DefaultOptions),
          std::move(OverrideOptions), std::move(FS)),
      "");
}

/// Reports inputs that cannot be analysed; returns the ones that can.
std::vector<std::string> validateInputs(const std::vector<std::string> &Paths,
                                        bool &Bad) {
  std::vector<std::string> Valid;
  for (const std::string &Path : Paths) {
    llvm::SmallString<256> Abs(Path);
    llvm::sys::fs::make_absolute(Abs);
    if (llvm::sys::fs::is_directory(Abs)) {
      error("'" + Path +
            "' is a directory; give source files, or -p <build dir> with a "
            "compilation database");
      Bad = true;
    } else if (!llvm::sys::fs::exists(Abs)) {
      error("no such file: '" + Path + "'");
      Bad = true;
    } else if (!cudatidy::isSupportedFileName(Path) &&
               !cudatidy::isPythonFileName(Path)) {
      error("'" + Path +
            "' is not a CUDA, C, C++ or Python source file (expected .cu, "
            ".cuh, .cpp, .cc, .cxx, .c, a header or .py)");
      Bad = true;
    } else {
      Valid.push_back(std::string(Abs));
    }
  }
  return Valid;
}


/// What the driver gathers before it analyses: the toolkit, the options,
/// the files and their commands, the changed lines.
struct Session {
  /// The compile command after "--", if any.
  std::unique_ptr<CompilationDatabase> Fixed;
  /// The project's database, until S.Compilations wraps it.
  std::unique_ptr<CompilationDatabase> Database;
  bool DatabaseLoaded = false;
  /// -p without files: every database entry is analysed.
  bool WholeDatabase = false;
  std::optional<cudatidy::CudaToolkit> Toolkit;
  std::string ToolkitError;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS;
  std::unique_ptr<ClangTidyOptionsProvider> Provider;
  std::vector<std::string> Files;
  llvm::SmallString<256> FirstFile;
  bool BadInput = false;
  std::unique_ptr<cudatidy::CudaCompilationDatabase> Compilations;
  cudatidy::ChangedLines Changed;
  /// The Python that reads .py files, when one may hold CUDA.
  std::string Python;
  /// Its readers, started early: the first file is read while the driver
  /// prepares the run.
  std::unique_ptr<cudatidy::PythonReaderPool> PythonReaders;
  const char *Argv0 = "";
};

/// A stage's verdict: an exit code to stop with, or none to go on.
using MaybeExit = std::optional<int>;

/// Parses the command line: "--" and cuda-tidy's options.
MaybeExit parseCommandLine(int argc, const char **argv, Session &S) {
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "cuda-tidy " << CUDA_TIDY_VERSION << " (" << getClangFullVersion()
       << ")\n";
  });

  // Everything after "--" is the compile command for files without a
  // compilation database entry.
  std::string FixedError;
  S.Fixed = FixedCompilationDatabase::loadFromCommandLine(argc, argv,
                                                          FixedError);
  if (!FixedError.empty()) {
    error(FixedError);
    return ExitUsageError;
  }
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "cuda-tidy: finds bugs in CUDA programs.\n\n"
          "Exit codes: 0 no findings, 1 findings, 2 a file could not be "
          "analysed, 3 usage or configuration error, 4 a file includes "
          "PyTorch's headers and no PyTorch was found, 130 interrupted.\n"
          "Docs: docs/driver.md (nvcc databases, output formats, -j, "
          "baselines, cache), docs/ci.md, docs/editors.md.\n",
          &llvm::errs()))
    return ExitUsageError;
  if (!CupyInclude.empty()) {
    // The Python reader reads it (CUDA_TIDY_CUPY_INCLUDE).
    if (!llvm::sys::fs::exists(CupyInclude + "/cupy/carray.cuh")) {
      error("--cupy-include '" + CupyInclude +
            "' holds no cupy/carray.cuh (name the folder that holds cupy/, "
            "as cupy/_core/include of an installed CuPy)");
      return ExitUsageError;
    }
    ::setenv("CUDA_TIDY_CUPY_INCLUDE", CupyInclude.c_str(), /*overwrite=*/1);
  }
  if (!InjectCrash.empty())
    if (std::string Err = cudatidy::setUpCrashInjection(InjectCrash);
        !Err.empty()) {
      error(Err);
      return ExitUsageError;
    }
  return std::nullopt;
}

/// Finds the CUDA toolkit and the compatibility header; answers
/// --print-cuda-flags.
MaybeExit findToolkit(const char *Argv0, Session &S) {
  S.Toolkit = cudatidy::findCudaToolkit(CudaPath, S.ToolkitError);
  if (!NoNvccCompat) {
    CompatHeader = findCompatHeader(Argv0);
    if (CompatHeader.empty())
      llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
          << "the nvcc compatibility header is missing (expected in "
             "share/cuda-tidy/include beside bin/); code that relies on "
             "nvcc's host min/max or __stcs may not parse\n";
  }
  if (!PrintCudaFlags)
    return std::nullopt;
  if (!S.Toolkit) {
    error(S.ToolkitError);
    return ExitUsageError;
  }
  std::string Line = "-xcuda";
  for (const std::string &F : cudaFlags(*S.Toolkit))
    Line += " " + F;
  llvm::outs() << Line << "\n";
  return ExitClean;
}

/// "no checks enabled", naming the configuration that disabled them.
void reportNoChecks(Session &S) {
  std::string Source =
      cudatidy::sourceThatDisabledAllChecks(*S.Provider, S.FirstFile);
  if (llvm::sys::path::is_absolute(Source))
    Source = "the configuration file '" + Source + "'";
  error("no checks enabled" +
        (Source.empty() ? std::string()
                        : "; they were disabled by " + Source) +
        "; see --list-checks and -checks");
}

/// Answers --list-checks and --dump-config for the first file's options.
MaybeExit answerConfigQueries(Session &S, ClangTidyOptions &Effective,
                              const std::vector<std::string> &Enabled) {
  if (VerifyConfig) {
    std::vector<std::string> Problems = cudatidy::unknownConfigNames(
        *S.Provider,
        S.Files.empty() ? std::vector<std::string>{std::string(S.FirstFile)}
                        : S.Files,
        /*Checks=*/true);
    for (const std::string &P : Problems)
      error(P);
    if (Enabled.empty())
      reportNoChecks(S);
    if (Problems.empty() && !Enabled.empty())
      llvm::outs() << "No config errors detected.\n";
    return Problems.empty() && !Enabled.empty() ? ExitClean : ExitUsageError;
  }
  if (Enabled.empty()) {
    // A misspelt name is the likely cause: name it first.
    for (const std::string &P : cudatidy::unknownConfigNames(
             *S.Provider,
             S.Files.empty()
                 ? std::vector<std::string>{std::string(S.FirstFile)}
                 : S.Files,
             /*Checks=*/true))
      llvm::WithColor::warning(llvm::errs(), "cuda-tidy") << P << "\n";
    reportNoChecks(S);
    return ExitUsageError;
  }
  if (ListChecks) {
    llvm::outs() << "Enabled checks:";
    for (const std::string &C : Enabled)
      llvm::outs() << "\n    " << C;
    llvm::outs() << "\n\n";
    return ExitClean;
  }
  if (ExplainConfig) {
    cudatidy::explainConfig(*S.Provider, S.FirstFile, Enabled, llvm::outs());
    return ExitClean;
  }
  if (DumpConfig) {
    Effective.CheckOptions = getCheckOptions(Effective, false, false);
    ClangTidyOptions ToDump =
        ClangTidyOptions::getDefaults().merge(Effective, 0);
    filterCheckOptions(ToDump, Enabled);
    if (ToDump.Checks)
      ToDump.Checks = cudatidy::simplifyChecks(*ToDump.Checks);
    llvm::outs() << configurationAsText(ToDump) << "\n";
    return ExitClean;
  }
  return std::nullopt;
}

/// Files that include torch's headers need its include folders: from their
/// command, or from the torch found through Python (driver/TorchSupport.h).
MaybeExit checkTorchFound(Session &S) {
  std::vector<std::string> Missing;
  for (const std::string &F : S.Files) {
    std::vector<CompileCommand> Commands =
        S.Compilations->getCompileCommands(F);
    if (llvm::any_of(Commands, [](const CompileCommand &C) {
          return cudatidy::commandIncludesTorch(C) &&
                 !cudatidy::namesTorchInclude(C.CommandLine);
        }))
      Missing.push_back(F);
  }
  if (Missing.empty())
    return std::nullopt;
  std::string Why;
  cudatidy::findTorch(Why);
  error("'" + Missing.front() + "'" +
        (Missing.size() > 1
             ? " and " + std::to_string(Missing.size() - 1) + " other files"
             : std::string()) +
        (Missing.size() > 1 ? " include" : " includes") +
        " PyTorch's headers, and PyTorch was not found: " + Why);
  return ExitTorchMissing;
}

/// Loads the project's database ("--", then -p, then compile_commands.json
/// found upwards from \p FirstFile) into S.Database, once.
MaybeExit loadDatabase(Session &S, StringRef FirstFile) {
  if (S.DatabaseLoaded)
    return std::nullopt;
  S.DatabaseLoaded = true;
  S.Database = std::move(S.Fixed);
  if (S.Database)
    return std::nullopt;
  std::string Err;
  S.Database = cudatidy::loadProjectDatabase(BuildPath, FirstFile, Err);
  if (!Err.empty()) {
    error(Err);
    return ExitUsageError;
  }
  return std::nullopt;
}

/// The paths to analyse: the command line's and --files-from's, or else,
/// with -p, every entry of the database.
MaybeExit listPaths(Session &S, std::vector<std::string> &Paths) {
  Paths.assign(SourcePaths.begin(), SourcePaths.end());
  for (const std::string &List : FilesFrom)
    if (std::string Err = cudatidy::readFileList(List, Paths); !Err.empty()) {
      error(Err);
      return ExitUsageError;
    }
  if (!Paths.empty() || SourcePaths.getNumOccurrences() ||
      FilesFrom.getNumOccurrences() || BuildPath.empty())
    return std::nullopt;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  if (MaybeExit Exit = loadDatabase(S, Cwd))
    return Exit;
  size_t Skipped = 0;
  if (S.Database)
    Paths = cudatidy::databaseFiles(*S.Database, Skipped);
  S.WholeDatabase = true;
  // Python files hold kernels no database lists (docs/python.md, "Whole
  // projects").
  size_t PythonFiles = cudatidy::addProjectPythonFiles(Cwd, BuildPath, Paths);
  if (PythonFiles && !Quiet)
    llvm::errs() << "cuda-tidy: note: " << PythonFiles
                 << " Python files under '" << Cwd
                 << "' name CuPy, PyCUDA or load_inline and are analysed\n";
  if (Paths.empty()) {
    error("the compilation database in '" + BuildPath +
          "' lists no C, C++ or CUDA source file");
    return ExitUsageError;
  }
  if (Skipped && !Quiet)
    llvm::errs() << "cuda-tidy: note: " << Skipped
                 << " database entries are not C, C++ or CUDA sources and "
                    "are not analysed\n";
  return std::nullopt;
}

/// Narrows the paths by --path-regex and --shard, saying what is left.
MaybeExit selectPaths(std::vector<std::string> &Paths) {
  size_t Listed = Paths.size();
  if (PathRegex.getNumOccurrences())
    if (std::string Err = cudatidy::filterPaths(PathRegex, Paths);
        !Err.empty()) {
      error(Err);
      return ExitUsageError;
    }
  if (ShardSpec.empty()) {
    if (Paths.empty() && Listed)
      llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
          << "--path-regex '" << PathRegex << "' matches none of the "
          << Listed << " files; nothing is analysed\n";
    return std::nullopt;
  }
  cudatidy::Shard Shard;
  if (std::string Err = cudatidy::parseShard(ShardSpec, Shard); !Err.empty()) {
    error(Err);
    return ExitUsageError;
  }
  size_t Total = Paths.size();
  Paths = cudatidy::shardOf(Paths, Shard);
  if (!Quiet)
    llvm::errs() << "cuda-tidy: note: shard " << Shard.Index << "/"
                 << Shard.Count << ": " << Paths.size() << " of " << Total
                 << " files\n";
  return std::nullopt;
}

/// The configuration, the input files, and the compilation database.
MaybeExit gatherInputs(Session &S) {
  S.BaseFS = new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem());
  S.Provider = createOptionsProvider(S.BaseFS);
  if (!S.Provider)
    return ExitUsageError;

  std::vector<std::string> Paths;
  if (MaybeExit Exit = listPaths(S, Paths))
    return Exit;
  bool Listed = !Paths.empty();
  if (MaybeExit Exit = selectPaths(Paths))
    return Exit;
  S.Files = validateInputs(Paths, S.BadInput);
  S.FirstFile = S.Files.empty() ? StringRef("dummy.cu")
                                : StringRef(S.Files.front());
  llvm::sys::fs::make_absolute(S.FirstFile);
  ClangTidyOptions Effective = S.Provider->getOptions(S.FirstFile);
  std::vector<std::string> Enabled = getCheckNames(Effective, false, false);
  if (MaybeExit Exit = answerConfigQueries(S, Effective, Enabled))
    return Exit;
  if (!Listed) {
    error("no input files; usage: cuda-tidy [options] <file.cu>... [-- "
          "<compile flags>], or cuda-tidy -p <build dir> for every file of "
          "its compilation database");
    return ExitUsageError;
  }
  if (S.Files.empty() && S.BadInput)
    return ExitUsageError;
  // A misspelt option or check name would be ignored: say so.
  for (const std::string &P :
       cudatidy::unknownConfigNames(*S.Provider, S.Files, /*Checks=*/true))
    llvm::WithColor::warning(llvm::errs(), "cuda-tidy") << P << "\n";

  // Python files that may hold CUDA need a Python to read them, and the
  // toolkit to analyse their kernels; the others cost a byte scan.
  bool PythonCuda = llvm::any_of(S.Files, [](const std::string &F) {
    return cudatidy::isPythonFileName(F) && cudatidy::mayHoldCuda(F);
  });
  if (PythonCuda) {
    std::string Why;
    S.Python = cudatidy::findPython(PythonOpt, Why);
    if (S.Python.empty()) {
      error(Why);
      return ExitPythonMissing;
    }
    exportTorchIncludeForLoadInline(S.Files);
  }
  if (llvm::any_of(S.Files, cudatidy::isPythonFileName)) {
    S.PythonReaders = std::make_unique<cudatidy::PythonReaderPool>(
        S.Python, cudatidy::findPythonHelper(S.Argv0));
    for (const std::string &F : S.Files)
      if (PythonCuda && cudatidy::isPythonFileName(F) &&
          S.PythonReaders->prefetch(F))
        break;
  }
  bool NeedsToolkit = PythonCuda || llvm::any_of(S.Files, [](const std::string &F) {
    return cudatidy::isCudaFileName(F);
  });
  if (NeedsToolkit && !S.Toolkit) {
    error(S.ToolkitError);
    return ExitUsageError;
  }

  // The compilation database: "--", then -p, then compile_commands.json
  // found upwards from the first file; files it lacks get a default command.
  if (MaybeExit Exit = loadDatabase(S, S.FirstFile))
    return Exit;
  cudatidy::CommandSettings Commands;
  Commands.ExtraArgsBefore = ExtraArgsBefore;
  Commands.ExtraArgs = ExtraArgs;
  if (S.Toolkit)
    Commands.CudaFlags = cudaFlags(*S.Toolkit);
  Commands.ExplicitGpuArch = CudaGpuArch.getNumOccurrences() > 0;
  Commands.Verbose = Verbose;
  S.Compilations = std::make_unique<cudatidy::CudaCompilationDatabase>(
      std::move(S.Database), S.Toolkit, std::move(Commands));
  return checkTorchFound(S);
}

/// Refuses combinations of output and gate options that cannot work, and
/// reads the changed lines before the analysis, so that a bad revision
/// fails at once.
MaybeExit checkOutputAndGates(Session &S) {
  if (Format != OutputFormat::Text && (Fix || FixErrors || FixNotes)) {
    error("-fix cannot be combined with --format=sarif or --format=json; "
          "run once with -fix, then again for the report");
    return ExitUsageError;
  }
  if (!WriteBaseline.empty() && !BaselineFile.empty()) {
    error("--baseline and --write-baseline cannot be used together");
    return ExitUsageError;
  }
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  if (DiffBase == "-") {
    auto Diff = llvm::MemoryBuffer::getSTDIN();
    if (!Diff) {
      error("cannot read a diff from stdin: " + Diff.getError().message());
      return ExitUsageError;
    }
    S.Changed = cudatidy::parseUnifiedDiff((*Diff)->getBuffer(), Cwd);
  } else if (!DiffBase.empty()) {
    if (std::string Err = cudatidy::changedLinesSince(DiffBase, Cwd, S.Changed);
        !Err.empty()) {
      error("--diff-base: " + Err);
      return ExitUsageError;
    }
  }
  if (!OutputFile.empty() && Format == OutputFormat::Text) {
    error("--output-file needs --format=sarif or --format=json");
    return ExitUsageError;
  }
  return std::nullopt;
}

/// --merge: one report from the reports given; exit code as for a run.
int mergeReports() {
  std::optional<cudatidy::ReportKind> Kind;
  if (Format.getNumOccurrences() && Format == OutputFormat::Text) {
    error("--merge merges SARIF or JSON reports, not text");
    return ExitUsageError;
  }
  if (Format.getNumOccurrences())
    Kind = Format == OutputFormat::Sarif ? cudatidy::ReportKind::Sarif
                                         : cudatidy::ReportKind::Json;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  cudatidy::MergeSummary Summary;
  std::vector<std::string> Inputs(SourcePaths.begin(), SourcePaths.end());
  if (std::string Err = cudatidy::mergeReports(Inputs, Kind, OS, Summary);
      !Err.empty()) {
    error("--merge: " + Err);
    return ExitUsageError;
  }
  std::error_code EC;
  llvm::raw_fd_ostream File(OutputFile.empty() ? std::string("-") : OutputFile, EC);
  if (EC) {
    error("cannot write '" + OutputFile + "': " + EC.message());
    return ExitUsageError;
  }
  File << Out;
  if (!Quiet)
    llvm::errs() << Summary.Findings << " finding"
                 << (Summary.Findings == 1 ? "" : "s") << " in "
                 << Inputs.size() << " reports.\n";
  return Summary.AnalysisErrors ? ExitAnalysisError
         : Summary.Findings     ? ExitFindings
                                : ExitClean;
}

/// Analyses every file (Run.h), through the result cache.
/// Whether a file binds functions to Python (a PyTorch extension's
/// bindings).
bool bindsToPython(const std::string &File) {
  auto Text = llvm::MemoryBuffer::getFile(File);
  return Text && ((*Text)->getBuffer().contains("PYBIND11_MODULE") ||
                  (*Text)->getBuffer().contains("TORCH_LIBRARY"));
}

/// Whether a file registers functions in a device registry
/// (TORCH_DEVICE_REGISTRY rows: mmcv's cudabind.cpp): its registered
/// functions read what the dispatch files pass.
bool registersDeviceImplementations(const std::string &File) {
  auto Text = llvm::MemoryBuffer::getFile(File);
  if (!Text)
    return false;
  for (llvm::StringRef Macro :
       clang::tidy::cuda::TorchApiModel::deviceRegistrationMacros())
    if ((*Text)->getBuffer().contains(Macro))
      return true;
  return false;
}

/// Whether the run records the tensor callers of the binding files first
/// (docs/torch.md, "Across files"): with --tensor-callers, and by default
/// in a project run (-p) whose files include a binding file and another
/// CUDA file, where a launcher's checks may sit in the bindings.
bool tensorCallersInUse(const Session &S) {
  static std::optional<bool> Decided;
  if (Decided)
    return *Decided;
  if (!TensorCallersFile.empty())
    return *(Decided = true);
  if (NoTensorCallers || BuildPath.empty())
    return *(Decided = false);
  bool Binding = false, OtherCuda = false;
  for (const std::string &F : S.Files) {
    if (bindsToPython(F))
      Binding = true;
    else if (StringRef(F).ends_with(".cu") || StringRef(F).ends_with(".cuh"))
      OtherCuda = true;
    if (Binding && OtherCuda)
      break;
  }
  return *(Decided = Binding && OtherCuda);
}

cudatidy::RunResults analyse(const char *Argv0, Session &S) {
  std::optional<cudatidy::ResultCache> Cache;
  std::string Dir =
      CacheDir.getNumOccurrences() ? CacheDir : cudatidy::defaultCacheDir();
  std::optional<cudatidy::PrefixCache> Prefix;
  if (!NoPrefixCache)
    if (std::string PrefixDir = cudatidy::prefixCacheDir(Dir);
        !PrefixDir.empty())
      Prefix.emplace(PrefixDir);
  if (!NoCache) {
    if (!Dir.empty() && Dir != "off")
      Cache.emplace(Dir, cudatidy::toolIdentity(llvm::sys::fs::getMainExecutable(
                             Argv0, reinterpret_cast<void *>(&error))));
  }
  cudatidy::RunSettings Settings;
  Settings.MakeOptionsProvider = createOptionsProvider;
  Settings.Jobs = Jobs;
  Settings.FixNotes = FixNotes;
  Settings.JoinLaunchChevrons = !NoNvccCompat;
  Settings.ShowProgress =
      !Quiet && llvm::sys::Process::StandardErrIsDisplayed();
  Settings.Verbose = Verbose;
  Settings.Cache = Cache ? &*Cache : nullptr;
  Settings.Prefix = Prefix ? &*Prefix : nullptr;
  Settings.PythonReaders = S.PythonReaders.get();
  if (!tensorCallersInUse(S))
    return cudatidy::analyseFiles(S.Files, *S.Compilations, Settings);
  // Tensor facts across files: the callers' files first. A file's results
  // then depend on other files, so none come from or go to the cache.
  // Four phases: the binding files; then the other host files (not CUDA),
  // which may define a bound function and pass its tensors on to a
  // launcher (mmcv's pybind.cpp -> nms_rotated.cpp -> nms_rotated_cuda.cu)
  // or dispatch them through a device registry; then the host files that
  // register implementations in one (mmcv's cudabind.cpp, whose registered
  // functions call the launchers); then the rest.
  Settings.Cache = nullptr;
  constexpr unsigned Phases = 4;
  std::vector<std::string> Phase[Phases];
  std::vector<std::pair<unsigned, size_t>> Where;
  for (const std::string &F : S.Files) {
    StringRef Ext = llvm::sys::path::extension(F);
    bool Host = Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx";
    unsigned I = bindsToPython(F)                           ? 0
                 : !Host                                    ? 3
                 : registersDeviceImplementations(F)        ? 2
                                                            : 1;
    Where.push_back({I, Phase[I].size()});
    Phase[I].push_back(F);
  }
  cudatidy::RunResults Part[Phases];
  // The binding files record; the host files of each later phase record
  // apart (staged), so that each reads only the records of the phases
  // before it; the CUDA files record nothing: no file's results depend on
  // the order in which they run.
  clang::tidy::cuda::TensorCallers &Callers =
      clang::tidy::cuda::TensorCallers::get();
  bool Stopped = false;
  for (unsigned I = 0; I < Phases; ++I) {
    Callers.setRecording(I < 3);
    Callers.setStaging(I == 1 || I == 2);
    if (!Phase[I].empty() && !Stopped)
      Part[I] = cudatidy::analyseFiles(Phase[I], *S.Compilations, Settings);
    Stopped |= Part[I].Interrupted;
    if (I == 1 || I == 2)
      Callers.commitStaged();
  }
  Callers.setStaging(false);
  cudatidy::RunResults All;
  for (const auto &[P, Index] : Where)
    All.PerFile.push_back(Index < Part[P].PerFile.size()
                              ? std::move(Part[P].PerFile[Index])
                              : std::vector<ClangTidyError>());
  for (cudatidy::RunResults &R : Part) {
    All.Crashes.insert(All.Crashes.end(), R.Crashes.begin(), R.Crashes.end());
    All.Suppressed.ErrorsDisplayed += R.Suppressed.ErrorsDisplayed;
    All.Suppressed.ErrorsIgnoredCheckFilter +=
        R.Suppressed.ErrorsIgnoredCheckFilter;
    All.Suppressed.ErrorsIgnoredNOLINT += R.Suppressed.ErrorsIgnoredNOLINT;
    All.Suppressed.ErrorsIgnoredNonUserCode +=
        R.Suppressed.ErrorsIgnoredNonUserCode;
    All.Suppressed.ErrorsIgnoredLineFilter +=
        R.Suppressed.ErrorsIgnoredLineFilter;
    All.Interrupted |= R.Interrupted;
    All.FilesAnalysed += R.FilesAnalysed;
  }
  return All;
}

/// What the gates did to the findings.
struct GateOutcome {
  std::vector<std::string> Notes;
  /// --write-baseline: the findings are accepted.
  bool AcceptFindings = false;
};

/// CI gates: record or subtract a baseline, keep changed lines only.
MaybeExit applyGates(const Session &S, std::vector<ClangTidyError> &Errors,
                     cudatidy::LineIndex &Lines, GateOutcome &Out) {
  if (!WriteBaseline.empty()) {
    if (std::string Err = cudatidy::writeBaseline(WriteBaseline, Errors, Lines);
        !Err.empty()) {
      error(Err);
      return ExitUsageError;
    }
    Out.AcceptFindings = true;
    Out.Notes.push_back("The findings were written to the baseline '" +
                        WriteBaseline + "'.");
  }
  if (!BaselineFile.empty()) {
    size_t Suppressed = 0;
    if (std::string Err = cudatidy::applyBaseline(BaselineFile, Errors, Lines,
                                                  Suppressed);
        !Err.empty()) {
      error(Err);
      return ExitUsageError;
    }
    Out.Notes.push_back(std::to_string(Suppressed) +
                        " findings are in the baseline and not shown.");
  }
  if (!DiffBase.empty()) {
    size_t Dropped = 0;
    cudatidy::keepChangedLines(Errors, S.Changed, Lines, Dropped);
    Out.Notes.push_back(std::to_string(Dropped) +
                        " findings are on unchanged lines and not shown.");
  }
  return std::nullopt;
}

/// Prints the findings as text (clang-tidy's printer, which also applies
/// fixes) or writes the SARIF or JSON report; then --export-fixes.
MaybeExit printFindings(Session &S, const std::vector<ClangTidyError> &Errors,
                        cudatidy::LineIndex &Lines,
                        const cudatidy::RunResults &Run,
                        const cudatidy::PartialRun *Partial,
                        FixBehaviour Behaviour, unsigned &WErrorCount) {
  if (Format == OutputFormat::Text) {
    ClangTidyContext Context(std::move(S.Provider), false, false, false);
    Context.setCurrentFile(S.FirstFile);
    handleErrors(Errors, Context, Behaviour, WErrorCount, S.BaseFS);
  } else {
    WErrorCount = llvm::count_if(
        Errors, [](const ClangTidyError &E) { return E.IsWarningAsError; });
    std::error_code EC;
    std::optional<llvm::raw_fd_ostream> File;
    if (!OutputFile.empty()) {
      File.emplace(OutputFile, EC, llvm::sys::fs::OF_TextWithCRLF);
      if (EC) {
        error("cannot write '" + OutputFile + "': " + EC.message());
        return ExitUsageError;
      }
    }
    llvm::raw_ostream &OS = File ? *File : llvm::outs();
    llvm::SmallString<256> Root;
    llvm::sys::fs::current_path(Root);
    if (Format == OutputFormat::Sarif)
      cudatidy::writeSarif(OS, Errors, Lines, Root, CUDA_TIDY_VERSION,
                           Partial, Run.Crashes, DocsUrl);
    else
      cudatidy::writeJson(OS, Errors, Lines, CUDA_TIDY_VERSION, Partial,
                          Run.Crashes);
  }

  if (!ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(ExportFixes, EC, llvm::sys::fs::OF_None);
    if (EC) {
      error("cannot write '" + ExportFixes + "': " + EC.message());
      return ExitUsageError;
    }
    exportReplacements(S.FirstFile.str(), Errors, OS);
  }
  return std::nullopt;
}

/// After --fix: one line for the unchecked calls that got no fix because
/// their file has no error-checking wrapper to learn and ErrorCheckMacro is
/// not set (where it is set, a note on each says why).
void explainUnfixedUncheckedCalls(const std::vector<ClangTidyError> &Errors) {
  size_t Unfixed = llvm::count_if(Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Warning &&
           E.DiagnosticName == "cuda-unchecked-api-call" &&
           E.Message.Fix.empty() &&
           llvm::StringRef(E.Message.Message).ends_with("is not checked") &&
           llvm::none_of(E.Notes, [](const tooling::DiagnosticMessage &N) {
             return llvm::StringRef(N.Message).starts_with("no fix-it");
           });
  });
  if (!Unfixed)
    return;
  llvm::errs() << "cuda-tidy: " << Unfixed << " unchecked CUDA call"
               << (Unfixed == 1 ? " was" : "s were")
               << " not fixed: no error-checking macro or function was "
                  "learned from the other CUDA calls of "
               << (Unfixed == 1 ? "its file" : "their files")
               << " for the place; set cuda-unchecked-api-call.ErrorCheckMacro "
                  "to the one to use (docs/checks/cuda-unchecked-api-call.md)\n";
}

/// Whether stdout and stderr are one file (a terminal, or 2>&1).
bool stdoutIsStderr() {
  struct stat Out, Err;
  return ::fstat(1, &Out) == 0 && ::fstat(2, &Err) == 0 &&
         Out.st_dev == Err.st_dev && Out.st_ino == Err.st_ino;
}

/// Whether -fix (-fix-notes) applies a fix of \p E.
bool hasFix(const ClangTidyError &E, FixBehaviour Behaviour) {
  if (!E.Message.Fix.empty())
    return true;
  return Behaviour == FB_FixNotes &&
         llvm::any_of(E.Notes, [](const tooling::DiagnosticMessage &N) {
           return !N.Fix.empty();
         });
}

/// Reports the results (gates, findings, summary, internal errors) and
/// returns the exit code.
int report(Session &S, cudatidy::RunResults &Run) {
  // Interrupted: the files that were analysed are reported, and the report
  // says that it is partial (no baseline is written from it).
  std::optional<cudatidy::PartialRun> Partial;
  if (Run.Interrupted) {
    Partial.emplace();
    Partial->FilesAnalysed = Run.FilesAnalysed;
    Partial->FilesTotal = S.Files.size();
    if (!WriteBaseline.empty()) {
      error("interrupted; " + llvm::Twine(Run.FilesAnalysed) + " of " +
            llvm::Twine(S.Files.size()) +
            " files were analysed, and the baseline '" + WriteBaseline +
            "' was not written");
      return ExitInterrupted;
    }
  }

  std::vector<ClangTidyError> Errors;
  for (std::vector<ClangTidyError> &R : Run.PerFile)
    std::move(R.begin(), R.end(), std::back_inserter(Errors));
  cudatidy::sortErrors(Errors);
  cudatidy::makePathsAbsolute(Errors);

  cudatidy::LineIndex Lines;
  GateOutcome Gates;
  if (MaybeExit Exit = applyGates(S, Errors, Lines, Gates))
    return *Exit;

  bool CompileErrors = llvm::any_of(Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error;
  });
  // A Python file that could not be read is not a compile error.
  bool PythonErrors = llvm::any_of(Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error &&
           E.DiagnosticName == "python-error";
  });
  bool ClangErrors = llvm::any_of(Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error &&
           E.DiagnosticName != "python-error";
  });
  size_t Findings = llvm::count_if(Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Warning;
  });

  FixBehaviour Behaviour = FixNotes             ? FB_FixNotes
                           : (Fix || FixErrors) ? FB_Fix
                                                : FB_NoFix;
  bool DisableFixes = CompileErrors && !FixErrors;
  unsigned WErrorCount = 0;
  if (MaybeExit Exit =
          printFindings(S, Errors, Lines, Run, Partial ? &*Partial : nullptr,
                        DisableFixes ? FB_NoFix : Behaviour, WErrorCount))
    return *Exit;

  if (!Quiet) {
    size_t Analysed = Partial ? Partial->FilesAnalysed : S.Files.size();
    llvm::errs() << Findings << " finding" << (Findings == 1 ? "" : "s")
                 << " in " << Analysed << " file" << (Analysed == 1 ? "" : "s")
                 << ".\n";
    cudatidy::printSuppressed(Run.Suppressed, llvm::errs());
    for (const std::string &N : Gates.Notes)
      llvm::errs() << N << "\n";
    if (DisableFixes && Behaviour != FB_NoFix)
      llvm::errs() << "Compile errors were found, so fixes were not applied "
                      "(use -fix-errors to apply them anyway).\n";
  }
  if (Behaviour != FB_NoFix && !DisableFixes)
    explainUnfixedUncheckedCalls(Errors);
  // A crashed file is never a silent pass (docs/reliability.md).
  for (const cudatidy::InternalError &C : Run.Crashes)
    llvm::errs() << "cuda-tidy: " << C.message() << "\n";
  if (Partial) {
    // In the text report itself too, for whoever reads a saved copy; on
    // stderr as well unless both go to one place (a terminal, 2>&1).
    if (Format == OutputFormat::Text)
      llvm::outs() << "cuda-tidy: partial report: " << Partial->message()
                   << "\n";
    llvm::outs().flush();
    if (Format != OutputFormat::Text || !stdoutIsStderr())
      error(Partial->message());
    return ExitInterrupted;
  }
  if (S.BadInput)
    return ExitUsageError;
  if (PythonErrors && !Quiet) {
    bool AllSyntax = llvm::all_of(Errors, [](const ClangTidyError &E) {
      return E.DiagnosticName != "python-error" ||
             llvm::StringRef(E.Message.Message)
                 .starts_with("Python syntax error");
    });
    llvm::errs() << (AllSyntax
                         ? "Some Python files could not be analysed because "
                           "of Python syntax errors.\n"
                         : "Some Python files could not be read; the "
                           "python-error above says why.\n");
  }
  if (ClangErrors && !Quiet)
    llvm::errs() << "Some files have compile errors; only their functions "
                    "that compiled were analysed.\n";
  if (CompileErrors || !Run.Crashes.empty())
    return ExitAnalysisError;
  if (Gates.AcceptFindings)
    return ExitClean;
  // As clang-tidy: after -fix, the findings that were fixed are gone.
  if (Behaviour != FB_NoFix && !DisableFixes) {
    size_t Unfixed = llvm::count_if(Errors, [&](const ClangTidyError &E) {
      return E.DiagLevel == ClangTidyError::Warning && !hasFix(E, Behaviour);
    });
    return Unfixed ? ExitFindings : ExitClean;
  }
  return Findings || WErrorCount ? ExitFindings : ExitClean;
}

} // namespace

/// The analyses allocate and free many large maps. glibc's defaults give
/// freed memory back to the kernel at once (trim, munmap), and the next
/// allocation faults it in again: on the generated 32,000-line file a tenth
/// of the run was spent in the kernel (docs/performance.md). Keep it in the
/// process.
static void keepFreedMemory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 64 << 20);
#endif
}

int main(int argc, const char **argv) {
  llvm::InitLLVM X(argc, argv);
  keepFreedMemory();
  Session S;
  S.Argv0 = argv[0];
  if (MaybeExit Exit = parseCommandLine(argc, argv, S))
    return *Exit;
  if (Merge)
    return mergeReports();
  if (MaybeExit Exit = findToolkit(argv[0], S))
    return *Exit;
  cudatidy::setTorchSettings(
      {TorchInclude, PythonOpt, findSharedFile(argv[0], "python",
                                                   "torch_setup_commands.py")});
  if (MaybeExit Exit = gatherInputs(S))
    return *Exit;

  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();

  if (MaybeExit Exit = checkOutputAndGates(S))
    return *Exit;
  // A crash in one file's analysis loses that file's results only.
  cudatidy::enableCrashIsolation();
  clang::tidy::cuda::TensorCallers &Callers =
      clang::tidy::cuda::TensorCallers::get();
  if (tensorCallersInUse(S))
    Callers.activate();
  if (!TensorCallersFile.empty()) {
    if (llvm::sys::fs::exists(TensorCallersFile))
      if (std::string Err = Callers.load(TensorCallersFile); !Err.empty()) {
        error("--tensor-callers: " + Err);
        return ExitUsageError;
      }
  }
  cudatidy::RunResults Run = analyse(argv[0], S);
  if (!TensorCallersFile.empty())
    if (std::string Err = Callers.save(TensorCallersFile); !Err.empty()) {
      error("--tensor-callers: " + Err);
      return ExitUsageError;
    }
  return report(S, Run);
}
