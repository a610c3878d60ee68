//===- VariableStores.cpp -------------------------------------------------===//

#include "VariableStores.h"
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
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0, N = Call->getNumArgs(); I != N; ++I) {
      const VarDecl *VD = varOf(Call->getArg(I));
      if (!VD)
        continue;
      if (!Callee) {
        Out.PassedByReference.insert(VD);
        continue;
      }
      if (I >= Callee->getNumParams())
        continue;
      QualType T = Callee->getParamDecl(I)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        Out.PassedByReference.insert(VD);
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
