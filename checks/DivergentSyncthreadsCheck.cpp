//===- DivergentSyncthreadsCheck.cpp --------------------------------------===//

#include "DivergentSyncthreadsCheck.h"
#include "BarrierIntervals.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "SourceLocations.h"
#include "ThreadDivergence.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda {

namespace {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
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

void DivergentSyncthreadsCheck::checkFunction(const FunctionDecl &Function,
                                              const FunctionCfg &Cfg,
                                              ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();

  llvm::SmallVector<std::pair<const CallExpr *, const CFGBlock *>, 4> Barriers;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &El : *B)
      if (const auto *Call =
              dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(El))) {
        if (auto Barrier = CudaApiModel::barrierOf(Call)) {
          if (Barrier->Scope == BarrierScope::Block)
            Barriers.push_back({Call, B});
        } else if (const FunctionDecl *Helper = deviceHelperDefinition(Call);
                   Helper && Helper != &Function &&
                   waitsAtBlockBarrier(Helper, HelperWaits)) {
          // A helper that waits at a barrier is one at its call.
          Barriers.push_back({Call, B});
        }
      }
  if (Barriers.empty())
    return;

  // Control dependence must be known everywhere (no endless loop).
  if (!Cfg.controlDependencies(&Cfg.graph().getEntry()))
    return;

  ThreadDivergence Divergences(Function, threadIndex(Ctx));

  const ParentMap &PM = Cfg.parents();
  for (const auto &[Call, Block] : Barriers) {
    const Expr *Cond = nullptr;
    const Stmt *Owner = nullptr;
    Divergence Why = Divergence::None;
    auto Deps = Cfg.controlDependencies(Block);
    if (!Deps)
      continue;
    for (const CFGBlock *Dep : *Deps) {
      const auto *C = dyn_cast_or_null<Expr>(
          const_cast<CFGBlock *>(Dep)->getTerminatorCondition());
      const Stmt *T = Dep->getTerminatorStmt();
      if (!C)
        continue;
      if (llvm::any_of(Dep->succs(), [](const CFGBlock::AdjacentBlock &S) {
            return endsInNoReturn(S.getReachableBlock());
          }))
        continue;
      Divergence D = Divergences.ofCondition(C, Dep);
      if (D == Divergence::None ||
          Divergences.hasUniformTripCount(FunctionCfg::owningStatement(T, PM)))
        continue;
      // The nearest condition before the barrier explains it best.
      if (Cond && !betterCondition(C, Cond, Call, SM))
        continue;
      Cond = C;
      Owner = FunctionCfg::owningStatement(T, PM);
      Why = D;
    }
    if (!Cond)
      continue;
    const FunctionDecl *Callee = Call->getDirectCallee();
    SourceLocation Loc = userVisibleLocation(Call->getBeginLoc(), SM);
    unsigned Source = Why == Divergence::PerThreadData ? 1 : 0;
    if (auto Barrier = CudaApiModel::barrierOf(Call)) {
      std::string Name = Callee->getName().str();
      if (isa<CXXMethodDecl>(Callee))
        Name = Barrier->GroupClass.str() + "::" + Name;
      else if (!Callee->getDeclContext()
                    ->getRedeclContext()
                    ->isTranslationUnit())
        Name = "cooperative_groups::" + Name;
      diag(Loc, "barrier '%0' is not reached by every thread of the block: "
                "control flow to it depends on %select{the thread index|"
                "per-thread data}1")
          << Name << Source;
    } else {
      diag(Loc, "call of '%0', which waits at a block barrier, is not "
                "reached by every thread of the block: control flow to it "
                "depends on %select{the thread index|per-thread data}1")
          << Callee->getNameAsString() << Source;
    }
    unsigned NoteKind = isLoop(Owner)                            ? 0
                        : FunctionCfg::contains(Owner, Call, PM) ? 1
                                                                 : 2;
    diag(userVisibleLocation(Cond->getBeginLoc(), SM),
         "%select{threads run this loop a different number of times|the "
         "barrier is reached only on one branch of this condition|threads "
         "leave before the barrier depending on this condition}0",
         DiagnosticIDs::Note)
        << NoteKind << Cond->getSourceRange();
  }
}

} // namespace clang::tidy::cuda
