//===- SharedMemoryRacesGuards.cpp - Conditions and thread ranges ---------===//
//
// Part of the shared-memory race analysis (SharedMemoryRaces.h);
// SharedMemoryRacesInternal.h names the parts.
//
//===----------------------------------------------------------------------===//

#include "SharedMemoryRacesInternal.h"
#include "BarrierIntervals.h"
#include "CudaApiModel.h"
#include "LaunchConfiguration.h"
#include "TemplatePatterns.h"
#include "VariableStores.h"
#include "clang-tidy/utils/ASTUtils.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"
#include <functional>

namespace clang::tidy::cuda {

using namespace smr;

llvm::SmallVector<SharedMemoryRaces::Condition, 4>
SharedMemoryRaces::conditionsOver(const Access &A) {
  llvm::SmallVector<Condition, 4> Out;
  auto Climb = [&](const Stmt *From, const FunctionDecl *Fn) {
    const FunctionCfg *Cfg =
        TranslationUnitAnalyses::get(Fn->getASTContext()).cfgOf(Fn);
    if (!Cfg)
      return;
    const ParentMap &PM = Cfg->parents();
    const Stmt *Child = From;
    for (const Stmt *S = PM.getParent(Child); S;
         Child = S, S = PM.getParent(S)) {
      const Expr *Cond = nullptr;
      bool Negated = false;
      if (const auto *If = dyn_cast<IfStmt>(S)) {
        if (Child == If->getCond())
          continue;
        Cond = If->getCond();
        Negated = Child != If->getThen();
      } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
        Cond = Child == W->getBody() ? W->getCond() : nullptr;
      } else if (const auto *For = dyn_cast<ForStmt>(S)) {
        Cond = Child == For->getBody() ? For->getCond() : nullptr;
      } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
        Cond = Child == Do->getBody() ? Do->getCond() : nullptr;
      } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
        Cond = Child != CO->getCond() ? CO->getCond() : nullptr;
        Negated = true; // Either arm: treated as separating.
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
                 BO && BO->isLogicalOp() && Child == BO->getRHS()) {
        Cond = BO->getLHS();
        Negated = BO->getOpcode() == BO_LOr;
      } else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
        Cond = Sw->getCond();
        Negated = true;
      }
      if (Cond)
        Out.push_back({Cond, Fn, Negated});
    }
  };
  Climb(A.At, A.Fn);
  for (auto [Call, Caller] : A.Calls)
    Climb(Call, Caller);
  return Out;
}

llvm::SmallVector<SharedMemoryRaces::FactIn, 8>
SharedMemoryRaces::factsAt(const Access &A, bool &Known) {
  llvm::SmallVector<FactIn, 8> Out;
  const FactList *Facts = Analysis->boundsAt(A.Local, A.Fn);
  Known = Facts != nullptr;
  if (Facts)
    for (const BoundFact *F : *Facts)
      Out.push_back({F, A.Fn});
  for (auto [Call, Caller] : A.Calls)
    if (const FactList *AtCall = Analysis->boundsAt(Call, Caller))
      for (const BoundFact *F : *AtCall)
        Out.push_back({F, Caller});
  return Out;
}

bool SharedMemoryRaces::guardedBelow(const Access &A,
                                           const std::string &RHSKey,
                                           int64_t Max,
                                           const FunctionDecl *) {
  if (!A.Thread)
    return false;
  // Any of the facts on the thread's index may be the one that separates
  // the two threads (t < cols and t < s both hold inside a guarded
  // reduction).
  bool Known;
  std::string Key = Analysis->variablePartKey(A.Thread);
  // A bound on the rank in a tile bounds the thread's lane the same way
  // (lane < s keeps lane + s in the tile and past the guard).
  for (auto [F, Fn] : factsAt(A, Known))
    if (F->K == BoundFact::Less && F->RHSKey == RHSKey && F->RHSConst <= Max &&
        (F->LHSKey == Key ||
         (F->Guard && mentionsLane(F->Guard, Fn->getASTContext()))))
      return true;
  // A constant bound written around the access on a helper's parameter
  // that holds the thread's index ('if (i < 128)' in f(threadIdx.x, s)),
  // which the facts of the helper alone do not know for the thread.
  if (!RHSKey.empty())
    return false;
  std::function<bool(const Expr *, const FunctionDecl *)> Below =
      [&](const Expr *Cond, const FunctionDecl *Fn) {
        const auto *BO =
            dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(Cond));
        if (!BO)
          return false;
        ASTContext &Ctx = Fn->getASTContext();
        switch (BO->getOpcode()) {
        case BO_LAnd:
          return Below(BO->getLHS(), Fn) || Below(BO->getRHS(), Fn);
        case BO_LT:
        case BO_LE: {
          auto C = constantOf(BO->getRHS(), Ctx);
          return C && isThreadId(BO->getLHS(), Fn) &&
                 *C + (BO->getOpcode() == BO_LE) <= Max;
        }
        case BO_GT:
        case BO_GE: {
          auto C = constantOf(BO->getLHS(), Ctx);
          return C && isThreadId(BO->getRHS(), Fn) &&
                 *C + (BO->getOpcode() == BO_GE) <= Max;
        }
        default:
          return false;
        }
      };
  for (const Condition &C : conditionsOver(A))
    if (!C.Negated && Below(C.Cond, C.Fn))
      return true;
  return false;
}

/// Whether \p Guard is (part of) the test of a loop whose body does not
/// hold \p A: a strided loop 'for (c = tid; c < n; c += B)' that ran
/// before the access bounds nothing there.
static bool loopTestBehind(const Expr *Guard,
                           const SharedMemoryRaces::Access &A,
                           const FunctionDecl *Fn) {
  const FunctionCfg *Cfg =
      TranslationUnitAnalyses::get(Fn->getASTContext()).cfgOf(Fn);
  if (!Cfg)
    return false;
  const ParentMap &PM = Cfg->parents();
  const Stmt *Child = Guard;
  for (const Stmt *S = PM.getParent(Child); S;
       Child = S, S = PM.getParent(S)) {
    const Stmt *Body = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(S); For && For->getCond() == Child)
      Body = For->getBody();
    else if (const auto *W = dyn_cast<WhileStmt>(S); W && W->getCond() == Child)
      Body = W->getBody();
    else if (const auto *Do = dyn_cast<DoStmt>(S); Do && Do->getCond() == Child)
      Body = Do->getBody();
    else if (isa<Stmt>(S) && !isa<Expr>(S))
      return false; // Some other statement's condition.
    if (Body) {
      // The access's own point in Fn: itself, or the call that leads to it.
      const Stmt *Point = A.Local;
      for (auto [Call, Caller] : A.Calls)
        if (Caller == Fn)
          Point = Call;
      if (A.Fn != Fn && Point == A.Local)
        return false;
      return !FunctionCfg::contains(Body, Point, PM);
    }
  }
  return false;
}

bool SharedMemoryRaces::hasThreadGuard(const Access &At,
                                             const Expr *,
                                             const FunctionDecl *) {
  bool Known;
  auto Facts = factsAt(At, Known);
  if (!Known)
    return true; // Unknown: stay silent.
  for (auto [F, Fn] : Facts)
    if (F->Guard && mentionsThread(F->Guard, Fn) &&
        !loopTestBehind(F->Guard, At, Fn))
      return true;
  // Facts keep only upper bounds: look at the statements around the
  // access for the other conditions (tid == 0, tid >= off).
  for (const Condition &C : conditionsOver(At))
    if (mentionsThread(C.Cond, C.Fn))
      return true;
  return false;
}

bool SharedMemoryRaces::upperBoundOnThread(const Expr *Cond,
                                           const FunctionDecl *FD) {
  const auto *BO =
      dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(Cond));
  if (!BO)
    return !mentionsThread(Cond, FD);
  switch (BO->getOpcode()) {
  case BO_LAnd:
    return upperBoundOnThread(BO->getLHS(), FD) &&
           upperBoundOnThread(BO->getRHS(), FD);
  case BO_LT:
  case BO_LE:
    return isThreadId(BO->getLHS(), FD) && !mentionsThread(BO->getRHS(), FD);
  case BO_GT:
  case BO_GE:
    return isThreadId(BO->getRHS(), FD) && !mentionsThread(BO->getLHS(), FD);
  case BO_EQ:
    return (isThreadId(BO->getLHS(), FD) && isUniform(BO->getRHS(), FD, 0)) ||
           (isThreadId(BO->getRHS(), FD) && isUniform(BO->getLHS(), FD, 0));
  default:
    return !mentionsThread(Cond, FD);
  }
}

bool SharedMemoryRaces::ownerMayWrite(const Access &Own,
                                      const FunctionDecl *) {
  // Every condition on the thread around Own bounds it from above, or
  // picks one thread: thread 0 passes each of them, and the owner of a
  // fixed element passes them unless threadRange() says otherwise.
  if (!Own.Thread)
    return false;
  std::string Key = Analysis->variablePartKey(Own.Thread);
  bool Known;
  // An upper bound of a thread-derived value by a value that is not a
  // constant and does not mention the thread ('if (gid >= n) return;')
  // lets thread 0 of every block but the last through.
  auto OpenUpperBound = [&](const BoundFact *F, const FunctionDecl *Fn) {
    return F->K == BoundFact::Less && !F->RHSKey.empty() && F->Bound &&
           !mentionsThread(F->Bound, Fn) &&
           !constantOf(F->Bound, Fn->getASTContext());
  };
  for (auto [F, Fn] : factsAt(Own, Known))
    if (F->Guard && mentionsThread(F->Guard, Fn) &&
        !(F->K == BoundFact::Less && F->LHSKey == Key) &&
        !upperBoundOnThread(F->Guard, Fn) && !OpenUpperBound(F, Fn))
      return false;
  for (const Condition &C : conditionsOver(Own))
    if (mentionsThread(C.Cond, C.Fn) &&
        (C.Negated || !upperBoundOnThread(C.Cond, C.Fn)))
      return false;
  return true;
}

bool SharedMemoryRaces::mentionsThread(const Expr *E,
                                             const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SharedMemoryRaces &C;
    const FunctionDecl *FD;
    bool Found = false;
    Finder(SharedMemoryRaces &C, const FunctionDecl *FD)
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

bool SharedMemoryRaces::writerIsOneThread(const Access &W,
                                                const FunctionDecl *FD) {
  int64_t Thread;
  if (onlyThread(W, FD, Thread))
    return true;
  // 'if (tid == blockDim.x - 1)': one thread, whichever it is.
  for (const Condition &C : conditionsOver(W)) {
    const auto *Eq =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(C.Cond));
    if (C.Negated || !Eq || Eq->getOpcode() != BO_EQ)
      continue;
    if ((isThreadId(Eq->getLHS(), C.Fn) && isUniform(Eq->getRHS(), C.Fn, 0)) ||
        (isThreadId(Eq->getRHS(), C.Fn) && isUniform(Eq->getLHS(), C.Fn, 0)))
      return true;
  }
  return false;
}

bool SharedMemoryRaces::openBound(const Expr *Cond, bool Negated,
                                  const FunctionDecl *FD) {
  Cond = ThreadIndexAnalysis::strip(Cond);
  if (!Cond)
    return false;
  if (!mentionsThread(Cond, FD))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot)
    return openBound(UO->getSubExpr(), !Negated, FD);
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return false;
  // 'a && b' taken, or '!(a || b)': both hold.
  if ((BO->getOpcode() == BO_LAnd && !Negated) ||
      (BO->getOpcode() == BO_LOr && Negated))
    return openBound(BO->getLHS(), Negated, FD) &&
           openBound(BO->getRHS(), Negated, FD);
  if (!BO->isRelationalOp())
    return false;
  BinaryOperatorKind Op = Negated
                              ? BinaryOperator::negateComparisonOp(
                                    BO->getOpcode())
                              : BO->getOpcode();
  const Expr *Thread = BO->getLHS(), *Bound = BO->getRHS();
  if (!mentionsThread(Thread, FD)) {
    std::swap(Thread, Bound);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!mentionsThread(Thread, FD) || mentionsThread(Bound, FD) ||
      (Op != BO_LT && Op != BO_LE))
    return false;
  std::optional<int64_t> C = constantOf(Bound, FD->getASTContext());
  if (!C)
    return true;
  // A constant bound lets threads 0 .. C - 1 through: more than one
  // when the value is the thread index itself.
  return isThreadId(Thread, FD) && *C + (Op == BO_LE) >= 2;
}

bool SharedMemoryRaces::admitsManyThreads(const Access &A,
                                          const FunctionDecl *) {
  bool Known;
  auto Facts = factsAt(A, Known);
  if (!Known)
    return false;
  llvm::SmallVector<Condition, 4> Conds = conditionsOver(A);
  for (const Condition &C : Conds)
    if (mentionsThread(C.Cond, C.Fn) && !openBound(C.Cond, C.Negated, C.Fn))
      return false;
  // Facts also come from early exits ('if (tid >= n) return;'): an upper
  // bound by a value that is not a constant, or one of the conditions
  // above.
  for (auto [F, Fn] : Facts) {
    if (!F->Guard || !mentionsThread(F->Guard, Fn))
      continue;
    if (F->K == BoundFact::Less && !F->RHSKey.empty())
      continue;
    std::function<bool(const Stmt *)> Holds = [&](const Stmt *S) {
      if (S == F->Guard)
        return true;
      for (const Stmt *Child : S ? S->children() : Stmt::const_child_range(
                                                       Stmt::child_iterator(),
                                                       Stmt::child_iterator()))
        if (Child && Holds(Child))
          return true;
      return false;
    };
    if (llvm::any_of(Conds,
                     [&](const Condition &C) { return Holds(C.Cond); }))
      continue;
    return false;
  }
  return true;
}

bool SharedMemoryRaces::onlyThread(const Access &A,
                                         const FunctionDecl *,
                                         int64_t &Thread) {
  // The access sits in the then-branch of 'if (tid == c)'.
  for (const Condition &C : conditionsOver(A)) {
    const auto *Eq =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(C.Cond));
    if (C.Negated || !Eq || Eq->getOpcode() != BO_EQ)
      continue;
    ASTContext &Ctx = C.Fn->getASTContext();
    for (auto [Tid, Value] : {std::pair{Eq->getLHS(), Eq->getRHS()},
                              std::pair{Eq->getRHS(), Eq->getLHS()}})
      if (auto V = constantOf(Value, Ctx); V && isThreadId(Tid, C.Fn)) {
        Thread = *V;
        return true;
      }
  }
  return false;
}

bool SharedMemoryRaces::isEnclosingLoopCounter(const VarDecl *VD,
                                                     const Stmt *At,
                                                     const FunctionDecl *FD) {
  const ParentMap &PM =
      TranslationUnitAnalyses::get(FD->getASTContext()).cfgOf(FD)->parents();
  const Stmt *Child = At;
  for (const Stmt *S = PM.getParent(Child); S;
       Child = S, S = PM.getParent(S)) {
    const auto *For = dyn_cast<ForStmt>(S);
    if (!For || For->getBody() != Child || !For->getInc())
      continue;
    const Expr *Inc = ThreadIndexAnalysis::strip(For->getInc());
    const Expr *Target = nullptr;
    if (const auto *UO = dyn_cast<UnaryOperator>(Inc);
        UO && UO->isIncrementDecrementOp())
      Target = UO->getSubExpr();
    else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc))
      Target = CA->getLHS();
    if (Target && varOf(Target) == VD)
      return true;
  }
  return false;
}

bool SharedMemoryRaces::readsOtherThreadsElement(
    const Access &Reader, const Access &Writer, const FunctionDecl *FD) {
  // Reader is one thread (if (tid == c)) at an index that does not depend
  // on the thread; Writer writes s[tid + k] in every thread.
  int64_t Thread;
  if (!onlyThread(Reader, FD, Thread))
    return false;
  // A loop counter walks over the elements of other threads too.
  for (const VarDecl *V : Reader.Vars)
    if (isEnclosingLoopCounter(V, Reader.At, Reader.Fn))
      return true;
  // A constant index is another thread's element unless it is c's own.
  return Reader.Uniform.empty() && Writer.Uniform.empty() &&
         Reader.Const - Writer.Const != Thread &&
         !noThreadAt(Reader.Const - Writer.Const);
}

int64_t SharedMemoryRaces::warpBound(const Access &A,
                                           const FunctionDecl *) {
  // The bound is on the thread, whatever the stride of its index.
  if (!A.Thread || A.Coeff < 1)
    return -1;
  if (A.Calls.empty()) {
    const BoundFact *F = Analysis->boundOn(A.Thread, A.Point, A.Fn);
    return F && F->K == BoundFact::Less && F->RHSKey.empty() ? F->RHSConst
                                                              : -1;
  }
  bool Known;
  int64_t Bound = -1;
  std::string Key = Analysis->variablePartKey(A.Thread);
  for (auto [F, Fn] : factsAt(A, Known))
    if (F->K == BoundFact::Less && F->LHSKey == Key && F->RHSKey.empty() &&
        (Bound < 0 || F->RHSConst < Bound))
      Bound = F->RHSConst;
  return Bound;
}

bool SharedMemoryRaces::noThreadAt(int64_t Offset) {
  if (Offset < 0)
    return true;
  const KernelLaunches &L =
      TranslationUnitAnalyses::get(Kernel->getASTContext())
          .launches()
          .launchesOf(Kernel);
  return L.known() && L.BlockDim[0] && *L.BlockDim[0] > 0 &&
         Offset >= *L.BlockDim[0];
}

std::pair<int64_t, int64_t>
SharedMemoryRaces::threadRange(const Access &A) {
  int64_t Lo = 0, Hi = INT64_MAX;
  if (!A.Thread || A.Coeff != 1)
    return {Lo, Hi};
  const KernelLaunches &L =
      TranslationUnitAnalyses::get(Kernel->getASTContext())
          .launches()
          .launchesOf(Kernel);
  if (L.known() && L.BlockDim[0] && *L.BlockDim[0] > 0)
    Hi = *L.BlockDim[0] - 1;
  bool Known;
  std::string Key = Analysis->variablePartKey(A.Thread);
  for (auto [F, Fn] : factsAt(A, Known))
    if (F->K == BoundFact::Less && F->LHSKey == Key && F->RHSKey.empty())
      Hi = std::min(Hi, F->RHSConst - 1);
  // 'tid >= c', 'tid > c', 'c <= tid', through '&&', on the side where
  // the condition holds.
  std::function<void(const Expr *, const FunctionDecl *)> Lower =
      [&](const Expr *E, const FunctionDecl *Fn) {
        const auto *BO =
            dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(E));
        if (!BO)
          return;
        if (BO->getOpcode() == BO_LAnd) {
          Lower(BO->getLHS(), Fn);
          Lower(BO->getRHS(), Fn);
          return;
        }
        if (!BO->isRelationalOp())
          return;
        ASTContext &Ctx = Fn->getASTContext();
        BinaryOperatorKind Op = BO->getOpcode();
        const Expr *Tid = BO->getLHS(), *Value = BO->getRHS();
        if (!isThreadId(Tid, Fn)) {
          std::swap(Tid, Value);
          Op = BinaryOperator::reverseComparisonOp(Op);
        }
        auto V = constantOf(Value, Ctx);
        if (!V || !isThreadId(Tid, Fn) ||
            Analysis->variablePartKey(Tid) != Key)
          return;
        if (Op == BO_GE)
          Lo = std::max(Lo, *V);
        else if (Op == BO_GT)
          Lo = std::max(Lo, *V + 1);
      };
  for (const Condition &C : conditionsOver(A))
    if (!C.Negated)
      Lower(C.Cond, C.Fn);
  return {Lo, Hi};
}

bool SharedMemoryRaces::underTileGuard(const Access &A) {
  bool Known;
  for (auto [F, Fn] : factsAt(A, Known))
    if (F->Guard && mentionsLane(F->Guard, Fn->getASTContext()))
      return true;
  for (const Condition &C : conditionsOver(A))
    if (mentionsLane(C.Cond, C.Fn->getASTContext()))
      return true;
  return false;
}


bool SharedMemoryRaces::varies(const Expr *E, const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SharedMemoryRaces &C;
    const FunctionDecl *FD;
    bool Found = false;
    Finder(SharedMemoryRaces &C, const FunctionDecl *FD) : C(C), FD(FD) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (C.Analysis->isModified(V, FD) || C.storesOf(FD).isAssigned(V))
          Found = true;
      return !Found;
    }
  } F(*this, FD);
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

bool SharedMemoryRaces::harmlessBound(const Expr *Bound,
                                            const Access &First,
                                            const Access &Second,
                                            const FunctionDecl *FD) {
  // An upper bound by a uniform value the indices do not mention ('x < w'):
  // it keeps the threads past the edge of the data out, not the threads of
  // one tile from each other.
  Bound = ThreadIndexAnalysis::strip(Bound);
  if (!Bound || constantOf(Bound, FD->getASTContext()) ||
      !isUniform(Bound, FD, 0))
    return false;
  struct Refs : RecursiveASTVisitor<Refs> {
    const Access &F, &S;
    bool Shared = false;
    Refs(const Access &F, const Access &S) : F(F), S(S) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (llvm::is_contained(F.Vars, DRE->getDecl()) ||
          llvm::is_contained(S.Vars, DRE->getDecl()))
        Shared = true;
      return !Shared;
    }
  } R(First, Second);
  R.TraverseStmt(const_cast<Expr *>(Bound));
  return !R.Shared;
}

bool SharedMemoryRaces::harmlessCondition(const Expr *Cond,
                                                const Access &First,
                                                const Access &Second,
                                                const FunctionDecl *FD) {
  Cond = ThreadIndexAnalysis::strip(Cond);
  if (!Cond || !mentionsThread(Cond, FD))
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return false;
  switch (BO->getOpcode()) {
  case BO_LAnd:
    return harmlessCondition(BO->getLHS(), First, Second, FD) &&
           harmlessCondition(BO->getRHS(), First, Second, FD);
  case BO_LT:
  case BO_LE:
    return harmlessBound(BO->getRHS(), First, Second, FD);
  case BO_GT:
  case BO_GE:
    return harmlessBound(BO->getLHS(), First, Second, FD);
  default:
    return false;
  }
}

namespace {

/// Whether \p Cond tests data rather than the thread's position: it loads
/// an element ('valid[i]') or compares floating-point values. Many threads
/// of a tile pass such a test, as they would in a one-dimensional block.
/// A test that reads \p Array itself may be what keeps the threads apart
/// (a transitive closure's 'if (m[y][x] == 0 && m[y][k] != 0)' never
/// stores where k == x): not a data test here.
bool testsData(const Expr *Cond, const VarDecl *Array) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Array;
    bool Found = false, ReadsArray = false;
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
      Found = true;
      const Expr *Base = AS->getBase();
      while (const auto *Sub =
                 dyn_cast<ArraySubscriptExpr>(Base->IgnoreParenImpCasts()))
        Base = Sub->getBase();
      if (const VarDecl *VD = varOf(Base); VD && VD == Array)
        ReadsArray = true;
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      Found |= UO->getOpcode() == UO_Deref;
      return !Found;
    }
    bool VisitExpr(Expr *E) {
      Found |= E->getType()->isRealFloatingType();
      return !Found;
    }
  } F;
  F.Array = Array;
  F.TraverseStmt(const_cast<Expr *>(Cond));
  return F.Found && !F.ReadsArray;
}

} // namespace

void SharedMemoryRaces::boundCoordinates(const Expr *Cond,
                                         const FunctionDecl *Fn,
                                         CoordRanges &R) {
  const auto *BO =
      dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(Cond));
  if (!BO)
    return;
  if (BO->getOpcode() == BO_LAnd) {
    boundCoordinates(BO->getLHS(), Fn, R);
    boundCoordinates(BO->getRHS(), Fn, R);
    return;
  }
  if (!BO->isComparisonOp())
    return;
  ASTContext &Ctx = Fn->getASTContext();
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *Coord = BO->getLHS(), *Value = BO->getRHS();
  unsigned Dim;
  if (!Analysis->threadCoordinate(Coord, Fn, Dim)) {
    std::swap(Coord, Value);
    Op = BinaryOperator::reverseComparisonOp(Op);
    if (!Analysis->threadCoordinate(Coord, Fn, Dim))
      return;
  }
  auto V = constantOf(Value, Ctx);
  if (!V || Dim > 2)
    return;
  auto &[Lo, Hi] = R[Dim];
  switch (Op) {
  case BO_LT: Hi = std::min(Hi, *V - 1); break;
  case BO_LE: Hi = std::min(Hi, *V); break;
  case BO_GT: Lo = std::max(Lo, *V + 1); break;
  case BO_GE: Lo = std::max(Lo, *V); break;
  case BO_EQ:
    Lo = std::max(Lo, *V);
    Hi = std::min(Hi, *V);
    break;
  default: break;
  }
}

SharedMemoryRaces::CoordRanges
SharedMemoryRaces::coordinateRanges(const Access &A) {
  CoordRanges R;
  for (auto &Range : R)
    Range = {0, INT64_MAX};
  const KernelLaunches &L =
      TranslationUnitAnalyses::get(Kernel->getASTContext())
          .launches()
          .launchesOf(Kernel);
  if (L.known())
    for (int D = 0; D < 3; ++D)
      if (L.BlockDim[D] && *L.BlockDim[D] > 0)
        R[D].second = *L.BlockDim[D] - 1;
  for (const Condition &C : conditionsOver(A))
    if (!C.Negated)
      boundCoordinates(C.Cond, C.Fn, R);
  return R;
}

/// Whether \p Cond is a constant bound on thread coordinates only
/// ('tx < 8', 'tx >= 1 && ty < 4'), which coordinateRanges() reads.
bool SharedMemoryRaces::constantCoordinateBound(const Expr *Cond,
                                                const FunctionDecl *Fn) {
  const auto *BO =
      dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(Cond));
  if (!BO)
    return false;
  if (BO->getOpcode() == BO_LAnd)
    return (constantCoordinateBound(BO->getLHS(), Fn) ||
            !mentionsThread(BO->getLHS(), Fn)) &&
           (constantCoordinateBound(BO->getRHS(), Fn) ||
            !mentionsThread(BO->getRHS(), Fn));
  if (!BO->isRelationalOp())
    return false;
  ASTContext &Ctx = Fn->getASTContext();
  unsigned Dim;
  return (Analysis->threadCoordinate(BO->getLHS(), Fn, Dim) &&
          constantOf(BO->getRHS(), Ctx)) ||
         (Analysis->threadCoordinate(BO->getRHS(), Fn, Dim) &&
          constantOf(BO->getLHS(), Ctx));
}

bool SharedMemoryRaces::separatesThreads(const Access &At,
                                               const Access &First,
                                               const Access &Second,
                                               const FunctionDecl *) {
  bool Known;
  auto Facts = factsAt(At, Known);
  if (!Known)
    return true; // Unknown: stay silent.
  auto Conditions = conditionsOver(At);
  // A test of data lets many threads of a row through; a constant bound
  // on a coordinate is read by coordinateRanges(), where it is around the
  // access.
  auto Enclosing = [&](const Expr *Guard) {
    for (const Condition &C : Conditions) {
      if (C.Negated)
        continue;
      bool Part = false;
      std::function<void(const Expr *)> Visit = [&](const Expr *E) {
        E = ThreadIndexAnalysis::strip(E);
        Part |= E == ThreadIndexAnalysis::strip(Guard);
        if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
            BO && BO->getOpcode() == BO_LAnd) {
          Visit(BO->getLHS());
          Visit(BO->getRHS());
        }
      };
      Visit(C.Cond);
      if (Part)
        return true;
    }
    return false;
  };
  for (auto [F, Fn] : Facts)
    if (F->Guard && mentionsThread(F->Guard, Fn) &&
        !testsData(F->Guard, First.Array) &&
        !(constantCoordinateBound(F->Guard, Fn) && Enclosing(F->Guard)) &&
        (F->K != BoundFact::Less ||
         !harmlessBound(F->Bound, First, Second, Fn)))
      return true;
  for (const Condition &C : Conditions)
    if (mentionsThread(C.Cond, C.Fn) && !testsData(C.Cond, First.Array) &&
        (C.Negated || (!constantCoordinateBound(C.Cond, C.Fn) &&
                       !harmlessCondition(C.Cond, First, Second, C.Fn))))
      return true;
  return false;
}

} // namespace clang::tidy::cuda
