// cuda-missing-syncthreads on template kernels that this file never
// instantiates: barriers and the thread index of shared accesses rarely
// depend on the template arguments, so the pattern is analysed. A call
// that only instantiation resolves may wait at a barrier, and ends the
// interval.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

//===--- Flagged -----------------------------------------------------------===//

// A header's stencil: each thread reads its neighbour's element of a tile
// of T, which that neighbour may not have written yet.
template <typename T, int BLOCK>
__global__ void stencilNoBarrier(const T *in, T *out) {
  __shared__ T tile[BLOCK + 1];
  tile[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  out[blockIdx.x * BLOCK + threadIdx.x] = tile[threadIdx.x + 1] - tile[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: read of shared 'tile' at 'threadIdx.x + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'threadIdx.x'
}

// One thread sums what every thread wrote (racecheck's own example), in
// a kernel template of the element type.
template <typename T>
__global__ void oneThreadSums(const T *in, T *out) {
  __shared__ T partial[256];
  partial[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  if (threadIdx.x == 0) {
    T sum = T(0);
    for (int i = 0; i < 256; ++i)
      sum += partial[i];
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 'partial' at 'i' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-6]]:3: note: written here at 'threadIdx.x'
    out[blockIdx.x] = sum;
  }
}

//===--- Not flagged -------------------------------------------------------===//

template <typename T, int BLOCK>
__global__ void stencilWithBarrier(const T *in, T *out) {
  __shared__ T tile[BLOCK + 1];
  tile[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * BLOCK + threadIdx.x] = tile[threadIdx.x + 1] - tile[threadIdx.x];
}

// CUB-style block reduction in a template: warp sums written by lane 0 of
// each warp, a barrier, then the first warp reads them.
template <typename T, int BLOCK_THREADS>
__global__ void blockReduce(const T *in, T *out) {
  __shared__ T warpSums[BLOCK_THREADS / 32];
  T v = in[blockIdx.x * BLOCK_THREADS + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0)
    warpSums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < BLOCK_THREADS / 32 ? warpSums[threadIdx.x] : T(0);
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x == 0)
      out[blockIdx.x] = v;
  }
}

// The barrier is a dependent tile's sync(): resolved only at
// instantiation, it may wait, and the interval ends there.
template <typename T, int TILE>
__global__ void tileExchange(const T *in, T *out) {
  __shared__ T buf[TILE];
  cg::thread_block_tile<TILE> tile =
      cg::tiled_partition<TILE>(cg::this_thread_block());
  buf[tile.thread_rank()] = in[threadIdx.x];
  tile.sync();
  out[threadIdx.x] = buf[(tile.thread_rank() + 1) % TILE];
}

// A dependent policy's barrier: Policy::sync() may be __syncthreads().
template <typename Policy, typename T>
__global__ void policyBarrier(const T *in, T *out) {
  __shared__ T tile[256];
  tile[threadIdx.x] = in[threadIdx.x];
  Policy::sync();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// Double-buffered tiles: each iteration writes the buffer the previous one
// did not read, and waits once.
template <typename T>
__global__ void doubleBuffered(const T *in, T *out, int tiles) {
  __shared__ T buf[2][128];
  T acc = T(0);
  for (int t = 0; t < tiles; ++t) {
    buf[t & 1][threadIdx.x] = in[t * 128 + threadIdx.x];
    __syncthreads();
    acc += buf[t & 1][(threadIdx.x + 1) % 128];
  }
  out[threadIdx.x] = acc;
}
