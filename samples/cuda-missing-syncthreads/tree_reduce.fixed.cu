// Sums a vector with a shared-memory tree reduction per block and adds the
// block sums on the host.
//
// The fix: a barrier between staging the elements and the first step of the
// tree.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_),    \
              __FILE__, __LINE__);                                             \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

constexpr int kThreads = 256;
constexpr int kBlocks = 2048;

// n is a whole number of blocks: every launch covers it exactly.
__global__ void blockSums(const int *in, long long *out, int n) {
  __shared__ long long partial[kThreads];
  int t = threadIdx.x;
  partial[t] = in[blockIdx.x * kThreads + t];
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s)
      partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = partial[0];
}

int main() {
  const int n = kBlocks * kThreads;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = 1 + (i * 13) % 17;
    want += h[i];
  }
  int *d_in = nullptr;
  long long *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, kBlocks * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  blockSums<<<kBlocks, kThreads>>>(d_in, d_out, kBlocks * kThreads);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> sums(kBlocks);
  CUDA_CHECK(cudaMemcpy(sums.data(), d_out, kBlocks * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  long long total = 0;
  for (long long v : sums)
    total += v;
  printf("sum %lld, expected %lld\n", total, want);
  if (total != want) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
