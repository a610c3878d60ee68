// A bf16 matrix-vector product with cooperative groups, cache-global stores
// (__stcg) of bf16 results, and a write-back store of the fp32 copy.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void gemv_bf16(__nv_bfloat16 *y, float *y32, const __nv_bfloat16 *A,
                          const __nv_bfloat16 *x, int rows, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * (blockDim.x / 32) + warp.meta_group_rank();
  if (row >= rows)
    return;
  float acc = 0.0f;
  for (int c = warp.thread_rank(); c < cols; c += 32)
    acc += __bfloat162float(A[(size_t)row * cols + c]) * __bfloat162float(x[c]);
  acc = cg::reduce(warp, acc, cg::plus<float>());
  if (warp.thread_rank() == 0) {
    __stcg(y + row, __float2bfloat16(acc));
    __stwb(y32 + row, acc);
  }
}

cudaError_t gemv(__nv_bfloat16 *y, float *y32, const __nv_bfloat16 *A,
                 const __nv_bfloat16 *x, int rows, int cols, cudaStream_t s) {
  int per_block = 256 / 32;
  gemv_bf16<<<(rows + per_block - 1) / per_block, 256, 0, s>>>(y, y32, A, x,
                                                               rows, cols);
  return cudaGetLastError();
}
