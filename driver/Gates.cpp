//===- Gates.cpp ----------------------------------------------------------===//

#include "Gates.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace cudatidy {

namespace json = llvm::json;

static bool isFinding(const ClangTidyError &E) {
  return E.DiagLevel == ClangTidyError::Warning;
}

static std::string folderOf(llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return std::string(llvm::sys::path::parent_path(Abs));
}

std::string writeBaseline(llvm::StringRef Path,
                          llvm::ArrayRef<ClangTidyError> Errors,
                          LineIndex &Lines) {
  std::vector<ClangTidyError> Findings;
  for (const ClangTidyError &E : Errors)
    if (isFinding(E))
      Findings.push_back(E);
  std::string Root = folderOf(Path);
  std::vector<std::string> Prints = fingerprints(Findings, Lines, Root);
  json::Array Items;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const ClangTidyError &E = Findings[I];
    std::string File = absolutePath(E.Message, E.BuildDirectory);
    llvm::StringRef Rel = File;
    if (Rel.starts_with(Root + "/"))
      Rel = Rel.drop_front(Root.size() + 1);
    // The check, file and message are there for people who read the file
    // in a review; only the fingerprint is matched.
    Items.push_back(json::Object{{"fingerprint", Prints[I]},
                                 {"check", E.DiagnosticName},
                                 {"file", Rel.str()},
                                 {"message", E.Message.Message}});
  }
  // Written to a temporary file beside it and renamed, so that a run that
  // reads the baseline meanwhile sees the old file or the new one, never
  // half of one.
  llvm::SmallString<256> Temp;
  int FD;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Path + ".tmp-%%%%%%%%", FD, Temp))
    return "cannot write the baseline '" + Path.str() + "': " + EC.message();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << llvm::formatv(
              "{0:2}",
              json::Value(json::Object{{"tool", "cuda-tidy"},
                                       {"baseline_version", 1},
                                       {"findings", std::move(Items)}}))
       << "\n";
    OS.close();
    if (OS.has_error()) {
      std::string Err = OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return "cannot write the baseline '" + Path.str() + "': " + Err;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return "cannot write the baseline '" + Path.str() + "': " + EC.message();
  }
  return "";
}

std::string parseBaseline(llvm::StringRef Text, llvm::StringRef Path,
                          std::multiset<std::string> &Known) {
  llvm::Expected<json::Value> V = json::parse(Text);
  if (!V)
    return "the baseline '" + Path.str() +
           "' is not JSON: " + llvm::toString(V.takeError());
  const json::Object *Top = V->getAsObject();
  const json::Array *Items = Top ? Top->getArray("findings") : nullptr;
  if (!Items || Top->getInteger("baseline_version") != 1)
    return "the baseline '" + Path.str() +
           "' is not a cuda-tidy baseline (write one with --write-baseline)";
  for (const json::Value &Item : *Items) {
    const json::Object *O = Item.getAsObject();
    std::optional<llvm::StringRef> F =
        O ? O->getString("fingerprint") : std::nullopt;
    if (!F)
      return "the baseline '" + Path.str() +
             "' has an entry without a fingerprint";
    Known.insert(F->str());
  }
  return "";
}

std::string applyBaseline(llvm::StringRef Path,
                          std::vector<ClangTidyError> &Errors,
                          LineIndex &Lines, size_t &Suppressed) {
  Suppressed = 0;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return "cannot read the baseline '" + Path.str() +
           "': " + Buffer.getError().message();
  std::multiset<std::string> Known;
  if (std::string Err = parseBaseline((*Buffer)->getBuffer(), Path, Known);
      !Err.empty())
    return Err;
  std::vector<ClangTidyError> Findings;
  for (const ClangTidyError &E : Errors)
    if (isFinding(E))
      Findings.push_back(E);
  std::vector<std::string> Prints =
      fingerprints(Findings, Lines, folderOf(Path));
  std::vector<ClangTidyError> Kept;
  size_t FindingIndex = 0;
  for (ClangTidyError &E : Errors) {
    if (isFinding(E)) {
      auto It = Known.find(Prints[FindingIndex++]);
      if (It != Known.end()) {
        Known.erase(It);
        ++Suppressed;
        continue;
      }
    }
    Kept.push_back(std::move(E));
  }
  Errors = std::move(Kept);
  return "";
}

/// The real absolute path of a path in a diff, relative to \p Root.
static std::string diffPath(llvm::StringRef Path, llvm::StringRef Root) {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P))
    llvm::sys::path::make_absolute(Root, P);
  llvm::sys::path::remove_dots(P, true);
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(P, Real))
    P = Real;
  return std::string(P);
}

ChangedLines parseUnifiedDiff(llvm::StringRef Diff, llvm::StringRef Root) {
  ChangedLines Out;
  std::string Current;
  bool NewFile = false; // "--- /dev/null": the next file is new, all of it.
  unsigned NewLine = 0;  // The new file's line the next hunk line is on.
  bool InHunk = false;
  llvm::SmallVector<llvm::StringRef, 0> DiffLines;
  Diff.split(DiffLines, '\n');
  for (llvm::StringRef Line : DiffLines) {
    Line = Line.rtrim('\r');
    if (InHunk && !Line.starts_with("@@")) {
      // Hunk lines: '+' added (a changed line), ' ' context, '-' removed.
      if (Line.starts_with("+")) {
        if (!Current.empty())
          Out[Current].insert(NewLine);
        ++NewLine;
        continue;
      }
      if (Line.starts_with(" ") || Line.empty()) {
        ++NewLine;
        continue;
      }
      if (Line.starts_with("-") && !Line.starts_with("---"))
        continue;
      if (Line.starts_with("\\"))
        continue; // "\ No newline at end of file"
      InHunk = false;
    }
    if (Line.starts_with("--- ")) {
      NewFile = Line.drop_front(4).split('\t').first == "/dev/null";
      continue;
    }
    if (Line.consume_front("+++ ")) {
      Line = Line.split('\t').first; // Some tools add a timestamp.
      if (Line == "/dev/null") {
        Current.clear();
        continue;
      }
      Line.consume_front("b/");
      Current = diffPath(Line, Root);
      Out[Current]; // A file with only deletions is still "changed".
      if (NewFile)
        Out[Current].insert(WholeFile);
      continue;
    }
    if (!Line.consume_front("@@ "))
      continue;
    // "@@ -a,b +c,d @@": the new file's lines start at c.
    size_t Plus = Line.find('+');
    if (Plus == llvm::StringRef::npos)
      continue;
    llvm::StringRef Start = Line.substr(Plus + 1).split(' ').first;
    if (Start.split(',').first.getAsInteger(10, NewLine))
      continue;
    InHunk = true;
  }
  return Out;
}

/// Runs git with \p Args in \p Dir; its stdout goes to \p Output.
static std::string runGit(llvm::ArrayRef<llvm::StringRef> Args,
                          llvm::StringRef Dir, std::string &Output) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return "git is not on PATH";
  llvm::SmallString<128> OutFile, ErrFile;
  if (llvm::sys::fs::createTemporaryFile("cuda-tidy-git", "out", OutFile) ||
      llvm::sys::fs::createTemporaryFile("cuda-tidy-git", "err", ErrFile))
    return "cannot create a temporary file";
  std::vector<llvm::StringRef> Argv = {*Git, "-C", Dir};
  llvm::append_range(Argv, Args);
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                OutFile.str(), ErrFile.str()};
  std::string ExecError;
  int RC = llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects, 0,
                                     0, &ExecError);
  auto Read = [](llvm::StringRef P) {
    auto B = llvm::MemoryBuffer::getFile(P);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  Output = Read(OutFile);
  std::string Err = llvm::StringRef(Read(ErrFile)).trim().str();
  llvm::sys::fs::remove(OutFile);
  llvm::sys::fs::remove(ErrFile);
  if (RC != 0)
    return "git " + llvm::join(Args, " ") + " failed: " +
           (Err.empty() ? ExecError : Err);
  return "";
}

std::string changedLinesSince(llvm::StringRef Rev, llvm::StringRef Dir,
                              ChangedLines &Out) {
  std::string Top;
  if (std::string Err = runGit({"rev-parse", "--show-toplevel"}, Dir, Top);
      !Err.empty())
    return Err;
  Top = llvm::StringRef(Top).trim().str();
  std::string Diff;
  // The working tree against Rev: what a change (committed or not) adds.
  if (std::string Err = runGit({"diff", "--no-color", "--no-ext-diff",
                                "--unified=0", Rev, "--"},
                               Top, Diff);
      !Err.empty())
    return Err;
  Out = parseUnifiedDiff(Diff, Top);
  // Untracked files are new in the working tree: wholly changed.
  std::string Untracked;
  if (std::string Err = runGit({"ls-files", "--others", "--exclude-standard",
                                "-z"},
                               Top, Untracked);
      !Err.empty())
    return Err;
  llvm::SmallVector<llvm::StringRef> Paths;
  llvm::StringRef(Untracked).split(Paths, '\0', -1, false);
  for (llvm::StringRef P : Paths)
    Out[diffPath(P, Top)].insert(WholeFile);
  return "";
}

void keepChangedLines(std::vector<ClangTidyError> &Errors,
                      const ChangedLines &Changed, LineIndex &Lines,
                      size_t &Dropped) {
  Dropped = 0;
  std::vector<ClangTidyError> Kept;
  for (ClangTidyError &E : Errors) {
    if (isFinding(E)) {
      std::string File = absolutePath(E.Message, E.BuildDirectory);
      // Compare real paths: the diff and the compile command may name a
      // file through different links.
      llvm::SmallString<256> Real;
      if (!llvm::sys::fs::real_path(File, Real))
        File = std::string(Real);
      auto It = Changed.find(File);
      unsigned Line = Lines.position(File, E.Message.FileOffset).Line;
      if (It == Changed.end() ||
          (!It->second.count(Line) && !It->second.count(WholeFile))) {
        ++Dropped;
        continue;
      }
    }
    Kept.push_back(std::move(E));
  }
  Errors = std::move(Kept);
}

} // namespace cudatidy
