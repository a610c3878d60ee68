//===- LaunchConfigurationGeometry.cpp - Grid and block -------------------===//
//
// The grid, block and dynamic shared memory of one launch, per dimension,
// and how its grid covers the data it was computed from: the shape of the
// grid expression (a floor division, a rounded-up one, ceil()), and how
// its denominator relates to the block.
//
//===----------------------------------------------------------------------===//

#include "LaunchConfigurationInternal.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "MemorySpaceAnalysis.h"
#include "ThreadIndexAnalysis.h"
#include "TranslationUnitScan.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda {

using namespace launch_config;

/// The shape of a grid expression: Extent / Den (floor) or rounded up.
GridShape LaunchConfiguration::Impl::shapeOf(Val G, unsigned Depth) {
  GridShape S;
  if (Depth > 6 || !G.E || G.Unknown)
    return S;
  G = resolve(G, Depth);
  const Expr *E = G.E;
  // Sums and differences flattened into signed leaves, each with its
  // value when it is a constant ('n', 'threads', '-1').
  struct Leaf {
    int Sign;
    Val V;
    std::optional<int64_t> C;
  };
  auto Flatten = [&](Val N, llvm::SmallVectorImpl<Leaf> &Leaves) {
    llvm::SmallVector<std::pair<int, Val>, 4> Work{{1, N}};
    while (!Work.empty() && Leaves.size() < 8) {
      auto [Sign, Written] = Work.pop_back_val();
      Val W = resolve(Written, Depth + 1);
      const auto *BO = dyn_cast<BinaryOperator>(W.E);
      if (BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
        Work.push_back({Sign, {BO->getLHS(), W.F}});
        Work.push_back({BO->getOpcode() == BO_Add ? Sign : -Sign,
                        {BO->getRHS(), W.F}});
        continue;
      }
      Leaves.push_back({Sign, Written, evaluate(Written, Depth + 1)});
    }
  };
  // The extent in a numerator and the constant added to it: the one leaf
  // that is not a constant, or else the largest constant.
  auto Split = [&](llvm::SmallVectorImpl<Leaf> &Leaves, Val &Extent,
                   int64_t &Const) {
    int X = -1;
    for (unsigned I = 0; I < Leaves.size(); ++I)
      if (!Leaves[I].C) {
        if (X >= 0 || Leaves[I].Sign != 1)
          return false;
        X = I;
      }
    if (X < 0)
      for (unsigned I = 0; I < Leaves.size(); ++I)
        if (Leaves[I].Sign == 1 && (X < 0 || *Leaves[I].C > *Leaves[X].C))
          X = I;
    if (X < 0)
      return false;
    Const = 0;
    for (unsigned I = 0; I < Leaves.size(); ++I)
      if (int(I) != X)
        Const += Leaves[I].Sign * *Leaves[I].C;
    Extent = Leaves[X].V;
    return true;
  };
  // Numerator N over the denominator: floor, or rounded up when N adds
  // Den - 1 (or any positive constant) to the extent.
  auto Divide = [&](Val N, Val Den, std::optional<int64_t> DenC) {
    GridShape R;
    R.Den = Den;
    R.DenConst = DenC ? DenC : evaluate(Den, Depth + 1);
    llvm::SmallVector<Leaf, 4> Leaves;
    Flatten(N, Leaves);
    bool HasDen = false;
    if (Leaves.size() > 1)
      for (unsigned I = 0; I < Leaves.size(); ++I)
        if (Leaves[I].Sign == 1 &&
            ((Den.E && same(Leaves[I].V, Den, Depth + 1)) ||
             (!Den.E && R.DenConst && Leaves[I].C &&
              *Leaves[I].C == *R.DenConst))) {
          Leaves.erase(Leaves.begin() + I);
          HasDen = true;
          break;
        }
    int64_t Const = 0;
    if (!Split(Leaves, R.Extent, Const))
      return R;
    if (!HasDen && Const <= 0) {
      // Keep the numerator as written: (n - 1) / B stays within n - 1.
      R.Extent = N;
      R.K = GridShape::Floor;
    } else if ((HasDen && (Const == -1 || Const == 0)) ||
               (!HasDen && Const > 0)) {
      R.K = GridShape::Ceil;
    }
    return R;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Div:
      return Divide({BO->getLHS(), G.F}, {BO->getRHS(), G.F}, std::nullopt);
    case BO_Shr: {
      auto Sh = evaluate({BO->getRHS(), G.F}, Depth + 1);
      if (!Sh || *Sh < 0 || *Sh > 30)
        return S;
      return Divide({BO->getLHS(), G.F}, Val{}, int64_t(1) << *Sh);
    }
    case BO_Add: {
      // X / D + 1, X / D + (X % D != 0), X / D + (X % D ? 1 : 0) and
      // (X - 1) / D + 1: rounded up.
      for (int Side = 0; Side < 2; ++Side) {
        const Expr *L = Side ? BO->getRHS() : BO->getLHS();
        const Expr *R = Side ? BO->getLHS() : BO->getRHS();
        GridShape Base = shapeOf({L, G.F}, Depth + 1);
        if (Base.K == GridShape::None)
          continue;
        auto One = evaluate({R, G.F}, Depth + 1);
        const Expr *RS = ThreadIndexAnalysis::strip(R);
        bool Remainder = isa<BinaryOperator>(RS) || isa<ConditionalOperator>(RS);
        if ((One && *One == 1) || (!One && Remainder)) {
          if (Base.K == GridShape::Floor) {
            // (X - 1) / D + 1 is the extent X rounded up.
            llvm::SmallVector<Leaf, 4> Leaves;
            Flatten(Base.Extent, Leaves);
            Val X;
            int64_t Const = 0;
            if (Split(Leaves, X, Const) && Const == -1)
              Base.Extent = X;
          }
          Base.K = GridShape::Ceil;
          return Base;
        }
      }
      return S;
    }
    default:
      return S;
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    GridShape T = shapeOf({CO->getTrueExpr(), G.F}, Depth + 1);
    GridShape F = shapeOf({CO->getFalseExpr(), G.F}, Depth + 1);
    if (T.K == GridShape::None || F.K == GridShape::None ||
        !same(T.Extent, F.Extent, Depth + 1))
      return S;
    return T.K == GridShape::Ceil ? T : F;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return shapeOfCeilCall(Call, G, Depth);
  return S;
}

/// ceil(n / (float)B): rounded up.
GridShape LaunchConfiguration::Impl::shapeOfCeilCall(const CallExpr *Call,
                                                     Val G, unsigned Depth) {
  GridShape S;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() != 1)
    return S;
  llvm::StringRef Name = Callee->getName();
  if (Name != "ceil" && Name != "ceilf" && Name != "__builtin_ceil" &&
      Name != "__builtin_ceilf")
    return S;
  const auto *Div =
      dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(Call->getArg(0)));
  if (!Div || Div->getOpcode() != BO_Div)
    return S;
  S.K = GridShape::Ceil;
  S.Extent = {ThreadIndexAnalysis::strip(Div->getLHS()), G.F};
  S.Den = {Div->getRHS(), G.F};
  S.DenConst = evaluate(S.Den, Depth + 1);
  return S;
}

bool LaunchConfiguration::Impl::isMultipleOf(Val X, const GridShape &S) {
  auto XC = evaluate(X);
  if (XC && S.DenConst)
    return *S.DenConst != 0 && *XC % *S.DenConst == 0;
  // The facts at the launch: assert(n % B == 0), if (n % B) return. They
  // are asked in the function the extent is read in, with the extent as
  // written there and then followed through parameters and locals.
  const Expr *Den = S.Den.E;
  if (S.DenConst)
    Den = IntegerLiteral::Create(Ctx, llvm::APInt(64, *S.DenConst),
                                 Ctx.LongLongTy, SourceLocation());
  if (!Den)
    return false;
  for (unsigned Step = 0; Step < 6 && X.E; ++Step) {
    const Frame *F = X.F;
    while (F && !F->At)
      F = F->Parent;
    if (F && Facts.isKnownMultiple(X.E, Den, F->At, F->FD))
      return true;
    const Expr *Here = ThreadIndexAnalysis::strip(X.E);
    if (!isa<DeclRefExpr>(Here))
      break;
    Val Next = resolve({Here, X.F});
    if (Next.E == Here && Next.F == X.F)
      break;
    X = Next;
  }
  return false;
}

void LaunchConfiguration::Impl::classify(LaunchDimension &D, Val G, Val B,
                                         const LaunchSite &Site,
                                         llvm::ArrayRef<Val> Args) {
  if (G.Unknown || B.Unknown)
    return;
  D.Grid = G.E;
  D.Block = B.E;
  if (D.GridConst && D.BlockConst)
    D.Threads = *D.GridConst * *D.BlockConst;
  // The grid's shape first: '(1000 + 15) / 16' is a constant, and still
  // rounded up past 1000.
  GridShape S = G.E ? shapeOf(G) : GridShape();
  bool DenIsBlock = false, DenIsMultiple = false, BlockAtLeastDen = false;
  if (S.K != GridShape::None) {
    // How the denominator relates to the block: a floor division by a
    // multiple of the block stays within the extent; a rounded-up one by
    // the block (or less) runs past it.
    DenIsBlock = (S.Den.E && same(S.Den, B)) ||
                 (S.DenConst && D.BlockConst && *S.DenConst == *D.BlockConst);
    DenIsMultiple = DenIsBlock ||
                    (S.DenConst && D.BlockConst && *D.BlockConst > 0 &&
                     *S.DenConst % *D.BlockConst == 0);
    if (!DenIsMultiple && S.Den.E) {
      Val RD = resolve(S.Den);
      if (const auto *M = dyn_cast<BinaryOperator>(RD.E))
        if (M->getOpcode() == BO_Mul &&
            (same({M->getLHS(), RD.F}, B) || same({M->getRHS(), RD.F}, B)))
          DenIsMultiple = true;
    }
    BlockAtLeastDen = DenIsBlock || (S.DenConst && D.BlockConst &&
                                     *D.BlockConst >= *S.DenConst);
  }
  Val Extent;
  if (S.K == GridShape::Ceil && BlockAtLeastDen) {
    Extent = S.Extent;
    D.Cover = isMultipleOf(S.Extent, S) && DenIsBlock ? GridCover::Exact
                                                      : GridCover::RoundedUp;
  } else if (D.Threads) {
    D.Cover = *D.Threads == 1 ? GridCover::One : GridCover::Constant;
    return;
  } else if (D.GridConst && *D.GridConst == 1) {
    // One block of B threads.
    D.Cover = GridCover::Exact;
    Extent = B;
  } else if (S.K == GridShape::Floor && DenIsMultiple) {
    Extent = S.Extent;
    D.Cover = GridCover::Floor;
  } else {
    return;
  }
  // The extent as the launching code wrote it: a helper's or launcher's
  // parameter is shown as its argument ('n', not divUp's 'a').
  Val Shown = Extent;
  for (unsigned Step = 0; Step < 8 && Shown.E; ++Step) {
    const auto *DRE =
        dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(Shown.E));
    const auto *PV = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!PV || !Shown.F || !Shown.F->Call ||
        PV->getDeclContext() != Shown.F->FD ||
        PV->getFunctionScopeIndex() >= Shown.F->Call->getNumArgs())
      break;
    Shown = {Shown.F->Call->getArg(PV->getFunctionScopeIndex()),
             Shown.F->Parent};
  }
  D.Extent = ThreadIndexAnalysis::strip(Shown.E);
  for (unsigned I = 0; I < Args.size(); ++I)
    if (Args[I].E && same(Args[I], Extent))
      D.ExtentParams.push_back(I);
  (void)Site;
}

LaunchSite LaunchConfiguration::Impl::readSite(const CallExpr *Launch,
                                               const Frame *Top,
                                               const FunctionDecl *Kernel) {
  LaunchSite Site;
  Site.Launch = Launch;
  Site.Host = Top->FD;
  Site.Kernel = Kernel;
  ReadingLaunch = Launch;
  for (const Frame *F = Top; F; F = F->Parent)
    if (F->Call)
      Site.Via = F->Call;
  Val Grid = Val::unknown(), Block = Val::unknown(), Shared = Val::unknown();
  llvm::SmallVector<Val, 8> Args;
  unsigned NumParams = Kernel->getNumParams();
  if (const auto *KC = dyn_cast<CUDAKernelCallExpr>(Launch)) {
    if (const CallExpr *Config = KC->getConfig()) {
      if (Config->getNumArgs() >= 2) {
        Grid = {Config->getArg(0), Top};
        Block = {Config->getArg(1), Top};
      }
      if (Config->getNumArgs() >= 3)
        Shared = {Config->getArg(2), Top};
    }
    Site.ArgumentsKnown = true;
    for (unsigned I = 0; I < KC->getNumArgs() && I < NumParams; ++I)
      Args.push_back({KC->getArg(I), Top});
  } else if (const ApiFunction *F = CudaApiModel::lookup(Launch);
             F && F->Launch) {
    const LaunchInfo &L = *F->Launch;
    auto Arg = [&](int I) -> Val {
      if (I < 0 || (unsigned)I >= Launch->getNumArgs())
        return Val::unknown();
      return {Launch->getArg(I), Top};
    };
    if (L.ConfigArg >= 0) {
      Val Config = Arg(L.ConfigArg);
      if (!Config.Unknown) {
        if (auto G = fieldOf(Config, "gridDim", 0))
          Grid = *G;
        if (auto B = fieldOf(Config, "blockDim", 0))
          Block = *B;
        if (auto S = fieldOf(Config, "dynamicSmemBytes", 0))
          Shared = *S;
      }
      // The variadic form passes the kernel's own arguments.
      if (L.KernelArg >= 0 &&
          Launch->getNumArgs() == unsigned(L.KernelArg) + 1 + NumParams) {
        Site.ArgumentsKnown = true;
        for (unsigned I = 0; I < NumParams; ++I)
          Args.push_back(Arg(L.KernelArg + 1 + I));
      }
    } else {
      Grid = Arg(L.GridArg);
      Block = Arg(L.BlockArg);
      Shared = Arg(L.SharedMemArg);
    }
  }
  if (!Shared.Unknown && Shared.E) {
    Site.SharedMem = Shared.E;
    Site.SharedMemBytes = evaluate(Shared, 0, &Site.SharedMemFrom);
  }
  Val G[3], B[3];
  bool GridKnown = !Grid.Unknown && components(Grid, G);
  bool BlockKnown = !Block.Unknown && components(Block, B);
  for (unsigned D = 0; D < 3; ++D) {
    LaunchDimension &LD = Site.Dims[D];
    if (GridKnown)
      LD.GridConst = evaluate(G[D], 0, &LD.GridFrom);
    if (BlockKnown)
      LD.BlockConst = evaluate(B[D], 0, &LD.BlockFrom);
    if (GridKnown && BlockKnown)
      classify(LD, G[D], B[D], Site, Args);
    if (GridKnown && !LD.GridConst)
      classifyGrowth(LD, G[D]);
  }
  return Site;
}

} // namespace clang::tidy::cuda
