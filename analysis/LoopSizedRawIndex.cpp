//===- LoopSizedRawIndex.cpp ----------------------------------------------===//

#include "LoopSizedRawIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::cuda {
namespace {

constexpr llvm::StringLiteral Mark = "cuda-tidy-python-loop-sized|";

/// The line of the marking call when \p P is a loop-sized raw parameter.
std::optional<unsigned> loopSizedLine(const ParmVarDecl *P) {
  for (const auto *A : P->specific_attrs<AnnotateAttr>()) {
    StringRef S = A->getAnnotation();
    unsigned Line = 0;
    if (S.consume_front(Mark) && !S.getAsInteger(10, Line))
      return Line;
  }
  return std::nullopt;
}

const Expr *bare(const Expr *E) { return E ? E->IgnoreParenImpCasts() : E; }

bool refersTo(const Expr *E, const VarDecl *V) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(bare(E));
  return DRE && DRE->getDecl() == V;
}

std::optional<llvm::APSInt> constantOf(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt();
  return std::nullopt;
}

/// An unknown the reader wrote for a value the file does not hold: a
/// template parameter of the kernel ('template <long long N>') or an
/// opaque 'extern const' integer. A size, so at least 1 where it is used.
bool isHole(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(bare(E));
  if (!DRE)
    return false;
  if (isa<NonTypeTemplateParmDecl>(DRE->getDecl()))
    return true;
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  return V && V->hasExternalStorage() && V->getType().isConstQualified() &&
         V->getType()->isIntegerType() && !V->hasInit();
}

/// A hole that stands for a size plus a positive constant: the reader
/// names a hole after its Python expression ('N + 1' -> _py_N_plus_1,
/// reader.py hole_name), with no subtraction, division or modulo in it.
bool isHolePlusConstant(const Expr *E) {
  if (!isHole(E))
    return false;
  StringRef Name = cast<DeclRefExpr>(bare(E))->getDecl()->getName();
  if (!Name.consume_front("_py_"))
    return false;
  size_t Plus = Name.rfind("_plus_");
  if (Plus == StringRef::npos || Plus == 0)
    return false;
  StringRef Head = Name.take_front(Plus);
  unsigned K = 0;
  if (Name.drop_front(Plus + 6).getAsInteger(10, K) || K < 1)
    return false;
  return !Head.contains("_minus_") && !Head.contains("_div_") &&
         !Head.contains("_mod_");
}

/// Whether \p E is a stride of at least 2: a constant, or a hole plus a
/// positive constant ('N + 1').
bool strideAtLeastTwo(const Expr *E, ASTContext &Ctx) {
  if (auto C = constantOf(E, Ctx))
    return C->getSExtValue() >= 2;
  if (isHolePlusConstant(E))
    return true;
  const auto *B = dyn_cast<BinaryOperator>(bare(E));
  if (!B || B->getOpcode() != BO_Add)
    return false;
  for (auto [H, K] : {std::pair(B->getLHS(), B->getRHS()),
                      std::pair(B->getRHS(), B->getLHS())})
    if (isHole(H))
      if (auto C = constantOf(K, Ctx); C && C->getSExtValue() >= 1)
        return true;
  return false;
}

/// 'i * c + d' (either order, d a constant >= 0): c, else null.
const Expr *strideOf(const Expr *Index, const VarDecl *I, ASTContext &Ctx) {
  const Expr *E = bare(Index);
  while (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Add) {
      auto L = constantOf(B->getLHS(), Ctx), R = constantOf(B->getRHS(), Ctx);
      if (R && !R->isNegative())
        E = bare(B->getLHS());
      else if (L && !L->isNegative())
        E = bare(B->getRHS());
      else
        return nullptr;
      continue;
    }
    if (B->getOpcode() != BO_Mul)
      return nullptr;
    if (refersTo(B->getLHS(), I) && strideAtLeastTwo(B->getRHS(), Ctx))
      return B->getRHS();
    if (refersTo(B->getRHS(), I) && strideAtLeastTwo(B->getLHS(), Ctx))
      return B->getLHS();
    return nullptr;
  }
  return nullptr;
}

/// 'i + d' (either order, constants d summing to at least 1): d, else
/// nothing.
std::optional<int64_t> offsetPast(const Expr *Index, const VarDecl *I,
                                  ASTContext &Ctx) {
  const Expr *E = bare(Index);
  int64_t Offset = 0;
  while (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() != BO_Add)
      return std::nullopt;
    auto L = constantOf(B->getLHS(), Ctx), R = constantOf(B->getRHS(), Ctx);
    if (R) {
      Offset += R->getSExtValue();
      E = bare(B->getLHS());
    } else if (L) {
      Offset += L->getSExtValue();
      E = bare(B->getRHS());
    } else {
      return std::nullopt;
    }
  }
  if (!refersTo(E, I) || Offset < 1)
    return std::nullopt;
  return Offset;
}

/// The loop variable of 'for (int i = ...; i < _ind.size(); ...)'.
const VarDecl *elementwiseIndex(const ForStmt *F) {
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!Cond || Cond->getOpcode() != BO_LT)
    return nullptr;
  const auto *Size = dyn_cast<CXXMemberCallExpr>(bare(Cond->getRHS()));
  if (!Size || !Size->getMethodDecl() ||
      Size->getMethodDecl()->getName() != "size")
    return nullptr;
  const auto *Obj = dyn_cast<DeclRefExpr>(bare(Size->getImplicitObjectArgument()));
  if (!Obj || Obj->getDecl()->getName() != "_ind")
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(bare(Cond->getLHS()));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Whether a condition in \p Body names \p I (an if, a loop, '?:', '&&',
/// '||', a switch): the body then bounds the index in a way this fact does
/// not read.
bool conditionNames(const Stmt *Body, const VarDecl *I) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *I;
    bool Found = false;
    bool names(const Stmt *S) {
      if (!S)
        return false;
      if (const auto *E = dyn_cast<Expr>(S); E && refersTo(E, I))
        return true;
      for (const Stmt *C : S->children())
        if (names(C))
          return true;
      return false;
    }
    bool VisitIfStmt(IfStmt *S) { return !(Found |= names(S->getCond())); }
    bool VisitWhileStmt(WhileStmt *S) { return !(Found |= names(S->getCond())); }
    bool VisitDoStmt(DoStmt *S) { return !(Found |= names(S->getCond())); }
    bool VisitForStmt(ForStmt *S) { return !(Found |= names(S->getCond())); }
    bool VisitSwitchStmt(SwitchStmt *S) { return !(Found |= names(S->getCond())); }
    bool VisitConditionalOperator(ConditionalOperator *S) {
      return !(Found |= names(S->getCond()));
    }
    bool VisitBinaryOperator(BinaryOperator *S) {
      if (S->isLogicalOp())
        Found |= names(S);
      return !Found;
    }
    bool VisitBinaryConditionalOperator(BinaryConditionalOperator *S) {
      return !(Found |= names(S->getCond()));
    }
  } F;
  F.I = I;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

/// Whether the subscript \p At is written to: the left of an assignment
/// or the operand of '++'/'--'.
bool isWritten(const Expr *At, ASTContext &Ctx) {
  const Expr *Cur = At;
  for (int Depth = 0; Depth < 4; ++Depth) {
    auto Parents = Ctx.getParents(*Cur);
    if (Parents.empty())
      return false;
    if (const auto *P = Parents[0].get<ParenExpr>()) {
      Cur = P;
      continue;
    }
    if (const auto *B = Parents[0].get<BinaryOperator>())
      return B->isAssignmentOp() && bare(B->getLHS()) == Cur->IgnoreParens();
    if (const auto *U = Parents[0].get<UnaryOperator>())
      return U->isIncrementDecrementOp();
    if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>())
      return Op->isAssignmentOp() && Op->getNumArgs() > 0 &&
             bare(Op->getArg(0)) == Cur->IgnoreParens();
    return false;
  }
  return false;
}

struct SubscriptFinder : RecursiveASTVisitor<SubscriptFinder> {
  llvm::SmallVector<std::pair<const Expr *, std::pair<const Expr *, const Expr *>>>
      Found; // (subscript, (base, index))
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    Found.push_back({E, {E->getBase(), E->getIdx()}});
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    if (E->getOperator() == OO_Subscript && E->getNumArgs() == 2)
      Found.push_back({E, {E->getArg(0), E->getArg(1)}});
    return true;
  }
};

} // namespace

bool hasLoopSizedRawParameter(const FunctionDecl &Kernel) {
  for (const ParmVarDecl *P : Kernel.parameters())
    if (loopSizedLine(P))
      return true;
  return false;
}

void loopSizedRawOverruns(
    const FunctionDecl &Kernel, ASTContext &Ctx,
    llvm::function_ref<void(const LoopSizedOverrun &)> Found) {
  llvm::DenseMap<const ParmVarDecl *, unsigned> Marked;
  for (const ParmVarDecl *P : Kernel.parameters())
    if (auto Line = loopSizedLine(P))
      Marked[P] = *Line;
  if (Marked.empty() || !Kernel.hasBody())
    return;
  const auto *Body = dyn_cast<CompoundStmt>(Kernel.getBody());
  if (!Body)
    return;
  for (const Stmt *S : Body->body()) {
    const auto *F = dyn_cast<ForStmt>(S);
    const VarDecl *I = F ? elementwiseIndex(F) : nullptr;
    if (!I || conditionNames(F->getBody(), I))
      continue;
    SubscriptFinder Subs;
    Subs.TraverseStmt(const_cast<Stmt *>(F->getBody()));
    for (const auto &[At, BaseIndex] : Subs.Found) {
      const auto *DRE = dyn_cast<DeclRefExpr>(bare(BaseIndex.first));
      const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      auto It = P ? Marked.find(P) : Marked.end();
      if (It == Marked.end())
        continue;
      const Expr *Stride = strideOf(BaseIndex.second, I, Ctx);
      std::optional<int64_t> Offset;
      if (!Stride)
        Offset = offsetPast(BaseIndex.second, I, Ctx);
      if (!Stride && !Offset)
        continue;
      LoopSizedOverrun O;
      O.Offset = Offset.value_or(0);
      O.At = At;
      O.Array = P;
      O.Index = BaseIndex.second;
      O.Stride = Stride;
      O.LoopIndex = I;
      O.Write = isWritten(At, Ctx);
      O.CallLine = It->second;
      Found(O);
    }
  }
}

} // namespace clang::tidy::cuda
