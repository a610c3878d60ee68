//===- SharedMemoryRacesConflicts.cpp - Which pairs of accesses conflict --===//
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

bool SharedMemoryRaces::conflicts(const Access &First,
                                        const Access &Second, bool GuardsHold,
                                        const FunctionDecl *FD) {
  if (First.Array != Second.Array)
    return false;
  if (!((First.Write && Second.Read) || (First.Read && Second.Write)))
    return false;
  if (First.Atomic || Second.Atomic || First.AnySlot || Second.AnySlot)
    return conflictsAtomic(First, Second, GuardsHold, FD);
  if (First.Multi || Second.Multi)
    return First.Multi == Second.Multi &&
           conflictsMulti(First, Second, GuardsHold, FD) &&
           !separatesThreads(First, First, Second, FD) &&
           !separatesThreads(Second, First, Second, FD);
  // A group's base is a leader's own index only ('(tid / 32) * 32' under
  // 'tid % 32 == 0', Group 1): the rules below read it.
  if (First.Coeff >= 0 && Second.Coeff >= 0 &&
      (First.Coeff > 1 || Second.Coeff > 1) &&
      (!First.WarpLocal || First.Group > 1) &&
      (!Second.WarpLocal || Second.Group > 1))
    return conflictsStrided(First, Second, GuardsHold, FD);
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
      // The same thread, or a thread the launches never run.
      if (K == 0 || noThreadAt(K < 0 ? -K : K))
        return false;
      if (!GuardsHold)
        return AfterChange;
      // tFirst = tSecond + K cannot hold within the threads' ranges (a
      // fold step: threads 256..319 read s[tid] and write s[tid - 256]).
      auto [Lo1, Hi1] = threadRange(First);
      auto [Lo2, Hi2] = threadRange(Second);
      if ((Hi2 != INT64_MAX && Hi2 + K < Lo1) ||
          (Hi1 != INT64_MAX && Hi1 < Lo2 + K))
        return false;
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
  // Every thread writes its own element; then an index that does not depend
  // on the thread is read: by every thread, or by one thread at an index
  // that reaches other threads' elements. And the same the other way round:
  // such a read, then every thread overwrites its element (a tile refilled
  // while others still read it).
  auto Unowned = [&](const Access &Fixed, const Access &Own) {
    return Fixed.Uniform.empty() && Own.Uniform.empty() &&
           noThreadAt(Fixed.Const - Own.Const);
  };
  // A condition on the thread around the own-element access keeps its
  // threads off the fixed element only where it provably excludes the
  // thread that owns it: 'if (tid < count) tile[tid] = ...' still stores
  // the elements that 'tile[j]' reads, and 'if (tid < s) sh[tid] = ...'
  // the 'sh[0]' that every thread reads after the last round.
  auto KeptOff = [&](const Access &Fixed, const Access &Own) {
    if (!hasThreadGuard(Own, Own.Thread, FD))
      return false;
    if (!Fixed.Uniform.empty() || !Own.Uniform.empty())
      return !ownerMayWrite(Own, FD);
    int64_t Owner = Fixed.Const - Own.Const;
    auto [Lo, Hi] = threadRange(Own);
    int64_t Only;
    if (Owner < Lo || Owner > Hi ||
        (onlyThread(Own, FD, Only) && Only != Owner))
      return true;
    return !ownerMayWrite(Own, FD);
  };
  if (First.Coeff == 1 && Second.Coeff == 0 && First.Write &&
      Second.Read && !Second.Write) {
    if (KeptOff(Second, First) || Unowned(Second, First))
      return false;
    return !hasThreadGuard(Second, First.Thread, FD) ||
           readsOtherThreadsElement(Second, First, FD) ||
           admitsManyThreads(Second, FD);
  }
  if (First.Coeff == 0 && Second.Coeff == 1 && First.Read &&
      !First.Write && Second.Write) {
    if (KeptOff(First, Second) || Unowned(First, Second))
      return false;
    return !hasThreadGuard(First, Second.Thread, FD) ||
           readsOtherThreadsElement(First, Second, FD) ||
           admitsManyThreads(First, FD);
  }
  if (First.Coeff == 0 && Second.Coeff == 0 &&
      First.Uniform == Second.Uniform && First.Const == Second.Const &&
      (GuardsHold || First.Uniform.empty())) {
    // One writer (if (tid == 0) s[0] = ...), and every thread reads; or
    // every thread reads, and then one thread overwrites it.
    // A reader under bounds that let many threads through ('tid < n', a
    // thread-stride loop) includes threads other than the writer.
    if (First.Write && Second.Read && !Second.Write)
      return writerIsOneThread(First, FD) &&
             (!hasThreadGuard(Second, nullptr, FD) ||
              admitsManyThreads(Second, FD));
    if (First.Read && !First.Write && Second.Write)
      return writerIsOneThread(Second, FD) &&
             (!hasThreadGuard(First, nullptr, FD) ||
              admitsManyThreads(First, FD));
  }
  return false;
}


std::optional<std::pair<int64_t, int64_t>>
SharedMemoryRaces::stridedThreads(const Access &A, const FunctionDecl *FD) {
  const KernelLaunches &L =
      TranslationUnitAnalyses::get(Kernel->getASTContext())
          .launches()
          .launchesOf(Kernel);
  // A block has at most 1024 threads.
  int64_t Last = L.known() && L.BlockDim[0] && *L.BlockDim[0] > 0
                     ? std::min<int64_t>(*L.BlockDim[0], 1024) - 1
                     : 1023;
  int64_t Only;
  if (onlyThread(A, FD, Only))
    return std::pair(Only, Only);
  if (!hasThreadGuard(A, A.Thread, FD))
    return std::pair<int64_t, int64_t>(0, Last);
  if (!A.Thread)
    return admitsManyThreads(A, FD)
               ? std::optional(std::pair<int64_t, int64_t>(0, Last))
               : std::nullopt;
  // Guards that are bounds: threadRange() reads those by constants; one
  // by a value ('tid < n') leaves all the block.
  if (!ownerMayWrite(A, FD))
    return std::nullopt;
  Access One = A;
  One.Coeff = 1;
  auto [Lo, Hi] = threadRange(One);
  Hi = std::min(Hi, Last);
  if (Lo > Hi)
    return std::nullopt;
  return std::pair(Lo, Hi);
}

bool SharedMemoryRaces::conflictsStrided(const Access &First,
                                         const Access &Second,
                                         bool GuardsHold,
                                         const FunctionDecl *FD) {
  // Each access touches C * t + K + S * j for the threads t that make it
  // and the values j of at most one loop counter around it (a window of
  // elements, 'a[j + tid * 2]'); each access's counter is taken
  // separately, as its pass may be another. Every other term must be the
  // same in both, and unchanged between them.
  struct Form {
    int64_t C, K, S = 0, JLo = 0, JHi = 0, TLo, THi, G = 1;
  };
  auto FormOf = [&](const Access &A, const Access &Other,
                    Form &F) -> bool {
    auto Threads = stridedThreads(A, FD);
    if (!Threads)
      return false;
    F.C = A.Coeff;
    F.K = A.Const;
    F.G = A.Group;
    std::tie(F.TLo, F.THi) = *Threads;
    bool Window = false;
    for (const auto &[Key, C] : A.Uniform) {
      const Expr *X = A.UniformExprs.at(Key);
      auto Same = Other.Uniform.find(Key);
      if (Same != Other.Uniform.end() && Same->second == C &&
          varOf(Other.UniformExprs.at(Key)) == varOf(X) &&
          !counterRange(varOf(X), A.At, A.Fn) &&
          (GuardsHold || !varies(X, A.Fn)))
        continue;
      auto Range = counterRange(dyn_cast_or_null<VarDecl>(varOf(X)), A.At,
                                A.Fn);
      if (Window || !Range || Range->second - Range->first > 4096)
        return false;
      Window = true;
      F.S = C;
      std::tie(F.JLo, F.JHi) = *Range;
    }
    return true;
  };
  Form F1, F2;
  if (!FormOf(First, Second, F1) || !FormOf(Second, First, F2))
    return false;
  // Some thread T1 of First's and another T2 of Second's touch one
  // element: C1 T1 + K1 + S1 J1 == C2 T2 + K2 + S2 J2.
  auto SecondHolds = [&](int64_t Value, int64_t T1) {
    for (int64_t J2 = F2.JLo; J2 <= F2.JHi; ++J2) {
      int64_t Rest = Value - F2.K - F2.S * J2;
      if (F2.C == 0) {
        if (Rest == 0 && (F2.TLo != F2.THi || F2.TLo != T1))
          return true;
        continue;
      }
      if (Rest % F2.C != 0 || Rest < 0)
        continue;
      // The threads T2 with T2 / G2 == Rest / C2.
      int64_t Lo = std::max(F2.TLo, Rest / F2.C * F2.G),
              Hi = std::min(F2.THi, Rest / F2.C * F2.G + F2.G - 1);
      if (Lo < Hi || (Lo == Hi && Lo != T1))
        return true;
    }
    return false;
  };
  // The few thousand combinations a window and a block make.
  if ((F1.THi - F1.TLo + 1) * (F1.JHi - F1.JLo + 1) * (F2.JHi - F2.JLo + 1) >
      (int64_t(1) << 22))
    return false;
  for (int64_t T1 = F1.TLo; T1 <= F1.THi; ++T1)
    for (int64_t J1 = F1.JLo; J1 <= F1.JHi; ++J1)
      if (SecondHolds(F1.C * (T1 / F1.G) + F1.K + F1.S * J1, T1))
        return true;
  return false;
}

bool SharedMemoryRaces::conflictsAtomic(const Access &First,
                                        const Access &Second, bool GuardsHold,
                                        const FunctionDecl *FD) {
  // Atomics are ordered among themselves, and two tickets name two slots.
  if ((First.Atomic && Second.Atomic) ||
      (First.TicketSlot && Second.TicketSlot))
    return false;
  // One thread makes both.
  int64_t T1, T2;
  if (onlyThread(First, FD, T1) && onlyThread(Second, FD, T2) && T1 == T2)
    return false;
  if (noThreadAt(1))
    return false; // One thread per block.
  // An unknown element may be the one another thread touches.
  if (First.AnySlot || Second.AnySlot)
    return true;
  if (First.Multi || Second.Multi)
    return First.Multi == Second.Multi &&
           conflictsMulti(First, Second, GuardsHold, FD);
  // One element for every thread: the counter.
  if (First.Coeff == 0 && Second.Coeff == 0)
    return First.Uniform == Second.Uniform && First.Const == Second.Const &&
           (GuardsHold || First.Uniform.empty());
  // Elements by the thread's index: as plain accesses.
  Access F = First, S = Second;
  F.Atomic = S.Atomic = false;
  return conflicts(F, S, GuardsHold, FD);
}

bool SharedMemoryRaces::conflictsMulti(const Access &First,
                                             const Access &Second,
                                             bool GuardsHold,
                                             const FunctionDecl *FD) {
  if (First.Dims.size() != Second.Dims.size())
    return false;
  // Thread T1 makes First, thread T2 makes Second; per dimension
  // C1 * t1[a] + U1 + K1 == C2 * t2[b] + U2 + K2. Each coordinate is in at
  // most one dimension of each access, so the dimensions are independent
  // equations; a uniform difference may take any value, but only in one
  // dimension (otherwise stay silent).
  struct Eq {
    bool Free = false; // The difference has a uniform part.
    int64_t D = 0;     // Its constant: C1 t1 - C2 t2 = D.
  };
  llvm::SmallVector<Eq, 3> Eqs;
  std::map<std::string, unsigned> Uses;
  CoordRanges R1 = coordinateRanges(First), R2 = coordinateRanges(Second);
  for (unsigned I = 0; I < First.Dims.size(); ++I) {
    const DimIndex &F = First.Dims[I], &S = Second.Dims[I];
    std::map<std::string, int64_t> Diff = S.Uniform;
    for (const auto &[Key, C] : F.Uniform) {
      // After a variable of the terms changed, a term no longer has the
      // value it had at First.
      std::string K =
          !GuardsHold && varies(F.UniformExprs.at(Key), FD) ? "#" + Key : Key;
      if ((Diff[K] -= C) == 0)
        Diff.erase(K);
    }
    Eq E;
    E.D = S.Const - F.Const;
    E.Free = !Diff.empty();
    for (const auto &[Key, C] : Diff)
      if (++Uses[Key] > 1)
        return false;
    // t and t + blockDim of one coordinate are never the same element.
    if (Diff.size() == 1 && E.D == 0 && F.Coord >= 0 && F.Coord == S.Coord &&
        F.Coeff == S.Coeff) {
      const auto &[Key, C] = *Diff.begin();
      const Expr *X = S.UniformExprs.count(Key) ? S.UniformExprs.at(Key)
                      : F.UniformExprs.count(Key) ? F.UniformExprs.at(Key)
                                                  : nullptr;
      if ((C == 1 || C == -1) && isBlockDim(X, F.Coord))
        return false;
    }
    // Feasible with coordinates >= 0.
    if (F.Coord >= 0 && S.Coord >= 0) {
      // t1 = s * t2 + d.
      if (F.Coeff * S.Coeff == -1 && !E.Free && E.D * F.Coeff < 0)
        return false;
    } else if (F.Coord >= 0) {
      if (!E.Free && E.D * F.Coeff < 0)
        return false;
    } else if (S.Coord >= 0) {
      if (!E.Free && -E.D * S.Coeff < 0)
        return false;
    } else if (E.Free || E.D != 0) {
      return false;
    }
    // The constant bounds around the accesses ('if (tx < 8)'): the
    // element of one must be reachable from the other's threads.
    if (!E.Free) {
      const auto &[Lo1, Hi1] =
          F.Coord >= 0 ? R1[F.Coord] : std::pair<int64_t, int64_t>{0, 0};
      const auto &[Lo2, Hi2] =
          S.Coord >= 0 ? R2[S.Coord] : std::pair<int64_t, int64_t>{0, 0};
      if (F.Coord >= 0 && S.Coord >= 0 && F.Coeff == S.Coeff) {
        // t1 = t2 + d.
        int64_t Dlt = E.D * F.Coeff;
        if ((Hi2 != INT64_MAX && Hi2 + Dlt < Lo1) ||
            (Hi1 != INT64_MAX && Lo2 + Dlt > Hi1))
          return false;
      } else if (F.Coord >= 0 && S.Coord < 0) {
        int64_t T1 = E.D * F.Coeff;
        if (T1 < Lo1 || T1 > Hi1)
          return false;
      } else if (S.Coord >= 0 && F.Coord < 0) {
        int64_t T2 = -E.D * S.Coeff;
        if (T2 < Lo2 || T2 > Hi2)
          return false;
      }
    }
    Eqs.push_back(E);
  }
  auto DimOf = [](const Access &A, int C) {
    for (unsigned I = 0; I < A.Dims.size(); ++I)
      if (A.Dims[I].Coord == C)
        return int(I);
    return -1;
  };
  // Some coordinate the accesses use can differ between T1 and T2.
  for (int C = 0; C < 3; ++C) {
    int I1 = DimOf(First, C), I2 = DimOf(Second, C);
    if (I1 < 0 && I2 < 0)
      continue; // Not used: the block may be flat in it.
    // The bounds around both accesses leave one value ('if (tx < 1)').
    if (R1[C].first == R1[C].second && R1[C] == R2[C])
      continue;
    if (I1 < 0 || I2 < 0)
      return true;
    const Eq &E1 = Eqs[I1], &E2 = Eqs[I2];
    const DimIndex &F1 = First.Dims[I1], &S2 = Second.Dims[I2];
    if (I1 == I2) {
      if (E1.Free)
        return true;
      if (F1.Coeff == Second.Dims[I1].Coeff ? E1.D != 0 : E1.D * F1.Coeff >= 1)
        return true;
      continue;
    }
    // t1[C] is fixed when its dimension has no coordinate of T2 and no
    // uniform part; t2[C] likewise.
    auto Fixed = [](const DimIndex &Mine, const DimIndex &Other,
                    const Eq &E, int64_t Value) -> std::optional<int64_t> {
      if (E.Free)
        return std::nullopt;
      if (Other.Coord < 0)
        return Value;
      // t1 + t2 == 0: both 0.
      if (Mine.Coeff * Other.Coeff == -1 && E.D == 0)
        return 0;
      return std::nullopt;
    };
    auto V1 = Fixed(F1, Second.Dims[I1], E1, E1.D * F1.Coeff);
    auto V2 = Fixed(S2, First.Dims[I2], E2, -E2.D * S2.Coeff);
    if (!V1 || !V2 || *V1 != *V2)
      return true;
  }
  return false;
}

} // namespace clang::tidy::cuda
