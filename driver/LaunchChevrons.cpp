//===--- LaunchChevrons.cpp - nvcc's spaced launch chevrons ---------------===//
//
// Also nvcc's bare '%' before a PTX special register in an asm template.
//
//===----------------------------------------------------------------------===//

#include "LaunchChevrons.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <vector>

namespace cudatidy {
namespace {

bool isHorizontalSpace(char C) { return C == ' ' || C == '\t'; }
bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// A run of chevrons (all C) starting at I with only horizontal space
/// between them: where it ends and how many chevrons it holds.
struct ChevronRun {
  size_t End = 0;
  unsigned Count = 0;
  bool Spaced = false; ///< Space between two of its chevrons.
};

ChevronRun runAt(llvm::StringRef T, size_t I, char C) {
  ChevronRun R;
  size_t J = I;
  while (J < T.size() && T[J] == C) {
    ++R.Count;
    R.End = ++J;
    size_t K = J;
    while (K < T.size() && isHorizontalSpace(T[K]))
      ++K;
    if (K < T.size() && T[K] == C && K != J) {
      R.Spaced = true;
      J = K;
    }
  }
  return R;
}

/// The index after the comment or literal that starts at I, or I.
size_t skipCommentOrLiteral(llvm::StringRef T, size_t I) {
  size_t N = T.size();
  if (T[I] == '/' && I + 1 < N && T[I + 1] == '/') {
    size_t E = T.find('\n', I);
    return E == llvm::StringRef::npos ? N : E;
  }
  if (T[I] == '/' && I + 1 < N && T[I + 1] == '*') {
    size_t E = T.find("*/", I + 2);
    return E == llvm::StringRef::npos ? N : E + 2;
  }
  if (T[I] == '"' && I > 0 && T[I - 1] == 'R') {
    size_t Open = T.find('(', I);
    if (Open == llvm::StringRef::npos || Open - I > 17)
      return I + 1;
    std::string Close = ")" + T.slice(I + 1, Open).str() + "\"";
    size_t E = T.find(Close, Open);
    return E == llvm::StringRef::npos ? N : E + Close.size();
  }
  // A quote after a digit or letter is a digit separator (1'000).
  if (T[I] == '"' || (T[I] == '\'' && !(I > 0 && isIdentifierChar(T[I - 1])))) {
    char Quote = T[I];
    size_t J = I + 1;
    while (J < N && T[J] != Quote && T[J] != '\n')
      J += T[J] == '\\' ? 2 : 1;
    return J < N ? J + 1 : N;
  }
  return I;
}

/// Whether the three chevrons at I open a launch: they follow a kernel's
/// name, its template arguments or a parenthesised callee, and not the
/// keyword 'operator' ('operator<< <T>(...)').
bool opensLaunch(llvm::StringRef T, size_t I) {
  size_t P = I;
  while (P > 0 && isHorizontalSpace(T[P - 1]))
    --P;
  if (P == 0)
    return false;
  char Before = T[P - 1];
  if (Before == ')' || Before == '>' || Before == ']')
    return true;
  if (!isIdentifierChar(Before))
    return false;
  size_t B = P;
  while (B > 0 && isIdentifierChar(T[B - 1]))
    --B;
  return T.slice(B, P) != "operator";
}

/// Writes the chevrons of the run [I, End) first and its spaces after them.
void join(std::string &Out, size_t I, size_t End, char C) {
  std::string Spaces;
  unsigned Chevrons = 0;
  for (size_t K = I; K < End; ++K) {
    if (Out[K] == C)
      ++Chevrons;
    else
      Spaces += Out[K];
  }
  Out.replace(I, End - I, std::string(Chevrons, C) + Spaces);
}

/// The start of the run of three '>' that closes the launch opened before
/// I, at bracket depth 0, or npos.
size_t closingRun(llvm::StringRef T, size_t I) {
  int Depth = 0;
  for (size_t J = I; J < T.size();) {
    size_t After = skipCommentOrLiteral(T, J);
    if (After != J) {
      J = After;
      continue;
    }
    char C = T[J];
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == ')' || C == ']' || C == '}') {
      if (--Depth < 0)
        return llvm::StringRef::npos;
    } else if (C == ';')
      return llvm::StringRef::npos;
    else if (Depth == 0 && C == '>') {
      ChevronRun R = runAt(T, J, '>');
      if (R.Count == 3)
        return J;
      if (R.Count > 3)
        return llvm::StringRef::npos;
      J = R.End;
      continue;
    }
    ++J;
  }
  return llvm::StringRef::npos;
}

/// Whether T has a spaced run of three '<' at all (the cheap test).
bool mayHaveSpacedLaunch(llvm::StringRef T) {
  for (size_t I = T.find('<'); I != llvm::StringRef::npos;) {
    ChevronRun R = runAt(T, I, '<');
    if (R.Count == 3 && R.Spaced)
      return true;
    I = T.find('<', R.End);
  }
  return false;
}

size_t skipSpace(llvm::StringRef T, size_t I) {
  while (I < T.size() && llvm::isSpace(T[I]))
    ++I;
  return I;
}

/// The string literals of the template of the asm statement whose keyword
/// ends at I: their [begin, end) ranges, and the index after them; empty
/// when the statement is not '( "..." "..." :' (basic asm, a macro, a raw
/// string).
std::vector<std::pair<size_t, size_t>> extendedAsmTemplate(llvm::StringRef T,
                                                           size_t I) {
  std::vector<std::pair<size_t, size_t>> Strings;
  size_t J = skipSpace(T, I);
  // Qualifiers: volatile, __volatile__, inline, goto.
  while (J < T.size() && llvm::isAlpha(T[J])) {
    size_t E = J;
    while (E < T.size() && isIdentifierChar(T[E]))
      ++E;
    llvm::StringRef Word = T.slice(J, E);
    if (Word != "volatile" && Word != "__volatile__" && Word != "__volatile" &&
        Word != "inline" && Word != "goto")
      return {};
    J = skipSpace(T, E);
  }
  if (J >= T.size() || T[J] != '(')
    return {};
  J = skipSpace(T, J + 1);
  while (J < T.size() && T[J] == '"') {
    size_t E = skipCommentOrLiteral(T, J);
    if (E == J || T[E - 1] != '"')
      return {};
    Strings.push_back({J + 1, E - 1});
    J = skipSpace(T, E);
  }
  if (Strings.empty() || J >= T.size() || T[J] != ':')
    return {};
  return Strings;
}

/// Escapes the special registers in one template string [B, E) of Text,
/// in Out (a copy of Text made at the first change).
void escapeRegistersIn(llvm::StringRef Text, size_t B, size_t E,
                       std::optional<std::string> &Out) {
  for (size_t K = B; K < E; ++K) {
    if (Text[K] == '\\') {
      ++K;
      continue;
    }
    if (Text[K] != '%')
      continue;
    if (K + 1 < E && Text[K + 1] == '%') {
      ++K;
      continue;
    }
    if (K + 1 >= E || !llvm::isAlpha(Text[K + 1]))
      continue;
    // A modifier of an operand: one letter, then its number or name.
    if (K + 2 < E && (llvm::isDigit(Text[K + 2]) || Text[K + 2] == '['))
      continue;
    if (!Out)
      Out = Text.str();
    if (K > B && isHorizontalSpace(Text[K - 1]))
      (*Out)[K - 1] = '%';
    else
      (*Out)[K + 1] = '%';
    ++K;
  }
}

class JoiningFile : public llvm::vfs::File {
public:
  explicit JoiningFile(std::unique_ptr<llvm::vfs::File> Underlying)
      : Underlying(std::move(Underlying)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override {
    return Underlying->status();
  }
  llvm::ErrorOr<std::string> getName() override {
    return Underlying->getName();
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
  getBuffer(const llvm::Twine &Name, int64_t FileSize,
            bool RequiresNullTerminator, bool IsVolatile) override {
    auto Buffer = Underlying->getBuffer(Name, FileSize, RequiresNullTerminator,
                                        IsVolatile);
    if (!Buffer)
      return Buffer;
    std::optional<std::string> Joined =
        nvccAcceptedText((*Buffer)->getBuffer());
    if (!Joined)
      return Buffer;
    return llvm::MemoryBuffer::getMemBufferCopy(
        *Joined, (*Buffer)->getBufferIdentifier());
  }
  std::error_code close() override { return Underlying->close(); }

private:
  std::unique_ptr<llvm::vfs::File> Underlying;
};

class JoiningFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    auto File = ProxyFileSystem::openFileForRead(Path);
    if (!File)
      return File;
    return std::unique_ptr<llvm::vfs::File>(
        new JoiningFile(std::move(*File)));
  }
};

} // namespace

std::optional<std::string> joinSpacedLaunchChevrons(llvm::StringRef Text) {
  if (!mayHaveSpacedLaunch(Text))
    return std::nullopt;
  std::string Out = Text.str();
  bool Changed = false;
  for (size_t I = 0; I < Text.size();) {
    size_t After = skipCommentOrLiteral(Text, I);
    if (After != I) {
      I = After;
      continue;
    }
    if (Text[I] != '<') {
      ++I;
      continue;
    }
    ChevronRun Open = runAt(Text, I, '<');
    if (Open.Count != 3 || !opensLaunch(Text, I)) {
      I = Open.End;
      continue;
    }
    size_t Close = closingRun(Text, Open.End);
    if (Close == llvm::StringRef::npos) {
      I = Open.End;
      continue;
    }
    ChevronRun Closing = runAt(Text, Close, '>');
    if (Open.Spaced || Closing.Spaced) {
      join(Out, I, Open.End, '<');
      join(Out, Close, Closing.End, '>');
      Changed = true;
    }
    I = Closing.End;
  }
  if (!Changed)
    return std::nullopt;
  return Out;
}

std::optional<std::string> escapeAsmSpecialRegisters(llvm::StringRef Text) {
  if (!Text.contains("asm") || !Text.contains('%'))
    return std::nullopt;
  std::optional<std::string> Out;
  for (size_t I = 0; I < Text.size();) {
    size_t After = skipCommentOrLiteral(Text, I);
    if (After != I) {
      I = After;
      continue;
    }
    if (!isIdentifierChar(Text[I])) {
      ++I;
      continue;
    }
    size_t End = I;
    while (End < Text.size() && isIdentifierChar(Text[End]))
      ++End;
    llvm::StringRef Word = Text.slice(I, End);
    if (Word == "asm" || Word == "__asm__" || Word == "__asm")
      for (auto [B, E] : extendedAsmTemplate(Text, End))
        escapeRegistersIn(Text, B, E, Out);
    I = End;
  }
  return Out;
}

std::optional<std::string> nvccAcceptedText(llvm::StringRef Text) {
  std::optional<std::string> Joined = joinSpacedLaunchChevrons(Text);
  std::optional<std::string> Escaped =
      escapeAsmSpecialRegisters(Joined ? llvm::StringRef(*Joined) : Text);
  return Escaped ? Escaped : Joined;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
joiningLaunchChevrons(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base) {
  return llvm::makeIntrusiveRefCnt<JoiningFileSystem>(std::move(Base));
}

} // namespace cudatidy
