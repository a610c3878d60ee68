//===- WarpLanes.cpp ------------------------------------------------------===//

#include "WarpLanes.h"
#include "CudaApiModel.h"
#include "LaunchConfiguration.h"
#include "ThreadIndexAnalysis.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

namespace clang::tidy::cuda {

/// The value of an expression for one thread.
struct WarpLanes::Value {
  enum Kind {
    Known,    ///< C, for this thread.
    Mult32,   ///< C plus some warp-uniform multiple of 32.
    Uniform,  ///< The same unknown value in the whole warp.
    Unknown,
  } K = Unknown;
  int64_t C = 0;
  /// Known only: the same for every thread (a constant).
  bool Constant = false;

  static Value known(int64_t C, bool Constant) {
    return {Known, C, Constant};
  }
  static Value mult32(int64_t C) { return {Mult32, C, false}; }
  static Value uniform() { return {Uniform, 0, false}; }
  static Value unknown() { return {}; }
  bool isConstant() const { return K == Known && Constant; }
  bool isInvariant() const { return isConstant() || K == Uniform; }
};

namespace {

using Value = WarpLanes::Value;

Value add(Value A, Value B, bool Subtract) {
  int64_t BC = Subtract ? -B.C : B.C;
  if (A.K == Value::Known && B.K == Value::Known)
    return Value::known(A.C + BC, A.Constant && B.Constant);
  if ((A.K == Value::Known || A.K == Value::Mult32) &&
      (B.K == Value::Known || B.K == Value::Mult32))
    return Value::mult32(A.C + BC);
  if (A.isInvariant() && B.isInvariant())
    return Value::uniform();
  return Value::unknown();
}

Value multiply(Value A, Value B) {
  if (A.K == Value::Known && B.K == Value::Known)
    return Value::known(A.C * B.C, A.Constant && B.Constant);
  for (auto [X, Y] : {std::pair{A, B}, std::pair{B, A}}) {
    // (32k + c) * n, and 32k times anything uniform.
    if (X.K == Value::Mult32 && Y.K == Value::Known)
      return Value::mult32(X.C * Y.C);
    if (X.K == Value::Mult32 && X.C == 0 &&
        (Y.isInvariant() || Y.K == Value::Mult32))
      return Value::mult32(0);
    // A warp-uniform value times a multiple of 32 ('blockIdx.x * 256').
    if (X.isInvariant() && Y.isConstant() && Y.C % 32 == 0)
      return Value::mult32(0);
  }
  if (A.isInvariant() && B.isInvariant())
    return Value::uniform();
  return Value::unknown();
}

/// A binary operator other than a comparison or a logical one.
Value arithmetic(BinaryOperatorKind Op, Value A, Value B) {
  switch (Op) {
  case BO_Add:
  case BO_Sub:
    return add(A, B, Op == BO_Sub);
  case BO_Mul:
    return multiply(A, B);
  default:
    break;
  }
  if (A.K == Value::Known && B.K == Value::Known) {
    bool Constant = A.Constant && B.Constant;
    switch (Op) {
    case BO_Div:
      return B.C ? Value::known(A.C / B.C, Constant) : Value::unknown();
    case BO_Rem:
      return B.C ? Value::known(A.C % B.C, Constant) : Value::unknown();
    case BO_And:
      return Value::known(A.C & B.C, Constant);
    case BO_Or:
      return Value::known(A.C | B.C, Constant);
    case BO_Xor:
      return Value::known(A.C ^ B.C, Constant);
    case BO_Shl:
      return B.C >= 0 && B.C < 32 ? Value::known(A.C << B.C, Constant)
                                  : Value::unknown();
    case BO_Shr:
      return B.C >= 0 && B.C < 63 ? Value::known(A.C >> B.C, Constant)
                                  : Value::unknown();
    default:
      return Value::unknown();
    }
  }
  // (32k + c) % m and (32k + c) & m keep only c's low bits when m divides
  // 32 (or m < 32 for '&').
  if (A.K == Value::Mult32 && B.isConstant() && A.C >= 0) {
    if (Op == BO_Rem && B.C > 0 && 32 % B.C == 0)
      return Value::known(A.C % B.C, false);
    if (Op == BO_And && B.C >= 0 && B.C < 32)
      return Value::known((A.C & 31) & B.C, false);
    if (Op == BO_Shl && B.C >= 0 && B.C < 32)
      return Value::mult32(A.C << B.C);
  }
  if (A.isInvariant() && B.isInvariant())
    return Value::uniform();
  return Value::unknown();
}

/// The one returned expression of a body `{ return E; }`.
const Expr *singleReturn(const FunctionDecl *FD) {
  const auto *Body =
      dyn_cast_or_null<CompoundStmt>(FD ? FD->getBody() : nullptr);
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  return Ret ? Ret->getRetValue() : nullptr;
}

} // namespace

WarpLanes::WarpLanes(const FunctionCfg &Cfg, ASTContext &Ctx)
    : Cfg(Cfg), Ctx(Ctx), Stores(VariableStores::of(Cfg.function()->getBody())),
      IsKernel(Cfg.function()->hasAttr<CUDAGlobalAttr>()) {
  Exist.fill(~0u);
  if (IsKernel) {
    const KernelLaunches &L =
        TranslationUnitAnalyses::get(Ctx).launches().launchesOf(Cfg.function());
    if (L.known() && L.BlockDim[0] && L.BlockDim[1] && L.BlockDim[2] &&
        *L.BlockDim[0] > 0 && *L.BlockDim[1] > 0 && *L.BlockDim[2] > 0 &&
        *L.BlockDim[0] * *L.BlockDim[1] * *L.BlockDim[2] <= 1024) {
      Shape = {*L.BlockDim[0], *L.BlockDim[1], *L.BlockDim[2]};
      ThreadCount = (*Shape)[0] * (*Shape)[1] * (*Shape)[2];
      Exist.fill(0);
      for (int64_t T = 0; T < ThreadCount; ++T)
        Exist[T / 32] |= 1u << (T % 32);
    }
  }
  solve();
}

WarpLanes::Thread WarpLanes::threadAt(int64_t Linear) const {
  if (!Shape)
    return {Linear, 0, 0, Linear};
  int64_t BX = (*Shape)[0], BY = (*Shape)[1];
  return {Linear % BX, Linear / BX % BY, Linear / (BX * BY), Linear};
}

WarpLanes::Value WarpLanes::query(const Expr *E, unsigned Source,
                                  unsigned Dim, const Thread &T) {
  int64_t Coord[3] = {T.X, T.Y, T.Z};
  // threadIdx.x reads a static member of a builtin struct; a group's query
  // (block.thread_rank(), tile.thread_rank(), static or not) is a call on
  // a group object.
  const auto *Call = dyn_cast<CallExpr>(ThreadIndexAnalysis::strip(E));
  const auto *MD =
      Call ? dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()) : nullptr;
  bool Builtin = !MD || !MD->getIdentifier() ||
                 MD->getName().starts_with("__fetch_builtin_");
  QualType Group = Builtin ? QualType() : CudaApiModel::objectTypeOf(Call);
  switch (Source) {
  case TS_BlockInGrid:
  case TS_GridDim:
    return Value::uniform();
  case TS_BlockDim:
    if (Shape)
      return Value::known(!Builtin ? ThreadCount : (*Shape)[Dim], true);
    return Dim == 0 ? Value::mult32(0) : Value::uniform();
  case TS_GridRank:
    return !Shape || ThreadCount % 32 == 0 ? Value::mult32(T.Linear)
                                           : Value::unknown();
  default:
    break;
  }
  if (Builtin) // threadIdx.x, .y, .z
    return Dim == 0 || Shape ? Value::known(Coord[Dim], false)
                             : Value::uniform();
  llvm::StringRef Method = MD->getName();
  const CXXRecordDecl *RD =
      Group.isNull() ? nullptr : Group->getAsCXXRecordDecl();
  if (std::optional<int64_t> Size =
          Group.isNull() ? std::nullopt : CudaApiModel::tileSizeOf(Group)) {
    bool InWarp = *Size > 0 && *Size <= 32 && llvm::isPowerOf2_64(*Size);
    if (Method == "thread_rank" && InWarp)
      return Value::known(T.Linear % *Size, false);
    if (Method == "meta_group_rank" && *Size == 32)
      return Value::uniform();
    return Value::unknown();
  }
  if (RD && RD->getIdentifier() && RD->getName() == "thread_block" &&
      Method == "thread_rank")
    return Shape ? Value::known(T.Linear, false) : Value::mult32(T.Linear);
  return Value::unknown();
}

WarpLanes::Value WarpLanes::eval(const Expr *E, const Thread &Th, int Depth) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 16 || E->isValueDependent() ||
      !(E->getType()->isIntegralOrEnumerationType() ||
        E->getType()->isBooleanType()))
    return Value::unknown();
  if (std::optional<int64_t> C =
          TranslationUnitAnalyses::get(Ctx).integerConstant(E))
    return Value::known(*C, true);
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
    return query(E, Src, Dim, Th);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *P = dyn_cast_or_null<ParmVarDecl>(VD))
      return IsKernel ? Value::uniform() : parameterValue(P, Th, Depth);
    if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
        VD->getType()->isReferenceType() || Stores.isAssigned(VD) ||
        Stores.isAddressTaken(VD) || Stores.mayBeWrittenByCallee(VD) ||
        Cfg.hasIndirectUse(VD))
      return Value::unknown();
    return eval(VD->getInit(), Th, Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isComparisonOp() || BO->isLogicalOp()) {
      std::optional<bool> T = truth(E, Th, Depth);
      if (T)
        return Value::known(*T, false);
      // Of values the same in the whole warp: the same in the warp.
      return eval(BO->getLHS(), Th, Depth + 1).isInvariant() &&
                     eval(BO->getRHS(), Th, Depth + 1).isInvariant()
                 ? Value::uniform()
                 : Value::unknown();
    }
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return Value::unknown();
    return arithmetic(BO->getOpcode(), eval(BO->getLHS(), Th, Depth + 1),
                      eval(BO->getRHS(), Th, Depth + 1));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_LNot) {
      std::optional<bool> T = truth(E, Th, Depth);
      return T ? Value::known(*T, false) : Value::unknown();
    }
    Value V = eval(UO->getSubExpr(), Th, Depth + 1);
    if (V.K == Value::Known && UO->getOpcode() == UO_Minus)
      return Value::known(-V.C, V.Constant);
    if (V.K == Value::Known && UO->getOpcode() == UO_Not)
      return Value::known(~V.C, V.Constant);
    if (UO->getOpcode() == UO_Plus)
      return V;
    return V.K == Value::Uniform ? V : Value::unknown();
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    std::optional<bool> T = truth(CO->getCond(), Th, Depth + 1);
    if (!T)
      return Value::unknown();
    return eval(*T ? CO->getTrueExpr() : CO->getFalseExpr(), Th, Depth + 1);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (std::optional<unsigned> Pred = CudaApiModel::warpVotePredicateOf(Call)) {
      std::optional<int64_t> Mask = vote(Call, *Pred, Th, Depth);
      return Mask ? Value::known(*Mask, false) : Value::unknown();
    }
    // The collective without a mask (__activemask()) returns the mask of
    // the lanes that execute it.
    if (auto Info = CudaApiModel::warpCollectiveOf(Call);
        Info && Info->MaskArg < 0 && Call->getNumArgs() == 0) {
      std::optional<int64_t> Mask = activeLanes(Call, Th);
      return Mask ? Value::known(*Mask, false) : Value::unknown();
    }
    // A lane-id helper: `__device__ int laneId() { return threadIdx.x & 31; }`.
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && FD->getNumParams() == 0 && !isa<CXXMethodDecl>(FD))
      if (const FunctionDecl *Def = FD->getDefinition())
        if (const Expr *Ret = singleReturn(Def))
          return eval(Ret, Th, Depth + 1);
  }
  return Value::unknown();
}

namespace {

/// The calls of \p Callee in the bodies of the functions this translation
/// unit defines outside system headers, with the function that makes each.
void callSitesOf(const FunctionDecl *Callee, ASTContext &Ctx,
                 llvm::SmallVectorImpl<std::pair<const CallExpr *,
                                                 const FunctionDecl *>> &Out,
                 bool &Complete) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl *Callee;
    const FunctionDecl *In = nullptr;
    llvm::SmallVectorImpl<std::pair<const CallExpr *, const FunctionDecl *>>
        &Out;
    bool Complete = true;
    Finder(const FunctionDecl *Callee,
           llvm::SmallVectorImpl<
               std::pair<const CallExpr *, const FunctionDecl *>> &Out)
        : Callee(Callee), Out(Out) {}
    bool TraverseFunctionDecl(FunctionDecl *FD) {
      const FunctionDecl *Saved = In;
      In = FD;
      bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
      In = Saved;
      return R;
    }
    bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
      const FunctionDecl *Saved = In;
      In = MD;
      bool R = RecursiveASTVisitor::TraverseCXXMethodDecl(MD);
      In = Saved;
      return R;
    }
    bool VisitCallExpr(CallExpr *C) {
      if (const FunctionDecl *FD = C->getDirectCallee();
          FD && FD->getCanonicalDecl() == Callee->getCanonicalDecl())
        Out.push_back({C, In});
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      // A use other than a call: the callers are not all known.
      if (DRE->getDecl()->getCanonicalDecl() == Callee->getCanonicalDecl())
        Refs++;
      return true;
    }
    unsigned Refs = 0;
  } F(Callee, Out);
  const SourceManager &SM = Ctx.getSourceManager();
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(D->getLocation()))
      F.TraverseDecl(D);
  // Each call names the callee once; another reference takes its address.
  Complete = F.Refs == Out.size();
}

} // namespace

WarpLanes::Value WarpLanes::parameterValue(const ParmVarDecl *P,
                                           const Thread &Th, int Depth) {
  // A __device__ function's parameter: what every call of it in this
  // translation unit passes ('f(threadIdx.x)', 'f(n)' with n a kernel's
  // parameter), evaluated in the caller, where all the callers agree.
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!FD || FD != Cfg.function() || Depth > 12 || Stores.isAssigned(P) ||
      Stores.isAddressTaken(P) || P->getType()->isReferenceType() ||
      FD->isTemplateInstantiation() || FD->isDependentContext())
    return Value::unknown();
  if (!CallsKnown) {
    CallsKnown = true;
    callSitesOf(FD, Ctx, CallSites, CallSitesComplete);
  }
  if (!CallSitesComplete || CallSites.empty())
    return Value::unknown();
  unsigned Index = P->getFunctionScopeIndex();
  std::optional<Value> Result;
  for (auto [Call, Caller] : CallSites) {
    if (!Caller || Caller == FD || Index >= Call->getNumArgs())
      return Value::unknown();
    Value V = evalIn(Call->getArg(Index), Caller, Th, Depth + 1);
    if (V.K == Value::Unknown)
      return Value::unknown();
    if (!Result) {
      Result = V;
      continue;
    }
    if (Result->K == Value::Known && V.K == Value::Known && Result->C == V.C)
      continue;
    if (Result->isInvariant() && V.isInvariant()) {
      Result = Value::uniform();
      continue;
    }
    return Value::unknown();
  }
  return Result ? *Result : Value::unknown();
}

WarpLanes::Value WarpLanes::evalIn(const Expr *E, const FunctionDecl *Caller,
                                   const Thread &Th, int Depth) {
  // The thread queries, constants and arithmetic of an argument, through
  // the caller's locals that are never changed and its parameters (a
  // kernel's are the same in the whole warp).
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 16 || E->isValueDependent() ||
      !(E->getType()->isIntegralOrEnumerationType() ||
        E->getType()->isBooleanType()))
    return Value::unknown();
  if (std::optional<int64_t> C =
          TranslationUnitAnalyses::get(Ctx).integerConstant(E))
    return Value::known(*C, true);
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim)) {
    // Only the builtin coordinates and block facts: a group's rank needs
    // the caller's objects.
    const auto *Call = dyn_cast<CallExpr>(E);
    const auto *MD = Call ? dyn_cast_or_null<CXXMethodDecl>(
                                Call->getDirectCallee())
                          : nullptr;
    if (MD && (!MD->getIdentifier() ||
               !MD->getName().starts_with("__fetch_builtin_")))
      return Value::unknown();
    return query(E, Src, Dim, Th);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (isa_and_nonnull<ParmVarDecl>(VD))
      return Caller->hasAttr<CUDAGlobalAttr>() ? Value::uniform()
                                              : Value::unknown();
    if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
        VD->getType()->isReferenceType())
      return Value::unknown();
    auto It = CallerStores.find(Caller);
    if (It == CallerStores.end())
      It = CallerStores
               .try_emplace(Caller, VariableStores::of(Caller->getBody()))
               .first;
    const VariableStores &S = It->second;
    if (S.isAssigned(VD) || S.isAddressTaken(VD) ||
        S.mayBeWrittenByCallee(VD))
      return Value::unknown();
    return evalIn(VD->getInit(), Caller, Th, Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isComparisonOp() || BO->isLogicalOp() || BO->isAssignmentOp() ||
        BO->getOpcode() == BO_Comma)
      return Value::unknown();
    return arithmetic(BO->getOpcode(), evalIn(BO->getLHS(), Caller, Th, Depth + 1),
                      evalIn(BO->getRHS(), Caller, Th, Depth + 1));
  }
  return Value::unknown();
}

bool WarpLanes::parameterKnown(const ParmVarDecl *P) {
  if (IsKernel)
    return true;
  for (int64_t T = 0; T < std::min<int64_t>(ThreadCount, 64); ++T)
    if (parameterValue(P, threadAt(T), 0).K == Value::Unknown)
      return false;
  return true;
}

const BinaryOperator *WarpLanes::edgeBound(const Expr *Cond, int Depth) {
  const auto *BO =
      dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(Cond));
  if (!BO || Depth > 4)
    return nullptr;
  if (BO->isLogicalOp()) {
    if (const BinaryOperator *L = edgeBound(BO->getLHS(), Depth + 1))
      return L;
    return edgeBound(BO->getRHS(), Depth + 1);
  }
  if (!BO->isRelationalOp())
    return nullptr;
  // One side differs between the lanes of a warp, one per lane and
  // consecutive ('i = blockIdx.x * blockDim.x + threadIdx.x', 'x'); the
  // other is the same in the warp but not a constant ('n', 'width').
  auto Consecutive = [&](const Expr *E) {
    for (int64_t T = 0; T < 32; ++T) {
      Value A = eval(E, threadAt(T), 0), B = eval(E, threadAt(T + 1), 0);
      if ((A.K != Value::Known && A.K != Value::Mult32) || A.K != B.K ||
          (T < 31 && B.C != A.C + 1))
        return false;
    }
    return true;
  };
  auto Bound = [&](const Expr *E) {
    Value V = eval(E, threadAt(0), 0);
    return V.K == Value::Uniform && eval(E, threadAt(1), 0).K == Value::Uniform;
  };
  if ((Consecutive(BO->getLHS()) && Bound(BO->getRHS())) ||
      (Consecutive(BO->getRHS()) && Bound(BO->getLHS())))
    return BO;
  return nullptr;
}

bool WarpLanes::warpInvariant(const Expr *Cond) {
  return eval(Cond, threadAt(0), 0).isInvariant() &&
         eval(Cond, threadAt(32), 0).isInvariant();
}

std::optional<int64_t> WarpLanes::vote(const CallExpr *Call,
                                       unsigned PredicateArg, const Thread &Th,
                                       int Depth) {
  int64_t Warp = Th.Linear / 32;
  auto Key = std::pair(Call, Warp);
  if (auto It = Votes.find(Key); It != Votes.end())
    return It->second;
  Votes[Key] = std::nullopt; // A vote in its own predicate: unknown.
  // Only a vote that every lane of the warp reaches: the lanes that skip
  // it would be missing from its result.
  std::optional<CfgPoint> At = Cfg.pointOf(Call);
  auto Reached = At ? In.find(At->Block) : In.end();
  if (Reached == In.end() || Reached->second[Warp] != Exist[Warp])
    return std::nullopt;
  Value Mask = eval(Call->getArg(0), Th, Depth + 1);
  if (Mask.K != Value::Known)
    return std::nullopt;
  int64_t Lanes = 0;
  for (unsigned L = 0; L < 32; ++L) {
    if (!(Exist[Warp] >> L & 1))
      continue;
    std::optional<bool> T =
        truth(Call->getArg(PredicateArg), threadAt(32 * Warp + L), Depth + 1);
    if (!T)
      return std::nullopt;
    if (*T)
      Lanes |= int64_t(1) << L;
  }
  return Votes[Key] = Lanes & Mask.C & 0xffffffff;
}

std::optional<int64_t> WarpLanes::activeLanes(const CallExpr *Call,
                                              const Thread &Th) {
  // The lanes reaching a point are final only once the analysis is done,
  // and they are the lanes that execute it only when exact.
  std::optional<CfgPoint> At = Cfg.pointOf(Call);
  if (!Solved || !Div || !At)
    return std::nullopt;
  auto [It, Inserted] = Exact.try_emplace(At->Block, false);
  if (Inserted)
    It->second = reachedExactly(At->Block, *Div);
  if (!It->second)
    return std::nullopt;
  int64_t Warp = Th.Linear / 32;
  uint32_t Lanes = reaching(At->Block)[Warp] & Exist[Warp];
  // The thread asking must be one of them (a mask kept past the branch is
  // still the lanes that took it).
  return Lanes ? std::optional<int64_t>(Lanes) : std::nullopt;
}

std::optional<int64_t> WarpLanes::valueFor(const Expr *E, int64_t Thread) {
  Value V = eval(E, threadAt(Thread), 0);
  return V.K == Value::Known ? std::optional<int64_t>(V.C) : std::nullopt;
}

bool WarpLanes::reachedExactly(const CFGBlock *B,
                               ThreadDivergence &Divergences) {
  return Cfg.forEachTransitiveControlDependency(
      B,
      [&](const CFGBlock *D) {
        if (D == B)
          return true;
        const auto *C = dyn_cast_or_null<Expr>(
            const_cast<CFGBlock *>(D)->getTerminatorCondition());
        if (!C || Divergences.readsTemplateValue(C))
          return false;
        if (Divergences.ofCondition(C, D) == Divergence::None)
          return true;
        // A helper's test of a parameter that every caller passes the same
        // in a warp ('if (n <= 0) return;' with n a kernel's parameter).
        if (!IsKernel && warpInvariant(C))
          return true;
        auto Split = split(C);
        if (!Split)
          return false;
        const WarpLaneSets &At = reaching(D);
        for (unsigned W = 0; W < 32; ++W)
          if (At[W] & Split->first[W] & Split->second[W])
            return false;
        return true;
      },
      FunctionCfg::DependencyOrder::DepthFirst);
}

const Expr *WarpLanes::laneVaryingLoad(const Expr *Cond, int Depth) {
  Cond = ThreadIndexAnalysis::strip(Cond);
  if (!Cond || Depth > 6)
    return nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Cond)) {
    // Two lanes of a warp read different elements.
    int64_t Count = std::min<int64_t>(ThreadCount, 32);
    std::optional<int64_t> First;
    for (int64_t T = 0; T < Count; ++T) {
      Value V = eval(AS->getIdx(), threadAt(T), 0);
      if (V.K != Value::Known && V.K != Value::Mult32)
        break;
      if (First && *First != V.C)
        return AS;
      First = V.C;
    }
  }
  // A vote or a barrier reduction gives the whole warp one value.
  if (const auto *Call = dyn_cast<CallExpr>(Cond);
      Call && (CudaApiModel::warpCollectiveOf(Call) ||
               CudaApiModel::barrierOf(Call)))
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Cond)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
        Stores.isAssigned(VD) || Stores.isAddressTaken(VD))
      return nullptr;
    return laneVaryingLoad(VD->getInit(), Depth + 1);
  }
  for (const Stmt *Child : Cond->children())
    if (const auto *E = dyn_cast_or_null<Expr>(Child))
      if (const Expr *Load = laneVaryingLoad(E, Depth + 1))
        return Load;
  return nullptr;
}

std::optional<bool> WarpLanes::truth(const Expr *E, const Thread &Th,
                                     int Depth) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 16)
    return std::nullopt;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_LNot) {
    std::optional<bool> T = truth(UO->getSubExpr(), Th, Depth + 1);
    return T ? std::optional<bool>(!*T) : std::nullopt;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (BO && BO->isLogicalOp()) {
    std::optional<bool> L = truth(BO->getLHS(), Th, Depth + 1);
    std::optional<bool> R = truth(BO->getRHS(), Th, Depth + 1);
    bool And = BO->getOpcode() == BO_LAnd;
    // A known false operand decides '&&', a known true one '||'.
    if ((L && *L != And) || (R && *R != And))
      return !And;
    if (L && R)
      return And;
    return std::nullopt;
  }
  if (BO && BO->isComparisonOp()) {
    Value L = eval(BO->getLHS(), Th, Depth + 1);
    Value R = eval(BO->getRHS(), Th, Depth + 1);
    if (L.K != Value::Known || R.K != Value::Known)
      return std::nullopt;
    switch (BO->getOpcode()) {
    case BO_LT: return L.C < R.C;
    case BO_GT: return L.C > R.C;
    case BO_LE: return L.C <= R.C;
    case BO_GE: return L.C >= R.C;
    case BO_EQ: return L.C == R.C;
    case BO_NE: return L.C != R.C;
    default: return std::nullopt;
    }
  }
  Value V = eval(E, Th, Depth + 1);
  if (V.K != Value::Known)
    return std::nullopt;
  return V.C != 0;
}

std::optional<std::pair<WarpLaneSets, WarpLaneSets>>
WarpLanes::split(const Expr *Cond) {
  auto It = Splits.find(Cond);
  if (It != Splits.end())
    return It->second;
  WarpLaneSets True{}, False{};
  bool AnyKnown = false;
  for (int64_t Tid = 0; Tid < ThreadCount; ++Tid) {
    std::optional<bool> T = truth(Cond, threadAt(Tid), 0);
    AnyKnown |= T.has_value();
    uint32_t Bit = 1u << (Tid % 32);
    if (!T || *T)
      True[Tid / 32] |= Bit;
    if (!T || !*T)
      False[Tid / 32] |= Bit;
    // Nothing known for the first warp: the rest will not do better.
    if (Tid == 31 && !AnyKnown)
      break;
  }
  std::optional<std::pair<WarpLaneSets, WarpLaneSets>> Result;
  if (AnyKnown)
    Result = std::pair{True, False};
  Splits[Cond] = Result;
  return Result;
}

void WarpLanes::solve() {
  const CFG &G = Cfg.graph();
  In[&G.getEntry()] = Exist;
  llvm::SmallVector<const CFGBlock *, 16> Work{&G.getEntry()};
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    WarpLaneSets Out = In[B];
    std::optional<std::pair<WarpLaneSets, WarpLaneSets>> Split;
    if (B->succ_size() == 2)
      if (const auto *C = dyn_cast_or_null<Expr>(
              const_cast<CFGBlock *>(B)->getTerminatorCondition()))
        Split = split(C);
    unsigned Index = 0;
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      const CFGBlock *S = Succ.getReachableBlock();
      unsigned Which = Index++;
      if (!S)
        continue;
      WarpLaneSets Edge = Out;
      if (Split)
        for (unsigned W = 0; W < 32; ++W)
          Edge[W] &= Which == 0 ? Split->first[W] : Split->second[W];
      auto [Pos, Inserted] = In.try_emplace(S, WarpLaneSets{});
      bool Changed = Inserted;
      for (unsigned W = 0; W < 32; ++W) {
        uint32_t New = Pos->second[W] | Edge[W];
        Changed |= New != Pos->second[W];
        Pos->second[W] = New;
      }
      if (Changed)
        Work.push_back(S);
    }
  }
  Solved = true;
}

const WarpLaneSets &WarpLanes::reaching(const CFGBlock *B) const {
  static const WarpLaneSets None{};
  auto It = In.find(B);
  return It == In.end() ? None : It->second;
}

uint32_t WarpLanes::anyWarp(const WarpLaneSets &Sets) {
  uint32_t Any = 0;
  for (uint32_t S : Sets)
    Any |= S;
  return Any;
}

} // namespace clang::tidy::cuda
