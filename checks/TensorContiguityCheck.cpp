//===- TensorContiguityCheck.cpp ------------------------------------------===//

#include "TensorContiguityCheck.h"
#include "SourceLocations.h"
#include "TensorOriginNote.h"
#include "TorchApiModel.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

bool TensorContiguityCheck::mayReportIn(const FunctionDecl &, ASTContext &Ctx) {
  return TorchApiModel::declaresTensor(Ctx);
}

void TensorContiguityCheck::reportMaybeStrided(const TensorPointerUse &U,
                                               const TensorVerdict &V,
                                               const VarDecl *Tensor,
                                               const SourceManager &SM) {
  SourceLocation Loc = reportOnce(
      TorchTensorAnalysis::findingLocation(U.PointerCall->getBeginLoc(), SM),
      SM);
  if (Loc.isInvalid())
    return;
  diag(Loc, "raw pointer of tensor %0 reaches %select{a kernel|kernel %2}1, "
            "but nothing makes %0 contiguous: %select{a gradient from "
            "autograd|a tensor with the strides it was given}3 may be "
            "non-contiguous and is read with the wrong strides; call "
            ".contiguous() or check is_contiguous() first")
      << Tensor << (U.Kernel != nullptr) << U.Kernel << (V.Gradients == nullptr);
  diag(userVisibleLocation(U.Launch->getBeginLoc(), SM),
       "the kernel is launched here", DiagnosticIDs::Note);
  if (V.Gradients)
    diag(V.Gradients->getLocation(),
         "%0 holds the gradients autograd passes to backward",
         DiagnosticIDs::Note)
        << V.Gradients;
  else if (V.Factory)
    diag(userVisibleLocation(V.Factory->getBeginLoc(), SM),
         "%0 makes it with the strides it is given", DiagnosticIDs::Note)
        << V.Factory->getDirectCallee();
}

void TensorContiguityCheck::checkFunction(const FunctionDecl &FD,
                                          const FunctionCfg &,
                                          ASTContext &Ctx) {
  TorchTensorAnalysis *Facts = tensorFactsFor(FD, Ctx);
  if (!Facts)
    return;
  TorchTensorAnalysis &Tensors = *Facts;
  const SourceManager &SM = Ctx.getSourceManager();
  ReportedLaunchParams Seen;
  for (const TensorPointerUse &U : Tensors.pointersToKernels(FD)) {
    // Accessors carry the strides; raw pointers are indexed densely.
    if (U.Info.Strided)
      continue;
    TensorVerdict V = Tensors.verdict(U.Tensor, TP_Contiguous, U.PointerCall);
    const VarDecl *Tensor = TorchTensorAnalysis::variableOf(U.Tensor);
    if (V.Origin == TensorOrigin::MaybeStrided && Tensor) {
      // grad_in = empty_like(grad) beside grad: one cause, reported once.
      if (!V.Gradients || Seen.insert({U.Launch, V.Gradients}).second)
        reportMaybeStrided(U, V, Tensor, SM);
      continue;
    }
    if (V.Origin != TensorOrigin::FromPython || !Tensor)
      continue;
    if (V.PythonParam && !Seen.insert({U.Launch, V.PythonParam}).second)
      continue;
    SourceLocation Loc = reportOnce(
        TorchTensorAnalysis::findingLocation(U.PointerCall->getBeginLoc(), SM),
        SM);
    if (Loc.isInvalid())
      continue;
    diag(Loc, "raw pointer of tensor %0 reaches %select{a kernel|kernel "
              "%2}1, but nothing makes %0 contiguous: a transposed or "
              "sliced tensor from Python is read with the wrong strides; "
              "call .contiguous() or check is_contiguous() first")
        << Tensor << (U.Kernel != nullptr) << U.Kernel;
    diag(userVisibleLocation(U.Launch->getBeginLoc(), SM),
         "the kernel is launched here", DiagnosticIDs::Note);
    notePythonOrigin(*this, V, SM);
  }
}

} // namespace clang::tidy::cuda
