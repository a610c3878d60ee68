//===- SharedMemoryBounds.cpp - Shared tiles indexed past their extent ----===//

#include "SharedMemoryBounds.h"
#include "Minimum.h"
#include "BarrierIntervals.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

namespace clang::tidy::cuda {

namespace {

using Overrun = SharedBoundsOverrun;

const Expr *strip(const Expr *E) { return ThreadIndexAnalysis::strip(E); }

/// The statement the CFG holds as an element around \p S.
const Stmt *elementOf(const Stmt *S, const FunctionCfg &Cfg,
                      std::optional<CfgPoint> &Point) {
  const ParentMap &PM = Cfg.parents();
  for (; S; S = PM.getParent(S))
    if ((Point = Cfg.pointOf(S)))
      return S;
  return nullptr;
}

/// Whether \p S leaves the enclosing code: return, break, continue, or a
/// block whose last statement does.
bool endsInJump(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && endsInJump(CS->body_back());
  return isa_and_nonnull<ReturnStmt, BreakStmt, ContinueStmt>(S);
}

} // namespace

bool SharedMemoryBounds::readCoords(const Expr *E, int64_t K, CoordForm &F,
                                    int Depth) {
  E = strip(E);
  if (!E || Depth > 8)
    return false;
  ASTContext &Ctx = FD->getASTContext();
  if (auto V = ThreadIndexAnalysis::integerConstant(E, Ctx)) {
    F.Const += K * *V;
    return true;
  }
  unsigned Dim;
  if (TI.threadCoordinate(E, FD, Dim)) {
    if (Dim > 2)
      return false;
    F.C[Dim] += K;
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add:
      return readCoords(BO->getLHS(), K, F, Depth + 1) &&
             readCoords(BO->getRHS(), K, F, Depth + 1);
    case BO_Sub:
      return readCoords(BO->getLHS(), K, F, Depth + 1) &&
             readCoords(BO->getRHS(), -K, F, Depth + 1);
    case BO_Mul:
      if (auto V = ThreadIndexAnalysis::integerConstant(BO->getLHS(), Ctx))
        return readCoords(BO->getRHS(), K * *V, F, Depth + 1);
      if (auto V = ThreadIndexAnalysis::integerConstant(BO->getRHS(), Ctx))
        return readCoords(BO->getLHS(), K * *V, F, Depth + 1);
      return false;
    case BO_Rem:
    case BO_And:
    case BO_Div:
    case BO_Shr: {
      // A lane 't % C' ('t & (C - 1)') or a group 't / C' ('t >> k') of
      // one coordinate t.
      auto V = ThreadIndexAnalysis::integerConstant(BO->getRHS(), Ctx);
      CoordForm Of;
      if (!V || *V < 0 || F.D ||
          !readCoords(BO->getLHS(), 1, Of, Depth + 1) || Of.D || Of.Const)
        return false;
      Derived D;
      for (int I = 0; I < 3; ++I)
        if (Of.C[I]) {
          if (D.Dim >= 0 || Of.C[I] != 1)
            return false;
          D.Dim = I;
        }
      if (D.Dim < 0)
        return false;
      switch (BO->getOpcode()) {
      case BO_Rem:
        D.K = Derived::Mod, D.C = *V;
        break;
      case BO_And:
        if (!llvm::isPowerOf2_64(uint64_t(*V) + 1))
          return false;
        D.K = Derived::Mod, D.C = *V + 1;
        break;
      case BO_Div:
        D.K = Derived::Div, D.C = *V;
        break;
      default:
        if (*V > 30)
          return false;
        D.K = Derived::Div, D.C = int64_t(1) << *V;
        break;
      }
      if (D.C <= 0)
        return false;
      F.D = D;
      F.DCoeff = K;
      return true;
    }
    default:
      return false;
    }
  }
  // A helper's integer parameter stands for the caller's argument
  // ('load_tile(s, threadIdx.x + 1)'), read where the call is.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *PV = dyn_cast<ParmVarDecl>(DRE->getDecl());
        PV && PV->getType()->isIntegralOrEnumerationType()) {
      const FunctionDecl *SavedFD = FD;
      const FunctionCfg *SavedCfg = Cfg;
      const Binding *SavedBound = Bound, *B = Bound;
      const Expr *Arg = enterArgument(PV);
      if (!Arg)
        return false;
      bool Read = readCoords(Arg, K, F, Depth + 1);
      FD = SavedFD, Cfg = SavedCfg, Bound = SavedBound;
      if (Read)
        noteBinding(B, PV, Arg);
      return Read;
    }
  // A local integer that nothing changes after its initializer
  // ('int col = tx + 1') stands for it.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->isLocalVarDecl() && VD->getInit() &&
          VD->getType()->isIntegralOrEnumerationType() &&
          !TI.isModified(VD, FD) && !Cfg->hasIndirectUse(VD))
        return readCoords(VD->getInit(), K, F, Depth + 1);
  return false;
}

const Expr *SharedMemoryBounds::enterArgument(const ParmVarDecl *PV) {
  if (!Bound || Bound->Callee != FD || PV->getDeclContext() != FD ||
      TI.isModified(PV, FD) ||
      (PV->getType()->isIntegralOrEnumerationType() &&
       Cfg->hasIndirectUse(PV)))
    return nullptr;
  const CallExpr *Call = Bound->Call;
  unsigned I = PV->getFunctionScopeIndex();
  if (isa<CXXOperatorCallExpr>(Call) || I >= Call->getNumArgs() ||
      I >= FD->getNumParams() || FD->getParamDecl(I) != PV)
    return nullptr;
  const Expr *Arg = Call->getArg(I);
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(Arg))
    Arg = DA->getExpr();
  FD = Bound->Caller;
  Cfg = Bound->CallerCfg;
  Bound = Bound->Parent;
  return Arg;
}

void SharedMemoryBounds::noteBinding(const Binding *B, const ParmVarDecl *PV,
                                     const Expr *Arg) {
  auto DepthOf = [](const Binding *X) {
    unsigned N = 0;
    for (; X; X = X->Parent)
      ++N;
    return N;
  };
  if (UsedBinding && DepthOf(UsedBinding) <= DepthOf(B))
    return;
  UsedBinding = B;
  UsedParam = PV;
  UsedArg = Arg;
}

const VarDecl *SharedMemoryBounds::sharedArray(const VarDecl *VD) {
  if (VD->hasAttr<CUDASharedAttr>())
    return VD;
  const auto *PV = dyn_cast<ParmVarDecl>(VD);
  QualType T = VD->getType();
  if (!PV || !(T->isPointerType() || (T->isReferenceType() &&
                                      T.getNonReferenceType()->isArrayType())))
    return nullptr;
  // The array itself, decayed or bound to a reference: not an element's
  // address ('&tile[1][0]') or a row ('tile[ty]'), nor a cast.
  const FunctionDecl *SavedFD = FD;
  const FunctionCfg *SavedCfg = Cfg;
  const Binding *SavedBound = Bound, *B = Bound;
  const VarDecl *Out = nullptr;
  if (const Expr *Arg = enterArgument(PV)) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
    const auto *Named = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (Named && (Named->getType()->isArrayType() || isa<ParmVarDecl>(Named)))
      Out = sharedArray(Named);
    if (Out)
      noteBinding(B, PV, Arg);
  }
  FD = SavedFD, Cfg = SavedCfg, Bound = SavedBound;
  return Out;
}

namespace {
/// Whether some variable or query of \p E has a thread-derived value with
/// one of the sources \p Mask.
struct SourceFinder : RecursiveASTVisitor<SourceFinder> {
  ThreadIndexAnalysis &TI;
  const FunctionDecl *FD;
  unsigned Mask;
  bool Found = false;
  SourceFinder(ThreadIndexAnalysis &TI, const FunctionDecl *FD, unsigned Mask)
      : TI(TI), FD(FD), Mask(Mask) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) { return test(E); }
  bool VisitMemberExpr(MemberExpr *E) { return test(E); }
  bool VisitCallExpr(CallExpr *E) { return test(E); }
  bool test(const Expr *E) {
    if (E->getType()->isIntegralOrEnumerationType() ||
        E->getType()->isRecordType())
      Found |= (TI.valueOf(E, FD).Sources & Mask) != 0;
    return !Found;
  }
};
} // namespace

namespace {
/// The parameters of \p FD that \p E reads.
llvm::SmallVector<const ParmVarDecl *, 2> parametersIn(const Expr *E,
                                                      const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl *FD;
    llvm::SmallVector<const ParmVarDecl *, 2> Out;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *PV = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        if (PV->getDeclContext() == FD && !llvm::is_contained(Out, PV))
          Out.push_back(PV);
      return true;
    }
  } F;
  F.FD = FD;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Out;
}
} // namespace

bool SharedMemoryBounds::mentionsSource(const Expr *E, unsigned Mask,
                                        int Depth) {
  SourceFinder F(TI, FD, Mask);
  F.TraverseStmt(const_cast<Expr *>(E));
  if (F.Found || !Bound || Depth > 4)
    return F.Found;
  // A parameter bound by the call carries what its argument does there.
  bool Found = false;
  for (const ParmVarDecl *PV : parametersIn(E, FD)) {
    const FunctionDecl *SavedFD = FD;
    const FunctionCfg *SavedCfg = Cfg;
    const Binding *SavedBound = Bound;
    if (const Expr *Arg = enterArgument(PV))
      Found = mentionsSource(Arg, Mask, Depth + 1);
    FD = SavedFD, Cfg = SavedCfg, Bound = SavedBound;
    if (Found)
      break;
  }
  return Found;
}

bool SharedMemoryBounds::mentionsThreadInBlock(const Expr *E) {
  return mentionsSource(E, TS_ThreadInBlock, 0);
}

bool SharedMemoryBounds::mentionsBlockIndex(const Expr *E) {
  return mentionsSource(E, TS_BlockInGrid | TS_GridRank, 0);
}

bool SharedMemoryBounds::applyDerivedCondition(CoordForm L, CoordForm Rt,
                                               BinaryOperatorKind Op,
                                               const Expr *Guard, Ranges &R) {
  // k * d + c op 0 for one lane or group d, k = +-1, with nothing else.
  if (Rt.D) {
    std::swap(L, Rt);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (Rt.D || Rt.usesCoordinates() || L.C[0] || L.C[1] || L.C[2] ||
      (L.DCoeff != 1 && L.DCoeff != -1))
    return false;
  int64_t C = L.Const - Rt.Const;
  if (L.DCoeff == -1)
    Op = BinaryOperator::reverseComparisonOp(Op);
  int64_t V = L.DCoeff == 1 ? -C : C;
  const Derived &D = *L.D;
  if (D.K == Derived::Div) {
    // A group bounds its coordinate: 't / C < V' is 't < V * C'.
    Range &Rg = R[D.Dim];
    auto LowerHi = [&](int64_t H) {
      if (!Rg.Hi || H < *Rg.Hi) {
        Rg.Hi = H;
        Rg.Why = Overrun::Guard;
        Rg.GuardExpr = Guard;
      }
    };
    switch (Op) {
    case BO_LT: LowerHi(V * D.C - 1); break;
    case BO_LE: LowerHi((V + 1) * D.C - 1); break;
    case BO_GT: Rg.Lo = std::max(Rg.Lo, (V + 1) * D.C); break;
    case BO_GE: Rg.Lo = std::max(Rg.Lo, V * D.C); break;
    case BO_EQ:
      Rg.Lo = std::max(Rg.Lo, V * D.C);
      LowerHi((V + 1) * D.C - 1);
      break;
    default:
      return false;
    }
    return true;
  }
  LaneRange *Lr = nullptr;
  for (LaneRange &X : Lanes)
    if (X.D == D)
      Lr = &X;
  if (!Lr) {
    Lanes.push_back({D, 0, INT64_MAX, nullptr});
    Lr = &Lanes.back();
  }
  auto LowerHi = [&](int64_t H) {
    if (H < Lr->Hi) {
      Lr->Hi = H;
      Lr->Guard = Guard;
    }
  };
  switch (Op) {
  case BO_LT: LowerHi(V - 1); break;
  case BO_LE: LowerHi(V); break;
  case BO_GT: Lr->Lo = std::max(Lr->Lo, V + 1); break;
  case BO_GE: Lr->Lo = std::max(Lr->Lo, V); break;
  case BO_EQ:
    Lr->Lo = std::max(Lr->Lo, V);
    LowerHi(V);
    break;
  default:
    return false;
  }
  return true;
}

namespace {
/// Whether \p E grows with a parameter of \p FD: a sum in which an
/// integer parameter appears with a positive sign ('n - start * 64').
bool growsWithParameter(const Expr *E, const FunctionDecl *FD, int Sign,
                        int Depth) {
  E = strip(E);
  if (!E || Depth > 6)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *PV = dyn_cast<ParmVarDecl>(DRE->getDecl());
    return Sign > 0 && PV && PV->getDeclContext() == FD &&
           PV->getType()->isIntegralOrEnumerationType();
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  if (BO->getOpcode() == BO_Add)
    return growsWithParameter(BO->getLHS(), FD, Sign, Depth + 1) ||
           growsWithParameter(BO->getRHS(), FD, Sign, Depth + 1);
  if (BO->getOpcode() == BO_Sub)
    return growsWithParameter(BO->getLHS(), FD, Sign, Depth + 1) ||
           growsWithParameter(BO->getRHS(), FD, -Sign, Depth + 1);
  return false;
}
} // namespace

std::optional<int64_t> SharedMemoryBounds::cappedSize(const Expr *E,
                                                      int Depth) {
  E = strip(E);
  if (!E || Depth > 4)
    return std::nullopt;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->isLocalVarDecl() && VD->getInit() &&
          VD->getType()->isIntegralOrEnumerationType() &&
          !TI.isModified(VD, FD) && !Cfg->hasIndirectUse(VD))
        return cappedSize(VD->getInit(), Depth + 1);
  // In a helper, a parameter may be bound to a small constant.
  if (Bound)
    return std::nullopt;
  // 'min(n - start, C)', or the same written 'n - start < C ? n - start : C'.
  ASTContext &Ctx = FD->getASTContext();
  auto [First, Second] = minimumOperands(E, Ctx);
  if (!First || !Second)
    return std::nullopt;
  const Expr *Operands[2] = {First, Second};
  for (unsigned I = 0; I < 2; ++I) {
    auto C = ThreadIndexAnalysis::integerConstant(Operands[I], Ctx);
    const Expr *Size = Operands[1 - I];
    if (C && !ThreadIndexAnalysis::integerConstant(Size, Ctx) &&
        !mentionsThreadInBlock(Size) && growsWithParameter(Size, FD, 1, 0))
      return C;
  }
  return std::nullopt;
}

bool SharedMemoryBounds::applyCondition(const Expr *Cond, bool Truth,
                                        Ranges &R) {
  const Expr *E = strip(Cond);
  if (!E)
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot)
    return applyCondition(UO->getSubExpr(), !Truth, R);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (BO && BO->isLogicalOp()) {
    // 'a && b' true, or 'a || b' false: both parts hold.
    if ((BO->getOpcode() == BO_LAnd) == Truth)
      return applyCondition(BO->getLHS(), Truth, R) &&
             applyCondition(BO->getRHS(), Truth, R);
    return !mentionsThreadInBlock(E);
  }
  if (!mentionsThreadInBlock(E))
    return true;
  if (!BO || !BO->isComparisonOp())
    return false;
  BinaryOperatorKind Op = BO->getOpcode();
  if (!Truth)
    Op = BinaryOperator::negateComparisonOp(Op);
  CoordForm L, Rt;
  bool LRead = readCoords(BO->getLHS(), 1, L, 0);
  bool RRead = readCoords(BO->getRHS(), 1, Rt, 0);
  // A size capped by a constant ('tx < col_size' with 'col_size =
  // min(n - start, 64)'): for large enough data it is the constant, and
  // every thread below it passes. Only as an upper bound of the thread.
  if (LRead != RRead && !L.D && !Rt.D) {
    bool ThreadLeft = LRead;
    BinaryOperatorKind Up = ThreadLeft ? Op : BinaryOperator::reverseComparisonOp(Op);
    if (Up == BO_LT || Up == BO_LE)
      if (auto Cap = cappedSize(ThreadLeft ? BO->getRHS() : BO->getLHS(), 0)) {
        CoordForm &Other = ThreadLeft ? Rt : L;
        Other = CoordForm();
        Other.Const = *Cap;
        LRead = RRead = true;
      }
  }
  if (LRead && RRead) {
    if (L.D || Rt.D)
      return applyDerivedCondition(L, Rt, Op, BO, R);
    // c * t + k op 0, one coordinate t, c = +-1.
    CoordForm D = L;
    for (int I = 0; I < 3; ++I)
      D.C[I] -= Rt.C[I];
    D.Const -= Rt.Const;
    int Dim = -1;
    for (int I = 0; I < 3; ++I)
      if (D.C[I]) {
        if (Dim >= 0)
          return false;
        Dim = I;
      }
    if (Dim < 0)
      return true;
    int64_t C = D.C[Dim];
    if (C != 1 && C != -1)
      return false;
    if (C == -1)
      Op = BinaryOperator::reverseComparisonOp(Op);
    int64_t V = C == 1 ? -D.Const : D.Const;
    Range &Rg = R[Dim];
    auto LowerHi = [&](int64_t H) {
      if (!Rg.Hi || H < *Rg.Hi) {
        Rg.Hi = H;
        Rg.Why = Overrun::Guard;
        Rg.GuardExpr = BO;
      }
    };
    switch (Op) {
    case BO_LT: LowerHi(V - 1); break;
    case BO_LE: LowerHi(V); break;
    case BO_GT: Rg.Lo = std::max(Rg.Lo, V + 1); break;
    case BO_GE: Rg.Lo = std::max(Rg.Lo, V); break;
    case BO_EQ:
      Rg.Lo = std::max(Rg.Lo, V);
      LowerHi(V);
      break;
    case BO_NE:
      if (V == Rg.Lo)
        ++Rg.Lo;
      if (Rg.Hi && V == *Rg.Hi)
        LowerHi(V - 1);
      break;
    default:
      return false;
    }
    return true;
  }
  // A bound on a global index by a size ('col < n'): some block has
  // threads of every coordinate that pass it.
  if (BO->isRelationalOp()) {
    const Expr *ThreadSide = BO->getLHS(), *Other = BO->getRHS();
    if (!mentionsThreadInBlock(ThreadSide))
      std::swap(ThreadSide, Other);
    return mentionsBlockIndex(ThreadSide) && !mentionsThreadInBlock(Other) &&
           !mentionsBlockIndex(Other);
  }
  return false;
}

bool SharedMemoryBounds::usesStaticSharedArray(const Stmt *Body, int Depth) {
  // A kernel with no statically sized __shared__ array in reach has
  // nothing to check: its launches are not read (the launch analysis is
  // most of this check's cost).
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::SmallVector<const CallExpr *, 8> Calls;
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()))
        if (VD->hasAttr<CUDASharedAttr>() &&
            (VD->getType()->isConstantArrayType() ||
             VD->getType()->isDependentType()))
          Found = true;
      return !Found;
    }
    bool VisitCallExpr(CallExpr *E) {
      Calls.push_back(E);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  if (F.Found)
    return true;
  if (Depth >= 2)
    return false;
  for (const CallExpr *Call : F.Calls)
    if (const FunctionDecl *Helper = deviceHelperDefinition(Call))
      if (Helper->getBody() && Helper->getBody() != Body &&
          usesStaticSharedArray(Helper->getBody(), Depth + 1))
        return true;
  return false;
}

void SharedMemoryBounds::overrunsIn(
    const FunctionDecl &Kernel, const FunctionCfg &KernelCfg,
    llvm::function_ref<void(const SharedBoundsOverrun &)> Found) {
  FD = &Kernel;
  Cfg = &KernelCfg;
  Bound = nullptr;
  Widest = nullptr;
  WidestBlock = {1, 1, 1};
  ASTContext &Ctx = Kernel.getASTContext();
  const Stmt *Body = Kernel.getBody();
  if (!Body || !usesStaticSharedArray(Body, 0))
    return;

  // The block: the largest of the launches, every one read.
  Ranges Block;
  const KernelLaunches &L = Launches.launchesOf(&Kernel);
  if (L.known()) {
    bool All = true;
    int64_t Largest = 0;
    for (const LaunchSite &S : L.Sites) {
      std::array<int64_t, 3> B;
      for (int D = 0; D < 3; ++D) {
        if (!S.Dims[D].BlockConst || *S.Dims[D].BlockConst <= 0)
          All = false;
        else
          B[D] = *S.Dims[D].BlockConst;
      }
      if (!All)
        break;
      for (int D = 0; D < 3; ++D)
        if (!Block[D].Hi || B[D] - 1 > *Block[D].Hi)
          Block[D].Hi = B[D] - 1;
      if (B[0] * B[1] * B[2] > Largest) {
        Largest = B[0] * B[1] * B[2];
        Widest = &S;
        WidestBlock = B;
      }
    }
    // The largest block must be largest in every dimension: blocks of
    // 32x1 and 1x32 have no thread (31, 31).
    for (int D = 0; D < 3 && All; ++D)
      if (*Block[D].Hi != WidestBlock[D] - 1)
        All = false;
    if (!All) {
      Widest = nullptr;
      for (Range &R : Block)
        R.Hi.reset();
    }
    for (Range &R : Block)
      R.Why = Overrun::BlockOfLaunch;
  } else if (const auto *LB = Kernel.getAttr<CUDALaunchBoundsAttr>()) {
    // A kernel that reads only threadIdx.x may run blocks as wide as its
    // bound.
    struct YZ : RecursiveASTVisitor<YZ> {
      bool Found = false;
      bool VisitExpr(Expr *E) {
        ThreadSource Src;
        unsigned Dim;
        if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim) &&
            (Src & (TS_ThreadInBlock | TS_BlockDim)) && Dim > 0)
          Found = true;
        return !Found;
      }
    } F;
    F.TraverseStmt(const_cast<Stmt *>(Body));
    auto Max = ThreadIndexAnalysis::integerConstant(LB->getMaxThreads(), Ctx);
    if (!F.Found && Max && *Max > 0) {
      Block[0].Hi = *Max - 1;
      Block[0].Why = Overrun::LaunchBounds;
      WidestBlock = {*Max, 1, 1};
      Block[1].Hi = Block[2].Hi = 0;
    }
  }

  checkBody(Body, Block, {}, 0, Found);
  FD = &Kernel;
  Cfg = &KernelCfg;
}

void SharedMemoryBounds::checkBody(
    const Stmt *Body, const Ranges &Start,
    const llvm::SmallVector<LaneRange, 2> &StartLanes, int Depth,
    llvm::function_ref<void(const SharedBoundsOverrun &)> Found) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    llvm::DenseSet<const Expr *> Inner;
    std::vector<const ArraySubscriptExpr *> Outer;
    std::vector<const CallExpr *> Calls;
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
      if (Inner.contains(E))
        return true;
      Outer.push_back(E);
      for (const Expr *B = E->getBase()->IgnoreParenImpCasts();
           const auto *In = dyn_cast<ArraySubscriptExpr>(B);
           B = In->getBase()->IgnoreParenImpCasts())
        Inner.insert(In);
      return true;
    }
    bool VisitCallExpr(CallExpr *E) {
      Calls.push_back(E);
      return true;
    }
  } V;
  V.TraverseStmt(const_cast<Stmt *>(Body));
  for (const ArraySubscriptExpr *E : V.Outer)
    check(E, Start, StartLanes, Found);
  if (Depth >= 2)
    return;
  // The __device__ helpers called here, with the threads that reach the
  // call: their own thread indices ('shared[lane]' in a block reduction)
  // run on the kernel's block.
  const FunctionDecl *Caller = FD;
  const FunctionCfg *CallerCfg = Cfg;
  const Binding *CallerBound = Bound;
  for (const CallExpr *Call : V.Calls) {
    const FunctionDecl *Helper = deviceHelperDefinition(Call);
    if (!Helper || Helper == Caller || !Helper->getBody())
      continue;
    FD = Caller;
    Cfg = CallerCfg;
    Bound = CallerBound;
    std::optional<CfgPoint> Point;
    if (!elementOf(Call, *Cfg, Point) || !Point)
      continue;
    Ranges AtCall = Start;
    Lanes = StartLanes;
    if (!narrowAt(Call, *Point, AtCall))
      continue;
    llvm::SmallVector<LaneRange, 2> LanesAtCall = Lanes;
    std::shared_ptr<const FunctionCfg> HelperCfg =
        TranslationUnitAnalyses::get(Helper->getASTContext())
            .sharedCfgOf(Helper);
    if (!HelperCfg)
      continue;
    Binding B{Helper, Call, Caller, CallerCfg, CallerBound};
    FD = Helper;
    Cfg = HelperCfg.get();
    Bound = &B;
    checkBody(Helper->getBody(), AtCall, LanesAtCall, Depth + 1, Found);
    Bound = CallerBound;
  }
  FD = Caller;
  Cfg = CallerCfg;
}

bool SharedMemoryBounds::narrowAt(const Stmt *From, const CfgPoint &Point,
                                  Ranges &R) {
  const ParentMap &PM = Cfg->parents();
  llvm::SmallVector<const Expr *, 4> Read;
  const Stmt *Child = From;
  for (const Stmt *S = PM.getParent(Child); S; Child = S, S = PM.getParent(S)) {
    const Expr *Cond = nullptr;
    bool Truth = true;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (Child == If->getCond() || Child == If->getInit() ||
          Child == If->getConditionVariableDeclStmt())
        continue;
      Cond = If->getCond();
      Truth = Child == If->getThen();
    } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
      Cond = Child == W->getBody() ? W->getCond() : nullptr;
    } else if (const auto *For = dyn_cast<ForStmt>(S)) {
      Cond = Child == For->getBody() ? For->getCond() : nullptr;
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
      if (Child == CO->getTrueExpr() || Child == CO->getFalseExpr()) {
        Cond = CO->getCond();
        Truth = Child == CO->getTrueExpr();
      }
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
               BO && BO->isLogicalOp() && Child == BO->getRHS()) {
      Cond = BO->getLHS();
      Truth = BO->getOpcode() == BO_LAnd;
    } else if (isa<SwitchStmt, DoStmt>(S)) {
      const Expr *C = isa<SwitchStmt>(S) ? cast<SwitchStmt>(S)->getCond()
                                         : cast<DoStmt>(S)->getCond();
      if (mentionsThreadInBlock(C))
        return false;
    }
    if (!Cond)
      continue;
    if (!applyCondition(Cond, Truth, R))
      return false;
    Read.push_back(Cond);
  }
  // Every other condition that decides whether the access runs: an early
  // exit ('if (tx >= TILE - 1) return;') is read on its false side; any
  // other test of the thread makes the thread unknown.
  bool Unknown = false;
  bool Complete = Cfg->forEachTransitiveControlDependency(
      Point.Block, [&](const CFGBlock *Dep) {
        const Stmt *T = Dep->getTerminatorStmt();
        const auto *Cond = dyn_cast_or_null<Expr>(Dep->getTerminatorCondition());
        if (!T || !Cond || !mentionsThreadInBlock(Cond))
          return true;
        for (const Expr *C : Read)
          if (FunctionCfg::contains(C, Cond, PM))
            return true;
        const Stmt *Owner = FunctionCfg::owningStatement(T, PM);
        if (const auto *If = dyn_cast_or_null<IfStmt>(Owner);
            If && !If->getElse() && endsInJump(If->getThen()) &&
            !FunctionCfg::contains(If, From, PM) &&
            applyCondition(If->getCond(), false, R)) {
          Read.push_back(If->getCond());
          return true;
        }
        Unknown = true;
        return false;
      });
  return !Unknown && Complete;
}

bool SharedMemoryBounds::checkDerived(const CoordForm &F, const Ranges &Rs,
                                      SharedBoundsOverrun &O) {
  const Derived &D = *F.D;
  const Range &T = Rs[D.Dim];
  if (!T.Hi || T.Lo < 0)
    return false;
  int64_t Lo = T.Lo, Hi = *T.Hi, C = D.C;
  // The values the lane or group takes, and a thread that takes each end.
  int64_t DMin, DMax, TMin, TMax;
  bool Full = false;
  if (D.K == Derived::Div) {
    DMin = Lo / C, TMin = Lo;
    DMax = Hi / C, TMax = Hi;
  } else if (Hi - Lo + 1 >= C) {
    Full = true;
    DMin = 0, DMax = C - 1;
    TMin = Lo + (C - Lo % C) % C;
    TMax = Lo + (C - 1 - Lo % C);
  } else if (Lo / C == Hi / C) {
    DMin = Lo % C, TMin = Lo;
    DMax = Hi % C, TMax = Hi;
  } else {
    return false;
  }
  // The conditions on the lane ('lane < 8') narrow it.
  const Expr *LaneGuard = nullptr;
  for (const LaneRange &X : Lanes) {
    if (!(X.D == D))
      continue;
    int64_t NewMin = std::max(DMin, X.Lo), NewMax = std::min(DMax, X.Hi);
    if (NewMin > NewMax)
      return false;
    auto ThreadFor = [&](int64_t V) {
      return Full ? Lo + ((V - Lo % C) % C + C) % C : Lo - Lo % C + V;
    };
    if (NewMin != DMin)
      DMin = NewMin, TMin = ThreadFor(DMin);
    if (NewMax != DMax)
      DMax = NewMax, TMax = ThreadFor(DMax), LaneGuard = X.Guard;
  }
  int64_t K = F.DCoeff;
  int64_t Max = F.Const + (K > 0 ? K * DMax : K * DMin);
  int64_t Min = F.Const + (K > 0 ? K * DMin : K * DMax);
  auto Explain = [&](int64_t Thread, bool FromHi, const Expr *Guard) {
    O.Thread = {0, 0, 0};
    O.Thread[D.Dim] = Thread;
    O.Why = FromHi ? T.Why : Overrun::FirstThread;
    O.GuardExpr = T.GuardExpr;
    if (Guard) {
      O.Why = Overrun::Guard;
      O.GuardExpr = Guard;
    }
    if (O.Why == Overrun::BlockOfLaunch) {
      O.Site = Widest;
      O.Block = WidestBlock;
      return Widest != nullptr;
    }
    if (O.Why == Overrun::LaunchBounds)
      O.Block = WidestBlock;
    return true;
  };
  // Whether the end was reached through the coordinate's upper end (a
  // lane of a block at least C wide, or the last group).
  bool MaxFromHi = K > 0 ? TMax == Hi || Full : TMin == Hi;
  if (Max >= O.Extent) {
    O.Reached = Max;
    return Explain(K > 0 ? TMax : TMin, MaxFromHi,
                   K > 0 ? LaneGuard : nullptr);
  }
  if (Min < 0) {
    O.Reached = Min;
    return Explain(K > 0 ? TMin : TMax, K < 0, K < 0 ? LaneGuard : nullptr);
  }
  return false;
}

void SharedMemoryBounds::check(
    const ArraySubscriptExpr *Outer, const Ranges &Block,
    const llvm::SmallVector<LaneRange, 2> &StartLanes,
    llvm::function_ref<void(const SharedBoundsOverrun &)> Found) {
  ASTContext &Ctx = FD->getASTContext();
  // The subscripts, leftmost first, and the shared array.
  llvm::SmallVector<const ArraySubscriptExpr *, 3> Subs;
  const Expr *Base = Outer;
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(Base)) {
    Subs.insert(Subs.begin(), AS);
    Base = AS->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  UsedBinding = nullptr;
  UsedParam = nullptr;
  UsedArg = nullptr;
  // A helper's pointer or array parameter: the caller's shared array.
  if (VD && !VD->hasAttr<CUDASharedAttr>())
    VD = sharedArray(VD);
  if (!VD || !VD->hasAttr<CUDASharedAttr>() ||
      VD->getType()->isDependentType())
    return;
  const Binding *ArrayBinding = UsedBinding;
  const ParmVarDecl *ArrayParam = UsedParam;
  const Expr *ArrayArg = UsedArg;
  llvm::SmallVector<int64_t, 3> Extents;
  for (QualType T = VD->getType();;) {
    const auto *CAT = Ctx.getAsConstantArrayType(T);
    if (!CAT)
      break;
    Extents.push_back(CAT->getSize().getSExtValue());
    T = CAT->getElementType();
  }
  if (Extents.empty() || Subs.size() > Extents.size())
    return;

  // How the access uses the element; '&tile[n]' may point one past.
  const ParentMap &PM = Cfg->parents();
  Overrun::Access_ How = Overrun::Read;
  const Stmt *P = PM.getParentIgnoreParenImpCasts(const_cast<ArraySubscriptExpr *>(Outer));
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P)) {
    if (UO->getOpcode() == UO_AddrOf)
      return;
    if (UO->isIncrementDecrementOp())
      How = Overrun::Update;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
             BO && BO->isAssignmentOp() &&
             strip(BO->getLHS()) == strip(Outer)) {
    How = BO->isCompoundAssignmentOp() ? Overrun::Update : Overrun::Write;
  }

  llvm::SmallVector<std::optional<CoordForm>, 3> Forms;
  /// The binding each subscript's form read through.
  struct Used {
    const Binding *B = nullptr;
    const ParmVarDecl *Param = nullptr;
    const Expr *Arg = nullptr;
  };
  llvm::SmallVector<Used, 3> FormBindings;
  bool Any = false;
  for (const ArraySubscriptExpr *AS : Subs) {
    CoordForm F;
    UsedBinding = nullptr;
    bool Read = readCoords(AS->getIdx(), 1, F, 0);
    FormBindings.push_back(UsedBinding
                               ? Used{UsedBinding, UsedParam, UsedArg}
                               : Used{ArrayBinding, ArrayParam, ArrayArg});
    if (Read && F.usesCoordinates() &&
        !(F.D && (F.C[0] || F.C[1] || F.C[2]))) {
      Forms.push_back(F);
      Any = true;
    } else {
      Forms.push_back(std::nullopt);
    }
  }
  if (!Any)
    return;

  // The coordinates of the threads that reach the access: the conditions
  // around it, the early exits before it, and the facts on every path.
  std::optional<CfgPoint> Point;
  const Stmt *Element = elementOf(Outer, *Cfg, Point);
  if (!Element || !Point)
    return;
  Ranges R = Block;
  Lanes = StartLanes;
  if (!narrowAt(Outer, *Point, R))
    return;

  // The facts on every path bound the coordinates, or the whole index.
  const FactList *Facts = TI.boundsAt(Element, FD);
  if (!Facts)
    return;

  for (unsigned I = 0; I < Subs.size(); ++I) {
    if (!Forms[I])
      continue;
    const CoordForm &F = *Forms[I];
    const Expr *Index = Subs[I]->getIdx();
    Ranges Rs = R;
    std::optional<int64_t> WholeHi;
    std::string IndexKey = TI.variablePartKey(Index);
    for (const BoundFact *Fact : *Facts) {
      if (Fact->K != BoundFact::Less || !Fact->RHSKey.empty())
        continue;
      if (Fact->LHSKey == IndexKey)
        WholeHi = std::min(WholeHi.value_or(INT64_MAX),
                           Fact->RHSConst - 1 + TI.constantPart(Index));
    }
    // A coordinate's own fact: a guard on 'tx' read where the index is
    // 'tx + 1' (or 'threadIdx.x' where it is 'tx').
    auto Uses = [&](int D) { return F.C[D] || (F.D && F.D->Dim == D); };
    for (int D = 0; D < 3; ++D) {
      if (!Uses(D))
        continue;
      for (const BoundFact *Fact : *Facts) {
        if (Fact->K != BoundFact::Less || !Fact->RHSKey.empty() ||
            !Fact->Guard)
          continue;
        const auto *G = dyn_cast<BinaryOperator>(strip(Fact->Guard));
        if (!G || !G->isComparisonOp())
          continue;
        CoordForm GL, GR;
        if (!readCoords(G->getLHS(), 1, GL, 0) ||
            !readCoords(G->getRHS(), 1, GR, 0))
          continue;
        int N = 0;
        for (int J = 0; J < 3; ++J)
          N += (GL.C[J] - GR.C[J]) != 0;
        if (N == 1 && GL.C[D] - GR.C[D] == 1 && GL.Const - GR.Const == 0 &&
            Fact->RHSConst - 1 < Rs[D].Hi.value_or(INT64_MAX)) {
          // Only a fact on exactly this coordinate, as the guard wrote it.
          std::string Key = TI.variablePartKey(G->getLHS());
          if (Key == Fact->LHSKey) {
            Rs[D].Hi = Fact->RHSConst - 1;
            Rs[D].Why = Overrun::Guard;
            Rs[D].GuardExpr = Fact->Guard;
          }
        }
      }
    }
    bool Empty = false;
    for (int D = 0; D < 3; ++D)
      if (Uses(D) && Rs[D].Hi && *Rs[D].Hi < Rs[D].Lo)
        Empty = true;
    if (Empty)
      return;
    // A condition on a lane the index does not read picks threads that
    // are not known.
    bool OtherLane = false;
    for (const LaneRange &X : Lanes)
      if (Uses(X.D.Dim) && !(F.D && *F.D == X.D))
        OtherLane = true;
    if (OtherLane)
      continue;

    Overrun O;
    O.Access = Outer;
    O.At = Subs[I];
    O.Index = Index;
    O.Array = VD;
    O.Subscript = I;
    O.Rank = Extents.size();
    O.Extent = Extents[I];
    O.How = How;
    if (FormBindings[I].B) {
      O.BoundAt = FormBindings[I].B->Call;
      O.BoundParam = FormBindings[I].Param;
      O.BoundArg = FormBindings[I].Arg;
    }
    for (int D = 0; D < 3; ++D)
      if (Uses(D))
        O.UsedDims |= 1u << D;
    if (F.D) {
      if (checkDerived(F, Rs, O))
        Found(O);
      continue;
    }

    // The largest index: each coordinate at the end its coefficient favours.
    bool MaxKnown = true;
    int64_t Max = F.Const, Min = F.Const;
    std::array<int64_t, 3> AtMax = {0, 0, 0}, AtMin = {0, 0, 0};
    bool MinKnown = true;
    for (int D = 0; D < 3; ++D) {
      if (!F.C[D])
        continue;
      const Range &Rg = Rs[D];
      if (F.C[D] > 0) {
        if (!Rg.Hi)
          MaxKnown = false;
        else
          Max += F.C[D] * *Rg.Hi, AtMax[D] = *Rg.Hi;
        Min += F.C[D] * Rg.Lo, AtMin[D] = Rg.Lo;
      } else {
        Max += F.C[D] * Rg.Lo, AtMax[D] = Rg.Lo;
        if (!Rg.Hi)
          MinKnown = false;
        else
          Min += F.C[D] * *Rg.Hi, AtMin[D] = *Rg.Hi;
      }
    }
    auto Explain = [&](const std::array<int64_t, 3> &At, bool Upper) {
      O.Thread = At;
      O.Why = Overrun::FirstThread;
      for (int D = 0; D < 3; ++D) {
        if (!F.C[D] || (F.C[D] > 0) != Upper)
          continue;
        if (Rs[D].Why == Overrun::Guard) {
          O.Why = Overrun::Guard;
          O.GuardExpr = Rs[D].GuardExpr;
          break;
        }
        O.Why = Rs[D].Why;
      }
      if (O.Why == Overrun::BlockOfLaunch) {
        O.Site = Widest;
        O.Block = WidestBlock;
      } else if (O.Why == Overrun::LaunchBounds) {
        O.Block = WidestBlock;
      }
    };
    if (MaxKnown && Max >= O.Extent && (!WholeHi || *WholeHi >= O.Extent)) {
      O.Reached = Max;
      Explain(AtMax, true);
      if (O.Why == Overrun::BlockOfLaunch && !O.Site)
        continue;
      Found(O);
      return;
    }
    if (MinKnown && Min < 0) {
      O.Reached = Min;
      Explain(AtMin, false);
      if (O.Why == Overrun::BlockOfLaunch && !O.Site)
        continue;
      Found(O);
      return;
    }
  }
}

} // namespace clang::tidy::cuda
