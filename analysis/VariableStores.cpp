//===- VariableStores.cpp -------------------------------------------------===//

#include "VariableStores.h"
#include "TemplatePatterns.h"
#include "ThreadIndexAnalysis.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda {

namespace {
const VarDecl *varOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(ThreadIndexAnalysis::strip(E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}
} // namespace

class StoreCollector : public RecursiveASTVisitor<StoreCollector> {
public:
  explicit StoreCollector(VariableStores &Out) : Out(Out) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType()) {
      if (const VarDecl *Target = varOf(VD->getInit()))
        Out.AddressTaken.insert(Target);
      return true;
    }
    if (const Expr *Init = VD->getInit())
      Out.Values[VD].push_back({Init, /*IsInitializer=*/true});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      if (const VarDecl *VD = varOf(BO->getLHS())) {
        Out.Values[VD].push_back({BO->getRHS(), /*IsInitializer=*/false,
                                  BO->isCompoundAssignmentOp()});
        Out.Assigned.insert(VD);
      }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *VD = varOf(UO->getSubExpr()))
        Out.AddressTaken.insert(VD);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    // A template pattern's call of an API function or intrinsic that a
    // dependent argument leaves unresolved: any of its candidates.
    llvm::SmallVector<const FunctionDecl *, 4> Callees;
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      Callees.push_back(Callee);
    else if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(
                 Call->getCallee()->IgnoreParens());
             Lookup && independentCallee(Call))
      for (const NamedDecl *D : Lookup->decls())
        if (const FunctionDecl *FD = D->getUnderlyingDecl()->getAsFunction())
          Callees.push_back(FD);
    for (unsigned I = 0, N = Call->getNumArgs(); I != N; ++I) {
      const VarDecl *VD = varOf(Call->getArg(I));
      if (!VD)
        continue;
      if (Callees.empty()) {
        Out.PassedByReference.insert(VD);
        continue;
      }
      for (const FunctionDecl *Callee : Callees) {
        if (I >= Callee->getNumParams())
          continue;
        QualType T = Callee->getParamDecl(I)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
          Out.PassedByReference.insert(VD);
      }
    }
    return true;
  }

private:
  VariableStores &Out;
};

VariableStores VariableStores::of(const Stmt *Body) {
  VariableStores Stores;
  StoreCollector(Stores).TraverseStmt(const_cast<Stmt *>(Body));
  return Stores;
}

llvm::ArrayRef<StoredValue> VariableStores::valuesOf(const VarDecl *VD) const {
  auto It = Values.find(VD);
  if (It == Values.end())
    return {};
  return It->second;
}

} // namespace clang::tidy::cuda
