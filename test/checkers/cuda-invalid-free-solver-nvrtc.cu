// cuda-invalid-free: cuSOLVER's handles and parameter and info objects are
// released by their destroy (CUDA_RESOURCE destroy rows) as a cuBLAS handle
// is: a second destroy on every path, or a cuSOLVER call given the destroyed
// handle, is reported. nvrtcDestroyProgram takes the program's address and
// sets it to null, so a second one fails with a status and frees nothing
// twice: not reported.
// RUN: %check_cuda_tidy_plugin %s cuda-invalid-free %t
// RUN: %check_cuda_tidy_driver %s cuda-invalid-free %t

#include <cstdlib>
#include <cusolverDn.h>
#include <nvrtc.h>

#define CHECK_SOLVER(call)                                                     \
  do {                                                                         \
    if ((call) != CUSOLVER_STATUS_SUCCESS)                                     \
      exit(1);                                                                 \
  } while (0)

// ---- Positives ---------------------------------------------------------------

int destroyTwice(double *d_a, int n, int *lwork) {
  cusolverDnHandle_t h;
  CHECK_SOLVER(cusolverDnCreate(&h));
  cusolverStatus_t st = cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER,
                                                    n, d_a, n, lwork);
  cusolverDnDestroy(h);
  if (st != CUSOLVER_STATUS_SUCCESS) {
    cusolverDnDestroy(h);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'h' is destroyed twice: it was already destroyed on every path to this 'cusolverDnDestroy' [cuda-invalid-free]
    return 1;
  }
  return 0;
}

void infoTwice() {
  gesvdjInfo_t info;
  CHECK_SOLVER(cusolverDnCreateGesvdjInfo(&info));
  cusolverDnDestroyGesvdjInfo(info);
  cusolverDnDestroyGesvdjInfo(info);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'info' is destroyed twice: it was already destroyed on every path to this 'cusolverDnDestroyGesvdjInfo' [cuda-invalid-free]
}

void useAfterDestroy(double *d_a, int n, int *lwork) {
  cusolverDnHandle_t h;
  CHECK_SOLVER(cusolverDnCreate(&h));
  CHECK_SOLVER(cusolverDnDestroy(h));
  CHECK_SOLVER(cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, d_a,
                                           n, lwork));
  // CHECK-MESSAGES: :[[@LINE-2]]:44: warning: 'h' is passed to 'cusolverDnDpotrf_bufferSize' after it was destroyed [cuda-invalid-free]
}

void paramsTwice() {
  cusolverDnParams_t p;
  CHECK_SOLVER(cusolverDnCreateParams(&p));
  cusolverDnDestroyParams(p);
  cusolverDnDestroyParams(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'p' is destroyed twice: it was already destroyed on every path to this 'cusolverDnDestroyParams' [cuda-invalid-free]
}

// ---- Negatives ---------------------------------------------------------------

void onePathEach(bool fail) {
  cusolverDnHandle_t h;
  CHECK_SOLVER(cusolverDnCreate(&h));
  if (fail) {
    cusolverDnDestroy(h);
    return;
  }
  cusolverDnDestroy(h);
}

void syevjClean() {
  syevjInfo_t info;
  CHECK_SOLVER(cusolverDnCreateSyevjInfo(&info));
  cusolverDnXsyevjSetMaxSweeps(info, 50);
  cusolverDnDestroySyevjInfo(info);
}

void recreated() {
  cusolverDnHandle_t h;
  cusolverDnCreate(&h);
  cusolverDnDestroy(h);
  cusolverDnCreate(&h);
  cusolverDnDestroy(h);
}

// nvrtcDestroyProgram nulls the program: a second one is an error status.
void programTwice(const char *src) {
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr) !=
      NVRTC_SUCCESS)
    return;
  nvrtcCompileProgram(prog, 0, nullptr);
  nvrtcDestroyProgram(&prog);
  nvrtcDestroyProgram(&prog);
}
