// Conjugate-gradient building blocks in the style of the cuda-samples
// conjugateGradientMultiBlockCG: CSR sparse matrix-vector product, axpy and a
// dot product with cooperative groups (grid-stride loops, tile reductions).
// Everything is guarded except the scaling kernel, which the author assumed
// would always be launched with n a multiple of the block size.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void spmvCsr(int rows, const int *rowPtr, const int *cols,
                        const float *vals, const float *x, float *y) {
  cg::grid_group grid = cg::this_grid();
  for (int row = grid.thread_rank(); row < rows; row += grid.size()) {
    float acc = 0.0f;
    for (int k = rowPtr[row]; k < rowPtr[row + 1]; ++k)
      acc += vals[k] * x[cols[k]];
    y[row] = acc;
  }
}

__global__ void axpy(float a, const float *x, float *y, int n) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
    y[i] += a * x[i];
}

__device__ float warpSum(cg::thread_block_tile<32> tile, float v) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  return v;
}

__global__ void dot(const float *a, const float *b, float *result, int n) {
  __shared__ float warpSums[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += a[i] * b[i];
  v = warpSum(tile, v);
  if (tile.thread_rank() == 0)
    warpSums[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    v = tile.thread_rank() < block.size() / 32 ? warpSums[tile.thread_rank()]
                                                : 0.0f;
    v = warpSum(tile, v);
    if (tile.thread_rank() == 0)
      atomicAdd(result, v);
  }
}

__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] *= s;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'x' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

int main() {
  const int n = 1000; // tridiagonal n x n
  std::vector<int> rowPtr(n + 1), cols;
  std::vector<float> vals;
  for (int r = 0; r < n; ++r) {
    rowPtr[r] = (int)cols.size();
    for (int c = r - 1; c <= r + 1; ++c)
      if (c >= 0 && c < n) {
        cols.push_back(c);
        vals.push_back(c == r ? 2.0f : -1.0f);
      }
  }
  rowPtr[n] = (int)cols.size();
  int *dRowPtr, *dCols;
  float *dVals, *dX, *dY, *dDot;
  checkCudaErrors(cudaMalloc(&dRowPtr, (n + 1) * sizeof(int)));
  checkCudaErrors(cudaMalloc(&dCols, cols.size() * sizeof(int)));
  checkCudaErrors(cudaMalloc(&dVals, vals.size() * sizeof(float)));
  checkCudaErrors(cudaMalloc(&dX, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&dY, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&dDot, sizeof(float)));
  checkCudaErrors(cudaMemcpy(dRowPtr, rowPtr.data(), (n + 1) * sizeof(int),
                             cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(dCols, cols.data(), cols.size() * sizeof(int),
                             cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(dVals, vals.data(), vals.size() * sizeof(float),
                             cudaMemcpyHostToDevice));
  std::vector<float> ones(n, 1.0f);
  checkCudaErrors(cudaMemcpy(dX, ones.data(), n * sizeof(float),
                             cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(dDot, 0, sizeof(float)));

  const int threads = 256, blocks = (n + threads - 1) / threads;
  spmvCsr<<<blocks, threads>>>(n, dRowPtr, dCols, dVals, dX, dY);
  getLastCudaError("spmv");
  axpy<<<blocks, threads>>>(0.5f, dX, dY, n);
  getLastCudaError("axpy");
  scale<<<blocks, threads>>>(dY, 2.0f, n);
  getLastCudaError("scale");
  dot<<<blocks, threads>>>(dY, dX, dDot, n);
  getLastCudaError("dot");

  float result = 0.0f;
  checkCudaErrors(cudaMemcpy(&result, dDot, sizeof(float),
                             cudaMemcpyDeviceToHost));
  printf("dot = %f\n", result);
  checkCudaErrors(cudaFree(dRowPtr));
  checkCudaErrors(cudaFree(dCols));
  checkCudaErrors(cudaFree(dVals));
  checkCudaErrors(cudaFree(dX));
  checkCudaErrors(cudaFree(dY));
  checkCudaErrors(cudaFree(dDot));
  return 0;
}
