//===- Report.cpp ---------------------------------------------------------===//

#include "Report.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include <tuple>

namespace cudatidy {

namespace json = llvm::json;

std::string absolutePath(const clang::tooling::DiagnosticMessage &M,
                         llvm::StringRef BuildDirectory) {
  if (M.FilePath.empty())
    return "";
  llvm::SmallString<256> P(M.FilePath);
  if (!llvm::sys::path::is_absolute(P) && !BuildDirectory.empty())
    llvm::sys::path::make_absolute(BuildDirectory, P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

static std::string absoluteFile(llvm::StringRef File,
                                llvm::StringRef BuildDirectory) {
  clang::tooling::DiagnosticMessage M;
  M.FilePath = File.str();
  return absolutePath(M, BuildDirectory);
}

void makePathsAbsolute(std::vector<ClangTidyError> &Errors) {
  for (ClangTidyError &E : Errors) {
    auto Fix = [&](clang::tooling::DiagnosticMessage &M) {
      M.FilePath = absolutePath(M, E.BuildDirectory);
      llvm::StringMap<clang::tooling::Replacements> Fixes;
      for (const auto &[File, Reps] : M.Fix) {
        clang::tooling::Replacements &Into =
            Fixes[absoluteFile(File, E.BuildDirectory)];
        for (const clang::tooling::Replacement &R : Reps)
          llvm::consumeError(Into.add(clang::tooling::Replacement(
              absoluteFile(R.getFilePath(), E.BuildDirectory),
              R.getOffset(), R.getLength(), R.getReplacementText())));
      }
      M.Fix = std::move(Fixes);
    };
    Fix(E.Message);
    for (clang::tooling::DiagnosticMessage &N : E.Notes)
      Fix(N);
  }
}

void sortErrors(std::vector<ClangTidyError> &Errors) {
  auto Key = [](const ClangTidyError &E) {
    return std::make_tuple(absolutePath(E.Message, E.BuildDirectory),
                           E.Message.FileOffset, E.DiagnosticName,
                           E.Message.Message);
  };
  llvm::stable_sort(Errors, [&](const ClangTidyError &A,
                                const ClangTidyError &B) {
    return Key(A) < Key(B);
  });
  // One file analysed by several translation units (a header) reports the
  // same finding once.
  Errors.erase(std::unique(Errors.begin(), Errors.end(),
                           [&](const ClangTidyError &A,
                               const ClangTidyError &B) {
                             return Key(A) == Key(B);
                           }),
               Errors.end());
}

LineIndex::FileLines &LineIndex::load(llvm::StringRef File) {
  FileLines &F = Files[File.str()];
  if (F.Loaded)
    return F;
  F.Loaded = true;
  // Only regular files: a path from a damaged cache entry or baseline could
  // name a device or a FIFO, which would never end.
  if (llvm::sys::fs::is_regular_file(File))
    if (auto Buffer = llvm::MemoryBuffer::getFile(File))
      F.Text = (*Buffer)->getBuffer().str();
  F.Starts.push_back(0);
  for (unsigned I = 0; I < F.Text.size(); ++I)
    if (F.Text[I] == '\n')
      F.Starts.push_back(I + 1);
  return F;
}

LineIndex::Position LineIndex::position(llvm::StringRef File,
                                        unsigned Offset) {
  Position P;
  if (File.empty())
    return P;
  FileLines &F = load(File);
  auto It = llvm::upper_bound(F.Starts, Offset);
  unsigned Line = It - F.Starts.begin(); // 1-based.
  P.Line = Line;
  P.Column = Offset - F.Starts[Line - 1] + 1;
  return P;
}

llvm::StringRef LineIndex::lineText(llvm::StringRef File, unsigned Line) {
  FileLines &F = load(File);
  if (Line == 0 || Line > F.Starts.size())
    return "";
  unsigned Begin = F.Starts[Line - 1];
  unsigned End = Line < F.Starts.size() ? F.Starts[Line] : F.Text.size();
  return llvm::StringRef(F.Text).slice(Begin, End).rtrim("\r\n");
}

llvm::StringRef levelOf(const ClangTidyError &E) {
  return E.DiagLevel == ClangTidyError::Error || E.IsWarningAsError
             ? "error"
             : "warning";
}

static std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  if (!Root.empty() && Path.starts_with(Root) &&
      Path.substr(Root.size()).starts_with("/"))
    return Path.substr(Root.size() + 1).str();
  return Path.str();
}

std::vector<std::string> fingerprints(llvm::ArrayRef<ClangTidyError> Errors,
                                      LineIndex &Lines, llvm::StringRef Root) {
  std::vector<std::string> Out;
  std::map<std::string, unsigned> Seen;
  for (const ClangTidyError &E : Errors) {
    std::string File = absolutePath(E.Message, E.BuildDirectory);
    LineIndex::Position P = Lines.position(File, E.Message.FileOffset);
    std::string Text =
        File.empty() ? "" : Lines.lineText(File, P.Line).trim().str();
    std::string Basis = E.DiagnosticName + "\n" + relativeTo(File, Root) +
                        "\n" + E.Message.Message + "\n" + Text;
    unsigned Nth = Seen[Basis]++;
    Basis += "\n" + std::to_string(Nth);
    auto Hash = llvm::SHA256::hash(llvm::arrayRefFromStringRef(Basis));
    Out.push_back(llvm::toHex(Hash, /*LowerCase=*/true).substr(0, 32));
  }
  return Out;
}

const llvm::StringMap<std::string> &checkSummaries() {
  static const llvm::StringMap<std::string> Summaries = [] {
    llvm::StringMap<std::string> M;
    static const std::pair<const char *, const char *> Table[] = {
#include "CheckDocs.inc"
        {nullptr, nullptr}};
    for (const auto &[Name, Summary] : Table)
      if (Name)
        M[Name] = Summary;
    return M;
  }();
  return Summaries;
}

/// A URI for \p Path: relative to %SRCROOT% under \p Root, file:// otherwise.
static json::Object artifactLocation(llvm::StringRef Path,
                                     llvm::StringRef Root) {
  auto Encode = [](llvm::StringRef S) {
    std::string Out;
    for (char C : S) {
      if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C))
        Out += C;
      else
        Out += "%" + llvm::utohexstr(static_cast<unsigned char>(C), false, 2);
    }
    return Out;
  };
  std::string Rel = relativeTo(Path, Root);
  if (Rel != Path)
    return json::Object{{"uri", Encode(Rel)}, {"uriBaseId", "%SRCROOT%"}};
  return json::Object{{"uri", "file://" + Encode(Path)}};
}

static json::Object physicalLocation(const clang::tooling::DiagnosticMessage &M,
                                     llvm::StringRef BuildDirectory,
                                     LineIndex &Lines, llvm::StringRef Root) {
  std::string File = absolutePath(M, BuildDirectory);
  LineIndex::Position P = Lines.position(File, M.FileOffset);
  return json::Object{
      {"physicalLocation",
       json::Object{{"artifactLocation", artifactLocation(File, Root)},
                    {"region", json::Object{{"startLine", P.Line},
                                            {"startColumn", P.Column}}}}}};
}

std::string PartialRun::message() const {
  return "interrupted: " + std::to_string(FilesAnalysed) + " of " +
         std::to_string(FilesTotal) +
         " files were analysed; this report is partial";
}

std::string InternalError::message() const {
  return "internal error while analysing " + File + " (check " +
         (Check.empty() ? std::string("unknown") : Check) +
         "); the other files were analysed";
}

/// What makes a run unsuccessful: an interruption, the files that crashed.
static json::Array notifications(const PartialRun *Partial,
                                 llvm::ArrayRef<InternalError> Crashes,
                                 llvm::StringRef Root) {
  json::Array Notifications;
  if (Partial)
    Notifications.push_back(json::Object{
        {"level", "error"},
        {"message", json::Object{{"text", Partial->message()}}}});
  for (const InternalError &C : Crashes) {
    json::Object Properties{{"file", C.File}};
    if (!C.Check.empty())
      Properties["check"] = C.Check;
    Notifications.push_back(json::Object{
        {"level", "error"},
        {"message", json::Object{{"text", C.message()}}},
        {"locations",
         json::Array{json::Object{
             {"physicalLocation",
              json::Object{{"artifactLocation",
                            artifactLocation(C.File, Root)}}}}}},
        {"properties", std::move(Properties)}});
  }
  return Notifications;
}

std::string helpUri(llvm::StringRef Check, llvm::StringRef DocsUrl) {
  if (Check.starts_with("cuda-"))
    return DocsUrl.empty() ? "" : (DocsUrl + Check + ".md").str();
  if (Check.starts_with("clang-diagnostic-"))
    return "";
  // A stock check: clang-tidy's page, checks/<module>/<rest>.html.
  if (Check.starts_with("clang-analyzer-"))
    return ("https://clang.llvm.org/extra/clang-tidy/checks/clang-analyzer/" +
            Check.drop_front(strlen("clang-analyzer-")) + ".html")
        .str();
  auto [Module, Rest] = Check.split('-');
  if (Rest.empty())
    return "";
  return ("https://clang.llvm.org/extra/clang-tidy/checks/" + Module + "/" +
          Rest + ".html")
      .str();
}

/// A compile error, as SARIF's tool notifications have them.
static json::Object compileErrorNotification(const ClangTidyError &E,
                                             LineIndex &Lines,
                                             llvm::StringRef Root) {
  json::Object N{{"level", "error"},
                 {"message", json::Object{{"text", E.Message.Message}}},
                 {"descriptor", json::Object{{"id", E.DiagnosticName}}}};
  if (!E.Message.FilePath.empty())
    N["locations"] = json::Array{
        physicalLocation(E.Message, E.BuildDirectory, Lines, Root)};
  return N;
}

void writeSarif(llvm::raw_ostream &OS, llvm::ArrayRef<ClangTidyError> Errors,
                LineIndex &Lines, llvm::StringRef Root,
                llvm::StringRef ToolVersion, const PartialRun *Partial,
                llvm::ArrayRef<InternalError> Crashes,
                llvm::StringRef DocsUrl) {
  // One rule per check that reported a finding, in name order; compile
  // errors are notifications of the tool, not results.
  auto IsCompileError = [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error;
  };
  std::map<std::string, unsigned> RuleIndex;
  for (const ClangTidyError &E : Errors)
    if (!IsCompileError(E))
      RuleIndex[E.DiagnosticName] = 0;
  json::Array Rules;
  unsigned Index = 0;
  for (auto &[Name, I] : RuleIndex) {
    I = Index++;
    auto Summary = checkSummaries().find(Name);
    std::string Text;
    if (Summary != checkSummaries().end())
      Text = Summary->second;
    else if (llvm::StringRef(Name).starts_with("clang-diagnostic-"))
      Text = "A diagnostic of the compiler: the file does not compile as "
             "analysed.";
    else
      Text = "The " + Name + " check.";
    json::Object Rule{{"id", Name},
                      {"name", Name},
                      {"shortDescription", json::Object{{"text", Text}}},
                      {"fullDescription", json::Object{{"text", Text}}},
                      {"defaultConfiguration",
                       json::Object{{"level", "warning"}}}};
    if (Summary != checkSummaries().end())
      Rule["help"] = json::Object{
          {"text", Text + " See docs/checks/" + Name + ".md."}};
    if (std::string Uri = helpUri(Name, DocsUrl); !Uri.empty())
      Rule["helpUri"] = Uri;
    Rules.push_back(std::move(Rule));
  }

  json::Array Results;
  json::Array Notifications;
  std::vector<std::string> Prints = fingerprints(Errors, Lines, Root);
  for (size_t I = 0; I < Errors.size(); ++I) {
    const ClangTidyError &E = Errors[I];
    if (IsCompileError(E)) {
      Notifications.push_back(compileErrorNotification(E, Lines, Root));
      continue;
    }
    json::Object Result{
        {"ruleId", E.DiagnosticName},
        {"ruleIndex", RuleIndex[E.DiagnosticName]},
        {"level", levelOf(E)},
        {"message", json::Object{{"text", E.Message.Message}}},
        {"partialFingerprints",
         json::Object{{"cudaTidyFingerprint/v1", Prints[I]}}}};
    if (!E.Message.FilePath.empty())
      Result["locations"] = json::Array{
          physicalLocation(E.Message, E.BuildDirectory, Lines, Root)};
    json::Array Related;
    for (const auto &Note : E.Notes) {
      if (Note.FilePath.empty())
        continue;
      json::Object L = physicalLocation(Note, E.BuildDirectory, Lines, Root);
      L["id"] = static_cast<int64_t>(Related.size());
      L["message"] = json::Object{{"text", Note.Message}};
      Related.push_back(std::move(L));
    }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    Results.push_back(std::move(Result));
  }

  json::Object Run{
      {"tool",
       json::Object{{"driver",
                     json::Object{{"name", "cuda-tidy"},
                                  {"version", ToolVersion},
                                  {"semanticVersion", ToolVersion},
                                  {"rules", std::move(Rules)}}}}},
      {"results", std::move(Results)}};
  // The run's invocation: successful when every file was analysed.
  for (json::Value &N : notifications(Partial, Crashes, Root))
    Notifications.push_back(std::move(N));
  json::Object Invocation{{"executionSuccessful", Notifications.empty()}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);
  Run["invocations"] = json::Array{std::move(Invocation)};
  if (!Root.empty())
    Run["originalUriBaseIds"] = json::Object{
        {"%SRCROOT%", json::Object{{"uri", "file://" + Root.str() + "/"}}}};
  json::Object Log{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", json::Value(std::move(Log))) << "\n";
}

void writeJson(llvm::raw_ostream &OS, llvm::ArrayRef<ClangTidyError> Errors,
               LineIndex &Lines, llvm::StringRef ToolVersion,
               const PartialRun *Partial,
               llvm::ArrayRef<InternalError> Crashes) {
  auto Loc = [&](const clang::tooling::DiagnosticMessage &M,
                 llvm::StringRef BuildDirectory) {
    std::string File = absolutePath(M, BuildDirectory);
    LineIndex::Position P = Lines.position(File, M.FileOffset);
    return json::Object{{"file", File},
                        {"line", P.Line},
                        {"column", P.Column},
                        {"message", M.Message}};
  };
  json::Array Findings;
  for (const ClangTidyError &E : Errors) {
    json::Object F = Loc(E.Message, E.BuildDirectory);
    F["check"] = E.DiagnosticName;
    F["level"] = levelOf(E);
    json::Array Notes;
    for (const auto &N : E.Notes)
      Notes.push_back(Loc(N, E.BuildDirectory));
    F["notes"] = std::move(Notes);
    F["has_fix"] = !E.Message.Fix.empty();
    Findings.push_back(std::move(F));
  }
  json::Object Top{{"tool", "cuda-tidy"},
                   {"version", ToolVersion},
                   {"findings", std::move(Findings)}};
  if (Partial) {
    Top["partial"] = true;
    Top["files_analysed"] = static_cast<int64_t>(Partial->FilesAnalysed);
    Top["files_total"] = static_cast<int64_t>(Partial->FilesTotal);
  }
  if (!Crashes.empty()) {
    json::Array Internal;
    for (const InternalError &C : Crashes)
      Internal.push_back(json::Object{
          {"file", C.File},
          {"check", C.Check.empty() ? json::Value(nullptr) : json::Value(C.Check)},
          {"message", C.message()}});
    Top["internal_errors"] = std::move(Internal);
  }
  OS << llvm::formatv("{0:2}", json::Value(std::move(Top))) << "\n";
}

// The cache's own format: every field clang-tidy needs to print, filter and
// apply fixes.
static json::Value messageToJson(const clang::tooling::DiagnosticMessage &M) {
  json::Array Fix;
  for (const auto &[File, Replacements] : M.Fix)
    for (const clang::tooling::Replacement &R : Replacements)
      Fix.push_back(json::Object{{"file", R.getFilePath()},
                                 {"offset", R.getOffset()},
                                 {"length", R.getLength()},
                                 {"text", R.getReplacementText()}});
  json::Array Ranges;
  for (const auto &R : M.Ranges)
    Ranges.push_back(json::Object{
        {"file", R.FilePath}, {"offset", R.FileOffset}, {"length", R.Length}});
  return json::Object{{"message", M.Message},
                      {"file", M.FilePath},
                      {"offset", M.FileOffset},
                      {"fix", std::move(Fix)},
                      {"ranges", std::move(Ranges)}};
}

static bool messageFromJson(const json::Value &V,
                            clang::tooling::DiagnosticMessage &M) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return false;
  auto Str = [&](llvm::StringRef Key) {
    return O->getString(Key).value_or("").str();
  };
  M.Message = Str("message");
  M.FilePath = Str("file");
  M.FileOffset = O->getInteger("offset").value_or(0);
  if (const json::Array *Fix = O->getArray("fix"))
    for (const json::Value &R : *Fix) {
      const json::Object *RO = R.getAsObject();
      if (!RO)
        return false;
      clang::tooling::Replacement Rep(
          RO->getString("file").value_or(""),
          RO->getInteger("offset").value_or(0),
          RO->getInteger("length").value_or(0),
          RO->getString("text").value_or(""));
      if (llvm::Error Err = M.Fix[Rep.getFilePath()].add(Rep)) {
        llvm::consumeError(std::move(Err));
        return false;
      }
    }
  if (const json::Array *Ranges = O->getArray("ranges"))
    for (const json::Value &R : *Ranges) {
      const json::Object *RO = R.getAsObject();
      if (!RO)
        return false;
      clang::tooling::FileByteRange B;
      B.FilePath = RO->getString("file").value_or("").str();
      B.FileOffset = RO->getInteger("offset").value_or(0);
      B.Length = RO->getInteger("length").value_or(0);
      M.Ranges.push_back(B);
    }
  return true;
}

json::Value errorsToJson(llvm::ArrayRef<ClangTidyError> Errors) {
  json::Array Out;
  for (const ClangTidyError &E : Errors) {
    json::Array Notes;
    for (const auto &N : E.Notes)
      Notes.push_back(messageToJson(N));
    json::Array Aliases;
    for (const std::string &A : E.EnabledDiagnosticAliases)
      Aliases.push_back(A);
    Out.push_back(json::Object{{"name", E.DiagnosticName},
                               {"level", static_cast<int64_t>(E.DiagLevel)},
                               {"build_directory", E.BuildDirectory},
                               {"warning_as_error", E.IsWarningAsError},
                               {"message", messageToJson(E.Message)},
                               {"notes", std::move(Notes)},
                               {"aliases", std::move(Aliases)}});
  }
  return Out;
}

bool errorsFromJson(const json::Value &V,
                    std::vector<ClangTidyError> &Errors) {
  const json::Array *A = V.getAsArray();
  if (!A)
    return false;
  for (const json::Value &Item : *A) {
    const json::Object *O = Item.getAsObject();
    if (!O)
      return false;
    int64_t Level = O->getInteger("level").value_or(-1);
    if (Level != ClangTidyError::Remark && Level != ClangTidyError::Warning &&
        Level != ClangTidyError::Error)
      return false;
    ClangTidyError E(O->getString("name").value_or(""),
                     static_cast<ClangTidyError::Level>(Level),
                     O->getString("build_directory").value_or(""),
                     O->getBoolean("warning_as_error").value_or(false));
    const json::Value *Message = O->get("message");
    if (!Message || !messageFromJson(*Message, E.Message))
      return false;
    if (const json::Array *Notes = O->getArray("notes"))
      for (const json::Value &N : *Notes) {
        clang::tooling::DiagnosticMessage M;
        if (!messageFromJson(N, M))
          return false;
        E.Notes.push_back(std::move(M));
      }
    if (const json::Array *Aliases = O->getArray("aliases"))
      for (const json::Value &Alias : *Aliases)
        E.EnabledDiagnosticAliases.push_back(
            Alias.getAsString().value_or("").str());
    Errors.push_back(std::move(E));
  }
  return true;
}

} // namespace cudatidy
