//===- BranchCorrelation.cpp ----------------------------------------------===//

#include "BranchCorrelation.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::cuda {

namespace {

/// The variable \p E reads, when it may be correlated.
const VarDecl *correlatedVar(const Expr *E, UnchangingPredicate IsUnchanging) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !(VD->isLocalVarDecl() || isa<ParmVarDecl>(VD)) ||
      VD->getType()->isReferenceType() ||
      !VD->getType()->isIntegralOrEnumerationType() || !IsUnchanging(VD))
    return nullptr;
  return VD;
}

std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

ValueFact equalTo(int64_t V) {
  ValueFact F;
  F.Equals = V;
  return F;
}

ValueFact differentFrom(llvm::SmallVector<int64_t, 2> Values) {
  llvm::sort(Values);
  Values.erase(std::unique(Values.begin(), Values.end()), Values.end());
  ValueFact F;
  F.Excludes = std::move(Values);
  return F;
}

/// The edge of a switch on a correlated variable.
std::optional<EdgeFact> switchEdge(const SwitchStmt *Switch,
                                   const CFGBlock *From, unsigned SuccIndex,
                                   ASTContext &Ctx,
                                   UnchangingPredicate IsUnchanging) {
  const VarDecl *VD = correlatedVar(Switch->getCond(), IsUnchanging);
  if (!VD)
    return std::nullopt;
  const CFGBlock *To = (From->succ_begin() + SuccIndex)->getReachableBlock();
  if (SuccIndex + 1 < From->succ_size()) {
    const auto *Case = dyn_cast_or_null<CaseStmt>(To ? To->getLabel() : nullptr);
    if (!Case || Case->caseStmtIsGNURange())
      return std::nullopt;
    std::optional<int64_t> V = constantOf(Case->getLHS(), Ctx);
    if (!V)
      return std::nullopt;
    return EdgeFact{VD, equalTo(*V)};
  }
  // The default: none of the cases.
  llvm::SmallVector<int64_t, 2> Cases;
  for (const SwitchCase *SC = Switch->getSwitchCaseList(); SC;
       SC = SC->getNextSwitchCase()) {
    const auto *Case = dyn_cast<CaseStmt>(SC);
    if (!Case)
      continue;
    std::optional<int64_t> V =
        Case->caseStmtIsGNURange() ? std::nullopt : constantOf(Case->getLHS(), Ctx);
    if (!V)
      return std::nullopt;
    Cases.push_back(*V);
  }
  if (Cases.empty())
    return std::nullopt;
  return EdgeFact{VD, differentFrom(std::move(Cases))};
}

} // namespace

std::optional<EdgeFact> edgeFact(const CFGBlock *From, unsigned SuccIndex,
                                 ASTContext &Ctx,
                                 UnchangingPredicate IsUnchanging) {
  if (!From || SuccIndex >= From->succ_size())
    return std::nullopt;
  if (const auto *Switch =
          dyn_cast_or_null<SwitchStmt>(From->getTerminatorStmt()))
    return switchEdge(Switch, From, SuccIndex, Ctx, IsUnchanging);
  if (From->succ_size() != 2 ||
      From->succ_begin()->getReachableBlock() ==
          (From->succ_begin() + 1)->getReachableBlock())
    return std::nullopt;
  const auto *Cond = dyn_cast_or_null<Expr>(
      From->getTerminatorCondition(/*StripParens=*/true));
  bool Negated = false;
  while (Cond) {
    Cond = Cond->IgnoreParenImpCasts();
    const auto *U = dyn_cast<UnaryOperator>(Cond);
    if (!U || U->getOpcode() != UO_LNot)
      break;
    Negated = !Negated;
    Cond = U->getSubExpr();
  }
  if (!Cond)
    return std::nullopt;
  bool TrueEdge = (SuccIndex == 0) != Negated;
  // v == C, v != C (either side).
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    const VarDecl *VD = correlatedVar(L, IsUnchanging);
    std::optional<int64_t> C = VD ? constantOf(R, Ctx) : std::nullopt;
    if (!VD || !C) {
      VD = correlatedVar(R, IsUnchanging);
      C = VD ? constantOf(L, Ctx) : std::nullopt;
    }
    if (!VD || !C)
      return std::nullopt;
    bool Equal = TrueEdge == (BO->getOpcode() == BO_EQ);
    return EdgeFact{VD, Equal ? equalTo(*C) : differentFrom({*C})};
  }
  // The truth value of v.
  const VarDecl *VD = correlatedVar(Cond, IsUnchanging);
  if (!VD)
    return std::nullopt;
  return EdgeFact{VD, TrueEdge ? differentFrom({0}) : equalTo(0)};
}

bool BranchHistory::add(const EdgeFact &E) {
  auto [It, New] = Facts.try_emplace(E.Var, E.Fact);
  if (New)
    return true;
  ValueFact &Old = It->second;
  const ValueFact &F = E.Fact;
  if (Old.Equals && F.Equals)
    return *Old.Equals == *F.Equals;
  if (Old.Equals)
    return !llvm::is_contained(F.Excludes, *Old.Equals);
  if (F.Equals) {
    if (llvm::is_contained(Old.Excludes, *F.Equals))
      return false;
    Old = F;
    return true;
  }
  llvm::SmallVector<int64_t, 2> Both(Old.Excludes);
  Both.append(F.Excludes.begin(), F.Excludes.end());
  Old = differentFrom(std::move(Both));
  return true;
}

void BranchHistory::meet(const BranchHistory &O) {
  for (auto It = Facts.begin(); It != Facts.end();) {
    auto Other = O.Facts.find(It->first);
    ValueFact &A = It->second;
    if (Other != O.Facts.end() && !(A == Other->second)) {
      const ValueFact &B = Other->second;
      // What both imply: the values each side excludes.
      auto Excluded = [](const ValueFact &F, int64_t V) {
        return F.Equals ? *F.Equals != V : llvm::is_contained(F.Excludes, V);
      };
      llvm::SmallVector<int64_t, 2> Common;
      if (!A.Equals || !B.Equals) {
        const ValueFact &Set = A.Equals ? B : A, &Other2 = A.Equals ? A : B;
        for (int64_t V : Set.Excludes)
          if (Excluded(Other2, V))
            Common.push_back(V);
      }
      A = differentFrom(std::move(Common));
    }
    It = Other == O.Facts.end() || (!A.Equals && A.Excludes.empty())
             ? Facts.erase(It)
             : std::next(It);
  }
}

size_t BranchHistory::hash() const {
  llvm::hash_code H = llvm::hash_value(Facts.size());
  for (const auto &[VD, F] : Facts) {
    H = llvm::hash_combine(H, VD, F.Equals.value_or(INT64_MIN));
    for (int64_t V : F.Excludes)
      H = llvm::hash_combine(H, V);
  }
  return H;
}

std::vector<std::optional<BranchHistory>>
historiesAtEntry(const FunctionCfg &Cfg, ASTContext &Ctx,
                 UnchangingPredicate IsUnchanging) {
  const CFG &G = Cfg.graph();
  std::vector<std::optional<BranchHistory>> In(G.getNumBlockIDs());
  In[G.getEntry().getBlockID()] = BranchHistory();
  // A must-analysis: histories only shrink, so a few sweeps settle it.
  for (unsigned Sweep = 0, Changed = 1; Changed && Sweep < 20; ++Sweep) {
    Changed = 0;
    for (const CFGBlock *B : G) {
      const std::optional<BranchHistory> &Here = In[B->getBlockID()];
      if (!Here)
        continue;
      unsigned Index = 0;
      for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
        unsigned I = Index++;
        const CFGBlock *To = Succ.getReachableBlock();
        if (!To)
          continue;
        BranchHistory Out = *Here;
        if (std::optional<EdgeFact> E = edgeFact(B, I, Ctx, IsUnchanging))
          if (!Out.add(*E))
            continue;
        std::optional<BranchHistory> &Dest = In[To->getBlockID()];
        BranchHistory Before = Dest ? *Dest : BranchHistory();
        bool Had = Dest.has_value();
        if (!Dest)
          Dest = Out;
        else
          Dest->meet(Out);
        if (!Had || *Dest != Before)
          Changed = 1;
      }
    }
  }
  return In;
}

} // namespace clang::tidy::cuda
