// cuda-invalid-free: a handle given to the destroy of another kind of object
// (a sparse matrix's descriptor to cusparseDestroyDnMat, an event to
// cudaStreamDestroy, a syevj info object to cusolverDnDestroyGesvdjInfo). In
// C++ only a cast gets it past the compiler; the Python reader's units reach
// it without one (tests in test/python/host-wrong-destroy.py). Handles of
// one object under two names (a runtime stream given to the driver's
// cuStreamDestroy, a descriptor to the destroy that takes its const form)
// and handles whose type names no object (void *, cufftHandle) are silent.
// RUN: %check_cuda_tidy_plugin %s cuda-invalid-free %t
// RUN: %check_cuda_tidy_driver %s cuda-invalid-free %t

#include <cuda.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <cusparse.h>

// ---- Positives ---------------------------------------------------------------

void sparseAsDense(cusparseSpMatDescr_t mat) {
  cusparseDestroyDnMat((cusparseDnMatDescr_t)mat);
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'mat' is a 'cusparseSpMatDescr_t', but it is destroyed with 'cusparseDestroyDnMat', which takes a 'cusparseConstDnMatDescr_t' [cuda-invalid-free]
}

void eventAsStream() {
  cudaEvent_t ev;
  if (cudaEventCreate(&ev) != cudaSuccess)
    return;
  cudaStreamDestroy((cudaStream_t)ev);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'ev' is a 'cudaEvent_t', but it is destroyed with 'cudaStreamDestroy', which takes a 'cudaStream_t' [cuda-invalid-free]
}

void syevjAsGesvdj() {
  syevjInfo_t info;
  if (cusolverDnCreateSyevjInfo(&info) != CUSOLVER_STATUS_SUCCESS)
    return;
  cusolverDnDestroyGesvdjInfo((gesvdjInfo_t)info);
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 'info' is a 'syevjInfo_t', but it is destroyed with 'cusolverDnDestroyGesvdjInfo', which takes a 'gesvdjInfo_t' [cuda-invalid-free]
}

void infoAsHandle(gesvdjInfo_t info) {
  cusolverDnDestroy((cusolverDnHandle_t)info);
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'info' is a 'gesvdjInfo_t', but it is destroyed with 'cusolverDnDestroy', which takes a 'cusolverDnHandle_t' [cuda-invalid-free]
}

// ---- Negatives ---------------------------------------------------------------

void eachItsOwn(cusparseSpMatDescr_t mat, cusparseDnMatDescr_t dn,
                cusparseDnVecDescr_t vec, cusparseConstSpMatDescr_t cmat) {
  cusparseDestroySpMat(mat);
  cusparseDestroyDnMat(dn);
  cusparseDestroyDnVec(vec);
  cusparseDestroySpMat(cmat);
}

// cudaStream_t and CUstream are one object; a cast between them is interop.
void runtimeStreamToDriver() {
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess)
    return;
  cuStreamDestroy((CUstream)s);
}

void driverEventToRuntime(CUevent ev) { cudaEventDestroy((cudaEvent_t)ev); }

// A handle kept as void * names no object: nothing to compare.
void fromVoid(void *h, void *d) {
  cusolverDnDestroy((cusolverDnHandle_t)h);
  cusparseDestroyDnMat((cusparseDnMatDescr_t)d);
}

// cuFFT's handle is an int: its type names no object.
void fftPlan(cufftHandle plan) { cufftDestroy(plan); }

void solverClean() {
  cusolverDnHandle_t h;
  syevjInfo_t syevj;
  gesvdjInfo_t gesvdj;
  if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS)
    return;
  if (cusolverDnCreateSyevjInfo(&syevj) == CUSOLVER_STATUS_SUCCESS)
    cusolverDnDestroySyevjInfo(syevj);
  if (cusolverDnCreateGesvdjInfo(&gesvdj) == CUSOLVER_STATUS_SUCCESS)
    cusolverDnDestroyGesvdjInfo(gesvdj);
  cusolverDnDestroy(h);
}
