//===- WarpCollectiveCheck.cpp --------------------------------------------===//
//
// Asks WarpCollectives (analysis/) about each warp collective's mask and
// reports the answers.
//
//===----------------------------------------------------------------------===//

#include "WarpCollectiveCheck.h"
#include "FunctionCfg.h"
#include "SourceLocations.h"
#include "ThreadDivergence.h"
#include "ThreadIndexAnalysis.h"
#include "llvm/Support/MathExtras.h"

namespace clang::tidy::cuda {

namespace {

/// "lane 3", "lanes 16-31", "lanes 0-3, 8-11"; past four runs, the first
/// three and the count.
std::string laneText(uint32_t Lanes) {
  llvm::SmallVector<std::pair<unsigned, unsigned>, 8> Runs;
  for (unsigned L = 0; L < 32; ++L) {
    if (!(Lanes >> L & 1))
      continue;
    if (!Runs.empty() && Runs.back().second + 1 == L)
      Runs.back().second = L;
    else
      Runs.push_back({L, L});
  }
  unsigned Count = llvm::popcount(Lanes);
  std::string S = Count == 1 ? "lane " : "lanes ";
  for (unsigned I = 0; I < Runs.size(); ++I) {
    if (I == 3 && Runs.size() > 4) {
      S += ", ... (" + std::to_string(Count) + " lanes)";
      break;
    }
    if (I)
      S += ", ";
    S += std::to_string(Runs[I].first);
    if (Runs[I].second != Runs[I].first)
      S += "-" + std::to_string(Runs[I].second);
  }
  return S;
}

} // namespace

void WarpCollectiveCheck::checkWidth(const WarpCollective &C, ASTContext &Ctx) {
  std::optional<int64_t> Width = WarpCollectiveMasks::badWidth(C, Ctx);
  if (!Width)
    return;
  const Expr *Arg = C.Call->getArg(C.Info.WidthArg);
  SourceLocation Loc = reportOnce(Arg->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isValid())
    diag(Loc, "width %0 of '%1' is not a power of two up to 32")
        << static_cast<int>(*Width) << collectiveName(C.Call)
        << Arg->getSourceRange();
}

void WarpCollectiveCheck::checkSourceLane(const WarpCollective &C,
                                          ASTContext &Ctx) {
  auto Src = WarpCollectiveMasks::sourceLaneOutside(C, Ctx);
  if (!Src)
    return;
  const Expr *Arg = C.Call->getArg(C.Info.SrcLaneArg);
  SourceLocation Loc = reportOnce(Arg->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isInvalid())
    return;
  std::string Written;
  if (Src->Lane != Src->Src)
    Written = " (" + std::to_string(Src->Src) + " modulo width " +
              std::to_string(Src->Width) + ")";
  diag(Loc, "source lane %0%1 of '%2' is not in mask %3")
      << static_cast<int>(Src->Lane) << Written << collectiveName(C.Call)
      << hexMask(*C.Mask) << Arg->getSourceRange();
}

bool WarpCollectiveCheck::checkMask(const WarpCollective &C,
                                    const WarpLaneSets &Named,
                                    WarpCollectiveMasks &Masks,
                                    ASTContext &Ctx) {
  auto M = Masks.missingLanes(C, Named);
  if (!M)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(C.Call->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return true;
  bool One = llvm::popcount(M->Missing) == 1;
  std::string Value = M->Value ? " (" + hexMask(*M->Value) + ")" : "";
  diag(Loc, "'%0' with mask %1%2 names %3, which %select{leave before it "
            "at|do not execute it under|leaves before it at|does not execute "
            "it under}4 '%5'")
      << collectiveName(C.Call) << maskText(C, Ctx) << Value
      << laneText(M->Missing) << (M->Under + 2 * One)
      << ThreadIndexAnalysis::textOf(M->Cond, Ctx);
  diag(userVisibleLocation(M->Cond->getBeginLoc(), SM),
       "%0 %select{leave|leaves}1 here", DiagnosticIDs::Note)
      << laneText(M->Leaving) << (llvm::popcount(M->Leaving) == 1)
      << M->Cond->getSourceRange();
  return true;
}

void WarpCollectiveCheck::checkMaskType(const WarpCollective &C,
                                        const FunctionDecl &FD,
                                        ASTContext &Ctx) {
  if (!WarpCollectiveMasks::maskIsData(C, FD, Ctx))
    return;
  const Expr *Arg = maskArgument(C);
  const Expr *Value = Arg->IgnoreParenImpCasts();
  SourceLocation Loc = reportOnce(Arg->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isInvalid())
    return;
  diag(Loc, "'%0' is given '%1' of type %2 as its lane mask: the mask "
            "argument is missing or in the wrong place")
      << collectiveName(C.Call) << ThreadIndexAnalysis::textOf(Value, Ctx)
      << Value->getType() << Arg->getSourceRange();
}

bool WarpCollectiveCheck::checkAbsentLanes(const WarpCollective &C,
                                           const FunctionDecl &FD,
                                           WarpCollectiveMasks &Masks,
                                           const WarpLanes &Lanes,
                                           ASTContext &Ctx) {
  uint32_t Absent = Masks.absentLanes(C, FD);
  if (!Absent)
    return false;
  SourceLocation Loc =
      reportOnce(C.Call->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isInvalid())
    return true;
  diag(Loc, "'%0' with mask %1 names %2, which %select{do|does}3 not exist: "
            "every launch of '%4' has blocks of %5 threads")
      << collectiveName(C.Call) << hexMask(*C.Mask) << laneText(Absent)
      << (llvm::popcount(Absent) == 1) << FD.getName()
      << static_cast<int>(Lanes.threadCount())
      << maskArgument(C)->getSourceRange();
  return true;
}

bool WarpCollectiveCheck::checkCallers(const WarpCollective &C,
                                       WarpCollectiveMasks &Masks,
                                       ASTContext &Ctx) {
  auto Callers = Masks.callers(C);
  if (!Callers)
    return false;
  // A computed mask that names lanes that certainly do not execute the
  // call: the lanes that may execute it must agree on it.
  if (!C.Mask && Callers->WarpUniform &&
      checkMask(C, Callers->Named, Masks, Ctx))
    return true;
  // Calling lanes outside the mask: only where the callers are exact.
  uint32_t Outside = Callers->Outside;
  if (!Outside || !Masks.reachedExactly(C))
    return false;
  SourceLocation Loc = reportOnce(C.Call->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isInvalid())
    return true;
  bool One = llvm::popcount(Outside) == 1;
  const Expr *MaskArg = maskArgument(C);
  SourceRange Range =
      MaskArg ? MaskArg->getSourceRange() : C.Call->getSourceRange();
  if (C.Mask)
    diag(Loc, "'%0' is executed by %1, which %select{its mask %2 does not "
              "name|are not in its mask %2}3")
        << collectiveName(C.Call) << laneText(Outside) << hexMask(*C.Mask)
        << (One ? 0 : 1) << Range;
  else
    diag(Loc, "'%0' is executed by %1, which the mask '%2' computed for "
              "%select{it does not name|them does not name}3")
        << collectiveName(C.Call) << laneText(Outside)
        << ThreadIndexAnalysis::textOf(MaskArg, Ctx) << (One ? 0 : 1)
        << Range;
  return true;
}

bool WarpCollectiveCheck::checkBranch(
    const WarpCollective &C,
    const std::optional<WarpCollectiveMasks::Branch> &Branch, bool Edge,
    ASTContext &Ctx) {
  if (!Branch)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(C.Call->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return true;
  diag(Loc, "'%0' with mask %1 runs under %select{a condition on per-thread "
            "data: lanes of a warp may disagree on '%2', and the lanes that "
            "do not execute it|the bound '%2': unless the bound is a "
            "multiple of 32, the lanes of the warp at its edge that fail "
            "it}3 are still in the mask")
      << collectiveName(C.Call) << hexMask(*C.Mask)
      << ThreadIndexAnalysis::textOf(Branch->Why, Ctx) << Edge;
  diag(userVisibleLocation(Branch->Cond->getBeginLoc(), SM),
       "the lanes %select{may take different sides|past the bound leave}0 "
       "here",
       DiagnosticIDs::Note)
      << Edge << Branch->Cond->getSourceRange();
  return true;
}

void WarpCollectiveCheck::checkFunction(const FunctionDecl &FD,
                                        const FunctionCfg &Cfg,
                                        ASTContext &Ctx) {
  llvm::SmallVector<WarpCollective, 8> Calls =
      Summaries.collectives(Cfg, Ctx);
  if (Calls.empty())
    return;
  std::optional<WarpLanes> Lanes;
  std::optional<ThreadDivergence> Divergences;
  std::optional<WarpCollectiveMasks> Masks;
  for (const WarpCollective &C : Calls) {
    if (!C.Inner) {
      checkWidth(C, Ctx);
      checkSourceLane(C, Ctx);
    }
    checkMaskType(C, FD, Ctx);
    if ((C.Info.MaskArg < 0 && !C.Mask) || (C.Mask && !*C.Mask))
      continue;
    if (!Lanes) {
      Lanes.emplace(Cfg, Ctx);
      Divergences.emplace(FD, threadIndex(Ctx));
      Lanes->useDivergences(*Divergences);
      Masks.emplace(Cfg, Ctx, Calls, *Lanes, *Divergences);
    }
    if (C.Mask) {
      WarpLaneSets Named;
      Named.fill(*C.Mask);
      if (checkMask(C, Named, *Masks, Ctx))
        continue;
    }
    if (!C.Inner && checkAbsentLanes(C, FD, *Masks, *Lanes, Ctx))
      continue;
    // In a __device__ helper, a parameter may differ between the lanes,
    // unless every call of the helper passes a value known per lane.
    if (!FD.hasAttr<CUDAGlobalAttr>() && Masks->branchesOnUnknownParameter())
      continue;
    if (checkCallers(C, *Masks, Ctx))
      continue;
    if (checkBranch(C, Masks->dataBranch(C), /*Edge=*/false, Ctx))
      continue;
    checkBranch(C, Masks->edgeBound(C), /*Edge=*/true, Ctx);
  }
}

} // namespace clang::tidy::cuda
