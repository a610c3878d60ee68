// cuda-device-memory-leak: the handles of the CUDA libraries (CheckedResources'
// LibraryHandles, on by default): a cuBLAS or cuSPARSE handle, a cuSPARSE
// descriptor or info object, a cuFFT plan, a cuRAND generator, made and not
// destroyed on some path.
// RUN: %check_cuda_tidy_plugin %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver --check-suffix=OFF %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-device-memory-leak.CheckedResources: 'Streams;Events'}}"

#include "error_macros.h"
#include <cublas_v2.h>
#include <cufft.h>
#include <curand.h>
#include <cusparse.h>

// ---- Positive: an early return between create and destroy -----------------

int normOf(const float *d_x, int n, float *result) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return -1;
  // CHECK-NOTES: :[[@LINE-2]]:7: warning: cuBLAS handle allocated into 'handle' by 'cublasCreate_v2' is not destroyed on every path [cuda-device-memory-leak]
  if (n == 0)
    return 0;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: 'handle' still holds it when the function returns here
  cublasSnrm2(handle, n, d_x, 1, result);
  cublasDestroy(handle);
  return 0;
}

// ---- Positive: a plan never destroyed ---------------------------------------

void transformOnce(cufftComplex *d_data, int n) {
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS)
    return;
  // CHECK-NOTES: :[[@LINE-2]]:7: warning: cuFFT plan allocated into 'plan' by 'cufftPlan1d' is not destroyed on every path [cuda-device-memory-leak]
  cufftExecC2C(plan, d_data, d_data, CUFFT_FORWARD);
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'plan' still holds it when the function returns here

// ---- Positive: an info object leaked when the factorization fails -----------

int factorize(cusparseHandle_t handle) {
  csrilu02Info_t info;
  if (cusparseCreateCsrilu02Info(&info) != CUSPARSE_STATUS_SUCCESS)
    return -1;
  // CHECK-NOTES: :[[@LINE-2]]:7: warning: cuSPARSE descriptor allocated into 'info' by 'cusparseCreateCsrilu02Info' is not destroyed on every path [cuda-device-memory-leak]
  int pivot = 0;
  if (cusparseXcsrilu02_zeroPivot(handle, info, &pivot) ==
      CUSPARSE_STATUS_ZERO_PIVOT)
    return pivot;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: 'info' still holds it when the function returns here
  cusparseDestroyCsrilu02Info(info);
  return 0;
}

// ---- Negatives: destroyed on every path, returned, or kept ------------------

int normOfFixed(const float *d_x, int n, float *result) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return -1;
  if (n != 0)
    cublasSnrm2(handle, n, d_x, 1, result);
  cublasDestroy(handle);
  return 0;
}

curandGenerator_t makeGenerator(unsigned long long seed) {
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(gen, seed);
  return gen;
}

struct Solver {
  cusparseHandle_t handle;
  cusparseMatDescr_t descr;
  Solver() {
    cusparseCreate(&handle);
    cusparseCreateMatDescr(&descr);
  }
  ~Solver() {
    cusparseDestroyMatDescr(descr);
    cusparseDestroy(handle);
  }
};

void fill(float *d_out, size_t n) {
  curandGenerator_t gen = makeGenerator(42);
  curandGenerateUniform(gen, d_out, n);
  curandDestroyGenerator(gen);
}

void transformTwice(cufftComplex *d_data, int n) {
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS)
    return;
  cufftExecC2C(plan, d_data, d_data, CUFFT_FORWARD);
  cufftExecC2C(plan, d_data, d_data, CUFFT_INVERSE);
  cufftDestroy(plan);
}
