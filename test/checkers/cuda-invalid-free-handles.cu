// Handles of the CUDA libraries (and the runtime's streams and events) are
// released by their destroy (CUDA_RESOURCE destroy rows) as memory is by a
// free: the memory-space analysis marks them freed there, so a second
// destroy on every path, or a call of the library given the destroyed
// handle, is reported as a double free or a use after free is.
// RUN: %check_cuda_tidy_plugin %s cuda-invalid-free %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-invalid-free %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cublas_v2.h>
#include <cufft.h>
#include <curand.h>
#include <cusparse.h>

#define CHECK_CUBLAS(call)                                                     \
  do {                                                                         \
    if ((call) != CUBLAS_STATUS_SUCCESS)                                       \
      exit(1);                                                                 \
  } while (0)

// ---- Positives --------------------------------------------------------------

int blasTwice(const float *x, float *y, int n) {
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  const float a = 2.f;
  cublasStatus_t st = cublasSaxpy(handle, n, &a, x, 1, y, 1);
  cublasDestroy(handle);
  if (st != CUBLAS_STATUS_SUCCESS) {
    cublasDestroy(handle);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'handle' is destroyed twice: it was already destroyed on every path to this 'cublasDestroy_v2' [cuda-invalid-free]
    return 1;
  }
  return 0;
}

void planTwice(cufftComplex *d, int n) {
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS)
    return;
  if (cufftExecC2C(plan, d, d, CUFFT_FORWARD) != CUFFT_SUCCESS)
    exit(1);
  cufftDestroy(plan);
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 'plan' is destroyed twice: it was already destroyed on every path to this 'cufftDestroy' [cuda-invalid-free]
  cufftDestroy(plan);
}

void useAfterDestroy(float *d, size_t n) {
  curandGenerator_t gen;
  if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) !=
      CURAND_STATUS_SUCCESS)
    return;
  if (curandDestroyGenerator(gen) != CURAND_STATUS_SUCCESS)
    return;
  if (curandGenerateUniform(gen, d, n) != CURAND_STATUS_SUCCESS)
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'gen' is passed to 'curandGenerateUniform' after it was destroyed [cuda-invalid-free]
    exit(1);
}

void sparseTwice() {
  cusparseHandle_t h;
  cusparseMatDescr_t descr;
  if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS)
    return;
  if (cusparseCreateMatDescr(&descr) != CUSPARSE_STATUS_SUCCESS)
    return;
  cusparseDestroyMatDescr(descr);
  cusparseDestroy(h);
  cusparseDestroyMatDescr(descr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'descr' is destroyed twice: it was already destroyed on every path to this 'cusparseDestroyMatDescr' [cuda-invalid-free]
}

void streamTwice() {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 's' is passed to 'cudaStreamSynchronize' after it was destroyed [cuda-invalid-free]
}

// ---- Negatives --------------------------------------------------------------

// Destroyed on one path only, then once more on the other.
void onePathEach(bool fail) {
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  if (fail) {
    cublasDestroy(handle);
    return;
  }
  cublasDestroy(handle);
}

// Made again between the destroys.
void recreated(int n) {
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  cufftDestroy(plan);
  cufftPlan1d(&plan, 2 * n, CUFFT_C2C, 1);
  cufftDestroy(plan);
}

// Set to null after the destroy: a second destroy is guarded.
void nulled(bool again) {
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  cublasDestroy(handle);
  handle = nullptr;
  if (handle)
    cublasDestroy(handle);
}

// One destroy per handle of two.
void twoHandles() {
  cublasHandle_t a, b;
  CHECK_CUBLAS(cublasCreate(&a));
  CHECK_CUBLAS(cublasCreate(&b));
  cublasDestroy(a);
  cublasDestroy(b);
}

// A loop that makes and destroys one handle per pass.
void perPass(int passes) {
  for (int i = 0; i < passes; ++i) {
    curandGenerator_t gen;
    curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
    curandDestroyGenerator(gen);
  }
}

// The handle is used before its destroy.
void useThenDestroy(cusparseHandle_t h, cudaStream_t s) {
  cusparseSetStream(h, s);
  cusparseDestroy(h);
}

// A macro that evaluates its argument again when it fails is
// cuda-unchecked-api-call's to report.
#define CHECK_TWICE(x)                                                         \
  if ((x) != CUBLAS_STATUS_SUCCESS)                                            \
    printf("%d\n", (int)(x));
void macroTwice(cublasHandle_t h) { CHECK_TWICE(cublasDestroy(h)); }
