//===- WarpCollectives.cpp - Warp collectives and their masks -------------===//

#include "WarpCollectives.h"
#include "ThreadDivergence.h"
#include "ThreadIndexAnalysis.h"
#include "VariableStores.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang-tidy/utils/ASTUtils.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

namespace clang::tidy::cuda {

std::optional<int64_t> constantArgument(const CallExpr *Call, int Index,
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

std::string collectiveName(const CallExpr *Call) {
  return CudaApiModel::calleeOf(Call)->getName().str();
}

const Expr *maskArgument(const WarpCollective &C) {
  return C.Info.MaskArg < 0 ? nullptr
                            : CudaApiModel::argument(C.Call, C.Info.MaskArg);
}

std::string maskText(const WarpCollective &C, ASTContext &Ctx) {
  if (C.Mask)
    return hexMask(*C.Mask);
  return "'" + ThreadIndexAnalysis::textOf(maskArgument(C), Ctx) + "'";
}

namespace {

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
const CFGBlock *excludingCondition(const WarpCollective &C,
                                   uint32_t Missing, WarpLanes &Lanes,
                                   const FunctionCfg &Cfg,
                                   const SourceManager &SM) {
  const CFGBlock *Found = nullptr;
  Cfg.forEachTransitiveControlDependency(
      C.Block,
      [&](const CFGBlock *D) {
        if (!lanesDecidedAt(D, Missing, Lanes))
          return true;
        Found = D;
        return false;
      },
      FunctionCfg::DependencyOrder::BreadthFirst);
  if (Found)
    return Found;
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
  if (std::optional<int64_t> M = constantArgument(Call, Index, Ctx,
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

/// The template type parameter that \p T is written as, in a pattern or
/// an instantiation.
const TemplateTypeParmDecl *templateParameterOf(QualType T) {
  if (const auto *Subst = T->getAs<SubstTemplateTypeParmType>())
    return Subst->getReplacedParameter();
  if (const auto *Parm = T->getAs<TemplateTypeParmType>())
    return Parm->getDecl();
  return nullptr;
}

/// Whether the mask of the shuffle \p C is the value it moves: a word
/// of a union, or the variable its result is assigned to.
bool maskIsShuffledData(const WarpCollective &C, const Expr *Mask,
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

/// The nearest condition, walking the control dependencies of Block outward
/// (breadth first), that Match accepts; null when none does or when some
/// dependencies are unknown.
template <class Predicate>
const Expr *nearestCondition(const FunctionCfg &Cfg, const CFGBlock *Block,
                             Predicate Match) {
  const Expr *Found = nullptr;
  Cfg.forEachTransitiveControlDependency(
      Block,
      [&](const CFGBlock *D) {
        if (D == Block)
          return true;
        const auto *T = dyn_cast_or_null<Expr>(
            const_cast<CFGBlock *>(D)->getTerminatorCondition());
        if (!T || !Match(T, D))
          return true;
        Found = T;
        return false;
      },
      FunctionCfg::DependencyOrder::BreadthFirst);
  return Found;
}

} // namespace

std::optional<WrappedCollective>
WarpCollectiveSummaries::helperCollective(const CallExpr *Call,
                                          ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return std::nullopt;
  auto [It, New] = Helpers.try_emplace(Callee);
  if (New)
    It->second = wrappedCollective(Call, Ctx);
  return It->second;
}

llvm::SmallVector<WarpCollective, 8>
WarpCollectiveSummaries::collectives(const FunctionCfg &Cfg, ASTContext &Ctx) {
  llvm::SmallVector<WarpCollective, 8> Calls;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &El : *B) {
      const auto *Call = dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(El));
      if (!Call)
        continue;
      if (auto Info = CudaApiModel::warpCollectiveOf(Call)) {
        WarpCollective C{Call, B, *Info, std::nullopt};
        if (std::optional<int64_t> M = constantArgument(
                Call, Info->MaskArg, Ctx, /*AllowDefault=*/true))
          C.Mask = static_cast<uint32_t>(*M);
        Calls.push_back(C);
      } else if (std::optional<WrappedCollective> Wrapped =
                     helperCollective(Call, Ctx)) {
        // A helper that makes a collective: it is made at the helper's
        // call, with the helper's mask or the argument (or the default)
        // its mask parameter gets.
        WarpCollectiveInfo Info{Wrapped->MaskParam, -1, -1};
        WarpCollective C{Call, B, Info, Wrapped->Mask, Wrapped->Inner};
        if (std::optional<int64_t> M = constantArgument(
                Call, Info.MaskArg, Ctx, /*AllowDefault=*/true))
          C.Mask = static_cast<uint32_t>(*M);
        Calls.push_back(C);
      }
    }
  return Calls;
}

std::optional<int64_t> WarpCollectiveMasks::badWidth(const WarpCollective &C,
                                                     ASTContext &Ctx) {
  std::optional<int64_t> Width =
      constantArgument(C.Call, C.Info.WidthArg, Ctx, /*AllowDefault=*/false);
  if (!Width || (*Width >= 1 && *Width <= 32 && llvm::isPowerOf2_64(*Width)))
    return std::nullopt;
  return Width;
}

std::optional<WarpCollectiveMasks::SourceLane>
WarpCollectiveMasks::sourceLaneOutside(const WarpCollective &C,
                                       ASTContext &Ctx) {
  std::optional<int64_t> Src =
      constantArgument(C.Call, C.Info.SrcLaneArg, Ctx, /*AllowDefault=*/false);
  std::optional<int64_t> Width =
      constantArgument(C.Call, C.Info.WidthArg, Ctx, /*AllowDefault=*/true);
  int64_t W = Width.value_or(32);
  if (!Src || !C.Mask || !*C.Mask || W < 1 || W > 32 ||
      !llvm::isPowerOf2_64(W))
    return std::nullopt;
  int64_t InSegment = ((*Src % W) + W) % W;
  for (int64_t Segment = 0; Segment < 32; Segment += W) {
    uint32_t SegmentLanes =
        W == 32 ? ~0u : ((1u << W) - 1) << static_cast<unsigned>(Segment);
    int64_t Lane = Segment + InSegment;
    // Lanes of this segment take part and read a lane that does not.
    if (!(*C.Mask & SegmentLanes) || (*C.Mask >> Lane & 1))
      continue;
    return SourceLane{Lane, *Src, W};
  }
  return std::nullopt;
}

bool WarpCollectiveMasks::maskIsData(const WarpCollective &C,
                                     const FunctionDecl &FD, ASTContext &Ctx) {
  const Expr *Arg = maskArgument(C);
  if (!Arg || isa<CXXDefaultArgExpr>(Arg))
    return false;
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
  return Data;
}

std::optional<WarpCollectiveMasks::MissingLanes>
WarpCollectiveMasks::missingLanes(const WarpCollective &C,
                                  const WarpLaneSets &Named) {
  const WarpLaneSets &Reach = Lanes.reaching(C.Block);
  // On sm_70 and later, lanes may meet at another call of the same
  // collective with the same mask on another branch (neither reaches the
  // other: the two sides of an if).
  std::string Text = maskText(C, Ctx);
  WarpLaneSets Elsewhere{};
  for (const WarpCollective &O : All)
    if (O.Call != C.Call && collectiveName(O.Call) == collectiveName(C.Call) &&
        (C.Mask ? O.Mask == C.Mask : maskText(O, Ctx) == Text) &&
        !reaches(O.Block, C.Block) && !reaches(C.Block, O.Block))
      for (unsigned W = 0; W < 32; ++W)
        Elsewhere[W] |= Lanes.reaching(O.Block)[W];
  uint32_t Missing = 0;
  for (unsigned W = 0; W < 32; ++W)
    if (Reach[W])
      Missing |= Named[W] & Lanes.existing()[W] & ~Reach[W] & ~Elsewhere[W];
  if (!Missing)
    return std::nullopt;
  const CFGBlock *Why =
      excludingCondition(C, Missing, Lanes, Cfg, Ctx.getSourceManager());
  if (!Why)
    return std::nullopt;
  // The whole condition of the if or loop, of which Why may test one part.
  const Stmt *Owner =
      FunctionCfg::owningStatement(Why->getTerminatorStmt(), Cfg.parents());
  const Expr *Cond = fullCondition(Owner);
  uint32_t Leaving = Cond ? lanesDecidedBy(Cond, Missing, Lanes) : 0;
  if (!Leaving) {
    Cond = cast<Expr>(const_cast<CFGBlock *>(Why)->getTerminatorCondition());
    Leaving = lanesDecidedAt(Why, Missing, Lanes);
  }
  MissingLanes Result{Missing, Cond, Leaving,
                      FunctionCfg::contains(Owner, C.Call, Cfg.parents()),
                      std::nullopt};
  if (!C.Mask) {
    std::optional<uint32_t> Same;
    bool Differ = false;
    for (unsigned W = 0; W < 32; ++W)
      if (Reach[W]) {
        Differ |= Same && *Same != Named[W];
        Same = Named[W];
      }
    if (Same && !Differ)
      Result.Value = Same;
  }
  return Result;
}

uint32_t WarpCollectiveMasks::absentLanes(const WarpCollective &C,
                                          const FunctionDecl &FD) {
  const Expr *MaskArg = CudaApiModel::argument(C.Call, C.Info.MaskArg);
  if (!C.Mask || !MaskArg || isa<CXXDefaultArgExpr>(MaskArg) ||
      !FD.hasAttr<CUDAGlobalAttr>())
    return 0;
  const WarpLaneSets &Reach = Lanes.reaching(C.Block);
  uint32_t Absent = 0;
  for (unsigned W = 0; W < 32; ++W)
    if (Reach[W] & Lanes.existing()[W])
      Absent |= *C.Mask & ~Lanes.existing()[W];
  return Absent;
}

std::optional<WarpCollectiveMasks::Callers>
WarpCollectiveMasks::callers(const WarpCollective &C) {
  // A default mask of an intrinsic is the whole warp (__syncwarp()).
  const Expr *MaskArg = maskArgument(C);
  if ((!MaskArg && !C.Mask) ||
      (!C.Inner && MaskArg && isa<CXXDefaultArgExpr>(MaskArg)))
    return std::nullopt;
  // A helper's mask parameter: its calls are checked where they pass it.
  if (!C.Mask && MaskArg && !Cfg.function()->hasAttr<CUDAGlobalAttr>() &&
      namesParameter(MaskArg))
    return std::nullopt;
  const WarpLaneSets &Reach = Lanes.reaching(C.Block);
  Callers Result;
  std::array<bool, 32> Seen{};
  for (int64_t T = 0; T < Lanes.threadCount(); ++T) {
    unsigned W = T / 32, L = T % 32;
    if (!((Reach[W] & Lanes.existing()[W]) >> L & 1))
      continue;
    std::optional<int64_t> Mask =
        C.Mask ? std::optional<int64_t>(*C.Mask) : Lanes.valueFor(MaskArg, T);
    if (!Mask)
      return std::nullopt;
    uint32_t Bits = static_cast<uint32_t>(*Mask);
    Result.WarpUniform &= !Seen[W] || Result.Named[W] == Bits;
    Seen[W] = true;
    Result.Named[W] |= Bits;
    if (!(Bits >> L & 1))
      Result.Outside |= 1u << L;
  }
  return Result;
}

bool WarpCollectiveMasks::reachedExactly(const WarpCollective &C) {
  return Lanes.reachedExactly(C.Block, Divergences);
}

bool WarpCollectiveMasks::branchesOnUnknownParameter() {
  return llvm::any_of(Cfg.graph(), [&](const CFGBlock *B) {
    const auto *T = dyn_cast_or_null<Expr>(
        const_cast<CFGBlock *>(B)->getTerminatorCondition());
    return T && mentionsUnknownParameter(T, Lanes);
  });
}

std::optional<WarpCollectiveMasks::Branch>
WarpCollectiveMasks::edgeBound(const WarpCollective &C) {
  // A mask of the whole warp, under a bound of the index on a size: in the
  // warp that holds the size's edge, the lanes past it do not execute the
  // call (unless the size is a multiple of 32, which nothing here shows).
  if (!C.Mask || *C.Mask != 0xffffffffu)
    return std::nullopt;
  const BinaryOperator *Bound = nullptr;
  const Expr *Cond = nearestCondition(
      Cfg, C.Block, [&](const Expr *T, const CFGBlock *D) {
        return Divergences.ofCondition(T, D) != Divergence::None &&
               !Divergences.readsTemplateValue(T) &&
               (Bound = Lanes.edgeBound(T));
      });
  if (!Bound)
    return std::nullopt;
  return Branch{Bound, Cond};
}

std::optional<WarpCollectiveMasks::Branch>
WarpCollectiveMasks::dataBranch(const WarpCollective &C) {
  if (!C.Mask || llvm::popcount(*C.Mask) < 2)
    return std::nullopt;
  // The nearest condition the call depends on whose lanes may disagree.
  const Expr *Load = nullptr;
  const Expr *Cond = nearestCondition(
      Cfg, C.Block, [&](const Expr *T, const CFGBlock *D) {
        return Divergences.ofCondition(T, D) == Divergence::PerThreadData &&
               (Load = Lanes.laneVaryingLoad(T));
      });
  if (!Cond)
    return std::nullopt;
  return Branch{Load, Cond};
}

} // namespace clang::tidy::cuda
