// RUN: %check_no_crash %s
// Control flow that stresses the per-function CFGs the checks walk: goto
// loops, switch fall-through, infinite loops, early exits, exceptions on
// the host, noreturn calls, recursion, statement expressions, barriers in
// loops, and allocations freed on every path.
#include "common.cuh"
#include <memory>
#include <stdexcept>
#include <vector>

__device__ int collatz(int x) { return x <= 1 ? 0 : 1 + collatz(x % 2 ? 3 * x + 1 : x / 2); }

__global__ void gotoLoop(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int steps = 0;
  if (i >= n)
    goto done;
again:
  if (steps < 3) {
    ++steps;
    goto again;
  }
  switch (i % 4) {
  case 0:
    steps += 10;
    [[fallthrough]];
  case 1:
    steps += collatz(i & 15);
    break;
  default:
    break;
  }
  out[i] = steps;
done:
  return;
}

__global__ void persistent(volatile int *flag, int *work, int n) {
  __shared__ int tile[256];
  while (true) {
    if (*flag)
      break;
    for (int k = threadIdx.x; k < 256; k += blockDim.x)
      tile[k] = k;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && threadIdx.x < 256)
      work[i] += tile[255 - threadIdx.x];
    __syncthreads();
  }
}

__global__ void trapping(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n <= 0)
    __trap();
  if (i < n)
    out[i] = ({ float t = in[i]; t * t; });
}

static void fail(const char *what) {
  std::fprintf(stderr, "%s\n", what);
  std::exit(2);
}

struct CudaFree {
  void operator()(float *p) const { (void)cudaFree(p); }
};

static float *allocOrThrow(size_t n) {
  float *p = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess)
    throw std::runtime_error("cudaMalloc");
  return p;
}

static int process(int n, bool early) {
  float *a = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  if (early) {
    CHECK(cudaFree(a));
    return 0;
  }
  std::unique_ptr<float, CudaFree> owned(allocOrThrow(n));
  try {
    float *b = allocOrThrow(n);
    trapping<<<(n + 255) / 256, 256>>>(a, b, n);
    CHECK_LAUNCH();
    CHECK(cudaFree(b));
  } catch (const std::exception &e) {
    CHECK(cudaFree(a));
    fail(e.what());
  }
  for (int round = 0;; ++round) {
    if (round == 2)
      break;
    if (round < 0)
      continue;
  }
  CHECK(cudaFree(a));
  return 1;
}

int main(int argc, char **) {
  const int n = 1024;
  int *out = nullptr, *flag = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&flag, sizeof(int)));
  CHECK(cudaMemset(flag, 1, sizeof(int)));
  gotoLoop<<<(n + 255) / 256, 256>>>(out, n);
  CHECK_LAUNCH();
  persistent<<<4, 256>>>(flag, out, n);
  CHECK_LAUNCH();
  std::vector<int> host(n);
  CHECK(cudaMemcpy(host.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int r = process(n, argc > 1) + process(n, argc > 2);
  CHECK(cudaFree(flag));
  CHECK(cudaFree(out));
  return r > 2;
}
