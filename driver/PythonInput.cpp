//===- PythonInput.cpp - CUDA kernels inside Python files -----------------===//
//
// See PythonInput.h.
//
//===----------------------------------------------------------------------===//

#include "PythonInput.h"
#include "clang-tidy/GlobList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <limits>
#include <unistd.h>

extern char **environ;

using namespace clang::tidy;

namespace cudatidy {

/// A Python file larger than this is refused before Python reads it:
/// generated files of this size hold data, not kernels.
static constexpr uint64_t MaxPythonFileBytes = 64u << 20;

bool isPythonFileName(llvm::StringRef Path) {
  return llvm::sys::path::extension(Path) == ".py";
}

bool mayHoldCuda(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return true; // Let the helper say why it cannot be read.
  llvm::StringRef Text = (*Buffer)->getBuffer();
  // Kernel libraries, and the bindings that Python host code drives CUDA
  // through (cuda_tidy_reader/host_lowering.py, HOST_TRIGGERS): ctypes
  // handles of libcudart or libcuda, cuda-python, Numba's numba.cuda.
  if (Text.contains("cupy") || Text.contains("pycuda") ||
      Text.contains("load_inline") || Text.contains("cudart") ||
      Text.contains("libcuda") || Text.contains("cuda.bindings") ||
      Text.contains("cuda.cuda") || Text.contains("from cuda import") ||
      Text.contains("numba.cuda") || Text.contains("from numba import cuda") ||
      // The CUDA libraries through ctypes or scikit-cuda (CuPy's bindings
      // are named by "cupy" above).
      Text.contains("libcublas") || Text.contains("libcusparse") ||
      Text.contains("libcufft") || Text.contains("libcurand") ||
      Text.contains("libcusolver") || Text.contains("skcuda") ||
      // NVRTC: cuda-python's nvrtc module, ctypes or a generated binding
      // of libnvrtc (`nvrtc.nvrtcCreateProgram(`).
      Text.contains("nvrtc"))
    return true;
  // A CUDA function called through a module attribute (`cuda.cuInit(`),
  // as users of a generated ctypes binding module call it
  // (host_lowering.py, generated_call).
  for (size_t At = Text.find(".cu"); At != llvm::StringRef::npos;
       At = Text.find(".cu", At + 3)) {
    llvm::StringRef Rest = Text.substr(At + 3);
    if (Rest.starts_with("da"))
      Rest = Rest.drop_front(2);
    if (Rest.empty() || !llvm::isUpper(Rest.front()))
      continue;
    size_t End = Rest.find_if_not(
        [](char C) { return llvm::isAlnum(C) || C == '_'; });
    if (End != llvm::StringRef::npos && Rest[End] == '(')
      return true;
  }
  return false;
}

std::string findPython(llvm::StringRef Option, std::string &Error) {
  std::string Named = Option.str();
  const char *Source = "--python";
  if (Named.empty()) {
    if (std::optional<std::string> Env =
            llvm::sys::Process::GetEnv("CUDA_TIDY_PYTHON")) {
      Named = *Env;
      Source = "CUDA_TIDY_PYTHON";
    }
  }
  if (!Named.empty()) {
    if (llvm::sys::fs::can_execute(Named))
      return Named;
    // A bare name is looked up on PATH; a path must be an executable.
    if (!Named.empty() && !llvm::StringRef(Named).contains('/'))
      if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(Named))
        return *P;
    Error = std::string(Source) + " names '" + Named +
            "', which is not an executable; Python files need a Python 3.8 "
            "or later to read them";
    return "";
  }
  for (const char *Name : {"python3", "python"})
    if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(Name))
      return *P;
  Error = "no Python found to read the .py files (python3 is not on PATH); "
          "install Python 3.8 or later, or name one with --python or "
          "CUDA_TIDY_PYTHON";
  return "";
}

std::string findPythonHelper(const char *Argv0) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findPythonHelper));
  llvm::SmallString<256> P(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(P, "share", "cuda-tidy", "python",
                          "cuda_tidy_python.py");
  return llvm::sys::fs::exists(P) ? std::string(P) : std::string();
}

/// An error of the Python file itself, at a byte offset of it.
static ClangTidyError pythonError(llvm::StringRef File, unsigned Offset,
                                  llvm::StringRef Message) {
  ClangTidyError E("python-error", ClangTidyError::Error, "", false);
  E.Message.Message = Message.str();
  E.Message.FilePath = File.str();
  E.Message.FileOffset = Offset;
  return E;
}

/// Where the generated units are written: one folder per user, a stable
/// name per Python file (the result cache keys on it).
static std::string userFolder() {
  llvm::SmallString<256> Dir;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
  llvm::sys::path::append(Dir, "cuda-tidy-python-" + std::to_string(::getuid()));
  return std::string(Dir);
}

static std::string unitPathFor(llvm::StringRef Path) {
  llvm::SmallString<256> Dir(userFolder());
  std::array<uint8_t, 32> Hash = llvm::SHA256::hash(llvm::arrayRefFromStringRef(Path));
  std::string Name = llvm::toHex(llvm::ArrayRef<uint8_t>(Hash).take_front(8), true);
  llvm::sys::path::append(Dir, Name);
  llvm::sys::path::append(Dir, llvm::sys::path::filename(Path) + ".cu");
  return std::string(Dir);
}

/// Writes \p Text to \p Path through a temporary file and a rename, so that
/// runs in parallel never read half a unit.
static std::string writeAtomically(llvm::StringRef Path, llvm::StringRef Text) {
  if (std::error_code EC =
          llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
    return "cannot create '" + llvm::sys::path::parent_path(Path).str() +
           "': " + EC.message();
  // Unchanged: keep the file (and its time stamp, which headers caches see).
  if (auto Old = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false))
    if ((*Old)->getBuffer() == Text)
      return "";
  llvm::SmallString<256> Temp;
  int FD;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Path + ".tmp-%%%%%%%%", FD, Temp))
    return "cannot write '" + Path.str() + "': " + EC.message();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    if (OS.has_error())
      return "cannot write '" + Temp.str().str() + "'";
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path))
    return "cannot rename '" + Temp.str().str() + "': " + EC.message();
  return "";
}

/// Whether \p Dir is a folder that only this user owns and can write.
static bool isPrivateFolder(const std::string &Dir) {
  struct stat St;
  return ::lstat(Dir.c_str(), &St) == 0 && S_ISDIR(St.st_mode) &&
         St.st_uid == ::getuid() && (St.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/// Where the helper's bytecode is kept, or "" (Python's default): only a
/// folder of this user's that nobody else can write, since Python runs the
/// bytecode it finds there.
static std::string privateBytecodeFolder() {
  std::string Dir = userFolder();
  std::string Cache = Dir + "/pycache";
  for (const std::string &D : {Dir, Cache})
    if (llvm::sys::fs::create_directory(D, /*IgnoreExisting=*/true,
                                        llvm::sys::fs::perms::owner_all) ||
        !isPrivateFolder(D))
      return "";
  return Cache;
}

/// A running helper (cuda_tidy_python.py --serve): it answers each line
/// naming a file (a request) with one line of JSON, in order, over a socket
/// that is its standard input and output. Its first line says which
/// interpreter it is.
class PythonReaderPool::Reader {
public:
  ~Reader() {
    if (Socket >= 0)
      ::close(Socket); // the helper reads the end of its input and exits
    if (Pid > 0) {
      if (Hung)
        ::kill(Pid, SIGKILL);
      int Status;
      while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
        ;
    }
    if (!StderrPath.empty())
      llvm::sys::fs::remove(StderrPath);
  }

  /// Starts \p Python on the helper, without waiting for it; "" or why not.
  std::string start(const std::string &Python, llvm::StringRef Helper) {
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
            "cuda-tidy-py", "err", StderrPath))
      return "cannot create a temporary file: " + EC.message();
    int Fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Fds) != 0)
      return std::string("cannot create a socket: ") + std::strerror(errno);
    Socket = Fds[0];
    // The helper's compiled form is kept in the user's private folder, so
    // that read-only installs and PYTHONDONTWRITEBYTECODE do not make every
    // run compile it again. -S: no site start-up (the reader needs only the
    // standard library, and finds CuPy's headers itself). The current
    // folder is not on the path: a user's ast.py must not shadow Python's.
    std::string Args[] = {
        Python,
        "-S",
        "-c",
        "import sys\n"
        "sys.path = [sys.argv[1]] + [p for p in sys.path if p]\n"
        "if sys.argv[2]:\n"
        "    sys.dont_write_bytecode = False\n"
        "    sys.pycache_prefix = sys.argv[2]\n"
        "import cuda_tidy_python as m\n"
        "sys.exit(m.main(['', '--serve']))",
        llvm::sys::path::parent_path(Helper).str(), privateBytecodeFolder()};
    std::vector<char *> Argv;
    for (std::string &A : Args)
      Argv.push_back(A.data());
    Argv.push_back(nullptr);
    posix_spawn_file_actions_t Actions;
    posix_spawn_file_actions_init(&Actions);
    posix_spawn_file_actions_adddup2(&Actions, Fds[1], 0);
    posix_spawn_file_actions_adddup2(&Actions, Fds[1], 1);
    posix_spawn_file_actions_addopen(&Actions, 2, StderrPath.c_str(),
                                     O_WRONLY | O_TRUNC, 0600);
    int RC = ::posix_spawn(&Pid, Python.c_str(), &Actions, nullptr,
                           Argv.data(), environ);
    posix_spawn_file_actions_destroy(&Actions);
    ::close(Fds[1]);
    if (RC != 0) {
      Pid = 0;
      return "cannot run '" + Python + "': " + std::strerror(RC);
    }
    return "";
  }

  /// Sends a request for \p Path; false and \p Error when it cannot.
  bool request(llvm::StringRef Path, std::string &Error) {
    if (Path.contains('\n')) {
      Error = "a file name with a line break cannot be given to the Python "
              "reader";
      return false;
    }
    std::string Line = (Path + "\n").str();
    for (size_t Done = 0; Done < Line.size();) {
      ssize_t N = ::send(Socket, Line.data() + Done, Line.size() - Done,
                         MSG_NOSIGNAL);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0) {
        Error = "the Python reader stopped" + stderrText();
        return false;
      }
      Done += N;
    }
    return true;
  }

  /// The answer to the oldest request; false and \p Error when none comes.
  bool answer(std::string &Answer, std::string &Error) {
    if (Interpreter.empty()) {
      std::string Hello;
      if (!line(Hello, Error))
        return false;
      llvm::Expected<llvm::json::Value> V = llvm::json::parse(Hello);
      const llvm::json::Object *O = V ? V->getAsObject() : nullptr;
      if (!V)
        llvm::consumeError(V.takeError());
      std::optional<llvm::StringRef> Exe = O ? O->getString("python") : std::nullopt;
      if (!Exe || Exe->empty()) {
        Error = "the Python reader did not start: " + Hello + stderrText();
        return false;
      }
      Interpreter = Exe->str();
    }
    return line(Answer, Error);
  }

  /// sys.executable of the helper's interpreter, once it answered.
  std::string Interpreter;
  /// The request sent before anyone asked for it (PythonReaderPool::prefetch).
  std::string Prefetched;

private:
  /// Reads one line of the helper's output, within 300 s.
  bool line(std::string &Line, std::string &Error) {
    auto Deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(300);
    for (;;) {
      size_t End = Buffer.find('\n');
      if (End != std::string::npos) {
        Line = Buffer.substr(0, End);
        Buffer.erase(0, End + 1);
        return true;
      }
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      Deadline - std::chrono::steady_clock::now())
                      .count();
      pollfd P{Socket, POLLIN, 0};
      int Ready = Left > 0 ? ::poll(&P, 1, static_cast<int>(Left)) : 0;
      if (Ready < 0 && errno == EINTR)
        continue;
      if (Ready == 0) {
        Hung = true;
        Error = "the Python reader gave no answer in 300 s";
        return false;
      }
      char Chunk[65536];
      ssize_t N = Ready > 0 ? ::read(Socket, Chunk, sizeof(Chunk)) : -1;
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0) {
        Error = "the Python reader stopped" + stderrText();
        return false;
      }
      Buffer.append(Chunk, N);
    }
  }

  std::string stderrText() const {
    auto Text = llvm::MemoryBuffer::getFile(StderrPath);
    std::string Why = Text ? (*Text)->getBuffer().trim().str() : "";
    return Why.empty() ? "" : ": " + Why;
  }

  pid_t Pid = 0;
  int Socket = -1;
  bool Hung = false;
  llvm::SmallString<128> StderrPath;
  std::string Buffer;
};

PythonReaderPool::PythonReaderPool(std::string Python, std::string Helper)
    : Python(std::move(Python)), Helper(std::move(Helper)) {}

PythonReaderPool::~PythonReaderPool() = default;

std::unique_ptr<PythonReaderPool::Reader>
PythonReaderPool::take(llvm::StringRef Path, std::string &Error) {
  std::string Interpreter;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Pending && Pending->Prefetched == Path)
      return std::move(Pending);
    if (!Idle.empty()) {
      std::unique_ptr<Reader> R = std::move(Idle.back());
      Idle.pop_back();
      return R;
    }
    Interpreter = Python;
  }
  auto R = std::make_unique<Reader>();
  ++Started;
  Error = R->start(Interpreter, Helper);
  return Error.empty() ? std::move(R) : nullptr;
}

bool PythonReaderPool::prefetch(llvm::StringRef Path) {
  if (Helper.empty() || !mayHoldCuda(Path))
    return false;
  std::string Error;
  std::unique_ptr<Reader> R = take(Path, Error);
  if (!R || !R->request(Path, Error))
    return true; // read() starts another and reports why
  R->Prefetched = Path.str();
  std::lock_guard<std::mutex> Guard(Lock);
  Pending = std::move(R);
  return true;
}

std::string PythonReaderPool::read(llvm::StringRef Path, PythonUnit &Out) {
  Out = PythonUnit();
  Out.Files.push_back(Path.str());
  uint64_t Size = 0;
  if (!llvm::sys::fs::file_size(Path, Size) && Size > MaxPythonFileBytes) {
    Out.Errors.push_back(pythonError(
        Path, 0,
        "the file is " + std::to_string(Size >> 20) +
            " MiB, more than the 64 MiB a Python file may have to be read; "
            "generated files this large hold data, not kernels"));
    return "";
  }
  if (!mayHoldCuda(Path))
    return "";
  if (Helper.empty())
    return "the Python reader (share/cuda-tidy/python/cuda_tidy_python.py) is "
           "not installed beside cuda-tidy";

  std::string Error, Text;
  std::unique_ptr<Reader> R = take(Path, Error);
  bool Asked = R && !R->Prefetched.empty();
  if (!R || (!Asked && !R->request(Path, Error)) || !R->answer(Text, Error))
    return "the Python reader failed on '" + Path.str() + "' (" + Error + ")";
  R->Prefetched.clear();
  ++FilesRead;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    // Later readers start the interpreter itself, past launchers.
    if (llvm::sys::fs::can_execute(R->Interpreter))
      Python = R->Interpreter;
    Idle.push_back(std::move(R));
  }
  std::string Unit;
  if (std::string Err = readPythonAnswer(Path, Text, Out, Unit); !Err.empty())
    return Err;
  if (Unit.empty() || !Out.Errors.empty())
    return "";
  Out.UnitPath = unitPathFor(Path);
  Out.UnitText = Unit;
  return writeAtomically(Out.UnitPath, Unit);
}

/// An offset or length of the reader's answer: a number in [0, 2^31).
static std::optional<unsigned> offsetIn(const llvm::json::Value &V) {
  std::optional<int64_t> N = V.getAsInteger();
  if (!N || *N < 0 || *N > std::numeric_limits<int32_t>::max())
    return std::nullopt;
  return static_cast<unsigned>(*N);
}

std::string readPythonAnswer(llvm::StringRef Path, llvm::StringRef Text,
                             PythonUnit &Out, std::string &Unit) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Text);
  if (!Parsed)
    return "the Python reader's answer is not JSON: " +
           llvm::toString(Parsed.takeError());
  const llvm::json::Object *O = Parsed->getAsObject();
  if (!O)
    return "the Python reader's answer is not an object";
  if (std::optional<llvm::StringRef> Why = O->getString("internal"))
    return "the Python reader failed on '" + Path.str() + "': " + Why->str();
  std::array<uint8_t, 32> Hash =
      llvm::SHA256::hash(llvm::arrayRefFromStringRef(Text));
  Out.Digest = llvm::toHex(Hash, true);
  Unit = O->getString("tu").value_or("").str();
  if (Unit.size() > std::numeric_limits<int32_t>::max())
    return "the Python reader's unit is too large";

  if (const llvm::json::Array *Files = O->getArray("files")) {
    Out.Files.clear();
    for (const llvm::json::Value &F : *Files)
      if (std::optional<llvm::StringRef> S = F.getAsString())
        Out.Files.push_back(S->str());
    if (Out.Files.empty())
      return "the Python reader named no file";
    Out.Files.front() = Path.str();
  }
  if (const llvm::json::Array *Errors = O->getArray("errors"))
    for (const llvm::json::Value &E : *Errors)
      if (const llvm::json::Array *Pair = E.getAsArray(); Pair && Pair->size() == 2)
        Out.Errors.push_back(pythonError(
            Path, offsetIn((*Pair)[0]).value_or(0),
            (*Pair)[1].getAsString().value_or("cannot read the file")));
  if (const llvm::json::Array *Notes = O->getArray("notes"))
    for (const llvm::json::Value &N : *Notes)
      if (std::optional<llvm::StringRef> S = N.getAsString())
        Out.Notes.push_back(S->str());
  if (const llvm::json::Array *Args = O->getArray("args"))
    for (const llvm::json::Value &A : *Args)
      if (std::optional<llvm::StringRef> S = A.getAsString())
        Out.Args.push_back(S->str());
  if (const llvm::json::Array *NoLint = O->getArray("nolint"))
    for (const llvm::json::Value &N : *NoLint)
      if (const llvm::json::Array *Pair = N.getAsArray(); Pair && Pair->size() == 2)
        Out.NoLint.emplace_back(offsetIn((*Pair)[0]).value_or(0),
                                (*Pair)[1].getAsString().value_or("*").str());
  if (const llvm::json::Array *Names = O->getArray("names"))
    for (const llvm::json::Value &N : *Names)
      if (const llvm::json::Array *A = N.getAsArray(); A && A->size() == 3) {
        std::optional<unsigned> At = offsetIn((*A)[0]);
        std::optional<llvm::StringRef> C = (*A)[1].getAsString(),
                                       Py = (*A)[2].getAsString();
        if (At && C && Py && !C->empty())
          Out.Names.push_back({*At, C->str(), Py->str()});
      }
  if (const llvm::json::Array *Map = O->getArray("map"))
    for (const llvm::json::Value &R : *Map) {
      // Runs in the order of the unit, not overlapping, inside it: the
      // mapper's binary search relies on it.
      const llvm::json::Array *A = R.getAsArray();
      if (!A || A->size() != 5)
        return "the Python reader's map is malformed";
      std::optional<unsigned> Start = offsetIn((*A)[0]),
                              Length = offsetIn((*A)[1]),
                              File = offsetIn((*A)[2]),
                              FileStart = offsetIn((*A)[3]);
      std::optional<bool> Exact = (*A)[4].getAsBoolean();
      if (!Start || !Length || !File || !FileStart || !Exact ||
          uint64_t(*Start) + *Length > Unit.size() ||
          uint64_t(*FileStart) + *Length > std::numeric_limits<int32_t>::max())
        return "the Python reader's map is malformed";
      if (!Out.Map.empty() &&
          *Start < Out.Map.back().UnitStart + Out.Map.back().Length)
        return "the Python reader's map is not in the unit's order";
      if (*File >= Out.Files.size())
        return "the Python reader's map names an unknown file";
      Out.Map.push_back({*Start, *Length, *File, *FileStart, *Exact});
    }
  return "";
}

/// A unit of Python host code alone (no kernel, no launch) says
/// -nocudainc: it includes <cuda_runtime.h> itself, and parsing it without
/// clang's CUDA runtime wrapper and the nvcc compatibility header (both for
/// code written for nvcc) costs a third of what it costs with them
/// (bench/results/python-host-cost-2026-12-07b.md). The toolkit's headers
/// become system headers by -isystem, as the wrapper's are. Without a
/// --cuda-path in the command the wrapper stays (-nocudainc is dropped).
static void withoutCudaWrapper(std::vector<std::string> &Command,
                               std::vector<std::string> &Args) {
  std::string Include;
  for (const std::string &A : Command)
    if (llvm::StringRef(A).starts_with("--cuda-path="))
      Include = A.substr(strlen("--cuda-path=")) + "/include";
  if (Include.empty()) {
    llvm::erase(Args, "-nocudainc");
    return;
  }
  for (size_t I = 0; I + 1 < Command.size(); ++I)
    if (Command[I] == "-include" &&
        llvm::sys::path::filename(Command[I + 1]) ==
            "cuda_tidy_nvcc_compat.h") {
      Command.erase(Command.begin() + I, Command.begin() + I + 2);
      break;
    }
  Args.push_back("-isystem");
  Args.push_back(Include);
}

std::vector<clang::tooling::CompileCommand>
PythonUnitDatabase::getCompileCommands(llvm::StringRef File) const {
  std::vector<clang::tooling::CompileCommand> Commands =
      Inner.getCompileCommands(File);
  if (File != Unit.UnitPath)
    return Commands;
  for (clang::tooling::CompileCommand &C : Commands) {
    if (C.CommandLine.empty())
      continue;
    std::vector<std::string> Args = Unit.Args;
    if (llvm::is_contained(Args, "-nocudainc"))
      withoutCudaWrapper(C.CommandLine, Args);
    // Before the file name, which is last; a later -std wins.
    auto At = C.CommandLine.end() - 1;
    C.CommandLine.insert(At, Args.begin(), Args.end());
  }
  return Commands;
}

namespace {

/// Offsets of the unit, moved to the files they came from.
class UnitMapper {
public:
  explicit UnitMapper(const PythonUnit &U) : U(U) {}

  /// The file and offset \p Offset of the unit came from; \p Exact: byte
  /// for byte.
  bool map(unsigned Offset, unsigned &File, unsigned &To, bool &Exact) const {
    if (U.Map.empty())
      return false;
    auto It = llvm::upper_bound(U.Map, Offset,
                                [](unsigned O, const PythonUnit::Run &R) {
                                  return O < R.UnitStart;
                                });
    if (It == U.Map.begin())
      return false;
    const PythonUnit::Run &R = *std::prev(It);
    File = R.File;
    Exact = R.Exact && Offset < R.UnitStart + R.Length;
    To = Exact ? R.FileStart + (Offset - R.UnitStart) : R.FileStart;
    return true;
  }

  void location(std::string &Path, unsigned &Offset) const {
    unsigned File, To;
    bool Exact;
    if (Path != U.UnitPath || !map(Offset, File, To, Exact))
      return;
    Path = U.Files[File];
    Offset = To;
  }

  /// Moves a fix; false when a replacement is not exact (then no fix).
  bool fix(llvm::StringMap<clang::tooling::Replacements> &Fix) const {
    auto It = Fix.find(U.UnitPath);
    if (It == Fix.end())
      return true;
    llvm::StringMap<clang::tooling::Replacements> Moved;
    for (const auto &Entry : Fix)
      if (Entry.getKey() != U.UnitPath)
        Moved[Entry.getKey()] = Entry.getValue();
    for (const clang::tooling::Replacement &R : It->getValue()) {
      unsigned F1, F2, B, E;
      bool X1, X2;
      if (!map(R.getOffset(), F1, B, X1) || !X1)
        return false;
      if (R.getLength()) {
        if (!map(R.getOffset() + R.getLength() - 1, F2, E, X2) || !X2 ||
            F2 != F1 || E - B + 1 != R.getLength())
          return false;
      }
      // Text a Python literal cannot hold as written.
      if (F1 == 0 && R.getReplacementText().find_first_of("\\'\"\n") !=
                         llvm::StringRef::npos)
        return false;
      if (llvm::Error Err = Moved[U.Files[F1]].add(clang::tooling::Replacement(
              U.Files[F1], B, R.getLength(), R.getReplacementText()))) {
        llvm::consumeError(std::move(Err));
        return false;
      }
    }
    Fix = std::move(Moved);
    return true;
  }

private:
  const PythonUnit &U;
};

/// The 1-based line of each offset of the Python file.
class PythonLines {
public:
  explicit PythonLines(llvm::StringRef Path) {
    if (auto B = llvm::MemoryBuffer::getFile(Path))
      for (size_t I = 0, E = (*B)->getBufferSize(); I < E; ++I)
        if ((*B)->getBuffer()[I] == '\n')
          Newlines.push_back(I);
  }
  unsigned line(unsigned Offset) const {
    return llvm::lower_bound(Newlines, Offset) - Newlines.begin() + 1;
  }

private:
  std::vector<unsigned> Newlines;
};

} // namespace

/// A message at a Python call that the lowering wrote as a C function
/// names the call as the Python code wrote it ('np.empty', not 'malloc').
static void pythonNames(const PythonUnit &Unit,
                        clang::tooling::DiagnosticMessage &M) {
  if (Unit.Names.empty() || Unit.Files.empty() ||
      M.FilePath != Unit.Files.front())
    return;
  for (const PythonUnit::Name &N : Unit.Names) {
    if (N.Offset != M.FileOffset)
      continue;
    std::string Quoted = "'" + N.C + "'";
    size_t At = M.Message.find(Quoted);
    if (At != std::string::npos)
      M.Message.replace(At, Quoted.size(), "'" + N.Python + "'");
  }
}

unsigned remapPythonErrors(const PythonUnit &Unit,
                           std::vector<ClangTidyError> &Errors) {
  UnitMapper Mapper(Unit);
  for (ClangTidyError &E : Errors) {
    bool Exact = Mapper.fix(E.Message.Fix);
    if (!Exact)
      E.Message.Fix.clear();
    Mapper.location(E.Message.FilePath, E.Message.FileOffset);
    for (clang::tooling::FileByteRange &R : E.Message.Ranges) {
      std::string Before = R.FilePath;
      unsigned Start = R.FileOffset;
      Mapper.location(R.FilePath, Start);
      if (Before == Unit.UnitPath) {
        // A range through the map is kept only when it is exact.
        unsigned EndFile, End;
        bool X1, X2;
        unsigned StartFile;
        unsigned Unused;
        if (Mapper.map(R.FileOffset, StartFile, Unused, X1) &&
            Mapper.map(R.FileOffset + (R.Length ? R.Length - 1 : 0), EndFile,
                       End, X2) &&
            X1 && X2 && EndFile == StartFile && End + 1 >= Start)
          R.Length = End + 1 - Start;
        else
          R.Length = 0;
      }
      R.FileOffset = Start;
    }
    for (clang::tooling::DiagnosticMessage &N : E.Notes) {
      if (!Mapper.fix(N.Fix))
        N.Fix.clear();
      Mapper.location(N.FilePath, N.FileOffset);
      N.Ranges.clear();
      pythonNames(Unit, N);
    }
    pythonNames(Unit, E.Message);
  }
  if (Unit.NoLint.empty())
    return 0;
  PythonLines Lines(Unit.Files.front());
  unsigned Dropped = 0;
  llvm::erase_if(Errors, [&](const ClangTidyError &E) {
    if (E.DiagLevel == ClangTidyError::Error ||
        E.Message.FilePath != Unit.Files.front())
      return false;
    unsigned Line = Lines.line(E.Message.FileOffset);
    for (const auto &[L, Checks] : Unit.NoLint)
      if (L == Line && (Checks == "*" ||
                        GlobList(Checks).contains(E.DiagnosticName))) {
        ++Dropped;
        return true;
      }
    return false;
  });
  return Dropped;
}

} // namespace cudatidy
