// For each query point, sums inverse-square weights over all data points,
// which the block stages tile by tile in shared memory. Threads past the
// queries take part in the staging and store nothing; the last tile is
// partial, so only the threads below its size load it.
//
// The bug: no barrier ends a tile's pass, so the threads that finish
// summing first refill the tile for the next pass while others still read
// the current one.
#include <cmath>
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

constexpr int kTile = 256;
constexpr int kData = 8000;
constexpr int kQueries = 8192;

__global__ void weightSums(const float *data, const float *queries,
                           float *sums, int ndata, int nq) {
  __shared__ float tile[kTile];
  int q = threadIdx.x + blockIdx.x * blockDim.x;
  int parts = (ndata - 1) / kTile;
  int m, e;
  float x = q < nq ? queries[q] : 0.0f;
  float acc = 0.0f;
  int lid = threadIdx.x;
  for (m = 0; m <= parts; m++) {
    int count = min(kTile, ndata - kTile * m);
    if (lid < count)
      tile[lid] = data[lid + kTile * m];
    __syncthreads();
    for (e = 0; e < count; e++) {
      float d = x - tile[e];
      acc += 1.0f / (1.0f + d * d);
    }
  }
  if (q < nq)
    sums[q] = acc;
}

int main() {
  std::vector<float> data(kData), queries(kQueries);
  for (int i = 0; i < kData; ++i)
    data[i] = (i * 37 % 1000) * 0.01f;
  for (int i = 0; i < kQueries; ++i)
    queries[i] = (i * 11 % 1000) * 0.01f;
  float *d_data = nullptr, *d_q = nullptr, *d_sums = nullptr;
  CUDA_CHECK(cudaMalloc(&d_data, kData * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_q, kQueries * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sums, kQueries * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_data, data.data(), kData * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_q, queries.data(), kQueries * sizeof(float),
                        cudaMemcpyHostToDevice));
  weightSums<<<kQueries / kTile, kTile>>>(d_data, d_q, d_sums, kData,
                                          kQueries);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> sums(kQueries);
  CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, kQueries * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_data));
  CUDA_CHECK(cudaFree(d_q));
  CUDA_CHECK(cudaFree(d_sums));

  int wrong = 0;
  for (int q = 0; q < kQueries; ++q) {
    double ref = 0.0;
    for (int i = 0; i < kData; ++i) {
      double d = queries[q] - data[i];
      ref += 1.0 / (1.0 + d * d);
    }
    if (std::fabs(sums[q] - ref) > 1e-3 * ref)
      ++wrong;
  }
  printf("%d queries, %d sums wrong\n", kQueries, wrong);
  if (wrong) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
