//===- SharedMemoryRacesIndices.cpp - Indices read as linear forms --------===//
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

namespace {

/// The local variable \p E names, when it is an integer that nothing
/// changes after its initializer (\p Changed: whether a variable is
/// changed in the function).
const VarDecl *
unchangedLocal(const Expr *E,
               llvm::function_ref<bool(const VarDecl *)> Changed) {
  const VarDecl *VD = varOf(E);
  if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
      !VD->getType()->isIntegralOrEnumerationType() || Changed(VD))
    return nullptr;
  return VD;
}

/// Whether no variable \p Init reads is changed.
bool readsOnlyUnchanged(const Expr *Init,
                        llvm::function_ref<bool(const VarDecl *)> Changed) {
  struct Stable : RecursiveASTVisitor<Stable> {
    llvm::function_ref<bool(const VarDecl *)> Changed;
    bool Ok = true;
    explicit Stable(llvm::function_ref<bool(const VarDecl *)> Changed)
        : Changed(Changed) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (Changed(V))
          Ok = false;
      return Ok;
    }
  } St(Changed);
  St.TraverseStmt(const_cast<Expr *>(Init));
  return St.Ok;
}

} // namespace

bool SharedMemoryRaces::changedIn(const VarDecl *VD, const FunctionDecl *FD) {
  return Analysis->isModified(VD, FD) || storesOf(FD).isAddressTaken(VD) ||
         storesOf(FD).isAssigned(VD);
}

bool SharedMemoryRaces::readIndex(const Expr *E, int64_t Coeff,
                                        Access &A, const FunctionDecl *FD,
                                        ASTContext &Ctx) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E)
    return false;
  if (auto V = constantOf(E, Ctx)) {
    A.Const += Coeff * *V;
    return true;
  }
  const FunctionDecl *ArgFn = nullptr;
  if (const Expr *Arg = boundArgument(E, FD, ArgFn))
    return readIndex(Arg, Coeff, A, ArgFn, Ctx);
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
    case BO_Sub: {
      // 'tid - tid % W': the first slot of the thread's group of W.
      const auto *Rem =
          dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(BO->getRHS()));
      auto W = Rem && Rem->getOpcode() == BO_Rem
                   ? constantOf(Rem->getRHS(), Ctx)
                   : std::nullopt;
      if (W && *W >= 2 && *W <= 32 && llvm::isPowerOf2_64(*W) &&
          isThreadId(BO->getLHS(), FD) && isThreadId(Rem->getLHS(), FD) &&
          Analysis->variablePartKey(BO->getLHS()) ==
              Analysis->variablePartKey(Rem->getLHS()))
        return readGroupBase(ThreadIndexAnalysis::strip(BO->getLHS()), *W,
                             Coeff, A);
      return readIndex(BO->getLHS(), Coeff, A, FD, Ctx) &&
             readIndex(BO->getRHS(), -Coeff, A, FD, Ctx);
    }
    case BO_Mul:
      if (!isUniform(E, FD, 0)) {
        if (const Expr *Tid = groupBase(BO, FD, Ctx)) {
          // '(tid / 32) * 32' is tid itself for the group's leader; for
          // every thread, its group's first slot.
          if (!underLeaderGuard(A, Tid, BO, FD, Ctx)) {
            auto W = constantOf(BO->getRHS(), Ctx);
            if (!W || isa<BinaryOperator>(ThreadIndexAnalysis::strip(BO->getRHS())))
              W = constantOf(BO->getLHS(), Ctx);
            return W && readGroupBase(Tid, *W, Coeff, A);
          }
          A.WarpLocal = true;
          return readIndex(Tid, Coeff, A, FD, Ctx);
        }
        if (auto V = constantOf(BO->getLHS(), Ctx))
          return readIndex(BO->getRHS(), Coeff * *V, A, FD, Ctx);
        if (auto V = constantOf(BO->getRHS(), Ctx))
          return readIndex(BO->getLHS(), Coeff * *V, A, FD, Ctx);
        return false;
      }
      break;
    case BO_Rem: {
      // A circular neighbour '(tid + c) % M', M uniform: thread 0 reads
      // element c mod M, which thread c mod M owns, so the index is read
      // as 'tid + c' with the offset taken modulo a constant M. Only the
      // form tid + constant, in a flat index of the thread, is read: other
      // remainders ('tid % 32', a lane) keep their own readings.
      if (isUniform(E, FD, 0))
        break;
      if (Coeff != 1 || A.Coeff != 0 || A.Const != 0 || !A.Uniform.empty() ||
          !isUniform(BO->getRHS(), FD, 0))
        return false;
      std::optional<int64_t> M = constantOf(BO->getRHS(), Ctx);
      if (M && *M <= 0)
        return false;
      Access Probe = A;
      if (!readIndex(BO->getLHS(), 1, Probe, FD, Ctx) || Probe.Coeff != 1 ||
          Probe.WarpLocal)
        return false;
      // '(tid + M - 1) % M': the term M itself is a whole turn.
      if (!M) {
        std::string Key = ThreadIndexAnalysis::textOf(
            ThreadIndexAnalysis::strip(BO->getRHS()), Ctx);
        if (auto It = Probe.Uniform.find(Key);
            It != Probe.Uniform.end() && It->second == 1) {
          Probe.Uniform.erase(It);
          Probe.UniformExprs.erase(Key);
        }
      }
      if (!Probe.Uniform.empty())
        return false;
      int64_t C = M ? Probe.Const % *M : Probe.Const;
      if (C == 0)
        return false;
      Probe.Const = C;
      A = std::move(Probe);
      return true;
    }
    default:
      break;
    }
  }
  if (!isUniform(E, FD, 0)) {
    // A local that holds a group's base ('int base = (tid / 32) * 32'),
    // never changed.
    auto Changed = [&](const VarDecl *V) { return changedIn(V, FD); };
    const VarDecl *VD = unchangedLocal(E, Changed);
    if (!VD)
      return false;
    // Likewise 'int i = threadIdx.x + 1': its initializer, when the
    // variables it reads do not change either.
    if (!readsOnlyUnchanged(VD->getInit(), Changed) || ++LocalDepth > 8) {
      LocalDepth = 0;
      return false;
    }
    bool Read = readIndex(VD->getInit(), Coeff, A, FD, Ctx);
    LocalDepth = 0;
    return Read;
  }
  if (FD != Kernel && mentionsParameter(E))
    return false;
  std::string Key = ThreadIndexAnalysis::textOf(E, Ctx);
  A.Uniform[Key] += Coeff;
  A.UniformExprs[Key] = E;
  if (A.Uniform[Key] == 0) {
    A.Uniform.erase(Key);
    A.UniformExprs.erase(Key);
  }
  noteReadVariables(E, A);
  return true;
}



bool SharedMemoryRaces::readGroupBase(const Expr *Tid, int64_t W,
                                      int64_t Coeff, Access &A) {
  // One group term, nothing else of the thread: its W threads share a
  // warp, where __syncwarp() orders them (WarpLocal).
  if (Coeff != 1 || A.Coeff != 0 || A.Group != 1 || W < 2 || W > 32)
    return false;
  A.Coeff = W;
  A.Group = W;
  A.Thread = Tid;
  A.WarpLocal = true;
  return true;
}

bool SharedMemoryRaces::readLinear(const Expr *E, int64_t Coeff,
                                         int Level, Linear &L, Access &A,
                                         const FunctionDecl *FD,
                                         ASTContext &Ctx, int Depth) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 8)
    return false;
  if (auto V = constantOf(E, Ctx)) {
    L.Const[Level] += Coeff * *V;
    return true;
  }
  // A helper's parameter: the argument its caller binds it to.
  const FunctionDecl *ArgFn = nullptr;
  if (const Expr *Arg = boundArgument(E, FD, ArgFn))
    return readLinear(Arg, Coeff, Level, L, A, ArgFn, Ctx, Depth + 1);
  unsigned Dim;
  if (Analysis->threadCoordinate(E, FD, Dim)) {
    if (const VarDecl *VD = varOf(E); VD && storesOf(FD).isAddressTaken(VD))
      return false;
    L.Coord[Level][Dim] += Coeff;
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add:
      return readLinear(BO->getLHS(), Coeff, Level, L, A, FD, Ctx, Depth + 1) &&
             readLinear(BO->getRHS(), Coeff, Level, L, A, FD, Ctx, Depth + 1);
    case BO_Sub:
      return readLinear(BO->getLHS(), Coeff, Level, L, A, FD, Ctx, Depth + 1) &&
             readLinear(BO->getRHS(), -Coeff, Level, L, A, FD, Ctx, Depth + 1);
    case BO_Mul: {
      if (auto V = constantOf(BO->getLHS(), Ctx))
        return readLinear(BO->getRHS(), Coeff * *V, Level, L, A, FD, Ctx,
                          Depth + 1);
      if (auto V = constantOf(BO->getRHS(), Ctx))
        return readLinear(BO->getLHS(), Coeff * *V, Level, L, A, FD, Ctx,
                          Depth + 1);
      if (isUniform(E, FD, 0) || Level != 0)
        break;
      // A row times a uniform width: 'ty * width'.
      for (auto [U, X] : {std::pair(BO->getRHS(), BO->getLHS()),
                          std::pair(BO->getLHS(), BO->getRHS())}) {
        if (!isUniform(U, FD, 0))
          continue;
        std::string Key = ThreadIndexAnalysis::textOf(
            ThreadIndexAnalysis::strip(U), Ctx);
        if (!L.StrideKey.empty() && L.StrideKey != Key)
          return false;
        L.StrideKey = Key;
        return readLinear(X, Coeff, 1, L, A, FD, Ctx, Depth + 1);
      }
      return false;
    }
    default:
      break;
    }
  }
  if (isUniform(E, FD, 0)) {
    L.addUniform(Level, ThreadIndexAnalysis::textOf(E, Ctx), Coeff, E);
    noteReadVariables(E, A);
    return true;
  }
  // A local that is never modified, initialized from variables that are
  // never modified either ('int row = blockIdx.y * TILE + ty'), stands for
  // its initializer.
  auto Changed = [&](const VarDecl *V) { return changedIn(V, FD); };
  const VarDecl *VD = unchangedLocal(E, Changed);
  return VD && readsOnlyUnchanged(VD->getInit(), Changed) &&
         readLinear(VD->getInit(), Coeff, Level, L, A, FD, Ctx, Depth + 1);
}

} // namespace clang::tidy::cuda
