//===- NvccTranslation.cpp ------------------------------------------------===//
//
// nvcc spells an option with a value in several ways, and accepts one or two
// dashes before either name of an option:
//   -I dir   -Idir   -I=dir   --include-path dir   --include-path=dir
// List options take comma-separated values (-I a,b and -DX,Y are two each),
// as nvcc splits them. Each option below is known by its long and short name.
//
//===----------------------------------------------------------------------===//

#include "NvccTranslation.h"
#include "CudaToolkit.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/CommandLine.h"

namespace cudatidy {

namespace {

enum class Kind {
  Drop,          ///< Code generation, linking, toolchain: no effect on parsing.
  Include,       ///< -I
  SystemInclude, ///< -isystem
  Define,        ///< -D
  Undefine,      ///< -U
  PreInclude,    ///< -include
  Std,           ///< -std
  Language,      ///< -x
  OptLevel,      ///< -O
  Compile,       ///< -c
  Arch,          ///< -arch, -code, -gencode
  HostFlags,     ///< -Xcompiler
  Rdc,           ///< -rdc=true|false
  DeviceC,       ///< -dc: -rdc=true -c
  DeviceW,       ///< -dw: -rdc=false -c
  OptionsFile,   ///< --options-file
  ForwardUnknown,///< -forward-unknown-to-host-compiler
  DefaultStream, ///< --default-stream per-thread
  WError,        ///< nvcc's -Werror <kind>,...
};

struct OptionSpec {
  llvm::StringRef Long;  ///< Without dashes.
  llvm::StringRef Short; ///< Without dashes; may be empty.
  bool TakesValue;
  Kind K;
  bool List = false; ///< Comma-separated values, split as nvcc does.
};

// The nvcc options that matter, from `nvcc --help` (CUDA 12 and 13). Options
// not listed are unknown: dropped with a note.
const OptionSpec Options[] = {
    // Preprocessor state: kept.
    {"include-path", "I", true, Kind::Include, true},
    {"system-include", "isystem", true, Kind::SystemInclude, true},
    {"define-macro", "D", true, Kind::Define, true},
    {"undefine-macro", "U", true, Kind::Undefine, true},
    {"pre-include", "include", true, Kind::PreInclude, true},
    {"std", "std", true, Kind::Std},
    {"x", "x", true, Kind::Language},
    {"optimize", "O", true, Kind::OptLevel},
    {"compile", "c", false, Kind::Compile},
    {"relocatable-device-code", "rdc", true, Kind::Rdc},
    {"device-c", "dc", false, Kind::DeviceC},
    {"device-w", "dw", false, Kind::DeviceW},
    {"default-stream", "default-stream", true, Kind::DefaultStream},
    // Architectures: one becomes the analysis architecture.
    {"gpu-architecture", "arch", true, Kind::Arch, true},
    {"gpu-code", "code", true, Kind::Arch, true},
    {"generate-code", "gencode", true, Kind::Arch},
    // Flags for the host compiler: those that change parsing are kept.
    {"compiler-options", "Xcompiler", true, Kind::HostFlags, true},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler",
     false, Kind::ForwardUnknown},
    {"options-file", "optf", true, Kind::OptionsFile, true},
    {"Werror", "Werror", true, Kind::WError},
    // Flags for the other tools, and toolchain choices: dropped.
    {"compiler-bindir", "ccbin", true, Kind::Drop},
    {"cudafe-options", "Xcudafe", true, Kind::Drop},
    {"ptxas-options", "Xptxas", true, Kind::Drop},
    {"linker-options", "Xlinker", true, Kind::Drop},
    {"nvlink-options", "Xnvlink", true, Kind::Drop},
    {"archive-options", "Xarchive", true, Kind::Drop},
    {"fatbin-options", "Xfatbin", true, Kind::Drop},
    {"output-file", "o", true, Kind::Drop},
    {"output-directory", "odir", true, Kind::Drop},
    {"dependency-output", "MF", true, Kind::Drop},
    {"dependency-target-name", "MT", true, Kind::Drop},
    {"dependency-drive-prefix", "ddp", true, Kind::Drop},
    {"drive-prefix", "dp", true, Kind::Drop},
    {"input-drive-prefix", "idp", true, Kind::Drop},
    {"library-path", "L", true, Kind::Drop},
    {"library", "l", true, Kind::Drop},
    {"cudart", "cudart", true, Kind::Drop},
    {"cudadevrt", "cudadevrt", true, Kind::Drop},
    {"threads", "t", true, Kind::Drop},
    {"split-compile", "split-compile", true, Kind::Drop},
    {"maxrregcount", "maxrregcount", true, Kind::Drop},
    {"ftz", "ftz", true, Kind::Drop},
    {"prec-div", "prec-div", true, Kind::Drop},
    {"prec-sqrt", "prec-sqrt", true, Kind::Drop},
    {"fmad", "fmad", true, Kind::Drop},
    {"keep-dir", "keep-dir", true, Kind::Drop},
    {"machine", "m", true, Kind::Drop},
    {"time", "time", true, Kind::Drop},
    {"run-args", "run-args", true, Kind::Drop},
    {"diag-suppress", "diag-suppress", true, Kind::Drop},
    {"diag_suppress", "diag_suppress", true, Kind::Drop},
    {"diag-warn", "diag-warn", true, Kind::Drop},
    {"diag-error", "diag-error", true, Kind::Drop},
    {"diag-default", "diag-default", true, Kind::Drop},
    {"dopt", "dopt", true, Kind::Drop},
    {"archiver-binary", "arbin", true, Kind::Drop},
    {"libdevice-directory", "ldir", true, Kind::Drop},
    {"target-directory", "target-dir", true, Kind::Drop},
    {"generate-line-info", "lineinfo", false, Kind::Drop},
    {"device-debug", "G", false, Kind::Drop},
    {"debug", "g", false, Kind::Drop},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", false, Kind::Drop},
    {"expt-extended-lambda", "expt-extended-lambda", false, Kind::Drop},
    {"extended-lambda", "extended-lambda", false, Kind::Drop},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", false,
     Kind::Drop},
    {"forward-unknown-opts", "forward-unknown-opts", false, Kind::Drop},
    {"use_fast_math", "use_fast_math", false, Kind::Drop},
    {"use-fast-math", "use-fast-math", false, Kind::Drop},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", false,
     Kind::Drop},
    {"restrict", "restrict", false, Kind::Drop},
    {"keep", "keep", false, Kind::Drop},
    {"resource-usage", "res-usage", false, Kind::Drop},
    {"verbose", "v", false, Kind::Drop},
    {"dryrun", "dryrun", false, Kind::Drop},
    {"disable-warnings", "w", false, Kind::Drop},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", false,
     Kind::Drop},
    {"Wno-deprecated-declarations", "Wno-deprecated-declarations", false,
     Kind::Drop},
    {"Wreorder", "Wreorder", false, Kind::Drop},
    {"Wdefault-stream-launch", "Wdefault-stream-launch", false, Kind::Drop},
    {"Wmissing-launch-bounds", "Wmissing-launch-bounds", false, Kind::Drop},
    {"Wext-lambda-captures-this", "Wext-lambda-captures-this", false,
     Kind::Drop},
    {"display-error-number", "err-no", false, Kind::Drop},
    {"no-display-error-number", "no-err-no", false, Kind::Drop},
    {"extensible-whole-program", "ewp", false, Kind::Drop},
    {"device-link", "dlink", false, Kind::Drop},
    {"dlink-time-opt", "dlto", false, Kind::Drop},
    {"lib", "lib", false, Kind::Drop},
    {"link", "link", false, Kind::Drop},
    {"shared", "shared", false, Kind::Drop},
    {"cubin", "cubin", false, Kind::Drop},
    {"ptx", "ptx", false, Kind::Drop},
    {"fatbin", "fatbin", false, Kind::Drop},
    {"optix-ir", "optix-ir", false, Kind::Drop},
    {"preprocess", "E", false, Kind::Drop},
    {"generate-dependencies", "M", false, Kind::Drop},
    {"generate-nonsystem-dependencies", "MM", false, Kind::Drop},
    {"generate-dependencies-with-compile", "MD", false, Kind::Drop},
    {"generate-nonsystem-dependencies-with-compile", "MMD", false,
     Kind::Drop},
    {"generate-dependency-targets", "MP", false, Kind::Drop},
    {"source-in-ptx", "src-in-ptx", false, Kind::Drop},
    {"keep-device-functions", "keep-device-functions", false, Kind::Drop},
    {"no-host-device-initializer-list", "nohdinitlist", false, Kind::Drop},
    {"no-host-device-move-forward", "nohdmoveforward", false, Kind::Drop},
    {"no-compress", "no-compress", false, Kind::Drop},
    {"qpp-config", "qpp-config", true, Kind::Drop},
    {"compress-mode", "compress-mode", true, Kind::Drop},
    {"fdevice-syntax-only", "fdevice-syntax-only", false, Kind::Drop},
    {"fdevice-time-trace", "fdevice-time-trace", true, Kind::Drop},
    {"optimization-info", "opt-info", true, Kind::Drop},
    {"jump-table-density", "jtd", true, Kind::Drop},
    {"static-global-template-stub", "static-global-template-stub", true,
     Kind::Drop},
    {"device-entity-has-hidden-visibility", "device-entity-has-hidden-"
                                            "visibility",
     true, Kind::Drop},
    {"no-align-double", "no-align-double", false, Kind::Drop},
    {"no-device-link", "nodlink", false, Kind::Drop},
    {"list-gpu-arch", "arch-ls", false, Kind::Drop},
    {"list-gpu-code", "code-ls", false, Kind::Drop},
};

// The kinds nvcc's -Werror takes.
bool isWErrorKind(llvm::StringRef V) {
  return llvm::all_of(llvm::split(V, ','), [](llvm::StringRef K) {
    return llvm::is_contained(
        {"all-warnings", "cross-execution-space-call", "reorder",
         "default-stream-launch", "missing-launch-bounds",
         "ext-lambda-captures-this", "deprecated-declarations"},
        K);
  });
}

struct Match {
  const OptionSpec *Spec = nullptr;
  std::optional<std::string> Value; ///< Set when the value was in the token.
};

/// Finds the option \p Token names. A whole name wins over a name followed
/// by "=value", which wins over a one-letter name glued to its value
/// ("-Idir"), so that "-lineinfo" is not "-l ineinfo".
Match matchOption(llvm::StringRef Token) {
  Match M;
  if (!Token.starts_with("-") || Token == "-")
    return M;
  llvm::StringRef Body = Token.drop_front(Token.starts_with("--") ? 2 : 1);
  for (const OptionSpec &S : Options)
    if (Body == S.Long || (!S.Short.empty() && Body == S.Short)) {
      M.Spec = &S;
      return M;
    }
  for (const OptionSpec &S : Options) {
    if (!S.TakesValue)
      continue;
    for (llvm::StringRef Name : {S.Long, S.Short})
      if (!Name.empty() && Body.starts_with(Name) &&
          Body.substr(Name.size()).starts_with("=")) {
        M.Spec = &S;
        M.Value = Body.substr(Name.size() + 1).str();
        return M;
      }
  }
  // Glued values: only one-letter short names (-Idir, -DX=1, -O3) and the
  // "-isystemdir"/"-includefile" forms nvcc also takes after one dash.
  if (Token.starts_with("--"))
    return M;
  for (const OptionSpec &S : Options) {
    if (!S.TakesValue || S.Short.empty())
      continue;
    bool Glueable = S.Short.size() == 1 || S.K == Kind::SystemInclude;
    if (!Glueable || Body.size() <= S.Short.size() ||
        !Body.starts_with(S.Short))
      continue;
    // -m64 is --machine; -march=native is not.
    if (S.Short == "m" &&
        !llvm::all_of(Body.drop_front(), llvm::isDigit))
      continue;
    {
      M.Spec = &S;
      M.Value = Body.substr(S.Short.size()).str();
      return M;
    }
  }
  return M;
}

bool readRealFile(llvm::StringRef Path, std::string &Contents) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return false;
  Contents = (*Buffer)->getBuffer().str();
  return true;
}

bool isSourceOrObject(llvm::StringRef Token) {
  return isSupportedFileName(Token);
}

class Translator {
public:
  Translator(llvm::StringRef Directory, ReadFileFn ReadFile)
      : Directory(Directory), ReadFile(ReadFile ? ReadFile : readRealFile) {}

  void run(llvm::ArrayRef<std::string> Args, unsigned Depth);
  NvccTranslation finish();

private:
  void apply(const OptionSpec &S, llvm::StringRef Value, llvm::StringRef Token);
  void hostFlags(llvm::ArrayRef<std::string> Flags, bool FromUnknown);
  void readOptionsFile(llvm::StringRef Path, unsigned Depth);
  void note(const llvm::Twine &Message) { Out.Notes.push_back(Message.str()); }

  std::string Directory;
  ReadFileFn ReadFile;
  NvccTranslation Out;
  std::vector<std::string> Flags, Sources, ArchValues;
  std::string Language;
  bool Rdc = false, ForwardUnknown = false;
  /// How deep in options files the flag being read is (the command line is
  /// 0), and how many options files were read.
  unsigned CurrentDepth = 0, FilesRead = 0;
  static constexpr unsigned MaxFilesRead = 64;
  /// Unknown flags are forwarded or noted once the whole line is read, since
  /// -forward-unknown-to-host-compiler may come after them.
  std::vector<std::string> Unknown;
};

void Translator::run(llvm::ArrayRef<std::string> Args, unsigned Depth) {
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Token = Args[I];
    if (Token.starts_with("@") && Token.size() > 1) {
      readOptionsFile(Token.drop_front(), Depth);
      continue;
    }
    if (!Token.starts_with("-") || Token == "-") {
      if (isSourceOrObject(Token))
        Sources.push_back(Token.str());
      else
        note("dropped the input '" + Token + "' (not a source file)");
      continue;
    }
    Match M = matchOption(Token);
    if (!M.Spec) {
      Unknown.push_back(Token.str());
      continue;
    }
    const OptionSpec &S = *M.Spec;
    if (!S.TakesValue) {
      apply(S, "", Token);
      continue;
    }
    std::string Value;
    if (M.Value) {
      Value = *M.Value;
    } else if (S.K == Kind::WError) {
      // nvcc's -Werror takes a list of kinds; the host's -Werror does not.
      if (I + 1 < Args.size() && isWErrorKind(Args[I + 1]))
        ++I;
      continue;
    } else if (I + 1 < Args.size()) {
      Value = Args[++I];
    } else {
      note("dropped '" + Token + "': its value is missing");
      continue;
    }
    if (S.List) {
      for (llvm::StringRef V : llvm::split(Value, ','))
        if (!V.empty())
          apply(S, V, Token);
    } else {
      apply(S, Value, Token);
    }
  }
}

void Translator::apply(const OptionSpec &S, llvm::StringRef Value,
                       llvm::StringRef Token) {
  switch (S.K) {
  case Kind::Drop:
  case Kind::WError:
    return;
  case Kind::Include:
    Flags.push_back("-I" + Value.str());
    return;
  case Kind::SystemInclude:
    Flags.push_back("-isystem");
    Flags.push_back(Value.str());
    return;
  case Kind::Define:
    Flags.push_back("-D" + Value.str());
    return;
  case Kind::Undefine:
    Flags.push_back("-U" + Value.str());
    return;
  case Kind::PreInclude:
    Flags.push_back("-include");
    Flags.push_back(Value.str());
    return;
  case Kind::Std:
    Flags.push_back("-std=" + Value.str());
    return;
  case Kind::Language:
    if (Value == "cu")
      Language = "cuda";
    else if (Value == "c++" || Value == "c")
      Language = Value.str();
    else
      note("dropped '" + Token + " " + Value +
           "': only cu, c++ and c inputs are analysed");
    return;
  case Kind::OptLevel:
    Flags.push_back("-O" + Value.str());
    return;
  case Kind::Compile:
    Flags.push_back("-c");
    return;
  case Kind::Arch:
    ArchValues.push_back(Value.str());
    return;
  case Kind::HostFlags:
    hostFlags({Value.str()}, /*FromUnknown=*/false);
    return;
  case Kind::Rdc:
    Rdc = Value == "true";
    return;
  case Kind::DeviceC:
    Rdc = true;
    Flags.push_back("-c");
    return;
  case Kind::DeviceW:
    Rdc = false;
    Flags.push_back("-c");
    return;
  case Kind::OptionsFile:
    // At the depth of the line that names it: an options file that names
    // itself must end at the depth limit, not recurse until the stack ends
    // (found by fuzz/NvccTranslationFuzzer.cpp).
    readOptionsFile(Value, CurrentDepth);
    return;
  case Kind::ForwardUnknown:
    ForwardUnknown = true;
    return;
  case Kind::DefaultStream:
    // nvcc defines this for per-thread; the runtime headers read it.
    if (Value == "per-thread")
      Flags.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM");
    return;
  }
}

/// Keeps the host-compiler flags that change how code parses; drops the
/// others (code generation, GCC-only options that clang would reject).
void Translator::hostFlags(llvm::ArrayRef<std::string> HostArgs,
                           bool FromUnknown) {
  for (size_t I = 0; I < HostArgs.size(); ++I) {
    llvm::StringRef F = HostArgs[I];
    bool WithValue = false;
    for (llvm::StringRef P : {"-I", "-D", "-U", "-isystem", "-iquote",
                              "-idirafter", "-include"}) {
      if (F == P) {
        WithValue = true;
        break;
      }
    }
    if (WithValue) {
      Flags.push_back(F.str());
      if (I + 1 < HostArgs.size())
        Flags.push_back(HostArgs[++I]);
      continue;
    }
    bool Keep =
        F.starts_with("-I") || F.starts_with("-D") || F.starts_with("-U") ||
        F.starts_with("-isystem") || F.starts_with("-iquote") ||
        F.starts_with("-idirafter") || F.starts_with("-std=") ||
        // -Wl, -Wa and -Wp pass options to other tools (and arrive split
        // at their commas, as nvcc splits -Xcompiler values).
        (F.starts_with("-W") && !F.starts_with("-Werror") &&
         !llvm::is_contained({"-Wl", "-Wa", "-Wp"}, F) &&
         !F.starts_with("-Wl,") && !F.starts_with("-Wa,") &&
         !F.starts_with("-Wp,")) ||
        llvm::is_contained({"-fexceptions", "-fno-exceptions", "-frtti",
                            "-fno-rtti", "-fsigned-char", "-funsigned-char",
                            "-fPIC", "-fpic", "-pthread", "-w", "-fopenmp"},
                           F);
    if (Keep)
      Flags.push_back(F.str());
    else if (FromUnknown)
      note("dropped the unknown flag '" + F + "'");
    else
      note("dropped the host-compiler flag '" + F + "'");
  }
}

void Translator::readOptionsFile(llvm::StringRef Path, unsigned Depth) {
  llvm::SmallString<256> Full(Path);
  if (!llvm::sys::path::is_absolute(Full) && !Directory.empty())
    llvm::sys::path::make_absolute(Directory, Full);
  if (Depth > 8) {
    note("ignored the options file '" + Full + "': nested too deep");
    return;
  }
  // Files that name each other several times would otherwise multiply at
  // every level.
  if (++FilesRead > MaxFilesRead) {
    note("ignored the options file '" + Full + "': more than " +
         llvm::Twine(MaxFilesRead) + " options files in one command");
    return;
  }
  std::string Contents;
  if (!ReadFile(Full, Contents)) {
    note("cannot read the options file '" + Full + "'");
    return;
  }
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 32> Tokens;
  llvm::cl::TokenizeGNUCommandLine(Contents, Saver, Tokens,
                                   /*MarkEOLs=*/false);
  std::vector<std::string> Args(Tokens.begin(), Tokens.end());
  unsigned Saved = CurrentDepth;
  CurrentDepth = Depth + 1;
  run(Args, Depth + 1);
  CurrentDepth = Saved;
}

NvccTranslation Translator::finish() {
  if (ForwardUnknown)
    hostFlags(Unknown, /*FromUnknown=*/true);
  else
    for (const std::string &U : Unknown)
      note("dropped the unknown flag '" + U + "'");
  Out.Args.push_back("clang++");
  Out.GpuArch = pickGpuArch(ArchValues);
  if (!Out.GpuArch.empty())
    Out.Args.push_back("--cuda-gpu-arch=" + Out.GpuArch);
  if (Rdc)
    Out.Args.push_back("-fgpu-rdc");
  llvm::append_range(Out.Args, Flags);
  if (!Language.empty()) {
    Out.Args.push_back("-x");
    Out.Args.push_back(Language);
  }
  llvm::append_range(Out.Args, Sources);
  return std::move(Out);
}

} // namespace

bool isNvccCompiler(llvm::StringRef Compiler) {
  llvm::StringRef Name = llvm::sys::path::filename(Compiler);
  Name.consume_back(".exe");
  return Name.ends_with("nvcc");
}

bool stripCompilerLauncher(std::vector<std::string> &Args) {
  bool Stripped = false;
  while (Args.size() > 1) {
    llvm::StringRef Name = llvm::sys::path::filename(Args.front());
    if (!llvm::is_contained({"ccache", "sccache", "distcc", "icecc",
                             "buildcache"},
                            Name))
      break;
    Args.erase(Args.begin());
    Stripped = true;
  }
  return Stripped;
}

std::string pickGpuArch(llvm::ArrayRef<std::string> ArchValues) {
  unsigned Best = 0;
  bool BestSpecific = false;
  for (llvm::StringRef V : ArchValues) {
    for (llvm::StringRef Prefix : {"sm_", "compute_", "lto_"}) {
      size_t Pos = 0;
      while ((Pos = V.find(Prefix, Pos)) != llvm::StringRef::npos) {
        llvm::StringRef Rest = V.substr(Pos + Prefix.size());
        Pos += Prefix.size();
        llvm::StringRef Digits = Rest.take_while(llvm::isDigit);
        unsigned N = 0;
        // Below sm_50 no toolkit clang supports compiles; such a command
        // is analysed for the default architecture instead.
        if (Digits.empty() || Digits.getAsInteger(10, N) || N < 50)
          continue;
        // "a" is architecture-specific (sm_90a), which clang knows; "f"
        // (family) it does not, and it means the plain architecture.
        bool Specific = Rest.substr(Digits.size()).starts_with("a");
        if (N > Best || (N == Best && Specific)) {
          Best = N;
          BestSpecific = Specific;
        }
      }
    }
  }
  if (!Best)
    return "";
  return "sm_" + std::to_string(Best) + (BestSpecific ? "a" : "");
}

NvccTranslation translateNvccCommand(llvm::ArrayRef<std::string> NvccArgs,
                                     llvm::StringRef Directory,
                                     ReadFileFn ReadFile) {
  Translator T(Directory, ReadFile);
  if (!NvccArgs.empty())
    T.run(NvccArgs.drop_front(), 0);
  return T.finish();
}

} // namespace cudatidy
