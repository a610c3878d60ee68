//===- PythonLaunches.cpp -------------------------------------------------===//

#include "PythonLaunches.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda {

std::optional<StringRef> pythonAnnotation(const Decl &D, StringRef Prefix) {
  for (const auto *A : D.specific_attrs<AnnotateAttr>())
    if (A->getAnnotation().starts_with(Prefix))
      return A->getAnnotation().drop_front(Prefix.size());
  return std::nullopt;
}

const FunctionDecl *pythonLaunchedKernel(const FunctionDecl &Launch) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl *Kernel = nullptr;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (const auto *FD = dyn_cast<FunctionDecl>(E->getDecl()))
        if (!Kernel && FD->hasAttr<CUDAGlobalAttr>())
          Kernel = FD;
      return true;
    }
    bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
      for (const NamedDecl *D : E->decls())
        if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
          if (!Kernel && T->getTemplatedDecl()->hasAttr<CUDAGlobalAttr>())
            Kernel = T->getTemplatedDecl();
      return true;
    }
  } Find;
  Find.TraverseStmt(Launch.getBody());
  return Find.Kernel;
}

} // namespace clang::tidy::cuda
