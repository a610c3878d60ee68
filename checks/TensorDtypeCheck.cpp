//===- TensorDtypeCheck.cpp -----------------------------------------------===//

#include "TensorDtypeCheck.h"
#include "SourceLocations.h"
#include "TensorOriginNote.h"
#include "TorchApiModel.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {
namespace {

/// The explicit casts and tensor pointer calls written in one function's
/// body (nested lambdas are functions of their own).
class PointerCollector : public RecursiveASTVisitor<PointerCollector> {
public:
  bool shouldVisitLambdaBodies() const { return false; }
  bool VisitExplicitCastExpr(ExplicitCastExpr *E) {
    Casts.push_back(E);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (TorchApiModel::pointerCall(C))
      Calls.push_back(C);
    return true;
  }
  std::vector<const ExplicitCastExpr *> Casts;
  std::vector<const CallExpr *> Calls;
};

/// The untyped tensor pointer call \p E is (data_ptr()), through parens.
const CallExpr *untypedPointerCall(const Expr *E) {
  const auto *C = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  std::optional<TensorPointerInfo> Info =
      C ? TorchApiModel::pointerCall(C) : std::nullopt;
  return Info && !Info->Typed && !Info->Strided ? C : nullptr;
}

/// The element type data_ptr<T>() names.
QualType typedElement(const CallExpr *C) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
  const TemplateArgumentList *Args =
      MC ? MC->getMethodDecl()->getTemplateSpecializationArgs() : nullptr;
  if (!Args || Args->size() != 1 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return {};
  return Args->get(0).getAsType();
}

bool sameElement(QualType A, QualType B) {
  return A.getCanonicalType().getUnqualifiedType() ==
         B.getCanonicalType().getUnqualifiedType();
}

} // namespace

bool TensorDtypeCheck::mayReportIn(const FunctionDecl &, ASTContext &Ctx) {
  return TorchApiModel::declaresTensor(Ctx);
}

void TensorDtypeCheck::checkFunction(const FunctionDecl &FD,
                                     const FunctionCfg &, ASTContext &Ctx) {
  TorchTensorAnalysis *Facts = tensorFactsFor(FD, Ctx);
  if (!Facts)
    return;
  TorchTensorAnalysis &Tensors = *Facts;
  const SourceManager &SM = Ctx.getSourceManager();
  PointerCollector Collect;
  Collect.TraverseStmt(FD.getBody());

  // An untyped pointer cast to T*: nothing checks T against the dtype. One
  // finding per Python argument: y = empty({n}, x.options()) shares x's.
  llvm::DenseSet<const ParmVarDecl *> Seen;
  std::vector<const VarDecl *> Reported;
  for (const ExplicitCastExpr *Cast : Collect.Casts) {
    const CallExpr *Call = untypedPointerCall(Cast->getSubExpr());
    QualType To = Cast->getTypeAsWritten();
    if (!Call || !To->isPointerType() || To->getPointeeType()->isVoidType())
      continue;
    QualType Element = To->getPointeeType();
    const Expr *TensorExpr = TorchApiModel::tensorObject(Call);
    const VarDecl *Tensor = TorchTensorAnalysis::variableOf(TensorExpr);
    if (!Tensor)
      continue;
    QualType Dispatched = Tensors.dispatchedType(Call);
    StringRef Converted = Tensors.convertedScalarType(TensorExpr);
    bool KnownMismatch =
        (!Dispatched.isNull() && !sameElement(Dispatched, Element)) ||
        (!Converted.empty() &&
         !TorchTensorAnalysis::isElementTypeOf(Element, Converted));
    if (!KnownMismatch) {
      if (!Dispatched.isNull() || !Converted.empty())
        continue;
      TensorVerdict V = Tensors.verdict(TensorExpr, TP_Dtype, Call);
      // One finding per Python argument, and per set of tensors whose
      // dtypes are checked equal to each other.
      if (V.Origin != TensorOrigin::FromPython ||
          !Seen.insert(V.PythonParam).second ||
          llvm::any_of(Reported, [&](const VarDecl *R) {
            return Tensors.sameDtype(Tensor, R);
          }))
        continue;
      Reported.push_back(Tensor);
      SourceLocation Loc = reportOnce(
          TorchTensorAnalysis::findingLocation(Cast->getBeginLoc(), SM), SM);
      if (Loc.isInvalid())
        continue;
      diag(Loc, "untyped pointer of tensor %0 is cast to %1, but nothing "
                "checks its dtype: a tensor of another dtype from Python is "
                "silently misread; use the typed data_ptr<T>(), which checks, "
                "or check or dispatch on scalar_type()")
          << Tensor << To;
      notePythonOrigin(*this, V, SM);
      continue;
    }
    SourceLocation Loc = reportOnce(
        TorchTensorAnalysis::findingLocation(Cast->getBeginLoc(), SM), SM);
    if (Loc.isInvalid())
      continue;
    if (!Dispatched.isNull())
      diag(Loc, "untyped pointer of tensor %0 is cast to %1 where an "
                "AT_DISPATCH case fixes its element type to %2: the other "
                "cases misread the tensor")
          << Tensor << To << Dispatched.getCanonicalType();
    else
      diag(Loc, "untyped pointer of tensor %0 is cast to %1, but %0 was "
                "converted to dtype %2")
          << Tensor << To << Converted;
  }

  // data_ptr<T>() in an AT_DISPATCH case of another element type throws.
  for (const CallExpr *Call : Collect.Calls) {
    QualType Element = typedElement(Call);
    QualType Dispatched = Tensors.dispatchedType(Call);
    if (Element.isNull() || Dispatched.isNull() ||
        sameElement(Element, Dispatched) || Element->isDependentType())
      continue;
    const VarDecl *Tensor =
        TorchTensorAnalysis::variableOf(TorchApiModel::tensorObject(Call));
    SourceLocation Loc = reportOnce(
        TorchTensorAnalysis::findingLocation(Call->getBeginLoc(), SM), SM);
    if (!Tensor || Loc.isInvalid())
      continue;
    diag(Loc, "tensor %0 is read as %1 in the AT_DISPATCH case for %2; that "
              "case fails at run time (use scalar_t)")
        << Tensor << Element << Dispatched.getCanonicalType();
  }
}

} // namespace clang::tidy::cuda
