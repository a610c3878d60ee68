//===- TorchSupport.cpp - PyTorch extensions: headers, flags, builds ------===//
//
// See TorchSupport.h.
//
//===----------------------------------------------------------------------===//

#include "TorchSupport.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <mutex>

using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;
using llvm::StringRef;

namespace cudatidy {
namespace {

TorchSettings Settings;

/// The defines every torch CUDA build passes (COMMON_NVCC_FLAGS of
/// torch/utils/cpp_extension.py): they hide CUDA's implicit half and
/// bfloat16 conversions, which torch's own types provide instead.
constexpr const char *TorchCudaDefines[] = {
    "__CUDA_NO_HALF_OPERATORS__", "__CUDA_NO_HALF_CONVERSIONS__",
    "__CUDA_NO_BFLOAT16_CONVERSIONS__", "__CUDA_NO_HALF2_OPERATORS__"};

/// Prints a Python program's JSON output, or why it failed.
std::optional<llvm::json::Value>
runPythonJson(llvm::ArrayRef<StringRef> Args, std::string &Error,
              std::string *Stderr = nullptr) {
  llvm::SmallString<128> Out, Err;
  if (llvm::sys::fs::createTemporaryFile("cuda-tidy-py", "out", Out) ||
      llvm::sys::fs::createTemporaryFile("cuda-tidy-py", "err", Err)) {
    Error = "cannot create a temporary file";
    return std::nullopt;
  }
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out),
                                          StringRef(Err)};
  std::string ExecError;
  int Rc =
      llvm::sys::ExecuteAndWait(Args.front(), Args, std::nullopt, Redirects,
                                /*SecondsToWait=*/120, 0, &ExecError);
  auto OutText = llvm::MemoryBuffer::getFile(Out);
  auto ErrText = llvm::MemoryBuffer::getFile(Err);
  llvm::sys::fs::remove(Out);
  llvm::sys::fs::remove(Err);
  if (Stderr && ErrText)
    *Stderr = (*ErrText)->getBuffer().str();
  if (Rc != 0 || !OutText) {
    std::string Why = ExecError;
    if (Why.empty() && ErrText)
      Why = StringRef((*ErrText)->getBuffer()).trim().rsplit('\n').second.str();
    if (Why.empty() && ErrText)
      Why = StringRef((*ErrText)->getBuffer()).trim().str();
    Error =
        "'" + Args.front().str() + "' failed" + (Why.empty() ? "" : ": " + Why);
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> V =
      llvm::json::parse((*OutText)->getBuffer());
  if (!V) {
    Error = "'" + Args.front().str() + "' printed no JSON (" +
            llvm::toString(V.takeError()) + ")";
    return std::nullopt;
  }
  return std::move(*V);
}

/// The Python named by --python, $CUDA_TIDY_PYTHON, or PATH.
std::string pythonProgram(std::string &Error) {
  std::string Name = Settings.Python;
  if (Name.empty())
    if (std::optional<std::string> Env =
            llvm::sys::Process::GetEnv("CUDA_TIDY_PYTHON"))
      Name = *Env;
  std::string Source = Settings.Python.empty()
                           ? (Name.empty() ? "PATH" : "CUDA_TIDY_PYTHON")
                           : "--python";
  if (Name.empty())
    Name = "python3";
  if (llvm::sys::path::has_parent_path(Name)) {
    if (llvm::sys::fs::can_execute(Name))
      return Name;
  } else if (llvm::ErrorOr<std::string> P =
                 llvm::sys::findProgramByName(Name)) {
    return *P;
  }
  Error = "no Python to find torch with: '" + Name + "' (from " + Source +
          ") is not an executable";
  return "";
}

/// Where torch is, as the setup.py reader printed it beside its commands
/// (`torch-install: {json}` on stderr), so that finding torch costs no
/// second Python process; set before the files are analysed.
std::mutex ReaderTorchMutex;
std::optional<llvm::json::Value> ReaderTorch;

/// Finds torch's package folder without importing it: the setup.py
/// reader's find_torch() (driver/python/torch_setup_commands.py), from the
/// reader's run on the project's setup.py when there was one.
std::optional<llvm::json::Value> findTorchWith(const std::string &Python,
                                               std::string &Error) {
  {
    std::lock_guard<std::mutex> Lock(ReaderTorchMutex);
    if (ReaderTorch)
      return ReaderTorch;
  }
  if (Settings.SetupReader.empty()) {
    Error = "the setup.py reader is missing (expected in "
            "share/cuda-tidy/python beside bin/)";
    return std::nullopt;
  }
  return runPythonJson({Python, Settings.SetupReader, "--find-torch"}, Error);
}

std::optional<TorchInstall> locateTorch(std::string &Error) {
  TorchInstall T;
  std::string Include = Settings.ExplicitInclude;
  std::string PyError;
  std::string Python = pythonProgram(PyError);
  std::optional<llvm::json::Value> Found;
  if (!Python.empty())
    Found = findTorchWith(Python, PyError);
  const llvm::json::Object *O = Found ? Found->getAsObject() : nullptr;
  if (O)
    if (std::optional<StringRef> Py = O->getString("include"))
      if (llvm::sys::fs::exists(*Py + "/Python.h"))
        T.PythonInclude = Py->str();
  if (Include.empty()) {
    std::optional<StringRef> Root = O ? O->getString("torch") : std::nullopt;
    if (!Root) {
      Error = PyError.empty()
                  ? "PyTorch is not installed for '" + Python +
                        "' (importlib finds no 'torch' package); install it, "
                        "name another Python with --python or "
                        "CUDA_TIDY_PYTHON, or its include folder with "
                        "--torch-include"
                  : "cannot look for PyTorch: " + PyError +
                        "; name a Python with --python or CUDA_TIDY_PYTHON, "
                        "or torch's include folder with --torch-include";
      return std::nullopt;
    }
    Include = (*Root + "/include").str();
    if (std::optional<StringRef> V = O->getString("version"))
      T.Version = V->str();
  }
  if (!llvm::sys::fs::exists(Include + "/torch/extension.h")) {
    Error =
        Settings.ExplicitInclude.empty()
            ? "the PyTorch package at '" +
                  llvm::sys::path::parent_path(Include).str() +
                  "' has no C++ headers (include/torch/extension.h)"
            : "--torch-include '" + Include + "' holds no torch/extension.h";
    return std::nullopt;
  }
  T.IncludeDirs = {Include, Include + "/torch/csrc/api/include"};
  return T;
}

bool startsWithDefineOf(StringRef Arg, StringRef Name) {
  StringRef Rest;
  if (Arg.consume_front("-D") || Arg.consume_front("-U"))
    Rest = Arg;
  else
    return false;
  return Rest == Name || Rest.starts_with((Name + "=").str());
}

bool definesOrUndefines(const std::vector<std::string> &Args, StringRef Name) {
  for (size_t I = 0; I < Args.size(); ++I) {
    if (startsWithDefineOf(Args[I], Name))
      return true;
    if ((Args[I] == "-D" || Args[I] == "-U") && I + 1 < Args.size() &&
        (Args[I + 1] == Name ||
         StringRef(Args[I + 1]).starts_with((Name + "=").str())))
      return true;
  }
  return false;
}

/// A C identifier made of \p Stem (the extension's module name).
std::string identifierOf(StringRef Stem) {
  std::string Id;
  for (char C : Stem)
    Id += llvm::isAlnum(C) ? C : '_';
  if (Id.empty() || llvm::isDigit(Id.front()))
    Id.insert(Id.begin(), '_');
  return Id;
}

} // namespace

void setTorchSettings(TorchSettings S) { Settings = std::move(S); }

namespace {

/// The folders of a command's -I and -iquote options.
std::vector<std::string> quotedSearchDirs(const std::vector<std::string> &Args,
                                          StringRef Directory) {
  std::vector<std::string> Dirs;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    std::string Dir;
    for (StringRef Flag : {"-I", "-iquote", "-isystem"}) {
      if (A == Flag && I + 1 < Args.size())
        Dir = Args[I + 1];
      else if (A.starts_with(Flag) && A.size() > Flag.size() &&
               !A.drop_front(Flag.size()).starts_with("-"))
        Dir = A.drop_front(Flag.size()).str();
      if (!Dir.empty())
        break;
    }
    if (Dir.empty())
      continue;
    llvm::SmallString<256> D(Dir);
    if (!llvm::sys::path::is_absolute(D))
      llvm::sys::path::make_absolute(Directory, D);
    Dirs.push_back(std::string(D));
  }
  return Dirs;
}

/// How deep, and through how many of a project's headers, the search for a
/// torch include goes (pytorch3d's pulsar reaches ATen five levels down).
constexpr unsigned TorchIncludeDepth = 8;
constexpr unsigned TorchIncludeFiles = 256;

/// Whether \p Path, or a header it includes with quotes (found beside it or
/// in \p Dirs, at most \p Depth levels down), includes a torch, ATen or c10
/// header.
bool includesTorchFrom(StringRef Path, const std::vector<std::string> &Dirs,
                       unsigned Depth, llvm::StringSet<> &Seen) {
  if (Seen.size() >= TorchIncludeFiles || !Seen.insert(Path).second)
    return false;
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return false;
  llvm::SmallVector<StringRef, 0> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  std::vector<std::string> Quoted;
  for (StringRef Line : Lines) {
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim();
    bool IsQuoted = Line.consume_front("\"");
    if (!IsQuoted && !Line.consume_front("<"))
      continue;
    if (Line.starts_with("torch/") || Line.starts_with("ATen/") ||
        Line.starts_with("c10/"))
      return true;
    if (IsQuoted)
      Quoted.push_back(Line.take_until([](char C) { return C == '"'; }).str());
  }
  if (Depth == 0)
    return false;
  StringRef Here = llvm::sys::path::parent_path(Path);
  for (const std::string &Name : Quoted) {
    llvm::SmallString<256> Found(Here);
    llvm::sys::path::append(Found, Name);
    if (!llvm::sys::fs::exists(Found)) {
      Found.clear();
      for (const std::string &D : Dirs) {
        llvm::SmallString<256> C(D);
        llvm::sys::path::append(C, Name);
        if (llvm::sys::fs::exists(C)) {
          Found = C;
          break;
        }
      }
    }
    if (!Found.empty() && includesTorchFrom(Found, Dirs, Depth - 1, Seen))
      return true;
  }
  return false;
}

bool includesTorchCached(StringRef Path, const std::vector<std::string> &Dirs) {
  static std::mutex M;
  static std::map<std::pair<std::string, std::vector<std::string>>, bool> Known;
  std::lock_guard<std::mutex> Lock(M);
  auto Key = std::make_pair(Path.str(), Dirs);
  auto It = Known.find(Key);
  if (It != Known.end())
    return It->second;
  llvm::StringSet<> Seen;
  return Known[Key] = includesTorchFrom(Path, Dirs, TorchIncludeDepth, Seen);
}

} // namespace

bool includesTorchHeaders(StringRef Path) {
  return includesTorchCached(Path, {});
}

bool commandIncludesTorch(const CompileCommand &Command) {
  llvm::SmallString<256> File(Command.Filename);
  if (!llvm::sys::path::is_absolute(File))
    llvm::sys::path::make_absolute(Command.Directory, File);
  return includesTorchCached(
      File, quotedSearchDirs(Command.CommandLine, Command.Directory));
}

bool namesTorchInclude(const std::vector<std::string> &Args) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    std::string Dir;
    for (StringRef Flag : {"-isystem", "-I", "-idirafter", "-iquote"}) {
      if (A == Flag && I + 1 < Args.size()) {
        Dir = Args[I + 1];
        break;
      }
      if (A.starts_with(Flag) && A.size() > Flag.size()) {
        Dir = A.drop_front(Flag.size()).str();
        break;
      }
    }
    if (!Dir.empty() && llvm::sys::fs::exists(Dir + "/torch/extension.h"))
      return true;
  }
  return false;
}

const TorchInstall *findTorch(std::string &Error) {
  static std::once_flag Once;
  static std::optional<TorchInstall> Found;
  static std::string FoundError;
  std::call_once(Once, [] { Found = locateTorch(FoundError); });
  Error = FoundError;
  return Found ? &*Found : nullptr;
}

namespace {
/// Whether \p Command compiles CUDA (a .cu file, -x cuda, a CUDA pass).
bool isCudaCommand(const CompileCommand &Command) {
  StringRef Ext = llvm::sys::path::extension(Command.Filename);
  if (Ext == ".cu" || Ext == ".cuh")
    return true;
  const std::vector<std::string> &Args = Command.CommandLine;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-xcuda" || A == "--x=cuda" ||
        (A == "-x" && I + 1 < Args.size() && Args[I + 1] == "cuda") ||
        A.starts_with("--cuda-"))
      return true;
  }
  return false;
}
} // namespace

void addTorchFlags(CompileCommand &Command) {
  if (!commandIncludesTorch(Command))
    return;
  std::vector<std::string> &Args = Command.CommandLine;
  std::vector<std::string> Added;
  if (!namesTorchInclude(Args)) {
    std::string Error;
    if (const TorchInstall *T = findTorch(Error)) {
      for (const std::string &Dir : T->IncludeDirs) {
        Added.push_back("-isystem");
        Added.push_back(Dir);
      }
      if (!T->PythonInclude.empty()) {
        Added.push_back("-isystem");
        Added.push_back(T->PythonInclude);
      }
    }
  }
  // torch passes these to nvcc only (COMMON_NVCC_FLAGS): a C++ file that
  // converts float to __half compiles with the host compiler, and would
  // not with them.
  if (isCudaCommand(Command))
    for (const char *Define : TorchCudaDefines)
      if (!definesOrUndefines(Args, Define))
        Added.push_back(std::string("-D") + Define);
  if (!definesOrUndefines(Args, "TORCH_API_INCLUDE_EXTENSION_H"))
    Added.push_back("-DTORCH_API_INCLUDE_EXTENSION_H");
  // An extension's sources share one name and usually one folder: the
  // folder's name keeps one precompiled prefix for all of them.
  if (!definesOrUndefines(Args, "TORCH_EXTENSION_NAME")) {
    llvm::SmallString<256> Abs(Command.Filename);
    if (!llvm::sys::path::is_absolute(Abs))
      llvm::sys::path::make_absolute(Command.Directory, Abs);
    Added.push_back("-DTORCH_EXTENSION_NAME=" +
                    identifierOf(llvm::sys::path::filename(
                        llvm::sys::path::parent_path(Abs))));
  }
  if (!llvm::any_of(Args, [](const std::string &A) {
        return StringRef(A).starts_with("-std=") ||
               StringRef(A).starts_with("--std=");
      }))
    Added.push_back("-std=c++17");
  if (Added.empty())
    return;
  Args.insert(Args.begin() + (Args.empty() ? 0 : 1), Added.begin(),
              Added.end());
}

// ---------------------------------------------------------------------------
// build.ninja

namespace {

/// The commands of a torch build.ninja's compile steps.
class NinjaDatabase : public CompilationDatabase {
public:
  std::vector<CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    llvm::SmallString<256> P(FilePath);
    llvm::sys::fs::make_absolute(P);
    llvm::sys::path::remove_dots(P, true);
    std::vector<CompileCommand> Out;
    for (const CompileCommand &C : Commands)
      if (C.Filename == P)
        Out.push_back(C);
    return Out;
  }
  std::vector<std::string> getAllFiles() const override {
    std::vector<std::string> Files;
    for (const CompileCommand &C : Commands)
      if (!llvm::is_contained(Files, C.Filename))
        Files.push_back(C.Filename);
    return Files;
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return Commands;
  }
  std::vector<CompileCommand> Commands;
};

/// Expands ninja's escapes and variables in \p Text.
std::string expandNinja(StringRef Text,
                        const std::map<std::string, std::string> &Scope) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C != '$' || I + 1 == Text.size()) {
      Out += C;
      continue;
    }
    char N = Text[++I];
    if (N == '$' || N == ' ' || N == ':') {
      Out += N;
      continue;
    }
    std::string Name;
    if (N == '{') {
      size_t End = Text.find('}', I);
      if (End == StringRef::npos)
        break;
      Name = Text.slice(I + 1, End).str();
      I = End;
    } else {
      size_t J = I;
      while (J < Text.size() &&
             (llvm::isAlnum(Text[J]) || Text[J] == '_' || Text[J] == '-'))
        ++J;
      Name = Text.slice(I, J).str();
      I = J - 1;
    }
    auto It = Scope.find(Name);
    if (It != Scope.end())
      Out += It->second;
  }
  return Out;
}

/// Splits a ninja path list at unescaped spaces.
std::vector<std::string> ninjaPaths(StringRef Text) {
  std::vector<std::string> Paths;
  std::string Cur;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '$' && I + 1 < Text.size()) {
      Cur += Text[++I];
      continue;
    }
    if (Text[I] == ' ') {
      if (!Cur.empty())
        Paths.push_back(Cur);
      Cur.clear();
      continue;
    }
    Cur += Text[I];
  }
  if (!Cur.empty())
    Paths.push_back(Cur);
  return Paths;
}

/// The unescaped ':' that ends a build statement's outputs.
size_t outputsEnd(StringRef Line) {
  for (size_t I = 0; I < Line.size(); ++I) {
    if (Line[I] == '$') {
      ++I;
      continue;
    }
    if (Line[I] == ':')
      return I;
  }
  return StringRef::npos;
}

} // namespace

std::unique_ptr<CompilationDatabase> loadTorchNinja(StringRef BuildNinja,
                                                    std::string &Error) {
  auto Text = llvm::MemoryBuffer::getFile(BuildNinja);
  if (!Text) {
    Error =
        "cannot read '" + BuildNinja.str() + "': " + Text.getError().message();
    return nullptr;
  }
  // Join "$\n" continuations, then read line by line.
  std::string Joined;
  StringRef Buf = (*Text)->getBuffer();
  for (size_t I = 0; I < Buf.size(); ++I) {
    if (Buf[I] == '$' && I + 1 < Buf.size() && Buf[I + 1] == '\n') {
      I += 1;
      while (I + 1 < Buf.size() && Buf[I + 1] == ' ')
        ++I;
      continue;
    }
    if (Buf[I] == '$' && I + 1 < Buf.size()) {
      Joined += Buf[I];
      Joined += Buf[++I];
      continue;
    }
    Joined += Buf[I];
  }
  llvm::SmallVector<StringRef, 0> Lines;
  StringRef(Joined).split(Lines, '\n');

  std::map<std::string, std::string> Globals;
  std::map<std::string, std::string> RuleCommands;
  struct Build {
    std::vector<std::string> Outputs, Inputs;
    std::string Rule;
    std::map<std::string, std::string> Bindings;
  };
  std::vector<Build> Builds;
  std::string CurrentRule;
  Build *CurrentBuild = nullptr;
  for (StringRef Raw : Lines) {
    if (Raw.trim().empty() || Raw.ltrim().starts_with("#"))
      continue;
    bool Indented = Raw.starts_with(" ") || Raw.starts_with("\t");
    StringRef Line = Raw.trim();
    if (Indented) {
      auto [Name, Value] = Line.split('=');
      Name = Name.trim();
      Value = Value.ltrim();
      if (!CurrentRule.empty() && Name == "command")
        RuleCommands[CurrentRule] = Value.str();
      else if (CurrentBuild)
        CurrentBuild->Bindings[Name.str()] = expandNinja(Value, Globals);
      continue;
    }
    CurrentRule.clear();
    CurrentBuild = nullptr;
    if (Line.consume_front("rule ")) {
      CurrentRule = Line.trim().str();
    } else if (Line.consume_front("build ")) {
      size_t Colon = outputsEnd(Line);
      if (Colon == StringRef::npos)
        continue;
      Build B;
      B.Outputs = ninjaPaths(Line.take_front(Colon));
      StringRef Rest = Line.drop_front(Colon + 1).ltrim();
      auto [Rule, Ins] = Rest.split(' ');
      B.Rule = Rule.str();
      // Implicit ("|") and order-only ("||") inputs are not sources.
      size_t Bar = Ins.find(" |");
      B.Inputs = ninjaPaths(Bar == StringRef::npos ? Ins : Ins.take_front(Bar));
      Builds.push_back(std::move(B));
      CurrentBuild = &Builds.back();
    } else if (Line.contains('=') && !Line.starts_with("default ") &&
               !Line.starts_with("pool ") && !Line.starts_with("include ") &&
               !Line.starts_with("subninja ")) {
      auto [Name, Value] = Line.split('=');
      Globals[Name.trim().str()] = expandNinja(Value.ltrim(), Globals);
    }
  }

  auto DB = std::make_unique<NinjaDatabase>();
  StringRef Dir = llvm::sys::path::parent_path(BuildNinja);
  llvm::SmallString<256> AbsDir(Dir.empty() ? "." : Dir);
  llvm::sys::fs::make_absolute(AbsDir);
  llvm::sys::path::remove_dots(AbsDir, true);
  for (const Build &B : Builds) {
    auto Rule = RuleCommands.find(B.Rule);
    if (Rule == RuleCommands.end() || B.Inputs.size() != 1)
      continue;
    // Only compile steps: their command compiles $in with -c.
    if (!StringRef(Rule->second).contains("-c $in"))
      continue;
    std::map<std::string, std::string> Scope = Globals;
    for (const auto &[K, V] : B.Bindings)
      Scope[K] = V;
    Scope["in"] = B.Inputs.front();
    Scope["out"] = B.Outputs.empty() ? "" : B.Outputs.front();
    std::string Command = expandNinja(Rule->second, Scope);
    llvm::BumpPtrAllocator Alloc;
    llvm::StringSaver Saver(Alloc);
    llvm::SmallVector<const char *, 64> Argv;
    llvm::cl::TokenizeGNUCommandLine(Command, Saver, Argv);
    std::vector<std::string> Args(Argv.begin(), Argv.end());
    if (Args.empty())
      continue;
    llvm::SmallString<256> File(B.Inputs.front());
    if (!llvm::sys::path::is_absolute(File))
      llvm::sys::path::make_absolute(AbsDir, File);
    llvm::sys::path::remove_dots(File, true);
    DB->Commands.emplace_back(std::string(AbsDir), std::string(File),
                              std::move(Args), Scope["out"]);
  }
  if (DB->Commands.empty()) {
    Error = "'" + BuildNinja.str() + "' has no compile steps";
    return nullptr;
  }
  return DB;
}

// ---------------------------------------------------------------------------
// setup.py

namespace {

/// Whether the last run of the setup.py reader printed a warning (which
/// says what is missing and that torch's default flags are used).
bool ReaderWarned = false;

/// Runs the setup.py reader on \p SetupPy (a setup.py, or a project folder
/// whose Python files' cpp_extension.load() calls are read).
std::unique_ptr<CompilationDatabase> loadSetupPy(StringRef SetupPy,
                                                 std::string &Error) {
  if (Settings.SetupReader.empty()) {
    Error = "cannot read '" + SetupPy.str() +
            "': the setup.py reader is missing (expected in "
            "share/cuda-tidy/python beside bin/)";
    return nullptr;
  }
  std::string PyError;
  std::string Python = pythonProgram(PyError);
  if (Python.empty()) {
    Error = "cannot read '" + SetupPy.str() + "': " + PyError;
    return nullptr;
  }
  std::string Warnings;
  std::optional<llvm::json::Value> V =
      runPythonJson({Python, Settings.SetupReader, "--torch-install", SetupPy},
                    PyError, &Warnings);
  // What the reader could not evaluate, one line each ("warning: setup.py:
  // 49: cannot evaluate '...': -D defines from setup.py are missing"),
  // with paths relative to the project's folder.
  llvm::SmallVector<StringRef> Lines;
  StringRef(Warnings).split(Lines, '\n', -1, false);
  ReaderWarned = false;
  for (StringRef L : Lines) {
    if (L.consume_front("torch-install: ")) {
      if (llvm::Expected<llvm::json::Value> T = llvm::json::parse(L)) {
        std::lock_guard<std::mutex> Lock(ReaderTorchMutex);
        ReaderTorch = std::move(*T);
      } else {
        llvm::consumeError(T.takeError());
      }
      continue;
    }
    if (L.consume_front("warning: ")) {
      llvm::errs() << "cuda-tidy: warning: " << L << "\n";
      ReaderWarned = true;
    }
  }
  if (!V) {
    Error = "cannot read '" + SetupPy.str() + "': " + PyError;
    return nullptr;
  }
  std::string Text;
  llvm::raw_string_ostream(Text) << *V;
  std::string JsonError;
  auto DB = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      Text, JsonError, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!DB) {
    Error = "cannot read '" + SetupPy.str() + "': " + JsonError;
    return nullptr;
  }
  if (DB->getAllFiles().empty()) {
    Error = llvm::sys::fs::is_directory(SetupPy)
                ? "the Python files of '" + SetupPy.str() +
                      "' give no cpp_extension.load() sources that exist"
                : "'" + SetupPy.str() +
                      "' names no CUDAExtension or CppExtension sources that "
                      "exist";
    return nullptr;
  }
  return DB;
}

/// Whether \p Path is a build.ninja that torch's cpp_extension wrote.
bool isTorchNinja(StringRef Path) {
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return false;
  StringRef B = (*Text)->getBuffer();
  return B.contains("rule cuda_compile") ||
         (B.contains("rule compile") && B.contains("TORCH_EXTENSION_NAME"));
}

} // namespace

std::unique_ptr<CompilationDatabase>
loadTorchBuildDatabase(StringRef Dir, std::string &Error) {
  llvm::SmallString<256> Ninja(Dir), Setup(Dir);
  llvm::sys::path::append(Ninja, "build.ninja");
  llvm::sys::path::append(Setup, "setup.py");
  if (llvm::sys::fs::exists(Ninja) && isTorchNinja(Ninja))
    return loadTorchNinja(Ninja, Error);
  if (llvm::sys::fs::exists(Setup))
    return loadSetupPy(Setup, Error);
  // No setup.py: the sources of the project's cpp_extension.load() calls.
  // Finding none is not an error here: the caller says what it looked for.
  std::string Why;
  if (auto DB = loadSetupPy(Dir, Why))
    return DB;
  return nullptr;
}

std::unique_ptr<CompilationDatabase>
findLoadBuildDatabase(StringRef SourceFile) {
  std::vector<std::string> Roots;
  if (std::optional<std::string> Env =
          llvm::sys::Process::GetEnv("TORCH_EXTENSIONS_DIR"))
    Roots.push_back(*Env);
  llvm::SmallString<256> Home;
  if (llvm::sys::path::cache_directory(Home)) {
    llvm::sys::path::append(Home, "torch_extensions");
    Roots.push_back(std::string(Home));
  }
  llvm::SmallString<256> Abs(SourceFile);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  // <root>/<py>_<cu>/<name>/build.ninja, or <root>/<name>/build.ninja.
  for (const std::string &Root : Roots) {
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator I(Root, EC), E; I != E && !EC;
         I.increment(EC)) {
      std::vector<std::string> Candidates = {I->path() + "/build.ninja"};
      std::error_code EC2;
      for (llvm::sys::fs::directory_iterator J(I->path(), EC2), F;
           J != F && !EC2; J.increment(EC2))
        Candidates.push_back(J->path() + "/build.ninja");
      for (const std::string &C : Candidates) {
        if (!llvm::sys::fs::exists(C) || !isTorchNinja(C))
          continue;
        std::string Error;
        auto DB = loadTorchNinja(C, Error);
        if (DB && !DB->getCompileCommands(Abs).empty())
          return DB;
      }
    }
  }
  return nullptr;
}

std::unique_ptr<CompilationDatabase> findTorchDatabaseFor(StringRef FirstFile,
                                                          std::string &Error) {
  if (FirstFile.empty())
    return nullptr;
  if (includesTorchHeaders(FirstFile))
    if (auto DB = findLoadBuildDatabase(FirstFile))
      return DB;
  llvm::SmallString<256> Dir(FirstFile);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  while (!Dir.empty()) {
    llvm::SmallString<256> Setup(Dir);
    llvm::sys::path::append(Setup, "setup.py");
    // A torch extension's setup.py (the file may reach torch's headers
    // only through the include folders it names).
    auto Text = llvm::MemoryBuffer::getFile(Setup);
    if (Text && ((*Text)->getBuffer().contains("CUDAExtension") ||
                 (*Text)->getBuffer().contains("CppExtension"))) {
      std::string Why;
      if (auto DB = loadSetupPy(Setup, Why))
        return DB;
      if (!ReaderWarned)
        llvm::errs() << "cuda-tidy: warning: " << Why
                     << "; analysing with the default command\n";
      return nullptr;
    }
    llvm::SmallString<256> Git(Dir);
    llvm::sys::path::append(Git, ".git");
    StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (llvm::sys::fs::exists(Git) || Parent == Dir)
      break;
    Dir = Parent;
  }
  (void)Error;
  return nullptr;
}

} // namespace cudatidy
