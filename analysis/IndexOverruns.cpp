//===- IndexOverruns.cpp --------------------------------------------------===//

#include "IndexOverruns.h"
#include "ArchConditionals.h"
#include "BarrierIntervals.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "MemorySpaceAnalysis.h"
#include "ThreadDivergence.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/bit.h"
#include <set>

namespace clang::tidy::cuda {

namespace {

bool isGlobalArray(const ValueDecl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  return VD && VD->hasGlobalStorage() &&
         CudaApiModel::isDeclaredDeviceVariable(VD) &&
         !VD->hasAttr<CUDASharedAttr>() &&
         !CudaApiModel::isDeclaredConstantVariable(VD) &&
         VD->getType()->isArrayType();
}

const char *const ExtentNamesX[] = {
    "n",      "N",     "size", "len",   "length",      "count",
    "num",    "numElements",   "num_elements", "nelems", "width",
    "cols",   "ncols", "nx",   "w",     "W",           "numCols",
    "num_cols", "K"};
const char *const ExtentNamesY[] = {"height", "rows",    "nrows",
                                    "ny",     "h",       "H",
                                    "numRows", "num_rows", "m", "M"};
const char *const ExtentNamesZ[] = {"depth", "nz", "d", "D"};

/// Whether \p P is an integer parameter named like an extent in the
/// dimensions \p Dims (1 x, 2 y, 4 z), or like a size of any kind.
bool isExtentNamed(const ParmVarDecl *P, unsigned Dims) {
  if (!P->getIdentifier() || !P->getType()->isIntegerType() ||
      P->getType()->isBooleanType())
    return false;
  auto In = [&](llvm::ArrayRef<const char *> Names) {
    return llvm::is_contained(Names, P->getName());
  };
  if (((Dims & 1) && In(ExtentNamesX)) || ((Dims & 2) && In(ExtentNamesY)) ||
      ((Dims & 4) && In(ExtentNamesZ)))
    return true;
  std::string Lower = P->getName().lower();
  llvm::StringRef L(Lower);
  return (Dims & 1) && (L.contains("size") || L.contains("len") ||
                        L.contains("count") || L.starts_with("num"));
}

/// A kernel parameter that plausibly holds the extent of dimension \p Dims.
std::string extentParameter(const FunctionDecl *Kernel, unsigned Dims) {
  llvm::SmallVector<const ParmVarDecl *, 4> Ints;
  for (const ParmVarDecl *P : Kernel->parameters())
    if (isExtentNamed(P, 7) || (P->getType()->isIntegerType() &&
                                !P->getType()->isBooleanType() &&
                                P->getIdentifier()))
      Ints.push_back(P);
  if (Ints.empty())
    return "";
  auto Find = [&](llvm::ArrayRef<const char *> Names) -> std::string {
    for (const char *Name : Names)
      for (const ParmVarDecl *P : Ints)
        if (P->getName() == Name)
          return Name;
    return "";
  };
  std::string Found;
  if (Dims & 4)
    Found = Find(ExtentNamesZ);
  else if (Dims & 2)
    Found = Find(ExtentNamesY);
  if (Found.empty() && !(Dims & 6))
    Found = Find(ExtentNamesX);
  if (!Found.empty())
    return Found;
  if (Ints.size() == 1 && !(Dims & 6))
    return Ints.front()->getName().str();
  if (!(Dims & 6))
    for (const ParmVarDecl *P : Ints)
      if (isExtentNamed(P, 1))
        return P->getName().str();
  return "";
}

/// Whether \p E (less a constant added to it) is the plain global index
/// of one dimension, blockIdx * blockDim + threadIdx, or the grid rank,
/// directly or through never-modified locals: the index for which 'i + 1'
/// is one past the thread's own element. A scaled or composite index
/// ('2 * i + 1', '2048 * blockIdx.x + 2 * lane + 1') is not.
bool isDenseGlobalIndex(const Expr *E, const FunctionDecl *FD,
                        ThreadIndexAnalysis &TI, unsigned Depth = 0) {
  if (!E || Depth > 6)
    return false;
  E = ThreadIndexAnalysis::strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
        TI.isModified(VD, FD))
      return false;
    return isDenseGlobalIndex(VD->getInit(), FD, TI, Depth + 1);
  }
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
    return Src == TS_GridRank;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub))
    return false;
  if (ThreadIndexAnalysis::integerConstant(BO->getRHS(), FD->getASTContext()))
    return isDenseGlobalIndex(BO->getLHS(), FD, TI, Depth + 1);
  if (BO->getOpcode() != BO_Add)
    return false;
  // threadIdx.d + blockIdx.d * blockDim.d, in any order.
  auto Query = [](const Expr *X, ThreadSource &S, unsigned &D) {
    return ThreadIndexAnalysis::isThreadQuery(X, S, D);
  };
  for (int Side = 0; Side < 2; ++Side) {
    const Expr *T = Side ? BO->getLHS() : BO->getRHS();
    const Expr *P = Side ? BO->getRHS() : BO->getLHS();
    ThreadSource TS;
    unsigned TD;
    if (!Query(T, TS, TD) || TS != TS_ThreadInBlock)
      continue;
    const auto *Mul =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(P));
    if (!Mul || Mul->getOpcode() != BO_Mul)
      continue;
    ThreadSource A, B;
    unsigned AD, BD;
    if (Query(Mul->getLHS(), A, AD) && Query(Mul->getRHS(), B, BD) &&
        AD == TD && BD == TD &&
        ((A == TS_BlockInGrid && B == TS_BlockDim) ||
         (A == TS_BlockDim && B == TS_BlockInGrid)))
      return true;
  }
  return false;
}

/// Whether \p VD holds a thread index on some paths and another value on
/// others: a whole value stored into it that is not derived from the thread
/// index ('= 0', '= atomicAdd(...)'), or its address taken.
bool storesOtherValue(const VarDecl *VD, const VariableStores &Stores,
                      const FunctionDecl *FD, ThreadIndexAnalysis &TI) {
  return Stores.isAddressTaken(VD) ||
         llvm::any_of(Stores.valuesOf(VD), [&](const StoredValue &V) {
           return !V.IsCompound && !TI.valueOf(V.Value, FD).isIndex();
         });
}

/// How many whole values are stored into \p VD: its initializer and plain
/// assignments ('i += s' updates the value it holds).
unsigned plainStores(const VarDecl *VD, const VariableStores &Stores) {
  return llvm::count_if(Stores.valuesOf(VD), [](const StoredValue &V) {
    return !V.IsCompound;
  });
}

/// Whether \p E mentions a variable whose value at \p At depends on the
/// path: one that holds a thread index on some paths and another value on
/// others ('indexW = tid * 32; ... indexW = 0;'), or one given values on
/// several paths that meet before \p At (not an induction variable,
/// which only its updates change). The index analysis reads such a
/// variable flow-insensitively, so a finding there would be a guess.
bool mentionsPathDependentVariable(const Expr *E, const Stmt *At,
                                   const FunctionDecl *FD,
                                   const FunctionCfg *Cfg,
                                   const VariableStores &Stores,
                                   ThreadIndexAnalysis &TI) {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if ((VD->isLocalVarDecl() || isa<ParmVarDecl>(VD)) &&
          !VD->getType()->isPointerType() && TI.isModified(VD, FD) &&
          (storesOtherValue(VD, Stores, FD, TI) ||
           (plainStores(VD, Stores) > 1 &&
            (!Cfg || !Cfg->hasUniqueReachingWrite(VD, At)))))
        return true;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (mentionsPathDependentVariable(CE, At, FD, Cfg, Stores, TI))
        return true;
  return false;
}

/// Whether \p S compares a value with the key \p Key (a thread index, as
/// ThreadIndexAnalysis::variablePartKey reads it) against a bound that is
/// the same for every thread of a block: 'if (i < n)' around another
/// access, a grid-stride loop over 'i', a clamp. A kernel that guards an
/// index there expects threads past the end, so an access at the same
/// index without the guard can run past. A comparison with a per-thread
/// value ('i < partner(i)', 'i < perm[i]') picks threads, not an extent.
bool comparesIndex(const Stmt *S, const std::string &Key,
                   const FunctionDecl *FD, ThreadIndexAnalysis &TI,
                   ThreadDivergence &Differs) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isRelationalOp()) {
    for (const Expr *Side : {BO->getLHS(), BO->getRHS()}) {
      const Expr *Other = Side == BO->getLHS() ? BO->getRHS() : BO->getLHS();
      // The index below an extent: 'i < n', 'n > i' (not 'i < 32').
      bool Below = (Side == BO->getLHS()) == (BO->getOpcode() == BO_LT ||
                                              BO->getOpcode() == BO_LE);
      if (Below && TI.valueOf(Side, FD).isIndex() &&
          !TI.valueOf(Other, FD).isIndex() &&
          !ThreadIndexAnalysis::integerConstant(Other, FD->getASTContext()) &&
          TI.variablePartKey(Side) == Key &&
          Differs.of(Other) == Divergence::None)
        return true;
    }
  }
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return comparesIndex(C, Key, FD, TI, Differs);
  });
}

bool mentions(const Stmt *S, const ParmVarDecl *P) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S))
    return DRE->getDecl() == P;
  return S && llvm::any_of(S->children(),
                           [&](const Stmt *C) { return mentions(C, P); });
}

/// Whether \p Kernel indexes in one dimension and has a parameter named
/// like an extent that it never uses: an extent passed and forgotten
/// ('int n' with no 'if (i < n)'). In two or three dimensions an unused
/// extent often belongs to a dimension the launch covers exactly.
bool usesOnlyDimensionX(const Stmt *S) {
  if (!S)
    return true;
  ThreadSource Source;
  unsigned Dim;
  if (const auto *E = dyn_cast<Expr>(S);
      E && ThreadIndexAnalysis::isThreadQuery(E, Source, Dim) && Dim != 0)
    return false;
  return llvm::all_of(S->children(),
                      [](const Stmt *C) { return usesOnlyDimensionX(C); });
}

bool hasForgottenExtent(const FunctionDecl *Kernel) {
  if (!usesOnlyDimensionX(Kernel->getBody()))
    return false;
  return llvm::any_of(Kernel->parameters(), [&](const ParmVarDecl *P) {
    return isExtentNamed(P, 7) && !P->isReferenced() &&
           !mentions(Kernel->getBody(), P);
  });
}

/// Whether \p E is an index in a canonical form whose range the analysis
/// reads with confidence: the global index of one dimension plus a
/// constant or a uniform offset ('i', 'i + 1', 'i + k'), or rows of such
/// indices over strides that do not come from the thread ('y * width + x', '(z
/// * ny + y) * nx + x'), through variables that only hold their initializer,
/// and index functions of the program over such coordinates. Scaled, decomposed
/// ('i / m', 'i % m'), clamped and data-dependent indices are not.
bool isCanonicalIndex(const Expr *E, const FunctionDecl *FD,
                      ThreadIndexAnalysis &TI, const Stmt *At,
                      const FunctionCfg *Cfg, unsigned Depth = 0) {
  if (!E || Depth > 8)
    return false;
  E = ThreadIndexAnalysis::strip(E);
  if (isDenseGlobalIndex(E, FD, TI))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl())
      return false;
    // The one value that reaches the access.
    const Expr *Value = !TI.isModified(VD, FD) ? VD->getInit()
                        : Cfg ? Cfg->uniqueReachingStore(VD, At)
                              : nullptr;
    return isCanonicalIndex(Value, FD, TI, At, Cfg, Depth + 1);
  }
  // A group of threads per item: the global index over a constant group
  // size ('(blockIdx.x * blockDim.x + threadIdx.x) / 32', a warp per row).
  if (const auto *Div = dyn_cast<BinaryOperator>(E);
      Div && (Div->getOpcode() == BO_Div || Div->getOpcode() == BO_Shr) &&
      ThreadIndexAnalysis::integerConstant(Div->getRHS(),
                                           FD->getASTContext()) &&
      isDenseGlobalIndex(ThreadIndexAnalysis::strip(Div->getLHS()), FD, TI))
    return true;
  // An index function of the program over canonical coordinates
  // ('at3(x, y, z, nx, ny)').
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->hasBody() ||
        ThreadIndexAnalysis::isIndexClamp(Callee))
      return false;
    bool AnyIndex = false;
    for (const Expr *Arg : Call->arguments()) {
      if (!TI.valueOf(Arg, FD).isIndex())
        continue;
      if (!isCanonicalIndex(Arg, FD, TI, At, Cfg, Depth + 1))
        return false;
      AnyIndex = true;
    }
    return AnyIndex;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  // Plus a constant or an offset that is the same for every thread (a
  // loop's 'k', a halo).
  if (BO->isAdditiveOp() && !TI.valueOf(R, FD).Sources)
    return isCanonicalIndex(L, FD, TI, At, Cfg, Depth + 1);
  if (BO->getOpcode() == BO_Add && !TI.valueOf(L, FD).Sources)
    return isCanonicalIndex(R, FD, TI, At, Cfg, Depth + 1);
  if (BO->getOpcode() != BO_Add)
    return false;
  // A tile's origin plus the thread in it: blockIdx.d * TILE +
  // threadIdx.d, with a constant tile.
  for (int Side = 0; Side < 2; ++Side) {
    ThreadSource TS, BS;
    unsigned TD, BD;
    const auto *Mul = dyn_cast<BinaryOperator>(
        ThreadIndexAnalysis::strip(Side ? L : R));
    if (!ThreadIndexAnalysis::isThreadQuery(
            ThreadIndexAnalysis::strip(Side ? R : L), TS, TD) ||
        TS != TS_ThreadInBlock || !Mul || Mul->getOpcode() != BO_Mul)
      continue;
    for (int M = 0; M < 2; ++M)
      if (ThreadIndexAnalysis::isThreadQuery(
              ThreadIndexAnalysis::strip(M ? Mul->getRHS() : Mul->getLHS()),
              BS, BD) &&
          BS == TS_BlockInGrid && BD == TD &&
          ThreadIndexAnalysis::integerConstant(
              M ? Mul->getLHS() : Mul->getRHS(), FD->getASTContext()))
        return true;
  }
  // row * stride + column, in either order.
  for (int Side = 0; Side < 2; ++Side) {
    const Expr *Row = ThreadIndexAnalysis::strip(Side ? R : L);
    const Expr *Col = Side ? L : R;
    const auto *Mul = dyn_cast<BinaryOperator>(Row);
    if (!Mul || Mul->getOpcode() != BO_Mul ||
        !isCanonicalIndex(Col, FD, TI, At, Cfg, Depth + 1))
      continue;
    for (int M = 0; M < 2; ++M) {
      const Expr *Coord = M ? Mul->getRHS() : Mul->getLHS();
      const Expr *Stride = M ? Mul->getLHS() : Mul->getRHS();
      if (!TI.valueOf(Stride, FD).Sources &&
          isCanonicalIndex(Coord, FD, TI, At, Cfg, Depth + 1))
        return true;
    }
  }
  return false;
}

/// Whether the value guarded by the fact with key \p GuardKey is a row of
/// \p E: a factor of a product ('(py + 1) * pitch + px' under 'py < n').
bool guardedInRow(const Expr *E, const std::string &GuardKey,
                  ThreadIndexAnalysis &TI, bool InProduct = false) {
  if (!E)
    return false;
  E = ThreadIndexAnalysis::strip(E);
  if (InProduct && TI.variablePartKey(E) == GuardKey)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->isLocalVarDecl() && VD->getInit())
      return guardedInRow(VD->getInit(), GuardKey, TI, InProduct);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  bool Product = InProduct || BO->getOpcode() == BO_Mul;
  return guardedInRow(BO->getLHS(), GuardKey, TI, Product) ||
         guardedInRow(BO->getRHS(), GuardKey, TI, Product);
}

/// Whether every row stride of \p E is \p Bound itself and every uniform
/// offset a local (a loop's 'k'): then a column that reaches \p Bound runs
/// into the next row or past the end. A row pitched otherwise
/// ('py * (nx + 1) + px' under 'px < nx'), or an offset into a larger
/// buffer ('start + i' under 'i <= len'), may have room.
bool rowsArePitchedBy(const Expr *E, const Expr *Bound,
                      const FunctionDecl *FD, ThreadIndexAnalysis &TI,
                      unsigned Depth = 0) {
  if (!E || Depth > 8)
    return true;
  E = ThreadIndexAnalysis::strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<ParmVarDecl>(DRE->getDecl()))
      return false;
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->isLocalVarDecl() && VD->getInit())
      return rowsArePitchedBy(VD->getInit(), Bound, FD, TI, Depth + 1);
    return true;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return true;
  if (BO->getOpcode() == BO_Mul) {
    // The stride: a factor that is neither the thread's nor a constant.
    for (const Expr *Factor : {BO->getLHS(), BO->getRHS()})
      if (!TI.valueOf(Factor, FD).Sources &&
          !ThreadIndexAnalysis::integerConstant(Factor, FD->getASTContext()))
        return TI.variablePartKey(Factor) == TI.variablePartKey(Bound);
    return true;
  }
  if (!BO->isAdditiveOp())
    return true;
  return rowsArePitchedBy(BO->getLHS(), Bound, FD, TI, Depth + 1) &&
         rowsArePitchedBy(BO->getRHS(), Bound, FD, TI, Depth + 1);
}

/// Whether the bound of \p F names an extent: a parameter or a member of
/// one ('n', 'p.size'), rather than a loop limit, a sum or a choice.
bool boundIsExtent(const BoundFact &F) {
  const Expr *B = F.Bound ? ThreadIndexAnalysis::strip(F.Bound) : nullptr;
  while (const auto *ME = dyn_cast_or_null<MemberExpr>(B))
    B = ThreadIndexAnalysis::strip(ME->getBase());
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(B);
  return DRE && isa<ParmVarDecl>(DRE->getDecl());
}


/// \p E, or the initializer of the never-modified local it reads.
const Expr *throughLocal(const Expr *E, const FunctionDecl *FD,
                         ThreadIndexAnalysis &TI) {
  E = ThreadIndexAnalysis::strip(E);
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
        VD && VD->isLocalVarDecl() && VD->getInit() && !TI.isModified(VD, FD))
      return ThreadIndexAnalysis::strip(VD->getInit());
  return E;
}

/// The condition 'i <= end' of a loop 'for (i = off[k]; i <= off[k + 1];
/// ++i)' around \p Access at index 'i': the loop walks one entry past the
/// segment [off[k], off[k + 1]) of an offset array, and for the last
/// segment past the end of the buffer it indexes.
const BinaryOperator *segmentLoopBound(const GlobalAccess &Access,
                                       const FunctionCfg &Cfg,
                                       ThreadIndexAnalysis &TI) {
  const FunctionDecl *FD = Cfg.function();
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(ThreadIndexAnalysis::strip(Access.Index));
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->isLocalVarDecl())
    return nullptr;
  const ParentMap &PM = Cfg.parents();
  const Stmt *Child = Access.At;
  for (const Stmt *P = PM.getParent(Child); P;
       Child = P, P = PM.getParent(P)) {
    const auto *For = dyn_cast<ForStmt>(P);
    if (!For || For->getBody() != Child)
      continue;
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        For->getCond() ? ThreadIndexAnalysis::strip(For->getCond()) : nullptr);
    if (!Cond || Cond->getOpcode() != BO_LE)
      return nullptr;
    const auto *CondRef =
        dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(Cond->getLHS()));
    if (!CondRef || CondRef->getDecl() != Var)
      return nullptr;
    // Stepped by one.
    const auto *Inc = dyn_cast_or_null<UnaryOperator>(
        For->getInc() ? ThreadIndexAnalysis::strip(For->getInc()) : nullptr);
    if (!Inc || !Inc->isIncrementOp())
      return nullptr;
    // Starts at off[k]: declared in the loop's init, or assigned there.
    const Expr *Start = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
        DS && DS->isSingleDecl() && DS->getSingleDecl() == Var)
      Start = Var->getInit();
    else if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(
                 ThreadIndexAnalysis::strip(
                     dyn_cast_or_null<Expr>(For->getInit())));
             Assign && Assign->getOpcode() == BO_Assign)
      if (const auto *L = dyn_cast<DeclRefExpr>(
              ThreadIndexAnalysis::strip(Assign->getLHS()));
          L && L->getDecl() == Var)
        Start = Assign->getRHS();
    const auto *Begin =
        dyn_cast_or_null<ArraySubscriptExpr>(throughLocal(Start, FD, TI));
    const auto *End =
        dyn_cast_or_null<ArraySubscriptExpr>(throughLocal(Cond->getRHS(), FD, TI));
    if (!Begin || !End || !End->getType()->isIntegerType())
      return nullptr;
    const auto *BeginBase =
        dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(Begin->getBase()));
    const auto *EndBase =
        dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(End->getBase()));
    if (!BeginBase || !EndBase || BeginBase->getDecl() != EndBase->getDecl() ||
        TI.variablePartKey(Begin->getIdx()) !=
            TI.variablePartKey(End->getIdx()) ||
        TI.constantPart(End->getIdx()) != TI.constantPart(Begin->getIdx()) + 1)
      return nullptr;
    return Cond;
  }
  return nullptr;
}
/// The block-per-item index in \p E: the block coordinate of one
/// dimension ('blockIdx.x', returns 0, 1 or 2) or the block's rank in a
/// 2-D grid ('blockIdx.x + blockIdx.y * gridDim.x', returns 3), directly or
/// through never-modified locals, whose keys are added to \p Keys.
std::optional<unsigned> blockItemDim(const Expr *E, const FunctionDecl *FD,
                                     ThreadIndexAnalysis &TI,
                                     llvm::SmallVectorImpl<std::string> &Keys,
                                     unsigned Depth = 0) {
  if (!E || Depth > 6)
    return std::nullopt;
  E = ThreadIndexAnalysis::strip(E);
  Keys.push_back(TI.variablePartKey(E));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
        !VD->getType()->isIntegerType() || TI.isModified(VD, FD))
      return std::nullopt;
    return blockItemDim(VD->getInit(), FD, TI, Keys, Depth + 1);
  }
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
    return Src == TS_BlockInGrid ? std::optional<unsigned>(Dim)
                                 : std::nullopt;
  // A same-TU helper that only returns the item ('return blockIdx.x;').
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Def = deviceHelperDefinition(Call);
    const auto *Body = Def ? dyn_cast<CompoundStmt>(Def->getBody()) : nullptr;
    if (!Body || Call->getNumArgs() != 0 || Body->size() != 1)
      return std::nullopt;
    const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
    return Ret ? blockItemDim(Ret->getRetValue(), Def, TI, Keys, Depth + 1)
               : std::nullopt;
  }
  // blockIdx.x + blockIdx.y * gridDim.x, in any order.
  const auto *Add = dyn_cast<BinaryOperator>(E);
  if (!Add || Add->getOpcode() != BO_Add)
    return std::nullopt;
  auto Is = [](const Expr *X, ThreadSource S, unsigned D) {
    ThreadSource XS;
    unsigned XD;
    X = ThreadIndexAnalysis::strip(X);
    return ThreadIndexAnalysis::isThreadQuery(X, XS, XD) &&
           XS == S && XD == D;
  };
  for (int Side = 0; Side < 2; ++Side) {
    const Expr *X = Side ? Add->getRHS() : Add->getLHS();
    const auto *Mul = dyn_cast<BinaryOperator>(
        ThreadIndexAnalysis::strip(Side ? Add->getLHS() : Add->getRHS()));
    if (!Is(X, TS_BlockInGrid, 0) || !Mul || Mul->getOpcode() != BO_Mul)
      continue;
    if ((Is(Mul->getLHS(), TS_BlockInGrid, 1) &&
         Is(Mul->getRHS(), TS_GridDim, 0)) ||
        (Is(Mul->getRHS(), TS_BlockInGrid, 1) &&
         Is(Mul->getLHS(), TS_GridDim, 0)))
      return 3u;
  }
  return std::nullopt;
}

/// The item of a row-of-item index: 'item * len + j' or 'j + item * len'
/// (j not from the block index), 'item * len', directly or through
/// never-modified locals; null otherwise. The block-per-item dimension is
/// set in \p Dim and the item's keys in \p Keys.
const Expr *rowItem(const Expr *E, const FunctionDecl *FD,
                    ThreadIndexAnalysis &TI,
                    llvm::SmallVectorImpl<std::string> &Keys,
                    std::optional<unsigned> &Dim, unsigned Depth = 0) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 3)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
        !VD->getType()->isIntegerType() || TI.isModified(VD, FD))
      return nullptr;
    return rowItem(VD->getInit(), FD, TI, Keys, Dim, Depth + 1);
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return nullptr;
  auto fromBlock = [&](const Expr *X) {
    return (TI.valueOf(X, FD).Sources & (TS_BlockInGrid | TS_GridRank)) != 0;
  };
  if (BO->getOpcode() == BO_Mul) {
    for (auto [F, Len] : {std::pair{BO->getLHS(), BO->getRHS()},
                          std::pair{BO->getRHS(), BO->getLHS()}}) {
      llvm::SmallVector<std::string, 4> K;
      if (fromBlock(Len) || TI.valueOf(Len, FD).Sources & TS_ThreadInBlock)
        continue;
      if (auto D = blockItemDim(F, FD, TI, K)) {
        Dim = D;
        Keys.append(K.begin(), K.end());
        return ThreadIndexAnalysis::strip(F);
      }
    }
    return nullptr;
  }
  if (BO->getOpcode() != BO_Add)
    return nullptr;
  for (auto [Row, J] : {std::pair{BO->getLHS(), BO->getRHS()},
                        std::pair{BO->getRHS(), BO->getLHS()}}) {
    if (fromBlock(J))
      continue;
    if (const Expr *Item = rowItem(Row, FD, TI, Keys, Dim, Depth + 1))
      return Item;
  }
  return nullptr;
}

/// \p E less a constant added to it ('item + 1' gives 'item').
const Expr *withoutConstant(const Expr *E, const ASTContext &Ctx) {
  E = ThreadIndexAnalysis::strip(E);
  while (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (!BO->isAdditiveOp())
      break;
    if (ThreadIndexAnalysis::integerConstant(BO->getRHS(), Ctx))
      E = ThreadIndexAnalysis::strip(BO->getLHS());
    else if (BO->getOpcode() == BO_Add &&
             ThreadIndexAnalysis::integerConstant(BO->getLHS(), Ctx))
      E = ThreadIndexAnalysis::strip(BO->getRHS());
    else
      break;
  }
  return E;
}

/// Whether \p S compares an item (a value with one of \p Keys) with an
/// integer parameter of \p Kernel; sets \p Count to it.
bool comparesItemWithParameter(const Stmt *S, const FunctionDecl *Kernel,
                               llvm::ArrayRef<std::string> Keys,
                               ThreadIndexAnalysis &TI,
                               const ParmVarDecl *&Count) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isRelationalOp()) {
    for (int Side = 0; Side < 2; ++Side) {
      const Expr *Item = Side ? BO->getRHS() : BO->getLHS();
      const auto *Ref = dyn_cast<DeclRefExpr>(
          ThreadIndexAnalysis::strip(Side ? BO->getLHS() : BO->getRHS()));
      const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
      if (P && P->getDeclContext() == Kernel &&
          P->getType()->isIntegerType() && !TI.isModified(P, Kernel) &&
          llvm::is_contained(Keys, TI.variablePartKey(Item))) {
        Count = P;
        return true;
      }
    }
  }
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return comparesItemWithParameter(C, Kernel, Keys, TI, Count);
  });
}

/// The parameter of \p Kernel that counts its items: the one an item is
/// compared with somewhere in the kernel (a guard on another path), or
/// else the one integer parameter named like a count of items that the
/// kernel never reads (an extent passed for a guard that is missing).
const ParmVarDecl *itemCountParameter(const FunctionDecl *Kernel,
                                      llvm::ArrayRef<std::string> Keys,
                                      ThreadIndexAnalysis &TI) {
  const ParmVarDecl *Count = nullptr;
  if (comparesItemWithParameter(Kernel->getBody(), Kernel, Keys, TI, Count))
    return Count;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    if (!P->getIdentifier() || !P->getType()->isIntegerType() ||
        P->getType()->isBooleanType() || mentions(Kernel->getBody(), P))
      continue;
    std::string Lower = P->getName().lower();
    llvm::StringRef L(Lower);
    if (!isExtentNamed(P, 7) && !L.contains("node") && !L.contains("vert") &&
        !L.contains("row") && !L.contains("item"))
      continue;
    if (Count)
      return nullptr; // Two candidates: which one is unknown.
    Count = P;
  }
  return Count;
}

/// Whether \p G is 'min(X, ...)' for an argument that \p Same says is X.
template <typename SameFn>
bool isMinOf(const Expr *G, SameFn Same) {
  const auto *Call = dyn_cast<CallExpr>(ThreadIndexAnalysis::strip(G));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier() ||
      !Callee->getName().contains("min"))
    return false;
  return llvm::any_of(Call->arguments(),
                      [&](const Expr *Arg) { return Same(Arg); });
}
} // namespace

bool isGlobalDeviceArray(const ValueDecl *D) { return isGlobalArray(D); }

std::string extentParameterName(const FunctionDecl *Kernel, unsigned Dims) {
  return extentParameter(Kernel, Dims);
}

IndexOverruns::IndexOverruns(ASTContext &Ctx, ThreadIndexAnalysis &TI,
                             LaunchConfiguration &Launches,
                             const ArchConditionals &Arch)
    : Ctx(Ctx), TI(TI), Launches(Launches), Arch(Arch) {}

std::optional<GlobalAccess> IndexOverruns::accessAt(const Stmt *S,
                                                    const FunctionCfg &Cfg) {
  GlobalAccess A;
  const Expr *BaseExpr = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
    BaseExpr = AS->getBase();
    A.Index = AS->getIdx();
    if (!AS->getBase()->getType()->isPointerType()) {
      BaseExpr = AS->getIdx();
      A.Index = AS->getBase();
    }
    A.At = AS;
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->getOpcode() != UO_Deref)
      return std::nullopt;
    const auto *Add =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(UO->getSubExpr()));
    if (!Add || Add->getOpcode() != BO_Add)
      return std::nullopt;
    BaseExpr = Add->getLHS();
    A.Index = Add->getRHS();
    if (!BaseExpr->getType()->isPointerType())
      std::swap(BaseExpr, A.Index);
    A.At = UO;
  } else {
    return std::nullopt;
  }
  const auto *DRE =
      dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(BaseExpr));
  if (!DRE)
    return std::nullopt;
  const ValueDecl *D = DRE->getDecl();
  const FunctionDecl *FD = Cfg.function();
  if (const auto *P = dyn_cast<ParmVarDecl>(D)) {
    if (!P->getType()->isPointerType() || P->getDeclContext() != FD ||
        TI.isModified(P, FD))
      return std::nullopt;
  } else if (!isGlobalArray(D)) {
    return std::nullopt;
  }
  A.Base = D;
  // Read, write or address taken, from the context of the access.
  const Stmt *Cur = A.At;
  const ParentMap &PM = Cfg.parents();
  while (const Stmt *P = PM.getParent(Cur)) {
    if (isa<ParenExpr, ImplicitCastExpr>(P)) {
      Cur = P;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAssignmentOp() && BO->getLHS() == Cur)
        A.K = GlobalAccess::Write;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      if (UO->isIncrementDecrementOp())
        A.K = GlobalAccess::Write;
      else if (UO->getOpcode() == UO_AddrOf)
        A.K = GlobalAccess::AddressOf;
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
      // An element of class type assigned through its operator=
      // ('mean[i] = m' with a half or bfloat16 element).
      if (Op->isAssignmentOp() && Op->getNumArgs() > 0 &&
          Op->getArg(0)->IgnoreParenImpCasts() == Cur)
        A.K = GlobalAccess::Write;
    } else if (isa<MaterializeTemporaryExpr>(P)) {
      Cur = P;
      continue;
    }
    break;
  }
  return A;
}

void IndexOverruns::overrunsIn(
    const FunctionDecl *Kernel, const FunctionCfg &Cfg, bool OnlyCertain,
    llvm::function_ref<void(const IndexOverrun &)> Found) {
  // Integer arrays read at both [i] and [i + 1] are offset arrays of n + 1
  // entries (CSR row pointers, prefix sums): under 'i < n' their 'i + 1'
  // is in range, and under 'i <= n' their 'i' is, but not 'i + 1' (n + 1).
  std::set<std::pair<const ValueDecl *, std::string>> OffsetReads[2];
  const std::vector<ElementAccess> &Elements = accessesIn(Cfg);
  for (const ElementAccess &EA : Elements)
    if (const std::optional<GlobalAccess> &A = EA.Access)
      if (int64_t C = TI.constantPart(A->Index);
          A->K == GlobalAccess::Read && (C == 0 || C == 1))
        OffsetReads[C].insert({A->Base, TI.variablePartKey(A->Index)});
  auto IsOffsetArray = [&](const GlobalAccess &A) {
    QualType T = A.Base->getType();
    QualType Elem;
    if (T->isPointerType())
      Elem = T->getPointeeType();
    else if (T->isArrayType())
      Elem = QualType(T->getArrayElementTypeNoTypeQual(), 0);
    int64_t C = TI.constantPart(A.Index);
    std::pair<const ValueDecl *, std::string> Key{
        A.Base, TI.variablePartKey(A.Index)};
    return A.K == GlobalAccess::Read && !Elem.isNull() &&
           Elem->isIntegerType() && (C == 0 || C == 1) &&
           OffsetReads[0].count(Key) && OffsetReads[1].count(Key);
  };
  for (const ElementAccess &EA : Elements) {
    if (const std::optional<GlobalAccess> &A = EA.Access) {
      IndexOverrun O;
      O.Access = *A;
      O.Verdict = TI.classifyIndex(A->Index, A->At, Kernel);
      // One entry past the bound is the offset array's last.
      if (O.Verdict.K == IndexVerdict::PastBound && O.Verdict.Reach <= 1 &&
          IsOffsetArray(*A))
        continue;
      // A neighbour loop 'for (i = off[k]; i <= off[k + 1]; ++i)': certain
      // by its shape, whatever the launches.
      if (O.Verdict.K == IndexVerdict::NotThreadDerived ||
          O.Verdict.K == IndexVerdict::Bounded)
        if (const BinaryOperator *Cond = segmentLoopBound(*A, Cfg, TI)) {
          BoundFact &F = SegmentFacts.emplace_back();
          F.Guard = Cond;
          F.Bound = Cond->getRHS();
          O.Verdict = IndexVerdict();
          O.Verdict.K = IndexVerdict::PastBound;
          O.Verdict.Fact = &F;
          O.Verdict.Reach = 1;
          O.PastSegment = true;
          Found(O);
          continue;
        }
      // A block per item, with more blocks than items.
      // (A block coordinate alone is read as trivially in range.)
      if ((O.Verdict.K == IndexVerdict::NotThreadDerived ||
           O.Verdict.K == IndexVerdict::Bounded) &&
          blockPerItem(O, Kernel)) {
        Found(O);
        continue;
      }
      consider(O, Kernel, OnlyCertain, Found);
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(EA.S))
      helperCall(Call, Kernel, OnlyCertain, Found);
  }
}

const std::vector<IndexOverruns::ElementAccess> &
IndexOverruns::accessesIn(const FunctionCfg &Cfg) {
  std::unique_ptr<std::vector<ElementAccess>> &Slot =
      Accesses[Cfg.function()];
  if (!Slot) {
    Slot = std::make_unique<std::vector<ElementAccess>>();
    for (const CFGBlock *B : Cfg.graph())
      for (const CFGElement &E : *B)
        if (const Stmt *S = FunctionCfg::stmtOf(E))
          Slot->push_back({S, accessAt(S, Cfg)});
  }
  return *Slot;
}

void IndexOverruns::consider(
    IndexOverrun O, const FunctionDecl *Kernel, bool OnlyCertain,
    llvm::function_ref<void(const IndexOverrun &)> Found) {
  if (O.Verdict.K != IndexVerdict::Unbounded &&
      O.Verdict.K != IndexVerdict::PastBound)
    return;
  if (OnlyCertain && !isCertain(O, Kernel))
    return;
  Found(O);
}

void IndexOverruns::helperCall(
    const CallExpr *Call, const FunctionDecl *Kernel, bool OnlyCertain,
    llvm::function_ref<void(const IndexOverrun &)> Found) {
  if (isa<CUDAKernelCallExpr>(Call))
    return;
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Callee || !Callee->hasBody(Def) || !isAnalysableFunction(Def, SM) ||
      !isSeenWhole(Def, SM, Arch) || Def->hasAttr<CUDAGlobalAttr>() ||
      Def == Kernel)
    return;
  const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).cfgOf(Def);
  if (!Cfg)
    return;
  // The helper's own accesses through its pointer parameters, at an index
  // parameter it does not bound itself.
  for (const ElementAccess &EA : accessesIn(*Cfg)) {
    const std::optional<GlobalAccess> &A = EA.Access;
    if (!A)
      continue;
    const auto *PtrParam = dyn_cast<ParmVarDecl>(A->Base);
    if (!PtrParam || PtrParam->getFunctionScopeIndex() >= Call->getNumArgs())
      continue;
    // The pointer argument must be global memory of the kernel.
    const auto *ArgRef = dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(
        Call->getArg(PtrParam->getFunctionScopeIndex())));
    if (!ArgRef)
      continue;
    const ValueDecl *Global = ArgRef->getDecl();
    const auto *KP = dyn_cast<ParmVarDecl>(Global);
    if (!(KP && KP->getDeclContext() == Kernel &&
          KP->getType()->isPointerType() && !TI.isModified(KP, Kernel)) &&
        !isGlobalArray(Global))
      continue;
    IndexOverrun O;
    O.Access = *A;
    O.Access.Base = Global;
    O.Access.HelperParam = PtrParam;
    O.ThroughCall = Call;
    // The index: a parameter of the helper plus a constant.
    const auto *IdxRef = [&]() -> const DeclRefExpr * {
      const Expr *I = ThreadIndexAnalysis::strip(A->Index);
      if (const auto *BO = dyn_cast<BinaryOperator>(I))
        if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)
          I = ThreadIndexAnalysis::strip(BO->getLHS());
      return dyn_cast<DeclRefExpr>(I);
    }();
    const auto *IdxParam =
        IdxRef ? dyn_cast<ParmVarDecl>(IdxRef->getDecl()) : nullptr;
    if (!IdxParam && TI.valueOf(A->Index, Def).isIndex()) {
      // The helper computes its own thread index. Report it when it has
      // no bound in the helper and the caller bounds nothing at the call
      // (a caller's guard on the same value spelled differently is
      // unknown).
      const FactList *CallerFacts = TI.boundsAt(Call, Kernel);
      if (!CallerFacts ||
          llvm::any_of(*CallerFacts, [](const BoundFact *F) {
            return F->K == BoundFact::Less;
          }))
        continue;
      O.Verdict = TI.classifyIndex(A->Index, A->At, Def);
      consider(O, Kernel, OnlyCertain, Found);
      continue;
    }
    if (!IdxParam || IdxParam->getDeclContext() != Def ||
        IdxParam->getFunctionScopeIndex() >= Call->getNumArgs() ||
        TI.isModified(IdxParam, Def))
      continue;
    int64_t Offset = TI.constantPart(A->Index);
    // Guarded inside the helper: its own business.
    if (TI.boundOn(A->Index, A->At, Def) || !TI.boundsAt(A->At, Def))
      continue;
    O.CallerIndex = Call->getArg(IdxParam->getFunctionScopeIndex());
    O.Verdict = TI.classifyIndex(O.CallerIndex, Call, Kernel, Offset);
    consider(O, Kernel, OnlyCertain, Found);
  }
}

const VariableStores &IndexOverruns::storesOf(const FunctionDecl *Kernel) {
  if (StoresFunction != Kernel) {
    Stores = VariableStores::of(Kernel->getBody());
    StoresFunction = Kernel;
  }
  return Stores;
}

/// The read of threadIdx in dimension \p Dim inside \p E, looking through
/// locals that hold their initializer.
static const Expr *threadQueryIn(const Expr *E, const FunctionDecl *FD,
                                 unsigned Dim, ThreadIndexAnalysis &TI,
                                 unsigned Depth = 0) {
  if (!E || Depth > 6)
    return nullptr;
  E = ThreadIndexAnalysis::strip(E);
  ThreadSource Source;
  unsigned D;
  if (ThreadIndexAnalysis::isThreadQuery(E, Source, D))
    return Source == TS_ThreadInBlock && D == Dim ? E : nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->isLocalVarDecl() && !TI.isModified(VD, FD)
               ? threadQueryIn(VD->getInit(), FD, Dim, TI, Depth + 1)
               : nullptr;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (const Expr *Found = threadQueryIn(CE, FD, Dim, TI, Depth + 1))
        return Found;
  return nullptr;
}

bool IndexOverruns::fitsAllocation(const IndexOverrun &O,
                                   const FunctionDecl *Kernel) {
  const IndexVerdict &V = O.Verdict;
  const auto *Buffer = dyn_cast<ParmVarDecl>(O.Access.Base);
  if (O.ThroughCall || !Buffer || Buffer->getDeclContext() != Kernel)
    return false;
  MemorySpaceAnalysis &MSA = MemorySpaceAnalysis::get(Ctx, Arch);
  unsigned BufferIndex = Buffer->getFunctionScopeIndex();
  if (V.K == IndexVerdict::PastBound) {
    // A 1-D index against a parameter: the buffers hold Bound + Room.
    const auto *BoundRef = dyn_cast_or_null<DeclRefExpr>(
        V.Fact->Bound ? ThreadIndexAnalysis::strip(V.Fact->Bound) : nullptr);
    const auto *Count =
        BoundRef ? dyn_cast<ParmVarDecl>(BoundRef->getDecl()) : nullptr;
    // The index is the guarded value plus a constant, directly or through
    // a local that holds it ('int id = index + 1').
    const Expr *Index = ThreadIndexAnalysis::strip(O.Access.Index);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Index))
      if (const auto *Local = dyn_cast<VarDecl>(Ref->getDecl());
          Local && Local->isLocalVarDecl() && Local->getInit() &&
          !TI.isModified(Local, Kernel) &&
          TI.variablePartKey(Index) != V.Fact->LHSKey)
        Index = Local->getInit();
    if (!Count || Count->getDeclContext() != Kernel ||
        TI.variablePartKey(Index) != V.Fact->LHSKey)
      return false;
    std::optional<int64_t> Room = Launches.elementsPastArgument(
        Kernel, BufferIndex, Count->getFunctionScopeIndex(), MSA);
    return Room && *Room >= V.Reach;
  }
  // The global index of one dimension, below the extent every launch was
  // sized from, plus a constant offset.
  if (V.K != IndexVerdict::Unbounded || O.Cover.K != IndexCoverage::Within ||
      V.Offset <= 0 || !llvm::has_single_bit(V.Dims) ||
      !isDenseGlobalIndex(O.Access.Index, Kernel, TI))
    return false;
  unsigned Dim = llvm::countr_zero(V.Dims);
  std::optional<int64_t> Room =
      Launches.elementsPastExtent(Kernel, BufferIndex, Dim, MSA);
  if (!Room)
    return false;
  // The next block's first elements ('in[g + B]' with a block of B) under
  // a guard 'threadIdx.x < C': the index stays below the extent plus C.
  int64_t Reach = V.Offset;
  const std::optional<int64_t> &Block = Launches.launchesOf(Kernel).BlockDim[Dim];
  if (Block && *Block > 0 && V.Offset >= *Block)
    if (const Expr *Thread = threadQueryIn(O.Access.Index, Kernel, Dim, TI))
      if (const FactList *Facts = TI.boundsAt(O.Access.At, Kernel)) {
        std::string Key = TI.variablePartKey(Thread);
        for (const BoundFact *F : *Facts)
          if (F->K == BoundFact::Less && F->LHSKey == Key &&
              F->RHSKey.empty() && F->RHSConst > 0 &&
              F->RHSConst <= *Block)
            Reach = std::min(Reach, V.Offset - *Block + F->RHSConst);
      }
  return *Room >= Reach;
}

bool IndexOverruns::sameHostValue(const Expr *A, const Expr *B,
                                  const FunctionDecl *Host) {
  if (!A || !B || !Host || !Host->getBody())
    return false;
  if (HostStoresFunction != Host) {
    HostStores = VariableStores::of(Host->getBody());
    HostStoresFunction = Host;
  }
  // The value a local stored once holds.
  auto Through = [&](const Expr *E) {
    for (unsigned Step = 0; Step < 6; ++Step) {
      E = ThreadIndexAnalysis::strip(E);
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD || !VD->isLocalVarDecl() || HostStores.isAddressTaken(VD))
        break;
      llvm::ArrayRef<StoredValue> Values = HostStores.valuesOf(VD);
      if (Values.size() != 1 || Values.front().IsCompound)
        break;
      E = Values.front().Value;
    }
    return ThreadIndexAnalysis::strip(E);
  };
  const Expr *X = Through(A), *Y = Through(B);
  if (auto CX = ThreadIndexAnalysis::integerConstant(X, Ctx))
    if (auto CY = ThreadIndexAnalysis::integerConstant(Y, Ctx))
      return *CX == *CY;
  llvm::FoldingSetNodeID IX, IY;
  X->Profile(IX, Ctx, /*Canonical=*/true);
  Y->Profile(IY, Ctx, /*Canonical=*/true);
  return IX == IY;
}

bool IndexOverruns::blockPerItem(IndexOverrun &O, const FunctionDecl *Kernel) {
  const GlobalAccess &A = O.Access;
  if (A.HelperParam || O.ThroughCall)
    return false;
  // 'item', 'item + 1'; not 'item - 1'.
  if (TI.constantPart(A.Index) < 0)
    return false;
  const Expr *Item = withoutConstant(A.Index, Ctx);
  llvm::SmallVector<std::string, 4> Keys;
  std::optional<unsigned> Dim = blockItemDim(Item, Kernel, TI, Keys);
  if (!Dim) {
    // The item's row: 'a[item * len + j]'.
    Keys.clear();
    Item = rowItem(A.Index, Kernel, TI, Keys, Dim);
    if (!Item || !Dim)
      return false;
  }
  // No bound on the item on this path.
  const FactList *Facts = TI.boundsAt(A.At, Kernel);
  if (!Facts)
    return false;
  for (const BoundFact *F : *Facts)
    if (F->K == BoundFact::Less && llvm::is_contained(Keys, F->LHSKey))
      return false;
  const ParmVarDecl *Count = itemCountParameter(Kernel, Keys, TI);
  if (!Count)
    return false;
  const KernelLaunches &L = Launches.launchesOf(Kernel);
  if (!L.known())
    return false;
  for (const LaunchSite &Site : L.Sites) {
    const auto *Launch = dyn_cast_or_null<CUDAKernelCallExpr>(Site.Launch);
    if (!Launch || !Site.ArgumentsKnown || Site.Via ||
        Count->getFunctionScopeIndex() >= Launch->getNumArgs())
      continue;
    const Expr *Items = Launch->getArg(Count->getFunctionScopeIndex());
    unsigned D = *Dim == 3 ? 0 : *Dim;
    // The rank of a 2-D grid: its x alone when y is one block.
    if (*Dim == 3 && Site.Dims[1].Grid &&
        !(Site.Dims[1].GridConst && *Site.Dims[1].GridConst == 1))
      continue;
    const LaunchDimension &LD = Site.Dims[D];
    if (!LD.Grid)
      continue; // One block.
    auto Same = [&](const Expr *E) {
      return sameHostValue(E, Items, Site.Host);
    };
    if (Same(LD.Grid) || isMinOf(LD.Grid, Same))
      continue;
    // A division of the item count, floor or rounded up, is at most it.
    if ((LD.Cover == GridCover::Floor || LD.Cover == GridCover::Exact ||
         LD.Cover == GridCover::RoundedUp) &&
        LD.Extent && Same(LD.Extent))
      continue;
    // 'n / 2', '(n + 1) / 2', 'n >> 1': a numerator of the count plus less
    // than the divisor.
    if (const auto *Div =
            dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(LD.Grid));
        Div && (Div->getOpcode() == BO_Div || Div->getOpcode() == BO_Shr)) {
      auto Den = ThreadIndexAnalysis::integerConstant(Div->getRHS(), Ctx);
      if (Den && Div->getOpcode() == BO_Shr)
        Den = *Den >= 0 && *Den < 31 ? int64_t(1) << *Den : 0;
      int64_t Added = TI.constantPart(Div->getLHS());
      if (Den && *Den >= 1 && Added < *Den &&
          Same(withoutConstant(Div->getLHS(), Ctx)))
        continue;
    }
    // Two constants: more blocks than items, or not.
    auto GC = LD.GridConst;
    auto IC = ThreadIndexAnalysis::integerConstant(Items, Ctx);
    if (GC && IC && *GC + TI.constantPart(A.Index) <= *IC)
      continue;
    // A constant grid for a count known only at run time (a persistent
    // grid sized to the device): which is larger is unknown.
    if (GC && !IC)
      continue;
    O.Verdict = IndexVerdict();
    O.Verdict.K = IndexVerdict::Unbounded;
    O.Verdict.Unguarded.push_back(Item);
    O.Verdict.UnguardedText.push_back(ThreadIndexAnalysis::textOf(Item, Ctx));
    O.Verdict.Whole = true;
    O.Verdict.Offset = TI.constantPart(A.Index);
    O.Verdict.Dims = 1u << D;
    O.BlockSite = &Site;
    O.ItemCount = Count;
    O.ItemCountArg = Items;
    return true;
  }
  return false;
}

/// Whether the access at the bound is reached only by threads whose index
/// is at least the bound: the facts there hold 'Bound < index + c' with
/// c <= 1 beside 'index <= Bound'. A kernel that tests for the bound and
/// then accesses the buffer at it handles the last entry of an n + 1 table
/// (the exclusive scan's total, CSR's row-pointer end) on purpose; an
/// off-by-one guard reaches the bound without naming it.
bool IndexOverruns::pinnedToBound(const IndexOverrun &O,
                                  const FunctionDecl *Kernel) {
  const BoundFact *Upper = O.Verdict.Fact;
  if (!Upper || Upper->K != BoundFact::Less || Upper->RHSKey.empty() ||
      O.Verdict.Reach != 1 || O.ThroughCall)
    return false;
  const FactList *Facts = TI.boundsAt(O.Access.At, Kernel);
  if (!Facts)
    return false;
  return llvm::any_of(*Facts, [&](const BoundFact *Lower) {
    return Lower->K == BoundFact::Less && Lower->LHSKey == Upper->RHSKey &&
           Lower->RHSKey == Upper->LHSKey && Lower->RHSConst <= 1;
  });
}

/// Whether the default mode reports the access: what the kernel's
/// launches say (the coverage, kept for the note), the kernel's own
/// evidence when no launch is visible, and the analysis's confidence in
/// the index.
bool IndexOverruns::isCertain(IndexOverrun &O, const FunctionDecl *Kernel) {
  const GlobalAccess &A = O.Access;
  const IndexVerdict &V = O.Verdict;
  const CallExpr *ThroughCall = O.ThroughCall;
  const Expr *CallerIndex = O.CallerIndex;
  IndexCoverage &Cover = O.Cover;
  // What the kernel's launches say about the unguarded dimensions: when
  // every launch keeps the global index below the extent it was sized
  // from, the index itself is in range (but not 'i + 1'); when one rounds
  // its grid up, the finding points at it.
  Cover = Launches.coverage(
      Kernel, V.K == IndexVerdict::PastBound ? 0 : V.Dims);
  if (Cover.K == IndexCoverage::Within && V.Offset <= 0)
    return false;
  // An offset that stays inside the buffer: a halo read in padding.
  if (fitsAllocation(O, Kernel))
    return false;
  // 'i + 1' is one past the last element only for the plain global
  // index; a scaled or composite index ('2 * i + 1', a tile's lanes)
  // with a constant offset stays in what the launch was sized for.
  if (Cover.K == IndexCoverage::Within && V.K == IndexVerdict::Unbounded &&
      !isDenseGlobalIndex(CallerIndex ? CallerIndex : A.Index, Kernel,
                          TI))
    return false;
  // Launches it cannot read: the index is unknown, a finding would be a
  // guess. A guard that lets the index reach its bound is still one.
  if (Cover.K == IndexCoverage::Unknown && V.K == IndexVerdict::Unbounded)
    return false;
  // Only indices whose range the analysis reads with confidence, and
  // guards against an extent: a wrong guess costs more than a miss.
  const Expr *Judged = CallerIndex ? CallerIndex : A.Index;
  const Stmt *JudgedAt =
      ThroughCall ? static_cast<const Stmt *>(ThroughCall) : A.At;
  if (!isCanonicalIndex(Judged, Kernel, TI, JudgedAt,
                        TranslationUnitAnalyses::get(Ctx).cfgOf(Kernel)))
    return false;
  // 'i + 1' past a bound is certain only on a column or a 1-D index in
  // the kernel itself: a map may have one row more than the guard's
  // count (vertices around cells), and a helper may have guards or
  // offset arrays of its own.
  if (V.K == IndexVerdict::PastBound &&
      (!boundIsExtent(*V.Fact) || ThroughCall ||
       guardedInRow(Judged, V.Fact->LHSKey, TI) ||
       !rowsArePitchedBy(Judged, V.Fact->Bound, Kernel, TI)))
    return false;
  // A bound the index may reach, over buffers one element longer.
  if (V.K == IndexVerdict::PastBound && fitsAllocation(O, Kernel))
    return false;
  // The entry at the bound itself, written where a test pins the index to
  // it: 'if (i > n) return; if (i == n) { offsets[i] = total; return; }'.
  if (V.K == IndexVerdict::PastBound && pinnedToBound(O, Kernel))
    return false;
  // No visible launch: report only what the kernel itself shows can run
  // past, a guard elsewhere on the same index or an extent it was given
  // and never used.
  if (Cover.K == IndexCoverage::NoFacts && V.K == IndexVerdict::Unbounded &&
      !hasForgottenExtent(Kernel)) {
    ThreadDivergence Differs(*Kernel, TI);
    if (!llvm::any_of(V.Unguarded, [&](const Expr *Part) {
          return comparesIndex(Kernel->getBody(), TI.variablePartKey(Part),
                               Kernel, TI, Differs);
        }))
      return false;
  }
  // An unguarded part held in a variable that also holds other values:
  // which one reaches here depends on the path.
  if (V.K == IndexVerdict::Unbounded) {
    const Expr *Shown = CallerIndex ? CallerIndex : A.Index;
    const Stmt *At = ThroughCall ? static_cast<const Stmt *>(ThroughCall)
                                 : A.At;
    const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).cfgOf(Kernel);
    auto PathDependent = [&](const Expr *Part) {
      return mentionsPathDependentVariable(Part, At, Kernel, Cfg,
                                           storesOf(Kernel), TI);
    };
    if (V.Unguarded.empty() || CallerIndex
            ? PathDependent(Shown)
            : llvm::any_of(V.Unguarded, PathDependent))
      return false;
  }
  return true;
}

} // namespace clang::tidy::cuda
