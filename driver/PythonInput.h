//===- PythonInput.h - CUDA kernels inside Python files ---------*- C++ -*-===//
//
// A .py input is read by the helper driver/python/cuda_tidy_python.py, run
// by a Python interpreter (CPython's own ast parser reads the file). The
// helper writes one CUDA translation unit with every kernel module of the
// file and synthetic launches, and a map from each byte of that unit back
// to the Python file. The driver analyses the unit as any .cu file and
// moves every finding back through the map (docs/python.md).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_PYTHONINPUT_H
#define CUDA_TIDY_PYTHONINPUT_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cudatidy {

/// Whether \p Path names a Python source (.py).
bool isPythonFileName(llvm::StringRef Path);

/// Whether \p Path is a CUDA unit the driver generated for a Python file
/// (a temporary file that messages must not name): <tmp>/cuda-tidy-python-
/// <uid>/<hash>/<name>.py.cu.
inline bool isPythonUnitPath(llvm::StringRef Path) {
  return Path.ends_with(".py.cu") && Path.contains("/cuda-tidy-python-");
}

/// Whether a Python file may hold CUDA: a byte scan for the words the
/// helper looks for (cupy, pycuda, load_inline, and the host bindings cudart,
/// libcuda, cuda.bindings, cuda.cuda). Files without them are
/// not given to Python at all.
bool mayHoldCuda(llvm::StringRef Path);

/// The Python that runs the helper: \p Option (--python), else
/// $CUDA_TIDY_PYTHON, else python3 on PATH. "" and \p Error when none runs.
std::string findPython(llvm::StringRef Option, std::string &Error);

/// The helper script shipped beside the executable
/// (<prefix>/share/cuda-tidy/python/cuda_tidy_python.py); "" if missing.
std::string findPythonHelper(const char *Argv0);

/// One Python file, as the helper read it.
struct PythonUnit {
  /// The generated CUDA file on disk; "" when the file holds no kernel
  /// that can be analysed.
  std::string UnitPath;
  /// The unit's text as this run's reader wrote it: the analysis reads this,
  /// not the file, which another run of another version may rewrite.
  std::string UnitText;
  /// Flags the kernels' options ask for (-I, -std), added to the command.
  std::vector<std::string> Args;
  /// Files the unit's text comes from: the .py first.
  std::vector<std::string> Files;
  struct Run {
    unsigned UnitStart, Length, File, FileStart;
    bool Exact; ///< Byte for byte the file's text (else: an anchor).
  };
  std::vector<Run> Map;
  /// '# NOLINT(...)' comments: the Python line they cover and their
  /// checks ("*": all).
  std::vector<std::pair<unsigned, std::string>> NoLint;
  /// C functions the lowering wrote for a Python call (malloc for
  /// np.empty): at this offset of the .py file, a message's 'C' is
  /// shown as 'Python'.
  struct Name {
    unsigned Offset;
    std::string C, Python;
  };
  std::vector<Name> Names;
  /// What was skipped and why (--verbose).
  std::vector<std::string> Notes;
  /// The file could not be read (syntax error, encoding, size).
  std::vector<clang::tidy::ClangTidyError> Errors;
  /// A digest of the helper's whole answer, for the result cache's key.
  std::string Digest;
};

/// The Python readers of one run. A reader is one helper process that
/// serves every file its worker asks for, so that starting Python,
/// importing the helper and resolving launchers (pyenv's shims) is paid
/// once per worker and run, not once per file. At most one reader per
/// worker that reads Python files; idle readers are shared.
class PythonReaderPool {
public:
  PythonReaderPool(std::string Python, std::string Helper);
  ~PythonReaderPool();
  PythonReaderPool(const PythonReaderPool &) = delete;
  PythonReaderPool &operator=(const PythonReaderPool &) = delete;

  /// Reads \p Path and writes its unit. Returns "" or why the helper could
  /// not be run (an internal error).
  std::string read(llvm::StringRef Path, PythonUnit &Out);

  /// Starts a reader on \p Path at once, so that Python reads it while
  /// the driver prepares the run; read(Path) takes its answer. False when
  /// the file needs no reader.
  bool prefetch(llvm::StringRef Path);

  /// How many helper processes this run started, and how many files they
  /// read.
  unsigned started() const { return Started; }
  unsigned filesRead() const { return FilesRead; }

  class Reader;

private:
  /// The reader that prefetched \p Path, an idle one, or a new one.
  std::unique_ptr<Reader> take(llvm::StringRef Path, std::string &Error);

  std::mutex Lock;
  /// The interpreter the first reader said it is (sys.executable): later
  /// readers start it directly.
  std::string Python;
  std::string Helper;
  std::vector<std::unique_ptr<Reader>> Idle;
  std::unique_ptr<Reader> Pending;
  std::atomic<unsigned> Started{0}, FilesRead{0};
};

/// Reads the reader's answer \p Text for \p Path into \p Out (all but the
/// unit's path) and \p Unit (the unit's text). Returns "" or why the answer
/// cannot be used; a map is used only when its runs are in the unit's
/// order, do not overlap and lie inside the unit.
std::string readPythonAnswer(llvm::StringRef Path, llvm::StringRef Text,
                             PythonUnit &Out, std::string &Unit);

/// The commands of \p Inner, with the unit's flags for the unit.
class PythonUnitDatabase : public clang::tooling::CompilationDatabase {
public:
  PythonUnitDatabase(const clang::tooling::CompilationDatabase &Inner,
                     const PythonUnit &Unit)
      : Inner(Inner), Unit(Unit) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override;

private:
  const clang::tooling::CompilationDatabase &Inner;
  const PythonUnit &Unit;
};

/// Moves every location of \p Errors from the unit to the Python file (or
/// the file a kernel was read from), keeps fixes only where the mapping is
/// exact, and drops the findings that a '# NOLINT' comment covers. Returns
/// how many were dropped.
unsigned remapPythonErrors(const PythonUnit &Unit,
                           std::vector<clang::tidy::ClangTidyError> &Errors);

} // namespace cudatidy

#endif
