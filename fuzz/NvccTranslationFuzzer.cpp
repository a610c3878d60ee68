//===- NvccTranslationFuzzer.cpp - Fuzzes the nvcc flag translation -------===//
//
// The input is a command line, one argument per line, optionally followed
// by a NUL byte and the content that every options file (@file,
// --options-file) reads back. It goes through what the driver does to a
// compile database entry: the launcher is stripped and an nvcc command is
// translated. Nothing is read from the disk.
//
//===----------------------------------------------------------------------===//

#include "NvccTranslation.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
std::string OptionsFileText;

bool readFromInput(llvm::StringRef, std::string &Contents) {
  Contents = OptionsFileText;
  return true;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);
  auto [CommandText, FileText] = Input.split('\0');
  OptionsFileText = FileText.str();

  std::vector<std::string> Args;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  CommandText.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    Args.push_back(L.str());

  cudatidy::stripCompilerLauncher(Args);
  if (Args.empty())
    return 0;
  // Every entry is translated, nvcc or not, so that the fuzzer need not
  // find the compiler name first.
  (void)cudatidy::isNvccCompiler(Args.front());
  cudatidy::NvccTranslation T =
      cudatidy::translateNvccCommand(Args, "/fuzz/build", readFromInput);
  // What the translation promises: a clang command line.
  if (T.Args.empty() || T.Args.front() != "clang++")
    abort();
  (void)cudatidy::pickGpuArch(Args);
  return 0;
}
