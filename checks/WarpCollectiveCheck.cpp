//===- WarpCollectiveCheck.cpp --------------------------------------------===//

#include "WarpCollectiveCheck.h"
#include "FunctionCfg.h"
#include "SourceLocations.h"
#include "ThreadIndexAnalysis.h"
#include "WarpLanes.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include <deque>

namespace clang::tidy::cuda {

namespace {

/// The constant value of argument \p Index of \p Call; a default argument
/// counts only when \p AllowDefault.
std::optional<int64_t> constantArg(const CallExpr *Call, int Index,
                                   ASTContext &Ctx, bool AllowDefault) {
  const Expr *Arg = CudaApiModel::argument(Call, Index);
  if (!Arg || (!AllowDefault && isa<CXXDefaultArgExpr>(Arg)))
    return std::nullopt;
  return TranslationUnitAnalyses::get(Ctx).integerConstant(Arg);
}

std::string hexMask(uint32_t Mask) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format("0x%08x", Mask);
  return S;
}

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



/// The lanes of \p Missing that the condition ending \p B sends away, when
/// it can be evaluated per lane.
uint32_t lanesDecidedAt(const CFGBlock *B, uint32_t Missing, WarpLanes &Lanes) {
  if (B->succ_size() != 2)
    return 0;
  const auto *C = dyn_cast_or_null<Expr>(
      const_cast<CFGBlock *>(B)->getTerminatorCondition());
  if (!C)
    return 0;
  auto Split = Lanes.split(C);
  if (!Split)
    return 0;
  const WarpLaneSets &At = Lanes.reaching(B);
  uint32_t Decided = 0;
  for (unsigned W = 0; W < 32; ++W)
    Decided |= At[W] & (Split->first[W] ^ Split->second[W]);
  return Decided & Missing;
}

/// The condition of an if or loop statement.
const Expr *fullCondition(const Stmt *S) {
  if (const auto *If = dyn_cast_or_null<IfStmt>(S))
    return If->getCond();
  if (const auto *While = dyn_cast_or_null<WhileStmt>(S))
    return While->getCond();
  if (const auto *For = dyn_cast_or_null<ForStmt>(S))
    return For->getCond();
  if (const auto *Do = dyn_cast_or_null<DoStmt>(S))
    return Do->getCond();
  return nullptr;
}

/// The lanes of \p Missing whose branch \p Cond decides.
uint32_t lanesDecidedBy(const Expr *Cond, uint32_t Missing, WarpLanes &Lanes) {
  auto Split = Lanes.split(Cond);
  if (!Split)
    return 0;
  uint32_t Decided = 0;
  for (unsigned W = 0; W < 32; ++W)
    Decided |= Split->first[W] ^ Split->second[W];
  return Decided & Missing;
}

/// The condition that keeps the lanes \p Missing from \p C: the nearest
/// one \p C's block depends on, through control dependence, that decides
/// some of them; otherwise the last such condition before the call.
const CFGBlock *excludingCondition(const WarpCollectiveCheck::Collective &C,
                                   uint32_t Missing, WarpLanes &Lanes,
                                   const FunctionCfg &Cfg,
                                   const SourceManager &SM) {
  llvm::SmallPtrSet<const CFGBlock *, 8> Seen{C.Block};
  std::deque<const CFGBlock *> Work{C.Block};
  while (!Work.empty()) {
    const CFGBlock *B = Work.front();
    Work.pop_front();
    auto Deps = Cfg.controlDependencies(B);
    if (!Deps)
      break;
    for (const CFGBlock *D : *Deps) {
      if (lanesDecidedAt(D, Missing, Lanes))
        return D;
      if (Seen.insert(D).second)
        Work.push_back(D);
    }
  }
  const CFGBlock *Best = nullptr;
  for (const CFGBlock *B : Cfg.graph()) {
    const Stmt *T = B->getTerminatorStmt();
    if (!T || !lanesDecidedAt(B, Missing, Lanes) ||
        !SM.isBeforeInTranslationUnit(T->getBeginLoc(), C.Call->getBeginLoc()))
      continue;
    SourceLocation BestLoc =
        Best ? Best->getTerminatorStmt()->getBeginLoc() : SourceLocation();
    if (!Best || SM.isBeforeInTranslationUnit(BestLoc, T->getBeginLoc()))
      Best = B;
  }
  return Best;
}

/// Whether some path leads from the end of \p From to \p To.
bool reaches(const CFGBlock *From, const CFGBlock *To) {
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
  llvm::SmallVector<const CFGBlock *, 16> Work{From};
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    for (const CFGBlock *S : B->succs()) {
      if (S == To)
        return true;
      if (S && Seen.insert(S).second)
        Work.push_back(S);
    }
  }
  return false;
}

std::string calleeName(const CallExpr *Call) {
  return Call->getDirectCallee()->getName().str();
}

} // namespace

void WarpCollectiveCheck::checkWidth(const Collective &C, ASTContext &Ctx) {
  std::optional<int64_t> Width =
      constantArg(C.Call, C.Info.WidthArg, Ctx, /*AllowDefault=*/false);
  if (!Width || (*Width >= 1 && *Width <= 32 && llvm::isPowerOf2_64(*Width)))
    return;
  const Expr *Arg = C.Call->getArg(C.Info.WidthArg);
  SourceLocation Loc = reportOnce(Arg->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isValid())
    diag(Loc, "width %0 of '%1' is not a power of two up to 32")
        << static_cast<int>(*Width) << calleeName(C.Call)
        << Arg->getSourceRange();
}

void WarpCollectiveCheck::checkSourceLane(const Collective &C,
                                          ASTContext &Ctx) {
  std::optional<int64_t> Src =
      constantArg(C.Call, C.Info.SrcLaneArg, Ctx, /*AllowDefault=*/false);
  std::optional<int64_t> Width =
      constantArg(C.Call, C.Info.WidthArg, Ctx, /*AllowDefault=*/true);
  int64_t W = Width.value_or(32);
  if (!Src || !C.Mask || !*C.Mask || W < 1 || W > 32 ||
      !llvm::isPowerOf2_64(W))
    return;
  int64_t InSegment = ((*Src % W) + W) % W;
  for (int64_t Segment = 0; Segment < 32; Segment += W) {
    uint32_t SegmentLanes =
        W == 32 ? ~0u : ((1u << W) - 1) << static_cast<unsigned>(Segment);
    int64_t Lane = Segment + InSegment;
    // Lanes of this segment take part and read a lane that does not.
    if (!(*C.Mask & SegmentLanes) || (*C.Mask >> Lane & 1))
      continue;
    const Expr *Arg = C.Call->getArg(C.Info.SrcLaneArg);
    SourceLocation Loc = reportOnce(Arg->getBeginLoc(), Ctx.getSourceManager());
    if (Loc.isInvalid())
      return;
    std::string Written;
    if (Lane != *Src)
      Written = " (" + std::to_string(*Src) + " modulo width " +
                std::to_string(W) + ")";
    diag(Loc, "source lane %0%1 of '%2' is not in mask %3")
        << static_cast<int>(Lane) << Written << calleeName(C.Call)
        << hexMask(*C.Mask) << Arg->getSourceRange();
    return;
  }
}

void WarpCollectiveCheck::checkMask(const Collective &C,
                                    llvm::ArrayRef<Collective> All,
                                    WarpLanes &Lanes, const FunctionCfg &Cfg,
                                    ASTContext &Ctx) {
  const WarpLaneSets &Reach = Lanes.reaching(C.Block);
  // On sm_70 and later, lanes may meet at another call of the same
  // collective with the same mask on another branch (neither reaches the
  // other: the two sides of an if).
  WarpLaneSets Elsewhere{};
  for (const Collective &O : All)
    if (O.Call != C.Call && O.Mask == C.Mask &&
        calleeName(O.Call) == calleeName(C.Call) &&
        !reaches(O.Block, C.Block) && !reaches(C.Block, O.Block))
      for (unsigned W = 0; W < 32; ++W)
        Elsewhere[W] |= Lanes.reaching(O.Block)[W];
  uint32_t Missing = 0;
  for (unsigned W = 0; W < 32; ++W)
    if (Reach[W])
      Missing |= *C.Mask & Lanes.existing()[W] & ~Reach[W] & ~Elsewhere[W];
  if (!Missing)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const CFGBlock *Why = excludingCondition(C, Missing, Lanes, Cfg, SM);
  if (!Why)
    return;
  SourceLocation Loc = reportOnce(C.Call->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return;
  // The whole condition of the if or loop, of which Why may test one part.
  const Stmt *Owner =
      FunctionCfg::owningStatement(Why->getTerminatorStmt(), Cfg.parents());
  const Expr *Cond = fullCondition(Owner);
  uint32_t Leaving = Cond ? lanesDecidedBy(Cond, Missing, Lanes) : 0;
  if (!Leaving) {
    Cond = cast<Expr>(const_cast<CFGBlock *>(Why)->getTerminatorCondition());
    Leaving = lanesDecidedAt(Why, Missing, Lanes);
  }
  bool Under = FunctionCfg::contains(Owner, C.Call, Cfg.parents());
  bool One = llvm::popcount(Missing) == 1;
  diag(Loc, "'%0' with mask %1 names %2, which %select{leave before it at|do "
            "not execute it under|leaves before it at|does not execute it "
            "under}3 '%4'")
      << calleeName(C.Call) << hexMask(*C.Mask) << laneText(Missing)
      << (Under + 2 * One)
      << ThreadIndexAnalysis::textOf(Cond, Ctx);
  diag(userVisibleLocation(Cond->getBeginLoc(), SM),
       "%0 %select{leave|leaves}1 here", DiagnosticIDs::Note)
      << laneText(Leaving) << (llvm::popcount(Leaving) == 1)
      << Cond->getSourceRange();
}

void WarpCollectiveCheck::checkFunction(const FunctionDecl &,
                                        const FunctionCfg &Cfg,
                                        ASTContext &Ctx) {
  llvm::SmallVector<Collective, 8> Calls;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &El : *B)
      if (const auto *Call =
              dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(El)))
        if (auto Info = CudaApiModel::warpCollectiveOf(Call)) {
          Collective C{Call, B, *Info, std::nullopt};
          if (std::optional<int64_t> M = constantArg(Call, Info->MaskArg, Ctx,
                                                     /*AllowDefault=*/true))
            C.Mask = static_cast<uint32_t>(*M);
          Calls.push_back(C);
        }
  if (Calls.empty())
    return;
  std::optional<WarpLanes> Lanes;
  for (const Collective &C : Calls) {
    checkWidth(C, Ctx);
    checkSourceLane(C, Ctx);
    if (!C.Mask || !*C.Mask)
      continue;
    if (!Lanes)
      Lanes.emplace(Cfg, Ctx);
    checkMask(C, Calls, *Lanes, Cfg, Ctx);
  }
}

} // namespace clang::tidy::cuda
