//===- UnsynchronizedExitCheck.cpp ----------------------------------------===//

#include "UnsynchronizedExitCheck.h"
#include "AsyncWorkAnalysis.h"
#include "FunctionCfg.h"
#include "SourceLocations.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Preprocessor.h"
#include <map>

namespace clang::tidy::cuda {

namespace {
std::string workName(const UnfinishedAtExit &U) {
  switch (U.Kind) {
  case WorkKind::Kernel:
    if (U.Kernel && U.Kernel->getIdentifier())
      return "kernel '" + U.Kernel->getName().str() + "'";
    return U.Via ? "device work" : "a kernel";
  case WorkKind::Copy:
    return "an asynchronous copy";
  case WorkKind::Memset:
    return "an asynchronous memset";
  case WorkKind::EventRecord:
    break;
  }
  return "device work";
}
} // namespace

void UnsynchronizedExitCheck::checkFunction(const FunctionDecl &FD,
                                            const FunctionCfg &,
                                            ASTContext &Ctx) {
  Preprocessor *PP = preprocessor();
  bool PerThread =
      PP && PP->isMacroDefined("CUDA_API_PER_THREAD_DEFAULT_STREAM");
  std::vector<UnfinishedAtExit> Left =
      AsyncWorkAnalysis::get(Ctx, arch())
          .unfinishedAtExit(&FD, PerThread, RequireCheckedSync);
  const SourceManager &SM = Ctx.getSourceManager();
  // One finding per exit: the earliest kernel still queued there, or else
  // the earliest other work.
  auto Before = [&](const UnfinishedAtExit &A, const UnfinishedAtExit &B) {
    bool KA = A.Kind == WorkKind::Kernel, KB = B.Kind == WorkKind::Kernel;
    if (KA != KB)
      return KA;
    return SM.isBeforeInTranslationUnit(A.Work->getBeginLoc(),
                                        B.Work->getBeginLoc());
  };
  std::map<const Stmt *, const UnfinishedAtExit *> First;
  for (const UnfinishedAtExit &U : Left) {
    const UnfinishedAtExit *&F = First[U.Exit];
    if (!F || Before(U, *F))
      F = &U;
  }
  for (const auto &[Exit, U] : First) {
    SourceLocation At =
        Exit ? Exit->getBeginLoc()
             : cast<CompoundStmt>(FD.getBody())->getRBracLoc();
    SourceLocation Loc = reportOnce(At, SM);
    if (Loc.isInvalid())
      continue;
    std::string Work = workName(*U);
    bool IsReturn = !Exit || isa<ReturnStmt>(Exit);
    diag(Loc, "%select{the program exits|main returns}0 while %1 may still "
              "be running; its errors are never reported")
        << IsReturn << Work;
    SourceLocation WorkLoc = userVisibleLocation(U->Work->getBeginLoc(), SM);
    if (U->Via)
      diag(WorkLoc, "%0 queued by this call to %1, which returns before it "
                    "completes",
           DiagnosticIDs::Note)
          << Work << U->Via;
    else
      diag(WorkLoc, "%0 queued here", DiagnosticIDs::Note) << Work;
  }
}

} // namespace clang::tidy::cuda
