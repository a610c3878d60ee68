//===- ArchConditionals.cpp -----------------------------------------------===//

#include "ArchConditionals.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

class ArchConditionalsRecorder : public PPCallbacks {
public:
  ArchConditionalsRecorder(ArchConditionals &Out, const SourceManager &SM,
                           const LangOptions &LO)
      : Out(Out), SM(SM), LO(LO) {}

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
      Out.Skipped.push_back(Range);
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

  ArchConditionals &Out;
  const SourceManager &SM;
  const LangOptions &LO;
  llvm::SmallVector<bool, 8> Stack;
  SourceLocation LastEndif;
  bool LastEndedMentionedArch = false;
};

void ArchConditionals::attach(Preprocessor &PP) {
  Skipped.clear();
  PP.addPPCallbacks(std::make_unique<ArchConditionalsRecorder>(
      *this, PP.getSourceManager(), PP.getLangOpts()));
}

bool ArchConditionals::hidesCodeIn(SourceRange R,
                                   const SourceManager &SM) const {
  if (Skipped.empty() || R.isInvalid())
    return false;
  SourceLocation B = SM.getExpansionLoc(R.getBegin());
  SourceLocation E = SM.getExpansionLoc(R.getEnd());
  for (SourceRange S : Skipped) {
    if (SM.getFileID(S.getBegin()) != SM.getFileID(B))
      continue;
    if (!SM.isBeforeInTranslationUnit(S.getBegin(), B) &&
        SM.isBeforeInTranslationUnit(S.getBegin(), E))
      return true;
  }
  return false;
}

} // namespace clang::tidy::cuda
