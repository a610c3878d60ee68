//===- BaselineFuzzer.cpp - Fuzzes the baseline and diff readers ----------===//
//
// The input is read as a baseline file (--baseline) and applied to a few
// findings, and read again as a unified diff (--diff-base=-) and used to
// filter them.
//
//===----------------------------------------------------------------------===//

#include "Gates.h"
#include <cstdint>
#include <cstdlib>
#include <set>

using clang::tidy::ClangTidyError;

namespace {
std::vector<ClangTidyError> someFindings() {
  std::vector<ClangTidyError> Errors;
  const char *Names[] = {"cuda-unchecked-api-call", "cuda-invalid-free",
                         "clang-diagnostic-error"};
  for (unsigned I = 0; I < 6; ++I) {
    ClangTidyError E(Names[I % 3],
                     I % 3 == 2 ? ClangTidyError::Error
                                : ClangTidyError::Warning,
                     "/fuzz", false);
    E.Message.Message = "finding " + std::to_string(I % 2);
    E.Message.FilePath = I < 3 ? "/fuzz/a.cu" : "b.cu";
    E.Message.FileOffset = I * 7;
    Errors.push_back(std::move(E));
  }
  return Errors;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);

  std::multiset<std::string> Known;
  std::string Err = cudatidy::parseBaseline(Input, "fuzz.json", Known);
  if (!Err.empty() && !Known.empty() && Err.find("fingerprint") == Err.npos)
    abort(); // A rejected baseline contributes nothing.

  cudatidy::LineIndex Lines;
  cudatidy::ChangedLines Changed = cudatidy::parseUnifiedDiff(Input, "/fuzz");
  std::vector<ClangTidyError> Errors = someFindings();
  size_t Dropped = 0;
  cudatidy::keepChangedLines(Errors, Changed, Lines, Dropped);
  // Compile errors always stay.
  if (Dropped > 4)
    abort();
  return 0;
}
