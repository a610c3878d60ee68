//===- ResultUse.cpp ------------------------------------------------------===//

#include "ResultUse.h"
#include "CompileErrors.h"
#include "CudaApiModel.h"
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

bool recordsLastError(const CallExpr *Call) {
  const FunctionDecl *Callee = CudaApiModel::calleeOf(Call);
  static const llvm::StringRef RuntimeError[] = {"cudaError_t", "cudaError"};
  return Callee && !isa<CUDAKernelCallExpr>(Call) &&
         CudaApiModel::isTypeNamed(Callee->getReturnType(), RuntimeError);
}

namespace {
/// What a call does to the last error on a path.
enum class LastErrorStep { Neutral, Examines, Hides };

LastErrorStep functionStep(const FunctionDecl *FD, ASTContext &Ctx,
                           unsigned Depth);

/// A call of a project function defined in another file, returning
/// nothing and given nothing but constants ('checkCUDAError("copy")'): all
/// it can act on is global state, such as the runtime's last error.
bool readsOnlyGlobalState(const CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getReturnType()->isVoidType() ||
      isa<CXXMemberCallExpr>(Call) || CudaApiModel::lookup(Call) ||
      Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
    return false;
  for (const Expr *Arg : Call->arguments()) {
    Arg = Arg->IgnoreParenImpCasts();
    if (!isa<StringLiteral, IntegerLiteral, CharacterLiteral,
             FloatingLiteral, CXXBoolLiteralExpr>(Arg))
      return false;
  }
  return true;
}

LastErrorStep callStep(const CallExpr *Call, const FunctionCfg &Cfg,
                       ASTContext &Ctx, unsigned Depth) {
  const ApiFunction *Api = CudaApiModel::lookup(Call);
  if (Api && Api->ErrorQuery)
    return isResultExamined(classifyResultUse(Call, Cfg), Cfg)
               ? LastErrorStep::Examines
               : (Api->ErrorQuery->ClearsError ? LastErrorStep::Hides
                                               : LastErrorStep::Neutral);
  if (recordsLastError(Call))
    return LastErrorStep::Hides;
  const FunctionDecl *Callee = Call->getDirectCallee();
  // A helper whose body clang skipped (clangd's preamble) may examine it:
  // unknown, so taken as examined.
  if (TranslationUnitAnalyses::get(Ctx).reachesSkippedBody(Callee))
    return LastErrorStep::Examines;
  const FunctionDecl *Def = nullptr;
  // A helper whose body did not compile may examine it too.
  if (Callee && Callee->hasBody(Def) &&
      bodyDidNotCompile(Def, Ctx.getSourceManager()))
    return LastErrorStep::Examines;
  if (Callee && !Callee->hasBody(Def) && readsOnlyGlobalState(Call, Ctx))
    return LastErrorStep::Examines;
  if (Depth == 0 || !Callee || !Callee->hasBody(Def) ||
      !isAnalysableFunction(Def, Ctx.getSourceManager()))
    return LastErrorStep::Neutral;
  return functionStep(Def, Ctx, Depth - 1);
}

/// Walks from \p From (or the entry): Examines when every path examines
/// the last error before another runtime call, Hides when some path meets
/// another runtime call first, Neutral when a path exits untouched.
LastErrorStep walkLastError(const FunctionCfg &Cfg, ASTContext &Ctx,
                            const CallExpr *From, unsigned Depth) {
  bool Hidden = false, Untouched = false;
  auto Visit = [&](const Stmt *S, CfgPoint) {
    // Code that did not compile (CompileErrors.h) may examine it; a
    // launch does not.
    if (S != From && isErroneousAction(S, Ctx) && !isErroneousLaunch(S, Ctx))
      return true;
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || Call == From)
      return false;
    switch (callStep(Call, Cfg, Ctx, Depth)) {
    case LastErrorStep::Neutral:
      return false;
    case LastErrorStep::Examines:
      return true;
    case LastErrorStep::Hides:
      Hidden = true;
      return true;
    }
    return false;
  };
  auto AtExit = [&](const Stmt *) {
    Untouched = true;
    return false;
  };
  if (From) {
    std::optional<CfgPoint> Start = Cfg.pointOf(From);
    if (!Start)
      return LastErrorStep::Hides;
    Cfg.walkForward(*Start, Visit, AtExit);
  } else {
    Cfg.walkFromEntry(Visit, AtExit);
  }
  if (Hidden)
    return LastErrorStep::Hides;
  return Untouched ? LastErrorStep::Neutral : LastErrorStep::Examines;
}

LastErrorStep functionStep(const FunctionDecl *FD, ASTContext &Ctx,
                           unsigned Depth) {
  std::shared_ptr<const FunctionCfg> Cfg =
      TranslationUnitAnalyses::get(Ctx).sharedCfgOf(FD);
  if (!Cfg)
    return LastErrorStep::Neutral;
  return walkLastError(*Cfg, Ctx, nullptr, Depth);
}
} // namespace

bool lastErrorExaminedAfter(const CallExpr *Call, const FunctionCfg &Cfg,
                            ASTContext &Ctx) {
  if (!recordsLastError(Call))
    return false;
  return walkLastError(Cfg, Ctx, Call, /*Depth=*/3) ==
         LastErrorStep::Examines;
}

bool sameMacroArgument(const Expr *A, const Expr *B,
                       const SourceManager &SM) {
  SourceLocation LA = A->getBeginLoc(), LB = B->getBeginLoc();
  if (A == B || !LA.isMacroID() || !LB.isMacroID() ||
      !SM.isMacroArgExpansion(LA) || !SM.isMacroArgExpansion(LB))
    return false;
  if (SM.getSpellingLoc(LA) != SM.getSpellingLoc(LB) ||
      SM.getSpellingLoc(A->getEndLoc()) != SM.getSpellingLoc(B->getEndLoc()))
    return false;
  // The same written argument, in the same use of the macro.
  return SM.getExpansionLoc(LA) == SM.getExpansionLoc(LB);
}

const CallExpr *reevaluatedOnFailure(const CallExpr *Call,
                                     const FunctionCfg &Cfg) {
  const SourceManager &SM = Cfg.function()->getASTContext().getSourceManager();
  if (!Call->getBeginLoc().isMacroID() ||
      !SM.isMacroArgExpansion(Call->getBeginLoc()))
    return nullptr;
  // The conditions that contain the call.
  const ParentMap &PM = Cfg.parents();
  llvm::SmallPtrSet<const Stmt *, 8> Conds;
  for (const Stmt *Cur = Call, *P = PM.getParent(Cur); P;
       Cur = P, P = PM.getParent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P); If && If->getCond() == Cur)
      Conds.insert(If);
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P);
        CO && CO->getCond() == Cur)
      Conds.insert(CO);
  }
  if (Conds.empty())
    return nullptr;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &E : *B) {
      const auto *Other = dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(E));
      if (!Other || CudaApiModel::calleeOf(Other) != CudaApiModel::calleeOf(Call) ||
          !sameMacroArgument(Call, Other, SM))
        continue;
      // Inside a branch of a condition that holds the first evaluation.
      for (const Stmt *Cur = Other, *P = PM.getParent(Cur); P;
           Cur = P, P = PM.getParent(P)) {
        if (!Conds.count(P))
          continue;
        if (const auto *If = dyn_cast<IfStmt>(P);
            If && If->getCond() != Cur)
          return Other;
        if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P);
            CO && CO->getCond() != Cur)
          return Other;
      }
    }
  return nullptr;
}

} // namespace clang::tidy::cuda
