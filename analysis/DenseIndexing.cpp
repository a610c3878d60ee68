//===- DenseIndexing.cpp --------------------------------------------------===//

#include "DenseIndexing.h"
#include "ThreadIndexAnalysis.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {
namespace {

const Expr *bare(const Expr *E) { return E ? E->IgnoreParenImpCasts() : E; }

bool refersTo(const Expr *E, const ParmVarDecl &P) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(bare(E));
  return DRE && DRE->getDecl() == &P;
}

/// Whether \p E has a thread-derived term of stride one.
bool hasUnitThreadTerm(const Expr *E, const FunctionDecl &Kernel,
                       ThreadIndexAnalysis &Threads, unsigned Depth) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 8)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Add)
      return hasUnitThreadTerm(BO->getLHS(), Kernel, Threads, Depth + 1) ||
             hasUnitThreadTerm(BO->getRHS(), Kernel, Threads, Depth + 1);
    if (BO->getOpcode() == BO_Sub)
      return hasUnitThreadTerm(BO->getLHS(), Kernel, Threads, Depth + 1);
    return false; // A product, a quotient, a remainder, a shift: a stride.
  }
  ThreadSource Source;
  unsigned Dim = 0;
  if (ThreadIndexAnalysis::isThreadQuery(E, Source, Dim))
    return Source & TS_AnyIndex;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage())
      return false;
    if (!Threads.isModified(V, &Kernel) && V->getInit())
      return hasUnitThreadTerm(V->getInit(), Kernel, Threads, Depth + 1);
    return Threads.valueOf(E, &Kernel).isIndex();
  }
  return false;
}

/// The terms of a sum ('a * b + c - d' gives 'a * b', 'c'; a subtracted
/// term is not collected).
void termsOf(const Expr *E, SmallVectorImpl<const Expr *> &Out,
             unsigned Depth = 0) {
  E = ThreadIndexAnalysis::strip(E);
  const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
  if (BO && Depth < 8 && BO->getOpcode() == BO_Add) {
    termsOf(BO->getLHS(), Out, Depth + 1);
    termsOf(BO->getRHS(), Out, Depth + 1);
  } else if (BO && Depth < 8 && BO->getOpcode() == BO_Sub) {
    termsOf(BO->getLHS(), Out, Depth + 1);
  } else if (E) {
    Out.push_back(E);
  }
}

/// A thread's walk along its own row: a thread-derived term times a
/// stride, plus a local variable of stride one that is not derived from
/// the thread ('m[r * cols + c]', 'c' a loop's counter).
bool rowWalk(const Expr *Index, const FunctionDecl &Kernel,
             ThreadIndexAnalysis &Threads) {
  SmallVector<const Expr *, 4> Terms;
  termsOf(Index, Terms);
  bool Row = false, Walk = false;
  for (const Expr *T : Terms) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(T)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && !isa<ParmVarDecl>(V) && V->hasLocalStorage() &&
          V->getType()->isIntegerType() &&
          !Threads.valueOf(T, &Kernel).isIndex())
        Walk = true;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(T)) {
      if (BO->getOpcode() == BO_Mul && Threads.valueOf(T, &Kernel).isIndex())
        Row = true;
    }
  }
  return Row && Walk;
}

/// Whether an expression names an integer the thread does not derive: a
/// parameter of the kernel, or a local variable ('cols', 'ld').
bool namesExtent(const Expr *E, const FunctionDecl &Kernel,
                 ThreadIndexAnalysis &Threads, unsigned Depth = 0) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 6)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return V && V->getType()->isIntegerType() &&
           (isa<ParmVarDecl>(V) || (V->hasLocalStorage() &&
                                    !Threads.valueOf(E, &Kernel).isIndex()));
  }
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (namesExtent(CE, Kernel, Threads, Depth + 1))
        return true;
  return false;
}

/// A row-major index of a two-dimensional array: a term that scales by an
/// extent ('r * cols'), beside the dense term; not the flat thread index
/// ('blockIdx.x * blockDim.x + threadIdx.x').
bool rowMajor(const Expr *Index, const FunctionDecl &Kernel,
              ThreadIndexAnalysis &Threads) {
  SmallVector<const Expr *, 4> Terms;
  termsOf(Index, Terms);
  for (const Expr *T : Terms)
    if (const auto *BO = dyn_cast<BinaryOperator>(T))
      if (BO->getOpcode() == BO_Mul &&
          (namesExtent(BO->getLHS(), Kernel, Threads) ||
           namesExtent(BO->getRHS(), Kernel, Threads)))
        return true;
  return false;
}

struct Finder : RecursiveASTVisitor<Finder> {
  const ParmVarDecl &P;
  const FunctionDecl &Kernel;
  ThreadIndexAnalysis &Threads;
  bool TwoD;
  const Expr *Found = nullptr;
  Finder(const ParmVarDecl &P, const FunctionDecl &K, ThreadIndexAnalysis &T,
         bool TwoD)
      : P(P), Kernel(K), Threads(T), TwoD(TwoD) {}

  bool dense(const Expr *Index) {
    if (rowWalk(Index, Kernel, Threads))
      return true;
    return hasUnitThreadTerm(Index, Kernel, Threads, 0) &&
           (!TwoD || rowMajor(Index, Kernel, Threads));
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    if (!Found && refersTo(E->getBase(), P) && dense(E->getIdx()))
      Found = E;
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (Found || U->getOpcode() != UO_Deref)
      return !Found;
    const auto *Sum = dyn_cast<BinaryOperator>(bare(U->getSubExpr()));
    if (Sum && Sum->getOpcode() == BO_Add) {
      if ((refersTo(Sum->getLHS(), P) && dense(Sum->getRHS())) ||
          (refersTo(Sum->getRHS(), P) && dense(Sum->getLHS())))
        Found = U;
    }
    return !Found;
  }
};

} // namespace

const Expr *denseAccessOf(const ParmVarDecl &P, const FunctionDecl &Kernel,
                          ThreadIndexAnalysis &Threads) {
  if (!P.getType()->isPointerType() || !Kernel.hasBody())
    return nullptr;
  Finder F(P, Kernel, Threads, /*TwoD=*/false);
  F.TraverseStmt(Kernel.getBody());
  return F.Found;
}

const Expr *rowMajorAccessOf(const ParmVarDecl &P, const FunctionDecl &Kernel,
                             ThreadIndexAnalysis &Threads) {
  if (!P.getType()->isPointerType() || !Kernel.hasBody())
    return nullptr;
  Finder F(P, Kernel, Threads, /*TwoD=*/true);
  F.TraverseStmt(Kernel.getBody());
  return F.Found;
}

} // namespace clang::tidy::cuda
