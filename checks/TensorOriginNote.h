//===- TensorOriginNote.h - Where a tensor from Python enters ---*- C++ -*-===//
//
// The note the tensor checks attach to a finding on a tensor from Python.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_TENSORORIGINNOTE_H
#define CUDA_TIDY_CHECKS_TENSORORIGINNOTE_H

#include "SourceLocations.h"
#include "TorchTensors.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::cuda {

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
