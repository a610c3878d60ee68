//===- BarrierIntervals.cpp -----------------------------------------------===//

#include "BarrierIntervals.h"
#include "CudaApiModel.h"
#include "TemplatePatterns.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

const FunctionDecl *deviceHelperDefinition(const CallExpr *Call) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def->hasAttr<CUDADeviceAttr>() ||
      Def->hasAttr<CUDAGlobalAttr>() ||
      Def->getASTContext().getSourceManager().isInSystemHeader(
          Def->getLocation()))
    return nullptr;
  return Def;
}

bool waitsAtBlockBarrier(const FunctionDecl *Helper, BarrierWaitCache &Cache,
                         int Depth) {
  if (auto It = Cache.find({Helper, Depth}); It != Cache.end())
    return It->second;
  Cache[{Helper, Depth}] = false; // Recursion: no.
  struct Finder : RecursiveASTVisitor<Finder> {
    BarrierWaitCache &Cache;
    int Depth;
    bool Found = false;
    Finder(BarrierWaitCache &Cache, int Depth) : Cache(Cache), Depth(Depth) {}
    bool VisitCallExpr(CallExpr *Call) {
      if (auto B = CudaApiModel::barrierOf(Call))
        Found |= B->Scope == BarrierScope::Block;
      else if (const FunctionDecl *Def = deviceHelperDefinition(Call);
               Def && Depth < 4)
        Found |= waitsAtBlockBarrier(Def, Cache, Depth + 1);
      return !Found;
    }
  } F(Cache, Depth);
  F.TraverseStmt(Helper->getBody());
  return Cache[{Helper, Depth}] = F.Found;
}

bool mayWaitInPattern(const Stmt *S, const FunctionDecl *FD) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  return Call && FD->isDependentContext() && !isa<CXXOperatorCallExpr>(Call) &&
         !independentCallee(Call);
}

bool BarrierIntervals::endsInterval(const Stmt *S) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  if (!Call)
    return false;
  if (auto B = CudaApiModel::barrierOf(Call))
    return B->Scope == BarrierScope::Block;
  if (const FunctionDecl *Def = deviceHelperDefinition(Call);
      Def && waitsAtBlockBarrier(Def, HelperWaits))
    return true;
  return mayWaitInPattern(S, Cfg.function());
}

BarrierIntervals::Starts BarrierIntervals::startsOf(CfgPoint P) {
  Starts Out;
  // Backwards: the starting block from P's element, then whole blocks.
  llvm::DenseSet<const CFGBlock *> Entered;
  struct Item {
    const CFGBlock *Block;
    unsigned End; ///< Elements [0, End) are scanned, last first.
  };
  llvm::SmallVector<Item, 16> Work{{P.Block, P.Index}};
  const CFGBlock *Entry = &Cfg.graph().getEntry();
  while (!Work.empty()) {
    Item It = Work.pop_back_val();
    bool Stopped = false;
    for (unsigned I = It.End; I-- > 0;) {
      if (endsInterval(FunctionCfg::stmtOf((*It.Block)[I]))) {
        Out.Barriers.push_back({It.Block, I});
        Stopped = true;
        break;
      }
    }
    if (Stopped)
      continue;
    if (It.Block == Entry || It.Block->pred_empty()) {
      Out.FromEntry |= It.Block == Entry;
      continue;
    }
    for (const CFGBlock *Pred : It.Block->preds())
      if (Pred && Entered.insert(Pred).second)
        Work.push_back({Pred, unsigned(Pred->size())});
  }
  return Out;
}

bool BarrierIntervals::anyInIntervalsOf(
    CfgPoint P, llvm::function_ref<bool(const Stmt *)> Pred) {
  Starts S = startsOf(P);
  bool Found = false;
  auto Visit = [&](const Stmt *St, CfgPoint) {
    if (endsInterval(St))
      return true;
    Found |= Pred(St);
    return Found;
  };
  auto AtExit = [&](const Stmt *) { return Found; };
  for (CfgPoint B : S.Barriers) {
    Cfg.walkForward(B, Visit, AtExit);
    if (Found)
      return true;
  }
  if (S.FromEntry)
    Cfg.walkFromEntry(Visit, AtExit);
  return Found;
}

bool BarrierIntervals::shareInterval(CfgPoint A, CfgPoint B) {
  if (A.Block == B.Block && A.Index == B.Index)
    return true;
  const Stmt *Target = FunctionCfg::stmtOf((*B.Block)[B.Index]);
  return anyInIntervalsOf(A, [&](const Stmt *S) { return S == Target; });
}

} // namespace clang::tidy::cuda
