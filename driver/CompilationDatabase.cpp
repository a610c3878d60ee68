//===- CompilationDatabase.cpp - The commands files are analysed with -----===//
//
// See CompilationDatabase.h.
//
//===----------------------------------------------------------------------===//

#include "CompilationDatabase.h"
#include "NvccTranslation.h"
#include "PythonInput.h"
#include "TorchSupport.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;
using llvm::StringRef;

namespace cudatidy {

std::vector<CompileCommand>
CudaCompilationDatabase::getCompileCommands(StringRef FilePath) const {
  std::vector<CompileCommand> Commands;
  if (Inner)
    Commands = Inner->getCompileCommands(FilePath);
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
  auto Note = [this](const std::string &Message) {
    if (Settings.Verbose)
      verbose(Message);
  };
  for (CompileCommand &C : Commands) {
    addTorchFlags(C);
    prepareCommand(C, Toolkit, Settings, Note);
    // A Python file is not compiled, and its unit is a temporary file:
    // Run.cpp says how the Python file is read instead.
    if (Settings.Verbose && !isPythonUnitPath(C.Filename) &&
        llvm::sys::path::extension(C.Filename) != ".py")
      verbose("analysing '" + C.Filename + "' with: " +
              llvm::join(C.CommandLine, " "));
  }
  return Commands;
}

/// Prints \p Message once per run under --verbose.
void CudaCompilationDatabase::verbose(const std::string &Message) const {
  std::lock_guard<std::mutex> Lock(NotesMutex);
  if (NotesShown.insert(Message).second)
    llvm::errs() << "cuda-tidy: note: " << Message << "\n";
}

/// Replaces the nvcc command \p C by its clang translation.
static void fromNvcc(CompileCommand &C, NoteFn Note) {
  NvccTranslation T = translateNvccCommand(C.CommandLine, C.Directory);
  for (const std::string &N : T.Notes)
    Note("nvcc command of '" + C.Filename + "': " + N);
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
    Note("nvcc command of '" + C.Filename + "': it does not name '" +
         C.Filename + "' as an input; added it");
    C.CommandLine.push_back(C.Filename);
  }
}

static bool hasFlag(const std::vector<std::string> &Args, StringRef Prefix) {
  return llvm::any_of(Args, [&](const std::string &A) {
    return StringRef(A).starts_with(Prefix);
  });
}

/// Whether the command names a language (-x LANG, -xLANG).
static bool explicitLanguage(const std::vector<std::string> &Args) {
  return llvm::any_of(
      Args, [](const std::string &A) { return StringRef(A).starts_with("-x"); });
}

/// Adds the analysis flags to \p C (docs/design.md, "CUDA flags").
static void adjust(CompileCommand &C, const std::optional<CudaToolkit> &Toolkit,
                   const CommandSettings &Settings) {
  std::vector<std::string> &Args = C.CommandLine;
  bool ExplicitCuda = llvm::any_of(Args, [](const std::string &A) {
    return A == "-xcuda" || A == "--cuda-host-only" ||
           A == "--cuda-device-only";
  });
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-x" && Args[I + 1] == "cuda")
      ExplicitCuda = true;
  bool Cuda = ExplicitCuda || isCudaFileName(C.Filename);
  std::vector<std::string> Added;
  if (Settings.AddResourceDir && !hasFlag(Args, "-resource-dir"))
    Added.push_back("-resource-dir=" CUDA_TIDY_CLANG_RESOURCE_DIR);
  if (Cuda && Toolkit) {
    if (!hasFlag(Args, "-x"))
      Added.push_back("-xcuda");
    Added.insert(Added.end(), Settings.CudaFlags.begin(),
                 Settings.CudaFlags.end());
    // Respect a pass or path the command already chose.
    if (hasFlag(Args, "--cuda-path"))
      llvm::erase_if(Added, [](const std::string &A) {
        return StringRef(A).starts_with("--cuda-path");
      });
    if (Settings.ExplicitGpuArch)
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
  } else {
    // Language by extension: clang++ would read a .c file as C++.
    if (!explicitLanguage(Args) &&
        llvm::sys::path::extension(C.Filename) == ".c")
      Added.push_back("-xc");
    // C and C++ files that call the runtime API need its headers.
    if (Toolkit) {
      Added.push_back("-isystem");
      Added.push_back(Toolkit->Root + "/include");
    }
    // -fopenmp: omp.h is the host compiler's, as for nvcc (clang's comes
    // only with libomp-dev); CUDA files get it with the CUDA flags.
    if (hasFlag(Args, "-fopenmp"))
      if (std::string Dir = hostCompilerOpenMPDir(); !Dir.empty()) {
        Added.push_back("-idirafter");
        Added.push_back(Dir);
      }
  }
  std::vector<std::string> Out;
  Out.push_back(Args.empty() ? "clang++" : Args.front());
  Out.insert(Out.end(), Settings.ExtraArgsBefore.begin(),
             Settings.ExtraArgsBefore.end());
  Out.insert(Out.end(), Added.begin(), Added.end());
  // Keep the source file last, after the extra arguments.
  for (size_t I = 1; I < Args.size(); ++I)
    Out.push_back(Args[I]);
  Out.insert(Out.end(), Settings.ExtraArgs.begin(), Settings.ExtraArgs.end());
  Args = std::move(Out);
}

void prepareCommand(CompileCommand &C, const std::optional<CudaToolkit> &Toolkit,
                    const CommandSettings &Settings, NoteFn Note) {
  stripCompilerLauncher(C.CommandLine);
  if (!C.CommandLine.empty() && isNvccCompiler(C.CommandLine.front()))
    fromNvcc(C, Note);
  adjust(C, Toolkit, Settings);
}

/// Finds compile_commands.json in \p Dir or its parents.
static std::string findDatabaseUpwards(StringRef Dir) {
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

/// "" when \p Path holds JSON, else what is wrong and where.
static std::string checkJsonSyntax(StringRef Path) {
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return Text.getError().message();
  llvm::Expected<llvm::json::Value> V = llvm::json::parse((*Text)->getBuffer());
  if (V)
    return "";
  std::string Why = llvm::toString(V.takeError());
  // The parser says where it stopped: at the last byte, the file ends
  // early.
  bool AtEnd = StringRef(Why).contains(
      "byte=" + std::to_string((*Text)->getBufferSize()) + "]");
  return "it is not valid JSON (" + Why + ")" +
         (AtEnd ? "; the file looks truncated: rebuild it (e.g. re-run "
                  "CMake, or bear)"
                : "");
}

std::unique_ptr<CompilationDatabase>
loadProjectDatabase(StringRef BuildPath, StringRef FirstFile,
                    std::string &Error) {
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
      // A PyTorch extension's build.ninja or setup.py (TorchSupport.h).
      if (llvm::sys::fs::is_directory(BuildPath))
        if (auto DB = loadTorchBuildDatabase(BuildPath, Error); DB ||
            !Error.empty())
          return DB;
      Error = "no compile_commands.json in '" + BuildPath.str() + "'";
      if (llvm::sys::fs::is_directory(BuildPath))
        Error += " (nor a build.ninja written by torch's cpp_extension, nor "
                 "a setup.py, nor Python files calling cpp_extension.load())";
      return nullptr;
    }
  } else {
    Path = findDatabaseUpwards(llvm::sys::path::parent_path(FirstFile));
  }
  if (Path.empty())
    return findTorchDatabaseFor(FirstFile, Error);
  // clang's reader keeps the entries before a syntax error and prints a
  // YAML message: a truncated file would pass for a smaller project.
  if (std::string Err = checkJsonSyntax(Path); !Err.empty()) {
    Error = "cannot read the compilation database '" + Path + "': " + Err;
    return nullptr;
  }
  std::string Err;
  auto DB = clang::tooling::JSONCompilationDatabase::loadFromFile(
      Path, Err, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!DB)
    Error = "cannot read the compilation database '" + Path + "': " + Err;
  return DB;
}

} // namespace cudatidy
