//===- SharedMemoryRaces.cpp - Races on __shared__ memory ------------------===//

#include "SharedMemoryRaces.h"
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

namespace {

constexpr auto &constantOf = ThreadIndexAnalysis::integerConstant;

const VarDecl *varOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(ThreadIndexAnalysis::strip(E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

} // namespace

namespace {

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
  return Call ? CudaApiModel::barrierOf(Call) : std::nullopt;
}

constexpr auto &helperDefinition = deviceHelperDefinition;

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
bool isLane(const Expr *E, ASTContext &Ctx, int Depth = 0) {
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

} // namespace

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
  return sharedArrayOf(varOf(E), Rank, *Analysis, storesOf(FD), FD);
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
    } else if (!VD->isLocalVarDecl() || !VD->getInit() ||
               !isUniform(VD->getInit(), FD, Depth + 1)) {
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
    case BO_Sub:
      return readIndex(BO->getLHS(), Coeff, A, FD, Ctx) &&
             readIndex(BO->getRHS(), -Coeff, A, FD, Ctx);
    case BO_Mul:
      if (!isUniform(E, FD, 0)) {
        if (const Expr *Tid = groupBase(BO, FD, Ctx)) {
          // '(tid / 32) * 32' is tid itself for the group's leader.
          if (!underLeaderGuard(A, Tid, BO, FD, Ctx))
            return false;
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
    default:
      break;
    }
  }
  if (!isUniform(E, FD, 0)) {
    // A local that holds a group's base ('int base = (tid / 32) * 32'),
    // never changed.
    const VarDecl *VD = varOf(E);
    if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
        !VD->getType()->isIntegralOrEnumerationType() ||
        Analysis->isModified(VD, FD) || storesOf(FD).isAddressTaken(VD) ||
        storesOf(FD).isAssigned(VD))
      return false;
    // Likewise 'int i = threadIdx.x + 1': its initializer, when the
    // variables it reads do not change either.
    struct Stable : RecursiveASTVisitor<Stable> {
      SharedMemoryRaces &C;
      const FunctionDecl *FD;
      bool Ok = true;
      Stable(SharedMemoryRaces &C, const FunctionDecl *FD) : C(C), FD(FD) {}
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          if (C.Analysis->isModified(V, FD) ||
              C.storesOf(FD).isAddressTaken(V) || C.storesOf(FD).isAssigned(V))
            Ok = false;
        return Ok;
      }
    } St(*this, FD);
    St.TraverseStmt(const_cast<Expr *>(VD->getInit()));
    if (!St.Ok || ++LocalDepth > 8) {
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

llvm::SmallVector<SharedMemoryRaces::Condition, 4>
SharedMemoryRaces::conditionsOver(const Access &A) {
  llvm::SmallVector<Condition, 4> Out;
  auto Climb = [&](const Stmt *From, const FunctionDecl *Fn) {
    const FunctionCfg *Cfg =
        TranslationUnitAnalyses::get(Fn->getASTContext()).cfgOf(Fn);
    if (!Cfg)
      return;
    const ParentMap &PM = Cfg->parents();
    const Stmt *Child = From;
    for (const Stmt *S = PM.getParent(Child); S;
         Child = S, S = PM.getParent(S)) {
      const Expr *Cond = nullptr;
      bool Negated = false;
      if (const auto *If = dyn_cast<IfStmt>(S)) {
        if (Child == If->getCond())
          continue;
        Cond = If->getCond();
        Negated = Child != If->getThen();
      } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
        Cond = Child == W->getBody() ? W->getCond() : nullptr;
      } else if (const auto *For = dyn_cast<ForStmt>(S)) {
        Cond = Child == For->getBody() ? For->getCond() : nullptr;
      } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
        Cond = Child == Do->getBody() ? Do->getCond() : nullptr;
      } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
        Cond = Child != CO->getCond() ? CO->getCond() : nullptr;
        Negated = true; // Either arm: treated as separating.
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
                 BO && BO->isLogicalOp() && Child == BO->getRHS()) {
        Cond = BO->getLHS();
        Negated = BO->getOpcode() == BO_LOr;
      } else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
        Cond = Sw->getCond();
        Negated = true;
      }
      if (Cond)
        Out.push_back({Cond, Fn, Negated});
    }
  };
  Climb(A.At, A.Fn);
  for (auto [Call, Caller] : A.Calls)
    Climb(Call, Caller);
  return Out;
}

llvm::SmallVector<SharedMemoryRaces::FactIn, 8>
SharedMemoryRaces::factsAt(const Access &A, bool &Known) {
  llvm::SmallVector<FactIn, 8> Out;
  const FactList *Facts = Analysis->boundsAt(A.Local, A.Fn);
  Known = Facts != nullptr;
  if (Facts)
    for (const BoundFact *F : *Facts)
      Out.push_back({F, A.Fn});
  for (auto [Call, Caller] : A.Calls)
    if (const FactList *AtCall = Analysis->boundsAt(Call, Caller))
      for (const BoundFact *F : *AtCall)
        Out.push_back({F, Caller});
  return Out;
}

bool SharedMemoryRaces::guardedBelow(const Access &A,
                                           const std::string &RHSKey,
                                           int64_t Max,
                                           const FunctionDecl *) {
  if (!A.Thread)
    return false;
  // Any of the facts on the thread's index may be the one that separates
  // the two threads (t < cols and t < s both hold inside a guarded
  // reduction).
  bool Known;
  std::string Key = Analysis->variablePartKey(A.Thread);
  // A bound on the rank in a tile bounds the thread's lane the same way
  // (lane < s keeps lane + s in the tile and past the guard).
  for (auto [F, Fn] : factsAt(A, Known))
    if (F->K == BoundFact::Less && F->RHSKey == RHSKey && F->RHSConst <= Max &&
        (F->LHSKey == Key ||
         (F->Guard && mentionsLane(F->Guard, Fn->getASTContext()))))
      return true;
  return false;
}

bool SharedMemoryRaces::hasThreadGuard(const Access &At,
                                             const Expr *,
                                             const FunctionDecl *) {
  bool Known;
  auto Facts = factsAt(At, Known);
  if (!Known)
    return true; // Unknown: stay silent.
  for (auto [F, Fn] : Facts)
    if (F->Guard && mentionsThread(F->Guard, Fn))
      return true;
  // Facts keep only upper bounds: look at the statements around the
  // access for the other conditions (tid == 0, tid >= off).
  for (const Condition &C : conditionsOver(At))
    if (mentionsThread(C.Cond, C.Fn))
      return true;
  return false;
}

bool SharedMemoryRaces::upperBoundOnThread(const Expr *Cond,
                                           const FunctionDecl *FD) {
  const auto *BO =
      dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(Cond));
  if (!BO)
    return !mentionsThread(Cond, FD);
  switch (BO->getOpcode()) {
  case BO_LAnd:
    return upperBoundOnThread(BO->getLHS(), FD) &&
           upperBoundOnThread(BO->getRHS(), FD);
  case BO_LT:
  case BO_LE:
    return isThreadId(BO->getLHS(), FD) && !mentionsThread(BO->getRHS(), FD);
  case BO_GT:
  case BO_GE:
    return isThreadId(BO->getRHS(), FD) && !mentionsThread(BO->getLHS(), FD);
  case BO_EQ:
    return (isThreadId(BO->getLHS(), FD) && isUniform(BO->getRHS(), FD, 0)) ||
           (isThreadId(BO->getRHS(), FD) && isUniform(BO->getLHS(), FD, 0));
  default:
    return !mentionsThread(Cond, FD);
  }
}

bool SharedMemoryRaces::ownerMayWrite(const Access &Own,
                                      const FunctionDecl *) {
  // Every condition on the thread around Own bounds it from above, or
  // picks one thread: thread 0 passes each of them, and the owner of a
  // fixed element passes them unless threadRange() says otherwise.
  if (!Own.Thread)
    return false;
  std::string Key = Analysis->variablePartKey(Own.Thread);
  bool Known;
  for (auto [F, Fn] : factsAt(Own, Known))
    if (F->Guard && mentionsThread(F->Guard, Fn) &&
        !(F->K == BoundFact::Less && F->LHSKey == Key) &&
        !upperBoundOnThread(F->Guard, Fn))
      return false;
  for (const Condition &C : conditionsOver(Own))
    if (mentionsThread(C.Cond, C.Fn) &&
        (C.Negated || !upperBoundOnThread(C.Cond, C.Fn)))
      return false;
  return true;
}

bool SharedMemoryRaces::mentionsThread(const Expr *E,
                                             const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SharedMemoryRaces &C;
    const FunctionDecl *FD;
    bool Found = false;
    Finder(SharedMemoryRaces &C, const FunctionDecl *FD)
        : C(C), FD(FD) {}
    bool VisitExpr(Expr *E) {
      if (E->getType()->isIntegralOrEnumerationType() &&
          (C.Analysis->valueOf(E, FD).Sources & TS_ThreadInBlock))
        Found = true;
      return !Found;
    }
  } F(*this, FD);
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

bool SharedMemoryRaces::writerIsOneThread(const Access &W,
                                                const FunctionDecl *FD) {
  int64_t Thread;
  if (onlyThread(W, FD, Thread))
    return true;
  // 'if (tid == blockDim.x - 1)': one thread, whichever it is.
  for (const Condition &C : conditionsOver(W)) {
    const auto *Eq =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(C.Cond));
    if (C.Negated || !Eq || Eq->getOpcode() != BO_EQ)
      continue;
    if ((isThreadId(Eq->getLHS(), C.Fn) && isUniform(Eq->getRHS(), C.Fn, 0)) ||
        (isThreadId(Eq->getRHS(), C.Fn) && isUniform(Eq->getLHS(), C.Fn, 0)))
      return true;
  }
  return false;
}

bool SharedMemoryRaces::onlyThread(const Access &A,
                                         const FunctionDecl *,
                                         int64_t &Thread) {
  // The access sits in the then-branch of 'if (tid == c)'.
  for (const Condition &C : conditionsOver(A)) {
    const auto *Eq =
        dyn_cast<BinaryOperator>(ThreadIndexAnalysis::strip(C.Cond));
    if (C.Negated || !Eq || Eq->getOpcode() != BO_EQ)
      continue;
    ASTContext &Ctx = C.Fn->getASTContext();
    for (auto [Tid, Value] : {std::pair{Eq->getLHS(), Eq->getRHS()},
                              std::pair{Eq->getRHS(), Eq->getLHS()}})
      if (auto V = constantOf(Value, Ctx); V && isThreadId(Tid, C.Fn)) {
        Thread = *V;
        return true;
      }
  }
  return false;
}

bool SharedMemoryRaces::isEnclosingLoopCounter(const VarDecl *VD,
                                                     const Stmt *At,
                                                     const FunctionDecl *FD) {
  const ParentMap &PM =
      TranslationUnitAnalyses::get(FD->getASTContext()).cfgOf(FD)->parents();
  const Stmt *Child = At;
  for (const Stmt *S = PM.getParent(Child); S;
       Child = S, S = PM.getParent(S)) {
    const auto *For = dyn_cast<ForStmt>(S);
    if (!For || For->getBody() != Child || !For->getInc())
      continue;
    const Expr *Inc = ThreadIndexAnalysis::strip(For->getInc());
    const Expr *Target = nullptr;
    if (const auto *UO = dyn_cast<UnaryOperator>(Inc);
        UO && UO->isIncrementDecrementOp())
      Target = UO->getSubExpr();
    else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc))
      Target = CA->getLHS();
    if (Target && varOf(Target) == VD)
      return true;
  }
  return false;
}

bool SharedMemoryRaces::readsOtherThreadsElement(
    const Access &Reader, const Access &Writer, const FunctionDecl *FD) {
  // Reader is one thread (if (tid == c)) at an index that does not depend
  // on the thread; Writer writes s[tid + k] in every thread.
  int64_t Thread;
  if (!onlyThread(Reader, FD, Thread))
    return false;
  // A loop counter walks over the elements of other threads too.
  for (const VarDecl *V : Reader.Vars)
    if (isEnclosingLoopCounter(V, Reader.At, Reader.Fn))
      return true;
  // A constant index is another thread's element unless it is c's own.
  return Reader.Uniform.empty() && Writer.Uniform.empty() &&
         Reader.Const - Writer.Const != Thread &&
         !noThreadAt(Reader.Const - Writer.Const);
}

int64_t SharedMemoryRaces::warpBound(const Access &A,
                                           const FunctionDecl *) {
  if (!A.Thread || A.Coeff != 1)
    return -1;
  if (A.Calls.empty()) {
    const BoundFact *F = Analysis->boundOn(A.Thread, A.Point, A.Fn);
    return F && F->K == BoundFact::Less && F->RHSKey.empty() ? F->RHSConst
                                                              : -1;
  }
  bool Known;
  int64_t Bound = -1;
  std::string Key = Analysis->variablePartKey(A.Thread);
  for (auto [F, Fn] : factsAt(A, Known))
    if (F->K == BoundFact::Less && F->LHSKey == Key && F->RHSKey.empty() &&
        (Bound < 0 || F->RHSConst < Bound))
      Bound = F->RHSConst;
  return Bound;
}

bool SharedMemoryRaces::noThreadAt(int64_t Offset) {
  if (Offset < 0)
    return true;
  const KernelLaunches &L =
      TranslationUnitAnalyses::get(Kernel->getASTContext())
          .launches()
          .launchesOf(Kernel);
  return L.known() && L.BlockDim[0] && *L.BlockDim[0] > 0 &&
         Offset >= *L.BlockDim[0];
}

std::pair<int64_t, int64_t>
SharedMemoryRaces::threadRange(const Access &A) {
  int64_t Lo = 0, Hi = INT64_MAX;
  if (!A.Thread || A.Coeff != 1)
    return {Lo, Hi};
  const KernelLaunches &L =
      TranslationUnitAnalyses::get(Kernel->getASTContext())
          .launches()
          .launchesOf(Kernel);
  if (L.known() && L.BlockDim[0] && *L.BlockDim[0] > 0)
    Hi = *L.BlockDim[0] - 1;
  bool Known;
  std::string Key = Analysis->variablePartKey(A.Thread);
  for (auto [F, Fn] : factsAt(A, Known))
    if (F->K == BoundFact::Less && F->LHSKey == Key && F->RHSKey.empty())
      Hi = std::min(Hi, F->RHSConst - 1);
  // 'tid >= c', 'tid > c', 'c <= tid', through '&&', on the side where
  // the condition holds.
  std::function<void(const Expr *, const FunctionDecl *)> Lower =
      [&](const Expr *E, const FunctionDecl *Fn) {
        const auto *BO =
            dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(E));
        if (!BO)
          return;
        if (BO->getOpcode() == BO_LAnd) {
          Lower(BO->getLHS(), Fn);
          Lower(BO->getRHS(), Fn);
          return;
        }
        if (!BO->isRelationalOp())
          return;
        ASTContext &Ctx = Fn->getASTContext();
        BinaryOperatorKind Op = BO->getOpcode();
        const Expr *Tid = BO->getLHS(), *Value = BO->getRHS();
        if (!isThreadId(Tid, Fn)) {
          std::swap(Tid, Value);
          Op = BinaryOperator::reverseComparisonOp(Op);
        }
        auto V = constantOf(Value, Ctx);
        if (!V || !isThreadId(Tid, Fn) ||
            Analysis->variablePartKey(Tid) != Key)
          return;
        if (Op == BO_GE)
          Lo = std::max(Lo, *V);
        else if (Op == BO_GT)
          Lo = std::max(Lo, *V + 1);
      };
  for (const Condition &C : conditionsOver(A))
    if (!C.Negated)
      Lower(C.Cond, C.Fn);
  return {Lo, Hi};
}

bool SharedMemoryRaces::underTileGuard(const Access &A) {
  bool Known;
  for (auto [F, Fn] : factsAt(A, Known))
    if (F->Guard && mentionsLane(F->Guard, Fn->getASTContext()))
      return true;
  for (const Condition &C : conditionsOver(A))
    if (mentionsLane(C.Cond, C.Fn->getASTContext()))
      return true;
  return false;
}

bool SharedMemoryRaces::conflicts(const Access &First,
                                        const Access &Second, bool GuardsHold,
                                        const FunctionDecl *FD) {
  if (First.Array != Second.Array)
    return false;
  if (!((First.Write && Second.Read) || (First.Read && Second.Write)))
    return false;
  if (First.Multi || Second.Multi)
    return First.Multi == Second.Multi &&
           conflictsMulti(First, Second, GuardsHold, FD) &&
           !separatesThreads(First, First, Second, FD) &&
           !separatesThreads(Second, First, Second, FD);
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
           readsOtherThreadsElement(Second, First, FD);
  }
  if (First.Coeff == 0 && Second.Coeff == 1 && First.Read &&
      !First.Write && Second.Write) {
    if (KeptOff(First, Second) || Unowned(First, Second))
      return false;
    return !hasThreadGuard(First, Second.Thread, FD) ||
           readsOtherThreadsElement(First, Second, FD);
  }
  if (First.Coeff == 0 && Second.Coeff == 0 &&
      First.Uniform == Second.Uniform && First.Const == Second.Const &&
      (GuardsHold || First.Uniform.empty())) {
    // One writer (if (tid == 0) s[0] = ...), and every thread reads; or
    // every thread reads, and then one thread overwrites it.
    if (First.Write && Second.Read && !Second.Write)
      return writerIsOneThread(First, FD) &&
             !hasThreadGuard(Second, nullptr, FD);
    if (First.Read && !First.Write && Second.Write)
      return writerIsOneThread(Second, FD) &&
             !hasThreadGuard(First, nullptr, FD);
  }
  return false;
}

/// Level 0 is the index itself; level 1 the part multiplied by the stride
/// StrideKey ('ty * width + tx': ty at level 1, tx at level 0).
struct SharedMemoryRaces::Linear {
  int64_t Coord[2][3] = {};
  std::map<std::string, int64_t> Uniform[2];
  std::map<std::string, const Expr *> UniformExprs[2];
  int64_t Const[2] = {};
  std::string StrideKey;

  bool mentionsYZ() const {
    return Coord[0][1] || Coord[0][2] || Coord[1][1] || Coord[1][2];
  }
  bool levelEmpty(int Level) const {
    return !Coord[Level][0] && !Coord[Level][1] && !Coord[Level][2] &&
           Uniform[Level].empty() && !Const[Level];
  }
  void addUniform(int Level, const std::string &Key, int64_t C,
                  const Expr *E) {
    if ((Uniform[Level][Key] += C) == 0) {
      Uniform[Level].erase(Key);
      UniformExprs[Level].erase(Key);
    } else {
      UniformExprs[Level][Key] = E;
    }
  }
};

namespace {

using DimIndex = SharedMemoryRaces::DimIndex;
using Linear = SharedMemoryRaces::Linear;

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

} // namespace

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
  const VarDecl *VD = varOf(E);
  if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
      !VD->getType()->isIntegralOrEnumerationType() ||
      Analysis->isModified(VD, FD) || storesOf(FD).isAddressTaken(VD) ||
      storesOf(FD).isAssigned(VD))
    return false;
  struct Stable : RecursiveASTVisitor<Stable> {
    SharedMemoryRaces &C;
    const FunctionDecl *FD;
    bool Ok = true;
    Stable(SharedMemoryRaces &C, const FunctionDecl *FD) : C(C), FD(FD) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (C.Analysis->isModified(V, FD) ||
            C.storesOf(FD).isAddressTaken(V) ||
            C.storesOf(FD).isAssigned(V))
          Ok = false;
      return Ok;
    }
  } St(*this, FD);
  St.TraverseStmt(const_cast<Expr *>(VD->getInit()));
  return St.Ok &&
         readLinear(VD->getInit(), Coeff, Level, L, A, FD, Ctx, Depth + 1);
}

bool SharedMemoryRaces::varies(const Expr *E, const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SharedMemoryRaces &C;
    const FunctionDecl *FD;
    bool Found = false;
    Finder(SharedMemoryRaces &C, const FunctionDecl *FD) : C(C), FD(FD) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (C.Analysis->isModified(V, FD) || C.storesOf(FD).isAssigned(V))
          Found = true;
      return !Found;
    }
  } F(*this, FD);
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

bool SharedMemoryRaces::harmlessBound(const Expr *Bound,
                                            const Access &First,
                                            const Access &Second,
                                            const FunctionDecl *FD) {
  // An upper bound by a uniform value the indices do not mention ('x < w'):
  // it keeps the threads past the edge of the data out, not the threads of
  // one tile from each other.
  Bound = ThreadIndexAnalysis::strip(Bound);
  if (!Bound || constantOf(Bound, FD->getASTContext()) ||
      !isUniform(Bound, FD, 0))
    return false;
  struct Refs : RecursiveASTVisitor<Refs> {
    const Access &F, &S;
    bool Shared = false;
    Refs(const Access &F, const Access &S) : F(F), S(S) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (llvm::is_contained(F.Vars, DRE->getDecl()) ||
          llvm::is_contained(S.Vars, DRE->getDecl()))
        Shared = true;
      return !Shared;
    }
  } R(First, Second);
  R.TraverseStmt(const_cast<Expr *>(Bound));
  return !R.Shared;
}

bool SharedMemoryRaces::harmlessCondition(const Expr *Cond,
                                                const Access &First,
                                                const Access &Second,
                                                const FunctionDecl *FD) {
  Cond = ThreadIndexAnalysis::strip(Cond);
  if (!Cond || !mentionsThread(Cond, FD))
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return false;
  switch (BO->getOpcode()) {
  case BO_LAnd:
    return harmlessCondition(BO->getLHS(), First, Second, FD) &&
           harmlessCondition(BO->getRHS(), First, Second, FD);
  case BO_LT:
  case BO_LE:
    return harmlessBound(BO->getRHS(), First, Second, FD);
  case BO_GT:
  case BO_GE:
    return harmlessBound(BO->getLHS(), First, Second, FD);
  default:
    return false;
  }
}

namespace {

/// Whether \p Cond tests data rather than the thread's position: it loads
/// an element ('valid[i]') or compares floating-point values. Many threads
/// of a tile pass such a test, as they would in a one-dimensional block.
/// A test that reads \p Array itself may be what keeps the threads apart
/// (a transitive closure's 'if (m[y][x] == 0 && m[y][k] != 0)' never
/// stores where k == x): not a data test here.
bool testsData(const Expr *Cond, const VarDecl *Array) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Array;
    bool Found = false, ReadsArray = false;
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
      Found = true;
      const Expr *Base = AS->getBase();
      while (const auto *Sub =
                 dyn_cast<ArraySubscriptExpr>(Base->IgnoreParenImpCasts()))
        Base = Sub->getBase();
      if (const VarDecl *VD = varOf(Base); VD && VD == Array)
        ReadsArray = true;
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      Found |= UO->getOpcode() == UO_Deref;
      return !Found;
    }
    bool VisitExpr(Expr *E) {
      Found |= E->getType()->isRealFloatingType();
      return !Found;
    }
  } F;
  F.Array = Array;
  F.TraverseStmt(const_cast<Expr *>(Cond));
  return F.Found && !F.ReadsArray;
}

} // namespace

void SharedMemoryRaces::boundCoordinates(const Expr *Cond,
                                         const FunctionDecl *Fn,
                                         CoordRanges &R) {
  const auto *BO =
      dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(Cond));
  if (!BO)
    return;
  if (BO->getOpcode() == BO_LAnd) {
    boundCoordinates(BO->getLHS(), Fn, R);
    boundCoordinates(BO->getRHS(), Fn, R);
    return;
  }
  if (!BO->isComparisonOp())
    return;
  ASTContext &Ctx = Fn->getASTContext();
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *Coord = BO->getLHS(), *Value = BO->getRHS();
  unsigned Dim;
  if (!Analysis->threadCoordinate(Coord, Fn, Dim)) {
    std::swap(Coord, Value);
    Op = BinaryOperator::reverseComparisonOp(Op);
    if (!Analysis->threadCoordinate(Coord, Fn, Dim))
      return;
  }
  auto V = constantOf(Value, Ctx);
  if (!V || Dim > 2)
    return;
  auto &[Lo, Hi] = R[Dim];
  switch (Op) {
  case BO_LT: Hi = std::min(Hi, *V - 1); break;
  case BO_LE: Hi = std::min(Hi, *V); break;
  case BO_GT: Lo = std::max(Lo, *V + 1); break;
  case BO_GE: Lo = std::max(Lo, *V); break;
  case BO_EQ:
    Lo = std::max(Lo, *V);
    Hi = std::min(Hi, *V);
    break;
  default: break;
  }
}

SharedMemoryRaces::CoordRanges
SharedMemoryRaces::coordinateRanges(const Access &A) {
  CoordRanges R;
  for (auto &Range : R)
    Range = {0, INT64_MAX};
  const KernelLaunches &L =
      TranslationUnitAnalyses::get(Kernel->getASTContext())
          .launches()
          .launchesOf(Kernel);
  if (L.known())
    for (int D = 0; D < 3; ++D)
      if (L.BlockDim[D] && *L.BlockDim[D] > 0)
        R[D].second = *L.BlockDim[D] - 1;
  for (const Condition &C : conditionsOver(A))
    if (!C.Negated)
      boundCoordinates(C.Cond, C.Fn, R);
  return R;
}

/// Whether \p Cond is a constant bound on thread coordinates only
/// ('tx < 8', 'tx >= 1 && ty < 4'), which coordinateRanges() reads.
bool SharedMemoryRaces::constantCoordinateBound(const Expr *Cond,
                                                const FunctionDecl *Fn) {
  const auto *BO =
      dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(Cond));
  if (!BO)
    return false;
  if (BO->getOpcode() == BO_LAnd)
    return (constantCoordinateBound(BO->getLHS(), Fn) ||
            !mentionsThread(BO->getLHS(), Fn)) &&
           (constantCoordinateBound(BO->getRHS(), Fn) ||
            !mentionsThread(BO->getRHS(), Fn));
  if (!BO->isRelationalOp())
    return false;
  ASTContext &Ctx = Fn->getASTContext();
  unsigned Dim;
  return (Analysis->threadCoordinate(BO->getLHS(), Fn, Dim) &&
          constantOf(BO->getRHS(), Ctx)) ||
         (Analysis->threadCoordinate(BO->getRHS(), Fn, Dim) &&
          constantOf(BO->getLHS(), Ctx));
}

bool SharedMemoryRaces::separatesThreads(const Access &At,
                                               const Access &First,
                                               const Access &Second,
                                               const FunctionDecl *) {
  bool Known;
  auto Facts = factsAt(At, Known);
  if (!Known)
    return true; // Unknown: stay silent.
  auto Conditions = conditionsOver(At);
  // A test of data lets many threads of a row through; a constant bound
  // on a coordinate is read by coordinateRanges(), where it is around the
  // access.
  auto Enclosing = [&](const Expr *Guard) {
    for (const Condition &C : Conditions) {
      if (C.Negated)
        continue;
      bool Part = false;
      std::function<void(const Expr *)> Visit = [&](const Expr *E) {
        E = ThreadIndexAnalysis::strip(E);
        Part |= E == ThreadIndexAnalysis::strip(Guard);
        if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
            BO && BO->getOpcode() == BO_LAnd) {
          Visit(BO->getLHS());
          Visit(BO->getRHS());
        }
      };
      Visit(C.Cond);
      if (Part)
        return true;
    }
    return false;
  };
  for (auto [F, Fn] : Facts)
    if (F->Guard && mentionsThread(F->Guard, Fn) &&
        !testsData(F->Guard, First.Array) &&
        !(constantCoordinateBound(F->Guard, Fn) && Enclosing(F->Guard)) &&
        (F->K != BoundFact::Less ||
         !harmlessBound(F->Bound, First, Second, Fn)))
      return true;
  for (const Condition &C : Conditions)
    if (mentionsThread(C.Cond, C.Fn) && !testsData(C.Cond, First.Array) &&
        (C.Negated || (!constantCoordinateBound(C.Cond, C.Fn) &&
                       !harmlessCondition(C.Cond, First, Second, C.Fn))))
      return true;
  return false;
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

/// One shared-array access, read both ways: as a one-dimensional index of
/// tid, and as one linear form over (x, y, z) per subscript. Which reading
/// is used is decided per array (chooseReadings).
struct SharedMemoryRaces::Candidate {
  std::optional<Access> Flat;
  std::optional<Access> Multi;
  std::vector<Linear> Forms;
};

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
    return std::nullopt;
  Access A;
  A.At = E;
  A.Array = VD;
  A.Fn = FD;
  A.Scalar = Rank == 0;
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

void SharedMemoryRaces::addCandidate(
    Access A, const llvm::SmallVector<const Expr *, 3> &Indices,
    std::vector<Candidate> &Out, ASTContext &Ctx) {
  Candidate C;
  if (A.Scalar) {
    C.Flat = std::move(A);
    Out.push_back(std::move(C));
    return;
  }
  if (Indices.size() == 1) {
    Access Flat = A;
    if (readIndex(Indices[0], 1, Flat, A.Fn, Ctx) &&
        (Flat.Coeff == 0 || Flat.Coeff == 1 || Flat.Coeff == -1))
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
  if (C.Flat || C.Multi)
    Out.push_back(std::move(C));
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
    for (const CFGElement &El : *B)
      if (std::optional<Access> A =
              accessAt(FunctionCfg::stmtOf(El), HelperCfg, Def, Indices)) {
        A->Calls = Chain;
        addCandidate(std::move(*A), Indices, Out, Ctx);
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
        for (const Expr *Arg : Call->arguments())
          Out.Names |= mayNameShared(varOf(Arg));
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
      if (const auto *Call = dyn_cast_or_null<CallExpr>(S)) {
        if (Cfg.pointOf(Call))
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
  return A.Array == W.Array && !A.Multi && A.Coeff == 0 &&
         A.Scalar == W.Scalar && A.Uniform == W.Uniform && A.Const == W.Const;
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
            if (!sameFixedElement(A, W))
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
  for (const Access &W : Accesses) {
    // The kernel's own store of a fixed element; 'x++' and 'x += v' by
    // every thread lose updates whatever v is.
    const auto *Store = dyn_cast_or_null<BinaryOperator>(W.Local);
    const auto *Step = dyn_cast_or_null<UnaryOperator>(W.Local);
    if (!W.Write || W.Multi || W.Coeff != 0 || !W.Calls.empty() ||
        (!Store && !Step) || Reported.count(W.At))
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
    if (AS && (Divergences->of(AS->getIdx()) != Divergence::None ||
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
    Writers Who = writersOf(W, Cfg, *Divergences);
    if (Assign && Who.K != Writers::None)
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
        return !PastTiles ||
               (WarpConfined && (!B->GroupSize || Warp <= *B->GroupSize)) ||
               underTileGuard(First);
      }
      return false;
    };
    auto Check = [&](const Stmt *S, bool GuardsHold) {
      auto It = AtPoint.find(S);
      if (It == AtPoint.end())
        return;
      for (unsigned I : It->second) {
        const Access &Second = Accesses[I];
        // A read of the thread's own warp's elements is checked in a
        // pass that __syncwarp() stops.
        if (Second.WarpLocal != StopAtWarp)
          continue;
        int64_t SecondWarp = warpBound(Second, FD);
        bool PairInWarp =
            (InWarp && (Second.Multi || (SecondWarp > 0 && SecondWarp <= 32))) ||
            Second.WarpLocal || First.WarpLocal;
        if (Reported.count(Second.At) ||
            (PastTiles && underTileGuard(Second)) ||
            (IntoLoops && !InWaitingLoop(Second)) ||
            !conflicts(First, Second, GuardsHold, FD))
          continue;
        Reported.insert(Second.At);
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
            if (StopsAt(S))
              return true;
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
              if (StopsAt(S))
                return true;
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
