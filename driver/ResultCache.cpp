//===- ResultCache.cpp ----------------------------------------------------===//

#include "ResultCache.h"
#include "Report.h"
#include "SideParse.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/DependencyScanning/DependencyScanningService.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/DependencyScanningTool.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"
#include <map>

namespace cudatidy {

using namespace clang;

namespace {

/// Runs the preprocessor over the file and records the content of every
/// file it entered.
class HashingAction : public PreprocessOnlyAction {
public:
  explicit HashingAction(std::map<std::string, std::string> &Hashes)
      : Hashes(Hashes) {}

protected:
  void EndSourceFileAction() override {
    SourceManager &SM = getCompilerInstance().getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      std::optional<llvm::MemoryBufferRef> Buffer =
          It->second->getBufferIfLoaded();
      // A file whose content was never needed (only its existence) has no
      // buffer: its name still counts.
      llvm::XXH128_hash_t H =
          llvm::xxh3_128bits(llvm::arrayRefFromStringRef(
              Buffer ? Buffer->getBuffer() : llvm::StringRef()));
      Hashes[It->first.getName().str()] =
          llvm::utohexstr(H.high64) + llvm::utohexstr(H.low64) +
          (Buffer ? "" : "-unread");
    }
    PreprocessOnlyAction::EndSourceFileAction();
  }

private:
  std::map<std::string, std::string> &Hashes;
};

class HashingFactory : public tooling::FrontendActionFactory {
public:
  explicit HashingFactory(std::map<std::string, std::string> &Hashes)
      : Hashes(Hashes) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<HashingAction>(Hashes);
  }

private:
  std::map<std::string, std::string> &Hashes;
};

/// The files a command reads, found by clang's dependency scanner: a real
/// preprocessor run over sources reduced to their directives, much faster
/// than preprocessing them. The scanner's service caches the reduced files
/// for the whole run and is safe to share between threads.
bool scanDependencies(const tooling::CompileCommand &C,
                      std::vector<std::string> CommandLine,
                      std::map<std::string, std::string> &Hashes) {
  static dependencies::DependencyScanningService Service(
      dependencies::ScanningMode::DependencyDirectivesScan,
      dependencies::ScanningOutputFormat::Make);
  tooling::DependencyScanningTool Tool(Service);
  IgnoringDiagConsumer Quiet;
  std::optional<std::string> Deps =
      Tool.getDependencyFile(CommandLine, C.Directory, Quiet);
  if (!Deps)
    return false;
  // Make syntax: "target: dep dep \\\n dep", spaces in names escaped.
  llvm::StringRef Text = *Deps;
  size_t Colon = Text.find(": ");
  if (Colon == llvm::StringRef::npos)
    return false;
  Text = Text.drop_front(Colon + 2);
  std::string Name;
  auto Flush = [&] {
    if (Name.empty())
      return;
    llvm::SmallString<256> Path(Name);
    if (!llvm::sys::path::is_absolute(Path))
      llvm::sys::path::make_absolute(C.Directory, Path);
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    std::string Hash = "missing";
    if (Buffer) {
      llvm::XXH128_hash_t H = llvm::xxh3_128bits(
          llvm::arrayRefFromStringRef((*Buffer)->getBuffer()));
      Hash = llvm::utohexstr(H.high64) + llvm::utohexstr(H.low64);
    }
    Hashes[std::string(Path)] = Hash;
    Name.clear();
  };
  for (size_t I = 0; I < Text.size(); ++I) {
    char Ch = Text[I];
    if (Ch == '\\' && I + 1 < Text.size() &&
        (Text[I + 1] == ' ' || Text[I + 1] == '#')) {
      Name += Text[++I];
    } else if (Ch == '\\' && I + 1 < Text.size() && Text[I + 1] == '\n') {
      Flush();
      ++I;
    } else if (Ch == ' ' || Ch == '\n' || Ch == '\t' || Ch == '\r') {
      Flush();
    } else {
      Name += Ch;
    }
  }
  Flush();
  return !Hashes.empty();
}

} // namespace

std::string
ResultCache::key(const tooling::CompilationDatabase &Compilations,
                 llvm::StringRef File, llvm::StringRef ConfigText,
                 const std::vector<std::string> &ExtraArgsBefore,
                 const std::vector<std::string> &ExtraArgsAfter) const {
  std::map<std::string, std::string> Hashes;
  std::vector<tooling::CompileCommand> Commands =
      Compilations.getCompileCommands(File);
  if (Commands.size() == 1) {
    std::vector<std::string> Line = Commands.front().CommandLine;
    if (!Line.empty()) {
      Line.insert(Line.begin() + 1, ExtraArgsBefore.begin(),
                  ExtraArgsBefore.end());
      Line.insert(Line.end(), ExtraArgsAfter.begin(), ExtraArgsAfter.end());
    }
    if (!scanDependencies(Commands.front(), Line, Hashes))
      Hashes.clear();
  }
  if (!Hashes.empty())
    return finishKey(Commands, ConfigText, Hashes);
  tooling::ClangTool Tool(Compilations, {File.str()},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  IgnoringDiagConsumer Quiet;
  setUpSideParse(Tool, ExtraArgsBefore, ExtraArgsAfter, Quiet);
  HashingFactory Factory(Hashes);
  if (Tool.run(&Factory) != 0 || Hashes.empty())
    return "";

  return finishKey(Compilations.getCompileCommands(File), ConfigText, Hashes);
}

std::string
ResultCache::finishKey(const std::vector<tooling::CompileCommand> &Commands,
                       llvm::StringRef ConfigText,
                       const std::map<std::string, std::string> &Hashes) const {
  std::string Basis = "cuda-tidy result cache v2\n" + ToolIdentity + "\n";
  for (const tooling::CompileCommand &C : Commands) {
    Basis += "dir " + C.Directory + "\n";
    for (const std::string &A : C.CommandLine)
      Basis += "arg " + A + "\n";
  }
  Basis += "config\n" + ConfigText.str() + "\n";
  for (const auto &[Name, Hash] : Hashes)
    Basis += "file " + Name + " " + Hash + "\n";
  auto Digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(Basis));
  return llvm::toHex(Digest, /*LowerCase=*/true);
}

std::string ResultCache::entryPath(llvm::StringRef Key) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Key.take_front(2), Key.drop_front(2) + ".json");
  return std::string(P);
}

/// The digest that an entry carries of its findings, so that an entry
/// edited or damaged into other valid JSON is not read as findings.
static std::string checksumOf(const llvm::json::Value &Errors) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << Errors;
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Text)),
                     /*LowerCase=*/true);
}

/// The suppressed-finding counts an entry may carry (the summary line's);
/// outside the checksum, which covers the findings.
static llvm::json::Array statsToJson(const tidy::ClangTidyStats &S) {
  return llvm::json::Array{S.ErrorsIgnoredNonUserCode, S.ErrorsIgnoredNOLINT,
                           S.ErrorsIgnoredLineFilter,
                           S.ErrorsIgnoredCheckFilter};
}

static bool statsFromJson(const llvm::json::Array &A,
                          tidy::ClangTidyStats &S) {
  unsigned *Fields[] = {&S.ErrorsIgnoredNonUserCode, &S.ErrorsIgnoredNOLINT,
                        &S.ErrorsIgnoredLineFilter,
                        &S.ErrorsIgnoredCheckFilter};
  if (A.size() != std::size(Fields))
    return false;
  for (size_t I = 0; I < A.size(); ++I) {
    std::optional<int64_t> N = A[I].getAsInteger();
    if (!N || *N < 0 || *N > UINT32_MAX)
      return false;
    *Fields[I] = unsigned(*N);
  }
  return true;
}

std::string
ResultCache::entryText(llvm::StringRef Key,
                       llvm::ArrayRef<tidy::ClangTidyError> Errors,
                       const tidy::ClangTidyStats *Stats) {
  llvm::json::Value Findings = errorsToJson(Errors);
  std::string Sum = checksumOf(Findings);
  llvm::json::Object Entry{{"cache_version", 2},
                           {"key", Key},
                           {"checksum", Sum},
                           {"errors", std::move(Findings)}};
  if (Stats)
    Entry["suppressed"] = statsToJson(*Stats);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::json::Value(std::move(Entry));
  return Text;
}

std::string
ResultCache::parseEntry(llvm::StringRef Text, llvm::StringRef Key,
                        std::vector<tidy::ClangTidyError> &Errors,
                        tidy::ClangTidyStats *Stats) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V)
    return "not JSON (" + llvm::toString(V.takeError()) + ")";
  const llvm::json::Object *O = V->getAsObject();
  if (!O || O->getInteger("cache_version") != 2)
    return "not an entry of this cache version";
  if (O->getString("key") != Key)
    return "written for another key";
  const llvm::json::Value *Findings = O->get("errors");
  std::optional<llvm::StringRef> Sum = O->getString("checksum");
  if (!Findings || !Sum || *Sum != checksumOf(*Findings))
    return "its checksum does not match its content";
  std::vector<tidy::ClangTidyError> Read;
  if (!errorsFromJson(*Findings, Read))
    return "its findings cannot be read";
  tidy::ClangTidyStats ReadStats;
  if (const llvm::json::Value *Suppressed = O->get("suppressed"))
    if (!Suppressed->getAsArray() ||
        !statsFromJson(*Suppressed->getAsArray(), ReadStats))
      return "its counts of suppressed findings cannot be read";
  Errors = std::move(Read);
  if (Stats)
    *Stats = ReadStats;
  return "";
}

/// Whether every location of \p Errors lies inside its file as it is now:
/// a location past the end would make the text printer read past a buffer.
static std::string checkOffsets(llvm::ArrayRef<tidy::ClangTidyError> Errors) {
  std::map<std::string, uint64_t> Sizes;
  auto Fits = [&](llvm::StringRef File, llvm::StringRef BuildDir,
                  uint64_t Offset) {
    if (File.empty())
      return Offset == 0;
    llvm::SmallString<256> P(File);
    if (!llvm::sys::path::is_absolute(P))
      llvm::sys::path::make_absolute(BuildDir, P);
    auto It = Sizes.find(std::string(P));
    if (It == Sizes.end()) {
      llvm::sys::fs::file_status St;
      uint64_t Size = 0;
      bool Regular = !llvm::sys::fs::status(P, St) &&
                     llvm::sys::fs::is_regular_file(St);
      Size = Regular ? St.getSize() : 0;
      It = Sizes.emplace(std::string(P), Regular ? Size : UINT64_MAX).first;
    }
    return It->second != UINT64_MAX && Offset <= It->second;
  };
  for (const tidy::ClangTidyError &E : Errors) {
    auto MessageFits = [&](const tooling::DiagnosticMessage &M) {
      if (!Fits(M.FilePath, E.BuildDirectory, M.FileOffset))
        return false;
      for (const tooling::FileByteRange &R : M.Ranges)
        if (!Fits(R.FilePath, E.BuildDirectory,
                  uint64_t(R.FileOffset) + R.Length))
          return false;
      for (const auto &[File, Reps] : M.Fix)
        for (const tooling::Replacement &R : Reps)
          if (!Fits(R.getFilePath(), E.BuildDirectory,
                    uint64_t(R.getOffset()) + R.getLength()))
            return false;
      return true;
    };
    if (!MessageFits(E.Message))
      return "a finding lies outside its file";
    for (const tooling::DiagnosticMessage &N : E.Notes)
      if (!MessageFits(N))
        return "a note lies outside its file";
  }
  return "";
}

ResultCache::Lookup
ResultCache::lookup(llvm::StringRef Key,
                    std::vector<tidy::ClangTidyError> &Errors,
                    std::string &Why, tidy::ClangTidyStats *Stats) const {
  std::string Path = entryPath(Key);
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    if (Buffer.getError() == std::errc::no_such_file_or_directory)
      return Lookup::Miss;
    Why = "cannot read the cache entry '" + Path +
          "': " + Buffer.getError().message();
    return Lookup::Damaged;
  }
  std::vector<tidy::ClangTidyError> Read;
  tidy::ClangTidyStats ReadStats;
  std::string Err = parseEntry((*Buffer)->getBuffer(), Key, Read, &ReadStats);
  if (Err.empty())
    Err = checkOffsets(Read);
  if (!Err.empty()) {
    Why = "the cache entry '" + Path + "' is damaged: " + Err;
    return Lookup::Damaged;
  }
  Errors = std::move(Read);
  if (Stats)
    *Stats = ReadStats;
  return Lookup::Hit;
}

std::string
ResultCache::store(llvm::StringRef Key,
                   llvm::ArrayRef<tidy::ClangTidyError> Errors,
                   const tidy::ClangTidyStats *Stats) const {
  std::string Path = entryPath(Key);
  if (std::error_code EC =
          llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
    return "cannot create '" + llvm::sys::path::parent_path(Path).str() +
           "': " + EC.message();
  // Write a temporary file and rename it, so that a reader (another
  // cuda-tidy in parallel) never sees half an entry.
  llvm::SmallString<256> Temp;
  int FD;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Path + ".tmp-%%%%%%%%", FD, Temp))
    return "cannot write in '" + Dir + "': " + EC.message();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << entryText(Key, Errors, Stats);
    OS.close();
    if (OS.has_error()) {
      std::string Err = OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return "cannot write '" + std::string(Temp) + "': " + Err;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return "cannot write '" + Path + "': " + EC.message();
  }
  return "";
}

std::string toolIdentity(llvm::StringRef ExecutablePath) {
  std::string Id = std::string("cuda-tidy ") + CUDA_TIDY_VERSION + "; " +
                   getClangFullVersion();
  auto Buffer = llvm::MemoryBuffer::getFile(ExecutablePath);
  if (Buffer) {
    llvm::XXH128_hash_t H = llvm::xxh3_128bits(
        llvm::arrayRefFromStringRef((*Buffer)->getBuffer()));
    Id += "; " + llvm::utohexstr(H.high64) + llvm::utohexstr(H.low64);
  } else {
    // Without the executable's hash, a rebuilt check could reuse results;
    // make the key unique to this process instead.
    Id += "; pid " + std::to_string(llvm::sys::Process::getProcessId());
  }
  return Id;
}

std::string defaultCacheDir() {
  if (auto D = llvm::sys::Process::GetEnv("CUDA_TIDY_CACHE_DIR"))
    return *D;
  llvm::SmallString<256> P;
  if (auto X = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); X && !X->empty())
    P = *X;
  else if (auto H = llvm::sys::Process::GetEnv("HOME"); H && !H->empty()) {
    P = *H;
    llvm::sys::path::append(P, ".cache");
  } else
    return "";
  llvm::sys::path::append(P, "cuda-tidy");
  return std::string(P);
}

} // namespace cudatidy
