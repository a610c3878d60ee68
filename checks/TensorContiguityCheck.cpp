//===- TensorContiguityCheck.cpp ------------------------------------------===//

#include "TensorContiguityCheck.h"
#include "DenseIndexing.h"
#include "PythonLaunches.h"
#include "SourceLocations.h"
#include "TensorOriginNote.h"
#include "TorchApiModel.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <map>

namespace clang::tidy::cuda {

bool TensorContiguityCheck::mayReportIn(const FunctionDecl &FD,
                                        ASTContext &Ctx) {
  return TorchApiModel::declaresTensor(Ctx) ||
         pythonAnnotation(FD, "cuda-tidy-python-launch|");
}

void TensorContiguityCheck::checkPythonLaunch(const FunctionDecl &Launch,
                                              ASTContext &Ctx) {
  const FunctionDecl *Kernel = pythonLaunchedKernel(Launch);
  if (!Kernel || Kernel->isVariadic() || Kernel->isTemplated())
    return;
  if (const FunctionDecl *Def = Kernel->getDefinition())
    Kernel = Def;
  // The arguments' facts in order, and the parameters of the launching
  // function that the reader found received and never made contiguous
  // (driver/python/cuda_tidy_reader/launches.py, Facts.received).
  SmallVector<StringRef, 8> Facts;
  std::map<unsigned, std::pair<const ParmVarDecl *, StringRef>> Received;
  for (const ParmVarDecl *P : Launch.parameters()) {
    if (pythonAnnotation(*P, "cuda-tidy-python-args-unknown"))
      return;
    if (std::optional<StringRef> R =
            pythonAnnotation(*P, "cuda-tidy-python-argrecv|")) {
      auto [Index, Rest] = R->split('|');
      unsigned I = 0;
      if (!Index.getAsInteger(10, I))
        Received[I] = {P, Rest};
    }
    if (std::optional<StringRef> F =
            pythonAnnotation(*P, "cuda-tidy-python-arg|"))
      Facts.push_back(F->split('|').second);
  }
  if (Facts.size() != Kernel->getNumParams())
    return;
  for (const auto &[I, R] : Received) {
    if (I >= Facts.size() || !Facts[I].starts_with("received:"))
      continue;
    const ParmVarDecl &Param = *Kernel->getParamDecl(I);
    // A host array copied by PyCUDA in its own order is wrong only where
    // the kernel reads it as a matrix: a transposed array (the one layout
    // PyCUDA accepts besides C order) read elementwise, and written back
    // in the same order, is right.
    const Expr *Dense =
        Facts[I] == "received:host"
            ? rowMajorAccessOf(Param, *Kernel, threadIndex(Ctx))
            : denseAccessOf(Param, *Kernel, threadIndex(Ctx));
    if (!Dense)
      continue;
    auto [Function, Name] = R.second.split('|');
    const ParmVarDecl *Arg = nullptr;
    unsigned K = 0;
    for (const ParmVarDecl *P : Launch.parameters())
      if (pythonAnnotation(*P, "cuda-tidy-python-arg|") && K++ == I)
        Arg = P;
    if (!Arg)
      continue;
    if (Facts[I] == "received:host")
      // PyCUDA's drv.In/Out/InOut copy the host array's buffer, which a
      // transposed (Fortran-contiguous) array gives in its own order.
      diag(Arg->getLocation(),
           "array '%0', which '%1' receives and never makes contiguous, is "
           "copied to the device in its memory order and reaches parameter "
           "'%2' of kernel '%3', which indexes it densely: a transposed "
           "array from the caller is read in the wrong order; pass "
           "np.ascontiguousarray(%0)")
          << Name << Function << Param.getName() << Kernel->getName();
    else
      diag(Arg->getLocation(),
           "%select{array|the pointer of array}0 '%1', which '%2' receives "
           "and never makes contiguous, reaches parameter '%3' of kernel "
           "'%4', which indexes it densely: a sliced or transposed array "
           "from the caller is read in memory order, ignoring its strides; "
           "pass cp.ascontiguousarray(%1)")
          << (Facts[I] == "received:ptr") << Name << Function
          << Param.getName() << Kernel->getName();
    diag(R.first->getLocation(), "'%0' is a parameter of '%1'",
         DiagnosticIDs::Note)
        << Name << Function;
    diag(Dense->getExprLoc(), "'%0' is indexed densely here",
         DiagnosticIDs::Note)
        << Param.getName();
  }
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
  if (pythonAnnotation(FD, "cuda-tidy-python-launch|")) {
    checkPythonLaunch(FD, Ctx);
    return;
  }
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
