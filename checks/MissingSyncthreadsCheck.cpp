//===- MissingSyncthreadsCheck.cpp ----------------------------------------===//

#include "MissingSyncthreadsCheck.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "SourceLocations.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void MissingSyncthreadsCheck::onStartOfTranslationUnit() {
  TranslationUnitAnalyses::reset();
  Analysis.reset();
  Reported.clear();
}

void MissingSyncthreadsCheck::registerPPCallbacks(const SourceManager &,
                                                  Preprocessor *PP,
                                                  Preprocessor *) {
  Arch.attach(*PP);
}

void MissingSyncthreadsCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"),
      this);
}

namespace {

constexpr auto &constantOf = ThreadIndexAnalysis::integerConstant;

const VarDecl *varOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(ThreadIndexAnalysis::strip(E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

} // namespace

/// Stored values of each variable, and the variables whose address escapes.
struct MissingSyncthreadsCheck::StoreFacts
    : RecursiveASTVisitor<MissingSyncthreadsCheck::StoreFacts> {
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Values;
  llvm::DenseSet<const VarDecl *> Escaped;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      if (const VarDecl *VD = varOf(BO->getLHS()))
        Values[VD].push_back(BO->getRHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *VD = varOf(UO->getSubExpr()))
        Escaped.insert(VD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType())
      if (const VarDecl *T = varOf(VD->getInit()))
        Escaped.insert(T);
    return true;
  }
};

namespace {

bool isSharedArray(const VarDecl *VD) {
  if (!VD || !VD->hasAttr<CUDASharedAttr>())
    return false;
  const Type *T = VD->getType()->getUnqualifiedDesugaredType();
  const auto *AT = dyn_cast<ArrayType>(T);
  return AT && !AT->getElementType()->isArrayType();
}

bool isBarrierFor(const Stmt *S, BarrierScope &Scope) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  if (!Call)
    return false;
  auto B = CudaApiModel::barrierOf(Call);
  if (!B)
    return false;
  Scope = B->Scope;
  return true;
}

} // namespace

bool MissingSyncthreadsCheck::isThreadId(const Expr *E,
                                         const FunctionDecl *FD) {
  E = ThreadIndexAnalysis::strip(E);
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
    return Src == TS_ThreadInBlock && Dim == 0;
  const VarDecl *VD = varOf(E);
  if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
      Analysis->isModified(VD, FD) || CurrentStores->Escaped.count(VD))
    return false;
  const Expr *Init = ThreadIndexAnalysis::strip(VD->getInit());
  return ThreadIndexAnalysis::isThreadQuery(Init, Src, Dim) &&
         Src == TS_ThreadInBlock && Dim == 0;
}

bool MissingSyncthreadsCheck::isUniform(const Expr *E, const FunctionDecl *FD,
                                        int Depth) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 8)
    return false;
  if (constantOf(E, FD->getASTContext()))
    return true;
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
    return Src == TS_BlockInGrid || Src == TS_BlockDim || Src == TS_GridDim;
  if (const VarDecl *VD = varOf(E)) {
    if (!VD->getType()->isIntegralOrEnumerationType() ||
        CurrentStores->Escaped.count(VD) || VD->hasGlobalStorage())
      return false;
    if (!isa<ParmVarDecl>(VD)) {
      if (!VD->isLocalVarDecl() || !VD->getInit() ||
          !isUniform(VD->getInit(), FD, Depth + 1))
        return false;
    }
    auto It = CurrentStores->Values.find(VD);
    if (It != CurrentStores->Values.end())
      for (const Expr *V : It->second)
        if (V != VD->getInit() && !isUniform(V, FD, Depth + 1))
          return false;
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add: case BO_Sub: case BO_Mul: case BO_Div: case BO_Rem:
    case BO_Shl: case BO_Shr:
      return isUniform(BO->getLHS(), FD, Depth + 1) &&
             isUniform(BO->getRHS(), FD, Depth + 1);
    default:
      return false;
    }
  }
  return false;
}

bool MissingSyncthreadsCheck::readIndex(const Expr *E, int64_t Coeff,
                                        Access &A, const FunctionDecl *FD,
                                        ASTContext &Ctx) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E)
    return false;
  if (auto V = constantOf(E, Ctx)) {
    A.Const += Coeff * *V;
    return true;
  }
  if (isThreadId(E, FD)) {
    if (A.Thread && A.Coeff != 0 &&
        Analysis->variablePartKey(A.Thread) != Analysis->variablePartKey(E))
      return false;
    A.Coeff += Coeff;
    A.Thread = E;
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add:
      return readIndex(BO->getLHS(), Coeff, A, FD, Ctx) &&
             readIndex(BO->getRHS(), Coeff, A, FD, Ctx);
    case BO_Sub:
      return readIndex(BO->getLHS(), Coeff, A, FD, Ctx) &&
             readIndex(BO->getRHS(), -Coeff, A, FD, Ctx);
    case BO_Mul:
      if (!isUniform(E, FD, 0)) {
        if (auto V = constantOf(BO->getLHS(), Ctx))
          return readIndex(BO->getRHS(), Coeff * *V, A, FD, Ctx);
        if (auto V = constantOf(BO->getRHS(), Ctx))
          return readIndex(BO->getLHS(), Coeff * *V, A, FD, Ctx);
        return false;
      }
      break;
    default:
      break;
    }
  }
  if (!isUniform(E, FD, 0))
    return false;
  std::string Key = ThreadIndexAnalysis::textOf(E, Ctx);
  A.Uniform[Key] += Coeff;
  A.UniformExprs[Key] = E;
  if (A.Uniform[Key] == 0) {
    A.Uniform.erase(Key);
    A.UniformExprs.erase(Key);
  }
  // The variables the term reads: their assignments end what guards say.
  struct Refs : RecursiveASTVisitor<Refs> {
    Access &A;
    explicit Refs(Access &A) : A(A) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        A.Vars.push_back(VD);
      return true;
    }
  } R(A);
  R.TraverseStmt(const_cast<Expr *>(E));
  return true;
}

bool MissingSyncthreadsCheck::guardedBelow(const Access &A,
                                           const std::string &RHSKey,
                                           int64_t Max,
                                           const FunctionDecl *FD) {
  if (!A.Thread)
    return false;
  // Any of the facts on the thread's index may be the one that separates
  // the two threads (t < cols and t < s both hold inside a guarded
  // reduction).
  const FactList *Facts = Analysis->boundsAt(A.Point, FD);
  if (!Facts)
    return false;
  std::string Key = Analysis->variablePartKey(A.Thread);
  for (const BoundFact *F : *Facts)
    if (F->K == BoundFact::Less && F->LHSKey == Key && F->RHSKey == RHSKey &&
        F->RHSConst <= Max)
      return true;
  return false;
}

bool MissingSyncthreadsCheck::hasThreadGuard(const Access &At,
                                             const Expr *Thread,
                                             const FunctionDecl *FD) {
  const FactList *Facts = Analysis->boundsAt(At.Point, FD);
  if (!Facts)
    return true; // Unknown: stay silent.
  for (const BoundFact *F : *Facts)
    if (F->Guard && mentionsThread(F->Guard, FD))
      return true;
  // Facts keep only upper bounds: look at the statements around the
  // access for the other conditions (tid == 0, tid >= off).
  const ParentMap &PM =
      TranslationUnitAnalyses::get(FD->getASTContext()).cfgOf(FD)->parents();
  for (const Stmt *S = At.At; S; S = PM.getParent(S)) {
    const Expr *Cond = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(S))
      Cond = If->getCond();
    else if (const auto *W = dyn_cast<WhileStmt>(S))
      Cond = W->getCond();
    else if (const auto *For = dyn_cast<ForStmt>(S))
      Cond = For->getCond();
    if (Cond && mentionsThread(Cond, FD))
      return true;
  }
  return false;
}

bool MissingSyncthreadsCheck::mentionsThread(const Expr *E,
                                             const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    MissingSyncthreadsCheck &C;
    const FunctionDecl *FD;
    bool Found = false;
    Finder(MissingSyncthreadsCheck &C, const FunctionDecl *FD)
        : C(C), FD(FD) {}
    bool VisitExpr(Expr *E) {
      if (E->getType()->isIntegralOrEnumerationType() &&
          (C.Analysis->valueOf(E, FD).Sources & TS_ThreadInBlock))
        Found = true;
      return !Found;
    }
  } F(*this, FD);
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

bool MissingSyncthreadsCheck::writerIsOneThread(const Access &W,
                                                const FunctionDecl *FD) {
  // The write sits in the then-branch of 'if (tid == c)'.
  const ParentMap &PM =
      TranslationUnitAnalyses::get(FD->getASTContext()).cfgOf(FD)->parents();
  const Stmt *Child = W.At;
  for (const Stmt *S = PM.getParent(Child); S;
       Child = S, S = PM.getParent(S)) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->getThen() != Child)
      continue;
    const auto *Eq =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(If->getCond()));
    if (!Eq || Eq->getOpcode() != BO_EQ)
      continue;
    ASTContext &Ctx = FD->getASTContext();
    if ((isThreadId(Eq->getLHS(), FD) && constantOf(Eq->getRHS(), Ctx)) ||
        (isThreadId(Eq->getRHS(), FD) && constantOf(Eq->getLHS(), Ctx)))
      return true;
  }
  return false;
}

int64_t MissingSyncthreadsCheck::warpBound(const Access &A,
                                           const FunctionDecl *FD) {
  if (!A.Thread || A.Coeff != 1)
    return -1;
  const BoundFact *F = Analysis->boundOn(A.Thread, A.Point, FD);
  if (F && F->K == BoundFact::Less && F->RHSKey.empty())
    return F->RHSConst;
  return -1;
}

bool MissingSyncthreadsCheck::conflicts(const Access &First,
                                        const Access &Second, bool GuardsHold,
                                        const FunctionDecl *FD) {
  if (First.Array != Second.Array)
    return false;
  if (!((First.Write && Second.Read) || (First.Read && Second.Write)))
    return false;
  if (First.Coeff == 1 && Second.Coeff == 1) {
    // tFirst = tSecond + Diff + K.
    std::map<std::string, int64_t> Diff = Second.Uniform;
    for (const auto &[Key, C] : First.Uniform)
      if ((Diff[Key] -= C) == 0)
        Diff.erase(Key);
    int64_t K = Second.Const - First.Const;
    // After the guards' variables change, a read and a later write by
    // another thread are both still guarded (a tree reduction's halving
    // stride keeps them apart): only a read-after-write is reported then.
    bool Unguarded = !hasThreadGuard(First, First.Thread, FD) &&
                     !hasThreadGuard(Second, Second.Thread, FD);
    bool AfterChange = (First.Write && Second.Read) || Unguarded;
    if (Diff.empty()) {
      if (K == 0)
        return false; // The same thread.
      if (!GuardsHold)
        return AfterChange;
      // The larger of the two threads is past a constant guard.
      if (K > 0)
        return !guardedBelow(First, "", K, FD);
      return !guardedBelow(Second, "", -K, FD);
    }
    if (Diff.size() != 1)
      return false;
    const auto &[Key, C] = *Diff.begin();
    if (C != 1 && C != -1)
      return false;
    // tid and tid + blockDim.x are two slots of one thread: no other
    // thread is blockDim.x away.
    const Expr *X = First.UniformExprs.count(Key)
                        ? First.UniformExprs.at(Key)
                        : Second.UniformExprs.at(Key);
    ThreadSource Src;
    unsigned Dim;
    if (K == 0 && ThreadIndexAnalysis::isThreadQuery(
                      ThreadIndexAnalysis::strip(X), Src, Dim) &&
        Src == TS_BlockDim && Dim == 0)
      return false;
    if (!GuardsHold)
      return AfterChange;
    std::string XKey = Analysis->variablePartKey(
        First.UniformExprs.count(Key) ? First.UniformExprs.at(Key)
                                      : Second.UniformExprs.at(Key));
    if (C == 1 && K >= 0)
      return !guardedBelow(First, XKey, K, FD);
    if (C == -1 && K <= 0)
      return !guardedBelow(Second, XKey, -K, FD);
    return true;
  }
  if ((First.Coeff == 1 && Second.Coeff == -1) ||
      (First.Coeff == -1 && Second.Coeff == 1))
    return !hasThreadGuard(First, First.Thread, FD) &&
           !hasThreadGuard(Second, Second.Thread, FD);
  if (First.Coeff == 1 && Second.Coeff == 0 && First.Write &&
      Second.Read && !Second.Write)
    return !hasThreadGuard(First, First.Thread, FD) &&
           !hasThreadGuard(Second, First.Thread, FD);
  if (First.Coeff == 0 && Second.Coeff == 0 && First.Write && Second.Read &&
      !Second.Write && First.Uniform == Second.Uniform &&
      First.Const == Second.Const) {
    // One writer (if (tid == 0) s[0] = ...), and every thread reads.
    return writerIsOneThread(First, FD) &&
           !hasThreadGuard(Second, nullptr, FD);
  }
  return false;
}

void MissingSyncthreadsCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  const SourceManager &SM = *Result.SourceManager;
  if (!isAnalysableFunction(FD, SM) || !isSeenWhole(FD, SM, Arch))
    return;
  ASTContext &Ctx = *Result.Context;
  if (!Analysis)
    Analysis = std::make_unique<ThreadIndexAnalysis>(Ctx);
  const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).beginFunction(FD);
  if (!Cfg)
    return;
  StoreFacts St;
  St.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  CurrentStores = &St;
  const ParentMap &PM = Cfg->parents();

  // Accesses, by the CFG element where they happen.
  std::vector<Access> Accesses;
  for (const CFGBlock *B : Cfg->graph())
    for (const CFGElement &El : *B) {
      const auto *AS =
          dyn_cast_or_null<ArraySubscriptExpr>(FunctionCfg::stmtOf(El));
      if (!AS)
        continue;
      const auto *Base = dyn_cast<DeclRefExpr>(
          ThreadIndexAnalysis::strip(AS->getBase()));
      const auto *VD = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
      if (!isSharedArray(VD))
        continue;
      Access A;
      A.At = AS;
      A.Array = VD;
      const Stmt *P = PM.getParentIgnoreParens(const_cast<ArraySubscriptExpr *>(AS));
      if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
          BO && BO->isAssignmentOp() &&
          ThreadIndexAnalysis::strip(BO->getLHS()) == AS) {
        A.Write = true;
        A.Read = BO->isCompoundAssignmentOp();
        A.Point = BO;
      } else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
                 UO && UO->isIncrementDecrementOp()) {
        A.Read = A.Write = true;
        A.Point = UO;
      } else if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P);
                 IC && IC->getCastKind() == CK_LValueToRValue) {
        A.Read = true;
        A.Point = AS;
      } else {
        continue;
      }
      if (!Cfg->pointOf(A.Point))
        continue;
      if (!readIndex(AS->getIdx(), 1, A, FD, Ctx) ||
          (A.Coeff != 0 && A.Coeff != 1 && A.Coeff != -1))
        continue;
      Accesses.push_back(std::move(A));
    }
  llvm::DenseMap<const Stmt *, llvm::SmallVector<unsigned, 2>> AtPoint;
  llvm::DenseSet<const VarDecl *> GuardVars;
  for (unsigned I = 0; I < Accesses.size(); ++I) {
    AtPoint[Accesses[I].Point].push_back(I);
    for (const VarDecl *V : Accesses[I].Vars)
      GuardVars.insert(V);
  }
  auto Modifies = [&](const Stmt *S) {
    const VarDecl *VD = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      VD = varOf(BO->getLHS());
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && UO->isIncrementDecrementOp())
      VD = varOf(UO->getSubExpr());
    return VD && GuardVars.count(VD);
  };

  for (const Access &First : Accesses) {
    int64_t Warp = warpBound(First, FD);
    bool WarpConfined = Warp >= 0 && Warp <= 32;
    auto StopsAt = [&](const Stmt *S) {
      BarrierScope Scope;
      if (!isBarrierFor(S, Scope))
        return false;
      return Scope == BarrierScope::Block || WarpConfined;
    };
    auto Check = [&](const Stmt *S, bool GuardsHold) {
      auto It = AtPoint.find(S);
      if (It == AtPoint.end())
        return;
      for (unsigned I : It->second) {
        const Access &Second = Accesses[I];
        if (Reported.count(Second.At) || !conflicts(First, Second, GuardsHold, FD))
          continue;
        Reported.insert(Second.At);
        bool RAW = First.Write && Second.Read;
        diag(userVisibleLocation(Second.At->getBeginLoc(), SM),
             "%select{read of|write to}0 shared '%1' at '%2' may %select{see "
             "the write of another thread|overwrite the value another thread "
             "reads}0: no barrier between them on this path")
            << (RAW ? 0 : 1) << Second.Array->getName()
            << ThreadIndexAnalysis::textOf(cast<ArraySubscriptExpr>(Second.At)->getIdx(), Ctx);
        diag(userVisibleLocation(First.At->getBeginLoc(), SM),
             "%select{written|read}0 here at '%1'", DiagnosticIDs::Note)
            << (RAW ? 0 : 1)
            << ThreadIndexAnalysis::textOf(cast<ArraySubscriptExpr>(First.At)->getIdx(), Ctx);
      }
    };
    std::optional<CfgPoint> From = Cfg->pointOf(First.Point);
    llvm::SmallVector<CfgPoint, 4> Mods;
    Cfg->walkForward(
        *From,
        [&](const Stmt *S, CfgPoint P) {
          if (StopsAt(S))
            return true;
          Check(S, true);
          if (Modifies(S)) {
            Mods.push_back(P);
            return true;
          }
          return false;
        },
        [](const Stmt *) { return false; });
    for (CfgPoint M : Mods)
      Cfg->walkForward(
          M,
          [&](const Stmt *S, CfgPoint) {
            if (StopsAt(S))
              return true;
            Check(S, false);
            return false;
          },
          [](const Stmt *) { return false; });
  }
  CurrentStores = nullptr;
}

} // namespace clang::tidy::cuda
