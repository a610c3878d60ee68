//===- CudaFunctionCheck.cpp ----------------------------------------------===//

#include "CudaFunctionCheck.h"
#include "CompileErrors.h"
#include "FunctionCfg.h"
#include "MemorySpaceAnalysis.h"
#include "SourceLocations.h"
#include "TemplatePatterns.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

CudaFunctionCheck::CudaFunctionCheck(StringRef Name, ClangTidyContext *Context,
                                     Traits T)
    : ClangTidyCheck(Name, Context), Kind(T) {}

bool CudaFunctionCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  switch (Kind.Languages) {
  case CheckLanguages::Cuda:
    return LangOpts.CUDA;
  case CheckLanguages::CudaOrCxx:
    return LangOpts.CUDA || LangOpts.CPlusPlus;
  case CheckLanguages::Any:
    return true;
  }
  return false;
}

void CudaFunctionCheck::registerMatchers(MatchFinder *Finder) {
  switch (Kind.Scope) {
  case FunctionScope::All:
    Finder->addMatcher(functionDecl(isDefinition()).bind("function"), this);
    break;
  case FunctionScope::Kernels:
    Finder->addMatcher(
        functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("function"),
        this);
    break;
  case FunctionScope::DeviceCode:
    Finder->addMatcher(functionDecl(isDefinition(),
                                    anyOf(hasAttr(attr::CUDAGlobal),
                                          hasAttr(attr::CUDADevice)))
                           .bind("function"),
                       this);
    break;
  }
}

void CudaFunctionCheck::registerPPCallbacks(const SourceManager &,
                                            Preprocessor *P, Preprocessor *) {
  PP = P;
  Arch.attach(*P);
  attachCompileErrors(*P);
}

void CudaFunctionCheck::onStartOfTranslationUnit() {
  TranslationUnitAnalyses::reset();
  Reported.clear();
  ReadWithErrors.clear();
  startTranslationUnit();
}

/// Whether device function \p FD compiled whole but calls a device helper
/// whose body did not: the kernel-side checks read it, each such call an
/// unknown action.
static bool compiledButCallsHelperWithErrors(const FunctionDecl *FD,
                                       const SourceManager &SM) {
  return (FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>()) &&
         !FD->isInvalidDecl() && !bodyDidNotCompile(FD, SM) &&
         callsHelperThatDidNotCompile(FD, SM);
}

/// Every body of \p Ctx's translation unit that did not compile whole but
/// is readable: the bodies a check with a gate reads with errors.
static void collectBodiesWithErrors(ASTContext &Ctx,
                                    std::vector<const FunctionDecl *> &Out) {
  // Every body a check reads with errors, whatever the order in which the
  // checks meet them: a finding may be reported in a function other than
  // the one being checked (a callee, a later one).
  struct Collector : RecursiveASTVisitor<Collector> {
    const SourceManager &SM;
    std::vector<const FunctionDecl *> &Out;
    Collector(const SourceManager &SM, std::vector<const FunctionDecl *> &Out)
        : SM(SM), Out(Out) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (FD->doesThisDeclarationHaveABody() && FD->getBody() &&
          !FD->isDependentContext() &&
          (!FD->isInvalidDecl() || onlySignatureDidNotCompile(FD, SM)) &&
          !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())) &&
          ((bodyDidNotCompile(FD, SM) && !bodyIsUnreadable(FD, SM)) ||
           compiledButCallsHelperWithErrors(FD, SM)))
        Out.push_back(FD);
      return true;
    }
  } C(Ctx.getSourceManager(), Out);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
}

void CudaFunctionCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  const SourceManager &SM = *Result.SourceManager;
  // A pattern is analysable only while nothing instantiates it.
  InPattern = isTemplatePattern(FD);
  if (InPattern && !Kind.AnalysesTemplatePatterns)
    return;
  // A body that did not compile in part, for a check that reads one.
  bool WithErrors = false;
  if (!isAnalysableFunction(FD, SM)) {
    WithErrors = Kind.ReadsCodeWithErrors && !InPattern &&
                 FD->doesThisDeclarationHaveABody() && FD->getBody() &&
                 !FD->isDependentContext() &&
          (!FD->isInvalidDecl() || onlySignatureDidNotCompile(FD, SM)) &&
                 !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())) &&
                 ((bodyDidNotCompile(FD, SM) && !bodyIsUnreadable(FD, SM)) ||
                  (Kind.GateOnErrors == ErrorGate::Accesses &&
                   compiledButCallsHelperWithErrors(FD, SM)));
    if (!WithErrors)
      return;
  }
  if (Kind.NeedsWholeBody && !isSeenWhole(FD, SM, Arch))
    return;
  ASTContext &Ctx = *Result.Context;
  if (!mayReportIn(*FD, Ctx))
    return;
  // The first element is null once the translation unit was scanned.
  if (Kind.GateOnErrors != ErrorGate::None && ReadWithErrors.empty() &&
      Result.Context->getDiagnostics().hasErrorOccurred()) {
    ReadWithErrors.push_back(nullptr);
    collectBodiesWithErrors(*Result.Context, ReadWithErrors);
  }
  ReadingBodyWithErrors Reading(WithErrors ? FD : nullptr);
  if (const FunctionCfg *Cfg =
          TranslationUnitAnalyses::get(Ctx).beginFunction(FD))
    checkFunction(*FD, *Cfg, Ctx);
}

DiagnosticBuilder CudaFunctionCheck::diag(SourceLocation Loc,
                                          StringRef Description,
                                          DiagnosticIDs::Level Level) {
  // A finding in a body read with errors that may depend on what did not
  // compile is dropped: reported as ignored, so that the engine drops the
  // notes that follow it too.
  if (Level != DiagnosticIDs::Note && !ReadWithErrors.empty())
    for (const FunctionDecl *FD : ReadWithErrors)
      if (FD && isInBodyOf(FD, Loc) &&
          (Kind.GateOnErrors == ErrorGate::Accesses
               ? accessFindingMayDependOnErrors(FD, Loc)
               : findingMayDependOnErrors(
                     FD, Loc, Kind.GateOnErrors == ErrorGate::Paths)))
        return ClangTidyCheck::diag(Loc, Description, DiagnosticIDs::Ignored);
  return ClangTidyCheck::diag(Loc, Description, Level);
}

ThreadIndexAnalysis &CudaFunctionCheck::threadIndex(ASTContext &Ctx) {
  return TranslationUnitAnalyses::get(Ctx).threadIndex();
}

bool CudaFunctionCheck::isMacroDefinedAt(StringRef Name,
                                         SourceLocation Loc) const {
  if (!PP || Loc.isInvalid())
    return false;
  const IdentifierInfo *II = PP->getIdentifierInfo(Name);
  return II->hadMacroDefinition() &&
         PP->getMacroDefinitionAtLoc(II, Loc).getMacroInfo();
}

SourceLocation CudaFunctionCheck::reportOnce(SourceLocation Loc,
                                             const SourceManager &SM) {
  Loc = userVisibleLocation(Loc, SM);
  if (!Reported.insert(Loc.getRawEncoding()).second)
    return SourceLocation();
  return Loc;
}

void MemorySpaceCheck::checkFunction(const FunctionDecl &FD,
                                     const FunctionCfg &, ASTContext &Ctx) {
  const FunctionMemorySpaces *M =
      MemorySpaceAnalysis::get(Ctx, arch()).analyse(&FD);
  if (!M)
    return;
  for (const CFGBlock *B : M->cfg().graph())
    for (const CFGElement &E : *B)
      if (const Stmt *S = FunctionCfg::stmtOf(E))
        checkStmt(S, *M, Ctx);
}

} // namespace clang::tidy::cuda
