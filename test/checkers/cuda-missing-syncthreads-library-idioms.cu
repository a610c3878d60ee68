// cuda-missing-syncthreads: correct block-level code written with CUB's
// block primitives, cooperative-groups reductions as in NVIDIA's samples,
// warp shuffles, and double-buffered tiles. No finding is expected.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
namespace cg = cooperative_groups;

#define THREADS 256

// CUB keeps its scratch in a shared TempStorage and orders it itself.
__global__ void cubSum(const int *in, int *out) {
  using Reduce = cub::BlockReduce<int, THREADS>;
  __shared__ typename Reduce::TempStorage scratch;
  __shared__ int total;
  int v = in[blockIdx.x * THREADS + threadIdx.x];
  int sum = Reduce(scratch).Sum(v);
  if (threadIdx.x == 0)
    total = sum;
  __syncthreads();
  out[blockIdx.x * THREADS + threadIdx.x] = v * total;
}

// Two CUB calls on one TempStorage, separated by the barrier CUB asks for.
__global__ void cubScanTwice(const int *in, int *out) {
  using Scan = cub::BlockScan<int, THREADS>;
  __shared__ typename Scan::TempStorage scratch;
  int v = in[threadIdx.x], first, second;
  Scan(scratch).ExclusiveSum(v, first);
  __syncthreads();
  Scan(scratch).InclusiveSum(v, second);
  out[threadIdx.x] = first + second;
}

// NVIDIA's reduce4-style reduction with cg::sync(cta) between the steps
// and a warp-level finish with shuffles.
__global__ void cgReduction(const float *in, float *out, unsigned n) {
  __shared__ float sdata[THREADS];
  cg::thread_block cta = cg::this_thread_block();
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (THREADS * 2) + threadIdx.x;
  float sum = i < n ? in[i] : 0.f;
  if (i + THREADS < n)
    sum += in[i + THREADS];
  sdata[tid] = sum;
  cg::sync(cta);
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] = sum = sum + sdata[tid + s];
    cg::sync(cta);
  }
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (blockDim.x >= 64)
      sum += sdata[tid + 32];
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2)
      sum += tile32.shfl_down(sum, offset);
  }
  if (cta.thread_rank() == 0)
    out[blockIdx.x] = sum;
}

// A per-warp partial in shared memory, written by lane 0 of each warp and
// read by the first warp after the barrier.
__global__ void warpPartials(const float *in, float *out) {
  __shared__ float partial[THREADS / 32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = in[blockIdx.x * THREADS + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < THREADS / 32 ? partial[lane] : 0.f;
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

// Double-buffered tiles: the next tile goes to the other buffer, so one
// barrier per step is enough.
__global__ void doubleBufferedTiles(const float *in, float *out, int steps) {
  __shared__ float tile[2][THREADS];
  unsigned t = threadIdx.x;
  float acc = 0.f;
  tile[0][t] = in[t];
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    int cur = s & 1, next = cur ^ 1;
    if (s + 1 < steps)
      tile[next][t] = in[(s + 1) * THREADS + t];
    acc += tile[cur][(t + 1) % THREADS];
    __syncthreads();
  }
  out[t] = acc;
}

// A scalar the leader publishes once, read by all after the barrier, and
// reset by the leader only after a second barrier.
__global__ void leaderPublishes(const int *in, int *out, int rounds) {
  __shared__ int pivot;
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0)
      pivot = in[r];
    __syncthreads();
    acc += pivot > (int)threadIdx.x;
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}
