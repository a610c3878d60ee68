// cuda-invalid-free: cuSOLVER's handles and parameter and info objects are
// released by their destroy (CUDA_RESOURCE destroy rows) as a cuBLAS handle
// is: a second destroy on every path, or a cuSOLVER call given the destroyed
// handle, is reported. nvrtcDestroyProgram takes the program's address and
// sets it to null, so a second one fails with a status and frees nothing
// twice: not reported; but an NVRTC call given the program after it
// (nvrtcGetPTX, nvrtcGetProgramLog) fails with NVRTC_ERROR_INVALID_PROGRAM
// and fills nothing: reported as a use after its destroy.
// RUN: %check_cuda_tidy_plugin %s cuda-invalid-free %t
// RUN: %check_cuda_tidy_driver %s cuda-invalid-free %t

#include <cstdlib>
#include <cusolverDn.h>
#include <nvrtc.h>

#define CHECK_NVRTC(call)                                                      \
  do {                                                                         \
    if ((call) != NVRTC_SUCCESS)                                               \
      exit(1);                                                                 \
  } while (0)

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

// The PTX's size asked for after the program's destroy: the call fails and
// `size` stays 0.
size_t ptxAfterDestroy(const char *src) {
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr) !=
      NVRTC_SUCCESS)
    return 0;
  nvrtcResult st = nvrtcCompileProgram(prog, 0, nullptr);
  nvrtcDestroyProgram(&prog);
  size_t size = 0;
  if (st == NVRTC_SUCCESS && nvrtcGetPTXSize(prog, &size) != NVRTC_SUCCESS)
    // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'prog' is passed to 'nvrtcGetPTXSize' after it was destroyed [cuda-invalid-free]
    return 0;
  return size;
}

// The log of a failed compile read after the cleanup destroyed the program.
void logAfterDestroy(const char *src, char *log) {
  nvrtcProgram prog;
  CHECK_NVRTC(nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr));
  nvrtcResult st = nvrtcCompileProgram(prog, 0, nullptr);
  CHECK_NVRTC(nvrtcDestroyProgram(&prog));
  if (st != NVRTC_SUCCESS) {
    CHECK_NVRTC(nvrtcGetProgramLog(prog, log));
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'prog' is passed to 'nvrtcGetProgramLog' after it was destroyed [cuda-invalid-free]
    exit(1);
  }
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

// The log is read before the program is destroyed, on every path.
bool logBeforeDestroy(const char *src, char *log) {
  nvrtcProgram prog;
  CHECK_NVRTC(nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr));
  nvrtcResult st = nvrtcCompileProgram(prog, 0, nullptr);
  if (st != NVRTC_SUCCESS) {
    CHECK_NVRTC(nvrtcGetProgramLog(prog, log));
    CHECK_NVRTC(nvrtcDestroyProgram(&prog));
    return false;
  }
  size_t size;
  CHECK_NVRTC(nvrtcGetPTXSize(prog, &size));
  CHECK_NVRTC(nvrtcDestroyProgram(&prog));
  return true;
}

// Destroyed on the failure path only; the success path goes on with it.
bool destroyOnFailure(const char *src, char *ptx) {
  nvrtcProgram prog;
  CHECK_NVRTC(nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr));
  if (nvrtcCompileProgram(prog, 0, nullptr) != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&prog);
    return false;
  }
  CHECK_NVRTC(nvrtcGetPTX(prog, ptx));
  CHECK_NVRTC(nvrtcDestroyProgram(&prog));
  return true;
}

// One program variable for two compiles: created again after its destroy.
void twoPrograms(const char *a, const char *b, char *ptx) {
  nvrtcProgram prog;
  CHECK_NVRTC(nvrtcCreateProgram(&prog, a, "a.cu", 0, nullptr, nullptr));
  CHECK_NVRTC(nvrtcCompileProgram(prog, 0, nullptr));
  CHECK_NVRTC(nvrtcDestroyProgram(&prog));
  CHECK_NVRTC(nvrtcCreateProgram(&prog, b, "b.cu", 0, nullptr, nullptr));
  CHECK_NVRTC(nvrtcCompileProgram(prog, 0, nullptr));
  CHECK_NVRTC(nvrtcGetPTX(prog, ptx));
  CHECK_NVRTC(nvrtcDestroyProgram(&prog));
}

// Programs kept in an array, each destroyed once after its own use.
void programArray(const char *const *srcs, char **ptx, int n) {
  nvrtcProgram progs[4];
  for (int i = 0; i < n && i < 4; ++i) {
    CHECK_NVRTC(nvrtcCreateProgram(&progs[i], srcs[i], "k.cu", 0, nullptr,
                                   nullptr));
    CHECK_NVRTC(nvrtcCompileProgram(progs[i], 0, nullptr));
    CHECK_NVRTC(nvrtcGetPTX(progs[i], ptx[i]));
    CHECK_NVRTC(nvrtcDestroyProgram(&progs[i]));
  }
}

// The program's pointer tested after its destroy (it is null): no call.
bool destroyedIsNull(const char *src) {
  nvrtcProgram prog;
  CHECK_NVRTC(nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr));
  CHECK_NVRTC(nvrtcDestroyProgram(&prog));
  return prog == nullptr;
}
