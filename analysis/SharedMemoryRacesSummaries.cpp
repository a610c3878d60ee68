//===- SharedMemoryRacesSummaries.cpp - Accesses of __device__ helpers ----===//
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

/// Marks \p A, made in a helper that waits at a block barrier (\p Cfg its
/// CFG, \p Level the length of A's chain of calls up to the call of the
/// helper): whether some path from the helper's entry reaches it with no
/// barrier between, and some path from it the helper's return.
static void placeInWaitingHelper(SharedMemoryRaces::Access &A,
                                 const FunctionCfg &Cfg,
                                 BarrierIntervals &Intervals, size_t Level) {
  A.InWaitingCall = true;
  A.BeforeWait = A.AfterWait = false;
  // A's statement in the helper: its own, or the helper's call of the
  // one that makes it.
  const Stmt *InHelper = A.Calls.size() > Level
                             ? A.Calls[A.Calls.size() - Level - 1].first
                             : A.Local;
  std::optional<CfgPoint> P = Cfg.pointOf(InHelper);
  if (!P)
    return;
  A.BeforeWait = Intervals.startsOf(*P).FromEntry;
  Cfg.walkForward(
      *P, [&](const Stmt *S, CfgPoint) { return Intervals.endsInterval(S); },
      [&](const Stmt *) { return A.AfterWait = true; });
}

bool SharedMemoryRaces::waitsAtBarrier(const FunctionDecl *Callee,
                                       int Depth) {
  return waitsAtBlockBarrier(Callee, WaitsAtBarrier, Depth);
}

void SharedMemoryRaces::bindArguments(const CallExpr *Call,
                                            const FunctionDecl *Caller,
                                            const FunctionDecl *Def) {
  for (unsigned I = 0; I < Call->getNumArgs() && I < Def->getNumParams(); ++I)
    ArgumentOf[Def->getParamDecl(I)] = {Call->getArg(I), Caller};
}

void SharedMemoryRaces::forEachCalledHelper(
    const FunctionDecl *Fn, const FunctionCfg &FnCfg,
    const decltype(Access::Calls) &Chain, ASTContext &Ctx,
    llvm::function_ref<bool(const CallExpr *, const FunctionDecl *)> Skip,
    llvm::function_ref<void(const CallExpr *, const FunctionDecl *,
                            const FunctionCfg &,
                            const decltype(Access::Calls) &)>
        Visit) {
  llvm::SmallVector<const CallExpr *, 4> Calls;
  for (const CFGBlock *B : FnCfg.graph())
    if (FnCfg.isReachable(B))
      for (const CFGElement &El : *B)
        if (const auto *Call =
                dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(El)))
          Calls.push_back(Call);
  for (const CallExpr *Call : Calls) {
    const FunctionDecl *Next = helperDefinition(Call);
    if (!Next || Next == Fn || Next == Kernel ||
        isa<CXXOperatorCallExpr>(Call) || Skip(Call, Next) ||
        llvm::any_of(Chain, [&](auto &P) { return P.second == Next; }))
      continue;
    const FunctionCfg *NextCfg = TranslationUnitAnalyses::get(Ctx).cfgOf(Next);
    if (!NextCfg)
      continue;
    auto InnerChain = Chain;
    InnerChain.insert(InnerChain.begin(), {Call, Fn});
    bindArguments(Call, Fn, Next);
    Visit(Call, Next, *NextCfg, InnerChain);
    for (const ParmVarDecl *P : Next->parameters())
      ArgumentOf.erase(P);
  }
}

std::vector<SharedMemoryRaces::Candidate>
SharedMemoryRaces::accessesIn(const FunctionDecl *Def,
                                    const FunctionCfg &HelperCfg,
                                    const decltype(Access::Calls) &Chain,
                                    ASTContext &Ctx) {
  std::vector<Candidate> Out;
  llvm::SmallVector<const Expr *, 3> Indices;
  for (const CFGBlock *B : HelperCfg.graph()) {
    if (!HelperCfg.isReachable(B))
      continue;
    for (const CFGElement &El : *B) {
      const Stmt *S = FunctionCfg::stmtOf(El);
      std::optional<Access> A = atomicAccessAt(S, HelperCfg, Def, Indices);
      if (!A)
        A = accessAt(S, HelperCfg, Def, Indices);
      if (A) {
        A->Calls = Chain;
        addCandidate(std::move(*A), Indices, Out, Ctx);
      }
    }
  }
  return Out;
}

void SharedMemoryRaces::collectHelperAccesses(
    const CallExpr *Call, const Stmt *Point, std::vector<Candidate> &Out,
    ASTContext &Ctx) {
  const FunctionDecl *Def = helperDefinition(Call);
  if (!Def || Def == Kernel || isa<CXXOperatorCallExpr>(Call))
    return;
  checkHelperBody(Call, {{Call, Kernel}}, Ctx, 0);
  const FunctionCfg *HelperCfg = TranslationUnitAnalyses::get(Ctx).cfgOf(Def);
  if (!HelperCfg)
    return;
  // A helper that waits at a barrier is a barrier at the call
  // (reportConflicts), with the accesses it makes before its barrier on
  // the way in, and those it makes after it on the way out: the tile
  // loads of a 'load(); __syncthreads();' helper that the next pass of
  // the caller's loop makes while other threads still read the tile.
  // Accesses between two of its barriers are its own (checkHelperBody).
  bool Waits = waitsAtBarrier(Def, 0);
  std::optional<BarrierIntervals> Intervals;
  if (Waits)
    Intervals.emplace(*HelperCfg);
  auto Place = [&](Access &A) {
    A.Point = Point;
    if (Waits)
      placeInWaitingHelper(A, *HelperCfg, *Intervals, 1);
  };
  ArgumentOf.clear();
  bindArguments(Call, Kernel, Def);
  // The helper's accesses, and those of the helpers it calls (wrappers
  // included), four calls deep, all at the kernel's call.
  std::function<void(const FunctionDecl *, const FunctionCfg &,
                     const decltype(Access::Calls) &, int)>
      Gather = [&](const FunctionDecl *Fn, const FunctionCfg &FnCfg,
                   const decltype(Access::Calls) &Chain, int Depth) {
        for (Candidate &C : accessesIn(Fn, FnCfg, Chain, Ctx)) {
          if (C.Flat)
            Place(*C.Flat);
          if (C.Multi)
            Place(*C.Multi);
          const Access &A = C.Flat ? *C.Flat : *C.Multi;
          if (A.BeforeWait || A.AfterWait)
            Out.push_back(std::move(C));
        }
        if (Depth >= 3)
          return;
        // In a helper that waits, one that waits too is a barrier.
        forEachCalledHelper(
            Fn, FnCfg, Chain, Ctx,
            [&](const CallExpr *, const FunctionDecl *Next) {
              return Waits && waitsAtBarrier(Next, Depth + 1);
            },
            [&](const CallExpr *, const FunctionDecl *Next,
                const FunctionCfg &NextCfg,
                const decltype(Access::Calls) &InnerChain) {
              Gather(Next, NextCfg, InnerChain, Depth + 1);
            });
      };
  Gather(Def, *HelperCfg, {{Call, Kernel}}, 0);
  ArgumentOf.clear();
}

void SharedMemoryRaces::checkHelperBody(const CallExpr *Call,
                                              decltype(Access::Calls) Chain,
                                              ASTContext &Ctx, int Depth) {
  const FunctionDecl *Def = helperDefinition(Call);
  const FunctionDecl *Caller = Chain.front().second;
  if (!Def || Def == Caller || Depth > 3 || isa<CXXOperatorCallExpr>(Call))
    return;
  const FunctionCfg *HelperCfg = TranslationUnitAnalyses::get(Ctx).cfgOf(Def);
  if (!HelperCfg)
    return;
  if (Depth == 0)
    ArgumentOf.clear();
  bindArguments(Call, Caller, Def);
  std::vector<Candidate> Candidates = accessesIn(Def, *HelperCfg, Chain, Ctx);
  // With the own accesses of the helpers it calls, at its calls of them,
  // split at their barriers as at a kernel's call: a member 'run()' whose
  // passes call 'load(); __syncthreads();' and then 'accumulate()'.
  if (Depth < 3)
    forEachCalledHelper(
        Def, *HelperCfg, Chain, Ctx,
        [&](const CallExpr *Inner, const FunctionDecl *) {
          return atomicUpdateOf(Inner).has_value();
        },
        [&](const CallExpr *Inner, const FunctionDecl *Next,
            const FunctionCfg &NextCfg,
            const decltype(Access::Calls) &InnerChain) {
          bool Waits = waitsAtBarrier(Next, Depth + 1);
          std::optional<BarrierIntervals> Intervals;
          if (Waits)
            Intervals.emplace(NextCfg);
          for (Candidate &C : accessesIn(Next, NextCfg, InnerChain, Ctx)) {
            for (std::optional<Access> *A : {&C.Flat, &C.Multi})
              if (*A) {
                (*A)->Point = Inner;
                if (Waits)
                  placeInWaitingHelper(**A, NextCfg, *Intervals,
                                       InnerChain.size());
              }
            const Access &A = C.Flat ? *C.Flat : *C.Multi;
            if (A.BeforeWait || A.AfterWait)
              Candidates.push_back(std::move(C));
          }
        });
  std::vector<Access> Accesses = chooseReadings(Candidates);
  if (Accesses.size() > 1)
    reportConflicts(Accesses, *HelperCfg, Def, Ctx);
  // The helpers it calls, with its own calls of them first in the chain.
  for (const CFGBlock *B : HelperCfg->graph())
    for (const CFGElement &El : *B)
      if (const auto *Inner =
              dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(El))) {
        auto InnerChain = Chain;
        InnerChain.insert(InnerChain.begin(), {Inner, Def});
        checkHelperBody(Inner, InnerChain, Ctx, Depth + 1);
      }
  for (const ParmVarDecl *P : Def->parameters())
    ArgumentOf.erase(P);
}

bool SharedMemoryRaces::namesSharedMember(const Expr *E) {
  const auto *ME = dyn_cast_or_null<MemberExpr>(ThreadIndexAnalysis::strip(E));
  const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  return F && F->getType()->isPointerType() && memberSharedArray(F);
}

const SharedMemoryRaces::SharedNames &
SharedMemoryRaces::sharedNamesOf(const FunctionDecl *FD,
                                 const FunctionCfg &Cfg) {
  auto [It, New] = NamesOf.try_emplace(FD);
  if (!New)
    return It->second;
  SharedNames Out;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &El : *B) {
      const Stmt *S = FunctionCfg::stmtOf(El);
      if (const auto *Call = dyn_cast_or_null<CallExpr>(S)) {
        for (const Expr *Arg : Call->arguments()) {
          // An atomic's '&count' or '&s[k]'.
          const Expr *Named = Arg->IgnoreParenCasts();
          if (const auto *UO = dyn_cast<UnaryOperator>(Named);
              UO && UO->getOpcode() == UO_AddrOf)
            Named = UO->getSubExpr()->IgnoreParens();
          while (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Named))
            Named = ThreadIndexAnalysis::strip(Sub->getBase());
          Out.Names |= mayNameShared(varOf(Named)) || namesSharedMember(Named);
        }
        if (const FunctionDecl *Def = helperDefinition(Call))
          Out.Helpers.push_back(Def);
        continue;
      }
      // The variable accessAt() asks sharedVariableOf() about.
      const Expr *Base = dyn_cast_or_null<Expr>(S);
      if (!Base || !(isa<ArraySubscriptExpr>(Base) || isa<DeclRefExpr>(Base)))
        continue;
      while (const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(Base))
        Base = ThreadIndexAnalysis::strip(Sub->getBase());
      Out.Names |= mayNameShared(varOf(Base)) || namesSharedMember(Base);
    }
  return It->second = std::move(Out);
}

bool SharedMemoryRaces::mayAccessShared(const FunctionDecl *FD,
                                        const FunctionCfg &Cfg,
                                        ASTContext &Ctx) {
  if (sharedNamesOf(FD, Cfg).Names)
    return true;
  // The helpers checkHelperBody() reads: three calls deep at most.
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen{FD};
  const auto &Called = NamesOf.find(FD)->second.Helpers;
  llvm::SmallVector<const FunctionDecl *, 16> Level(Called.begin(),
                                                    Called.end()),
      Next;
  for (int Depth = 0; Depth < 4 && !Level.empty(); ++Depth) {
    Next.clear();
    for (const FunctionDecl *Def : Level) {
      if (!Seen.insert(Def).second)
        continue;
      const FunctionCfg *HelperCfg =
          TranslationUnitAnalyses::get(Ctx).cfgOf(Def);
      if (!HelperCfg)
        continue; // Neither read nor followed (checkHelperBody).
      const SharedNames &Names = sharedNamesOf(Def, *HelperCfg);
      if (Names.Names)
        return true;
      Next.append(Names.Helpers.begin(), Names.Helpers.end());
    }
    std::swap(Level, Next);
  }
  return false;
}

} // namespace clang::tidy::cuda
