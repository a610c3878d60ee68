//===- HiddenCodeCheck.cpp ------------------------------------------------===//

#include "HiddenCodeCheck.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

namespace clang::tidy::cuda {

namespace {

/// How much CUDA a piece of source holds: kernel and device function
/// qualifiers, launches, and runtime or driver API names.
unsigned cudaMarkers(StringRef Text) {
  unsigned N = 0;
  for (StringRef Word : {"__global__", "__device__", "<<<"})
    for (size_t At = Text.find(Word); At != StringRef::npos;
         At = Text.find(Word, At + Word.size()))
      ++N;
  for (size_t At = Text.find("cuda"); At != StringRef::npos;
       At = Text.find("cuda", At + 4)) {
    bool WordStart = At == 0 || !(llvm::isAlnum(Text[At - 1]) ||
                                  Text[At - 1] == '_');
    if (WordStart && At + 4 < Text.size() && llvm::isUpper(Text[At + 4]))
      ++N;
  }
  return N;
}

class Recorder : public PPCallbacks {
public:
  Recorder(HiddenCodeCheck &Check, const SourceManager &SM, Preprocessor &PP)
      : Check(Check), SM(SM), PP(PP) {}

  void If(SourceLocation Loc, SourceRange Cond,
          ConditionValueKind Value) override {
    Stack.push_back({Value == CVK_False ? undefinedMacroIn(Cond) : "", Loc});
  }
  void Ifdef(SourceLocation Loc, const Token &Name,
             const MacroDefinition &MD) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    Stack.push_back(
        {!MD && II && usable(II->getName()) ? II->getName().str() : "", Loc});
  }
  void Ifndef(SourceLocation Loc, const Token &, const MacroDefinition &) override {
    Stack.push_back({"", Loc});
  }
  void Endif(SourceLocation Loc, SourceLocation) override {
    LastEndif = Loc;
    LastEnded = Stack.empty() ? Frame() : Stack.back();
    if (!Stack.empty())
      Stack.pop_back();
  }
  // After Endif when an #endif ends the skipped block, with the
  // conditional still open when an #else or #elif does.
  void SourceRangeSkipped(SourceRange Range, SourceLocation EndLoc) override {
    Frame None;
    Frame &F = EndLoc == LastEndif ? LastEnded
                                   : (Stack.empty() ? None : Stack.back());
    // Only the block the false condition itself guards: the conditional's
    // first skipped block.
    if (F.Macro.empty() || F.Skipped++ || !SM.isInMainFile(Range.getBegin()))
      return;
    StringRef Text = Lexer::getSourceText(
        CharSourceRange::getCharRange(Range), SM, PP.getLangOpts());
    auto &Entry = Hidden[F.Macro];
    Entry.first += cudaMarkers(Text);
    if (Entry.second.isInvalid())
      Entry.second = F.Loc;
    HiddenTotal += cudaMarkers(Text);
  }
  void EndOfMainFile() override {
    if (Hidden.empty() || HiddenTotal == 0)
      return;
    StringRef All = SM.getBufferData(SM.getMainFileID());
    unsigned Total = cudaMarkers(All);
    // Most of the file's CUDA is hidden.
    if (HiddenTotal * 2 <= Total)
      return;
    const llvm::StringMapEntry<std::pair<unsigned, SourceLocation>> *Best =
        nullptr;
    for (const auto &E : Hidden)
      if (!Best || E.second.first > Best->second.first ||
          (E.second.first == Best->second.first &&
           SM.isBeforeInTranslationUnit(E.second.second, Best->second.second)))
        Best = &E;
    if (!Best || Best->second.first == 0)
      return;
    Check.diag(Best->second.second,
               "most of the CUDA code of this file is under a condition on "
               "'%0', which this compilation does not define, so no check "
               "analysed it; define it to analyse that code "
               "(--extra-arg=-D%0, or in the compile database)",
               DiagnosticIDs::Remark)
        << Best->first();
  }

private:
  struct Frame {
    std::string Macro;
    SourceLocation Loc;
    unsigned Skipped = 0;
  };

  /// Macros a user would define on the command line: not reserved names.
  static bool usable(StringRef Name) {
    return !Name.empty() && Name[0] != '_' && Name != "defined";
  }

  /// The first identifier of a false #if condition that names no macro.
  std::string undefinedMacroIn(SourceRange Cond) {
    StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(Cond), SM, PP.getLangOpts());
    for (size_t I = 0; I < Text.size();) {
      if (!(llvm::isAlpha(Text[I]) || Text[I] == '_')) {
        ++I;
        continue;
      }
      size_t J = I;
      while (J < Text.size() && (llvm::isAlnum(Text[J]) || Text[J] == '_'))
        ++J;
      StringRef Word = Text.slice(I, J);
      I = J;
      if (!usable(Word))
        continue;
      const IdentifierInfo *II = PP.getIdentifierInfo(Word);
      if (!II || !II->hasMacroDefinition())
        return Word.str();
    }
    return "";
  }

  HiddenCodeCheck &Check;
  const SourceManager &SM;
  Preprocessor &PP;
  llvm::SmallVector<Frame, 8> Stack;
  SourceLocation LastEndif;
  Frame LastEnded;
  llvm::StringMap<std::pair<unsigned, SourceLocation>> Hidden;
  unsigned HiddenTotal = 0;
};

} // namespace

void HiddenCodeCheck::registerPPCallbacks(const SourceManager &SM,
                                          Preprocessor *PP, Preprocessor *) {
  PP->addPPCallbacks(std::make_unique<Recorder>(*this, SM, *PP));
}

} // namespace clang::tidy::cuda
