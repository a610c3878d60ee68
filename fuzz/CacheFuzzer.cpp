//===- CacheFuzzer.cpp - Fuzzes the result cache reader -------------------===//
//
// The input is a cache entry. The first byte chooses how it is read: as a
// whole entry (key, checksum, findings), or as the findings alone, which an
// entry with a matching checksum hands to the rest of the driver. Findings
// that are read back go through what a cache hit goes through: sorting,
// the SARIF and JSON writers and the baseline fingerprints, and they must
// survive a round trip through the writer.
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "ResultCache.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>

using clang::tidy::ClangTidyError;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  bool Whole = Data[0] & 1;
  llvm::StringRef Input(reinterpret_cast<const char *>(Data + 1), Size - 1);
  const char *Key = "00ff";

  std::vector<ClangTidyError> Errors;
  if (Whole) {
    if (!cudatidy::ResultCache::parseEntry(Input, Key, Errors).empty())
      return 0;
  } else {
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(Input);
    if (!V) {
      llvm::consumeError(V.takeError());
      return 0;
    }
    if (!cudatidy::errorsFromJson(*V, Errors))
      return 0;
  }

  // A round trip through the entry writer gives the same findings.
  std::string Text = cudatidy::ResultCache::entryText(Key, Errors);
  std::vector<ClangTidyError> Again;
  if (!cudatidy::ResultCache::parseEntry(Text, Key, Again).empty() ||
      Again.size() != Errors.size())
    abort();
  if (cudatidy::ResultCache::entryText(Key, Again) != Text)
    abort();

  cudatidy::sortErrors(Errors);
  cudatidy::LineIndex Lines;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  cudatidy::writeJson(OS, Errors, Lines, "fuzz");
  cudatidy::writeSarif(OS, Errors, Lines, "/fuzz", "fuzz");
  (void)cudatidy::fingerprints(Errors, Lines, "/fuzz");
  return 0;
}
