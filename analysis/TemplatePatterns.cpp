//===- TemplatePatterns.cpp -----------------------------------------------===//

#include "TemplatePatterns.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda {

bool isUninstantiatedPattern(const FunctionDecl *FD) {
  if (!FD || !FD->isDependentContext() || !FD->doesThisDeclarationHaveABody())
    return false;
  return !TranslationUnitAnalyses::get(FD->getASTContext())
              .hasInstantiationOf(FD);
}

bool dependsOnTemplateArguments(const Expr *E) {
  return E && (E->isInstantiationDependent() ||
               E->containsUnexpandedParameterPack());
}

bool readsTemplateArgumentValue(const Expr *E) {
  if (!E || !E->isValueDependent())
    return false;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    // A local or a parameter holds what was stored into it.
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->isLocalVarDeclOrParm())
      return false;
    return true; // A template parameter, a static member of a template.
  }
  if (isa<DependentScopeDeclRefExpr, CXXDependentScopeMemberExpr,
          UnresolvedMemberExpr, UnaryExprOrTypeTraitExpr, SizeOfPackExpr,
          PackExpansionExpr>(E))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && !isa<CXXOperatorCallExpr>(Call) && !independentCallee(Call))
    return true;
  for (const Stmt *Child : E->children())
    if (readsTemplateArgumentValue(dyn_cast_or_null<Expr>(Child)))
      return true;
  return false;
}

const FunctionDecl *independentCallee(const CallExpr *Call) {
  return CudaApiModel::calleeOf(Call);
}

std::optional<int64_t> knownTypeSize(QualType T, const ASTContext &Ctx) {
  if (T.isNull() || T->isDependentType() || T->isIncompleteType() ||
      T->isFunctionType() || !T->isConstantSizeType())
    return std::nullopt;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

} // namespace clang::tidy::cuda
