//===- FileSelection.cpp - Which files a run analyses ---------------------===//
//
// See FileSelection.h.
//
//===----------------------------------------------------------------------===//

#include "FileSelection.h"
#include "CudaToolkit.h"
#include "PythonInput.h"
#include <algorithm>
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

namespace cudatidy {

static std::string absoluteIn(llvm::StringRef Dir, llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P)) {
    llvm::SmallString<256> Base(Dir);
    llvm::sys::fs::make_absolute(Base);
    llvm::sys::path::append(Base, P);
    P = Base;
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::vector<std::string>
databaseFiles(const clang::tooling::CompilationDatabase &DB, size_t &Skipped) {
  std::vector<std::string> Files;
  llvm::StringSet<> Seen;
  Skipped = 0;
  for (const clang::tooling::CompileCommand &C : DB.getAllCompileCommands()) {
    std::string Path = absoluteIn(C.Directory, C.Filename);
    if (!Seen.insert(Path).second)
      continue;
    if (isSupportedFileName(Path))
      Files.push_back(std::move(Path));
    else
      ++Skipped;
  }
  return Files;
}

std::string readFileList(llvm::StringRef ListFile,
                         std::vector<std::string> &Paths) {
  auto Text = ListFile == "-" ? llvm::MemoryBuffer::getSTDIN()
                              : llvm::MemoryBuffer::getFile(ListFile);
  if (!Text)
    return "cannot read the file list '" + ListFile.str() +
           "': " + Text.getError().message();
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.empty() && !Line.starts_with("#"))
      Paths.push_back(Line.str());
  }
  return "";
}

std::string parseShard(llvm::StringRef Spec, Shard &Out) {
  auto [I, N] = Spec.split('/');
  if (I.trim().getAsInteger(10, Out.Index) ||
      N.trim().getAsInteger(10, Out.Count) || Out.Count == 0 ||
      Out.Index == 0 || Out.Index > Out.Count)
    return "--shard takes I/N with 1 <= I <= N (e.g. --shard=2/4), not '" +
           Spec.str() + "'";
  return "";
}

std::vector<std::string> shardOf(const std::vector<std::string> &Files,
                                 Shard S) {
  std::vector<std::string> Mine;
  for (size_t P = S.Index - 1; P < Files.size(); P += S.Count)
    Mine.push_back(Files[P]);
  return Mine;
}

std::string filterPaths(llvm::StringRef Regex,
                        std::vector<std::string> &Paths) {
  llvm::Regex R(Regex);
  std::string Err;
  if (!R.isValid(Err))
    return "invalid --path-regex '" + Regex.str() + "': " + Err;
  std::vector<std::string> Kept;
  for (std::string &P : Paths) {
    llvm::SmallString<256> Abs(P);
    llvm::sys::fs::make_absolute(Abs);
    if (R.match(Abs))
      Kept.push_back(std::move(P));
  }
  Paths = std::move(Kept);
  return "";
}

size_t addProjectPythonFiles(llvm::StringRef Root, llvm::StringRef BuildDir,
                             std::vector<std::string> &Paths) {
  llvm::SmallString<256> Build(BuildDir);
  if (!Build.empty()) {
    llvm::sys::fs::make_absolute(Build);
    llvm::sys::path::remove_dots(Build, /*remove_dot_dot=*/true);
  }
  llvm::StringSet<> Known;
  for (const std::string &P : Paths)
    Known.insert(P);
  std::vector<std::string> Found;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Path = It->path();
    llvm::StringRef Name = llvm::sys::path::filename(Path);
    if (It->type() == llvm::sys::fs::file_type::directory_file) {
      if ((Name.starts_with(".") && Name != ".") || Name == "site-packages" ||
          Name == "node_modules" || Name == "__pycache__" || Name == "venv" ||
          Path == Build)
        It.no_push();
      continue;
    }
    if (isPythonFileName(Path) && !Known.count(Path) && mayHoldCuda(Path))
      Found.push_back(Path.str());
  }
  std::sort(Found.begin(), Found.end());
  Paths.insert(Paths.end(), Found.begin(), Found.end());
  return Found.size();
}

} // namespace cudatidy
