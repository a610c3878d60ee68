// One relaxation step of a shortest-path search: every edge (u, v) offers
// v the distance dist[u] + w, and each vertex keeps the smallest offer. The
// graph has 65536 target vertices with 32 incoming edges each; the host
// computes the same minimum and compares.
//
// The bug: the minimum is kept with a plain compare and store,
// 'if (d < best[v]) best[v] = d'. Threads whose edges share a target read
// the same old distance, all pass the comparison, and the last store wins:
// the smallest offer is lost whenever another thread stores after it. The
// fix is atomicMin, which compares and stores as one indivisible step.
#include <climits>
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

constexpr int kTargets = 65536;  // vertices that receive offers
constexpr int kInDegree = 32;    // incoming edges per target
constexpr int kEdges = kTargets * kInDegree;
constexpr int kSources = 4096;   // vertices whose distances are known
constexpr int kThreads = 256;

__global__ void relaxEdges(const int *src, const int *dst, const int *weight,
                           const int *dist, int *best, int edges) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edges)
    return;
  int v = dst[e];
  int d = dist[src[e]] + weight[e];
  if (d < best[v])
    best[v] = d;
}

int main() {
  // Edge e goes from source (e * 13) % kSources to target e / kInDegree;
  // the offers of one target differ, and the smallest sits at a different
  // edge for each target.
  std::vector<int> src(kEdges), dst(kEdges), weight(kEdges), dist(kSources);
  for (int s = 0; s < kSources; ++s)
    dist[s] = (s * 37) % 101;
  for (int e = 0; e < kEdges; ++e) {
    src[e] = (e * 13) % kSources;
    dst[e] = e / kInDegree;
    weight[e] = 1 + ((e * 29 + dst[e] * 7) % kInDegree) * 8;
  }

  int *d_src = nullptr, *d_dst = nullptr, *d_weight = nullptr;
  int *d_dist = nullptr, *d_best = nullptr;
  CUDA_CHECK(cudaMalloc(&d_src, kEdges * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_dst, kEdges * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_weight, kEdges * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_dist, kSources * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_best, kTargets * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_src, src.data(), kEdges * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_dst, dst.data(), kEdges * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_weight, weight.data(), kEdges * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_dist, dist.data(), kSources * sizeof(int),
                        cudaMemcpyHostToDevice));
  std::vector<int> unreached(kTargets, INT_MAX);
  CUDA_CHECK(cudaMemcpy(d_best, unreached.data(), kTargets * sizeof(int),
                        cudaMemcpyHostToDevice));

  int blocks = (kEdges + kThreads - 1) / kThreads;
  relaxEdges<<<blocks, kThreads>>>(d_src, d_dst, d_weight, d_dist, d_best,
                                   kEdges);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<int> best(kTargets);
  CUDA_CHECK(cudaMemcpy(best.data(), d_best, kTargets * sizeof(int),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_src));
  CUDA_CHECK(cudaFree(d_dst));
  CUDA_CHECK(cudaFree(d_weight));
  CUDA_CHECK(cudaFree(d_dist));
  CUDA_CHECK(cudaFree(d_best));

  std::vector<int> want(kTargets, INT_MAX);
  for (int e = 0; e < kEdges; ++e) {
    int d = dist[src[e]] + weight[e];
    if (d < want[dst[e]])
      want[dst[e]] = d;
  }
  int wrong = 0;
  for (int v = 0; v < kTargets; ++v)
    if (best[v] != want[v])
      ++wrong;
  if (wrong) {
    printf("FAILED: %d of %d shortest offers lost\n", wrong, kTargets);
    return EXIT_FAILURE;
  }
  printf("PASSED: %d targets relaxed\n", kTargets);
  return EXIT_SUCCESS;
}
