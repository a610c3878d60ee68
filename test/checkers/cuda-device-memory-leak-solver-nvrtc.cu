// cuda-device-memory-leak: cuSOLVER's handles and its parameter and info
// objects (cusolverDnCreate, cusolverDnCreateParams, cusolverDnCreateSyevjInfo,
// cusolverDnCreateGesvdjInfo) and NVRTC programs (nvrtcCreateProgram, whose
// destroy takes the program's address) are library handles (LibraryHandles,
// on by default): made and not destroyed on some path is a leak.
// RUN: %check_cuda_tidy_plugin %s cuda-device-memory-leak %t
// RUN: %check_cuda_tidy_driver %s cuda-device-memory-leak %t
// RUN: %check_cuda_tidy_driver --check-suffix=OFF %s cuda-device-memory-leak %t -- -config="{CheckOptions: {cuda-device-memory-leak.CheckedResources: 'Streams;Events'}}"

#include <cstdlib>
#include <cusolverDn.h>
#include <nvrtc.h>

int factor(cusolverDnHandle_t h, double *a, int n, int *info);

// ---- Positives ---------------------------------------------------------------

// An early return on a failed query skips the destroy.
int solve(double *d_a, int n, int *lwork) {
  cusolverDnHandle_t handle;
  if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS)
    return -1;
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: cuSOLVER handle allocated into 'handle' by 'cusolverDnCreate' is not destroyed on every path [cuda-device-memory-leak]
  if (cusolverDnDpotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, n, d_a, n,
                                  lwork) != CUSOLVER_STATUS_SUCCESS)
    return -2;
  cusolverDnDestroy(handle);
  return 0;
}

// The parameter object of the 64-bit API, never destroyed.
void params64(cusolverDnHandle_t h) {
  cusolverDnParams_t params;
  if (cusolverDnCreateParams(&params) != CUSOLVER_STATUS_SUCCESS)
    return;
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: cuSOLVER parameter object allocated into 'params' by 'cusolverDnCreateParams' is not destroyed on every path [cuda-device-memory-leak]
  cusolverDnSetAdvOptions(params, CUSOLVERDN_GETRF, CUSOLVER_ALG_0);
}

// The Jacobi eigensolver's info object, left on the error path.
int eigen(cusolverDnHandle_t h, double *d_a, double *d_w, int n, double *work,
          int lwork, int *d_info) {
  syevjInfo_t params;
  if (cusolverDnCreateSyevjInfo(&params) != CUSOLVER_STATUS_SUCCESS)
    return -1;
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: cuSOLVER info object allocated into 'params' by 'cusolverDnCreateSyevjInfo' is not destroyed on every path [cuda-device-memory-leak]
  if (cusolverDnDsyevj(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n,
                       d_a, n, d_w, work, lwork, d_info,
                       params) != CUSOLVER_STATUS_SUCCESS)
    return -2;
  cusolverDnDestroySyevjInfo(params);
  return 0;
}

// An NVRTC program left behind when the compile fails.
const char *compile(const char *src) {
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr) !=
      NVRTC_SUCCESS)
    return nullptr;
  // CHECK-MESSAGES: :[[@LINE-3]]:7: warning: NVRTC program allocated into 'prog' by 'nvrtcCreateProgram' is not destroyed on every path [cuda-device-memory-leak]
  if (nvrtcCompileProgram(prog, 0, nullptr) != NVRTC_SUCCESS)
    return nullptr;
  size_t n = 0;
  nvrtcGetPTXSize(prog, &n);
  char *ptx = static_cast<char *>(malloc(n));
  nvrtcGetPTX(prog, ptx);
  nvrtcDestroyProgram(&prog);
  return ptx;
}

// ---- Negatives ---------------------------------------------------------------

// Destroyed on every path.
int solveClean(double *d_a, int n, int *lwork) {
  cusolverDnHandle_t handle;
  if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS)
    return -1;
  cusolverStatus_t st = cusolverDnDpotrf_bufferSize(
      handle, CUBLAS_FILL_MODE_LOWER, n, d_a, n, lwork);
  cusolverDnDestroy(handle);
  return st == CUSOLVER_STATUS_SUCCESS ? 0 : -2;
}

// Handed to a function of another file, which may keep it: not a leak here.
int handedOff(double *d_a, int n, int *d_info) {
  cusolverDnHandle_t handle;
  if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS)
    return -1;
  return factor(handle, d_a, n, d_info);
}

// The SVD's info object, destroyed after use.
void svd(cusolverDnHandle_t h) {
  gesvdjInfo_t info;
  if (cusolverDnCreateGesvdjInfo(&info) != CUSOLVER_STATUS_SUCCESS)
    return;
  cusolverDnXgesvdjSetTolerance(info, 1e-7);
  cusolverDnDestroyGesvdjInfo(info);
}

void paramsClean() {
  cusolverDnParams_t params;
  if (cusolverDnCreateParams(&params) != CUSOLVER_STATUS_SUCCESS)
    return;
  cusolverDnDestroyParams(params);
}

// The program destroyed through its address on both paths.
bool compileClean(const char *src, char *ptx) {
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr) !=
      NVRTC_SUCCESS)
    return false;
  nvrtcResult r = nvrtcCompileProgram(prog, 0, nullptr);
  if (r == NVRTC_SUCCESS)
    nvrtcGetPTX(prog, ptx);
  nvrtcDestroyProgram(&prog);
  return r == NVRTC_SUCCESS;
}

// A handle returned to the caller is the caller's.
cusolverDnHandle_t makeHandle() {
  cusolverDnHandle_t h = nullptr;
  cusolverDnCreate(&h);
  return h;
}

// A handle kept in a structure the caller owns.
struct Solver {
  cusolverDnHandle_t h;
  syevjInfo_t info;
};
void init(Solver *s) {
  cusolverDnCreate(&s->h);
  cusolverDnCreateSyevjInfo(&s->info);
}
