//===- ErrorCheckWrapper.cpp - The project's own error check --------------===//
//
// See ErrorCheckWrapper.h.
//
//===----------------------------------------------------------------------===//

#include "ErrorCheckWrapper.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "TranslationUnitScan.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace clang::tidy::cuda {
namespace {

/// Whether the text around the call spelled from \p B to the token at \p E
/// reads `Name ( call )`, with nothing but white space between: the call is
/// the wrapper's only written argument.
bool writtenAsSoleArgument(SourceLocation B, SourceLocation E, StringRef Name,
                           const SourceManager &SM, const LangOptions &LO) {
  if (Name.empty() || B.isInvalid() || E.isInvalid() || !B.isFileID() ||
      !E.isFileID())
    return false;
  auto [File, Begin] = SM.getDecomposedLoc(B);
  auto [EndFile, EndOffset] = SM.getDecomposedLoc(E);
  if (File != EndFile || EndOffset < Begin)
    return false;
  bool Invalid = false;
  StringRef Text = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return false;
  size_t After = EndOffset + Lexer::MeasureTokenLength(E, SM, LO);
  while (After < Text.size() && isWhitespace(Text[After]))
    ++After;
  if (After >= Text.size() || Text[After] != ')')
    return false;
  size_t Before = Begin;
  while (Before > 0 && isWhitespace(Text[Before - 1]))
    --Before;
  if (Before == 0 || Text[Before - 1] != '(')
    return false;
  --Before;
  while (Before > 0 && isWhitespace(Text[Before - 1]))
    --Before;
  if (!Text.substr(0, Before).ends_with(Name))
    return false;
  size_t NameStart = Before - Name.size();
  return NameStart == 0 || !isAsciiIdentifierContinue(Text[NameStart - 1]);
}

const FunctionDecl *calleeReturning(const CallExpr *Call,
                                    llvm::ArrayRef<StringRef> CheckedTypes) {
  if (!Call || isa<CUDAKernelCallExpr>(Call))
    return nullptr;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !CudaApiModel::isTypeNamed(Callee->getReturnType(),
                                             CheckedTypes))
    return nullptr;
  return Callee;
}

/// Where \p Call begins as written in the file: a callee named through an
/// object-like macro (cublas_v2.h's `#define cublasSgemm cublasSgemm_v2`),
/// in a wrapper's argument or not, begins at that name.
SourceLocation writtenBegin(const CallExpr *Call, const SourceManager &SM) {
  SourceLocation B = Call->getBeginLoc();
  if (!B.isMacroID())
    return B;
  SourceLocation S = SM.getSpellingLoc(B);
  if (SM.getFileID(S) == SM.getFileID(SM.getSpellingLoc(Call->getEndLoc())))
    return S;
  return SM.getExpansionLoc(SM.getTopMacroCallerLoc(B));
}

/// `NAME(call)` where NAME is a function-like macro: the name, or "".
StringRef macroAround(const CallExpr *Call, const SourceManager &SM,
                      const LangOptions &LO) {
  SourceLocation B = Call->getBeginLoc(), E = Call->getEndLoc();
  if (!B.isMacroID() || !E.isMacroID() || !SM.isMacroArgExpansion(B) ||
      !SM.isMacroArgExpansion(E))
    return "";
  // The macro whose argument the call's last token is (its first may be
  // an object-like macro's, the callee's name).
  StringRef Name = Lexer::getImmediateMacroName(E, SM, LO);
  if (Name != Lexer::getImmediateMacroName(B, SM, LO) &&
      SM.getSpellingLoc(B) == SM.getSpellingLoc(writtenBegin(Call, SM)))
    return "";
  if (!writtenAsSoleArgument(writtenBegin(Call, SM), SM.getSpellingLoc(E), Name,
                             SM, LO))
    return "";
  return Name;
}

/// `name(call)` where name is a function of the project that takes the
/// error code: the callee as written, or "".
StringRef functionAround(const CallExpr *Outer, const CallExpr *&Inner,
                         llvm::ArrayRef<StringRef> CheckedTypes,
                         const SourceManager &SM, const LangOptions &LO) {
  if (isa<CXXOperatorCallExpr, CXXMemberCallExpr, CUDAKernelCallExpr>(Outer) ||
      Outer->getNumArgs() == 0 || Outer->getBeginLoc().isMacroID())
    return "";
  const FunctionDecl *FD = Outer->getDirectCallee();
  if (!FD || FD->isCXXClassMember() || FD->getNumParams() == 0 ||
      SM.isInSystemHeader(FD->getLocation()) || CudaApiModel::lookup(FD) ||
      !CudaApiModel::isTypeNamed(FD->getParamDecl(0)->getType(), CheckedTypes))
    return "";
  for (unsigned I = 1; I < Outer->getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(Outer->getArg(I)))
      return "";
  Inner = dyn_cast<CallExpr>(Outer->getArg(0)->IgnoreParenImpCasts());
  if (!calleeReturning(Inner, CheckedTypes))
    return "";
  StringRef Name = Lexer::getSourceText(
      CharSourceRange::getTokenRange(Outer->getCallee()->getSourceRange()), SM,
      LO);
  if (Name.empty() || !llvm::all_of(Name, [](char C) {
        return isAsciiIdentifierContinue(C) || C == ':';
      }))
    return "";
  if (!writtenAsSoleArgument(writtenBegin(Inner, SM), Inner->getEndLoc(), Name,
                             SM, LO))
    return "";
  return Name;
}

} // namespace

bool isDeviceOnlyCode(const FunctionDecl *FD) {
  if (!FD)
    return false;
  if (FD->hasAttr<CUDAGlobalAttr>())
    return true;
  return FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>();
}

std::optional<ErrorCheckWrapper>
learnErrorCheckWrapper(ASTContext &Ctx, llvm::ArrayRef<StringRef> CheckedTypes,
                       bool DeviceCode) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  llvm::MapVector<StringRef, ErrorCheckWrapper> Counts;
  // A macro that evaluates its argument twice expands the call twice.
  llvm::DenseSet<unsigned> Seen;
  auto Count = [&](StringRef Name, bool IsMacro, const FunctionDecl *FD,
                   const CallExpr *Inner) {
    // Calls of the main file only: a header's calls are not walked when a
    // precompiled prefix holds it, and the count must not depend on that.
    if (!SM.isInMainFile(SM.getExpansionLoc(Inner->getBeginLoc())))
      return;
    SourceLocation At = SM.getSpellingLoc(writtenBegin(Inner, SM));
    if (!Seen.insert(At.getRawEncoding()).second)
      return;
    ErrorCheckWrapper &W = Counts[Name];
    W.Name = Name.str();
    W.IsMacro = IsMacro;
    W.Function = FD ? FD->getFirstDecl() : nullptr;
    ++W.Calls;
  };
  for (const ScannedNode &N :
       TranslationUnitAnalyses::get(Ctx).scan().nodes(/*ImplicitCode=*/false)) {
    // Templates are not counted: whether a pattern's call resolves can
    // depend on what a precompiled prefix has loaded, and the count must
    // not.
    if (N.Kind != ScannedNode::Call || N.InInstantiation ||
        (N.Enclosing && (N.Enclosing->isDependentContext() ||
                         N.Enclosing->isTemplateInstantiation() ||
                         N.Enclosing->getTemplatedKind() !=
                             FunctionDecl::TK_NonTemplate)) ||
        isDeviceOnlyCode(N.Enclosing) != DeviceCode)
      continue;
    const auto *Call = static_cast<const CallExpr *>(N.Node);
    if (calleeReturning(Call, CheckedTypes)) {
      StringRef Macro = macroAround(Call, SM, LO);
      if (!Macro.empty())
        Count(Macro, /*IsMacro=*/true, nullptr, Call);
      continue;
    }
    const CallExpr *Inner = nullptr;
    StringRef Function = functionAround(Call, Inner, CheckedTypes, SM, LO);
    if (!Function.empty())
      Count(Function, /*IsMacro=*/false, Call->getDirectCallee(), Inner);
  }
  const ErrorCheckWrapper *Best = nullptr;
  bool Tie = false;
  for (const auto &[Name, W] : Counts) {
    if (Best && W.Calls == Best->Calls)
      Tie = true;
    if (!Best || W.Calls > Best->Calls) {
      Best = &W;
      Tie = false;
    }
  }
  if (!Best || Tie)
    return std::nullopt;
  return *Best;
}

} // namespace clang::tidy::cuda
