//===- Run.cpp - Analysing the files, in parallel, crash by crash ---------===//
//
// See Run.h.
//
//===----------------------------------------------------------------------===//

#include "Run.h"
#include "CrashIsolation.h"
#include "LaunchChevrons.h"
#include "PythonInput.h"
#include "StockCheckFilter.h"
#include "TorchSupport.h"
#include "FunctionCfg.h"
#include "clang-tidy/ClangTidy.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

using namespace clang::tidy;

namespace cudatidy {
namespace {

/// The file this worker thread is analysing (for the progress line's
/// reasons, PrefixCache::OnBuild).
thread_local std::string CurrentFile;

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
  /// Why \p File takes long, shown with it while that lasts: "" when it
  /// is over (the file's next step or result takes the line back).
  void explain(llvm::StringRef File, llvm::StringRef Why) {
    std::lock_guard<std::mutex> Lock(M);
    Current = llvm::sys::path::filename(File).str();
    if (!Why.empty())
      Current += ": " + Why.str();
    draw();
  }
  void finished(size_t NewFindings) {
    std::lock_guard<std::mutex> Lock(M);
    Current = Current.substr(0, Current.find(": "));
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

/// The project's commands, each with the arguments that use a precompiled
/// prefix.
class PrefixedDatabase : public clang::tooling::CompilationDatabase {
public:
  PrefixedDatabase(const clang::tooling::CompilationDatabase &Inner,
                   const std::vector<std::string> &Args)
      : Inner(Inner), Args(Args) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<clang::tooling::CompileCommand> Commands =
        Inner.getCompileCommands(File);
    for (clang::tooling::CompileCommand &C : Commands)
      if (!C.CommandLine.empty())
        C.CommandLine.insert(C.CommandLine.begin() + 1, Args.begin(),
                             Args.end());
    return Commands;
  }

private:
  const clang::tooling::CompilationDatabase &Inner;
  const std::vector<std::string> &Args;
};

/// What one analysis reads: a file and its commands; for a Python file,
/// its generated unit, the commands with the unit's flags, and the map.
struct Input {
  const std::string &File;
  const clang::tooling::CompilationDatabase &Commands;
  /// Added to the cache key (the Python reader's answer).
  std::string KeyExtra;
  const PythonUnit *Python;
  /// Whose configuration applies (.clang-tidy files): the Python file's
  /// for its unit.
  const std::string &OptionsFile;
};

/// Options of one file asked for another: a Python file's unit is
/// configured as the Python file is.
class RedirectedOptionsProvider : public ClangTidyOptionsProvider {
public:
  RedirectedOptionsProvider(std::unique_ptr<ClangTidyOptionsProvider> Inner,
                            std::string From, std::string To)
      : Inner(std::move(Inner)), From(std::move(From)), To(std::move(To)) {}
  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Inner->getGlobalOptions();
  }
  std::vector<OptionsSource> getRawOptions(llvm::StringRef FileName) override {
    return Inner->getRawOptions(FileName == From ? llvm::StringRef(To)
                                                 : FileName);
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
  std::string From, To;
};

/// One run over the files: the workers share it.
class Runner {
public:
  Runner(const std::vector<std::string> &Files,
         const clang::tooling::CompilationDatabase &Compilations,
         const RunSettings &Settings)
      : Files(Files), Compilations(Compilations), Settings(Settings),
        Bar(Files.size(), Settings.ShowProgress) {
    Results.PerFile.resize(Files.size());
    Stats.resize(Files.size());
    CrashedCheck.resize(Files.size());
    Crashed.resize(Files.size());
  }

  RunResults run();

private:
  /// On the progress line (a terminal only), why file \p I is slow: a
  /// prefix being built, or PyTorch's headers parsed without one.
  void explainSlowStart(size_t I, const Input &In, bool HasPrefix,
                        bool UsesPreamble);
  void worker();
  void analyse(size_t I);
  /// The cache key of file \p I ("" without cache); true when its findings
  /// were read from the cache.
  bool lookUp(size_t I, const Input &In, ClangTidyOptionsProvider &Provider,
              std::string &Key);
  /// The arguments that give file \p I the precompiled prefix, if any;
  /// \p UsesPreamble: with the file's own leading includes.
  std::vector<std::string> prefixArgs(const Input &In,
                                      ClangTidyOptionsProvider &Provider,
                                      bool &UsesPreamble);
  /// Whether \p Opts enable cuda-* checks only: a file's own preamble is
  /// then precompiled too (PrefixCache.h).
  bool onlyCudaChecks(const ClangTidyOptions &Opts);
  /// Analyses file \p I with \p PrefixArgs added to its command; false if
  /// it crashed.
  bool analyseWith(size_t I, const Input &In,
                   const std::vector<std::string> &PrefixArgs,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS,
                   std::vector<ClangTidyError> &Errors);
  void note(const llvm::Twine &Message);
  /// A .py file: its kernels' unit is analysed, and its findings moved back
  /// to the Python file (PythonInput.h).
  void analysePython(size_t I);
  /// Analyses \p In (file \p I, or the unit of a Python file \p I).
  void analyseInput(size_t I, const Input &In);

  const std::vector<std::string> &Files;
  const clang::tooling::CompilationDatabase &Compilations;
  const RunSettings &Settings;
  Progress Bar;
  RunResults Results;
  std::vector<ClangTidyStats> Stats;
  std::vector<std::string> CrashedCheck;
  std::vector<char> Crashed;
  std::atomic<size_t> Next{0};
  unsigned NumJobs = 1;
  std::atomic<size_t> CacheHits{0}, CacheMisses{0};
  std::atomic<size_t> PrefixUsed{0}, PrefixUnused{0}, PreambleUsed{0};
  std::once_flag CacheWarning;
  std::mutex WarningMutex;
  std::mutex OnlyCudaMutex;
  std::map<std::string, bool> OnlyCuda;
};

bool Runner::lookUp(size_t I, const Input &In,
                    ClangTidyOptionsProvider &Provider, std::string &Key) {
  ResultCache *Cache = Settings.Cache;
  if (!Cache)
    return false;
  ClangTidyOptions Opts = Provider.getOptions(Files[I]);
  std::string ConfigText = configurationAsText(Opts) + "\nfix-notes: " +
                           (Settings.FixNotes ? "1" : "0") + In.KeyExtra;
  Key = Cache->key(In.Commands, In.File, ConfigText,
                   Opts.ExtraArgsBefore.value_or(std::vector<std::string>()),
                   Opts.ExtraArgs.value_or(std::vector<std::string>()));
  if (!Key.empty()) {
    std::string Why;
    switch (Cache->lookup(Key, Results.PerFile[I], Why, &Stats[I])) {
    case ResultCache::Lookup::Hit:
      ++CacheHits;
      return true;
    case ResultCache::Lookup::Damaged: {
      // Never a wrong result: the file is analysed again, and the entry is
      // replaced below.
      std::lock_guard<std::mutex> Lock(WarningMutex);
      llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
          << Why << "; it is ignored and the file analysed again\n";
      break;
    }
    case ResultCache::Lookup::Miss:
      break;
    }
  }
  ++CacheMisses;
  return false;
}

bool Runner::onlyCudaChecks(const ClangTidyOptions &Opts) {
  std::string Checks = Opts.Checks.value_or("");
  std::lock_guard<std::mutex> Lock(OnlyCudaMutex);
  auto [It, New] = OnlyCuda.try_emplace(Checks, false);
  if (New) {
    std::vector<std::string> Names = getCheckNames(Opts, false, false);
    It->second = llvm::all_of(Names, [](const std::string &N) {
      return llvm::StringRef(N).starts_with("cuda-");
    });
  }
  return It->second;
}

void Runner::note(const llvm::Twine &Message) {
  if (!Settings.Verbose)
    return;
  std::lock_guard<std::mutex> Lock(WarningMutex);
  llvm::errs() << "cuda-tidy: note: " << Message << "\n";
}

std::vector<std::string>
Runner::prefixArgs(const Input &In, ClangTidyOptionsProvider &Provider,
                   bool &UsesPreamble) {
  UsesPreamble = false;
  if (!Settings.Prefix)
    return {};
  const std::string &File = In.File;
  // A Python file's unit is a temporary file: the notes name the .py.
  const std::string &Shown = In.OptionsFile;
  std::vector<clang::tooling::CompileCommand> Commands =
      In.Commands.getCompileCommands(File);
  std::string Why;
  std::vector<std::string> Args;
  if (Commands.size() != 1) {
    Why = "the file has several commands";
  } else {
    ClangTidyOptions Opts = Provider.getOptions(In.OptionsFile);
    Args = Settings.Prefix->argsFor(
        Commands.front(),
        Opts.ExtraArgsBefore.value_or(std::vector<std::string>()),
        Opts.ExtraArgs.value_or(std::vector<std::string>()),
        onlyCudaChecks(Opts), UsesPreamble, Why);
  }
  if (Args.empty()) {
    ++PrefixUnused;
    note("'" + Shown + "' is parsed without a precompiled prefix: " + Why);
  } else if (UsesPreamble) {
    if (!Why.empty())
      note("'" + Shown + "' uses the first of its leading includes only: " +
           Why);
  } else if (!Why.empty()) {
    note("'" + Shown + "' uses the implicit prefix without its own "
         "leading includes: " + Why);
  }
  return Args;
}

bool Runner::analyseWith(
    size_t I, const Input &In, const std::vector<std::string> &PrefixArgs,
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS,
    std::vector<ClangTidyError> &Errors) {
  PrefixedDatabase Prefixed(In.Commands, PrefixArgs);
  const clang::tooling::CompilationDatabase &Commands =
      PrefixArgs.empty() ? In.Commands : Prefixed;
  return runIsolated(
      [&] {
        std::unique_ptr<ClangTidyOptionsProvider> Provider =
            Settings.MakeOptionsProvider(FS);
        if (In.File != In.OptionsFile)
          Provider = std::make_unique<RedirectedOptionsProvider>(
              std::move(Provider), In.File, In.OptionsFile);
        ClangTidyContext FileContext(std::move(Provider), false, false,
                                     false);
        Errors = runFilteredClangTidy(FileContext, Commands, In.File, FS,
                                      Settings.FixNotes);
        Stats[I] = FileContext.getStats();
        // The last files of the run: the process exits next.
        if (I + NumJobs >= Files.size())
          clang::tidy::cuda::TranslationUnitAnalyses::releaseWithoutFreeing();
      },
      CrashedCheck[I]);
}

void Runner::analyse(size_t I) {
  if (isPythonFileName(Files[I]))
    return analysePython(I);
  analyseInput(I, Input{Files[I], Compilations, "", nullptr, Files[I]});
}

void Runner::analysePython(size_t I) {
  PythonUnit Unit;
  std::string Err =
      Settings.PythonReaders ? Settings.PythonReaders->read(Files[I], Unit)
                             : "no Python reader was set up for the run";
  for (const std::string &N : Unit.Notes)
    note(N);
  // Kernel sources that were not analysed are said without --verbose too,
  // in one line: a file whose kernels were all skipped must not read as
  // clean (--verbose gives each source's reason).
  if (!Settings.Verbose) {
    size_t Skipped = llvm::count_if(Unit.Notes, [](const std::string &N) {
      return llvm::StringRef(N).contains(": kernel source skipped: ");
    });
    if (Skipped) {
      std::lock_guard<std::mutex> Lock(WarningMutex);
      llvm::errs() << "cuda-tidy: note: '" << Files[I] << "': " << Skipped
                   << (Skipped == 1 ? " kernel source was" : " kernel sources were")
                   << " not analysed (--verbose says why)\n";
    }
  }
  if (!Err.empty()) {
    ClangTidyError E("python-error", ClangTidyError::Error, "", false);
    E.Message.Message = Err;
    E.Message.FilePath = Files[I];
    E.Message.FileOffset = 0;
    Results.PerFile[I].push_back(std::move(E));
    return;
  }
  if (Unit.UnitPath.empty()) {
    Results.PerFile[I] = std::move(Unit.Errors);
    return;
  }
  note("'" + Files[I] +
       "' is read by the Python reader (cuda_tidy_python.py, under the "
       "Python that --python names): its kernel sources and launches are "
       "analysed as one CUDA translation unit, and findings are reported at "
       "their lines in the file");
  PythonUnitDatabase Commands(Compilations, Unit);
  analyseInput(I, Input{Unit.UnitPath, Commands,
                        "\npython-unit: " + Unit.Digest, &Unit, Files[I]});
}

void Runner::analyseInput(size_t I, const Input &In) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Disk =
      llvm::vfs::createPhysicalFileSystem();
  if (Settings.JoinLaunchChevrons)
    Disk = joiningLaunchChevrons(std::move(Disk));
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new llvm::vfs::OverlayFileSystem(std::move(Disk)));
  // A Python file's unit is read as this run's reader wrote it: runs of
  // other versions on the same file share its path on disk.
  if (In.Python && !In.Python->UnitText.empty()) {
    auto Unit = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    Unit->addFile(In.Python->UnitPath, /*ModificationTime=*/0,
                  llvm::MemoryBuffer::getMemBufferCopy(In.Python->UnitText,
                                                       In.Python->UnitPath));
    FS->pushOverlay(std::move(Unit));
  }
  std::unique_ptr<ClangTidyOptionsProvider> FileProvider =
      Settings.MakeOptionsProvider(FS);
  std::string Key;
  if (lookUp(I, In, *FileProvider, Key))
    return;
  bool UsesPreamble;
  CurrentFile = Files[I];
  std::vector<std::string> PrefixArgs =
      prefixArgs(In, *FileProvider, UsesPreamble);
  explainSlowStart(I, In, !PrefixArgs.empty(), UsesPreamble);
  // A crash loses this file's results only; a crashed file is not cached.
  std::vector<ClangTidyError> Errors;
  if (!analyseWith(I, In, PrefixArgs, FS, Errors)) {
    Crashed[I] = true;
    return;
  }
  if (!PrefixArgs.empty()) {
    if (PrefixCache::prefixFailed(Errors)) {
      // Never a wrong result: a prefix clang refused costs a second parse.
      ++PrefixUnused;
      note("'" + Files[I] + "': clang refused the precompiled prefix '" +
           PrefixArgs.back() + "'; parsed again without it");
      Stats[I] = ClangTidyStats();
      if (!analyseWith(I, In, {}, FS, Errors)) {
        Crashed[I] = true;
        return;
      }
    } else {
      ++PrefixUsed;
      PreambleUsed += UsesPreamble;
    }
  }
  if (In.Python) {
    // Cached after the move: a hit needs no map.
    Stats[I].ErrorsIgnoredNOLINT += remapPythonErrors(*In.Python, Errors);
    for (ClangTidyError &E : Errors)
      if (E.Message.FilePath == In.File)
        E.Message.FilePath = Files[I];
  }
  Results.PerFile[I] = std::move(Errors);
  if (!Key.empty())
    if (std::string Err =
            Settings.Cache->store(Key, Results.PerFile[I], &Stats[I]);
        !Err.empty())
      std::call_once(CacheWarning, [&] {
        llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
            << "results are not cached: " << Err << "\n";
      });
}

void Runner::explainSlowStart(size_t I, const Input &In, bool HasPrefix,
                              bool UsesPreamble) {
  if (!Settings.ShowProgress || In.Python || (HasPrefix && UsesPreamble))
    return;
  std::vector<clang::tooling::CompileCommand> Commands =
      In.Commands.getCompileCommands(In.File);
  if (Commands.empty() || !commandIncludesTorch(Commands.front()))
    return;
  Bar.explain(Files[I],
              Settings.Cache
                  ? "parsing PyTorch's headers (slow: they are not "
                    "precompiled for it); the result cache makes the next "
                    "run fast while the file is unchanged"
                  : "parsing PyTorch's headers (slow: they are not "
                    "precompiled for it)");
}

void Runner::worker() {
  while (!Interrupted) {
    size_t I = Next++;
    if (I >= Files.size())
      break;
    Bar.started(Files[I]);
    analyse(I);
    Bar.finished(
        llvm::count_if(Results.PerFile[I], [](const ClangTidyError &E) {
          return E.DiagLevel == ClangTidyError::Warning;
        }));
  }
}

RunResults Runner::run() {
  NumJobs = Settings.Jobs ? Settings.Jobs
                          : std::max(1u, std::thread::hardware_concurrency());
  NumJobs = std::max<size_t>(1, std::min<size_t>(NumJobs, Files.size()));
  if (Settings.Prefix)
    Settings.Prefix->noteRunFiles(Files);
  // A first run builds the prefix: the progress line says so while it
  // does (a terminal only; nothing goes to a log).
  if (Settings.Prefix && Settings.ShowProgress)
    Settings.Prefix->OnBuild = [this](llvm::StringRef What) {
      Bar.explain(CurrentFile, What);
    };
  llvm::sys::SetInterruptFunction([] { Interrupted = true; });
  if (NumJobs <= 1) {
    worker();
  } else {
    std::vector<std::thread> Threads;
    for (unsigned T = 0; T < NumJobs; ++T)
      Threads.emplace_back([this] { worker(); });
    for (std::thread &T : Threads)
      T.join();
  }
  Bar.clear();
  if (Settings.Prefix)
    Settings.Prefix->OnBuild = nullptr;
  if (Settings.Cache && Settings.Verbose)
    llvm::errs() << "cuda-tidy: note: cache '" << Settings.Cache->dir()
                 << "': " << CacheHits << " hits, " << CacheMisses
                 << " misses\n";
  if (Settings.Prefix && Settings.Verbose)
    llvm::errs() << "cuda-tidy: note: precompiled prefix '"
                 << Settings.Prefix->dir() << "': " << PrefixUsed
                 << " files used it (" << PreambleUsed
                 << " with their own leading includes), " << PrefixUnused
                 << " did not; "
                 << Settings.Prefix->builds() << " built in "
                 << llvm::format("%.2f", Settings.Prefix->buildSeconds())
                 << " s\n";
  if (Settings.PythonReaders && Settings.PythonReaders->started() &&
      Settings.Verbose)
    llvm::errs() << "cuda-tidy: note: " << Settings.PythonReaders->filesRead()
                 << " Python files read by "
                 << Settings.PythonReaders->started()
                 << (Settings.PythonReaders->started() == 1
                         ? " Python reader process\n"
                         : " Python reader processes\n");
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Crashed[I])
      Results.Crashes.push_back({Files[I], CrashedCheck[I]});
    ClangTidyStats &Sum = Results.Suppressed;
    Sum.ErrorsIgnoredNonUserCode += Stats[I].ErrorsIgnoredNonUserCode;
    Sum.ErrorsIgnoredNOLINT += Stats[I].ErrorsIgnoredNOLINT;
    Sum.ErrorsIgnoredLineFilter += Stats[I].ErrorsIgnoredLineFilter;
    Sum.ErrorsIgnoredCheckFilter += Stats[I].ErrorsIgnoredCheckFilter;
  }
  Results.Interrupted = Interrupted;
  Results.FilesAnalysed = Bar.done();
  return std::move(Results);
}

} // namespace

void printSuppressed(const ClangTidyStats &Stats, llvm::raw_ostream &OS) {
  if (!Stats.errorsIgnored())
    return;
  std::vector<std::string> Parts;
  auto Add = [&](unsigned N, const char *What) {
    if (N)
      Parts.push_back(std::to_string(N) + What);
  };
  Add(Stats.ErrorsIgnoredNonUserCode, " in non-user code");
  Add(Stats.ErrorsIgnoredLineFilter, " due to line filter");
  Add(Stats.ErrorsIgnoredNOLINT, " NOLINT");
  Add(Stats.ErrorsIgnoredCheckFilter, " with check filters");
  OS << "Suppressed " << Stats.errorsIgnored() << " warnings ("
     << llvm::join(Parts, ", ") << ").\n";
  if (Stats.ErrorsIgnoredNonUserCode)
    OS << "Use --header-filter and --exclude-header-filter to choose the "
          "headers whose findings are shown, --system-headers to show those "
          "of system headers too.\n";
}

RunResults analyseFiles(const std::vector<std::string> &Files,
                        const clang::tooling::CompilationDatabase &Compilations,
                        const RunSettings &Settings) {
  return Runner(Files, Compilations, Settings).run();
}

} // namespace cudatidy
