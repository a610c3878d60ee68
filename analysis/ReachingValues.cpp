//===- ReachingValues.cpp -------------------------------------------------===//

#include "ReachingValues.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include <deque>

namespace clang::tidy::cuda {

namespace {

const VarDecl *assignedVar(const Stmt *S, const Expr *&Value) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
    if (BO->isAssignmentOp() && DRE) {
      Value = BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr;
      return dyn_cast<VarDecl>(DRE->getDecl());
    }
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    if (DS->isSingleDecl())
      if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl())) {
        Value = VD->getInit();
        return VD;
      }
  return nullptr;
}

std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// The state of one path: what the variable holds, which arm of each `?:`
/// it took last, and what its branches say.
struct PathState {
  std::optional<int64_t> Value; ///< None: not yet stored.
  const Stmt *Store = nullptr;
  llvm::SmallVector<std::pair<const ConditionalOperator *, unsigned>, 2> Arms;
  BranchHistory History;

  unsigned armOf(const ConditionalOperator *CO) const {
    for (const auto &[C, Arm] : Arms)
      if (C == CO)
        return Arm;
    return ~0u;
  }
  void setArm(const ConditionalOperator *CO, unsigned Arm) {
    for (auto &[C, A] : Arms)
      if (C == CO) {
        A = Arm;
        return;
      }
    Arms.push_back({CO, Arm});
  }
  size_t hash() const {
    size_t H = llvm::hash_combine(Value.has_value(), Value.value_or(0), Store,
                                  History.hash());
    for (const auto &[C, A] : Arms)
      H = llvm::hash_combine(H, C, A);
    return H;
  }
};

} // namespace

std::optional<llvm::SmallVector<ReachingValue, 4>>
reachingConstants(const VarDecl *VD, const Stmt *At, const FunctionCfg &Cfg,
                  ASTContext &Ctx, UnchangingPredicate IsUnchanging) {
  if (!VD || !VD->isLocalVarDecl() || VD->getType()->isReferenceType() ||
      !VD->getType()->isIntegralOrEnumerationType() || Cfg.hasIndirectUse(VD))
    return std::nullopt;
  // The `?:` whose value a store gives the variable: their arms matter.
  llvm::DenseSet<const ConditionalOperator *> Chosen;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &E : *B) {
      const Stmt *S = FunctionCfg::stmtOf(E);
      const Expr *Value = nullptr;
      if (!S || assignedVar(S, Value) != VD)
        continue;
      if (isa<BinaryOperator>(S) && !Value)
        return std::nullopt; // '+=' and the like.
      if (const auto *CO = dyn_cast_or_null<ConditionalOperator>(
              Value ? Value->IgnoreParenImpCasts() : nullptr))
        Chosen.insert(CO);
    }
  if (const auto *U = dyn_cast<UnaryOperator>(At); U && U->isIncrementDecrementOp())
    return std::nullopt;

  llvm::SmallVector<ReachingValue, 4> Result;
  bool Failed = false;
  llvm::DenseSet<std::pair<unsigned, size_t>> Seen;
  std::deque<std::pair<const CFGBlock *, PathState>> Work;
  Work.push_back({&Cfg.graph().getEntry(), PathState()});
  unsigned Steps = 0;
  while (!Work.empty() && !Failed) {
    if (++Steps > 20000)
      return std::nullopt;
    auto [B, St] = std::move(Work.front());
    Work.pop_front();
    if (!Seen.insert({B->getBlockID(), St.hash()}).second)
      continue;
    bool Stop = false;
    for (const CFGElement &E : *B) {
      const Stmt *S = FunctionCfg::stmtOf(E);
      if (!S)
        continue;
      if (const auto *U = dyn_cast<UnaryOperator>(S);
          U && U->isIncrementDecrementOp())
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens());
            DRE && DRE->getDecl() == VD)
          return std::nullopt;
      const Expr *Value = nullptr;
      if (assignedVar(S, Value) == VD && Value) {
        const Expr *V = Value->IgnoreParenImpCasts();
        std::optional<int64_t> C;
        if (const auto *CO = dyn_cast<ConditionalOperator>(V)) {
          unsigned Arm = St.armOf(CO);
          if (Arm <= 1)
            C = constantOf(Arm == 0 ? CO->getTrueExpr() : CO->getFalseExpr(),
                           Ctx);
        } else {
          C = constantOf(V, Ctx);
        }
        if (!C)
          return std::nullopt;
        St.Value = C;
        St.Store = S;
      }
      if (S == At) {
        if (!St.Value) {
          Failed = true; // Read before any store reaches it.
          break;
        }
        ReachingValue RV{*St.Value, St.Store};
        if (llvm::none_of(Result, [&](const ReachingValue &O) {
              return O.Value == RV.Value && O.Store == RV.Store;
            }))
          Result.push_back(RV);
        Stop = true;
        break;
      }
    }
    if (Stop || Failed || B->hasNoReturnElement())
      continue;
    const auto *CO =
        dyn_cast_or_null<ConditionalOperator>(B->getTerminatorStmt());
    unsigned I = 0;
    for (auto It = B->succ_begin(); It != B->succ_end(); ++It, ++I) {
      const CFGBlock *Succ = It->getReachableBlock();
      if (!Succ)
        continue;
      PathState Next = St;
      if (CO && Chosen.count(CO))
        Next.setArm(CO, I);
      if (std::optional<EdgeFact> F = edgeFact(B, I, Ctx, IsUnchanging))
        if (!Next.History.add(*F))
          continue;
      Work.push_back({Succ, std::move(Next)});
    }
  }
  if (Failed)
    return std::nullopt;
  return Result;
}

} // namespace clang::tidy::cuda
