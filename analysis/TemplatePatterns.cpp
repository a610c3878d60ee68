//===- TemplatePatterns.cpp -----------------------------------------------===//

#include "TemplatePatterns.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"

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
