// Per-block partial sums of a long vector, then the total on the host: each
// block stages its elements in shared memory and thread 0 adds them up.
//
// The fix: threads past the end of the vector stage a zero and reach the
// barrier like the others.
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
constexpr int kElements = 1000077; // not a multiple of kThreads

__global__ void blockSums(const int *in, long long *out, int n) {
  __shared__ int staged[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  staged[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long sum = 0;
    for (int j = 0; j < kThreads; ++j)
      sum += staged[j];
    out[blockIdx.x] = sum;
  }
}

int main() {
  const int blocks = (kElements + kThreads - 1) / kThreads;
  std::vector<int> h(kElements);
  long long want = 0;
  for (int i = 0; i < kElements; ++i) {
    h[i] = 1 + i % 9;
    want += h[i];
  }
  int *d_in = nullptr;
  long long *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, kElements * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, blocks * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), kElements * sizeof(int),
                        cudaMemcpyHostToDevice));
  blockSums<<<blocks, kThreads>>>(d_in, d_out, kElements);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> partial(blocks);
  CUDA_CHECK(cudaMemcpy(partial.data(), d_out, blocks * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  long long total = 0;
  for (long long p : partial)
    total += p;
  printf("sum of %d elements: %lld (expected %lld)\n", kElements, total, want);
  if (total != want) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
