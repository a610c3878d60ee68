// Row energies over a grid-stride loop: each pass stages a 256-float row in
// shared memory through a helper that waits at a barrier, then every thread
// sums the squares of the whole row and scales its own element by it. The
// steps are members of a class template, called through 'this->'.
// Bug: nothing waits after the sums, so a fast thread's next stage() writes
// the next row into the tile while slower threads of the block still read
// this row from it (racecheck reports the hazard; results may be wrong).
#include <cuda_runtime.h>

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

constexpr int kTile = 256;

template <typename T, int N> struct RowEnergy {
  const T *src;
  T *dst;
  int rows;

  __device__ void stage(T *tile, int row) {
    tile[threadIdx.x] = src[row * N + threadIdx.x];
    __syncthreads();
  }
  __device__ T energy(const T *tile) {
    T acc = T(0);
    for (int k = 0; k < N; ++k)
      acc += tile[k] * tile[k];
    return acc;
  }
  __device__ void store(const T *tile, T e, int row) {
    dst[row * N + threadIdx.x] = tile[threadIdx.x] / e;
  }

  __device__ void run() {
    __shared__ T tile[N];
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
      this->stage(tile, row);
      T e = this->energy(tile);
      this->store(tile, e, row);
    }
  }
};

__global__ void rowEnergyKernel(const float *src, float *dst, int rows) {
  RowEnergy<float, kTile> pass{src, dst, rows};
  pass.run();
}

int main() {
  const int rows = 4096;
  std::vector<float> h(rows * kTile), out(rows * kTile);
  for (int i = 0; i < rows * kTile; ++i)
    h[i] = 1.0f + (float)((i * 7) % 13);
  float *d_src, *d_dst;
  CHECK_CUDA(cudaMalloc(&d_src, sizeof(float) * rows * kTile));
  CHECK_CUDA(cudaMalloc(&d_dst, sizeof(float) * rows * kTile));
  CHECK_CUDA(cudaMemcpy(d_src, h.data(), sizeof(float) * rows * kTile,
                        cudaMemcpyHostToDevice));
  rowEnergyKernel<<<64, kTile>>>(d_src, d_dst, rows);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(out.data(), d_dst, sizeof(float) * rows * kTile,
                        cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_src));
  CHECK_CUDA(cudaFree(d_dst));
  int wrong = 0;
  for (int r = 0; r < rows; ++r) {
    double e = 0;
    for (int k = 0; k < kTile; ++k)
      e += (double)h[r * kTile + k] * h[r * kTile + k];
    for (int k = 0; k < kTile; ++k)
      if (std::fabs(out[r * kTile + k] - h[r * kTile + k] / e) > 1e-6 * (h[r * kTile + k] / e))
        ++wrong;
  }
  if (wrong) {
    std::printf("FAILED: %d of %d values wrong\n", wrong, rows * kTile);
    return 1;
  }
  std::printf("row energies ok\n");
  return 0;
}
