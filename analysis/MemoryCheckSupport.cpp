//===- MemoryCheckSupport.cpp ---------------------------------------------===//

#include "MemoryCheckSupport.h"
#include "SourceLocations.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::cuda {

std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  R = Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return "";
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

std::string pointerName(const Expr *E, const ASTContext &Ctx) {
  std::string T = sourceText(E->IgnoreParenCasts(), Ctx);
  if (T.empty() || T.size() > 40 || T.find('\n') != std::string::npos)
    return "the pointer";
  return "'" + T + "'";
}

void noteAllocation(ClangTidyCheck &Check, const PointerFact &F,
                    const SourceManager &SM) {
  SourceLocation Loc = F.allocLoc();
  if (Loc.isInvalid())
    return;
  Loc = userVisibleLocation(Loc, SM);
  std::string What = spaceName(F.Spaces);
  if (F.Registered) {
    Check.diag(Loc, "host memory registered with the CUDA runtime here",
               DiagnosticIDs::Note);
    return;
  }
  if (F.AllocSite) {
    if (const auto *Call = dyn_cast<CallExpr>(F.AllocSite))
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        Check.diag(Loc, "%0 memory allocated here by %1", DiagnosticIDs::Note)
            << What << Callee->getDeclName();
        return;
      }
    Check.diag(Loc, "%0 memory allocated here", DiagnosticIDs::Note) << What;
    return;
  }
  if (const auto *VD = dyn_cast_or_null<VarDecl>(F.AllocDecl)) {
    if (F.Spaces == MS_Symbol)
      Check.diag(Loc, "%0 is a device variable declared here",
                 DiagnosticIDs::Note)
          << VD;
    else if (F.Spaces == MS_Managed)
      Check.diag(Loc, "%0 is a managed variable declared here",
                 DiagnosticIDs::Note)
          << VD;
    else
      Check.diag(Loc, "%0 is declared here in host memory", DiagnosticIDs::Note)
          << VD;
  }
}

const char *copyKindName(CopyDirection D) {
  switch (D) {
  case CopyDirection::HostToHost:
    return "cudaMemcpyHostToHost";
  case CopyDirection::HostToDevice:
    return "cudaMemcpyHostToDevice";
  case CopyDirection::DeviceToHost:
    return "cudaMemcpyDeviceToHost";
  case CopyDirection::DeviceToDevice:
    return "cudaMemcpyDeviceToDevice";
  case CopyDirection::Default:
    return "cudaMemcpyDefault";
  case CopyDirection::None:
    break;
  }
  return "";
}

const Expr *dereferencedPointer(const Stmt *S, const ParentMap &PM) {
  const Expr *Base = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->getOpcode() == UO_Deref)
      Base = U->getSubExpr();
  } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
    Base = AS->getBase();
  } else if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    if (ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl()))
      Base = ME->getBase();
  }
  if (!Base || !Base->getType()->isPointerType())
    return nullptr;
  // &p[i], &p->f and &*p compute an address.
  const Stmt *P = PM.getParentIgnoreParens(S);
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P))
    if (U->getOpcode() == UO_AddrOf)
      return nullptr;
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(P))
    if (!ME->isArrow()) {
      const Stmt *PP = PM.getParentIgnoreParens(ME);
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(PP))
        if (U->getOpcode() == UO_AddrOf)
          return nullptr;
    }
  return Base;
}

/// The value a condition has in this instantiation, when it is fixed.
static std::optional<bool> fixedCondition(const Expr *Cond, ASTContext &Ctx) {
  if (!Cond || Cond->isValueDependent() || Cond->isTypeDependent())
    return std::nullopt;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot) {
    if (std::optional<bool> V = fixedCondition(UO->getSubExpr(), Ctx))
      return !*V;
    return std::nullopt;
  }
  // typeid(A) == typeid(B) on types: type_info's comparison is not constant
  // before C++23, but the answer is known.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cond);
      Op && Op->getNumArgs() == 2 &&
      (Op->getOperator() == OO_EqualEqual ||
       Op->getOperator() == OO_ExclaimEqual)) {
    const auto *L = dyn_cast<CXXTypeidExpr>(Op->getArg(0)->IgnoreParenImpCasts());
    const auto *R = dyn_cast<CXXTypeidExpr>(Op->getArg(1)->IgnoreParenImpCasts());
    if (!L || !R || !L->isTypeOperand() || !R->isTypeOperand())
      return std::nullopt;
    bool Same = Ctx.hasSameUnqualifiedType(L->getTypeOperand(Ctx),
                                           R->getTypeOperand(Ctx));
    return Op->getOperator() == OO_EqualEqual ? Same : !Same;
  }
  bool Value = false;
  if (!Cond->isValueDependent() &&
      Cond->EvaluateAsBooleanCondition(Value, Ctx))
    return Value;
  return std::nullopt;
}

bool isInDeadBranch(const Stmt *S, const ParentMap &PM, ASTContext &Ctx) {
  for (const Stmt *Cur = S, *P = PM.getParent(Cur); P;
       Cur = P, P = PM.getParent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Cur != If->getThen() && Cur != If->getElse())
        continue;
      std::optional<bool> V = fixedCondition(If->getCond(), Ctx);
      if (V && *V != (Cur == If->getThen()))
        return true;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (Cur == CO->getCond())
        continue;
      std::optional<bool> V = fixedCondition(CO->getCond(), Ctx);
      if (V && *V != (Cur == CO->getTrueExpr()))
        return true;
    }
  }
  return false;
}

} // namespace clang::tidy::cuda
