//===- ArchConditionals.cpp -----------------------------------------------===//

#include "ArchConditionals.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

class ArchConditionalsRecorder : public PPCallbacks {
public:
  ArchConditionalsRecorder(std::shared_ptr<ArchConditionals::Recording> Out,
                           const SourceManager &SM, const LangOptions &LO)
      : Out(std::move(Out)), SM(SM), LO(LO) {}
  ~ArchConditionalsRecorder() override { Out->Live = false; }

  void If(SourceLocation, SourceRange Cond, ConditionValueKind) override {
    Stack.push_back(mentionsArch(Cond));
  }
  void Elif(SourceLocation, SourceRange Cond, ConditionValueKind,
            SourceLocation) override {
    if (!Stack.empty())
      Stack.back() = Stack.back() || mentionsArch(Cond);
  }
  void Ifdef(SourceLocation, const Token &Name, const MacroDefinition &) override {
    Stack.push_back(isArch(Name));
  }
  void Ifndef(SourceLocation, const Token &Name,
              const MacroDefinition &) override {
    Stack.push_back(isArch(Name));
  }
  void Elifdef(SourceLocation, const Token &Name,
               const MacroDefinition &) override {
    if (!Stack.empty())
      Stack.back() = Stack.back() || isArch(Name);
  }
  void Elifndef(SourceLocation, const Token &Name,
                const MacroDefinition &) override {
    if (!Stack.empty())
      Stack.back() = Stack.back() || isArch(Name);
  }
  void Endif(SourceLocation Loc, SourceLocation) override {
    LastEndif = Loc;
    LastEndedMentionedArch = !Stack.empty() && Stack.back();
    if (!Stack.empty())
      Stack.pop_back();
  }
  // Called once the skipped block ends: after Endif when an #endif ends it,
  // with the conditional still open when an #else or #elif does.
  void SourceRangeSkipped(SourceRange Range, SourceLocation EndLoc) override {
    bool Arch = EndLoc == LastEndif ? LastEndedMentionedArch
                                    : !Stack.empty() && Stack.back();
    if (Arch)
      Out->Skipped.push_back(Range);
  }

private:
  static bool isArch(const Token &Name) {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    return II && II->getName() == "__CUDA_ARCH__";
  }
  bool mentionsArch(SourceRange Cond) const {
    StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Cond),
                                          SM, LO);
    return Text.contains("__CUDA_ARCH__");
  }

  std::shared_ptr<ArchConditionals::Recording> Out;
  const SourceManager &SM;
  const LangOptions &LO;
  llvm::SmallVector<bool, 8> Stack;
  SourceLocation LastEndif;
  bool LastEndedMentionedArch = false;
};

namespace {
/// The recording made for the last preprocessor a check attached to: the
/// other checks of the translation unit share it instead of each lexing
/// every #if condition again.
thread_local const Preprocessor *LastPreprocessor = nullptr;
thread_local std::weak_ptr<ArchConditionals::Recording> LastRecording;

/// Sorts the starts of the skipped ranges by file.
void index(ArchConditionals::Recording &R, const SourceManager &SM) {
  if (R.Indexed == R.Skipped.size())
    return;
  R.StartsByFile.clear();
  // Skipped ranges are file locations: within one file, the order of their
  // raw encodings is the order of their offsets.
  for (SourceRange S : R.Skipped)
    R.StartsByFile[SM.getFileID(S.getBegin())].push_back(S.getBegin());
  for (auto &[File, Starts] : R.StartsByFile)
    llvm::sort(Starts, [](SourceLocation A, SourceLocation B) {
      return A.getRawEncoding() < B.getRawEncoding();
    });
  R.Indexed = R.Skipped.size();
}
} // namespace

void ArchConditionals::attach(Preprocessor &PP) {
  // A live recording of the same preprocessor is this translation unit's; a
  // dead one belonged to an earlier preprocessor at the same address.
  if (LastPreprocessor == &PP)
    if (std::shared_ptr<Recording> R = LastRecording.lock(); R && R->Live) {
      Shared = std::move(R);
      return;
    }
  Shared = std::make_shared<Recording>();
  LastPreprocessor = &PP;
  LastRecording = Shared;
  PP.addPPCallbacks(std::make_unique<ArchConditionalsRecorder>(
      Shared, PP.getSourceManager(), PP.getLangOpts()));
}

bool ArchConditionals::hidesCodeIn(SourceRange R,
                                   const SourceManager &SM) const {
  if (!Shared || Shared->Skipped.empty() || R.isInvalid())
    return false;
  SourceLocation B = SM.getExpansionLoc(R.getBegin());
  SourceLocation E = SM.getExpansionLoc(R.getEnd());
  index(*Shared, SM);
  auto It = Shared->StartsByFile.find(SM.getFileID(B));
  if (It == Shared->StartsByFile.end())
    return false;
  // The first skipped start at or after B: if any start lies in [B, E), it
  // does.
  const auto &Starts = It->second;
  auto First = llvm::lower_bound(Starts, B, [](SourceLocation S,
                                               SourceLocation L) {
    return S.getRawEncoding() < L.getRawEncoding();
  });
  return First != Starts.end() && SM.isBeforeInTranslationUnit(*First, E);
}

std::optional<unsigned> targetSmVersion(const ASTContext &Ctx) {
  const TargetInfo *Target = &Ctx.getTargetInfo();
  if (!Target->getTriple().isNVPTX())
    Target = Ctx.getAuxTargetInfo();
  if (!Target || !Target->getTriple().isNVPTX())
    return std::nullopt;
  llvm::StringRef Cpu = Target->getTargetOpts().CPU;
  if (!Cpu.consume_front("sm_"))
    return std::nullopt;
  unsigned Version = 0;
  if (Cpu.take_while(llvm::isDigit).getAsInteger(10, Version))
    return std::nullopt;
  return Version;
}

} // namespace clang::tidy::cuda
