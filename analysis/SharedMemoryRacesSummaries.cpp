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
  if (waitsAtBarrier(Def, 0))
    return; // A barrier at the call (reportConflicts).
  const FunctionCfg *HelperCfg = TranslationUnitAnalyses::get(Ctx).cfgOf(Def);
  if (!HelperCfg)
    return;
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
            C.Flat->Point = Point;
          if (C.Multi)
            C.Multi->Point = Point;
          Out.push_back(std::move(C));
        }
        if (Depth >= 3)
          return;
        llvm::SmallVector<const CallExpr *, 4> Inner;
        for (const CFGBlock *B : FnCfg.graph())
          if (FnCfg.isReachable(B))
            for (const CFGElement &El : *B)
              if (const auto *IC =
                      dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(El)))
                Inner.push_back(IC);
        for (const CallExpr *IC : Inner) {
          const FunctionDecl *Next = helperDefinition(IC);
          if (!Next || Next == Fn || Next == Kernel ||
              isa<CXXOperatorCallExpr>(IC) ||
              llvm::any_of(Chain, [&](auto &P) { return P.second == Next; }))
            continue;
          const FunctionCfg *NextCfg =
              TranslationUnitAnalyses::get(Ctx).cfgOf(Next);
          if (!NextCfg)
            continue;
          auto InnerChain = Chain;
          InnerChain.insert(InnerChain.begin(), {IC, Fn});
          bindArguments(IC, Fn, Next);
          Gather(Next, *NextCfg, InnerChain, Depth + 1);
          for (const ParmVarDecl *P : Next->parameters())
            ArgumentOf.erase(P);
        }
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
          Out.Names |= mayNameShared(varOf(Named));
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
      Out.Names |= mayNameShared(varOf(Base));
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
