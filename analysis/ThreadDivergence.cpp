//===- ThreadDivergence.cpp -----------------------------------------------===//

#include "ThreadDivergence.h"
#include "CudaApiModel.h"
#include "TemplatePatterns.h"
#include "clang-tidy/utils/ASTUtils.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda {

namespace {

void collectRefs(const Stmt *S,
                 llvm::SmallPtrSetImpl<const DeclRefExpr *> &Out) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    Out.insert(DRE);
  for (const Stmt *Child : S->children())
    if (Child)
      collectRefs(Child, Out);
}

/// The variable an assignment or increment writes, or null.
const VarDecl *writtenVar(const Stmt *S) {
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(S);
           UO && UO->isIncrementDecrementOp())
    Target = UO->getSubExpr();
  const auto *DRE =
      dyn_cast_or_null<DeclRefExpr>(ThreadIndexAnalysis::strip(Target));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

} // namespace

ThreadDivergence::ThreadDivergence(const FunctionDecl &FD,
                                   ThreadIndexAnalysis &Analysis)
    : FD(&FD), Analysis(&Analysis), Stores(VariableStores::of(FD.getBody())) {}

Divergence ThreadDivergence::ofCondition(const Expr *Cond,
                                         const CFGBlock *Block) {
  // A store's control dependence may ask about a condition while another
  // is being classified: a cycle adds nothing.
  if (llvm::is_contained(ConditionsInProgress, Block))
    return Divergence::None;
  const CFGBlock *OuterBlock = CondBlock;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> OuterRefs = std::move(CondRefs);
  ConditionsInProgress.push_back(Block);
  CondBlock = Block;
  CondRefs.clear();
  collectRefs(Cond, CondRefs);
  Divergence D = divergenceOf(Cond, FD, 0);
  ConditionsInProgress.pop_back();
  CondRefs = std::move(OuterRefs);
  CondBlock = OuterBlock;
  return D;
}

bool ThreadDivergence::readsSharedScalar(const Expr *E, int Depth) {
  if (!E || Depth > 8)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isSharedScalar(DRE))
      return true;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl() || VD->hasGlobalStorage())
      return false;
    auto [It, New] = ReadsShared.try_emplace(VD, false);
    if (!New)
      return It->second;
    bool Reads = llvm::any_of(Stores.valuesOf(VD), [&](const StoredValue &V) {
      return readsSharedScalar(V.Value, Depth + 1);
    });
    return ReadsShared[VD] = Reads;
  }
  for (const Stmt *Child : E->children())
    if (readsSharedScalar(dyn_cast_or_null<Expr>(Child), Depth))
      return true;
  return false;
}

const FunctionCfg *ThreadDivergence::cfg() {
  if (!CfgAsked) {
    CfgAsked = true;
    Cfg = TranslationUnitAnalyses::get(FD->getASTContext()).sharedCfgOf(FD);
  }
  return Cfg.get();
}

bool ThreadDivergence::isSharedScalar(const DeclRefExpr *Ref) {
  const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
  return VD && VD->hasAttr<CUDASharedAttr>() && VD->isLocalVarDecl() &&
         !VD->getType()->isArrayType();
}

bool ThreadDivergence::readsSettledShared(const DeclRefExpr *Ref) {
  if (!isSharedScalar(Ref))
    return false;
  const auto *VD = cast<VarDecl>(Ref->getDecl());
  auto [It, New] = SettledReads.try_emplace(Ref, false);
  if (!New)
    return It->second;
  const FunctionCfg *G = cfg();
  if (!G || G->hasIndirectUse(VD))
    return false;
  // The CFG element that evaluates the read.
  std::optional<CfgPoint> At;
  const Stmt *S = Ref;
  for (int Up = 0; S && Up < 4 && !(At = G->pointOf(S)); ++Up)
    S = G->parents().getParent(S);
  if (!At)
    return false;
  if (!Intervals)
    Intervals.emplace(*G);
  BarrierIntervals::Starts Starts = Intervals->startsOf(*At);
  if (Starts.FromEntry || Starts.Barriers.empty())
    return false;
  bool Written = Intervals->anyInIntervalsOf(
      *At, [VD](const Stmt *St) { return writtenVar(St) == VD; });
  return SettledReads[Ref] = !Written;
}

Divergence ThreadDivergence::controlDivergence(const CFGBlock *Store) {
  const FunctionCfg *G = cfg();
  // Stores under stores' conditions: a few levels say enough.
  if (!G || !CondBlock || ConditionsInProgress.size() > 3)
    return Divergence::None;
  auto Closure = [&](const CFGBlock *From,
                     llvm::SmallPtrSetImpl<const CFGBlock *> &Out) {
    return G->forEachTransitiveControlDependency(
        From,
        [&](const CFGBlock *D) {
          Out.insert(D);
          return true;
        },
        FunctionCfg::DependencyOrder::DepthFirst);
  };
  llvm::SmallPtrSet<const CFGBlock *, 8> ReadDeps{CondBlock}, StoreDeps;
  if (!Closure(CondBlock, ReadDeps) || !Closure(Store, StoreDeps))
    return Divergence::None;
  Divergence Worst = Divergence::None;
  for (const CFGBlock *D : StoreDeps) {
    if (ReadDeps.count(D))
      continue;
    const auto *Cond = dyn_cast_or_null<Expr>(
        const_cast<CFGBlock *>(D)->getTerminatorCondition());
    if (!Cond ||
        hasUniformTripCount(FunctionCfg::owningStatement(D->getTerminatorStmt(),
                                                         G->parents())))
      continue;
    Divergence C = ofCondition(Cond, D);
    if (C == Divergence::ThreadIndex)
      return C;
    if (C == Divergence::PerThreadData)
      Worst = C;
  }
  return Worst;
}

Divergence
ThreadDivergence::divergenceOfVar(const VarDecl *VD,
                                           const FunctionDecl *FD, int Depth) {
  if (!VD || VD->hasGlobalStorage() || VD->hasAttr<CUDASharedAttr>() ||
      Stores.isAddressTaken(VD) || Stores.mayBeWrittenByCallee(VD) ||
      VD->getType()->isReferenceType())
    return Divergence::None;
  auto It = VarCache.find(VD);
  if (It != VarCache.end())
    return It->second;
  VarCache[VD] = Divergence::None; // Cycles add nothing.
  Divergence D = Divergence::None;
  for (const StoredValue &V : Stores.valuesOf(VD)) {
    Divergence VDiv = divergenceOf(V.Value, FD, Depth + 1);
    if (VDiv == Divergence::ThreadIndex ||
        (VDiv == Divergence::PerThreadData && D == Divergence::None))
      D = VDiv;
  }
  VarCache[VD] = D;
  return D;
}

Divergence
ThreadDivergence::divergenceOf(const Expr *E, const FunctionDecl *FD,
                                        int Depth) {
  E = ThreadIndexAnalysis::strip(E);
  // In a template pattern, a value that depends on the template arguments
  // is unknown; a load of dependent type still reads per-thread data.
  if (!E || Depth > 12 || readsTemplateArgumentValue(E))
    return Divergence::None;
  constexpr unsigned PerThread = TS_ThreadInBlock | TS_GridRank;
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
    return (Src & PerThread) ? Divergence::ThreadIndex : Divergence::None;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E);
      DRE && FD == this->FD && readsSettledShared(DRE))
    return Divergence::None;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E); DRE && CondRefs.count(DRE))
    if (std::optional<Divergence> D = divergenceReaching(DRE, FD, Depth))
      return *D;
  // valueOf() joins every value a variable ever holds; a condition whose
  // variables are read at the condition is left to the cases below, and so
  // is a value that reads a '__shared__' scalar: each read of it is judged
  // at its place.
  if (!E->isValueDependent() && E->getType()->isIntegralOrEnumerationType() &&
      !mentionsCondRef(E) && !readsSharedScalar(E, 0) &&
      (Analysis->valueOf(E, FD).Sources & PerThread))
    return Divergence::ThreadIndex;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E); DRE && isSharedScalar(DRE))
    return E->getType()->isIntegralOrEnumerationType() &&
                   (Analysis->valueOf(E, FD).Sources & PerThread)
               ? Divergence::ThreadIndex
               : Divergence::None;
  auto Either = [](Divergence A, Divergence B) {
    if (A == Divergence::ThreadIndex || B == Divergence::ThreadIndex)
      return Divergence::ThreadIndex;
    if (A == Divergence::PerThreadData || B == Divergence::PerThreadData)
      return Divergence::PerThreadData;
    return Divergence::None;
  };
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return divergenceOfVar(dyn_cast<VarDecl>(DRE->getDecl()), FD, Depth);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return divergenceOf(BO->getRHS(), FD, Depth + 1);
    return Either(divergenceOf(BO->getLHS(), FD, Depth + 1),
                  divergenceOf(BO->getRHS(), FD, Depth + 1));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    Divergence Sub = divergenceOf(UO->getSubExpr(), FD, Depth + 1);
    if (UO->getOpcode() == UO_Deref && Sub != Divergence::None)
      return Divergence::PerThreadData;
    return Sub;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    // A load through a per-thread index or pointer reads per-thread data.
    if (Either(divergenceOf(AS->getBase(), FD, Depth + 1),
               divergenceOf(AS->getIdx(), FD, Depth + 1)) != Divergence::None)
      return Divergence::PerThreadData;
    return Divergence::None;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return Either(divergenceOf(CO->getCond(), FD, Depth + 1),
                  Either(divergenceOf(CO->getTrueExpr(), FD, Depth + 1),
                         divergenceOf(CO->getFalseExpr(), FD, Depth + 1)));
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Divergence D = divergenceOf(ME->getBase(), FD, Depth + 1);
    return D == Divergence::None ? D : Divergence::PerThreadData;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // __syncthreads_count/and/or return the same value to every thread.
    if (CudaApiModel::barrierOf(Call))
      return Divergence::None;
    if (CudaApiModel::returnsPerThreadValue(Call))
      return Divergence::PerThreadData;
    if (isa<CXXMemberCallExpr>(Call) || isa<CUDAKernelCallExpr>(Call))
      return Divergence::None;
    Divergence D = Divergence::None;
    for (const Expr *Arg : Call->arguments())
      D = Either(D, divergenceOf(Arg, FD, Depth + 1));
    return D == Divergence::None ? D : Divergence::PerThreadData;
  }
  return Divergence::None;
}

bool ThreadDivergence::readsTemplateValue(const Expr *E) {
  if (!E || !FD->isDependentContext())
    return false;
  if (dependsOnTemplateArguments(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl())
      return false;
    auto [It, New] = TemplateValueCache.try_emplace(VD, false);
    if (!New)
      return It->second;
    bool Reads = llvm::any_of(Stores.valuesOf(VD), [&](const StoredValue &V) {
      return readsTemplateValue(V.Value);
    });
    TemplateValueCache[VD] = Reads;
    return Reads;
  }
  for (const Stmt *Child : E->children())
    if (readsTemplateValue(dyn_cast_or_null<Expr>(Child)))
      return true;
  return false;
}

bool ThreadDivergence::mentionsCondRef(const Stmt *S) const {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && CondRefs.count(DRE))
    return true;
  for (const Stmt *Child : S->children())
    if (Child && mentionsCondRef(Child))
      return true;
  return false;
}

namespace {
/// The values stored into \p VD that reach the end of \p At: on each path
/// backwards, the nearest plain store and every compound store after it
/// (null for a parameter's incoming value). False when the variable is
/// declared without a value on the way.
bool reachingValues(const VarDecl *VD, const CFGBlock *At,
                    llvm::SmallVectorImpl<const Expr *> &Out,
                    llvm::SmallVectorImpl<const CFGBlock *> &StoreBlocks,
                    unsigned &Updates) {
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
  llvm::SmallVector<const CFGBlock *, 16> Work{At};
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (!Seen.insert(B).second)
      continue;
    bool Stored = false;
    for (auto It = B->rbegin(), End = B->rend(); It != End && !Stored; ++It) {
      const Stmt *S = FunctionCfg::stmtOf(*It);
      if (!S)
        continue;
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        if (!DS->isSingleDecl() || DS->getSingleDecl() != VD)
          continue;
        if (!VD->getInit())
          return false;
        Out.push_back(VD->getInit());
        StoreBlocks.push_back(B);
        Stored = true;
      } else if (writtenVar(S) == VD) {
        // x += v and ++x also keep the older value: the walk goes on.
        const auto *BO = dyn_cast<BinaryOperator>(S);
        if (BO)
          Out.push_back(BO->getRHS());
        Updates += !BO || BO->getOpcode() != BO_Assign;
        StoreBlocks.push_back(B);
        Stored = BO && BO->getOpcode() == BO_Assign;
      }
    }
    if (Stored)
      continue;
    if (B->pred_empty()) {
      if (!isa<ParmVarDecl>(VD))
        return false;
      Out.push_back(nullptr);
    }
    for (const CFGBlock *Pred : B->preds())
      if (Pred)
        Work.push_back(Pred);
  }
  return true;
}
} // namespace

std::optional<Divergence>
ThreadDivergence::divergenceReaching(const DeclRefExpr *Ref,
                                              const FunctionDecl *FD,
                                              int Depth) {
  const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
  if (!VD || !CondBlock || VD->hasGlobalStorage() ||
      VD->getType()->isReferenceType() || Stores.isAddressTaken(VD) ||
      Stores.mayBeWrittenByCallee(VD))
    return std::nullopt;
  llvm::SmallVector<const Expr *, 4> Values;
  llvm::SmallVector<const CFGBlock *, 4> StoreBlocks;
  unsigned Updates = 0;
  if (!reachingValues(VD, CondBlock, Values, StoreBlocks, Updates))
    return std::nullopt;
  Divergence D = Divergence::None;
  auto Join = [&D](Divergence VDiv) {
    if (VDiv == Divergence::ThreadIndex ||
        (VDiv == Divergence::PerThreadData && D == Divergence::None))
      D = VDiv;
  };
  for (const Expr *V : Values)
    Join(V ? divergenceOf(V, FD, Depth + 1) : Divergence::None);
  // Divergence through control: different values reach the condition, and
  // a condition that differs between threads decides which one a thread
  // holds ('int go = 0; if (tid < n) go = 1; if (go) ...').
  const ASTContext &Ctx = FD->getASTContext();
  bool OneValue = !Updates && llvm::all_of(Values, [&](const Expr *V) {
    return V && Values.front() &&
           utils::areStatementsIdentical(V, Values.front(), Ctx);
  });
  if (D != Divergence::ThreadIndex && !OneValue)
    for (const CFGBlock *Store : StoreBlocks)
      Join(controlDivergence(Store));
  return D;
}

namespace {
/// \p E with never-reassigned locals replaced by their initializers.
const Expr *resolved(const Expr *E, const VariableStores &Stores) {
  for (int Steps = 0; Steps < 8; ++Steps) {
    E = ThreadIndexAnalysis::strip(E);
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
        VD->getType()->isReferenceType() || Stores.isAssigned(VD) ||
        Stores.isAddressTaken(VD) || Stores.mayBeWrittenByCallee(VD))
      return E;
    E = VD->getInit();
  }
  return E;
}

/// The factors of a product, resolved.
void productFactors(const Expr *E, const VariableStores &Stores,
                    llvm::SmallVectorImpl<const Expr *> &Out) {
  E = resolved(E, Stores);
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Mul) {
    productFactors(BO->getLHS(), Stores, Out);
    productFactors(BO->getRHS(), Stores, Out);
    return;
  }
  Out.push_back(E);
}

bool sameValue(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  ThreadSource SA, SB;
  unsigned DA, DB;
  if (ThreadIndexAnalysis::isThreadQuery(A, SA, DA) &&
      ThreadIndexAnalysis::isThreadQuery(B, SB, DB))
    return SA == SB && DA == DB;
  return A && B && utils::areStatementsIdentical(A, B, Ctx);
}

/// Whether every factor of \p Part appears in \p Whole (a product that
/// is then a multiple of \p Part).
bool isProductMultiple(const Expr *Whole, const Expr *Part,
                       const VariableStores &Stores, const ASTContext &Ctx) {
  llvm::SmallVector<const Expr *, 4> W, P;
  productFactors(Whole, Stores, W);
  productFactors(Part, Stores, P);
  for (const Expr *F : P) {
    auto It = llvm::find_if(W, [&](const Expr *G) {
      return G && sameValue(F, G, Ctx);
    });
    if (It == W.end())
      return false;
    *It = nullptr;
  }
  return W.size() > P.size();
}

bool isQuery(const Expr *E, ThreadSource Src, unsigned Dim) {
  ThreadSource S;
  unsigned D;
  return ThreadIndexAnalysis::isThreadQuery(E, S, D) && S == Src && D == Dim;
}

/// Whether \p Start lies in [0, \p Stride) for every thread: threadIdx.d
/// with stride blockDim.d, or the grid rank blockIdx.d * blockDim.d +
/// threadIdx.d with stride blockDim.d * gridDim.d, each stride possibly
/// times a positive constant (an unroll count).
bool startsBelowStride(const Expr *Start, const Expr *Stride,
                       const VariableStores &Stores, const ASTContext &Ctx) {
  llvm::SmallVector<const Expr *, 2> S;
  productFactors(Stride, Stores, S);
  // A positive constant factor (an unroll count) only widens the stride.
  llvm::erase_if(S, [&](const Expr *F) {
    auto C = ThreadIndexAnalysis::integerConstant(F, Ctx);
    return C && *C > 0;
  });
  Start = resolved(Start, Stores);
  for (unsigned D = 0; D < 3; ++D) {
    if (S.size() == 1 && isQuery(S[0], TS_BlockDim, D) &&
        isQuery(Start, TS_ThreadInBlock, D))
      return true;
    if (S.size() != 2 ||
        !((isQuery(S[0], TS_BlockDim, D) && isQuery(S[1], TS_GridDim, D)) ||
          (isQuery(S[1], TS_BlockDim, D) && isQuery(S[0], TS_GridDim, D))))
      continue;
    const auto *Sum = dyn_cast_or_null<BinaryOperator>(Start);
    if (!Sum || Sum->getOpcode() != BO_Add)
      continue;
    for (auto [Block, Thread] : {std::pair{Sum->getLHS(), Sum->getRHS()},
                                 std::pair{Sum->getRHS(), Sum->getLHS()}}) {
      llvm::SmallVector<const Expr *, 2> B;
      productFactors(Block, Stores, B);
      if (isQuery(resolved(Thread, Stores), TS_ThreadInBlock, D) &&
          B.size() == 2 &&
          ((isQuery(B[0], TS_BlockInGrid, D) &&
            isQuery(B[1], TS_BlockDim, D)) ||
           (isQuery(B[1], TS_BlockInGrid, D) && isQuery(B[0], TS_BlockDim, D))))
        return true;
    }
  }
  return false;
}
} // namespace

bool ThreadDivergence::hasUniformTripCount(const Stmt *Loop) {
  const ASTContext &Ctx = FD->getASTContext();
  // for (i = start; i < bound; i += stride), with start in [0, stride) and
  // bound a multiple of stride: every thread makes bound / stride trips.
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  if (!For || !For->getCond() || !For->getInc())
    return false;
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *I = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  if (!I || !I->getInit() || Stores.isAddressTaken(I) ||
      Stores.mayBeWrittenByCallee(I) || Stores.valuesOf(I).size() != 2)
    return false;
  const auto *Cond =
      dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(For->getCond()));
  const auto *Inc = dyn_cast<CompoundAssignOperator>(For->getInc());
  if (!Cond || Cond->getOpcode() != BO_LT || !Inc ||
      Inc->getOpcode() != BO_AddAssign || writtenVar(Inc) != I)
    return false;
  const auto *CondVar =
      dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(Cond->getLHS()));
  if (!CondVar || CondVar->getDecl() != I)
    return false;
  const Expr *Bound = Cond->getRHS(), *Stride = Inc->getRHS();
  return divergenceOf(Bound, FD, 1) == Divergence::None &&
         divergenceOf(Stride, FD, 1) == Divergence::None &&
         startsBelowStride(I->getInit(), Stride, Stores, Ctx) &&
         isProductMultiple(Bound, Stride, Stores, Ctx);
}


} // namespace clang::tidy::cuda
