//===- ResultUse.cpp ------------------------------------------------------===//

#include "ResultUse.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::cuda {

static bool isVoidCast(const Stmt *S) {
  const auto *Cast = dyn_cast<ExplicitCastExpr>(S);
  return Cast && Cast->getType()->isVoidType();
}

static const VarDecl *localVariable(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
      VD->getType().isVolatileQualified() || VD->getType()->isReferenceType())
    return nullptr;
  return VD;
}

ResultUse classifyResultUse(const Expr *E, const FunctionCfg &Cfg) {
  const ParentMap &PM = Cfg.parents();
  const Stmt *Cur = E;
  while (true) {
    const Stmt *P = PM.getParent(Cur);
    if (!P)
      return {ResultUse::Discarded, nullptr, nullptr, Cur};
    if (isa<ParenExpr, ExprWithCleanups, ConstantExpr,
            MaterializeTemporaryExpr, CXXBindTemporaryExpr>(P)) {
      Cur = P;
      continue;
    }
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P)) {
      if (ICE->getType()->isVoidType())
        return {ResultUse::Discarded, nullptr, nullptr, Cur};
      Cur = P;
      continue;
    }
    if (isVoidCast(P))
      return {ResultUse::CastToVoid};
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (CO->getCond() == Cur)
        return {ResultUse::Consumed};
      Cur = P; // The value flows out of the conditional.
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->getOpcode() == BO_Comma) {
        if (BO->getLHS() == Cur)
          return {ResultUse::Discarded, nullptr, nullptr, P};
        Cur = P;
        continue;
      }
      if (BO->getOpcode() == BO_Assign && BO->getRHS() == Cur) {
        if (const VarDecl *VD = localVariable(BO->getLHS()))
          return {ResultUse::Stored, VD, BO};
      }
      return {ResultUse::Consumed};
    }
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->getInit() == Cur && VD->hasLocalStorage() &&
              !VD->getType()->isReferenceType() &&
              !VD->getType().isVolatileQualified() &&
              !VD->hasAttr<UnusedAttr>())
            return {ResultUse::Stored, VD, DS};
      return {ResultUse::Consumed};
    }
    if (isa<Expr>(P))
      return {ResultUse::Consumed};
    // A statement: the value is consumed when it is a condition or returned.
    if (isa<ReturnStmt, CoreturnStmt, SwitchStmt>(P))
      return {ResultUse::Consumed};
    if (const auto *If = dyn_cast<IfStmt>(P))
      if (If->getCond() == Cur)
        return {ResultUse::Consumed};
    if (const auto *W = dyn_cast<WhileStmt>(P))
      if (W->getCond() == Cur)
        return {ResultUse::Consumed};
    if (const auto *D = dyn_cast<DoStmt>(P))
      if (D->getCond() == Cur)
        return {ResultUse::Consumed};
    if (const auto *F = dyn_cast<ForStmt>(P))
      if (F->getCond() == Cur)
        return {ResultUse::Consumed};
    return {ResultUse::Discarded, nullptr, nullptr, Cur};
  }
}

StoredValueFate followStoredValue(const ResultUse &Use,
                                  const FunctionCfg &Cfg) {
  StoredValueFate Fate;
  const VarDecl *VD = Use.Var;
  if (!VD || !Use.StoreStmt)
    return Fate;
  const ParentMap &PM = Cfg.parents();
  if (Cfg.hasIndirectUse(VD))
    return Fate;

  std::optional<CfgPoint> Start = isa<DeclStmt>(Use.StoreStmt)
                                      ? Cfg.declarationPointOf(VD)
                                      : Cfg.pointOf(Use.StoreStmt);
  if (!Start)
    return Fate;

  bool Read = false;
  Cfg.walkForward(
      *Start,
      [&](const Stmt *S, CfgPoint) {
        if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
          if (DRE->getDecl() != VD)
            return false;
          const Stmt *P = PM.getParentIgnoreParens(DRE);
          const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
          if (BO && BO->getOpcode() == BO_Assign &&
              BO->getLHS()->IgnoreParens() == DRE)
            return false; // The target of a store, not a read.
          Read = true;
          return true;
        }
        const auto *BO = dyn_cast<BinaryOperator>(S);
        if (BO && BO->getOpcode() == BO_Assign) {
          if (localVariable(BO->getLHS()) == VD) {
            if (!Fate.OverwrittenAt)
              Fate.OverwrittenAt = BO;
            return true; // Overwritten: this path is done.
          }
        }
        if (const auto *DS = dyn_cast<DeclStmt>(S))
          for (const Decl *D : DS->decls())
            if (D == VD)
              return true; // A new instance of the variable (loop).
        return false;
      },
      [&](const Stmt *) { return false; });
  Fate.MayBeRead = Read;
  return Fate;
}

bool isResultExamined(const ResultUse &Use, const FunctionCfg &Cfg) {
  switch (Use.K) {
  case ResultUse::Discarded:
  case ResultUse::CastToVoid:
    return false;
  case ResultUse::Consumed:
    return true;
  case ResultUse::Stored:
    return followStoredValue(Use, Cfg).MayBeRead;
  }
  return true;
}

} // namespace clang::tidy::cuda
