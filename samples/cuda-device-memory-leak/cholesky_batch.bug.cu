// Solves A x = b for a batch of small symmetric systems with cuSOLVER's
// Cholesky factorization, one solver handle per system; a matrix that is not
// positive definite is reported and skipped.
// Bug: choleskySolve returns when the factorization fails before destroying
// the cuSOLVER handle, so every skipped system keeps a handle and what the
// library allocated for it (about 96 MiB of device memory and 80 KiB of
// host memory each, on an H100). The oracle: after a warm-up batch, two
// more batches grow the process's resident memory by more than 2 MiB.
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_)); \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)
#define CHECK_SOLVER(call)                                                     \
  do {                                                                         \
    cusolverStatus_t err_ = (call);                                            \
    if (err_ != CUSOLVER_STATUS_SUCCESS) {                                     \
      std::fprintf(stderr, "%s failed: %d\n", #call, (int)err_);              \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

constexpr int kN = 64;

static long residentKiB() {
  long pages = 0, resident = 0;
  FILE *f = std::fopen("/proc/self/statm", "r");
  if (!f || std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
    std::exit(2);
  std::fclose(f);
  return resident * 4;
}

static size_t freeDeviceBytes() {
  size_t free = 0, total = 0;
  CHECK_CUDA(cudaMemGetInfo(&free, &total));
  return free;
}

// Solves in place: d_b becomes x. False when A is not positive definite.
static bool choleskySolve(double *d_a, double *d_b, int *d_info) {
  cusolverDnHandle_t handle;
  CHECK_SOLVER(cusolverDnCreate(&handle));
  int lwork = 0;
  CHECK_SOLVER(cusolverDnDpotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, kN,
                                           d_a, kN, &lwork));
  double *d_work = nullptr;
  CHECK_CUDA(cudaMalloc(&d_work, sizeof(double) * lwork));
  CHECK_SOLVER(cusolverDnDpotrf(handle, CUBLAS_FILL_MODE_LOWER, kN, d_a, kN,
                                d_work, lwork, d_info));
  int info = 0;
  CHECK_CUDA(cudaMemcpy(&info, d_info, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_work));
  if (info != 0)
    return false;
  CHECK_SOLVER(cusolverDnDpotrs(handle, CUBLAS_FILL_MODE_LOWER, kN, 1, d_a, kN,
                                d_b, kN, d_info));
  CHECK_SOLVER(cusolverDnDestroy(handle));
  return true;
}

// Solves 64 systems, every other one indefinite; returns how many solutions
// were wrong.
static int runBatch(double *d_a, double *d_b, int *d_info) {
  int wrong = 0;
  std::vector<double> a(kN * kN), b(kN), x(kN);
  for (int s = 0; s < 64; ++s) {
    // A = diag(d) + 1, with d = kN + s (positive definite) or -1 on the
    // first diagonal entry of every other system (indefinite).
    for (int i = 0; i < kN; ++i)
      for (int j = 0; j < kN; ++j)
        a[i * kN + j] = 1.0 + (i == j ? kN + s : 0);
    if (s % 2)
      a[0] = -1.0;
    for (int i = 0; i < kN; ++i)
      b[i] = 1.0;
    CHECK_CUDA(cudaMemcpy(d_a, a.data(), sizeof(double) * kN * kN,
                          cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_b, b.data(), sizeof(double) * kN,
                          cudaMemcpyHostToDevice));
    if (!choleskySolve(d_a, d_b, d_info))
      continue;
    CHECK_CUDA(cudaMemcpy(x.data(), d_b, sizeof(double) * kN,
                          cudaMemcpyDeviceToHost));
    // (dI + 11^T) x = 1 gives x_i = 1 / (d + kN).
    for (int i = 0; i < kN; ++i)
      if (std::fabs(x[i] - 1.0 / (kN + s + kN)) > 1e-12)
        ++wrong;
  }
  return wrong;
}

int main() {
  double *d_a, *d_b;
  int *d_info;
  CHECK_CUDA(cudaMalloc(&d_a, sizeof(double) * kN * kN));
  CHECK_CUDA(cudaMalloc(&d_b, sizeof(double) * kN));
  CHECK_CUDA(cudaMalloc(&d_info, sizeof(int)));
  int wrong = runBatch(d_a, d_b, d_info); // warm-up
  size_t freeBefore = freeDeviceBytes();
  long residentBefore = residentKiB();
  for (int round = 0; round < 2; ++round)
    wrong += runBatch(d_a, d_b, d_info);
  double lostMiB = ((double)freeBefore - (double)freeDeviceBytes()) / (1 << 20);
  long grownMiB = (residentKiB() - residentBefore) / 1024;
  CHECK_CUDA(cudaFree(d_a));
  CHECK_CUDA(cudaFree(d_b));
  CHECK_CUDA(cudaFree(d_info));
  if (wrong) {
    std::printf("FAILED: %d wrong solutions\n", wrong);
    return 1;
  }
  // Decided by resident memory, which is this process's own: the device's
  // free memory also moves with other processes on the GPU (sanitizer runs
  // of other programs beside this one).
  if (grownMiB > 2) {
    std::printf("FAILED: two batches lost %.0f MiB of device memory and grew "
                "resident memory by %ld MiB\n", lostMiB, grownMiB);
    return 1;
  }
  std::printf("all solutions ok; device memory lost %.0f MiB, resident memory "
              "grew by %ld MiB\n", lostMiB, grownMiB);
  return 0;
}
