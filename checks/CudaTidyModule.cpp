//===- CudaTidyModule.cpp - The cuda-* checks -----------------------------===//
//
// Registers every cuda-tidy check, in alphabetical order. The same object
// file is linked into the plugin (CudaTidyChecks.so) and the driver.
//
//===----------------------------------------------------------------------===//

#include "ApiOutsideMainCheck.h"
#include "CallbackApiCallCheck.h"
#include "ContextStackCheck.h"
#include "DeviceMemoryLeakCheck.h"
#include "DivergentSyncthreadsCheck.h"
#include "GlobalMemoryRaceCheck.h"
#include "HiddenCodeCheck.h"
#include "InvalidFreeCheck.h"
#include "KernelArgumentsCheck.h"
#include "KernelParameterCheck.h"
#include "LaunchConfigurationCheck.h"
#include "MemcpyDirectionCheck.h"
#include "MemcpySizeCheck.h"
#include "MissingHostSyncCheck.h"
#include "MissingSyncthreadsCheck.h"
#include "SharedMemoryBoundsCheck.h"
#include "TensorContiguityCheck.h"
#include "TensorDeviceCheck.h"
#include "TensorDtypeCheck.h"
#include "TorchDefaultStreamCheck.h"
#include "UncheckedApiCallCheck.h"
#include "UncheckedKernelLaunchCheck.h"
#include "UnguardedThreadIndexCheck.h"
#include "UnsynchronizedExitCheck.h"
#include "WarpCollectiveCheck.h"
#include "WrongMemorySpaceCheck.h"
#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy::cuda {

class CudaTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<ApiOutsideMainCheck>("cuda-api-outside-main");
    Factories.registerCheck<CallbackApiCallCheck>("cuda-callback-api-call");
    Factories.registerCheck<ContextStackCheck>("cuda-context-stack");
    Factories.registerCheck<DeviceMemoryLeakCheck>("cuda-device-memory-leak");
    Factories.registerCheck<DivergentSyncthreadsCheck>(
        "cuda-divergent-syncthreads");
    Factories.registerCheck<GlobalMemoryRaceCheck>("cuda-global-memory-race");
    Factories.registerCheck<HiddenCodeCheck>("cuda-hidden-code");
    Factories.registerCheck<InvalidFreeCheck>("cuda-invalid-free");
    Factories.registerCheck<KernelArgumentsCheck>("cuda-kernel-arguments");
    Factories.registerCheck<KernelParameterCheck>("cuda-kernel-parameter");
    Factories.registerCheck<LaunchConfigurationCheck>(
        "cuda-launch-configuration");
    Factories.registerCheck<MemcpyDirectionCheck>("cuda-memcpy-direction");
    Factories.registerCheck<MemcpySizeCheck>("cuda-memcpy-size");
    Factories.registerCheck<MissingHostSyncCheck>("cuda-missing-host-sync");
    Factories.registerCheck<MissingSyncthreadsCheck>(
        "cuda-missing-syncthreads");
    Factories.registerCheck<SharedMemoryBoundsCheck>(
        "cuda-shared-memory-bounds");
    Factories.registerCheck<TensorContiguityCheck>("cuda-tensor-contiguity");
    Factories.registerCheck<TensorDeviceCheck>("cuda-tensor-device");
    Factories.registerCheck<TensorDtypeCheck>("cuda-tensor-dtype");
    Factories.registerCheck<TorchDefaultStreamCheck>(
        "cuda-torch-default-stream");
    Factories.registerCheck<UncheckedApiCallCheck>("cuda-unchecked-api-call");
    Factories.registerCheck<UncheckedKernelLaunchCheck>(
        "cuda-unchecked-kernel-launch");
    Factories.registerCheck<UnguardedThreadIndexCheck>(
        "cuda-unguarded-thread-index");
    Factories.registerCheck<UnsynchronizedExitCheck>(
        "cuda-unsynchronized-exit");
    Factories.registerCheck<WarpCollectiveCheck>("cuda-warp-collective");
    Factories.registerCheck<WrongMemorySpaceCheck>("cuda-wrong-memory-space");
  }
};

} // namespace clang::tidy::cuda

namespace clang::tidy {
// Registers the module with clang-tidy's module registry when the plugin is
// loaded, or when the driver starts.
static ClangTidyModuleRegistry::Add<cuda::CudaTidyModule>
    X("cuda-module", "Checks for bugs in CUDA programs.");

// Referenced by the driver so that the linker keeps this object file.
volatile int CudaTidyModuleAnchorSource = 0;
} // namespace clang::tidy
