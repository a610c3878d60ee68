//===- MissingSyncthreadsCheck.h --------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_MISSINGSYNCTHREADSCHECK_H
#define CUDA_TIDY_MISSINGSYNCTHREADSCHECK_H

#include "CudaFunctionCheck.h"
#include "SharedMemoryRaces.h"
#include <optional>

namespace clang::tidy::cuda {

/// Finds shared-memory elements that one thread writes and another thread
/// reads, or reads and another thread then overwrites, with no barrier
/// between on some path.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-missing-syncthreads.md
class MissingSyncthreadsCheck : public CudaFunctionCheck {
public:
  MissingSyncthreadsCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::DeviceCode, CheckLanguages::Cuda,
                           /*NeedsWholeBody=*/true,
                           /*AnalysesTemplatePatterns=*/true,
                           /*ReadsCodeWithErrors=*/true, ErrorGate::Accesses}) {}

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Races.reset(); }
  void report(const SharedMemoryRaces::Race &R, ASTContext &Ctx);

  /// The race analysis of this translation unit.
  std::optional<SharedMemoryRaces> Races;
};

} // namespace clang::tidy::cuda

#endif
