// Degrees of the nodes of a graph in CSR form: one block per node, whose
// threads would walk the node's neighbours; thread 0 stores the degree,
// offsets[node + 1] - offsets[node]. The offsets array holds n + 1 entries.
//
// The launch rounds the grid up to a multiple of 64 blocks, and the kernel
// returns in the blocks past the last node.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "FAILED: CUDA error %s at %s:%d\n",                      \
              cudaGetErrorString(err_), __FILE__, __LINE__);                   \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

constexpr int kNodes = 1000; // not a multiple of 64
constexpr int kThreads = 128;
constexpr int kGridMultiple = 64;

__global__ void nodeDegrees(const int *offsets, int *degree, int n) {
  int node = blockIdx.x;
  if (node >= n)
    return;
  int count = offsets[node + 1] - offsets[node];
  if (threadIdx.x == 0)
    degree[node] = count;
}

int main() {
  // Node v has v % 7 + 1 neighbours.
  std::vector<int> offsets(kNodes + 1, 0);
  for (int v = 0; v < kNodes; ++v)
    offsets[v + 1] = offsets[v] + v % 7 + 1;

  int *d_offsets = nullptr, *d_degree = nullptr;
  CUDA_CHECK(cudaMalloc(&d_offsets, (kNodes + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_degree, kNodes * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_offsets, offsets.data(), (kNodes + 1) * sizeof(int),
                        cudaMemcpyHostToDevice));

  int blocks = (kNodes + kGridMultiple - 1) / kGridMultiple * kGridMultiple;
  nodeDegrees<<<blocks, kThreads>>>(d_offsets, d_degree, kNodes);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<int> degree(kNodes);
  CUDA_CHECK(cudaMemcpy(degree.data(), d_degree, kNodes * sizeof(int),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_offsets));
  CUDA_CHECK(cudaFree(d_degree));

  int wrong = 0;
  for (int v = 0; v < kNodes; ++v)
    if (degree[v] != v % 7 + 1)
      ++wrong;
  if (wrong) {
    printf("FAILED: %d of %d degrees wrong\n", wrong, kNodes);
    return EXIT_FAILURE;
  }
  printf("PASSED: %d degrees\n", kNodes);
  return EXIT_SUCCESS;
}
