//===- PrefixCache.cpp - A precompiled CUDA prefix shared by files --------===//
//
// See PrefixCache.h.
//
//===----------------------------------------------------------------------===//

#include "PrefixCache.h"
#include "CrashIsolation.h"
#include "SideParse.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <chrono>
#include <optional>
#include <set>
#include <utility>

using namespace clang;
namespace fs = llvm::sys::fs;

namespace cudatidy {
namespace {

/// How long a process waits for another one building the same prefix.
constexpr std::chrono::seconds LockWait{300};

/// One file the prefix was built from, as it was then.
struct InputFile {
  std::string Path;
  uint64_t Size = 0;
  int64_t ModTime = 0;
};

/// \p Path made absolute against \p Dir. ".." stays: removed by hand it
/// would be wrong past a symbolic link (a toolchain's "bin/../lib/gcc").
std::string absolute(llvm::StringRef Dir, llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::make_absolute(Dir, P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/false);
  return std::string(P);
}

bool isSinglePassCuda(const std::vector<std::string> &Args) {
  bool Pass = false;
  for (const std::string &A : Args) {
    if (A == "--cuda-device-only" || A == "--cuda-host-only")
      Pass = true;
    // A command that already uses a precompiled header or modules keeps
    // its own parse.
    if (llvm::StringRef(A).starts_with("-include-pch") ||
        llvm::StringRef(A).starts_with("-fmodules") || A == "-emit-pch")
      return false;
  }
  return Pass;
}

/// The index of the argument that names the file, or 0 when there is not
/// exactly one.
size_t inputIndex(const tooling::CompileCommand &C) {
  auto Normalized = [&C](llvm::StringRef Path) {
    llvm::SmallString<256> P(absolute(C.Directory, Path));
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P);
  };
  std::string File = Normalized(C.Filename);
  size_t Found = 0;
  for (size_t I = 1; I < C.CommandLine.size(); ++I)
    if (Normalized(C.CommandLine[I]) == File) {
      if (Found)
        return 0;
      Found = I;
    }
  return Found;
}

/// The force-included headers of \p C (-include), absolute.
std::vector<std::string> forcedIncludes(const tooling::CompileCommand &C) {
  std::vector<std::string> Paths;
  const std::vector<std::string> &Args = C.CommandLine;
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-include")
      Paths.push_back(absolute(C.Directory, Args[I + 1]));
  return Paths;
}

std::string readInputsFile(llvm::StringRef Path);

/// \p C without its -I folders, which go to \p Dirs (absolute).
tooling::CompileCommand withoutIncludeDirs(const tooling::CompileCommand &C,
                                           std::vector<std::string> &Dirs) {
  tooling::CompileCommand Out = C;
  Out.CommandLine.clear();
  const std::vector<std::string> &Args = C.CommandLine;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (I > 0 && A == "-I" && I + 1 < Args.size()) {
      Dirs.push_back(absolute(C.Directory, Args[++I]));
      continue;
    }
    if (I > 0 && A.starts_with("-I") && A != "-I-" && A.size() > 2) {
      Dirs.push_back(absolute(C.Directory, A.drop_front(2)));
      continue;
    }
    Out.CommandLine.push_back(Args[I]);
  }
  return Out;
}

/// The header names recorded in the inputs file of a prefix.
std::vector<std::string> readNames(llvm::StringRef InputsPath) {
  std::vector<std::string> Names;
  std::string Text = readInputsFile(InputsPath);
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines)
    if (Line.consume_front("name "))
      Names.push_back(Line.str());
  return Names;
}

/// Whether a header of one of \p Dirs has a name the prefix looked up: with
/// those folders searched first, the prefix could read another file.
bool shadows(const std::vector<std::string> &Dirs,
             const std::vector<std::string> &Names) {
  for (const std::string &Dir : Dirs)
    for (const std::string &Name : Names) {
      if (llvm::sys::path::is_absolute(Name))
        continue;
      llvm::SmallString<256> P(Dir);
      llvm::sys::path::append(P, Name);
      if (fs::exists(P))
        return true;
    }
  return false;
}

std::string hexHash(llvm::StringRef Text) {
  llvm::XXH128_hash_t H = llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Text));
  return llvm::utohexstr(H.high64, /*LowerCase=*/true, 16) +
         llvm::utohexstr(H.low64, /*LowerCase=*/true, 16);
}

std::string readInputsFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

bool sameAsRecorded(llvm::StringRef Path, uint64_t Size, int64_t ModTime) {
  fs::file_status St;
  if (fs::status(Path, St))
    return false;
  return St.getSize() == Size &&
         llvm::sys::toTimeT(St.getLastModificationTime()) == ModTime;
}

/// Whether the prefix \p Pch, described by \p InputsPath, can be used: it
/// is whole (its size as recorded, clang's magic number) and none of its
/// headers changed since.
bool isFresh(llvm::StringRef Pch, llvm::StringRef InputsPath) {
  std::string Text = readInputsFile(InputsPath);
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.size() < 2 || !Lines.front().consume_front("pch "))
    return false;
  uint64_t PchSize;
  if (Lines.front().getAsInteger(10, PchSize))
    return false;
  fs::file_status St;
  if (fs::status(Pch, St) || St.getSize() != PchSize)
    return false;
  auto Head = llvm::MemoryBuffer::getFileSlice(Pch, 4, 0);
  if (!Head || (*Head)->getBuffer() != "CPCH")
    return false;
  for (llvm::StringRef Line : llvm::drop_begin(Lines)) {
    if (Line.starts_with("name "))
      continue;
    auto [SizeText, Rest] = Line.split(' ');
    auto [TimeText, Path] = Rest.split(' ');
    uint64_t Size;
    int64_t ModTime;
    if (SizeText.getAsInteger(10, Size) || TimeText.getAsInteger(10, ModTime) ||
        Path.empty() || !sameAsRecorded(Path, Size, ModTime))
      return false;
  }
  return true;
}

/// Writes \p Text to \p Path through a temporary file (never half a file).
std::string writeAtomically(llvm::StringRef Path, llvm::StringRef Text) {
  std::string Temp =
      (Path + ".tmp" + llvm::Twine(llvm::sys::Process::getProcessId())).str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Temp, EC);
    if (EC)
      return "cannot write '" + Temp + "': " + EC.message();
    OS << Text;
  }
  if (std::error_code EC = fs::rename(Temp, Path)) {
    fs::remove(Temp);
    return "cannot write '" + Path.str() + "': " + EC.message();
  }
  return "";
}

/// What a preamble's build saw of the headers it read.
struct PreambleHeaders {
  /// Each entry is a header and the index of the placeholder's #include
  /// line that brought it in.
  using Headers = std::vector<std::pair<FileEntryRef, unsigned>>;
  /// The headers outside the system folders that the placeholder includes
  /// itself. (The C and C++ standard headers may be included again with no
  /// effect, <assert.h> aside: see NdebugSetAt.)
  Headers Direct;
  /// Every header outside the system folders.
  Headers User;
  /// The #include line under which a header defines or undefines NDEBUG.
  std::optional<unsigned> NdebugSetAt;
  /// The index of the placeholder's #include line being read.
  unsigned Line = 0;
  unsigned Lines = 0;
};

/// Why a preamble cannot stand in for the file's own includes, and how
/// many of its #include lines can.
struct PreambleProblem {
  std::string Why;
  unsigned Usable = 0;
};

/// The first \p N lines of \p Text.
std::string firstLines(llvm::StringRef Text, unsigned N) {
  size_t End = 0;
  for (unsigned I = 0; I < N && End < Text.size(); ++I) {
    size_t Next = Text.find('\n', End);
    End = Next == llvm::StringRef::npos ? Text.size() : Next + 1;
  }
  return Text.take_front(End).str();
}

/// Stamps the prefix described by \p InputsPath as used now (the size
/// limit removes the least recently used first).
void markUsed(const std::string &InputsPath) {
  int FD;
  if (fs::openFileForReadWrite(InputsPath, FD, fs::CD_OpenExisting,
                               fs::OF_None))
    return;
  fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  fs::closeFile(FD);
}

/// Records every header name the prefix looks up (#include, and
/// __has_include), to tell later whether an include folder would shadow it,
/// and the headers a preamble reads.
class LookupRecorder : public PPCallbacks {
public:
  LookupRecorder(std::set<std::string> &Names, PreambleHeaders &Headers,
                 const SourceManager &SM)
      : Names(Names), Headers(Headers), SM(SM) {}
  void InclusionDirective(SourceLocation Hash, const Token &,
                          llvm::StringRef Name, bool, CharSourceRange,
                          OptionalFileEntryRef File, llvm::StringRef,
                          llvm::StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind Kind) override {
    Names.insert(Name.str());
    bool Direct = SM.isWrittenInMainFile(Hash);
    if (Direct)
      Headers.Line = Headers.Lines++;
    if (!File || SrcMgr::isSystem(Kind))
      return;
    if (Direct)
      Headers.Direct.push_back({*File, Headers.Line});
    Headers.User.push_back({*File, Headers.Line});
  }
  // <assert.h>, included again by the file, reads NDEBUG as it is then.
  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    noteNdebug(Name, MD->getLocation());
  }
  void MacroUndefined(const Token &Name, const MacroDefinition &,
                      const MacroDirective *) override {
    noteNdebug(Name, Name.getLocation());
  }
  void HasInclude(SourceLocation, llvm::StringRef Name, bool,
                  OptionalFileEntryRef, SrcMgr::CharacteristicKind) override {
    Names.insert(Name.str());
  }

private:
  void noteNdebug(const Token &Name, SourceLocation Loc) {
    if (Name.getIdentifierInfo() &&
        Name.getIdentifierInfo()->getName() == "NDEBUG" &&
        SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc))) &&
        !Headers.NdebugSetAt)
      Headers.NdebugSetAt = Headers.Line;
  }

  std::set<std::string> &Names;
  PreambleHeaders &Headers;
  const SourceManager &SM;
};

/// Why a preamble built from \p Headers cannot stand in for the file's own
/// includes (no Why when it can), with the first problem's line.
PreambleProblem preambleProblem(const PreambleHeaders &Headers,
                                HeaderSearch &Search, llvm::StringRef Dir) {
  PreambleProblem P;
  P.Usable = Headers.Lines;
  auto Note = [&P](unsigned Line, const std::string &Why) {
    if (Line < P.Usable || P.Why.empty()) {
      P.Usable = std::min(P.Usable, Line);
      P.Why = Why;
    }
  };
  if (Headers.NdebugSetAt)
    Note(*Headers.NdebugSetAt, "NDEBUG is set in a header, and <assert.h> "
                               "reads it when the file includes it again");
  for (auto [F, Line] : Headers.Direct)
    if (!Search.isFileMultipleIncludeGuarded(F))
      Note(Line, "'" + F.getName().str() +
                     "' has no include guard, and the file includes it again");
  for (auto [F, Line] : Headers.User) {
    // A precompiled header names its files by whole paths: findings in a
    // header found through a relative folder would name it differently.
    if (!llvm::sys::path::is_absolute(F.getName()))
      Note(Line, "'" + F.getName().str() +
                     "' is found through a relative folder, and findings in "
                     "it would name it by its whole path");
    auto Buf = llvm::MemoryBuffer::getFile(absolute(Dir, F.getName()));
    if (!Buf || (*Buf)->getBuffer().contains("__CUDA_ARCH__"))
      Note(Line, "'" + F.getName().str() +
                     "' tests __CUDA_ARCH__, which the checks read from the "
                     "preprocessor");
  }
  return P;
}

/// Clang's PCH action that also records the files the prefix read and the
/// header names it looked up.
class RecordingPchAction : public GeneratePCHAction {
public:
  RecordingPchAction(std::vector<InputFile> &Inputs,
                     std::set<std::string> &Names, PreambleProblem &Problem,
                     llvm::StringRef Dir)
      : Inputs(Inputs), Names(Names), Problem(Problem), Dir(Dir) {}

protected:
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<LookupRecorder>(
        Names, Headers, CI.getSourceManager()));
    return GeneratePCHAction::BeginSourceFileAction(CI);
  }

  void EndSourceFileAction() override {
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    Problem = preambleProblem(
        Headers, getCompilerInstance().getPreprocessor().getHeaderSearchInfo(),
        Dir);
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      FileEntryRef F = It->first;
      Inputs.push_back({absolute(Dir, F.getName()),
                        static_cast<uint64_t>(F.getSize()),
                        static_cast<int64_t>(F.getModificationTime())});
    }
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  std::vector<InputFile> &Inputs;
  std::set<std::string> &Names;
  PreambleProblem &Problem;
  std::string Dir;
  PreambleHeaders Headers;
};

/// Runs RecordingPchAction with the invocation clang-tidy would make,
/// writing to \p Out.
class PchBuildFactory : public tooling::FrontendActionFactory {
public:
  PchBuildFactory(std::string Out, std::string Dir,
                  std::vector<InputFile> &Inputs, std::set<std::string> &Names,
                  PreambleProblem &Problem)
      : Out(std::move(Out)), Dir(std::move(Dir)), Inputs(Inputs),
        Names(Names), Problem(Problem) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RecordingPchAction>(Inputs, Names, Problem, Dir);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    Invocation->getFrontendOpts().ProgramAction = frontend::GeneratePCH;
    Invocation->getFrontendOpts().OutputFile = Out;
    // As clang-tidy's run: headers see __clang_analyzer__.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    return FrontendActionFactory::runInvocation(
        std::move(Invocation), Files, std::move(PCHContainerOps), DiagConsumer);
  }

private:
  std::string Out, Dir;
  std::vector<InputFile> &Inputs;
  std::set<std::string> &Names;
  PreambleProblem &Problem;
};

/// A database of one command.
class SingleCommandDatabase : public tooling::CompilationDatabase {
public:
  explicit SingleCommandDatabase(tooling::CompileCommand C)
      : C(std::move(C)) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef) const override {
    return {C};
  }

private:
  tooling::CompileCommand C;
};

/// Holds an exclusive lock on a file, between processes.
class FileLock {
public:
  explicit FileLock(const std::string &Path) {
    if (fs::openFileForReadWrite(Path, FD, fs::CD_OpenAlways, fs::OF_None)) {
      FD = -1;
      return;
    }
    Locked = !fs::tryLockFile(FD, LockWait);
  }
  ~FileLock() {
    if (Locked)
      fs::unlockFile(FD);
    if (FD >= 0)
      fs::closeFile(FD);
  }
  bool locked() const { return Locked; }

private:
  int FD = -1;
  bool Locked = false;
};

} // namespace

PrefixCache::PrefixCache(std::string Dir) : Dir(std::move(Dir)) {
  uint64_t MaxMB;
  if (std::optional<std::string> Env =
          llvm::sys::Process::GetEnv("CUDA_TIDY_PREFIX_MAX_MB");
      Env && !llvm::StringRef(*Env).getAsInteger(10, MaxMB))
    SizeLimit = MaxMB << 20;
  if (std::optional<std::string> Env =
          llvm::sys::Process::GetEnv("CUDA_TIDY_PREFIX_PREAMBLE"))
    PreamblesOn = *Env != "off";
}

std::string PrefixCache::path(const std::string &Key,
                              llvm::StringRef Ext) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Key + "." + Ext.str());
  return std::string(P);
}

PrefixCache::Entry &PrefixCache::entry(const std::string &Key) {
  std::lock_guard<std::mutex> Lock(EntriesMutex);
  std::unique_ptr<Entry> &E = Entries[Key];
  if (!E)
    E = std::make_unique<Entry>();
  return *E;
}

std::vector<std::string>
PrefixCache::argsFor(const tooling::CompileCommand &Command,
                     const std::vector<std::string> &ExtraArgsBefore,
                     const std::vector<std::string> &ExtraArgsAfter,
                     bool WithPreamble, bool &UsesPreamble,
                     std::string &Why) {
  UsesPreamble = false;
  if (!isSinglePassCuda(Command.CommandLine)) {
    Why = "not a single-pass CUDA command";
    return {};
  }
  // Files that differ in their -I folders share a prefix built without
  // them, unless one of those folders shadows a header the prefix looked up.
  std::vector<std::string> Dirs;
  tooling::CompileCommand Shared = withoutIncludeDirs(Command, Dirs);
  // The prefix for Preamble ("" for the implicit one alone); without a
  // .pch when there is none, with the reason in Reason.
  auto Find = [&](const std::string &Preamble, bool Pays,
                  std::string &Reason) -> const Entry & {
    if (!Dirs.empty()) {
      Entry &E = prepared(Shared, ExtraArgsBefore, ExtraArgsAfter, Preamble,
                          Reason, Pays);
      if (!E.Pch.empty() && !shadows(Dirs, E.Names))
        return E;
    }
    return prepared(Command, ExtraArgsBefore, ExtraArgsAfter, Preamble,
                    Reason, Pays);
  };
  auto Use = [](const Entry &E) -> std::vector<std::string> {
    return {"-Xclang", "-include-pch", "-Xclang", E.Pch};
  };
  std::string NoPreamble;
  if (WithPreamble && PreamblesOn) {
    // The file's own leading includes, or as many of them as can stand in
    // for the file's (a problem found by a build cuts the rest; the cut is
    // built at once, since its whole was worth building).
    std::string Preamble =
        leadingIncludes(absolute(Command.Directory, Command.Filename));
    for (int Attempt = 0; Attempt < 3 && !Preamble.empty(); ++Attempt) {
      std::string Reason;
      const Entry &E = Find(Preamble, /*Pays=*/Attempt > 0, Reason);
      if (!E.Pch.empty()) {
        UsesPreamble = true;
        Why = NoPreamble; // Why the last of them are left out, if they are.
        return Use(E);
      }
      NoPreamble = Reason;
      if (!E.Usable)
        break;
      Preamble = firstLines(Preamble, E.Usable);
    }
  }
  const Entry &E = Find("", /*Pays=*/false, Why);
  if (E.Pch.empty())
    return {};
  Why = NoPreamble;
  return Use(E);
}

PrefixCache::Entry &
PrefixCache::prepared(const tooling::CompileCommand &Command,
                      const std::vector<std::string> &ExtraArgsBefore,
                      const std::vector<std::string> &ExtraArgsAfter,
                      const std::string &Preamble, std::string &Why,
                      bool Pays) {
  static Entry None;
  size_t Input = inputIndex(Command);
  if (!Input) {
    Why = "the command does not name the file exactly once";
    return None;
  }
  // The key: everything but the file's name.
  tooling::CompileCommand Placeholder = Command;
  Placeholder.CommandLine[Input] = "<input>";
  std::string Text = std::string("cuda-tidy prefix 3\0", 19) +
                     getClangFullVersion() + '\0' + Command.Directory;
  for (const auto *Args :
       {&std::as_const(Placeholder.CommandLine), &ExtraArgsBefore,
        &ExtraArgsAfter}) {
    Text += std::string("\0args\0", 6);
    for (const std::string &A : *Args)
      Text += A + '\0';
  }
  // The content of each force-included header (the compatibility header
  // among them), read once a run.
  for (const std::string &Header : forcedIncludes(Command))
    Text += std::string("\0include-content\0", 17) + contentOf(Header);
  if (!Preamble.empty())
    Text += std::string("\0preamble\0", 10) + Preamble;
  std::string Key = hexHash(Text);
  Placeholder.Filename = path(Key, "cu");
  Placeholder.CommandLine[Input] = Placeholder.Filename;

  Entry &E = entry(Key);
  std::lock_guard<std::mutex> Lock(E.Building);
  if (!E.Done) {
    prepare(E, Key, Placeholder, ExtraArgsBefore, ExtraArgsAfter, Preamble,
            Pays);
    if (!E.Pch.empty()) {
      E.Names = readNames(path(Key, "inputs"));
      markUsed(path(Key, "inputs")); // Once a run is enough for the LRU.
    }
  }
  E.Done = true;
  if (E.Pch.empty())
    Why = E.Why;
  return E;
}

void PrefixCache::prepare(Entry &E, const std::string &Key,
                          const tooling::CompileCommand &Placeholder,
                          const std::vector<std::string> &ExtraArgsBefore,
                          const std::vector<std::string> &ExtraArgsAfter,
                          const std::string &Preamble, bool Pays) {
  std::string Pch = path(Key, "pch"), Inputs = path(Key, "inputs");
  if (isFresh(Pch, Inputs)) {
    E.Pch = Pch;
    return;
  }
  if (std::error_code EC = fs::create_directories(Dir)) {
    E.Why = "cannot create the prefix folder '" + Dir + "': " + EC.message();
    return;
  }
  if (!Preamble.empty()) {
    // A preamble that cannot be used says why once, in <key>.unusable:
    // "usable N" (its first N lines can be), then the reason.
    if (std::string Marker = readInputsFile(path(Key, "unusable"));
        !Marker.empty()) {
      auto [First, Why] = llvm::StringRef(Marker).split('\n');
      if (First.consume_front("usable "))
        First.getAsInteger(10, E.Usable);
      E.Why = Why.str();
      return;
    }
    // Built when it pays: several files of this run share it, or an
    // earlier run saw it (<key>.seen) or built it.
    if (!Pays && !sharedInRun(Preamble) && !fs::exists(path(Key, "seen")) &&
        !fs::exists(Pch)) {
      writeAtomically(path(Key, "seen"), "");
      E.Why = "its leading includes are precompiled when seen again";
      return;
    }
  }
  // The implicit prefix too: a single file's first run (nothing else in
  // the run shares it, no earlier run saw its command) would build a
  // precompiled header that only it reads, and pay for writing and loading
  // it on top of the parse; it is built the next time the command is seen
  // (a later run, whose file's own leading includes take precedence), or
  // now when the run holds several files.
  if (Preamble.empty() && !Pays && !severalFilesInRun() &&
      !fs::exists(path(Key, "seen")) && !fs::exists(Pch)) {
    writeAtomically(path(Key, "seen"), "");
    E.Why = "the implicit prefix is precompiled when its command is seen "
            "again";
    return;
  }
  FileLock Lock(path(Key, "lock"));
  if (!Lock.locked()) {
    E.Why = "the lock '" + path(Key, "lock") +
            "' is held by another process";
    return;
  }
  // Another process may have built it while this one waited.
  if (isFresh(Pch, Inputs)) {
    E.Pch = Pch;
    return;
  }
  if (OnBuild)
    OnBuild(Preamble.empty() ? "precompiling CUDA's headers into the prefix "
                               "cache, once: later runs reuse them"
                             : "precompiling its leading includes into the "
                               "prefix cache, once: later runs reuse them");
  std::string Err;
  std::string Crashed;
  if (!runIsolated(
          [&] {
            Err = build(Key, Placeholder, ExtraArgsBefore, ExtraArgsAfter,
                        Preamble, E.Usable);
          },
          Crashed))
    Err = "clang crashed while building it";
  if (OnBuild)
    OnBuild("");
  if (!Err.empty()) {
    E.Why = "no precompiled prefix: " + Err;
    if (!Preamble.empty())
      writeAtomically(path(Key, "unusable"),
                      "usable " + std::to_string(E.Usable) + "\n" + E.Why);
    return;
  }
  E.Pch = Pch;
  evict(Key);
}

std::string PrefixCache::build(const std::string &Key,
                               const tooling::CompileCommand &Placeholder,
                               const std::vector<std::string> &ExtraArgsBefore,
                               const std::vector<std::string> &ExtraArgsAfter,
                               const std::string &Preamble,
                               unsigned &Usable) {
  auto Start = std::chrono::steady_clock::now();
  Usable = 0;
  std::string Pch = path(Key, "pch"), Inputs = path(Key, "inputs");
  fs::remove(Inputs);
  if (std::string Err = writeAtomically(Placeholder.Filename, Preamble);
      !Err.empty())
    return Err;
  SingleCommandDatabase DB(Placeholder);
  tooling::ClangTool Tool(DB, {Placeholder.Filename},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  IgnoringDiagConsumer Quiet;
  setUpSideParse(Tool, ExtraArgsBefore, ExtraArgsAfter, Quiet);
  std::vector<InputFile> Files;
  std::set<std::string> Names;
  PreambleProblem Problem;
  PchBuildFactory Factory(Pch, Placeholder.Directory, Files, Names, Problem);
  if (Tool.run(&Factory) != 0 || !fs::exists(Pch)) {
    fs::remove(Pch);
    return Preamble.empty()
               ? "the prefix does not compile with this command"
               : "the file's leading includes do not compile alone";
  }
  if (!Preamble.empty() && !Problem.Why.empty()) {
    fs::remove(Pch);
    Usable = Problem.Usable;
    return Problem.Why;
  }
  fs::file_status St;
  if (fs::status(Pch, St))
    return "cannot read back '" + Pch + "'";
  std::string Text = "pch " + std::to_string(St.getSize()) + "\n";
  for (const InputFile &F : Files)
    Text += std::to_string(F.Size) + " " + std::to_string(F.ModTime) + " " +
            F.Path + "\n";
  for (const std::string &N : Names)
    Text += "name " + N + "\n";
  if (std::string Err = writeAtomically(Inputs, Text); !Err.empty())
    return Err;
  std::lock_guard<std::mutex> Lock(EntriesMutex);
  ++Builds;
  BuildSeconds += std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - Start)
                      .count();
  return "";
}

const std::string &PrefixCache::contentOf(const std::string &Path) {
  std::lock_guard<std::mutex> Lock(EntriesMutex);
  auto [It, New] = Contents.try_emplace(Path);
  if (New) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    It->second = Buf ? (*Buf)->getBuffer().str() : "<unreadable>";
  }
  return It->second;
}

bool PrefixCache::sharedInRun(const std::string &Preamble) {
  std::lock_guard<std::mutex> Lock(EntriesMutex);
  auto It = PreambleUses.find(Preamble);
  return It != PreambleUses.end() && It->second > 1;
}

bool PrefixCache::severalFilesInRun() {
  std::lock_guard<std::mutex> Lock(EntriesMutex);
  return RunFiles > 1;
}

void PrefixCache::noteRunFiles(const std::vector<std::string> &Files) {
  std::map<std::string, unsigned> Uses;
  for (const std::string &F : Files)
    if (std::string P = leadingIncludes(F); !P.empty())
      ++Uses[P];
  std::lock_guard<std::mutex> Lock(EntriesMutex);
  PreambleUses = std::move(Uses);
  RunFiles += Files.size();
}

void PrefixCache::evict(const std::string &Keep) {
  struct Stored {
    std::string Key;
    uint64_t Size;
    llvm::sys::TimePoint<> Used;
  };
  std::vector<Stored> All;
  uint64_t Total = 0;
  std::error_code EC;
  for (fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (!Name.consume_back(".pch"))
      continue;
    fs::file_status Pch, Inputs;
    if (fs::status(It->path(), Pch))
      continue;
    // The inputs file's time is the last use (markUsed).
    llvm::sys::TimePoint<> Used =
        fs::status(path(Name.str(), "inputs"), Inputs)
            ? Pch.getLastModificationTime()
            : Inputs.getLastModificationTime();
    All.push_back({Name.str(), Pch.getSize(), Used});
    Total += Pch.getSize();
  }
  if (Total <= SizeLimit)
    return;
  llvm::sort(All, [](const Stored &A, const Stored &B) {
    return A.Used < B.Used;
  });
  for (const Stored &S : All) {
    if (Total <= SizeLimit)
      break;
    if (S.Key == Keep)
      continue;
    // Whoever uses it now keeps it open; a later run rebuilds it.
    fs::remove(path(S.Key, "inputs"));
    fs::remove(path(S.Key, "pch"));
    fs::remove(path(S.Key, "cu"));
    Total -= S.Size;
  }
}

std::string leadingIncludes(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return "";
  llvm::StringRef FileDir = llvm::sys::path::parent_path(Path);
  llvm::StringRef Text = (*Buf)->getBuffer();
  std::string Out;
  while (true) {
    Text = Text.ltrim();
    if (Text.consume_front("//")) {
      Text = Text.drop_until([](char C) { return C == '\n'; });
      continue;
    }
    if (Text.starts_with("/*")) {
      size_t End = Text.find("*/", 2);
      if (End == llvm::StringRef::npos)
        break;
      Text = Text.drop_front(End + 2);
      continue;
    }
    if (!Text.starts_with("#"))
      break;
    llvm::StringRef Line = Text.take_until([](char C) { return C == '\n'; });
    llvm::StringRef Rest = Line.drop_front().ltrim(" \t");
    if (!Rest.consume_front("include"))
      break;
    Rest = Rest.ltrim(" \t");
    bool Angled = Rest.consume_front("<");
    if (!Angled && !Rest.consume_front("\""))
      break;
    size_t Close = Rest.find(Angled ? '>' : '"');
    if (Close == llvm::StringRef::npos)
      break;
    llvm::StringRef Name = Rest.take_front(Close);
    llvm::StringRef After = Rest.drop_front(Close + 1).trim();
    if (!After.empty() && !After.starts_with("//"))
      break;
    if (Line.ends_with("\\") || Name.contains('\\') || Name.empty())
      break;
    if (Angled) {
      Out += "#include <" + Name.str() + ">\n";
    } else {
      // A quoted name is looked up in the file's folder first; the
      // precompiled header lives elsewhere, so it names that file whole.
      llvm::SmallString<256> Beside(FileDir);
      llvm::sys::path::append(Beside, Name);
      if (llvm::sys::path::is_absolute(Name) || !fs::exists(Beside))
        Out += "#include \"" + Name.str() + "\"\n";
      else
        Out += "#include \"" + std::string(Beside) + "\"\n";
    }
    Text = Text.drop_front(Line.size());
  }
  return Out;
}

bool PrefixCache::prefixFailed(
    const std::vector<tidy::ClangTidyError> &Errors) {
  static const char *const Signs[] = {
      "precompiled", "PCH file", "AST file", "-include-pch",
      "has been modified since", "was built with"};
  for (const tidy::ClangTidyError &E : Errors) {
    if (E.DiagnosticName != "clang-diagnostic-error")
      continue;
    for (const char *Sign : Signs)
      if (llvm::StringRef(E.Message.Message).contains(Sign))
        return true;
  }
  return false;
}

std::string prefixCacheDir(llvm::StringRef CacheDir) {
  if (std::optional<std::string> Env =
          llvm::sys::Process::GetEnv("CUDA_TIDY_PREFIX_DIR"))
    return *Env == "off" ? std::string() : *Env;
  if (CacheDir.empty() || CacheDir == "off")
    return "";
  llvm::SmallString<256> P(CacheDir);
  llvm::sys::path::append(P, "prefix");
  return std::string(P);
}

} // namespace cudatidy
