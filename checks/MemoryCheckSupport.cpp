//===- MemoryCheckSupport.cpp ---------------------------------------------===//

#include "MemoryCheckSupport.h"
#include "SourceLocations.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::cuda {

std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  R = Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return "";
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

std::string pointerName(const Expr *E, const ASTContext &Ctx) {
  std::string T = sourceText(E->IgnoreParenCasts(), Ctx);
  if (T.empty() || T.size() > 40 || T.find('\n') != std::string::npos)
    return "the pointer";
  return "'" + T + "'";
}

void noteAllocation(ClangTidyCheck &Check, const PointerFact &F,
                    const SourceManager &SM) {
  SourceLocation Loc = F.allocLoc();
  if (Loc.isInvalid())
    return;
  Loc = userVisibleLocation(Loc, SM);
  std::string What = spaceName(F.Spaces);
  if (F.Registered) {
    Check.diag(Loc, "host memory registered with the CUDA runtime here",
               DiagnosticIDs::Note);
    return;
  }
  if (F.AllocSite) {
    if (const auto *Call = dyn_cast<CallExpr>(F.AllocSite))
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        Check.diag(Loc, "%0 memory allocated here by %1", DiagnosticIDs::Note)
            << What << Callee->getDeclName();
        return;
      }
    Check.diag(Loc, "%0 memory allocated here", DiagnosticIDs::Note) << What;
    return;
  }
  if (const auto *VD = dyn_cast_or_null<VarDecl>(F.AllocDecl)) {
    if (F.Spaces == MS_Symbol)
      Check.diag(Loc, "%0 is a device variable declared here",
                 DiagnosticIDs::Note)
          << VD;
    else if (F.Spaces == MS_Managed)
      Check.diag(Loc, "%0 is a managed variable declared here",
                 DiagnosticIDs::Note)
          << VD;
    else
      Check.diag(Loc, "%0 is declared here in host memory", DiagnosticIDs::Note)
          << VD;
  }
}

const char *copyKindName(CopyDirection D) {
  switch (D) {
  case CopyDirection::HostToHost:
    return "cudaMemcpyHostToHost";
  case CopyDirection::HostToDevice:
    return "cudaMemcpyHostToDevice";
  case CopyDirection::DeviceToHost:
    return "cudaMemcpyDeviceToHost";
  case CopyDirection::DeviceToDevice:
    return "cudaMemcpyDeviceToDevice";
  case CopyDirection::Default:
    return "cudaMemcpyDefault";
  case CopyDirection::None:
    break;
  }
  return "";
}

SourceLocation reportOnce(SourceLocation Loc, const SourceManager &SM,
                          llvm::DenseSet<unsigned> &Reported) {
  Loc = userVisibleLocation(Loc, SM);
  if (!Reported.insert(Loc.getRawEncoding()).second)
    return SourceLocation();
  return Loc;
}

const FunctionMemorySpaces *
analyseForCheck(const FunctionDecl *FD, ASTContext &Ctx,
                const ArchConditionals &Arch) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!isAnalysableFunction(FD, SM) || !isSeenWhole(FD, SM, Arch))
    return nullptr;
  TranslationUnitAnalyses::get(Ctx).startFunction(FD);
  return MemorySpaceAnalysis::get(Ctx, Arch).analyse(FD);
}

} // namespace clang::tidy::cuda
