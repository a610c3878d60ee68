// The statuses of the CUDA libraries (cuBLAS, cuSPARSE, cuFFT, cuRAND,
// cuSOLVER: CUDA_STATUS_TYPE rows of the API model) are checked as the
// runtime's error codes are. A failed library call returns its status and
// nothing else: cudaGetLastError does not see it. The fix-it uses the
// wrapper that the unit puts around calls of the same library (a
// CHECK_CUBLAS takes no cudaError_t, and CUDA_CHECK no cublasStatus_t).
// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-api-call %t
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-api-call %t

#include <cublas_v2.h>
#include <cufft.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s\n", cudaGetErrorString(e_));                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define CHECK_CUBLAS(call)                                                     \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      std::fprintf(stderr, "%s\n", cublasGetStatusString(s_));                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

inline void checkCurand(curandStatus_t s) {
  if (s != CURAND_STATUS_SUCCESS)
    std::exit(2);
}

// ---- Positives: a library status dropped -----------------------------------

void gemm(cublasHandle_t handle, const float *a, const float *b, float *c,
          int m, int n, int k) {
  const float one = 1.f, zero = 0.f;
  // lda < m: CUBLAS_STATUS_INVALID_VALUE, and c is never written
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, k, b, k,
              &zero, c, m);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: the error code returned by 'cublasSgemm_v2' is not checked [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: fix-it wraps the call in 'CHECK_CUBLAS(...)', the error-checking macro learned from 3 CUDA calls of the main file (set ErrorCheckMacro to choose another)
  // CHECK-FIXES: CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, k, b, k,
  // CHECK-FIXES-NEXT: &zero, c, m));
  // The runtime's last error says nothing of the cuBLAS status.
  CUDA_CHECK(cudaGetLastError());
}

void axpyStored(cublasHandle_t handle, const float *x, float *y, int n) {
  const float alpha = 2.f;
  cublasStatus_t st = cublasSaxpy(handle, n, &alpha, x, 1, y, 1);
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: the error code returned by 'cublasSaxpy_v2' is stored in 'st' but never read [cuda-unchecked-api-call]
}

void fft(cufftHandle plan, cufftComplex *data) {
  cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cufftExecC2C' is not checked [cuda-unchecked-api-call]
}

void uniform(curandGenerator_t gen, float *d, size_t n) {
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'curandSetPseudoRandomGeneratorSeed' is not checked [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: fix-it wraps the call in 'checkCurand(...)', the error-checking function learned from 1 CUDA call of the main file (set ErrorCheckMacro to choose another)
  // CHECK-FIXES: checkCurand(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  checkCurand(curandGenerateUniform(gen, d, n));
}

void sparseStream(cusparseHandle_t handle, cudaStream_t s) {
  cusparseSetStream(handle, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cusparseSetStream' is not checked [cuda-unchecked-api-call]
}

void solverHandle() {
  cusolverDnHandle_t h;
  cusolverDnCreate(&h);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cusolverDnCreate' is not checked [cuda-unchecked-api-call]
  if (cusolverDnDestroy(h) != CUSOLVER_STATUS_SUCCESS)
    std::exit(1);
}

void runtimeStillLearnsItsOwn(float **d, size_t n) {
  cudaMalloc(d, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: fix-it wraps the call in 'CUDA_CHECK(...)', the error-checking macro learned from 2 CUDA calls of the main file (set ErrorCheckMacro to choose another)
  // CHECK-FIXES: CUDA_CHECK(cudaMalloc(d, n));
  CUDA_CHECK(cudaMemset(*d, 0, n));
}

// ---- Negatives: the status is looked at -------------------------------------

void checkedByMacro(cublasHandle_t handle, const float *x, float *y, int n) {
  const float alpha = 1.f;
  CHECK_CUBLAS(cublasSaxpy(handle, n, &alpha, x, 1, y, 1));
  CHECK_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
  CHECK_CUBLAS(cublasScopy(handle, n, x, 1, y, 1));
}

// A helper that returns the status to its caller, who tests it.
cublasStatus_t scaleInto(cublasHandle_t handle, float *y, int n, float a) {
  return cublasSscal(handle, n, &a, y, 1);
}

int callerTests(cublasHandle_t handle, float *y, int n) {
  if (scaleInto(handle, y, n, 2.f) != CUBLAS_STATUS_SUCCESS)
    return 1;
  cublasStatus_t st = scaleInto(handle, y, n, 0.5f);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}

int fftTested(cufftHandle plan, cufftComplex *data) {
  if (cufftExecC2C(plan, data, data, CUFFT_INVERSE) != CUFFT_SUCCESS)
    return -1;
  cufftResult r = cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  if (r != CUFFT_SUCCESS)
    return -1;
  return 0;
}

bool randTested(curandGenerator_t gen, double *d, size_t n) {
  curandStatus_t st = curandGenerateNormalDouble(gen, d, n, 0.0, 1.0);
  return st == CURAND_STATUS_SUCCESS;
}

void castToVoid(cusparseHandle_t handle) { (void)cusparseDestroy(handle); }

struct BlasSession {
  cublasHandle_t h;
  // A destructor cannot report the status of its release.
  ~BlasSession() { cublasDestroy(h); }
};

const char *describe(cublasStatus_t s) {
  // returns a string, no status
  return cublasGetStatusString(s);
}
