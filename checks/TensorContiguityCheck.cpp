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

void TensorContiguityCheck::checkFunction(const FunctionDecl &FD,
                                          const FunctionCfg &,
                                          ASTContext &Ctx) {
  TorchTensorAnalysis &Tensors =
      TranslationUnitAnalyses::get(Ctx).torchTensors();
  if (!Tensors.enabled())
    return;
  // The bindings' side of the project's summary (TensorCallers.h).
  Tensors.recordCallsToOtherFiles();
  const SourceManager &SM = Ctx.getSourceManager();
  // One finding per launch and Python argument: y = empty_like(x) shares
  // x's cause.
  llvm::DenseSet<std::pair<const CallExpr *, const ParmVarDecl *>> Seen;
  for (const TensorPointerUse &U : Tensors.pointersToKernels(FD)) {
    // Accessors carry the strides; raw pointers are indexed densely.
    if (U.Info.Strided)
      continue;
    TensorVerdict V = Tensors.verdict(U.Tensor, TP_Contiguous, U.PointerCall);
    const VarDecl *Tensor = TorchTensorAnalysis::variableOf(U.Tensor);
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
