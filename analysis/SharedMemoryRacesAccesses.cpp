//===- SharedMemoryRacesAccesses.cpp - The shared accesses of a kernel ----===//
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
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include <functional>

namespace clang::tidy::cuda {

using namespace smr;

namespace smr {


const VarDecl *varOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(ThreadIndexAnalysis::strip(E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The number of array dimensions of \p T (2 for float[16][17]).
unsigned arrayRank(QualType T) {
  unsigned Rank = 0;
  while (const auto *AT =
             dyn_cast<ArrayType>(T->getUnqualifiedDesugaredType())) {
    ++Rank;
    T = AT->getElementType();
  }
  return Rank;
}

/// The variable the initializer of the pointer \p VD names: 's', 's + k'
/// or '&s[k]' (through casts) point into s.
const VarDecl *pointerTarget(const VarDecl *VD) {
  const Expr *Init = VD->getInit()->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Init);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *AS =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
      Init = AS->getBase()->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Init);
      BO && BO->isAdditiveOp() && BO->getLHS()->getType()->isPointerType())
    Init = BO->getLHS()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Init);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The shared array or scalar an access is made in, and its rank (0 for a
/// scalar): a __shared__ variable, or a local pointer that always points
/// into one ('float (*t)[N] = tile', 'volatile float *v = s'). A pointer is
/// its own array: views of one buffer with other shapes are never compared.
const VarDecl *sharedArrayOf(const VarDecl *VD, unsigned &Rank,
                             ThreadIndexAnalysis &TIA,
                             const VariableStores &Stores,
                             const FunctionDecl *FD) {
  if (!VD)
    return nullptr;
  if (VD->hasAttr<CUDASharedAttr>()) {
    Rank = arrayRank(VD->getType());
    return VD;
  }
  const auto *PT = VD->getType()->getAs<PointerType>();
  if (!PT || !VD->isLocalVarDecl() || !VD->getInit() ||
      TIA.isModified(VD, FD) || Stores.isAddressTaken(VD) ||
      Stores.isAssigned(VD))
    return nullptr;
  unsigned Inner = arrayRank(PT->getPointeeType());
  const VarDecl *Target = pointerTarget(VD);
  // A pointer to rows may view any shared array; a pointer to elements,
  // a one-dimensional one.
  unsigned TargetRank = Target ? arrayRank(Target->getType()) : 0;
  if (!Target || !Target->hasAttr<CUDASharedAttr>() || !TargetRank ||
      (!Inner && TargetRank != 1))
    return nullptr;
  Rank = Inner + 1;
  return VD;
}

/// Whether sharedArrayOf() may take \p VD for shared memory: a __shared__
/// variable, or a local pointer whose initializer names one (before the
/// checks that the pointer is never changed).
bool mayNameShared(const VarDecl *VD) {
  if (!VD)
    return false;
  if (VD->hasAttr<CUDASharedAttr>())
    return true;
  if (!VD->getType()->getAs<PointerType>() || !VD->isLocalVarDecl() ||
      !VD->getInit())
    return false;
  const VarDecl *Target = pointerTarget(VD);
  return Target && Target->hasAttr<CUDASharedAttr>();
}

/// Whether the parent \p P of \p E, an element of dependent type in a
/// template pattern, reads its value: no lvalue-to-rvalue cast marks reads
/// there, so the operators and initializers that only read count.
bool readsDependentValue(const Expr *E, const Stmt *P) {
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    return !BO->isAssignmentOp() || BO->getRHS()->IgnoreParens() == E;
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P))
    return Op->getNumArgs() == 2 &&
           (Op->getArg(1)->IgnoreParens() == E ||
            (!Op->isAssignmentOp() && Op->getOperator() != OO_Subscript));
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
    return UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus ||
           UO->getOpcode() == UO_LNot || UO->getOpcode() == UO_Not;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P)) {
    const auto *VD =
        DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    return VD && !VD->getType()->isReferenceType() && VD->getInit() &&
           VD->getInit()->IgnoreParens() == E;
  }
  return isa_and_nonnull<ReturnStmt, CStyleCastExpr, CXXFunctionalCastExpr,
                         CXXUnresolvedConstructExpr>(P);
}

std::optional<BarrierInfo> barrierAt(const Stmt *S) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  if (!Call)
    return std::nullopt;
  if (std::optional<BarrierInfo> B = CudaApiModel::barrierOf(Call))
    return B;
  // 'g.sync()' or 'cg::sync(g)' on a cooperative_groups::thread_group,
  // which the API model's rows leave out since its group may be a tile or
  // the whole block: for the walk between barriers it orders at least a
  // tile of unknown size.
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || FD->getName() != "sync")
    return std::nullopt;
  QualType T;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    T = MC->getObjectType();
  else if (Call->getNumArgs() == 1)
    T = Call->getArg(0)->getType();
  const CXXRecordDecl *RD =
      T.isNull() ? nullptr : T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier() || RD->getName() != "thread_group")
    return std::nullopt;
  for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getName() == "cooperative_groups")
      return BarrierInfo{BarrierScope::Tile, "thread_group", std::nullopt};
  return std::nullopt;
}


/// Whether \p Body waits at a block barrier on every pass: a barrier
/// call among its top-level statements.
bool bodyAlwaysWaits(const Stmt *Body) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!CS)
    return false;
  for (const Stmt *S : CS->body()) {
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
      S = EWC->getSubExpr();
    if (auto B = barrierAt(S); B && B->Scope == BarrierScope::Block)
      return true;
  }
  return false;
}

/// Whether the first test of \p For is true: 'for (i = c0; i op c1; ...)'
/// with constants.
bool firstTestHolds(const ForStmt *For, ASTContext &Ctx) {
  const VarDecl *Var = nullptr;
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
      DS && DS->isSingleDecl()) {
    Var = dyn_cast<VarDecl>(DS->getSingleDecl());
    Start = Var ? Var->getInit() : nullptr;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    Var = varOf(BO->getLHS());
    Start = BO->getRHS();
  }
  const auto *Cond =
      dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(For->getCond()));
  if (!Var || !Start || !Cond || !Cond->isComparisonOp() ||
      varOf(Cond->getLHS()) != Var)
    return false;
  auto V0 = constantOf(Start, Ctx), V1 = constantOf(Cond->getRHS(), Ctx);
  if (!V0 || !V1)
    return false;
  switch (Cond->getOpcode()) {
  case BO_LT: return *V0 < *V1;
  case BO_LE: return *V0 <= *V1;
  case BO_GT: return *V0 > *V1;
  case BO_GE: return *V0 >= *V1;
  case BO_NE: return *V0 != *V1;
  default: return false;
  }
}

std::optional<std::pair<int64_t, int64_t>>
counterRange(const VarDecl *VD, const Stmt *At, const FunctionDecl *FD) {
  if (!VD || !At || !FD || !VD->getType()->isIntegerType())
    return std::nullopt;
  ASTContext &Ctx = FD->getASTContext();
  const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).cfgOf(FD);
  if (!Cfg)
    return std::nullopt;
  const ParentMap &PM = Cfg->parents();
  const ForStmt *Loop = nullptr;
  for (const Stmt *Child = At, *S = PM.getParent(At); S;
       Child = S, S = PM.getParent(S))
    if (const auto *For = dyn_cast<ForStmt>(S);
        For && For->getBody() == Child) {
      Loop = For;
      break;
    }
  if (!Loop || !Loop->getInc() || !Loop->getCond())
    return std::nullopt;
  // Its start: 'int j = c0' or 'j = c0'.
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Loop->getInit());
      DS && DS->isSingleDecl() && DS->getSingleDecl() == VD)
    Start = VD->getInit();
  else if (const auto *BO =
               dyn_cast_or_null<BinaryOperator>(Loop->getInit());
           BO && BO->getOpcode() == BO_Assign && varOf(BO->getLHS()) == VD)
    Start = BO->getRHS();
  // Its step: '++j', 'j++' or 'j += 1'.
  const Expr *Inc = ThreadIndexAnalysis::strip(Loop->getInc());
  bool StepOne = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc))
    StepOne = UO->isIncrementOp() && varOf(UO->getSubExpr()) == VD;
  else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc))
    StepOne = CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == VD &&
              constantOf(CA->getRHS(), Ctx) == std::optional<int64_t>(1);
  const auto *Cond =
      dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(Loop->getCond()));
  if (!Start || !StepOne || !Cond)
    return std::nullopt;
  BinaryOperatorKind Op = Cond->getOpcode();
  const Expr *Var = Cond->getLHS(), *Bound = Cond->getRHS();
  if (varOf(Var) != VD) {
    std::swap(Var, Bound);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  auto Lo = constantOf(Start, Ctx), Hi = constantOf(Bound, Ctx);
  if (varOf(Var) != VD || !Lo || !Hi || (Op != BO_LT && Op != BO_LE))
    return std::nullopt;
  int64_t Last = Op == BO_LT ? *Hi - 1 : *Hi;
  if (Last < *Lo)
    return std::nullopt;
  // Nothing in the body changes the counter.
  struct Writes : RecursiveASTVisitor<Writes> {
    const VarDecl *VD;
    bool Found = false;
    explicit Writes(const VarDecl *VD) : VD(VD) {}
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp() && varOf(BO->getLHS()) == VD)
        Found = true;
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
          varOf(UO->getSubExpr()) == VD)
        Found = true;
      return !Found;
    }
  } W(VD);
  W.TraverseStmt(const_cast<Stmt *>(Loop->getBody()));
  if (W.Found)
    return std::nullopt;
  return std::pair(*Lo, Last);
}

/// Records in \p A the variables a uniform term \p E reads: their
/// assignments end what the access's guards say.
void noteReadVariables(const Expr *E, SharedMemoryRaces::Access &A) {
  struct Refs : RecursiveASTVisitor<Refs> {
    SharedMemoryRaces::Access &A;
    explicit Refs(SharedMemoryRaces::Access &A) : A(A) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        A.Vars.push_back(VD);
      return true;
    }
  } R(A);
  R.TraverseStmt(const_cast<Expr *>(E));
}

/// Whether \p E names a parameter (of a helper: its value is the caller's).
bool mentionsParameter(const Expr *E) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      Found |= isa<ParmVarDecl>(DRE->getDecl());
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

/// Whether \p E is a lane: a thread's rank in a tile of at most a warp,
/// 'tile.thread_rank()', 't % 32', 't & 31', or a local holding one.
bool isLane(const Expr *E, ASTContext &Ctx, int Depth) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E || Depth > 4)
    return false;
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim)) {
    // A rank in a tile or in a coalesced group (at most a warp).
    const auto *Call = dyn_cast<CallExpr>(E);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    QualType T = CudaApiModel::objectTypeOf(Call);
    const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
    return Src == TS_ThreadInBlock && Callee && Callee->getIdentifier() &&
           Callee->getName() == "thread_rank" &&
           (CudaApiModel::tileSizeOf(T).value_or(64) <= 32 ||
            (RD && RD->getIdentifier() && RD->getName() == "coalesced_group"));
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto C = constantOf(BO->getRHS(), Ctx);
    if (!C || *C <= 0 || *C > 32)
      return false;
    if (BO->getOpcode() == BO_Rem)
      return llvm::isPowerOf2_64(*C);
    if (BO->getOpcode() == BO_And)
      return llvm::isPowerOf2_64(*C + 1);
    return false;
  }
  if (const VarDecl *VD = varOf(E))
    return VD->isLocalVarDecl() && VD->getType().isConstQualified() &&
           VD->getInit() && isLane(VD->getInit(), Ctx, Depth + 1);
  return false;
}

/// Whether \p E mentions a lane (isLane).
bool mentionsLane(const Expr *E, ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    ASTContext &Ctx;
    bool Found = false;
    explicit Finder(ASTContext &Ctx) : Ctx(Ctx) {}
    bool VisitExpr(Expr *E) {
      Found |= isLane(E, Ctx);
      return !Found;
    }
  } F(Ctx);
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}



/// One subscript from one level of a linear form: at most one coordinate,
/// with coefficient 1 or -1.
bool toDim(const int64_t (&Coord)[3],
           const std::map<std::string, int64_t> &Uniform,
           const std::map<std::string, const Expr *> &Exprs, int64_t Const,
           DimIndex &D) {
  D = DimIndex();
  for (int C = 0; C < 3; ++C) {
    if (!Coord[C])
      continue;
    if (D.Coord >= 0 || (Coord[C] != 1 && Coord[C] != -1))
      return false;
    D.Coord = C;
    D.Coeff = Coord[C];
  }
  D.Uniform = Uniform;
  D.UniformExprs = Exprs;
  D.Const = Const;
  return true;
}

bool toDim(const Linear &L, int Level, DimIndex &D) {
  return toDim(L.Coord[Level], L.Uniform[Level], L.UniformExprs[Level],
               L.Const[Level], D);
}

/// Splits a flattened index by the constant row width \p W: the terms
/// whose coefficients are multiples of W form the row.
bool splitByWidth(const Linear &L, int64_t W, DimIndex &Row, DimIndex &Col) {
  if (!L.levelEmpty(1) || W < 2)
    return false;
  int64_t RowCoord[3] = {}, ColCoord[3] = {};
  for (int C = 0; C < 3; ++C) {
    if (L.Coord[0][C] % W == 0)
      RowCoord[C] = L.Coord[0][C] / W;
    else
      ColCoord[C] = L.Coord[0][C];
  }
  std::map<std::string, int64_t> RowU, ColU;
  std::map<std::string, const Expr *> RowE, ColE;
  for (const auto &[Key, C] : L.Uniform[0]) {
    const Expr *E = L.UniformExprs[0].at(Key);
    if (C % W == 0) {
      RowU[Key] = C / W;
      RowE[Key] = E;
    } else {
      ColU[Key] = C;
      ColE[Key] = E;
    }
  }
  // The row nearest to the constant: (ty + 1) * W + tx - 1 is row ty + 1,
  // column tx - 1.
  int64_t K = L.Const[0];
  int64_t Q = K >= 0 ? (K + W / 2) / W : -((-K + W / 2) / W);
  return toDim(RowCoord, RowU, RowE, Q, Row) &&
         toDim(ColCoord, ColU, ColE, K - Q * W, Col);
}

bool isBlockDim(const Expr *E, unsigned WantDim) {
  ThreadSource Src;
  unsigned Dim;
  return E &&
         ThreadIndexAnalysis::isThreadQuery(ThreadIndexAnalysis::strip(E), Src,
                                            Dim) &&
         Src == TS_BlockDim && Dim == WantDim;
}

std::optional<AtomicUpdate> atomicUpdateOf(const CallExpr *Call) {
  static const llvm::StringMap<bool> Rows = [] {
    llvm::StringMap<bool> M;
#define CUDA_PER_THREAD_RESULT(Name)                                           \
  if (StringRef(#Name).starts_with("atomic"))                                  \
    M[#Name] = false;
#define CUDA_TICKET_ATOMIC(Name) M[#Name] = true;
#include "CudaApiModel.def"
    return M;
  }();
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || Call->getNumArgs() < 2 ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return std::nullopt;
  StringRef Name = FD->getName();
  if (!Name.consume_back("_block"))
    Name.consume_back("_system");
  auto It = Rows.find(Name);
  if (It == Rows.end())
    return std::nullopt;
  return AtomicUpdate{Call->getArg(0), It->second};
}

} // namespace smr


const VariableStores &
SharedMemoryRaces::storesOf(const FunctionDecl *FD) {
  if (FD == Kernel || !FD)
    return *CurrentStores;
  auto It = HelperStores.find(FD);
  if (It == HelperStores.end())
    It = HelperStores.emplace(FD, VariableStores::of(FD->getBody())).first;
  return It->second;
}

const Expr *SharedMemoryRaces::boundArgument(const Expr *E,
                                                   const FunctionDecl *FD,
                                                   const FunctionDecl *&ArgFn) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(varOf(E));
  if (!P || FD == Kernel)
    return nullptr;
  auto It = ArgumentOf.find(P);
  if (It == ArgumentOf.end() || Analysis->isModified(P, FD) ||
      storesOf(FD).isAssigned(P) || storesOf(FD).isAddressTaken(P))
    return nullptr;
  ArgFn = It->second.second;
  return It->second.first;
}

const VarDecl *SharedMemoryRaces::sharedVariableOf(
    const Expr *E, const FunctionDecl *FD, unsigned &Rank) {
  const FunctionDecl *ArgFn = nullptr;
  if (const Expr *Arg = boundArgument(E, FD, ArgFn)) {
    // A helper's pointer parameter bound to the caller's shared array.
    // A pointer to elements views a one-dimensional array; a pointer to
    // rows ('float (*m)[N]'), an array of one more dimension.
    const VarDecl *VD = sharedVariableOf(Arg, ArgFn, Rank);
    const auto *PT = varOf(E)->getType()->getAs<PointerType>();
    return VD && PT && arrayRank(PT->getPointeeType()) + 1 == Rank ? VD
                                                                    : nullptr;
  }
  // A pointer member that holds one shared array in every object.
  if (const auto *ME =
          dyn_cast_or_null<MemberExpr>(ThreadIndexAnalysis::strip(E)))
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      if (const VarDecl *VD = memberSharedArray(F)) {
        Rank = 1;
        return VD;
      }
  return sharedArrayOf(varOf(E), Rank, *Analysis, storesOf(FD), FD);
}

namespace {

/// The one-dimensional __shared__ array \p E names whole, as a pointer to
/// its first element of type \p Pointee; null otherwise.
const VarDecl *wholeSharedArray(const Expr *E, QualType Pointee) {
  const VarDecl *VD = E ? varOf(E->IgnoreParenImpCasts()) : nullptr;
  if (!VD || !VD->hasAttr<CUDASharedAttr>() || arrayRank(VD->getType()) != 1)
    return nullptr;
  const ArrayType *AT = VD->getType()->getAsArrayTypeUnsafe();
  return AT && AT->getElementType()->getCanonicalTypeUnqualified() ==
                   Pointee->getCanonicalTypeUnqualified()
             ? VD
             : nullptr;
}

/// What the unit stores into its pointer members: the one whole shared
/// array each holds, or null (nothing, several, or something else).
struct MemberStores : RecursiveASTVisitor<MemberStores> {
  const SourceManager &SM;
  llvm::DenseMap<const FieldDecl *, const VarDecl *> Target;

  explicit MemberStores(const SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  // System headers store no user's shared arrays.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  static QualType pointee(const FieldDecl *F) {
    const auto *PT = F->getType()->getAs<PointerType>();
    return PT ? PT->getPointeeType() : QualType();
  }
  void note(const FieldDecl *F, const Expr *Value) {
    QualType P = pointee(F);
    if (P.isNull())
      return;
    const VarDecl *VD = wholeSharedArray(Value, P);
    auto [It, New] = Target.try_emplace(F, VD);
    if (!New && It->second != VD)
      It->second = nullptr;
  }
  static const FieldDecl *fieldOf(const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    return ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  }
  /// A constructor's parameter stands for the argument of a construction.
  static const Expr *argumentFor(const Expr *E, const CXXConstructExpr *CE,
                                 const CXXConstructorDecl *Ctor) {
    const auto *P = dyn_cast_or_null<ParmVarDecl>(varOf(E->IgnoreParenImpCasts()));
    if (!P || P->getDeclContext() != Ctor)
      return E;
    unsigned I = P->getFunctionScopeIndex();
    return I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    // A copy the compiler writes keeps the value.
    if (!Ctor || (Ctor->isCopyOrMoveConstructor() && !Ctor->isUserProvided()))
      return true;
    const FunctionDecl *Def = nullptr;
    if (!Ctor->hasBody(Def)) {
      for (const FieldDecl *F : Ctor->getParent()->fields())
        if (!pointee(F).isNull())
          Target[F] = nullptr;
      return true;
    }
    const auto *CtorDef = cast<CXXConstructorDecl>(Def);
    for (const CXXCtorInitializer *I : CtorDef->inits())
      if (const FieldDecl *F = I->getMember(); F && I->getInit())
        note(F, argumentFor(I->getInit(), CE, CtorDef));
    // 'tile = s;' in the constructor's body.
    if (const auto *Body = dyn_cast_or_null<CompoundStmt>(CtorDef->getBody()))
      for (const Stmt *S : Body->body())
        if (const auto *BO = dyn_cast<BinaryOperator>(S);
            BO && BO->getOpcode() == BO_Assign)
          if (const FieldDecl *F = fieldOf(BO->getLHS()))
            note(F, argumentFor(BO->getRHS(), CE, CtorDef));
    return true;
  }
  bool VisitInitListExpr(InitListExpr *ILE) {
    if (!ILE->isSemanticForm())
      return true;
    const auto *RD = ILE->getType()->getAsRecordDecl();
    if (!RD || RD->isUnion())
      return true;
    // The bases' initializers come first (C++17 aggregates); a field
    // past the list is value-initialized, a null pointer.
    unsigned I = 0;
    if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
      I = CRD->getNumBases();
    for (const FieldDecl *F : RD->fields()) {
      if (F->isUnnamedBitField())
        continue;
      note(F, I < ILE->getNumInits() ? ILE->getInit(I) : nullptr);
      ++I;
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    const FieldDecl *F = fieldOf(BO->getLHS());
    if (!F)
      return true;
    // Read at each construction (above).
    const auto *P = dyn_cast_or_null<ParmVarDecl>(
        varOf(BO->getRHS()->IgnoreParenImpCasts()));
    if (BO->getOpcode() == BO_Assign && P &&
        isa<CXXConstructorDecl>(P->getDeclContext()))
      return true;
    note(F, BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    // '&obj.p' or 'obj.p++': anything may be stored there.
    if (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp())
      if (const FieldDecl *F = fieldOf(UO->getSubExpr()))
        note(F, nullptr);
    return true;
  }
  bool VisitFieldDecl(FieldDecl *F) {
    if (F->hasInClassInitializer())
      note(F, F->getInClassInitializer());
    return true;
  }
};

} // namespace

const VarDecl *SharedMemoryRaces::memberSharedArray(const FieldDecl *F) {
  if (!F || !F->getType()->isPointerType())
    return nullptr;
  if (!MemberArrays) {
    MemberStores Scan(F->getASTContext().getSourceManager());
    Scan.TraverseDecl(F->getASTContext().getTranslationUnitDecl());
    MemberArrays = std::move(Scan.Target);
  }
  return MemberArrays->lookup(F);
}

bool SharedMemoryRaces::isThreadId(const Expr *E,
                                         const FunctionDecl *FD) {
  E = ThreadIndexAnalysis::strip(E);
  const FunctionDecl *ArgFn = nullptr;
  if (const Expr *Arg = boundArgument(E, FD, ArgFn))
    return isThreadId(Arg, ArgFn);
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
    return Src == TS_ThreadInBlock && Dim == 0;
  const VarDecl *VD = varOf(E);
  if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
      Analysis->isModified(VD, FD) || storesOf(FD).isAddressTaken(VD))
    return false;
  const Expr *Init = ThreadIndexAnalysis::strip(VD->getInit());
  return ThreadIndexAnalysis::isThreadQuery(Init, Src, Dim) &&
         Src == TS_ThreadInBlock && Dim == 0;
}

bool SharedMemoryRaces::isUniform(const Expr *E, const FunctionDecl *FD,
                                        int Depth) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 8)
    return false;
  if (constantOf(E, FD->getASTContext()))
    return true;
  const FunctionDecl *ArgFn = nullptr;
  if (const Expr *Arg = boundArgument(E, FD, ArgFn))
    return isUniform(Arg, ArgFn, Depth + 1);
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
    return Src == TS_BlockInGrid || Src == TS_BlockDim || Src == TS_GridDim;
  // A load at an index uniform in the block from memory no thread of the
  // kernel writes: an element of a kernel's parameter that points to const
  // ('int start = offsets[blockIdx.x]'), or a '__constant__' array. Every
  // thread of the block loads the same value.
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = ThreadIndexAnalysis::strip(AS->getBase());
    const auto *BaseVar = dyn_cast_or_null<VarDecl>(varOf(Base));
    bool ReadOnly = false;
    if (const auto *P = dyn_cast_or_null<ParmVarDecl>(BaseVar)) {
      const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
      const auto *PT = P->getType()->getAs<PointerType>();
      ReadOnly = Owner && Owner->hasAttr<CUDAGlobalAttr>() && PT &&
                 PT->getPointeeType().isConstQualified() &&
                 !changedIn(P, Owner);
    } else if (BaseVar) {
      ReadOnly = BaseVar->hasAttr<CUDAConstantAttr>() &&
                 BaseVar->getType()->isArrayType();
    }
    return ReadOnly && AS->getType()->isIntegralOrEnumerationType() &&
           isUniform(AS->getIdx(), FD, Depth + 1);
  }
  if (const VarDecl *VD = varOf(E)) {
    const VariableStores &Stores = storesOf(FD);
    if (!VD->getType()->isIntegralOrEnumerationType() ||
        Stores.isAddressTaken(VD) || VD->hasGlobalStorage())
      return false;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      // A helper's parameter may be anything its callers pass.
      const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
      if (!Owner || !Owner->hasAttr<CUDAGlobalAttr>())
        return false;
    } else if (!VD->isLocalVarDecl() ||
               (VD->getInit() && !isUniform(VD->getInit(), FD, Depth + 1)) ||
               // Declared without a value ('int e; for (e = 0; ...)'):
               // the stores below decide.
               (!VD->getInit() && Stores.valuesOf(VD).empty())) {
      return false;
    }
    for (const StoredValue &V : Stores.valuesOf(VD))
      if (!V.IsInitializer && V.Value != VD->getInit() &&
          !isUniform(V.Value, FD, Depth + 1))
        return false;
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add: case BO_Sub: case BO_Mul: case BO_Div: case BO_Rem:
    case BO_Shl: case BO_Shr:
      return isUniform(BO->getLHS(), FD, Depth + 1) &&
             isUniform(BO->getRHS(), FD, Depth + 1);
    default:
      return false;
    }
  }
  return false;
}

const Expr *SharedMemoryRaces::groupBase(const BinaryOperator *Mul,
                                         const FunctionDecl *FD,
                                         ASTContext &Ctx) {
  if (Mul->getOpcode() != BO_Mul)
    return nullptr;
  for (auto [W, Q] : {std::pair{Mul->getRHS(), Mul->getLHS()},
                      std::pair{Mul->getLHS(), Mul->getRHS()}}) {
    auto Width = constantOf(W, Ctx);
    const auto *Div =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(Q));
    if (!Width || *Width < 2 || *Width > 32 ||
        !llvm::isPowerOf2_64(*Width) || !Div || Div->getOpcode() != BO_Div)
      continue;
    auto By = constantOf(Div->getRHS(), Ctx);
    if (By && *By == *Width && isThreadId(Div->getLHS(), FD))
      return ThreadIndexAnalysis::strip(Div->getLHS());
  }
  return nullptr;
}

bool SharedMemoryRaces::underLeaderGuard(const Access &A, const Expr *Tid,
                                         const BinaryOperator *Base,
                                         const FunctionDecl *FD,
                                         ASTContext &Ctx) {
  // 'if (tid % 32 == 0)' or 'if (lane == 0)' with 'lane = tid & 31',
  // around the access, for a group of the base's width.
  auto Width = constantOf(Base->getLHS(), Ctx);
  if (!Width || !isa<BinaryOperator>(ThreadIndexAnalysis::strip(
                    Base->getRHS())))
    Width = constantOf(Base->getRHS(), Ctx);
  if (!Width)
    return false;
  for (const Condition &C : conditionsOver(A)) {
    const auto *Eq =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(C.Cond));
    if (C.Negated || !Eq || Eq->getOpcode() != BO_EQ || C.Fn != FD)
      continue;
    for (auto [Lane, Zero] : {std::pair{Eq->getLHS(), Eq->getRHS()},
                              std::pair{Eq->getRHS(), Eq->getLHS()}}) {
      auto Z = constantOf(Zero, Ctx);
      if (!Z || *Z != 0 || !isLaneOf(Lane, FD))
        continue;
      // The lane's group: 't % G' or 't & (G - 1)', G a multiple of the
      // base's width.
      const Expr *L = ThreadIndexAnalysis::strip(Lane);
      if (const VarDecl *VD = varOf(L); VD && VD->getInit())
        L = ThreadIndexAnalysis::strip(VD->getInit());
      const auto *BO = dyn_cast<BinaryOperator>(L);
      auto G = BO ? constantOf(BO->getRHS(), Ctx) : std::nullopt;
      if (!G)
        continue;
      int64_t Group = BO->getOpcode() == BO_And ? *G + 1 : *G;
      if (Group % *Width == 0)
        return true;
    }
  }
  (void)Tid;
  return false;
}



const VarDecl *
SharedMemoryRaces::sharedElementOf(const Expr *E, const FunctionDecl *FD,
                                   llvm::SmallVector<const Expr *, 3> &Indices) {
  Indices.clear();
  const Expr *Base = E;
  while (const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(Base)) {
    Indices.insert(Indices.begin(), Sub->getIdx());
    Base = ThreadIndexAnalysis::strip(Sub->getBase());
  }
  unsigned Rank = 0;
  const VarDecl *VD = sharedVariableOf(Base, FD, Rank);
  // Only whole elements: 'tile[ty]' alone is a row. Scalars by name.
  if (!VD || Indices.size() != Rank ||
      (Rank == 0 && (!isa<DeclRefExpr>(E) || !VD->getType()->isScalarType())))
    return nullptr;
  return VD;
}

/// The shared access made at CFG element \p S of \p FD, if it is one: an
/// element of a shared array, with its subscripts in \p Indices, or a
/// shared scalar.
std::optional<SharedMemoryRaces::Access>
SharedMemoryRaces::accessAt(const Stmt *S, const FunctionCfg &Cfg,
                                  const FunctionDecl *FD,
                                  llvm::SmallVector<const Expr *, 3> &Indices) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E || !(isa<ArraySubscriptExpr>(E) || isa<DeclRefExpr>(E)))
    return std::nullopt;
  const VarDecl *VD = sharedElementOf(E, FD, Indices);
  if (!VD)
    return std::nullopt;
  Access A;
  A.At = E;
  A.Array = VD;
  A.Fn = FD;
  A.Scalar = Indices.empty();
  const Stmt *P = Cfg.parents().getParentIgnoreParens(const_cast<Expr *>(E));
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
      BO && BO->isAssignmentOp() &&
      ThreadIndexAnalysis::strip(BO->getLHS()) == E) {
    A.Write = true;
    A.Read = BO->isCompoundAssignmentOp();
    A.Local = BO;
  } else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
             UO && UO->isIncrementDecrementOp()) {
    A.Read = A.Write = true;
    A.Local = UO;
  } else if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P);
             IC && IC->getCastKind() == CK_LValueToRValue) {
    A.Read = true;
    A.Local = E;
  } else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P);
             Op && Op->getNumArgs() == 2 && Op->getArg(0) == E &&
             Op->isAssignmentOp()) {
    // A template pattern's 's[i] += v' on a dependent element type.
    A.Write = true;
    A.Read = Op->getOperator() != OO_Equal;
    A.Local = Op;
  } else if (E->isTypeDependent() && readsDependentValue(E, P)) {
    A.Read = true;
    A.Local = E;
  } else {
    return std::nullopt;
  }
  if (!Cfg.pointOf(A.Local))
    return std::nullopt;
  A.Point = A.Local;
  return A;
}

std::optional<SharedMemoryRaces::Access>
SharedMemoryRaces::atomicAccessAt(const Stmt *S, const FunctionCfg &Cfg,
                                  const FunctionDecl *FD,
                                  llvm::SmallVector<const Expr *, 3> &Indices) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  std::optional<AtomicUpdate> U =
      Call ? atomicUpdateOf(Call) : std::nullopt;
  if (!U)
    return std::nullopt;
  // 'atomicAdd(&count, 1)', 'atomicAdd(&s[k], v)': the element whose
  // address is passed.
  const auto *Addr = dyn_cast<UnaryOperator>(U->Target->IgnoreParenCasts());
  if (!Addr || Addr->getOpcode() != UO_AddrOf)
    return std::nullopt;
  const Expr *E = Addr->getSubExpr()->IgnoreParens();
  const VarDecl *VD = sharedElementOf(E, FD, Indices);
  if (!VD || !Cfg.pointOf(Call))
    return std::nullopt;
  Access A;
  A.At = E;
  A.Array = VD;
  A.Fn = FD;
  A.Scalar = Indices.empty();
  A.Read = A.Write = A.Atomic = true;
  A.Local = A.Point = Call;
  return A;
}

bool SharedMemoryRaces::isTicket(const Expr *E, const FunctionDecl *FD) {
  E = ThreadIndexAnalysis::strip(E);
  if (const auto *Call = dyn_cast_or_null<CallExpr>(E)) {
    std::optional<AtomicUpdate> U =
        atomicUpdateOf(Call);
    return U && U->Ticket;
  }
  // 'int pos = atomicAdd(&tail, 1); q[pos] = v;'.
  const VarDecl *VD = varOf(E);
  if (!VD || !VD->isLocalVarDecl() || storesOf(FD).isAddressTaken(VD))
    return false;
  llvm::ArrayRef<StoredValue> Values = storesOf(FD).valuesOf(VD);
  if (Values.empty() || (!VD->getInit() && !storesOf(FD).isAssigned(VD)))
    return false;
  return llvm::all_of(Values, [&](const StoredValue &V) {
    const auto *Call =
        dyn_cast_or_null<CallExpr>(ThreadIndexAnalysis::strip(V.Value));
    std::optional<AtomicUpdate> U =
        Call ? atomicUpdateOf(Call) : std::nullopt;
    return !V.IsCompound && U && U->Ticket;
  });
}

void SharedMemoryRaces::addCandidate(
    Access A, const llvm::SmallVector<const Expr *, 3> &Indices,
    std::vector<Candidate> &Out, ASTContext &Ctx) {
  Candidate C;
  if (A.Scalar) {
    C.Flat = std::move(A);
    Out.push_back(std::move(C));
    return;
  }
  // A slot an atomic's ticket picks: no other thread's ticket names it.
  if (Indices.size() == 1 && !A.Atomic && isTicket(Indices[0], A.Fn)) {
    A.AnySlot = A.TicketSlot = true;
    C.Flat = std::move(A);
    Out.push_back(std::move(C));
    return;
  }
  if (Indices.size() == 1) {
    Access Flat = A;
    if (readIndex(Indices[0], 1, Flat, A.Fn, Ctx) &&
        // A stride ('a[2 * tid + 1]'): conflictsStrided().
        (Flat.Coeff >= -1 && Flat.Coeff <= 64))
      C.Flat = std::move(Flat);
  }
  {
    Access Multi = A;
    Multi.Multi = true;
    bool Ok = true;
    for (const Expr *Idx : Indices) {
      Linear L;
      if (!(Ok = readLinear(Idx, 1, 0, L, Multi, A.Fn, Ctx, 0)))
        break;
      C.Forms.push_back(std::move(L));
    }
    if (Ok)
      C.Multi = std::move(Multi);
  }
  // An atomic at a subscript not read ('atomicAdd(&hist[v], 1)'): any
  // element.
  if (!C.Flat && !C.Multi && A.Atomic) {
    A.AnySlot = true;
    C.Flat = std::move(A);
  }
  if (C.Flat || C.Multi)
    Out.push_back(std::move(C));
}


/// The accesses to shared memory, by the kernel's CFG element where they
/// happen: its own, and those of the __device__ helpers it calls.
std::vector<SharedMemoryRaces::Candidate>
SharedMemoryRaces::collectCandidates(const FunctionCfg &Cfg,
                                           const FunctionDecl *FD,
                                           ASTContext &Ctx) {
  std::vector<Candidate> Candidates;
  llvm::SmallVector<const Expr *, 3> Indices;
  for (const CFGBlock *B : Cfg.graph()) {
    // Steps under a condition that is constant false here do not run.
    if (!Cfg.isReachable(B))
      continue;
    for (const CFGElement &El : *B) {
      const Stmt *S = FunctionCfg::stmtOf(El);
      if (std::optional<Access> A = atomicAccessAt(S, Cfg, FD, Indices)) {
        addCandidate(std::move(*A), Indices, Candidates, Ctx);
        continue;
      }
      if (const auto *Call = dyn_cast_or_null<CallExpr>(S)) {
        if (Cfg.pointOf(Call) && !atomicUpdateOf(Call))
          collectHelperAccesses(Call, Call, Candidates, Ctx);
        continue;
      }
      if (std::optional<Access> A = accessAt(S, Cfg, FD, Indices))
        addCandidate(std::move(*A), Indices, Candidates, Ctx);
    }
  }
  return Candidates;
}

std::vector<SharedMemoryRaces::Access>
SharedMemoryRaces::chooseReadings(std::vector<Candidate> &Candidates) {
  // The arrays read per subscript: multi-dimensional ones, and
  // one-dimensional ones that some access indexes by threadIdx.y or .z
  // (flattened tiles). Their row width: a constant coefficient, or a
  // uniform factor ('ty * width').
  struct Shape {
    bool Multi = false;
    bool Bad = false;
    std::string StrideKey;
    int64_t Width = 0;
  };
  llvm::DenseMap<const VarDecl *, Shape> Shapes;
  for (const Candidate &C : Candidates) {
    if (!C.Multi)
      continue;
    Shape &Sh = Shapes[C.Multi->Array];
    if (C.Forms.size() > 1) {
      Sh.Multi = true;
      continue;
    }
    const Linear &L = C.Forms[0];
    if (L.mentionsYZ())
      Sh.Multi = true;
    if (!L.StrideKey.empty()) {
      if (!Sh.StrideKey.empty() && Sh.StrideKey != L.StrideKey)
        Sh.Bad = true;
      Sh.StrideKey = L.StrideKey;
    }
    for (int64_t Co : L.Coord[0])
      if (Co > 1 || Co < -1) {
        if (Sh.Width && Sh.Width != std::abs(Co))
          Sh.Bad = true;
        Sh.Width = std::abs(Co);
      }
  }
  std::vector<Access> Accesses;
  for (Candidate &C : Candidates) {
    // An unknown element is any element, whatever the array's shape.
    if (C.Flat && C.Flat->AnySlot) {
      Accesses.push_back(std::move(*C.Flat));
      continue;
    }
    const VarDecl *Array = C.Multi ? C.Multi->Array : C.Flat->Array;
    auto It = Shapes.find(Array);
    if (It == Shapes.end() || !It->second.Multi) {
      if (C.Flat)
        Accesses.push_back(std::move(*C.Flat));
      continue;
    }
    const Shape &Sh = It->second;
    if (!C.Multi || Sh.Bad || (!Sh.StrideKey.empty() && Sh.Width))
      continue;
    Access &A = *C.Multi;
    bool Ok = true;
    if (C.Forms.size() > 1) {
      for (const Linear &L : C.Forms) {
        DimIndex D;
        if (!L.levelEmpty(1) || !toDim(L, 0, D)) {
          Ok = false;
          break;
        }
        A.Dims.push_back(std::move(D));
      }
    } else {
      const Linear &L = C.Forms[0];
      DimIndex Row, Col;
      if (!Sh.StrideKey.empty())
        Ok = toDim(L, 1, Row) && toDim(L, 0, Col);
      else if (Sh.Width)
        Ok = splitByWidth(L, Sh.Width, Row, Col);
      else
        Ok = L.levelEmpty(1) && toDim(L, 0, Col);
      if (Ok && (!Sh.StrideKey.empty() || Sh.Width))
        A.Dims.push_back(std::move(Row));
      A.Dims.push_back(std::move(Col));
    }
    // Each coordinate in one subscript at most.
    unsigned Seen = 0;
    for (const DimIndex &D : A.Dims)
      if (D.Coord >= 0) {
        Ok = Ok && !(Seen & (1u << D.Coord));
        Seen |= 1u << D.Coord;
      }
    if (Ok)
      Accesses.push_back(std::move(A));
  }
  return Accesses;
}

} // namespace clang::tidy::cuda
