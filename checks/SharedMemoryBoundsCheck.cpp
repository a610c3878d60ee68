//===- SharedMemoryBoundsCheck.cpp ----------------------------------------===//

#include "SharedMemoryBoundsCheck.h"
#include "SourceLocations.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::tidy::cuda {

namespace {

std::string subscriptName(unsigned Subscript, unsigned Rank) {
  if (Rank == 1)
    return "index";
  static const char *const Names[] = {"plane", "row", "column"};
  if (Rank <= 3)
    return Names[3 - Rank + Subscript];
  return "subscript " + llvm::utostr(Subscript + 1);
}

std::string blockText(const std::array<int64_t, 3> &B) {
  if (B[1] == 1 && B[2] == 1)
    return llvm::itostr(B[0]) + "-wide block";
  std::string S = llvm::itostr(B[0]) + "x" + llvm::itostr(B[1]);
  if (B[2] != 1)
    S += "x" + llvm::itostr(B[2]);
  return S + " block";
}

} // namespace

void SharedMemoryBoundsCheck::checkFunction(const FunctionDecl &FD,
                                            const FunctionCfg &Cfg,
                                            ASTContext &Ctx) {
  if (!Bounds) {
    auto &TU = TranslationUnitAnalyses::get(Ctx);
    Bounds.emplace(TU.threadIndex(), TU.launches());
  }
  const SourceManager &SM = Ctx.getSourceManager();
  Bounds->overrunsIn(FD, Cfg, [&](const SharedBoundsOverrun &O) {
    SourceLocation Loc = reportOnce(O.Index->getBeginLoc(), SM);
    if (Loc.isInvalid())
      return;
    std::string Thread;
    if (O.UsedDims == 1) {
      Thread = "thread " + llvm::itostr(O.Thread[0]);
    } else {
      unsigned Last = O.UsedDims & 4 ? 2 : 1;
      Thread = "thread (";
      for (unsigned D = 0; D <= Last; ++D)
        Thread += (D ? ", " : "") + llvm::itostr(O.Thread[D]);
      Thread += ")";
    }
    switch (O.Why) {
    case SharedBoundsOverrun::BlockOfLaunch:
      Thread += " of a " + blockText(O.Block);
      break;
    case SharedBoundsOverrun::LaunchBounds:
      Thread += " of a block of " + llvm::itostr(O.Block[0]) +
                " threads, the most its __launch_bounds__ allows";
      break;
    case SharedBoundsOverrun::Guard:
      Thread += ", let through by '" +
                ThreadIndexAnalysis::textOf(O.GuardExpr, Ctx) + "'";
      break;
    case SharedBoundsOverrun::FirstThread:
      break;
    }
    diag(Loc, "shared array '%0' is %select{read|written|updated}1 at %2 "
              "'%3', which reaches %4 for %5; its extent is %6")
        << O.Array->getName() << static_cast<int>(O.How)
        << subscriptName(O.Subscript, O.Rank)
        << ThreadIndexAnalysis::textOf(O.Index, Ctx) << llvm::itostr(O.Reached)
        << Thread << llvm::itostr(O.Extent);
    diag(userVisibleLocation(O.Array->getLocation(), SM),
         "'%0' is declared here", DiagnosticIDs::Note)
        << O.Array->getName();
    if (O.BoundAt && O.BoundParam && O.BoundArg) {
      const FunctionDecl *Callee = O.BoundAt->getDirectCallee();
      diag(userVisibleLocation(O.BoundArg->getBeginLoc(), SM),
           "'%0' is called here with '%1' for '%2'", DiagnosticIDs::Note)
          << (Callee ? Callee->getName() : StringRef("the helper"))
          << ThreadIndexAnalysis::textOf(O.BoundArg, Ctx)
          << O.BoundParam->getName();
    }
    if (O.Why == SharedBoundsOverrun::BlockOfLaunch && O.Site)
      diag(userVisibleLocation(O.Site->location(), SM),
           "the kernel is launched here with a %0", DiagnosticIDs::Note)
          << blockText(O.Block);
  });
}

} // namespace clang::tidy::cuda
