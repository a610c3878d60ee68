//===- CudaTidyMain.cpp - The cuda-tidy driver ----------------------------===//
//
// clang-tidy's engine with the cuda-* checks built in. It takes clang-tidy's
// usual options, reads .clang-tidy files, enables cuda-* by default, finds
// the CUDA toolkit and adds the flags that clang needs to analyse CUDA.
//
// Exit codes: 0 no findings, 1 findings, 2 a file could not be analysed
// (compile errors), 3 usage, configuration or environment errors, 130
// interrupted. docs/driver.md describes what it does on real projects.
//
//===----------------------------------------------------------------------===//

#include "CudaToolkit.h"
#include "NvccTranslation.h"
#include "Gates.h"
#include "Report.h"
#include "ResultCache.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Basic/Version.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
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
#include "llvm/Support/Signals.h"
#include <atomic>
#include <thread>
#include <mutex>
#include <set>

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
  ExitInterrupted = 130, ///< Ctrl-C, as shells report SIGINT.
};

/// Set by Ctrl-C: the workers take no new file, and the report is partial.
std::atomic<bool> Interrupted{false};

/// On a terminal, one line that says how far the run is; nothing otherwise.
class Progress {
public:
  Progress(size_t Total, bool Enabled) : Total(Total), Enabled(Enabled) {}
  void started(llvm::StringRef File) {
    std::lock_guard<std::mutex> Lock(M);
    Current = llvm::sys::path::filename(File).str();
    draw();
  }
  void finished(size_t NewFindings) {
    std::lock_guard<std::mutex> Lock(M);
    ++Done;
    Findings += NewFindings;
    draw();
  }
  void clear() {
    std::lock_guard<std::mutex> Lock(M);
    if (Enabled && Drawn)
      llvm::errs() << "\r\x1b[K";
    llvm::errs().flush();
  }
  size_t done() const { return Done; }

private:
  void draw() {
    if (!Enabled)
      return;
    Drawn = true;
    llvm::errs() << "\r\x1b[K[" << Done << "/" << Total << "] " << Findings
                 << " finding" << (Findings == 1 ? "" : "s") << "  "
                 << Current;
    llvm::errs().flush();
  }
  std::mutex M;
  size_t Total, Done = 0, Findings = 0;
  bool Enabled, Drawn = false;
  std::string Current;
};

cl::OptionCategory Category("cuda-tidy options");

cl::list<std::string> SourcePaths(cl::Positional, cl::desc("<source files>"),
                                  cl::cat(Category));
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
                                           "are shown"),
                                  cl::init(""), cl::cat(Category));
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
cl::opt<bool> NoCache("no-cache", cl::desc("Neither read nor write the cache"),
                      cl::init(false), cl::cat(Category));
cl::opt<bool> NoNvccCompat(
    "no-nvcc-compat",
    cl::desc("Do not force-include the nvcc compatibility header "
             "(docs/nvcc-compat.md)"),
    cl::init(false), cl::cat(Category));
cl::opt<bool> PrintCudaFlags("print-cuda-flags",
                             cl::desc("Print the flags added to CUDA files "
                                      "(pass them after -- to the plugin)"),
                             cl::init(false), cl::cat(Category));

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

/// Finds the compatibility header: share/cuda-tidy/include beside bin/, in
/// the build tree as in an installation.
std::string findCompatHeader(const char *Argv0) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findCompatHeader));
  llvm::SmallString<256> P(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(P, "share", "cuda-tidy", "include",
                          "cuda_tidy_nvcc_compat.h");
  return llvm::sys::fs::exists(P) ? std::string(P) : std::string();
}

/// Wraps the project's compilation database: files it does not know get a
/// default command, and CUDA files get the analysis flags.
class CudaCompilationDatabase : public CompilationDatabase {
public:
  CudaCompilationDatabase(std::unique_ptr<CompilationDatabase> Inner,
                          std::optional<cudatidy::CudaToolkit> Toolkit)
      : Inner(std::move(Inner)), Toolkit(std::move(Toolkit)) {}

  std::vector<CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    std::vector<CompileCommand> Commands;
    if (Inner)
      Commands = Inner->getCompileCommands(FilePath);
    for (CompileCommand &C : Commands) {
      cudatidy::stripCompilerLauncher(C.CommandLine);
      if (!C.CommandLine.empty() &&
          cudatidy::isNvccCompiler(C.CommandLine.front()))
        fromNvcc(C);
    }
    if (Commands.empty()) {
      // No entry: the defaults, and the file's own folder for its headers.
      llvm::SmallString<256> Dir(llvm::sys::path::parent_path(FilePath));
      if (Dir.empty())
        llvm::sys::fs::current_path(Dir);
      Commands.emplace_back(
          Dir, FilePath,
          std::vector<std::string>{"clang++", "-I" + std::string(Dir),
                                   FilePath.str()},
          "");
    }
    for (CompileCommand &C : Commands) {
      adjust(C);
      if (Verbose)
        verbose("analysing '" + C.Filename + "' with: " +
                llvm::join(C.CommandLine, " "));
    }
    return Commands;
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner ? Inner->getAllFiles() : std::vector<std::string>();
  }

private:
  /// Prints \p Message once per run under --verbose.
  void verbose(const std::string &Message) const {
    std::lock_guard<std::mutex> Lock(NotesMutex);
    if (NotesShown.insert(Message).second)
      llvm::errs() << "cuda-tidy: note: " << Message << "\n";
  }

  void fromNvcc(CompileCommand &C) const {
    cudatidy::NvccTranslation T =
        cudatidy::translateNvccCommand(C.CommandLine, C.Directory);
    if (Verbose)
      for (const std::string &N : T.Notes)
        verbose("nvcc command of '" + C.Filename + "': " + N);
    C.CommandLine = std::move(T.Args);
    // The entry's own file must be on the line: a "command" string with
    // shell syntax ("nvcc -c a.cu; touch x") is split into words, never run
    // by a shell, and its "a.cu;" is dropped as not a source file.
    auto Same = [&](StringRef Arg) {
      llvm::SmallString<256> A(Arg), F(C.Filename);
      if (!llvm::sys::path::is_absolute(A))
        llvm::sys::path::make_absolute(C.Directory, A);
      if (!llvm::sys::path::is_absolute(F))
        llvm::sys::path::make_absolute(C.Directory, F);
      llvm::sys::path::remove_dots(A, true);
      llvm::sys::path::remove_dots(F, true);
      return A == F;
    };
    if (!llvm::any_of(llvm::drop_begin(C.CommandLine), Same)) {
      if (Verbose)
        verbose("nvcc command of '" + C.Filename + "': it does not name '" +
                C.Filename + "' as an input; added it");
      C.CommandLine.push_back(C.Filename);
    }
  }

  static bool hasFlag(const std::vector<std::string> &Args,
                      StringRef Prefix) {
    return llvm::any_of(Args, [&](const std::string &A) {
      return StringRef(A).starts_with(Prefix);
    });
  }

  void adjust(CompileCommand &C) const {
    std::vector<std::string> &Args = C.CommandLine;
    bool ExplicitCuda = llvm::any_of(Args, [](const std::string &A) {
      return A == "-xcuda" || A == "--cuda-host-only" ||
             A == "--cuda-device-only";
    });
    for (size_t I = 0; I + 1 < Args.size(); ++I)
      if (Args[I] == "-x" && Args[I + 1] == "cuda")
        ExplicitCuda = true;
    bool Cuda = ExplicitCuda || cudatidy::isCudaFileName(C.Filename);
    std::vector<std::string> Added;
    if (!hasFlag(Args, "-resource-dir"))
      Added.push_back("-resource-dir=" CUDA_TIDY_CLANG_RESOURCE_DIR);
    if (Cuda && Toolkit) {
      if (!hasFlag(Args, "-x"))
        Added.push_back("-xcuda");
      for (std::string &F : cudaFlags(*Toolkit))
        Added.push_back(std::move(F));
      // Respect a pass or path the command already chose.
      if (hasFlag(Args, "--cuda-path"))
        llvm::erase_if(Added, [](const std::string &A) {
          return StringRef(A).starts_with("--cuda-path");
        });
      if (CudaGpuArch.getNumOccurrences())
        // An explicit --cuda-gpu-arch wins over the entry's architecture.
        llvm::erase_if(Args, [](const std::string &A) {
          return StringRef(A).starts_with("--cuda-gpu-arch") ||
                 StringRef(A).starts_with("--offload-arch");
        });
      else if (hasFlag(Args, "--cuda-gpu-arch") ||
               hasFlag(Args, "--offload-arch"))
        llvm::erase_if(Added, [](const std::string &A) {
          return StringRef(A).starts_with("--cuda-gpu-arch");
        });
      if (hasFlag(Args, "--cuda-host-only") ||
          hasFlag(Args, "--cuda-device-only"))
        llvm::erase_if(Added, [](const std::string &A) {
          return A == "--cuda-device-only" || A == "--cuda-host-only";
        });
    } else if (Toolkit) {
      // C and C++ files that call the runtime API need its headers.
      Added.push_back("-isystem");
      Added.push_back(Toolkit->Root + "/include");
    }
    std::vector<std::string> Out;
    Out.push_back(Args.empty() ? "clang++" : Args.front());
    Out.insert(Out.end(), ExtraArgsBefore.begin(), ExtraArgsBefore.end());
    Out.insert(Out.end(), Added.begin(), Added.end());
    // Keep the source file last, after the extra arguments.
    for (size_t I = 1; I < Args.size(); ++I)
      Out.push_back(Args[I]);
    Out.insert(Out.end(), ExtraArgs.begin(), ExtraArgs.end());
    Args = std::move(Out);
  }

  std::unique_ptr<CompilationDatabase> Inner;
  std::optional<cudatidy::CudaToolkit> Toolkit;
  mutable std::mutex NotesMutex;
  mutable std::set<std::string> NotesShown;
};

void error(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "cuda-tidy") << Message << "\n";
}

/// Finds compile_commands.json in \p Dir or its parents.
std::string findDatabaseUpwards(StringRef Dir) {
  llvm::SmallString<256> Cur(Dir);
  while (!Cur.empty()) {
    llvm::SmallString<256> Candidate(Cur);
    llvm::sys::path::append(Candidate, "compile_commands.json");
    if (llvm::sys::fs::exists(Candidate))
      return std::string(Candidate);
    StringRef Parent = llvm::sys::path::parent_path(Cur);
    if (Parent == Cur)
      break;
    Cur = Parent;
  }
  return "";
}

std::unique_ptr<CompilationDatabase>
loadDatabaseFile(StringRef Path, bool &Failed) {
  std::string Err;
  auto DB = JSONCompilationDatabase::loadFromFile(
      Path, Err, JSONCommandLineSyntax::AutoDetect);
  if (!DB) {
    error("cannot read the compilation database '" + Path + "': " + Err);
    Failed = true;
  }
  return DB;
}

std::unique_ptr<ClangTidyOptionsProvider>
createOptionsProvider(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  ClangTidyGlobalOptions GlobalOptions;
  ClangTidyOptions DefaultOptions;
  DefaultOptions.Checks = "-*,cuda-*";
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

  auto FromText = [&](StringRef Text, StringRef Source)
      -> std::unique_ptr<ClangTidyOptionsProvider> {
    llvm::ErrorOr<ClangTidyOptions> Parsed =
        parseConfiguration(llvm::MemoryBufferRef(Text, Source));
    if (!Parsed) {
      error("invalid configuration in " + Source + ": " +
            Parsed.getError().message());
      return nullptr;
    }
    return std::make_unique<ConfigOptionsProvider>(
        std::move(GlobalOptions),
        ClangTidyOptions::getDefaults().merge(DefaultOptions, 0),
        std::move(*Parsed), std::move(OverrideOptions), std::move(FS));
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
  return std::make_unique<FileOptionsProvider>(
      std::move(GlobalOptions), std::move(DefaultOptions),
      std::move(OverrideOptions), std::move(FS));
}

/// Reports inputs that cannot be analysed; returns the ones that can.
std::vector<std::string> validateInputs(bool &Bad) {
  std::vector<std::string> Valid;
  for (const std::string &Path : SourcePaths) {
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
    } else if (!cudatidy::isSupportedFileName(Path)) {
      error("'" + Path +
            "' is not a CUDA, C or C++ source file (expected .cu, .cuh, "
            ".cpp, .cc, .cxx, .c or a header)");
      Bad = true;
    } else {
      Valid.push_back(std::string(Abs));
    }
  }
  return Valid;
}

} // namespace

int main(int argc, const char **argv) {
  llvm::InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "cuda-tidy " << CUDA_TIDY_VERSION << " (" << getClangFullVersion()
       << ")\n";
  });

  // Everything after "--" is the compile command for files without a
  // compilation database entry.
  std::string FixedError;
  std::unique_ptr<CompilationDatabase> Fixed =
      FixedCompilationDatabase::loadFromCommandLine(argc, argv, FixedError);
  if (!FixedError.empty()) {
    error(FixedError);
    return ExitUsageError;
  }
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "cuda-tidy: finds bugs in CUDA programs.\n\n"
          "Exit codes: 0 no findings, 1 findings, 2 a file could not be "
          "analysed, 3 usage or configuration error, 130 interrupted.\n"
          "Docs: docs/driver.md (nvcc databases, output formats, -j, "
          "baselines, cache), docs/ci.md, docs/editors.md.\n",
          &llvm::errs()))
    return ExitUsageError;

  std::string ToolkitError;
  std::optional<cudatidy::CudaToolkit> Toolkit =
      cudatidy::findCudaToolkit(CudaPath, ToolkitError);
  if (!NoNvccCompat) {
    CompatHeader = findCompatHeader(argv[0]);
    if (CompatHeader.empty())
      llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
          << "the nvcc compatibility header is missing (expected in "
             "share/cuda-tidy/include beside bin/); code that relies on "
             "nvcc's host min/max or __stcs may not parse\n";
  }
  if (PrintCudaFlags) {
    if (!Toolkit) {
      error(ToolkitError);
      return ExitUsageError;
    }
    std::string Line = "-xcuda";
    for (const std::string &F : cudaFlags(*Toolkit))
      Line += " " + F;
    llvm::outs() << Line << "\n";
    return ExitClean;
  }

  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  std::unique_ptr<ClangTidyOptionsProvider> OwningProvider =
      createOptionsProvider(BaseFS);
  if (!OwningProvider)
    return ExitUsageError;
  ClangTidyOptionsProvider *Provider = OwningProvider.get();

  bool BadInput = false;
  std::vector<std::string> Files = validateInputs(BadInput);
  llvm::SmallString<256> FirstFile(Files.empty() ? StringRef("dummy.cu")
                                                 : StringRef(Files.front()));
  llvm::sys::fs::make_absolute(FirstFile);
  ClangTidyOptions Effective = Provider->getOptions(FirstFile);
  std::vector<std::string> Enabled = getCheckNames(Effective, false, false);

  if (ListChecks) {
    if (Enabled.empty()) {
      error("no checks enabled");
      return ExitUsageError;
    }
    llvm::outs() << "Enabled checks:";
    for (const std::string &C : Enabled)
      llvm::outs() << "\n    " << C;
    llvm::outs() << "\n\n";
    return ExitClean;
  }
  if (DumpConfig) {
    Effective.CheckOptions = getCheckOptions(Effective, false, false);
    ClangTidyOptions ToDump =
        ClangTidyOptions::getDefaults().merge(Effective, 0);
    filterCheckOptions(ToDump, Enabled);
    llvm::outs() << configurationAsText(ToDump) << "\n";
    return ExitClean;
  }
  if (Enabled.empty()) {
    error("no checks enabled; see --list-checks and -checks");
    return ExitUsageError;
  }
  if (SourcePaths.empty()) {
    error("no input files; usage: cuda-tidy [options] <file.cu>... [-- "
          "<compile flags>]");
    return ExitUsageError;
  }
  if (Files.empty())
    return ExitUsageError;

  bool NeedsToolkit = llvm::any_of(Files, [](const std::string &F) {
    return cudatidy::isCudaFileName(F);
  });
  if (NeedsToolkit && !Toolkit) {
    error(ToolkitError);
    return ExitUsageError;
  }

  // The compilation database: "--", then -p, then compile_commands.json
  // found upwards from the first file; files it lacks get a default command.
  std::unique_ptr<CompilationDatabase> Inner = std::move(Fixed);
  if (!Inner) {
    bool Failed = false;
    std::string Path;
    if (!BuildPath.empty()) {
      llvm::SmallString<256> P(BuildPath);
      if (!llvm::sys::fs::is_directory(P) &&
          llvm::sys::path::filename(P) == "compile_commands.json")
        Path = std::string(P);
      else {
        llvm::sys::path::append(P, "compile_commands.json");
        Path = std::string(P);
      }
      if (!llvm::sys::fs::exists(Path)) {
        error("no compile_commands.json in '" + BuildPath + "'");
        return ExitUsageError;
      }
    } else {
      Path = findDatabaseUpwards(llvm::sys::path::parent_path(FirstFile));
    }
    if (!Path.empty()) {
      Inner = loadDatabaseFile(Path, Failed);
      if (Failed)
        return ExitUsageError;
    }
  }
  CudaCompilationDatabase Compilations(std::move(Inner), Toolkit);

  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();

  if (Format != OutputFormat::Text && (Fix || FixErrors || FixNotes)) {
    error("-fix cannot be combined with --format=sarif or --format=json; "
          "run once with -fix, then again for the report");
    return ExitUsageError;
  }
  if (!WriteBaseline.empty() && !BaselineFile.empty()) {
    error("--baseline and --write-baseline cannot be used together");
    return ExitUsageError;
  }
  // The changed lines are read before the analysis, so that a bad revision
  // fails at once.
  cudatidy::ChangedLines Changed;
  if (DiffBase == "-") {
    auto Diff = llvm::MemoryBuffer::getSTDIN();
    if (!Diff) {
      error("cannot read a diff from stdin: " + Diff.getError().message());
      return ExitUsageError;
    }
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    Changed = cudatidy::parseUnifiedDiff((*Diff)->getBuffer(), Cwd);
  } else if (!DiffBase.empty()) {
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    if (std::string Err = cudatidy::changedLinesSince(DiffBase, Cwd, Changed);
        !Err.empty()) {
      error("--diff-base: " + Err);
      return ExitUsageError;
    }
  }
  if (!OutputFile.empty() && Format == OutputFormat::Text) {
    error("--output-file needs --format=sarif or --format=json");
    return ExitUsageError;
  }

  // Each file is analysed on its own, by a pool of threads; the results are
  // merged in one sorted order afterwards, so that the output does not
  // depend on -j (docs/driver.md, "Parallel runs").
  unsigned NumJobs = Jobs ? unsigned(Jobs)
                          : std::max(1u, std::thread::hardware_concurrency());
  NumJobs = std::min<size_t>(NumJobs, Files.size());
  std::vector<std::vector<ClangTidyError>> PerFile(Files.size());
  std::atomic<size_t> Next{0};
  Progress Bar(Files.size(), !Quiet && llvm::sys::Process::StandardErrIsDisplayed());
  llvm::sys::SetInterruptFunction([] { Interrupted = true; });

  // The result cache (driver/ResultCache.h).
  std::optional<cudatidy::ResultCache> Cache;
  if (!NoCache) {
    std::string Dir =
        CacheDir.getNumOccurrences() ? CacheDir : cudatidy::defaultCacheDir();
    if (!Dir.empty() && Dir != "off")
      Cache.emplace(Dir, cudatidy::toolIdentity(llvm::sys::fs::getMainExecutable(
                             argv[0], reinterpret_cast<void *>(&error))));
  }
  std::atomic<size_t> CacheHits{0}, CacheMisses{0};
  std::once_flag CacheWarning;
  std::mutex WarningMutex;

  auto Analyse = [&](size_t I) {
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
        new llvm::vfs::OverlayFileSystem(llvm::vfs::createPhysicalFileSystem()));
    std::unique_ptr<ClangTidyOptionsProvider> FileProvider =
        createOptionsProvider(FS);
    std::string Key;
    if (Cache) {
      ClangTidyOptions Opts = FileProvider->getOptions(Files[I]);
      std::string ConfigText = configurationAsText(Opts) +
                               "\nfix-notes: " + (FixNotes ? "1" : "0");
      Key = Cache->key(Compilations, Files[I], ConfigText,
                       Opts.ExtraArgsBefore.value_or(std::vector<std::string>()),
                       Opts.ExtraArgs.value_or(std::vector<std::string>()));
      if (!Key.empty()) {
        std::string Why;
        switch (Cache->lookup(Key, PerFile[I], Why)) {
        case cudatidy::ResultCache::Lookup::Hit:
          ++CacheHits;
          return;
        case cudatidy::ResultCache::Lookup::Damaged: {
          // Never a wrong result: the file is analysed again, and the
          // entry is replaced below.
          std::lock_guard<std::mutex> Lock(WarningMutex);
          llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
              << Why << "; it is ignored and the file analysed again\n";
          break;
        }
        case cudatidy::ResultCache::Lookup::Miss:
          break;
        }
      }
      ++CacheMisses;
    }
    ClangTidyContext FileContext(std::move(FileProvider), false, false,
                                 false);
    PerFile[I] = runClangTidy(FileContext, Compilations, {Files[I]}, FS,
                              FixNotes, /*EnableCheckProfile=*/false, "",
                              /*Quiet=*/true);
    if (!Key.empty())
      if (std::string Err = Cache->store(Key, PerFile[I]); !Err.empty())
        std::call_once(CacheWarning, [&] {
          llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
              << "results are not cached: " << Err << "\n";
        });
  };
  auto Worker = [&] {
    while (!Interrupted) {
      size_t I = Next++;
      if (I >= Files.size())
        break;
      Bar.started(Files[I]);
      Analyse(I);
      Bar.finished(llvm::count_if(PerFile[I], [](const ClangTidyError &E) {
        return E.DiagLevel == ClangTidyError::Warning;
      }));
    }
  };
  if (NumJobs <= 1) {
    Worker();
  } else {
    std::vector<std::thread> Threads;
    for (unsigned T = 0; T < NumJobs; ++T)
      Threads.emplace_back(Worker);
    for (std::thread &T : Threads)
      T.join();
  }
  Bar.clear();
  if (Cache && Verbose)
    llvm::errs() << "cuda-tidy: note: cache '" << Cache->dir() << "': "
                 << CacheHits << " hits, " << CacheMisses << " misses\n";
  // Interrupted: the files that were analysed are reported, and the report
  // says that it is partial (no baseline is written from it).
  std::optional<cudatidy::PartialRun> Partial;
  if (Interrupted) {
    Partial.emplace();
    Partial->FilesAnalysed = Bar.done();
    Partial->FilesTotal = Files.size();
    if (!WriteBaseline.empty()) {
      error("interrupted; " + llvm::Twine(Bar.done()) + " of " +
            llvm::Twine(Files.size()) +
            " files were analysed, and the baseline '" + WriteBaseline +
            "' was not written");
      return ExitInterrupted;
    }
  }

  std::vector<ClangTidyError> Errors;
  for (std::vector<ClangTidyError> &R : PerFile)
    std::move(R.begin(), R.end(), std::back_inserter(Errors));
  cudatidy::sortErrors(Errors);

  // CI gates: record or subtract a baseline, keep changed lines only.
  cudatidy::LineIndex Lines;
  std::vector<std::string> GateNotes;
  bool AcceptFindings = false;
  if (!WriteBaseline.empty()) {
    if (std::string Err = cudatidy::writeBaseline(WriteBaseline, Errors, Lines);
        !Err.empty()) {
      error(Err);
      return ExitUsageError;
    }
    AcceptFindings = true;
    GateNotes.push_back("The findings were written to the baseline '" +
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
    GateNotes.push_back(std::to_string(Suppressed) +
                        " findings are in the baseline and not shown.");
  }
  if (!DiffBase.empty()) {
    size_t Dropped = 0;
    cudatidy::keepChangedLines(Errors, Changed, Lines, Dropped);
    GateNotes.push_back(std::to_string(Dropped) +
                        " findings are on unchanged lines and not shown.");
  }

  bool CompileErrors = llvm::any_of(Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error;
  });
  size_t Findings = llvm::count_if(Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Warning;
  });

  FixBehaviour Behaviour = FixNotes             ? FB_FixNotes
                           : (Fix || FixErrors) ? FB_Fix
                                                : FB_NoFix;
  bool DisableFixes = CompileErrors && !FixErrors;
  unsigned WErrorCount = 0;
  llvm::SmallString<256> Root;
  llvm::sys::fs::current_path(Root);
  if (Format == OutputFormat::Text) {
    ClangTidyContext Context(std::move(OwningProvider), false, false, false);
    Context.setCurrentFile(FirstFile);
    handleErrors(Errors, Context, DisableFixes ? FB_NoFix : Behaviour,
                 WErrorCount, BaseFS);
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
    const cudatidy::PartialRun *P = Partial ? &*Partial : nullptr;
    if (Format == OutputFormat::Sarif)
      cudatidy::writeSarif(OS, Errors, Lines, Root, CUDA_TIDY_VERSION, P);
    else
      cudatidy::writeJson(OS, Errors, Lines, CUDA_TIDY_VERSION, P);
  }

  if (!ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(ExportFixes, EC, llvm::sys::fs::OF_None);
    if (EC) {
      error("cannot write '" + ExportFixes + "': " + EC.message());
      return ExitUsageError;
    }
    exportReplacements(FirstFile.str(), Errors, OS);
  }

  if (!Quiet) {
    size_t Analysed = Partial ? Partial->FilesAnalysed : Files.size();
    llvm::errs() << Findings << " finding" << (Findings == 1 ? "" : "s")
                 << " in " << Analysed << " file" << (Analysed == 1 ? "" : "s")
                 << ".\n";
    for (const std::string &N : GateNotes)
      llvm::errs() << N << "\n";
    if (DisableFixes && Behaviour != FB_NoFix)
      llvm::errs() << "Compile errors were found, so fixes were not applied "
                      "(use -fix-errors to apply them anyway).\n";
  }
  if (Partial) {
    // In the text report itself too, for whoever reads a saved copy.
    if (Format == OutputFormat::Text)
      llvm::outs() << "cuda-tidy: partial report: " << Partial->message()
                   << "\n";
    llvm::outs().flush();
    error(Partial->message());
    return ExitInterrupted;
  }
  if (BadInput)
    return ExitUsageError;
  if (CompileErrors) {
    if (!Quiet)
      llvm::errs() << "Some files could not be analysed because of compile "
                      "errors.\n";
    return ExitAnalysisError;
  }
  if (AcceptFindings)
    return ExitClean;
  return Findings || WErrorCount ? ExitFindings : ExitClean;
}
