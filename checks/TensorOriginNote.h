//===- TensorOriginNote.h - Where a tensor from Python enters ---*- C++ -*-===//
//
// What the tensor checks (contiguity, device, dtype) share: the tensor facts
// of a function, and the note they attach to a finding on a tensor from
// Python.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_TENSORORIGINNOTE_H
#define CUDA_TIDY_CHECKS_TENSORORIGINNOTE_H

#include "FunctionCfg.h"
#include "SourceLocations.h"
#include "TorchTensors.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// The tensor facts of \p Ctx's translation unit, for a tensor check's
/// checkFunction on \p FD: nullptr where torch's tensors are not analysed or
/// \p FD has no body. Records the bindings' side of the project's summary
/// (TensorCallers.h) first, once per translation unit.
inline TorchTensorAnalysis *tensorFactsFor(const FunctionDecl &FD,
                                           ASTContext &Ctx) {
  TorchTensorAnalysis &Tensors =
      TranslationUnitAnalyses::get(Ctx).torchTensors();
  if (!Tensors.enabled())
    return nullptr;
  Tensors.recordCallsToOtherFiles();
  return FD.hasBody() ? &Tensors : nullptr;
}

/// The (launch, Python parameter) pairs a check has reported in one
/// function: y = empty_like(x) shares x's cause, and is reported once.
using ReportedLaunchParams =
    llvm::DenseSet<std::pair<const CallExpr *, const ParmVarDecl *>>;

/// Notes where \p V's tensor comes from Python: this file's binding, or the
/// call in another file that the project's summary recorded.
inline void notePythonOrigin(ClangTidyCheck &Check, const TensorVerdict &V,
                             const SourceManager &SM) {
  if (V.Binding)
    Check.diag(userVisibleLocation(V.Binding->getBeginLoc(), SM),
               "%0 comes from Python through this binding",
               DiagnosticIDs::Note)
        << V.PythonParam;
  else if (!V.ExternalCall.empty())
    Check.diag(V.PythonParam->getLocation(),
               "%0 comes from Python through the %1", DiagnosticIDs::Note)
        << V.PythonParam << V.ExternalCall;
}

} // namespace clang::tidy::cuda

#endif
