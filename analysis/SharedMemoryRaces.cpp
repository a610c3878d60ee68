//===- SharedMemoryRaces.cpp - Races on __shared__ memory -----------------===//

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

void SharedMemoryRaces::report(const Access &First, const Access &Second,
                               bool InWarp) {
  Found->push_back({First, Second, InWarp});
}

/// Whether the local variables \p E reads (and those their initializers
/// read) are written only by their initializer or by the increment of a
/// for loop. ThreadDivergence does not see divergence through control: a
/// variable updated under 'if (threadIdx.x == 0)' counts as uniform there.
static bool storedOnlyUniformly(const Expr *E, const FunctionDecl *FD,
                                const ParentMap &PM, int Depth = 0) {
  if (!E)
    return true;
  if (Depth > 4)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDeclOrParm())
      return true;
    struct Writes : RecursiveASTVisitor<Writes> {
      const VarDecl *VD;
      const ParentMap &PM;
      bool Other = false;
      Writes(const VarDecl *VD, const ParentMap &PM) : VD(VD), PM(PM) {}
      bool writes(const Expr *Target) {
        const auto *R = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
        return R && R->getDecl() == VD;
      }
      void check(const Stmt *S) {
        const auto *For = dyn_cast_or_null<ForStmt>(PM.getParentIgnoreParens(S));
        Other |= !For || For->getInc() != S;
      }
      bool VisitBinaryOperator(BinaryOperator *BO) {
        if (BO->isAssignmentOp() && writes(BO->getLHS()))
          check(BO);
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *UO) {
        if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
            writes(UO->getSubExpr()))
          check(UO);
        return true;
      }
    } W(VD, PM);
    W.TraverseStmt(FD->getBody());
    return !W.Other && (!VD->getInit() ||
                        storedOnlyUniformly(VD->getInit(), FD, PM, Depth + 1));
  }
  for (const Stmt *Child : E->children())
    if (Child && !storedOnlyUniformly(dyn_cast<Expr>(Child), FD, PM, Depth))
      return false;
  return true;
}

bool SharedMemoryRaces::runByEveryThread(const Access &A,
                                         const FunctionCfg &Cfg,
                                         ThreadDivergence &Divergences,
                                         const Expr *Selector) {
  std::optional<CfgPoint> At = Cfg.pointOf(A.Point);
  if (!At)
    return false;
  return Cfg.forEachTransitiveControlDependency(
      At->Block,
      [&](const CFGBlock *D) {
        if (D == At->Block)
          return true;
        const auto *Cond = dyn_cast_or_null<Expr>(
            const_cast<CFGBlock *>(D)->getTerminatorCondition());
        bool Selects = Cond && Selector &&
                       ThreadIndexAnalysis::strip(Cond) ==
                           ThreadIndexAnalysis::strip(Selector);
        return Cond &&
               (Selects ||
                (Divergences.ofCondition(Cond, D) == Divergence::None &&
                 !Divergences.readsTemplateValue(Cond) &&
                 storedOnlyUniformly(Cond, A.Fn, Cfg.parents())));
      },
      FunctionCfg::DependencyOrder::DepthFirst);
}

/// Whether \p A touches the one element \p W writes: the same scalar, or
/// the same thread-independent index of the same array.
static bool sameFixedElement(const SharedMemoryRaces::Access &A,
                             const SharedMemoryRaces::Access &W) {
  return A.Array == W.Array && !A.Multi && A.Coeff == 0 && !A.AnySlot &&
         !W.AnySlot &&
         A.Scalar == W.Scalar && A.Uniform == W.Uniform && A.Const == W.Const;
}

/// Whether \p A and \p W touch one element that several threads share:
/// sameFixedElement(), or per subscript the same form of a tile's element
/// ('s[ty][0]' of every thread of a row).
static bool sameSharedElement(const SharedMemoryRaces::Access &A,
                              const SharedMemoryRaces::Access &W) {
  if (!A.Multi && !W.Multi)
    return sameFixedElement(A, W);
  if (A.Array != W.Array || A.Multi != W.Multi ||
      A.Dims.size() != W.Dims.size())
    return false;
  for (unsigned I = 0; I < A.Dims.size(); ++I) {
    const auto &X = A.Dims[I], &Y = W.Dims[I];
    if (X.Coord != Y.Coord || X.Coeff != Y.Coeff || X.Uniform != Y.Uniform ||
        X.Const != Y.Const)
      return false;
  }
  return true;
}

/// The test of a compare-and-store 'if (v > s[0]) s[0] = v': a comparison
/// over \p W, in its function, that reads W's element.
static const Expr *
compareAndStoreTest(const SharedMemoryRaces::Access &W,
                    llvm::ArrayRef<SharedMemoryRaces::Access> Accesses,
                    const ParentMap &PM) {
  const Stmt *Child = W.Local;
  for (const Stmt *S = PM.getParent(Child); S;
       Child = S, S = PM.getParent(S)) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || Child != If->getThen())
      continue;
    const auto *Cmp =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(If->getCond()));
    if (!Cmp || !Cmp->isRelationalOp())
      continue;
    for (const SharedMemoryRaces::Access &A : Accesses)
      if (A.Read && !A.Write && A.Calls.empty() && A.Fn == W.Fn &&
          sameSharedElement(A, W) && FunctionCfg::contains(Cmp, A.At, PM))
        return If->getCond();
  }
  return nullptr;
}

struct SharedMemoryRaces::Writers {
  enum Kind {
    None,        ///< Not known.
    Every,       ///< Every thread of the block.
    One,         ///< Thread Thread only ('if (tid == 0)').
    AllBut,      ///< Every thread but Thread (the 'else' of 'tid == 0').
    LaneLeaders, ///< Lane Thread of each group of Group lanes.
  } K = None;
  int64_t Thread = 0, Group = 0;
  /// The condition that picks them, unless Every.
  const Expr *Selector = nullptr;
};

bool SharedMemoryRaces::isLaneOf(const Expr *E, const FunctionDecl *FD,
                                 int Depth) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 4)
    return false;
  ASTContext &Ctx = FD->getASTContext();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto C = constantOf(BO->getRHS(), Ctx);
    return C && *C > 1 && *C <= 32 && isThreadId(BO->getLHS(), FD) &&
           ((BO->getOpcode() == BO_Rem && llvm::isPowerOf2_64(*C)) ||
            (BO->getOpcode() == BO_And && llvm::isPowerOf2_64(*C + 1)));
  }
  if (isa<CallExpr>(E))
    return isLane(E, Ctx);
  const VarDecl *VD = varOf(E);
  if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
      Analysis->isModified(VD, FD) || storesOf(FD).isAddressTaken(VD))
    return false;
  return isLaneOf(VD->getInit(), FD, Depth + 1);
}

SharedMemoryRaces::Writers
SharedMemoryRaces::writersOf(const Access &W, const FunctionCfg &Cfg,
                             ThreadDivergence &Divergences) {
  Writers Out;
  if (runByEveryThread(W, Cfg, Divergences)) {
    Out.K = Writers::Every;
    return Out;
  }
  ASTContext &Ctx = W.Fn->getASTContext();
  // One condition on the thread or its lane picks the writers; every other
  // condition on the way is the same for all threads.
  for (const Condition &C : conditionsOver(W)) {
    const auto *Cmp =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(C.Cond));
    if (!Cmp || (Cmp->getOpcode() != BO_EQ && Cmp->getOpcode() != BO_NE))
      continue;
    bool Equal = (Cmp->getOpcode() == BO_EQ) != C.Negated;
    for (auto [Who, Value] : {std::pair{Cmp->getLHS(), Cmp->getRHS()},
                              std::pair{Cmp->getRHS(), Cmp->getLHS()}}) {
      auto V = constantOf(Value, Ctx);
      if (!V || *V < 0)
        continue;
      Writers Found;
      Found.Thread = *V;
      Found.Selector = C.Cond;
      if (isThreadId(Who, C.Fn)) {
        Found.K = Equal ? Writers::One : Writers::AllBut;
      } else if (Equal && isLaneOf(Who, C.Fn)) {
        const auto *BO =
            dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(Who));
        Found.K = Writers::LaneLeaders;
        Found.Group = 32;
        if (auto G = BO ? constantOf(BO->getRHS(), Ctx) : std::nullopt)
          Found.Group = BO->getOpcode() == BO_And ? *G + 1 : *G;
        if (*V >= Found.Group)
          continue;
      } else {
        continue;
      }
      return runByEveryThread(W, Cfg, Divergences, C.Cond) ? Found : Out;
    }
  }
  return Out;
}

void SharedMemoryRaces::reportWriteWrites(const std::vector<Access> &Accesses,
                                          const FunctionCfg &Cfg,
                                          const FunctionDecl *FD) {
  // One thread per block: no store races. Asked at the first store that
  // could (the launches are found for the whole unit).
  std::optional<bool> OneThread;
  std::optional<ThreadDivergence> Divergences;
  llvm::DenseMap<const Stmt *, llvm::SmallVector<unsigned, 2>> AtPoint;
  for (unsigned I = 0; I < Accesses.size(); ++I)
    AtPoint[Accesses[I].Point].push_back(I);
  // A later access that reads one of the values W stores; one that
  // overwrites the element first makes the stores dead.
  auto ReaderAfter = [&](const Access &W) -> const Access * {
    const Access *Reader = nullptr;
    std::optional<CfgPoint> From = Cfg.pointOf(W.Point);
    if (!From)
      return nullptr;
    Cfg.walkForward(
        *From,
        [&](const Stmt *S, CfgPoint) {
          auto It = AtPoint.find(S);
          if (It == AtPoint.end() || Reader)
            return Reader != nullptr;
          for (unsigned I : It->second) {
            const Access &A = Accesses[I];
            if (!sameSharedElement(A, W) || A.Atomic)
              continue;
            if (A.Read)
              Reader = &A;
            return true;
          }
          return false;
        },
        [&](const Stmt *) { return Reader != nullptr; });
    return Reader;
  };
  // The plain stores of one element, with the threads that make them.
  llvm::SmallVector<std::pair<const Access *, Writers>, 4> Stores;
  std::optional<unsigned> KernelCoords;
  for (const Access &W : Accesses) {
    // The kernel's own store of a fixed element; 'x++' and 'x += v' by
    // every thread lose updates whatever v is.
    const auto *Store = dyn_cast_or_null<BinaryOperator>(W.Local);
    const auto *Step = dyn_cast_or_null<UnaryOperator>(W.Local);
    // A tile's element that threads differing in a coordinate share
    // ('s[ty][0]' where the kernel also indexes the tile by tx): only as
    // a compare-and-store below.
    bool SharedRow = false;
    if (W.Multi && W.Write && Store && W.Calls.empty()) {
      unsigned Used = 0, Elsewhere = 0;
      bool Uniform = true;
      for (const auto &D : W.Dims) {
        if (D.Coord >= 0)
          Used |= 1u << D.Coord;
        Uniform &= D.Uniform.empty();
      }
      for (const Access &A : Accesses)
        if (A.Array == W.Array && A.Multi)
          for (const auto &D : A.Dims)
            if (D.Coord >= 0)
              Elsewhere |= 1u << D.Coord;
      // Or the kernel reads that coordinate elsewhere ('in[ty * W + tx]'
      // beside 'if (v > s[ty][0]) s[ty][0] = v'): the threads of a row
      // differ in it.
      if (!KernelCoords) {
        struct Coords : RecursiveASTVisitor<Coords> {
          unsigned Mask = 0;
          bool VisitExpr(Expr *E) {
            ThreadSource Src;
            unsigned Dim;
            if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim) &&
                Src == TS_ThreadInBlock && Dim < 3)
              Mask |= 1u << Dim;
            return true;
          }
        } C;
        C.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
        KernelCoords = C.Mask;
      }
      Elsewhere |= *KernelCoords;
      SharedRow = Uniform && (Elsewhere & ~Used);
    }
    if (!W.Write || (W.Multi && !SharedRow) || W.Coeff != 0 ||
        !W.Calls.empty() || W.AnySlot || (!Store && !Step) ||
        Reported.count(W.At))
      continue;
    if (!OneThread)
      OneThread = noThreadAt(1);
    if (*OneThread)
      return;
    if (!Divergences)
      Divergences.emplace(*FD, *Analysis);
    // One element for all threads: an index and an array (a local pointer
    // may be 'data + tid * n') that do not differ between them.
    const auto *AS = dyn_cast<ArraySubscriptExpr>(W.At);
    if (AS && !SharedRow &&
        (Divergences->of(AS->getIdx()) != Divergence::None ||
               !storedOnlyUniformly(AS->getIdx(), FD, Cfg.parents())))
      continue;
    if (!W.Array->hasAttr<CUDASharedAttr>() &&
        (!W.Array->getInit() ||
         Divergences->of(W.Array->getInit()) != Divergence::None ||
         !storedOnlyUniformly(W.Array->getInit(), FD, Cfg.parents())))
      continue;
    bool Assign = Store && Store->getOpcode() == BO_Assign;
    // Whether the value is the same for every thread.
    bool SameValue =
        Assign && (Divergences->of(Store->getRHS()) == Divergence::None ||
                   dependsOnTemplateArguments(Store->getRHS()));
    Writers Who = SharedRow ? Writers() : writersOf(W, Cfg, *Divergences);
    // A compare-and-store that every thread (of a row) reaches: the test
    // and the store of one thread may fall between another's, and a
    // larger value is lost.
    if (Who.K == Writers::None && Assign && !SameValue)
      if (const Expr *Test =
              compareAndStoreTest(W, Accesses, Cfg.parents());
          Test && runByEveryThread(W, Cfg, *Divergences, Test))
        Who.K = Writers::Every;
    if (SharedRow && Who.K != Writers::Every)
      continue;
    if (Assign && Who.K != Writers::None && !SharedRow)
      Stores.push_back({&W, Who});
    // Many threads store values that differ between them: every thread, or
    // the leader of each warp ('if (lane == 0) s[0] = warpSum;').
    bool Many = Who.K == Writers::Every ||
                (Who.K == Writers::LaneLeaders && Assign &&
                 !noThreadAt(Who.Group));
    if (SameValue || !Many)
      continue;
    if (const Access *Reader = ReaderAfter(W)) {
      Reported.insert(W.At);
      Found->push_back({W, *Reader, false, /*WriteWrite=*/true});
    } else if (Who.K == Writers::Every && Assign &&
               W.Array->getDeclContext() == FD &&
               !storesOf(FD).isAddressTaken(W.Array) &&
               !llvm::any_of(Accesses, [&](const Access &A) {
                 return A.Array == W.Array && A.Read;
               })) {
      // Never read in the kernel: which thread's value the element keeps
      // is still unspecified (a store race, as GPUVerify reports it).
      Reported.insert(W.At);
      Race R{W, W, false, /*WriteWrite=*/true};
      R.Unread = true;
      Found->push_back(std::move(R));
    }
  }
  // Two statements that different threads run in one interval store
  // different values: 'if (tid == 0) s = a; ... if (tid == 1) s = b;'.
  if (Stores.size() < 2)
    return;
  BarrierIntervals Intervals(Cfg);
  const ASTContext &Ctx = FD->getASTContext();
  auto Reaches = [&](const Access &From, const Access &To) {
    bool Met = false;
    std::optional<CfgPoint> P = Cfg.pointOf(From.Point);
    if (!P)
      return false;
    Cfg.walkForward(
        *P,
        [&](const Stmt *S, CfgPoint) {
          Met |= S == To.Point;
          return Met || Intervals.endsInterval(S);
        },
        [&](const Stmt *) { return Met; });
    return Met;
  };
  auto OtherThreads = [](const Writers &A, const Writers &B) {
    using W = Writers;
    if (A.K == W::One && B.K == W::One)
      return A.Thread != B.Thread;
    return (A.K == W::One && (B.K == W::Every || B.K == W::AllBut)) ||
           (B.K == W::One && (A.K == W::Every || A.K == W::AllBut));
  };
  for (unsigned I = 0; I < Stores.size(); ++I)
    for (unsigned J = I + 1; J < Stores.size(); ++J) {
      auto [A, WA] = Stores[I];
      auto [B, WB] = Stores[J];
      if (Reported.count(A->At) || Reported.count(B->At) ||
          !sameFixedElement(*A, *B) || !OtherThreads(WA, WB) ||
          utils::areStatementsIdentical(
              cast<BinaryOperator>(A->Local)->getRHS()->IgnoreParenImpCasts(),
              cast<BinaryOperator>(B->Local)->getRHS()->IgnoreParenImpCasts(),
              Ctx))
        continue;
      // One runs after the other with no barrier between, or they are the
      // two sides of one branch on the thread.
      const Access *Later = nullptr, *Earlier = nullptr;
      if (Reaches(*A, *B))
        Earlier = A, Later = B;
      else if (Reaches(*B, *A))
        Earlier = B, Later = A;
      else if ((WA.K == Writers::AllBut || WB.K == Writers::AllBut) &&
               WA.Selector == WB.Selector)
        Earlier = A, Later = B;
      if (!Later)
        continue;
      const Access *Reader = ReaderAfter(*Later);
      if (!Reader && WA.Selector && WA.Selector == WB.Selector)
        Reader = ReaderAfter(*Earlier);
      if (!Reader)
        continue;
      Reported.insert(Later->At);
      Reported.insert(Earlier->At);
      Race R{*Later, *Reader, false, /*WriteWrite=*/true};
      R.OtherStore = *Earlier;
      Found->push_back(std::move(R));
    }
}

/// Reports each pair of accesses by different threads that some path
/// reaches without a barrier between them.
void SharedMemoryRaces::reportConflicts(
    const std::vector<Access> &Accesses, const FunctionCfg &Cfg,
    const FunctionDecl *FD, ASTContext &Ctx) {
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

  // Loops that run at least once and wait at a barrier on every pass: a
  // path from outside that reaches their test passes a barrier.
  llvm::DenseMap<const Stmt *, const ForStmt *> WaitingLoops;
  struct Loops : RecursiveASTVisitor<Loops> {
    llvm::DenseMap<const Stmt *, const ForStmt *> &Out;
    ASTContext &Ctx;
    Loops(llvm::DenseMap<const Stmt *, const ForStmt *> &Out, ASTContext &Ctx)
        : Out(Out), Ctx(Ctx) {}
    bool VisitForStmt(ForStmt *For) {
      if (For->getCond() && bodyAlwaysWaits(For->getBody()) &&
          firstTestHolds(For, Ctx))
        Out[For->getCond()] = For;
      return true;
    }
  } L(WaitingLoops, Ctx);
  L.TraverseStmt(FD->getBody());

  // The accesses that every thread makes are tried first: a race is
  // reported once, at its second access, with the plainest first access.
  llvm::SmallVector<unsigned, 16> Order;
  for (unsigned I = 0; I < Accesses.size(); ++I)
    Order.push_back(I);
  llvm::DenseMap<unsigned, bool> Guarded;
  for (unsigned I : Order)
    Guarded[I] = llvm::any_of(conditionsOver(Accesses[I]),
                              [&](const Condition &C) {
                                return mentionsThread(C.Cond, C.Fn);
                              });
  std::stable_partition(Order.begin(), Order.end(),
                        [&](unsigned I) { return !Guarded[I]; });
  for (unsigned FirstIndex : Order) {
    const Access &First = Accesses[FirstIndex];
    // An access a helper makes only before its barrier is followed by it.
    if (!First.AfterWait)
      continue;
    int64_t Warp = warpBound(First, FD);
    // Rows of a tile may or may not be warps: any barrier ends the walk
    // from a multi-dimensional access.
    bool WarpConfined = First.Multi || (Warp >= 0 && Warp <= 32);
    bool InWarp = !First.Multi && Warp > 0 && Warp <= 32;
    bool StopAtWarp = false;
    // Two passes: the first stops at every tile barrier; the second goes
    // through those that do not provably order First's threads, and skips
    // a pair whose later access is under a lane bound (the pair is then
    // within one tile, which the barrier orders).
    // Likewise a loop that runs at least once and waits on every pass
    // stops the walk at its test, except in a pass that goes into it, and
    // there only accesses in its body count (the path that skips it does
    // not exist).
    bool PastTiles = false, IntoLoops = false;
    auto InWaitingLoop = [&](const Access &A) {
      for (const auto &[Cond, For] : WaitingLoops)
        if (!FunctionCfg::contains(For, First.Point, Cfg.parents()) &&
            FunctionCfg::contains(For->getBody(), A.Point, Cfg.parents()))
          return true;
      return false;
    };
    auto StopsAt = [&](const Stmt *S) {
      // A helper that waits at a barrier is one at its call.
      if (const FunctionDecl *Def =
              helperDefinition(dyn_cast_or_null<CallExpr>(S));
          Def && waitsAtBarrier(Def, 0))
        return true;
      if (mayWaitInPattern(S, FD))
        return true;
      if (auto It = WaitingLoops.find(S);
          !IntoLoops && It != WaitingLoops.end() &&
          !FunctionCfg::contains(It->second, First.Point, Cfg.parents()))
        return true;
      std::optional<BarrierInfo> B = barrierAt(S);
      if (!B)
        return false;
      switch (B->Scope) {
      case BarrierScope::Block:
        return true;
      case BarrierScope::Warp:
        return WarpConfined || StopAtWarp;
      case BarrierScope::Tile:
        // A tile orders its own threads: accesses below its size, or
        // under a condition on the rank in a tile.
        // Which tiles the threads of a strided access ('s[6 * tid + 1]')
        // fall in is not read: any tile barrier ends its walk.
        return !PastTiles || (!First.Multi && First.Coeff > 1) ||
               (WarpConfined && (!B->GroupSize || Warp <= *B->GroupSize)) ||
               underTileGuard(First);
      }
      return false;
    };
    // At the call of a helper that waits at a barrier, where the walk
    // stops (AtWait), the accesses the helper makes before its barrier.
    auto Check = [&](const Stmt *S, bool GuardsHold, bool AtWait = false) {
      auto It = AtPoint.find(S);
      if (It == AtPoint.end())
        return;
      for (unsigned I : It->second) {
        const Access &Second = Accesses[I];
        if (Second.InWaitingCall != AtWait || !Second.BeforeWait)
          continue;
        // A read of the thread's own warp's elements is checked in a
        // pass that __syncwarp() stops.
        // So is any pair with a group's slots ('(tid / 8) * 8 + j'): the
        // group's threads share a warp.
        if ((Second.WarpLocal || First.Group > 1) != StopAtWarp)
          continue;
        int64_t SecondWarp = warpBound(Second, FD);
        bool PairInWarp =
            (InWarp && (Second.Multi || (SecondWarp > 0 && SecondWarp <= 32))) ||
            Second.WarpLocal || First.WarpLocal;
        if (Reported.count(Second.At) ||
            ReportedPairs.count({Second.At, First.At}) ||
            (PastTiles && (underTileGuard(Second) ||
                           (!Second.Multi && Second.Coeff > 1))) ||
            (IntoLoops && !InWaitingLoop(Second)) ||
            !conflicts(First, Second, GuardsHold, FD))
          continue;
        Reported.insert(Second.At);
        ReportedPairs.insert({First.At, Second.At});
        report(First, Second, PairInWarp);
      }
    };
    std::optional<CfgPoint> From = Cfg.pointOf(First.Point);
    for (int Pass : {0, 1, 2, 3}) {
      PastTiles = Pass == 1;
      IntoLoops = Pass == 2;
      StopAtWarp = Pass == 3;
      if (IntoLoops && WaitingLoops.empty())
        continue;
      llvm::SmallVector<CfgPoint, 4> Mods;
      Cfg.walkForward(
          *From,
          [&](const Stmt *S, CfgPoint P) {
            if (StopsAt(S)) {
              Check(S, true, /*AtWait=*/true);
              return true;
            }
            Check(S, true);
            if (Modifies(S)) {
              Mods.push_back(P);
              return true;
            }
            return false;
          },
          [](const Stmt *) { return false; });
      for (CfgPoint M : Mods)
        Cfg.walkForward(
            M,
            [&](const Stmt *S, CfgPoint) {
              if (StopsAt(S)) {
                Check(S, false, /*AtWait=*/true);
                return true;
              }
              Check(S, false);
              return false;
            },
            [](const Stmt *) { return false; });
    }
  }
}

std::vector<SharedMemoryRaces::Race>
SharedMemoryRaces::racesIn(const FunctionDecl &FD, const FunctionCfg &Cfg,
                           ASTContext &Ctx) {
  std::vector<Race> Races;
  if (!mayAccessShared(&FD, Cfg, Ctx))
    return Races; // No access, so no race.
  Found = &Races;
  Analysis = &TranslationUnitAnalyses::get(Ctx).threadIndex();
  VariableStores Stores = VariableStores::of(FD.getBody());
  CurrentStores = &Stores;
  Kernel = &FD;
  std::vector<Candidate> Candidates = collectCandidates(Cfg, &FD, Ctx);
  std::vector<Access> Accesses = chooseReadings(Candidates);
  reportConflicts(Accesses, Cfg, &FD, Ctx);
  reportWriteWrites(Accesses, Cfg, &FD);
  CurrentStores = nullptr;
  Kernel = nullptr;
  Found = nullptr;
  return Races;
}

} // namespace clang::tidy::cuda
