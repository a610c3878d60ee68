//===- BranchCorrelation.cpp ----------------------------------------------===//

#include "BranchCorrelation.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
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

using Values = llvm::SmallVector<int64_t, 2>;

Values sorted(Values V) {
  llvm::sort(V);
  V.erase(std::unique(V.begin(), V.end()), V.end());
  return V;
}

ValueFact oneOf(Values V) {
  ValueFact F;
  F.HasOneOf = true;
  F.OneOf = sorted(std::move(V));
  return F;
}

ValueFact equalTo(int64_t V) { return oneOf({V}); }

ValueFact differentFrom(Values V) {
  ValueFact F;
  F.Excludes = sorted(std::move(V));
  return F;
}

/// The values of \p A that \p Keep accepts.
Values filter(const Values &A, llvm::function_ref<bool(int64_t)> Keep) {
  Values R;
  for (int64_t V : A)
    if (Keep(V))
      R.push_back(V);
  return R;
}

/// The most values a one-of fact keeps before it is dropped.
constexpr size_t MaxOneOf = 16;

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
  auto It = llvm::lower_bound(
      Facts, E.Var, [](const Entry &A, const VarDecl *V) { return A.first < V; });
  if (It == Facts.end() || It->first != E.Var) {
    Facts.insert(It, Entry(E.Var, E.Fact));
    return true;
  }
  ValueFact &Old = It->second;
  const ValueFact &F = E.Fact;
  auto In = [](const Values &S) {
    return [&S](int64_t V) { return llvm::is_contained(S, V); };
  };
  auto NotIn = [](const Values &S) {
    return [&S](int64_t V) { return !llvm::is_contained(S, V); };
  };
  if (Old.HasOneOf || F.HasOneOf) {
    Values R = Old.HasOneOf && F.HasOneOf ? filter(Old.OneOf, In(F.OneOf))
               : Old.HasOneOf             ? filter(Old.OneOf, NotIn(F.Excludes))
                                          : filter(F.OneOf, NotIn(Old.Excludes));
    if (R.empty())
      return false; // No value satisfies both.
    Old = oneOf(std::move(R));
    return true;
  }
  Values Both(Old.Excludes);
  Both.append(F.Excludes.begin(), F.Excludes.end());
  Old = differentFrom(std::move(Both));
  return true;
}

bool BranchHistory::meet(const BranchHistory &O) {
  if (this == &O)
    return false;
  bool Changed = false;
  auto Other = O.Facts.begin();
  for (auto It = Facts.begin(); It != Facts.end();) {
    // Both are sorted: walk O alongside.
    while (Other != O.Facts.end() && Other->first < It->first)
      ++Other;
    if (Other == O.Facts.end() || Other->first != It->first) {
      It = Facts.erase(It);
      Changed = true;
      continue;
    }
    ValueFact &A = It->second;
    const ValueFact &B = Other->second;
    if (A == B) {
      ++It;
      continue;
    }
    ValueFact Before = A;
    if (A.HasOneOf && B.HasOneOf) {
      Values U(A.OneOf);
      U.append(B.OneOf.begin(), B.OneOf.end());
      A = oneOf(std::move(U));
    } else if (A.HasOneOf || B.HasOneOf) {
      // Excluded on the one side and not a possible value on the other.
      const ValueFact &Set = A.HasOneOf ? A : B, &Ex = A.HasOneOf ? B : A;
      A = differentFrom(filter(Ex.Excludes, [&](int64_t V) {
        return !llvm::is_contained(Set.OneOf, V);
      }));
    } else {
      A = differentFrom(filter(A.Excludes, [&](int64_t V) {
        return llvm::is_contained(B.Excludes, V);
      }));
    }
    bool Empty = A.HasOneOf ? A.OneOf.size() > MaxOneOf : A.Excludes.empty();
    Changed |= Empty || !(A == Before);
    It = Empty ? Facts.erase(It) : std::next(It);
  }
  return Changed;
}

void BranchHistory::forget(const VarDecl *V) {
  llvm::erase_if(Facts, [&](const Entry &E) { return E.first == V; });
}

const VarDecl *variableStoredBy(const Stmt *S) {
  const Expr *Target = nullptr;
  // A declaration met again in a loop gives the variable a new value.
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(S);
      DS && DS->isSingleDecl())
    return dyn_cast<VarDecl>(DS->getSingleDecl());
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S);
      BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(S);
           UO && UO->isIncrementDecrementOp())
    Target = UO->getSubExpr();
  const auto *DRE =
      Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

size_t BranchHistory::hash() const {
  llvm::hash_code H = llvm::hash_value(Facts.size());
  for (const auto &[VD, F] : Facts) {
    H = llvm::hash_combine(H, VD, F.HasOneOf);
    for (int64_t V : F.HasOneOf ? F.OneOf : F.Excludes)
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
  // The fact of each edge, found once. A function whose branches say
  // nothing about unchanging variables has empty histories everywhere.
  std::vector<llvm::SmallVector<std::optional<EdgeFact>, 2>> Facts(
      G.getNumBlockIDs());
  bool AnyFact = false;
  for (const CFGBlock *B : G) {
    auto &Here = Facts[B->getBlockID()];
    for (unsigned I = 0; I < B->succ_size(); ++I) {
      Here.push_back(edgeFact(B, I, Ctx, IsUnchanging));
      AnyFact |= Here.back().has_value();
    }
  }
  if (!AnyFact)
    return In;
  // A must-analysis: histories only shrink. Sweeps in reverse post-order
  // settle it in a few passes (loops add one each).
  PostOrderCFGView Order(&G);
  for (unsigned Sweep = 0, Changed = 1; Changed && Sweep < 20; ++Sweep) {
    Changed = 0;
    for (const CFGBlock *B : Order) {
      const std::optional<BranchHistory> &Entry = In[B->getBlockID()];
      if (!Entry)
        continue;
      // What the block's stores leave of the history.
      std::optional<BranchHistory> Here = *Entry;
      for (const CFGElement &E : *B)
        if (const VarDecl *V = variableStoredBy(FunctionCfg::stmtOf(E)))
          Here->forget(V);
      unsigned Index = 0;
      for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
        unsigned I = Index++;
        const CFGBlock *To = Succ.getReachableBlock();
        if (!To)
          continue;
        // The history along this edge: Here, with the edge's fact added.
        std::optional<BranchHistory> WithEdge;
        const BranchHistory *Out = &*Here;
        if (const std::optional<EdgeFact> &E = Facts[B->getBlockID()][I]) {
          WithEdge = *Here;
          if (!WithEdge->add(*E))
            continue;
          Out = &*WithEdge;
        }
        std::optional<BranchHistory> &Dest = In[To->getBlockID()];
        if (!Dest) {
          Dest = *Out;
          Changed = 1;
        } else if (Dest->meet(*Out)) {
          Changed = 1;
        }
      }
    }
  }
  return In;
}

} // namespace clang::tidy::cuda
