//===- LaunchConfigurationCheck.h -------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_LAUNCHCONFIGURATIONCHECK_H
#define CUDA_TIDY_LAUNCHCONFIGURATIONCHECK_H

#include "CudaFunctionCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

struct ConstantSource;
struct LaunchSite;

/// Finds kernel launches whose configuration, known at compile time, the
/// device rejects.
///
/// Blocks or grids past the device's limits or empty, more threads than the
/// kernel's __launch_bounds__, dynamic shared memory past 48 KiB without
/// cudaFuncSetAttribute, and more shared memory than a block may have on the
/// target architecture. With GridsFromData, also a gridDim.y or .z that
/// grows with the data (an element count, a product of sizes, one size
/// while gridDim.x is one block, or a tensor's size while gridDim.x is a
/// constant or capped by one) and that nothing bounds below 65535.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-launch-configuration.md
class LaunchConfigurationCheck : public CudaFunctionCheck {
public:
  LaunchConfigurationCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context,
                          {FunctionScope::All, CheckLanguages::Cuda,
                           /*NeedsWholeBody=*/true,
                           /*AnalysesTemplatePatterns=*/false,
                           /*ReadsCodeWithErrors=*/true,
                           ErrorGate::Operands}),
        GridsFromData(Options.get("GridsFromData", true)) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "GridsFromData", GridsFromData);
  }

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Reported.clear(); }

  void checkBlock(const LaunchSite &S, ASTContext &Ctx);
  void checkGrid(const LaunchSite &S, ASTContext &Ctx);
  /// Dimension \p D (y or z) of the grid when it grows with the data and
  /// nothing bounds it.
  void checkGridGrowth(const LaunchSite &S, unsigned D, ASTContext &Ctx);
  /// Dimension \p D of the block or the grid (\p Grid) when it is 0,
  /// which the device rejects, or over the device's limit; whether it is.
  bool checkDimension(const LaunchSite &S, unsigned D, bool Grid,
                      const SourceManager &SM);
  void checkLaunchBounds(const LaunchSite &S, ASTContext &Ctx);
  void checkSharedMemory(const LaunchSite &S, const FunctionCfg &Cfg,
                         ASTContext &Ctx);
  bool mayRaiseSharedLimit(const LaunchSite &S, const FunctionCfg &Cfg,
                           ASTContext &Ctx);

  /// Where a finding about \p S whose value comes from \p From is shown
  /// (the launch, or the launcher call that gave the value), or an invalid
  /// location when finding \p Kind was reported there already.
  SourceLocation reportAt(const LaunchSite &S, const ConstantSource &From,
                          unsigned Kind, const SourceManager &SM);
  /// The notes of a finding: where its value was set, when not in the call
  /// shown; the launch, when the call shown is its launcher's; and the
  /// point of instantiation, when a template argument gave the value.
  void noteValue(const LaunchSite &S, const ConstantSource &From,
                 int64_t Value, const SourceManager &SM);

  const bool GridsFromData;
  llvm::DenseSet<std::pair<unsigned, unsigned>> Reported;
};

} // namespace clang::tidy::cuda

#endif
