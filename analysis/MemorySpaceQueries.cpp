//===- MemorySpaceQueries.cpp ---------------------------------------------===//
//
// What the memory checks ask beyond the fact of a pointer: the byte counts
// a host function shows a buffer holds before a point (bytesShownBefore),
// whether two storages are allocated alike, and symbolic byte counts
// (SymbolicSize) to compare sizes written differently.
//
//===----------------------------------------------------------------------===//

#include "MemorySpaceInternal.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::cuda {

namespace {
/// The calls \p S makes whenever it runs: not those under a branch, in a
/// loop body that may not run, or after a short-circuit.
void unconditionalCalls(const Stmt *S,
                        llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    unconditionalCalls(If->getInit(), Out);
    unconditionalCalls(If->getCond(), Out);
    return;
  }
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    unconditionalCalls(For->getInit(), Out);
    unconditionalCalls(For->getCond(), Out);
    return;
  }
  if (const auto *While = dyn_cast<WhileStmt>(S)) {
    unconditionalCalls(While->getCond(), Out);
    return;
  }
  if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
    unconditionalCalls(Switch->getCond(), Out);
    return;
  }
  if (isa<CXXForRangeStmt, AbstractConditionalOperator, CXXTryStmt>(S))
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp()) {
    unconditionalCalls(BO->getLHS(), Out);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Out.push_back(Call);
  for (const Stmt *Child : S->children())
    unconditionalCalls(Child, Out);
}

bool contains(const Stmt *S, const Stmt *Target) {
  if (S == Target)
    return true;
  return S && llvm::any_of(S->children(), [&](const Stmt *C) {
           return contains(C, Target);
         });
}

/// Whether \p E reads a variable that \p FD modifies, or storage other
/// than its parameters, locals and constants.
bool readsChangingValue(const Expr *E, const FunctionDecl *FD,
                        MemorySpaceAnalysis &MSA) {
  if (!E)
    return false;
  if (isa<MemberExpr, CallExpr>(E->IgnoreParenImpCasts()))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->hasLocalStorage() ? MSA.isModified(FD, VD)
                                   : !VD->getType().isConstQualified();
  return llvm::any_of(E->children(), [&](const Stmt *C) {
    const auto *CE = dyn_cast_or_null<Expr>(C);
    return CE && readsChangingValue(CE, FD, MSA);
  });
}
} // namespace

bool MemorySpaceAnalysis::allocatedAlike(const ValueDecl *A,
                                         const ValueDecl *B) {
  if (A == B)
    return true;
  const StorageAllocations *SA = storageAllocations(A);
  const StorageAllocations *SB = storageAllocations(B);
  if (!SA || !SB || SA->Sites.size() != 1 || SB->Sites.size() != 1)
    return false;
  const StorageAllocation &X = SA->Sites.front(), &Y = SB->Sites.front();
  if (X.In != Y.In || !X.Bytes || !Y.Bytes)
    return false;
  llvm::FoldingSetNodeID IX, IY;
  X.Bytes->Profile(IX, Ctx, /*Canonical=*/true);
  Y.Bytes->Profile(IY, Ctx, /*Canonical=*/true);
  return IX == IY && !readsChangingValue(X.Bytes, X.In, *this);
}

llvm::SmallVector<const Expr *, 2>
MemorySpaceAnalysis::bytesShownBefore(const FunctionDecl *Host,
                                      const Expr *Buffer, const Stmt *At) {
  llvm::SmallVector<const Expr *, 2> Shown;
  const FunctionDecl *Def = nullptr;
  if (!Host || !Buffer || !Host->hasBody(Def))
    return Shown;
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body)
    return Shown;
  // What the buffer names: a variable of the function it never changes,
  // or a member or global the function never stores into.
  const Expr *B = Buffer->IgnoreParenImpCasts();
  const VarDecl *Var = nullptr;
  const ValueDecl *Storage = outlivingStorage(B);
  // The functions the host calls directly: one that stores into a member
  // may give it a new allocation between a copy and the launch.
  llvm::SmallPtrSet<const FunctionDecl *, 8> Called;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *St = Work.pop_back_val();
    if (const auto *Call = dyn_cast<CallExpr>(St))
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        const FunctionDecl *CalleeDef = nullptr;
        Called.insert(Callee->hasBody(CalleeDef) ? CalleeDef : Callee);
      }
    for (const Stmt *Child : St->children())
      if (Child)
        Work.push_back(Child);
  }
  auto StoredHere = [&](const ValueDecl *S) {
    const StorageAllocations *A = storageAllocations(S);
    return !A || A->StoredIn.count(Def) ||
           llvm::any_of(A->StoredIn, [&](const FunctionDecl *Storer) {
             return Called.count(Storer);
           });
  };
  if (Storage) {
    if (StoredHere(Storage))
      return Shown;
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(B)) {
    Var = dyn_cast<VarDecl>(DRE->getDecl());
    if (!Var || !Var->hasLocalStorage() || isModified(Def, Var))
      return Shown;
  } else {
    return Shown;
  }
  auto SameBuffer = [&](const Expr *E) {
    E = E->IgnoreParenCasts();
    if (Var) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      return DRE && DRE->getDecl() == Var;
    }
    const ValueDecl *S = outlivingStorage(E);
    return S && (S == Storage ||
                 (!StoredHere(S) && allocatedAlike(Storage, S)));
  };
  for (const Stmt *Child : Body->body()) {
    if (contains(Child, At))
      return Shown;
    llvm::SmallVector<const CallExpr *, 4> Calls;
    unconditionalCalls(Child, Calls);
    for (const CallExpr *Call : Calls) {
      const ApiFunction *Api = CudaApiModel::lookup(Call);
      if (!Api || !Api->Copy || Api->Copy->DstPitchArg >= 0 ||
          Api->Copy->BytesArg < 0 ||
          Api->Copy->BytesArg >= static_cast<int>(Call->getNumArgs()))
        continue;
      for (int Arg : {Api->Copy->DstArg, Api->Copy->SrcArg})
        if (Arg >= 0 && Arg < static_cast<int>(Call->getNumArgs()) &&
            SameBuffer(Call->getArg(Arg))) {
          Shown.push_back(Call->getArg(Api->Copy->BytesArg));
          break;
        }
    }
  }
  // At is not in the function's body.
  Shown.clear();
  return Shown;
}

//===----------------------------------------------------------------------===//
// Symbolic sizes
//===----------------------------------------------------------------------===//

class SizeFolder {
public:
  SizeFolder(MemorySpaceAnalysis &MSA, const FunctionDecl *FD,
             const CallExpr *Via, bool OnePoint = false)
      : MSA(MSA), FD(FD), Via(Via), OnePoint(OnePoint) {}

  SymbolicSize fold(const Expr *E, unsigned Depth = 0) {
    SymbolicSize S;
    if (!E || Depth > 8)
      return S;
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<ExplicitCastExpr>(E))
      if (C->getType()->isIntegerType())
        return fold(C->getSubExpr(), Depth + 1);
    ASTContext &Ctx = MSA.context();
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx)) {
      S.Valid = true;
      int64_t V = R.Val.getInt().getExtValue();
      if (V != 0)
        S.Terms[{}] = V;
      return S;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      SymbolicSize L = fold(B->getLHS(), Depth + 1);
      SymbolicSize Rt = fold(B->getRHS(), Depth + 1);
      switch (B->getOpcode()) {
      case BO_Add:
        return L.minus(Rt.times(-1));
      case BO_Sub:
        return L.minus(Rt);
      case BO_Mul:
        return L.times(Rt);
      default:
        break;
      }
      return atom(E);
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return atom(E);
      if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
        if (Via && Via->getDirectCallee()) {
          const FunctionDecl *Callee = Via->getDirectCallee();
          const FunctionDecl *Def = nullptr;
          Callee->hasBody(Def);
          if (Def && P->getDeclContext() == Def &&
              P->getFunctionScopeIndex() < Via->getNumArgs()) {
            const CallExpr *Saved = Via;
            Via = nullptr;
            SymbolicSize S = fold(Saved->getArg(P->getFunctionScopeIndex()),
                                  Depth + 1);
            Via = Saved;
            return S;
          }
        }
        if (MSA.isModified(FD, P) && !OnePoint)
          return atom(E);
        return atom(P);
      }
      if (VD->hasLocalStorage()) {
        if (MSA.isModified(FD, VD))
          return OnePoint ? atom(VD) : atom(E);
        if (const Expr *Init = VD->getInit())
          if (VD->getType()->isIntegerType())
            return fold(Init, Depth + 1);
        return atom(VD);
      }
      return atom(VD->getType().isConstQualified() ? (const void *)VD
                                                   : (const void *)E);
    }
    return atom(E);
  }

private:
  SymbolicSize atom(const void *P) {
    SymbolicSize S;
    S.Valid = true;
    S.Terms[{reinterpret_cast<uintptr_t>(P)}] = 1;
    return S;
  }
  MemorySpaceAnalysis &MSA;
  const FunctionDecl *FD;
  const CallExpr *Via;
  bool OnePoint;
};

SymbolicSize SymbolicSize::of(const Expr *E, MemorySpaceAnalysis &MSA,
                              const FunctionDecl *FD, const CallExpr *Via) {
  return SizeFolder(MSA, FD, Via).fold(E);
}

SymbolicSize SymbolicSize::atOnePoint(const Expr *E, MemorySpaceAnalysis &MSA,
                                      const FunctionDecl *FD) {
  return SizeFolder(MSA, FD, nullptr, true).fold(E);
}

SymbolicSize SymbolicSize::of(const AllocSize &S, MemorySpaceAnalysis &MSA,
                              const FunctionDecl *AllocFD) {
  SymbolicSize R;
  if (!S.Known)
    return R;
  R.Valid = true;
  if (S.Constant != 0)
    R.Terms[{}] = S.Constant;
  for (const Expr *F : S.Factors)
    R = R.times(of(F, MSA, AllocFD, S.ViaCall));
  return R;
}

SymbolicSize SymbolicSize::minus(const SymbolicSize &O) const {
  SymbolicSize R;
  if (!Valid || !O.Valid)
    return R;
  R = *this;
  for (const auto &[M, C] : O.Terms) {
    int64_t &V = R.Terms[M];
    V -= C;
    if (V == 0)
      R.Terms.erase(M);
  }
  return R;
}

SymbolicSize SymbolicSize::times(int64_t K) const {
  SymbolicSize R;
  if (!Valid)
    return R;
  R.Valid = true;
  if (K == 0)
    return R;
  for (const auto &[M, C] : Terms)
    R.Terms[M] = C * K;
  return R;
}

SymbolicSize SymbolicSize::times(const SymbolicSize &O) const {
  SymbolicSize R;
  if (!Valid || !O.Valid || Terms.size() * O.Terms.size() > 64)
    return R;
  R.Valid = true;
  for (const auto &[M1, C1] : Terms)
    for (const auto &[M2, C2] : O.Terms) {
      Monomial M = M1;
      M.insert(M.end(), M2.begin(), M2.end());
      std::sort(M.begin(), M.end()); // Commutative factors match.
      int64_t &V = R.Terms[M];
      V += C1 * C2;
      if (V == 0)
        R.Terms.erase(M);
    }
  return R;
}

bool SymbolicSize::isPositive() const {
  if (!Valid || Terms.empty())
    return false;
  for (const auto &[M, C] : Terms)
    if (C < 0)
      return false;
  return true;
}

std::optional<int64_t> SymbolicSize::constant() const {
  if (!Valid)
    return std::nullopt;
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

} // namespace clang::tidy::cuda
