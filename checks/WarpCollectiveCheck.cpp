//===- WarpCollectiveCheck.cpp --------------------------------------------===//

#include "WarpCollectiveCheck.h"
#include "FunctionCfg.h"
#include "SourceLocations.h"
#include "ThreadDivergence.h"
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

/// The function \p Call names; in a template pattern, the intrinsic that
/// every candidate of an unresolved call is.
std::string calleeName(const CallExpr *Call) {
  return CudaApiModel::calleeOf(Call)->getName().str();
}

/// The warp collective that the same-TU __device__ helper \p Call calls
/// on every path, with a mask that is one of the helper's parameters
/// ('unsigned ballot(int p, unsigned mask = 0xffffffff)'): the call, and
/// the parameter's index.
std::optional<std::pair<const CallExpr *, unsigned>>
wrappedCollective(const CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def->hasAttr<CUDADeviceAttr>() ||
      Def->hasAttr<CUDAGlobalAttr>() || isa<CXXMethodDecl>(Def) ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return std::nullopt;
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body)
    return std::nullopt;
  VariableStores Stores = VariableStores::of(Body);
  std::optional<std::pair<const CallExpr *, unsigned>> Found;
  // A statement of the body itself, or what it returns.
  for (const Stmt *S : Body->body()) {
    if (const auto *Ret = dyn_cast<ReturnStmt>(S))
      S = Ret->getRetValue();
    else if (const auto *DS = dyn_cast<DeclStmt>(S);
             DS && DS->isSingleDecl())
      if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()))
        S = VD->getInit();
    const auto *E = dyn_cast_or_null<Expr>(S);
    const auto *Inner = E ? dyn_cast<CallExpr>(E->IgnoreParenImpCasts())
                          : nullptr;
    std::optional<WarpCollectiveInfo> Info =
        Inner ? CudaApiModel::warpCollectiveOf(Inner) : std::nullopt;
    if (!Info || Info->MaskArg < 0)
      continue;
    const auto *Ref = dyn_cast<DeclRefExpr>(
        ThreadIndexAnalysis::strip(Inner->getArg(Info->MaskArg)));
    const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!P || Stores.isAssigned(P) || Stores.isAddressTaken(P) || Found)
      return std::nullopt;
    Found = {Inner, P->getFunctionScopeIndex()};
  }
  return Found;
}

/// Whether \p E names a parameter of its function.
bool mentionsParameter(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return isa<ParmVarDecl>(DRE->getDecl());
  for (const Stmt *Child : E->children())
    if (mentionsParameter(dyn_cast_or_null<Expr>(Child)))
      return true;
  return false;
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

bool WarpCollectiveCheck::checkMask(const Collective &C,
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
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  const CFGBlock *Why = excludingCondition(C, Missing, Lanes, Cfg, SM);
  if (!Why)
    return false;
  SourceLocation Loc = reportOnce(C.Call->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return true;
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
  return true;
}

bool WarpCollectiveCheck::checkAbsentLanes(const Collective &C,
                                           const FunctionDecl &FD,
                                           WarpLanes &Lanes, ASTContext &Ctx) {
  const Expr *MaskArg = CudaApiModel::argument(C.Call, C.Info.MaskArg);
  if (!C.Mask || !MaskArg || isa<CXXDefaultArgExpr>(MaskArg) ||
      !FD.hasAttr<CUDAGlobalAttr>())
    return false;
  const WarpLaneSets &Reach = Lanes.reaching(C.Block);
  uint32_t Absent = 0;
  for (unsigned W = 0; W < 32; ++W)
    if (Reach[W] & Lanes.existing()[W])
      Absent |= *C.Mask & ~Lanes.existing()[W];
  if (!Absent)
    return false;
  SourceLocation Loc =
      reportOnce(C.Call->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isInvalid())
    return true;
  diag(Loc, "'%0' with mask %1 names %2, which %select{do|does}3 not exist: "
            "every launch of '%4' has blocks of %5 threads")
      << calleeName(C.Call) << hexMask(*C.Mask) << laneText(Absent)
      << (llvm::popcount(Absent) == 1) << FD.getName()
      << static_cast<int>(Lanes.threadCount()) << MaskArg->getSourceRange();
  return true;
}

bool WarpCollectiveCheck::checkCallers(const Collective &C, WarpLanes &Lanes,
                                       ThreadDivergence &Divergences,
                                       ASTContext &Ctx) {
  const Expr *MaskArg = C.Inner || C.Info.MaskArg < 0
                            ? nullptr
                            : CudaApiModel::argument(C.Call, C.Info.MaskArg);
  if (!MaskArg || isa<CXXDefaultArgExpr>(MaskArg) ||
      !Lanes.reachedExactly(C.Block, Divergences))
    return false;
  const WarpLaneSets &Reach = Lanes.reaching(C.Block);
  uint32_t Outside = 0;
  for (int64_t T = 0; T < Lanes.threadCount(); ++T) {
    unsigned W = T / 32, L = T % 32;
    if (!((Reach[W] & Lanes.existing()[W]) >> L & 1))
      continue;
    std::optional<int64_t> Mask = Lanes.valueFor(MaskArg, T);
    if (!Mask)
      return false;
    if (!(*Mask >> L & 1))
      Outside |= 1u << L;
  }
  if (!Outside)
    return false;
  SourceLocation Loc = reportOnce(C.Call->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isInvalid())
    return true;
  bool One = llvm::popcount(Outside) == 1;
  if (C.Mask)
    diag(Loc, "'%0' is executed by %1, which %select{its mask %2 does not "
              "name|are not in its mask %2}3")
        << calleeName(C.Call) << laneText(Outside) << hexMask(*C.Mask)
        << (One ? 0 : 1) << MaskArg->getSourceRange();
  else
    diag(Loc, "'%0' is executed by %1, which the mask '%2' computed for "
              "%select{it does not name|them does not name}3")
        << calleeName(C.Call) << laneText(Outside)
        << ThreadIndexAnalysis::textOf(MaskArg, Ctx) << (One ? 0 : 1)
        << MaskArg->getSourceRange();
  return true;
}

void WarpCollectiveCheck::checkDataBranch(const Collective &C,
                                          WarpLanes &Lanes,
                                          ThreadDivergence &Divergences,
                                          const FunctionCfg &Cfg,
                                          ASTContext &Ctx) {
  if (!C.Mask || llvm::popcount(*C.Mask) < 2)
    return;
  // The nearest condition the call depends on whose lanes may disagree.
  llvm::SmallPtrSet<const CFGBlock *, 8> Seen{C.Block};
  std::deque<const CFGBlock *> Work{C.Block};
  const Expr *Cond = nullptr, *Load = nullptr;
  while (!Work.empty() && !Cond) {
    auto Deps = Cfg.controlDependencies(Work.front());
    Work.pop_front();
    if (!Deps)
      return;
    for (const CFGBlock *D : *Deps) {
      if (!Seen.insert(D).second)
        continue;
      Work.push_back(D);
      const auto *T = dyn_cast_or_null<Expr>(
          const_cast<CFGBlock *>(D)->getTerminatorCondition());
      if (!T || Divergences.ofCondition(T, D) != Divergence::PerThreadData)
        continue;
      if ((Load = Lanes.laneVaryingLoad(T))) {
        Cond = T;
        break;
      }
    }
  }
  if (!Cond)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(C.Call->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return;
  diag(Loc, "'%0' with mask %1 runs under a condition on per-thread data: "
            "lanes of a warp may disagree on '%2', and the lanes that do "
            "not execute it are still in the mask")
      << calleeName(C.Call) << hexMask(*C.Mask)
      << ThreadIndexAnalysis::textOf(Load, Ctx);
  diag(userVisibleLocation(Cond->getBeginLoc(), SM),
       "the lanes may take different sides here", DiagnosticIDs::Note)
      << Cond->getSourceRange();
}

void WarpCollectiveCheck::checkFunction(const FunctionDecl &FD,
                                        const FunctionCfg &Cfg,
                                        ASTContext &Ctx) {
  llvm::SmallVector<Collective, 8> Calls;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &El : *B) {
      const auto *Call = dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(El));
      if (!Call)
        continue;
      if (auto Info = CudaApiModel::warpCollectiveOf(Call)) {
        Collective C{Call, B, *Info, std::nullopt};
        if (std::optional<int64_t> M = constantArg(Call, Info->MaskArg, Ctx,
                                                   /*AllowDefault=*/true))
          C.Mask = static_cast<uint32_t>(*M);
        Calls.push_back(C);
      } else if (auto Wrapped = wrappedCollective(Call, Ctx)) {
        // A helper that passes its mask parameter on: the collective is
        // made at its call, with the argument (or the default) as mask.
        WarpCollectiveInfo Info{static_cast<int>(Wrapped->second), -1, -1};
        Collective C{Call, B, Info, std::nullopt, Wrapped->first};
        if (std::optional<int64_t> M = constantArg(Call, Info.MaskArg, Ctx,
                                                   /*AllowDefault=*/true))
          C.Mask = static_cast<uint32_t>(*M);
        Calls.push_back(C);
      }
    }
  if (Calls.empty())
    return;
  std::optional<WarpLanes> Lanes;
  std::optional<ThreadDivergence> Divergences;
  for (const Collective &C : Calls) {
    if (!C.Inner) {
      checkWidth(C, Ctx);
      checkSourceLane(C, Ctx);
    }
    if (C.Info.MaskArg < 0 || (C.Mask && !*C.Mask))
      continue;
    if (!Lanes) {
      Lanes.emplace(Cfg, Ctx);
      Divergences.emplace(FD, threadIndex(Ctx));
    }
    if (C.Mask && checkMask(C, Calls, *Lanes, Cfg, Ctx))
      continue;
    if (!C.Inner && checkAbsentLanes(C, FD, *Lanes, Ctx))
      continue;
    // In a __device__ helper, a parameter may differ between the lanes.
    if (!FD.hasAttr<CUDAGlobalAttr>() && llvm::any_of(Cfg.graph(), [](const CFGBlock *B) {
          const auto *T = dyn_cast_or_null<Expr>(
              const_cast<CFGBlock *>(B)->getTerminatorCondition());
          return T && mentionsParameter(T);
        }))
      continue;
    if (checkCallers(C, *Lanes, *Divergences, Ctx))
      continue;
    checkDataBranch(C, *Lanes, *Divergences, Cfg, Ctx);
  }
}

} // namespace clang::tidy::cuda
