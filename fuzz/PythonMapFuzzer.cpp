//===- PythonMapFuzzer.cpp - Fuzzes the Python position map --------------===//
//
// The input is a Python reader's answer (JSON), then a NUL byte, then
// findings in its generated unit, 10 bytes each: offset (4 bytes), range
// length (2), fix length (2), a kind byte and the fix's replacement byte.
// What readPythonAnswer accepts goes through remapPythonErrors, the code
// that moves every finding of a .py file's unit back to the Python file
// (docs/python.md). Each moved location is compared with a linear scan of
// the map, and the promises of the map are checked: nothing is left in the
// unit where the map covers it, a fix survives only inside one exact run
// (and never with text a Python literal cannot hold as written), a range
// survives only where both its ends map exactly to one file.
//
//===----------------------------------------------------------------------===//

#include "PythonInput.h"
#include <cstdint>
#include <cstdlib>
#include <cstring>

using clang::tidy::ClangTidyError;
using cudatidy::PythonUnit;

namespace {

constexpr const char *PythonPath = "/fuzz/kernels.py";
constexpr const char *UnitPath = "/fuzz/kernels.py.cu";

/// Where \p Offset of the unit goes: the last run that starts at or before
/// it, found by a linear scan (the mapper searches).
struct Expected {
  bool InMap = false;
  std::string File;
  unsigned Offset = 0;
};

Expected expect(const PythonUnit &U, unsigned Offset) {
  const PythonUnit::Run *Last = nullptr;
  for (const PythonUnit::Run &R : U.Map)
    if (R.UnitStart <= Offset)
      Last = &R;
  Expected E;
  if (!Last)
    return E;
  E.InMap = true;
  E.File = U.Files[Last->File];
  bool Inside = Last->Exact && Offset < Last->UnitStart + Last->Length;
  E.Offset = Inside ? Last->FileStart + (Offset - Last->UnitStart)
                    : Last->FileStart;
  return E;
}

/// Whether [Offset, Offset + Length) of \p File is inside one exact run's
/// text of that file.
bool insideExactRun(const PythonUnit &U, llvm::StringRef File, unsigned Offset,
                    unsigned Length) {
  for (const PythonUnit::Run &R : U.Map)
    if (R.Exact && U.Files[R.File] == File && Offset >= R.FileStart &&
        uint64_t(Offset) + Length <= uint64_t(R.FileStart) + R.Length &&
        (Length || Offset < R.FileStart + R.Length))
      return true;
  return false;
}

uint32_t take(const uint8_t *&P, unsigned Bytes) {
  uint32_t V = 0;
  for (unsigned I = 0; I < Bytes; ++I)
    V |= uint32_t(*P++) << (8 * I);
  return V;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const uint8_t *Nul =
      static_cast<const uint8_t *>(std::memchr(Data, 0, Size));
  size_t AnswerSize = Nul ? Nul - Data : Size;
  llvm::StringRef Answer(reinterpret_cast<const char *>(Data), AnswerSize);

  PythonUnit Unit;
  Unit.Files.push_back(PythonPath);
  std::string Text;
  if (!cudatidy::readPythonAnswer(PythonPath, Answer, Unit, Text).empty())
    return 0;
  Unit.UnitPath = UnitPath;
  // The answer's promises, which the mapper's search relies on.
  for (size_t I = 0; I < Unit.Map.size(); ++I) {
    const PythonUnit::Run &R = Unit.Map[I];
    if (R.File >= Unit.Files.size() ||
        uint64_t(R.UnitStart) + R.Length > Text.size() ||
        (I && R.UnitStart < Unit.Map[I - 1].UnitStart + Unit.Map[I - 1].Length))
      abort();
  }

  // Findings in the unit, as clang reports them.
  std::vector<ClangTidyError> Errors;
  const uint8_t *P = Nul ? Nul + 1 : Data + Size;
  const uint8_t *End = Data + Size;
  while (End - P >= 10) {
    unsigned Offset = take(P, 4) % (Text.size() + 16);
    unsigned RangeLength = take(P, 2) % 64;
    unsigned FixLength = take(P, 2) % 64;
    uint8_t Kind = *P++;
    char Replacement = static_cast<char>(*P++);
    ClangTidyError E("cuda-fuzz", (Kind & 1) ? ClangTidyError::Error
                                             : ClangTidyError::Warning,
                     "", false);
    E.Message.Message = "fuzz";
    E.Message.FilePath = (Kind & 2) ? PythonPath : UnitPath;
    E.Message.FileOffset = Offset;
    if (Kind & 4) {
      clang::tooling::FileByteRange Range;
      Range.FilePath = E.Message.FilePath;
      Range.FileOffset = Offset;
      Range.Length = RangeLength;
      E.Message.Ranges.push_back(Range);
    }
    if (Kind & 8) {
      llvm::cantFail(E.Message.Fix[E.Message.FilePath].add(
          clang::tooling::Replacement(E.Message.FilePath, Offset, FixLength,
                                      std::string(1 + Kind % 3, Replacement))));
    }
    if (Kind & 16) {
      clang::tooling::DiagnosticMessage Note;
      Note.Message = "note";
      Note.FilePath = UnitPath;
      Note.FileOffset = Offset / 2;
      E.Notes.push_back(Note);
    }
    Errors.push_back(std::move(E));
  }
  std::vector<ClangTidyError> Before = Errors;

  unsigned Dropped = cudatidy::remapPythonErrors(Unit, Errors);
  if (Dropped + Errors.size() != Before.size())
    abort();
  // NOLINT comments may drop findings: match the survivors in order.
  size_t J = 0;
  for (const ClangTidyError &After : Errors) {
    // The finding it was: dropped ones are skipped.
    const ClangTidyError *Orig = nullptr;
    for (; J < Before.size(); ++J) {
      const ClangTidyError &B = Before[J];
      Expected X = B.Message.FilePath == UnitPath
                       ? expect(Unit, B.Message.FileOffset)
                       : Expected();
      std::string WantFile = X.InMap ? X.File : B.Message.FilePath;
      unsigned WantOffset = X.InMap ? X.Offset : B.Message.FileOffset;
      if (B.DiagLevel == After.DiagLevel && WantFile == After.Message.FilePath &&
          WantOffset == After.Message.FileOffset) {
        Orig = &B;
        ++J;
        break;
      }
      // Only findings a NOLINT comment covers may be missing.
      if (Unit.NoLint.empty() || B.DiagLevel == ClangTidyError::Error)
        abort();
    }
    if (!Orig)
      abort();
    // Where the map covers the unit, nothing is left in it.
    bool Covered = !Unit.Map.empty() && Unit.Map.front().UnitStart == 0;
    if (Covered && After.Message.FilePath == UnitPath)
      abort();
    for (const clang::tooling::DiagnosticMessage &N : After.Notes)
      if (Covered && N.FilePath == UnitPath)
        abort();
    // Ranges: kept inside one file and one exact run, or emptied.
    for (const clang::tooling::FileByteRange &R : After.Message.Ranges)
      if (R.Length && R.FilePath != PythonPath &&
          !llvm::is_contained(Unit.Files, R.FilePath))
        abort();
    // Fixes: only inside one exact run, never into the unit, never with a
    // backslash, quote or line break in the Python file.
    for (const auto &[File, Replacements] : After.Message.Fix) {
      if (File == UnitPath && Orig->Message.FilePath == UnitPath)
        abort();
      if (File == UnitPath || Orig->Message.FilePath != UnitPath)
        continue;
      for (const clang::tooling::Replacement &R : Replacements) {
        if (!insideExactRun(Unit, File, R.getOffset(), R.getLength()))
          abort();
        if (File == Unit.Files.front() &&
            R.getReplacementText().find_first_of("\\'\"\n") !=
                llvm::StringRef::npos)
          abort();
      }
    }
  }
  return 0;
}
