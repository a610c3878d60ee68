//===- TensorDeviceCheck.cpp ----------------------------------------------===//

#include "TensorDeviceCheck.h"
#include "SourceLocations.h"
#include "TensorOriginNote.h"
#include "TorchApiModel.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

void TensorDeviceCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "DeviceGuard", DeviceGuard);
}

bool TensorDeviceCheck::mayReportIn(const FunctionDecl &, ASTContext &Ctx) {
  return TorchApiModel::declaresTensor(Ctx);
}

void TensorDeviceCheck::checkFunction(const FunctionDecl &FD,
                                      const FunctionCfg &, ASTContext &Ctx) {
  TorchTensorAnalysis *Facts = tensorFactsFor(FD, Ctx);
  if (!Facts)
    return;
  TorchTensorAnalysis &Tensors = *Facts;
  const SourceManager &SM = Ctx.getSourceManager();
  ReportedLaunchParams Seen;
  llvm::DenseSet<const CallExpr *> Unguarded;
  for (const TensorPointerUse &U : Tensors.pointersToKernels(FD)) {
    TensorVerdict V = Tensors.verdict(U.Tensor, TP_Cuda, U.PointerCall);
    const VarDecl *Tensor = TorchTensorAnalysis::variableOf(U.Tensor);
    if (Tensor && V.Origin == TensorOrigin::Guaranteed && DeviceGuard)
      reportUnguarded(Tensors, FD, U, Tensor, Unguarded, SM);
    if (!Tensor || (V.Origin != TensorOrigin::FromPython &&
                    V.Origin != TensorOrigin::KnownCpu))
      continue;
    if (V.PythonParam && !Seen.insert({U.Launch, V.PythonParam}).second)
      continue;
    SourceLocation Loc = reportOnce(
        TorchTensorAnalysis::findingLocation(U.PointerCall->getBeginLoc(), SM),
        SM);
    if (Loc.isInvalid())
      continue;
    if (V.Origin == TensorOrigin::KnownCpu) {
      diag(Loc, "tensor %0 is on the CPU (its options name no device), but "
                "its %select{pointer|accessor}1 reaches %select{a kernel|"
                "kernel %3}2")
          << Tensor << U.Info.Strided << (U.Kernel != nullptr) << U.Kernel;
      diag(userVisibleLocation(V.Factory->getBeginLoc(), SM),
           "%0 is created here; pass options with a CUDA device (e.g. "
           "another tensor's options())",
           DiagnosticIDs::Note)
          << Tensor;
      continue;
    }
    diag(Loc, "%select{pointer|accessor}1 of tensor %0 reaches %select{a "
              "kernel|kernel %3}2, but nothing checks that %0 is a CUDA "
              "tensor: a CPU tensor from Python gives the kernel a host "
              "address; check is_cuda() first")
        << Tensor << U.Info.Strided << (U.Kernel != nullptr) << U.Kernel;
    diag(userVisibleLocation(U.Launch->getBeginLoc(), SM),
         "the kernel is launched here", DiagnosticIDs::Note);
    notePythonOrigin(*this, V, SM);
  }
}

void TensorDeviceCheck::reportUnguarded(
    TorchTensorAnalysis &Tensors, const FunctionDecl &FD,
    const TensorPointerUse &U, const VarDecl *Tensor,
    llvm::DenseSet<const CallExpr *> &Reported, const SourceManager &SM) {
  // A CUDA tensor from Python sits on whichever GPU Python put it; the
  // launch runs on the current device unless a guard selects the tensor's.
  if (Reported.count(U.Launch) || Tensors.selectsDeviceBefore(FD, U.Launch))
    return;
  TensorVerdict V = Tensors.verdict(U.Tensor, TP_CurrentDevice, U.PointerCall);
  if (V.Origin != TensorOrigin::FromPython)
    return;
  Reported.insert(U.Launch);
  SourceLocation Loc = reportOnce(
      TorchTensorAnalysis::findingLocation(U.Launch->getBeginLoc(), SM), SM);
  if (Loc.isInvalid())
    return;
  diag(Loc, "%select{a kernel|kernel %1}0 is launched on the current device, "
            "but CUDA tensor %2 from Python may sit on another GPU and no "
            "device guard selects its device; construct "
            "'at::cuda::OptionalCUDAGuard guard(device_of(%3))' first")
      << (U.Kernel != nullptr) << U.Kernel << Tensor << Tensor->getName();
  notePythonOrigin(*this, V, SM);
}

} // namespace clang::tidy::cuda
