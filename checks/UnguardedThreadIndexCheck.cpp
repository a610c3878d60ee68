//===- UnguardedThreadIndexCheck.cpp --------------------------------------===//

#include "UnguardedThreadIndexCheck.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "LaunchConfiguration.h"
#include "SourceLocations.h"
#include "VariableStores.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/OperatorPrecedence.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

UnguardedThreadIndexCheck::UnguardedThreadIndexCheck(StringRef Name,
                                                     ClangTidyContext *Context)
    : CudaFunctionCheck(Name, Context, {FunctionScope::Kernels}),
      StrictMode(Options.get("StrictMode", false)) {}

void UnguardedThreadIndexCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "StrictMode", StrictMode);
}


namespace {

bool isGlobalArray(const ValueDecl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  return VD && VD->hasGlobalStorage() &&
         CudaApiModel::isDeclaredDeviceVariable(VD) &&
         !VD->hasAttr<CUDASharedAttr>() &&
         !CudaApiModel::isDeclaredConstantVariable(VD) &&
         VD->getType()->isArrayType();
}

std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  return ThreadIndexAnalysis::textOf(E, Ctx);
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
/// not thread-derived: 'if (i < n)' around another access, a grid-stride
/// loop over 'i', a clamp. A kernel that guards an index there expects
/// threads past the end, so an access at the same index without the guard
/// can run past.
bool comparesIndex(const Stmt *S, const std::string &Key,
                   const FunctionDecl *FD, ThreadIndexAnalysis &TI) {
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
          TI.variablePartKey(Side) == Key)
        return true;
    }
  }
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return comparesIndex(C, Key, FD, TI);
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

} // namespace

std::optional<UnguardedThreadIndexCheck::Access>
UnguardedThreadIndexCheck::globalAccess(const Stmt *S, const FunctionCfg &Cfg,
                                        bool ParamsAreGlobal) {
  Access A;
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
    if (!ParamsAreGlobal || !P->getType()->isPointerType() ||
        P->getDeclContext() != FD || Analysis->isModified(P, FD))
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
        A.Kind = 1;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      if (UO->isIncrementDecrementOp())
        A.Kind = 1;
      else if (UO->getOpcode() == UO_AddrOf)
        A.Kind = 2;
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
      // An element of class type assigned through its operator=
      // ('mean[i] = m' with a half or bfloat16 element).
      if (Op->isAssignmentOp() && Op->getNumArgs() > 0 &&
          Op->getArg(0)->IgnoreParenImpCasts() == Cur)
        A.Kind = 1;
    } else if (isa<MaterializeTemporaryExpr>(P)) {
      Cur = P;
      continue;
    }
    break;
  }
  return A;
}

void UnguardedThreadIndexCheck::checkFunction(const FunctionDecl &Function,
                                              const FunctionCfg &Cfg,
                                              ASTContext &Ctx) {
  const FunctionDecl *FD = &Function;
  Analysis = &threadIndex(Ctx);
  // Integer arrays read at both [i] and [i + 1] are offset arrays of n + 1
  // entries (CSR row pointers, prefix sums): their 'i + 1' is in range.
  std::set<std::pair<const ValueDecl *, std::string>> OffsetReads;
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &E : *B)
      if (const Stmt *S = FunctionCfg::stmtOf(E))
        if (std::optional<Access> A = globalAccess(S, Cfg, true))
          if (A->Kind == 0 && Analysis->constantPart(A->Index) == 0)
            OffsetReads.insert(
                {A->Base, Analysis->variablePartKey(A->Index)});
  auto IsOffsetArray = [&](const Access &A) {
    QualType T = A.Base->getType();
    QualType Elem;
    if (T->isPointerType())
      Elem = T->getPointeeType();
    else if (T->isArrayType())
      Elem = QualType(T->getArrayElementTypeNoTypeQual(), 0);
    return A.Kind == 0 && !Elem.isNull() && Elem->isIntegerType() &&
           Analysis->constantPart(A.Index) == 1 &&
           OffsetReads.count({A.Base, Analysis->variablePartKey(A.Index)});
  };
  for (const CFGBlock *B : Cfg.graph()) {
    for (const CFGElement &E : *B) {
      const Stmt *S = FunctionCfg::stmtOf(E);
      if (!S)
        continue;
      if (std::optional<Access> A = globalAccess(S, Cfg, true)) {
        IndexVerdict V = Analysis->classifyIndex(A->Index, A->At, FD);
        if (V.K == IndexVerdict::PastBound && IsOffsetArray(*A))
          continue;
        reportAccess(*A, V, FD, Ctx);
        continue;
      }
      if (const auto *Call = dyn_cast<CallExpr>(S))
        checkHelperCall(Call, FD, Cfg, Ctx);
    }
  }
}

void UnguardedThreadIndexCheck::checkHelperCall(const CallExpr *Call,
                                                const FunctionDecl *Kernel,
                                                const FunctionCfg &KernelCfg,
                                                ASTContext &Ctx) {
  if (isa<CUDAKernelCallExpr>(Call))
    return;
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Callee || !Callee->hasBody(Def) || !isAnalysableFunction(Def, SM) ||
      !isSeenWhole(Def, SM, arch()) || Def->hasAttr<CUDAGlobalAttr>() ||
      Def == Kernel)
    return;
  const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).cfgOf(Def);
  if (!Cfg)
    return;
  // The helper's own accesses through its pointer parameters, at an index
  // parameter it does not bound itself.
  for (const CFGBlock *B : Cfg->graph()) {
    for (const CFGElement &E : *B) {
      const Stmt *S = FunctionCfg::stmtOf(E);
      std::optional<Access> A = S ? globalAccess(S, *Cfg, true) : std::nullopt;
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
            KP->getType()->isPointerType() &&
            !Analysis->isModified(KP, Kernel)) &&
          !isGlobalArray(Global))
        continue;
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
      if (!IdxParam && Analysis->valueOf(A->Index, Def).isIndex()) {
        // The helper computes its own thread index. Report it when it has
        // no bound in the helper and the caller bounds nothing at the call
        // (a caller's guard on the same value spelled differently is
        // unknown).
        const FactList *CallerFacts = Analysis->boundsAt(Call, Kernel);
        if (!CallerFacts ||
            llvm::any_of(*CallerFacts, [](const BoundFact *F) {
              return F->K == BoundFact::Less;
            }))
          continue;
        IndexVerdict V = Analysis->classifyIndex(A->Index, A->At, Def);
        Access Caller = *A;
        Caller.Base = Global;
        Caller.HelperParam = PtrParam;
        reportAccess(Caller, V, Kernel, Ctx, Call, nullptr);
        continue;
      }
      if (!IdxParam || IdxParam->getDeclContext() != Def ||
          IdxParam->getFunctionScopeIndex() >= Call->getNumArgs() ||
          Analysis->isModified(IdxParam, Def))
        continue;
      int64_t Offset = Analysis->constantPart(A->Index);
      // Guarded inside the helper: its own business.
      if (Analysis->boundOn(A->Index, A->At, Def) ||
          !Analysis->boundsAt(A->At, Def))
        continue;
      const Expr *Arg = Call->getArg(IdxParam->getFunctionScopeIndex());
      IndexVerdict V = Analysis->classifyIndex(Arg, Call, Kernel, Offset);
      Access Caller = *A;
      Caller.Base = Global;
      Caller.HelperParam = PtrParam;
      reportAccess(Caller, V, Kernel, Ctx, Call, Arg);
    }
  }
}

const VariableStores &
UnguardedThreadIndexCheck::storesOf(const FunctionDecl *Kernel) {
  if (StoresFunction != Kernel) {
    Stores = VariableStores::of(Kernel->getBody());
    StoresFunction = Kernel;
  }
  return Stores;
}

/// Whether the default mode reports the access: what the kernel's
/// launches say (\p Cover, for the note), the kernel's own evidence when no
/// launch is visible, and the analysis's confidence in the index.
bool UnguardedThreadIndexCheck::isCertain(const Access &A,
                                          const IndexVerdict &V,
                                          const FunctionDecl *Kernel,
                                          ASTContext &Ctx,
                                          const CallExpr *ThroughCall,
                                          const Expr *CallerIndex,
                                          IndexCoverage &Cover) {
  // What the kernel's launches say about the unguarded dimensions: when
  // every launch keeps the global index below the extent it was sized
  // from, the index itself is in range (but not 'i + 1'); when one rounds
  // its grid up, the finding points at it.
  Cover = TranslationUnitAnalyses::get(Ctx).launches().coverage(
      Kernel, V.K == IndexVerdict::PastBound ? 0 : V.Dims);
  if (Cover.K == IndexCoverage::Within && V.Offset <= 0)
    return false;
  // 'i + 1' is one past the last element only for the plain global
  // index; a scaled or composite index ('2 * i + 1', a tile's lanes)
  // with a constant offset stays in what the launch was sized for.
  if (Cover.K == IndexCoverage::Within && V.K == IndexVerdict::Unbounded &&
      !isDenseGlobalIndex(CallerIndex ? CallerIndex : A.Index, Kernel,
                          *Analysis))
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
  if (!isCanonicalIndex(Judged, Kernel, *Analysis, JudgedAt,
                        TranslationUnitAnalyses::get(Ctx).cfgOf(Kernel)))
    return false;
  // 'i + 1' past a bound is certain only on a column or a 1-D index in
  // the kernel itself: a map may have one row more than the guard's
  // count (vertices around cells), and a helper may have guards or
  // offset arrays of its own.
  if (V.K == IndexVerdict::PastBound &&
      (!boundIsExtent(*V.Fact) || ThroughCall ||
       guardedInRow(Judged, V.Fact->LHSKey, *Analysis) ||
       !rowsArePitchedBy(Judged, V.Fact->Bound, Kernel, *Analysis)))
    return false;
  // No visible launch: report only what the kernel itself shows can run
  // past, a guard elsewhere on the same index or an extent it was given
  // and never used.
  if (Cover.K == IndexCoverage::NoFacts && V.K == IndexVerdict::Unbounded &&
      !hasForgottenExtent(Kernel) &&
      !llvm::any_of(V.Unguarded, [&](const Expr *Part) {
        return comparesIndex(Kernel->getBody(),
                             Analysis->variablePartKey(Part), Kernel,
                             *Analysis);
      }))
    return false;
  // An unguarded part held in a variable that also holds other values:
  // which one reaches here depends on the path.
  if (V.K == IndexVerdict::Unbounded) {
    const Expr *Shown = CallerIndex ? CallerIndex : A.Index;
    const Stmt *At = ThroughCall ? static_cast<const Stmt *>(ThroughCall)
                                 : A.At;
    const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).cfgOf(Kernel);
    auto PathDependent = [&](const Expr *Part) {
      return mentionsPathDependentVariable(Part, At, Kernel, Cfg,
                                           storesOf(Kernel), *Analysis);
    };
    if (V.Unguarded.empty() || CallerIndex
            ? PathDependent(Shown)
            : llvm::any_of(V.Unguarded, PathDependent))
      return false;
  }
  return true;
}

void UnguardedThreadIndexCheck::reportAccess(const Access &A,
                                             const IndexVerdict &V,
                                             const FunctionDecl *Kernel,
                                             ASTContext &Ctx,
                                             const CallExpr *ThroughCall,
                                             const Expr *CallerIndex) {
  if (V.K != IndexVerdict::Unbounded && V.K != IndexVerdict::PastBound)
    return;
  IndexCoverage Cover;
  if (!StrictMode &&
      !isCertain(A, V, Kernel, Ctx, ThroughCall, CallerIndex, Cover))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(
      ThroughCall ? ThroughCall->getBeginLoc() : A.At->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return;
  const Expr *ShownIndex = CallerIndex ? CallerIndex : A.Index;
  std::string IndexText = sourceText(ShownIndex, Ctx);
  if (ThroughCall && V.Offset > 0)
    IndexText += " + " + llvm::itostr(V.Offset);
  const char *Verb[] = {"reads", "writes", "takes the address of"};

  auto NoteLaunch = [&] {
    if (Cover.K != IndexCoverage::Overruns)
      return;
    const LaunchDimension &D = Cover.Site->Dims[Cover.Dim];
    diag(Cover.Site->location(),
         "this launch rounds the grid up%select{| in y| in z}0: the last "
         "block runs past '%1'",
         DiagnosticIDs::Note)
        << Cover.Dim << ThreadIndexAnalysis::textOf(D.Extent, Ctx);
  };

  if (V.K == IndexVerdict::PastBound) {
    std::string Guard = sourceText(V.Fact->Guard, Ctx);
    if (ThroughCall)
      diag(Loc, "call to %0 %1 %2 at thread-derived index '%3', which can "
                "reach the bound in '%4'")
          << ThroughCall->getDirectCallee() << Verb[A.Kind] << A.Base
          << IndexText << Guard;
    else
      diag(Loc, "%select{read of|write to|address of}0 %1 at thread-derived "
                "index '%2' can reach the bound in '%3'")
          << A.Kind << A.Base << IndexText << Guard;
    diag(V.Fact->Guard->getBeginLoc(), "bound set here", DiagnosticIDs::Note);
    if (ThroughCall)
      diag(A.At->getBeginLoc(), "%0 indexes its parameter %1 here",
           DiagnosticIDs::Note)
          << ThroughCall->getDirectCallee() << A.HelperParam;
    NoteLaunch();
    return;
  }

  // Unbounded: name the part that has no guard when another part has one.
  std::string Part;
  if (!V.Whole) {
    llvm::SmallVector<std::string, 2> Parts;
    for (const std::string &T : V.UnguardedText)
      Parts.push_back("'" + T + "'");
    Part = llvm::join(Parts, " and ");
  }
  if (ThroughCall) {
    if (Part.empty())
      diag(Loc, "call to %0 %1 %2 at thread-derived index '%3', which has "
                "no upper bound on this path")
          << ThroughCall->getDirectCallee() << Verb[A.Kind] << A.Base
          << IndexText;
    else
      diag(Loc, "call to %0 %1 %2 at thread-derived index '%3', which has "
                "no upper bound on %4 on this path")
          << ThroughCall->getDirectCallee() << Verb[A.Kind] << A.Base
          << IndexText << Part;
    diag(A.At->getBeginLoc(), "%0 indexes its parameter %1 here",
         DiagnosticIDs::Note)
        << ThroughCall->getDirectCallee() << A.HelperParam;
  } else if (Part.empty()) {
    diag(Loc, "%select{read of|write to|address of}0 %1 at thread-derived "
              "index '%2' has no upper bound on this path")
        << A.Kind << A.Base << IndexText;
  } else {
    diag(Loc, "%select{read of|write to|address of}0 %1 at thread-derived "
              "index '%2' has no upper bound on %3 on this path")
        << A.Kind << A.Base << IndexText << Part;
  }

  // A helper that computes its own index: its variables are not in scope
  // at the call, so no guard is suggested there.
  if (ThroughCall && !CallerIndex) {
    NoteLaunch();
    return;
  }
  // Suggest a guard on the first unguarded part, against a plausible extent.
  const Expr *First = V.Unguarded.empty() ? ShownIndex : V.Unguarded.front();
  // Printed from the AST, in parentheses where '>=' would bind it
  // differently; the analysis's texts are sums of such parts.
  std::string Guarded =
      V.UnguardedText.empty()
          ? ThreadIndexAnalysis::textOf(First, Ctx, prec::Shift)
          : V.UnguardedText.front();
  // 'x[i + 1]': the guard is on the index with its offset.
  if (V.Offset > 0 && V.Whole && V.Unguarded.size() == 1 && !ThroughCall)
    Guarded = ThreadIndexAnalysis::textOf(A.Index, Ctx, prec::Shift);
  std::string Extent;
  if (const auto *VD = dyn_cast<VarDecl>(A.Base);
      VD && isGlobalArray(VD)) {
    if (const auto *CAT = Ctx.getAsConstantArrayType(VD->getType()))
      Extent = llvm::utostr(CAT->getSize().getZExtValue());
  } else {
    Extent = extentParameter(Kernel, V.Dims);
  }
  // Out of macros: where the user wrote the macro's use or argument.
  SourceLocation NoteLoc = SM.getFileLoc(
      CallerIndex ? CallerIndex->getBeginLoc() : First->getBeginLoc());
  if (!Extent.empty())
    diag(NoteLoc, "guard the access, for example with 'if (%0 >= %1) return;'",
         DiagnosticIDs::Note)
        << Guarded << Extent;
  else
    diag(NoteLoc,
         "guard the access with the extent of %0, for example "
         "'if (%1 >= n) return;' where n is its number of elements",
         DiagnosticIDs::Note)
        << A.Base << Guarded;
  NoteLaunch();
}

} // namespace clang::tidy::cuda
