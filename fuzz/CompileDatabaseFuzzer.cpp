//===- CompileDatabaseFuzzer.cpp - Fuzzes the compile database reader -----===//
//
// The input is a compile_commands.json. It is read the way the driver reads
// one (clang's JSONCompilationDatabase, command lines split with the
// platform's syntax) and every entry goes through the driver's launcher
// stripping and nvcc translation. Options files are never read from the
// disk, and no command is ever executed.
//
//===----------------------------------------------------------------------===//

#include "NvccTranslation.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {
bool refuseRead(llvm::StringRef, std::string &) { return false; }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);
  std::string Error;
  std::unique_ptr<clang::tooling::JSONCompilationDatabase> DB =
      clang::tooling::JSONCompilationDatabase::loadFromBuffer(
          Input, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!DB) {
    if (Error.empty())
      abort(); // A rejected database must say why.
    return 0;
  }
  for (clang::tooling::CompileCommand &C : DB->getAllCompileCommands()) {
    std::vector<std::string> Args = C.CommandLine;
    cudatidy::stripCompilerLauncher(Args);
    if (Args.empty())
      continue;
    if (cudatidy::isNvccCompiler(Args.front())) {
      cudatidy::NvccTranslation T =
          cudatidy::translateNvccCommand(Args, C.Directory, refuseRead);
      if (T.Args.empty())
        abort();
    }
  }
  for (const std::string &File : DB->getAllFiles())
    (void)DB->getCompileCommands(File);
  return 0;
}
