//===- DivergentSyncthreadsCheck.cpp --------------------------------------===//

#include "DivergentSyncthreadsCheck.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "SourceLocations.h"
#include "VariableStores.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Analysis/Analyses/Dominators.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// The statement whose condition \p Terminator is part of: the if or loop
/// of a condition made of '&&' and '||'.
const Stmt *owningStatement(const Stmt *Terminator, const ParentMap &PM) {
  const Stmt *S = Terminator;
  while (const auto *BO = dyn_cast_or_null<BinaryOperator>(S)) {
    if (!BO->isLogicalOp())
      break;
    const Stmt *P = PM.getParentIgnoreParenImpCasts(const_cast<Stmt *>(S));
    if (!P)
      break;
    S = P;
  }
  return S;
}

bool contains(const Stmt *Outer, const Stmt *Inner, const ParentMap &PM) {
  for (const Stmt *S = Inner; S; S = PM.getParent(S))
    if (S == Outer)
      return true;
  return false;
}

/// Whether the path from \p B ends the thread (or the kernel) before it
/// joins other code: a branch into __trap() or a failed assert. Threads
/// that take it never wait at a barrier anyone else reaches.
bool endsInNoReturn(const CFGBlock *B) {
  for (unsigned Steps = 0; B && Steps < 8; ++Steps) {
    for (const CFGElement &El : *B)
      if (const auto *Call =
              dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(El))) {
        if (CudaApiModel::barrierOf(Call))
          return false; // It waits first.
        if (const FunctionDecl *FD = Call->getDirectCallee();
            FD && FD->isNoReturn())
          return true;
      }
    if (B->succ_size() != 1)
      return false;
    B = *B->succ_begin();
  }
  return false;
}

/// Whether \p C explains a barrier at \p Call better than \p Old: a
/// condition before the barrier beats one after it (a do-while's), and the
/// later of two beats the earlier.
bool betterCondition(const Expr *C, const Expr *Old, const CallExpr *Call,
                     const SourceManager &SM) {
  bool CBefore = SM.isBeforeInTranslationUnit(C->getBeginLoc(),
                                              Call->getBeginLoc());
  bool OldBefore = SM.isBeforeInTranslationUnit(Old->getBeginLoc(),
                                                Call->getBeginLoc());
  if (CBefore != OldBefore)
    return CBefore;
  bool Later = SM.isBeforeInTranslationUnit(Old->getBeginLoc(),
                                            C->getBeginLoc());
  return CBefore ? Later : !Later;
}

} // namespace

DivergentSyncthreadsCheck::Divergence
DivergentSyncthreadsCheck::divergenceOfVar(const VarDecl *VD,
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

DivergentSyncthreadsCheck::Divergence
DivergentSyncthreadsCheck::divergenceOf(const Expr *E, const FunctionDecl *FD,
                                        int Depth) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 12 || E->isValueDependent())
    return Divergence::None;
  constexpr unsigned PerThread = TS_ThreadInBlock | TS_GridRank;
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
    return (Src & PerThread) ? Divergence::ThreadIndex : Divergence::None;
  if (E->getType()->isIntegralOrEnumerationType() &&
      (Analysis->valueOf(E, FD).Sources & PerThread))
    return Divergence::ThreadIndex;
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

void DivergentSyncthreadsCheck::checkFunction(const FunctionDecl &Function,
                                              const FunctionCfg &Cfg,
                                              ASTContext &Ctx) {
  const FunctionDecl *FD = &Function;
  const SourceManager &SM = Ctx.getSourceManager();
  Analysis = &threadIndex(Ctx);

  llvm::SmallVector<std::pair<const CallExpr *, const CFGBlock *>, 4> Barriers;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &El : *B)
      if (const auto *Call =
              dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(El)))
        if (auto Barrier = CudaApiModel::barrierOf(Call);
            Barrier && Barrier->Scope == BarrierScope::Block)
          Barriers.push_back({Call, B});
  if (Barriers.empty())
    return;

  CFG &Graph = const_cast<CFG &>(Cfg.graph());
  ControlDependencyCalculator Deps(&Graph);
  // Blocks that cannot reach the exit (an endless loop) have no place in the
  // post-dominator tree: control dependence is unknown there.
  for (const CFGBlock *B : Graph)
    if (!const_cast<CFGPostDomTree &>(Deps.getCFGPostDomTree())
             .getBase()
             .getNode(const_cast<CFGBlock *>(B)))
      return;

  VarCache.clear();
  // Parameters are uniform unless assigned.
  Stores = VariableStores::of(FD->getBody());

  const ParentMap &PM = Cfg.parents();
  for (const auto &[Call, Block] : Barriers) {
    const Expr *Cond = nullptr;
    const Stmt *Owner = nullptr;
    Divergence Why = Divergence::None;
    for (CFGBlock *Dep : Deps.getControlDependencies(const_cast<CFGBlock *>(Block))) {
      const auto *C = dyn_cast_or_null<Expr>(Dep->getTerminatorCondition());
      const Stmt *T = Dep->getTerminatorStmt();
      if (!C || !T || isa<BinaryConditionalOperator, ConditionalOperator>(T))
        continue;
      if (llvm::any_of(Dep->succs(), [](const CFGBlock::AdjacentBlock &S) {
            return endsInNoReturn(S.getReachableBlock());
          }))
        continue;
      Divergence D = divergenceOf(C, FD, 0);
      if (D == Divergence::None)
        continue;
      // The nearest condition before the barrier explains it best.
      if (Cond && !betterCondition(C, Cond, Call, SM))
        continue;
      Cond = C;
      Owner = owningStatement(T, PM);
      Why = D;
    }
    if (!Cond)
      continue;
    const FunctionDecl *Callee = Call->getDirectCallee();
    std::string Name = Callee->getName().str();
    llvm::StringRef Group = CudaApiModel::barrierOf(Call)->GroupClass;
    if (isa<CXXMethodDecl>(Callee)) {
      Name = Group.str() + "::" + Name;
    } else if (!Callee->getDeclContext()->getRedeclContext()->isTranslationUnit()) {
      Name = "cooperative_groups::" + Name;
    }
    SourceLocation Loc = userVisibleLocation(Call->getBeginLoc(), SM);
    diag(Loc, "barrier '%0' is not reached by every thread of the block: "
              "control flow to it depends on %select{the thread index|"
              "per-thread data}1")
        << Name << (Why == Divergence::PerThreadData ? 1 : 0);
    unsigned NoteKind = isLoop(Owner) ? 0 : contains(Owner, Call, PM) ? 1 : 2;
    diag(userVisibleLocation(Cond->getBeginLoc(), SM),
         "%select{threads run this loop a different number of times|the "
         "barrier is reached only on one branch of this condition|threads "
         "leave before the barrier depending on this condition}0",
         DiagnosticIDs::Note)
        << NoteKind << Cond->getSourceRange();
  }
}

} // namespace clang::tidy::cuda
