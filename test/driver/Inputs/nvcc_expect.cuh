// Fails to compile unless the nvcc command line reached the analysis: each
// test defines the EXPECT_* macros that say what its nvcc flags ask for.
#include "project.h"
#include <vendor.h>
#include <cuda_runtime.h>

#ifndef FROM_DEFINE
#error "-D did not reach the analysis"
#endif
#ifdef FROM_UNDEF
#error "-U did not reach the analysis"
#endif
#if !defined(FROM_INCLUDE_PATH) || !defined(FROM_SYSTEM_INCLUDE)
#error "-I or -isystem did not reach the analysis"
#endif
#if defined(EXPECT_OPTIONS_FILE) && !defined(FROM_OPTIONS_FILE)
#error "the options file was not read"
#endif
#if defined(EXPECT_STD) && __cplusplus != EXPECT_STD
#error "-std did not reach the analysis"
#endif
#if defined(__clang__) && defined(__CUDA_ARCH__) && defined(EXPECT_ARCH) && \
    __CUDA_ARCH__ != EXPECT_ARCH
#error "the architecture was not taken from -gencode/-arch/-code"
#endif
#if defined(__clang__) && defined(__CUDA__) && defined(EXPECT_RDC) != defined(__CLANG_RDC__)
#error "-rdc was not translated to -fgpu-rdc"
#endif

// Parses only as CUDA (-x cu for files named .cpp).
__global__ void scale(float *p, float f) { p[threadIdx.x] *= f; }

// An extended lambda and a constexpr host function called from device
// code, which nvcc accepts with --extended-lambda / --expt-relaxed-constexpr.
constexpr float twice(float x) { return 2 * x; }
template <typename F> __global__ void apply(float *p, F f) { p[0] = f(p[0]); }
inline void run_lambda(float *p) {
  apply<<<1, 1>>>(p, [] __device__(float x) { return twice(x); });
}
