//===- GlobalMemoryRaceCheck.h ----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_GLOBALMEMORYRACECHECK_H
#define CUDA_TIDY_GLOBALMEMORYRACECHECK_H

#include "CudaFunctionCheck.h"
#include "GlobalMemoryRaces.h"
#include <optional>

namespace clang::tidy::cuda {

/// Finds plain read-modify-writes of global memory that several threads of
/// one launch make to the same element (a counter, a per-block slot, a
/// neighbour's entry read from memory), where concurrent updates are lost.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-global-memory-race.md
class GlobalMemoryRaceCheck : public CudaFunctionCheck {
public:
  GlobalMemoryRaceCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::DeviceCode, CheckLanguages::Cuda,
                           /*NeedsWholeBody=*/true,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true, ErrorGate::Accesses}) {}

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Races.reset(); }
  /// Kernels, and the __device__ helpers no function of the unit calls.
  bool mayReportIn(const FunctionDecl &FD, ASTContext &) override {
    return FD.hasAttr<CUDAGlobalAttr>() ||
           GlobalMemoryRaces::isUncalledHelper(FD);
  }

  std::optional<GlobalMemoryRaces> Races;
};

} // namespace clang::tidy::cuda

#endif
