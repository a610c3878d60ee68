//===- WarpCollectiveCheck.cpp --------------------------------------------===//

#include "WarpCollectiveCheck.h"
#include "FunctionCfg.h"
#include "SourceLocations.h"
#include "ThreadDivergence.h"
#include "ThreadIndexAnalysis.h"
#include "WarpLanes.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang-tidy/utils/ASTUtils.h"
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

/// What a same-TU __device__ helper does with a warp collective that it
/// makes on every path: the intrinsic's call, and its mask, either one of
/// the helper's parameters (MaskParam) or a constant.
using WrappedCollective = WarpCollectiveCheck::HelperCollective;

/// The calls in \p E that run whenever \p E is evaluated: not those in
/// one arm of '?:', the right of '&&' and '||', or a lambda.
void unconditionalCalls(const Expr *E,
                        llvm::SmallVectorImpl<const CallExpr *> &Out) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E || isa<LambdaExpr>(E))
    return;
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return unconditionalCalls(CO->getCond(), Out);
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isLogicalOp())
    return unconditionalCalls(BO->getLHS(), Out);
  for (const Stmt *Child : E->children())
    unconditionalCalls(dyn_cast_or_null<Expr>(Child), Out);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    Out.push_back(Call);
}

/// Whether \p S may return or jump out of the function, or makes a
/// warp collective.
bool mayLeave(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt, CXXThrowExpr, IndirectGotoStmt>(S))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && CudaApiModel::warpCollectiveOf(Call))
    return true;
  for (const Stmt *Child : S->children())
    if (mayLeave(Child))
      return true;
  return false;
}

/// The mask that the argument \p Index of \p Call gives a helper: the
/// caller's parameter it passes on, or a constant.
std::optional<WrappedCollective>
maskPassedOn(const CallExpr *Call, int Index, const CallExpr *Inner,
             const VariableStores &Stores, ASTContext &Ctx) {
  if (Index < 0)
    return std::nullopt;
  if (std::optional<int64_t> M = constantArg(Call, Index, Ctx,
                                             /*AllowDefault=*/true))
    return WrappedCollective{Inner, -1, static_cast<uint32_t>(*M)};
  const Expr *Arg = CudaApiModel::argument(Call, Index);
  const auto *Ref =
      Arg ? dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(Arg)) : nullptr;
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!P || Stores.isAssigned(P) || Stores.isAddressTaken(P))
    return std::nullopt;
  return WrappedCollective{Inner, static_cast<int>(P->getFunctionScopeIndex()),
                           std::nullopt};
}

/// The one warp collective that the same-TU __device__ helper \p Call
/// makes on every path, directly or through another such helper, with a
/// mask that is one of the helper's parameters
/// ('unsigned ballot(int p, unsigned mask = 0xffffffff)') or a constant
/// ('__device__ unsigned vote(int p) { return __ballot_sync(~0u, p); }').
std::optional<WrappedCollective> wrappedCollective(const CallExpr *Call,
                                                   ASTContext &Ctx,
                                                   int Depth = 0) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (Depth > 3 || !Callee || !Callee->hasBody(Def) ||
      !Def->hasAttr<CUDADeviceAttr>() || Def->hasAttr<CUDAGlobalAttr>() ||
      isa<CXXMethodDecl>(Def) ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return std::nullopt;
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body)
    return std::nullopt;
  VariableStores Stores = VariableStores::of(Body);
  std::optional<WrappedCollective> Found;
  // The statements of the body itself, up to the first that may leave it
  // or branch: the calls in them run on every path.
  for (const Stmt *S : Body->body()) {
    const Stmt *Run = S;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S))
      Run = Ret->getRetValue();
    else if (const auto *DS = dyn_cast<DeclStmt>(S);
             DS && DS->isSingleDecl())
      if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()))
        Run = VD->getInit();
    const auto *E = dyn_cast_or_null<Expr>(Run);
    if (!E) {
      // A statement that branches: past it, only if it cannot leave.
      if (!Run || mayLeave(Run))
        break;
      continue;
    }
    llvm::SmallVector<const CallExpr *, 4> Calls;
    unconditionalCalls(E, Calls);
    for (const CallExpr *Inner : Calls) {
      std::optional<WrappedCollective> This;
      if (std::optional<WarpCollectiveInfo> Info =
              CudaApiModel::warpCollectiveOf(Inner)) {
        if (Info->MaskArg < 0)
          continue;
        This = maskPassedOn(Inner, Info->MaskArg, Inner, Stores, Ctx);
      } else if (auto Nested = wrappedCollective(Inner, Ctx, Depth + 1)) {
        This = Nested->MaskParam < 0
                   ? Nested
                   : maskPassedOn(Inner, Nested->MaskParam, Nested->Inner,
                                  Stores, Ctx);
      } else {
        continue;
      }
      // One collective, with a mask that can be followed.
      if (!This || Found)
        return std::nullopt;
      Found = This;
    }
    if (isa<ReturnStmt>(S))
      break;
  }
  return Found;
}

/// Whether \p E names a parameter of its function.
bool namesParameter(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return isa<ParmVarDecl>(DRE->getDecl());
  for (const Stmt *Child : E->children())
    if (namesParameter(dyn_cast_or_null<Expr>(Child)))
      return true;
  return false;
}

/// Whether \p E names a parameter of its function whose value per lane
/// \p Lanes does not know.
bool mentionsUnknownParameter(const Expr *E, WarpLanes &Lanes) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
    return P && !Lanes.parameterKnown(P);
  }
  for (const Stmt *Child : E->children())
    if (mentionsUnknownParameter(dyn_cast_or_null<Expr>(Child), Lanes))
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

/// The text of \p C's mask in a message: the constant, or the expression.
std::string WarpCollectiveCheck::maskText(const Collective &C,
                                          ASTContext &Ctx) {
  if (C.Mask)
    return hexMask(*C.Mask);
  return "'" + ThreadIndexAnalysis::textOf(maskArgument(C), Ctx) + "'";
}

const Expr *WarpCollectiveCheck::maskArgument(const Collective &C) {
  return C.Info.MaskArg < 0 ? nullptr
                            : CudaApiModel::argument(C.Call, C.Info.MaskArg);
}

bool WarpCollectiveCheck::checkMask(const Collective &C,
                                    llvm::ArrayRef<Collective> All,
                                    const WarpLaneSets &Named,
                                    WarpLanes &Lanes, const FunctionCfg &Cfg,
                                    ASTContext &Ctx) {
  const WarpLaneSets &Reach = Lanes.reaching(C.Block);
  // On sm_70 and later, lanes may meet at another call of the same
  // collective with the same mask on another branch (neither reaches the
  // other: the two sides of an if).
  std::string Text = maskText(C, Ctx);
  WarpLaneSets Elsewhere{};
  for (const Collective &O : All)
    if (O.Call != C.Call && calleeName(O.Call) == calleeName(C.Call) &&
        (C.Mask ? O.Mask == C.Mask : maskText(O, Ctx) == Text) &&
        !reaches(O.Block, C.Block) && !reaches(C.Block, O.Block))
      for (unsigned W = 0; W < 32; ++W)
        Elsewhere[W] |= Lanes.reaching(O.Block)[W];
  uint32_t Missing = 0;
  for (unsigned W = 0; W < 32; ++W)
    if (Reach[W])
      Missing |= Named[W] & Lanes.existing()[W] & ~Reach[W] & ~Elsewhere[W];
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
  // A computed mask: its value, where every warp that executes the call
  // has the same.
  std::string Value;
  if (!C.Mask) {
    std::optional<uint32_t> Same;
    bool Differ = false;
    for (unsigned W = 0; W < 32; ++W)
      if (Reach[W]) {
        Differ |= Same && *Same != Named[W];
        Same = Named[W];
      }
    if (Same && !Differ)
      Value = " (" + hexMask(*Same) + ")";
  }
  diag(Loc, "'%0' with mask %1%2 names %3, which %select{leave before it "
            "at|do not execute it under|leaves before it at|does not execute "
            "it under}4 '%5'")
      << calleeName(C.Call) << Text << Value << laneText(Missing)
      << (Under + 2 * One) << ThreadIndexAnalysis::textOf(Cond, Ctx);
  diag(userVisibleLocation(Cond->getBeginLoc(), SM),
       "%0 %select{leave|leaves}1 here", DiagnosticIDs::Note)
      << laneText(Leaving) << (llvm::popcount(Leaving) == 1)
      << Cond->getSourceRange();
  return true;
}

/// The template type parameter that \p T is written as, in a pattern or
/// an instantiation.
static const TemplateTypeParmDecl *templateParameterOf(QualType T) {
  if (const auto *Subst = T->getAs<SubstTemplateTypeParmType>())
    return Subst->getReplacedParameter();
  if (const auto *Parm = T->getAs<TemplateTypeParmType>())
    return Parm->getDecl();
  return nullptr;
}

bool WarpCollectiveCheck::maskIsShuffledData(const Collective &C,
                                             const Expr *Mask,
                                             ASTContext &Ctx) {
  // The word of a union: the members of a union share its bytes, so a
  // member read in the mask slot is a piece of the value being moved.
  const Expr *M = Mask->IgnoreParenImpCasts();
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(M))
    M = AS->getBase()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(M))
    if (const RecordDecl *RD = ME->getMemberDecl()->getDeclContext()
                                   ? dyn_cast<RecordDecl>(
                                         ME->getMemberDecl()->getDeclContext())
                                   : nullptr;
        RD && RD->isUnion())
      return true;
  // The result is assigned to the mask's own variable.
  DynTypedNodeList Parents = Ctx.getParents(*C.Call);
  const Expr *Target = nullptr;
  for (int Steps = 0; Steps < 4 && !Parents.empty(); ++Steps) {
    if (const auto *BO = Parents[0].get<BinaryOperator>()) {
      if (BO->isAssignmentOp())
        Target = BO->getLHS();
      break;
    }
    if (!Parents[0].get<ImplicitCastExpr>() && !Parents[0].get<ParenExpr>() &&
        !Parents[0].get<CStyleCastExpr>())
      break;
    Parents = Ctx.getParents(Parents[0]);
  }
  if (!Target)
    return false;
  // 'm = __shfl_sync(m, m, 0)' moves the mask itself.
  const Expr *Moved = C.Call->getNumArgs() > 1 ? C.Call->getArg(1) : nullptr;
  return utils::areStatementsIdentical(Target->IgnoreParenImpCasts(),
                                       Mask->IgnoreParenImpCasts(), Ctx) &&
         !(Moved && utils::areStatementsIdentical(
                        Moved->IgnoreParenImpCasts(),
                        Mask->IgnoreParenImpCasts(), Ctx));
}

void WarpCollectiveCheck::checkMaskType(const Collective &C,
                                        const FunctionDecl &FD,
                                        ASTContext &Ctx) {
  const Expr *Arg = maskArgument(C);
  if (!Arg || isa<CXXDefaultArgExpr>(Arg))
    return;
  const Expr *Value = Arg->IgnoreParenImpCasts();
  QualType T = Value->getType();
  // Data in the mask slot: a floating-point value, or a shuffle's mask of
  // the type that the function returns, which is the shuffled data's
  // ('template <class T> T shfl_up(T v, int d) { return
  // __shfl_up_sync(v, d, 32); }').
  bool Data = T->isRealFloatingType();
  // At a helper's call, only a mask parameter declared as an integer: the
  // helper's own mask slot is checked in the helper.
  if (C.Inner) {
    const FunctionDecl *Helper = C.Call->getDirectCallee();
    unsigned Index = static_cast<unsigned>(C.Info.MaskArg);
    Data &= Helper && Index < Helper->getNumParams() &&
            Helper->getParamDecl(Index)->getType()->isIntegerType() &&
            !templateParameterOf(Helper->getParamDecl(Index)->getType());
  }
  // A shuffle whose result is stored where its mask comes from
  // ('x = __shfl_xor_sync(x, 1)'), or whose mask is a word of a union
  // ('u.i[0] = __shfl_down_sync(u.i[0], d, 32)'): ported from the
  // maskless form, the value sits in the mask slot.
  if (!Data && !C.Inner && C.Info.WidthArg >= 0)
    Data = maskIsShuffledData(C, Value, Ctx);
  if (!Data && !C.Inner && C.Info.WidthArg >= 0 && C.Call->getNumArgs() > 1) {
    const TemplateTypeParmDecl *Parm = templateParameterOf(T);
    const Expr *Shuffled = C.Call->getArg(1)->IgnoreParenImpCasts();
    Data = Parm && Parm == templateParameterOf(FD.getReturnType()) &&
           Parm != templateParameterOf(Shuffled->getType());
  }
  if (!Data)
    return;
  SourceLocation Loc = reportOnce(Arg->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isInvalid())
    return;
  diag(Loc, "'%0' is given '%1' of type %2 as its lane mask: the mask "
            "argument is missing or in the wrong place")
      << calleeName(C.Call) << ThreadIndexAnalysis::textOf(Value, Ctx) << T
      << Arg->getSourceRange();
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

bool WarpCollectiveCheck::checkCallers(const Collective &C,
                                       llvm::ArrayRef<Collective> All,
                                       WarpLanes &Lanes,
                                       ThreadDivergence &Divergences,
                                       const FunctionCfg &Cfg,
                                       ASTContext &Ctx) {
  // A default mask of an intrinsic is the whole warp (__syncwarp()).
  const Expr *MaskArg = maskArgument(C);
  if ((!MaskArg && !C.Mask) ||
      (!C.Inner && MaskArg && isa<CXXDefaultArgExpr>(MaskArg)))
    return false;
  // A helper's mask parameter: its calls are checked where they pass it.
  if (!C.Mask && MaskArg && !Cfg.function()->hasAttr<CUDAGlobalAttr>() &&
      namesParameter(MaskArg))
    return false;
  const WarpLaneSets &Reach = Lanes.reaching(C.Block);
  uint32_t Outside = 0;
  WarpLaneSets Named{};
  bool WarpUniform = true;
  std::array<bool, 32> Seen{};
  for (int64_t T = 0; T < Lanes.threadCount(); ++T) {
    unsigned W = T / 32, L = T % 32;
    if (!((Reach[W] & Lanes.existing()[W]) >> L & 1))
      continue;
    std::optional<int64_t> Mask =
        C.Mask ? std::optional<int64_t>(*C.Mask) : Lanes.valueFor(MaskArg, T);
    if (!Mask)
      return false;
    uint32_t Bits = static_cast<uint32_t>(*Mask);
    WarpUniform &= !Seen[W] || Named[W] == Bits;
    Seen[W] = true;
    Named[W] |= Bits;
    if (!(Bits >> L & 1))
      Outside |= 1u << L;
  }
  // A computed mask that names lanes that certainly do not execute the
  // call: the lanes that may execute it must agree on it.
  if (!C.Mask && WarpUniform && checkMask(C, All, Named, Lanes, Cfg, Ctx))
    return true;
  // Calling lanes outside the mask: only where the callers are exact.
  if (!Outside || !Lanes.reachedExactly(C.Block, Divergences))
    return false;
  SourceLocation Loc = reportOnce(C.Call->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isInvalid())
    return true;
  bool One = llvm::popcount(Outside) == 1;
  SourceRange Range =
      MaskArg ? MaskArg->getSourceRange() : C.Call->getSourceRange();
  if (C.Mask)
    diag(Loc, "'%0' is executed by %1, which %select{its mask %2 does not "
              "name|are not in its mask %2}3")
        << calleeName(C.Call) << laneText(Outside) << hexMask(*C.Mask)
        << (One ? 0 : 1) << Range;
  else
    diag(Loc, "'%0' is executed by %1, which the mask '%2' computed for "
              "%select{it does not name|them does not name}3")
        << calleeName(C.Call) << laneText(Outside)
        << ThreadIndexAnalysis::textOf(MaskArg, Ctx) << (One ? 0 : 1)
        << Range;
  return true;
}

/// The nearest condition, walking the control dependencies of Block outward
/// (breadth first), that Match accepts; null when none does or when some
/// dependencies are unknown.
template <class Predicate>
static const Expr *nearestCondition(const FunctionCfg &Cfg,
                                    const CFGBlock *Block, Predicate Match) {
  llvm::SmallPtrSet<const CFGBlock *, 8> Seen{Block};
  std::deque<const CFGBlock *> Work{Block};
  while (!Work.empty()) {
    auto Deps = Cfg.controlDependencies(Work.front());
    Work.pop_front();
    if (!Deps)
      return nullptr;
    for (const CFGBlock *D : *Deps) {
      if (!Seen.insert(D).second)
        continue;
      Work.push_back(D);
      const auto *T = dyn_cast_or_null<Expr>(
          const_cast<CFGBlock *>(D)->getTerminatorCondition());
      if (T && Match(T, D))
        return T;
    }
  }
  return nullptr;
}

bool WarpCollectiveCheck::checkEdgeBound(const Collective &C,
                                         WarpLanes &Lanes,
                                         ThreadDivergence &Divergences,
                                         const FunctionCfg &Cfg,
                                         ASTContext &Ctx) {
  // A mask of the whole warp, under a bound of the index on a size: in the
  // warp that holds the size's edge, the lanes past it do not execute the
  // call (unless the size is a multiple of 32, which nothing here shows).
  if (!C.Mask || *C.Mask != 0xffffffffu)
    return false;
  const BinaryOperator *Bound = nullptr;
  const Expr *Cond = nearestCondition(
      Cfg, C.Block, [&](const Expr *T, const CFGBlock *D) {
        return Divergences.ofCondition(T, D) != Divergence::None &&
               !Divergences.readsTemplateValue(T) &&
               (Bound = Lanes.edgeBound(T));
      });
  if (!Bound)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(C.Call->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return true;
  diag(Loc, "'%0' with mask %1 runs under the bound '%2': unless the bound "
            "is a multiple of 32, the lanes of the warp at its edge that "
            "fail it are still in the mask")
      << calleeName(C.Call) << hexMask(*C.Mask)
      << ThreadIndexAnalysis::textOf(Bound, Ctx);
  diag(userVisibleLocation(Cond->getBeginLoc(), SM),
       "the lanes past the bound leave here", DiagnosticIDs::Note)
      << Cond->getSourceRange();
  return true;
}

bool WarpCollectiveCheck::checkDataBranch(const Collective &C,
                                          WarpLanes &Lanes,
                                          ThreadDivergence &Divergences,
                                          const FunctionCfg &Cfg,
                                          ASTContext &Ctx) {
  if (!C.Mask || llvm::popcount(*C.Mask) < 2)
    return false;
  // The nearest condition the call depends on whose lanes may disagree.
  const Expr *Load = nullptr;
  const Expr *Cond = nearestCondition(
      Cfg, C.Block, [&](const Expr *T, const CFGBlock *D) {
        return Divergences.ofCondition(T, D) == Divergence::PerThreadData &&
               (Load = Lanes.laneVaryingLoad(T));
      });
  if (!Cond)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(C.Call->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return true;
  diag(Loc, "'%0' with mask %1 runs under a condition on per-thread data: "
            "lanes of a warp may disagree on '%2', and the lanes that do "
            "not execute it are still in the mask")
      << calleeName(C.Call) << hexMask(*C.Mask)
      << ThreadIndexAnalysis::textOf(Load, Ctx);
  diag(userVisibleLocation(Cond->getBeginLoc(), SM),
       "the lanes may take different sides here", DiagnosticIDs::Note)
      << Cond->getSourceRange();
  return true;
}

std::optional<WarpCollectiveCheck::HelperCollective>
WarpCollectiveCheck::helperCollective(const CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return std::nullopt;
  auto [It, New] = HelperCollectives.try_emplace(Callee);
  if (New)
    It->second = wrappedCollective(Call, Ctx);
  return It->second;
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
      } else if (std::optional<HelperCollective> Wrapped =
                     helperCollective(Call, Ctx)) {
        // A helper that makes a collective: it is made at the helper's
        // call, with the helper's mask or the argument (or the default)
        // its mask parameter gets.
        WarpCollectiveInfo Info{Wrapped->MaskParam, -1, -1};
        Collective C{Call, B, Info, Wrapped->Mask, Wrapped->Inner};
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
    checkMaskType(C, FD, Ctx);
    if ((C.Info.MaskArg < 0 && !C.Mask) || (C.Mask && !*C.Mask))
      continue;
    if (!Lanes) {
      Lanes.emplace(Cfg, Ctx);
      Divergences.emplace(FD, threadIndex(Ctx));
      Lanes->useDivergences(*Divergences);
    }
    if (C.Mask) {
      WarpLaneSets Named;
      Named.fill(*C.Mask);
      if (checkMask(C, Calls, Named, *Lanes, Cfg, Ctx))
        continue;
    }
    if (!C.Inner && checkAbsentLanes(C, FD, *Lanes, Ctx))
      continue;
    // In a __device__ helper, a parameter may differ between the lanes,
    // unless every call of the helper passes a value known per lane.
    if (!FD.hasAttr<CUDAGlobalAttr>() &&
        llvm::any_of(Cfg.graph(), [&](const CFGBlock *B) {
          const auto *T = dyn_cast_or_null<Expr>(
              const_cast<CFGBlock *>(B)->getTerminatorCondition());
          return T && mentionsUnknownParameter(T, *Lanes);
        }))
      continue;
    if (checkCallers(C, Calls, *Lanes, *Divergences, Cfg, Ctx))
      continue;
    if (checkDataBranch(C, *Lanes, *Divergences, Cfg, Ctx))
      continue;
    checkEdgeBound(C, *Lanes, *Divergences, Cfg, Ctx);
  }
}

} // namespace clang::tidy::cuda
