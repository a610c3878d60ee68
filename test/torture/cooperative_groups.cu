// RUN: %check_no_crash %s
// Cooperative groups: block and tile groups, their barriers and reductions,
// coalesced groups, grid-wide sync through cudaLaunchCooperativeKernel.
#include "common.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void blockReduce(const float *in, float *out, int n) {
  extern __shared__ float tmp[];
  cg::thread_block block = cg::this_thread_block();
  unsigned t = block.thread_rank();
  unsigned i = blockIdx.x * block.size() + t;
  tmp[t] = i < n ? in[i] : 0.0f;
  block.sync();
  for (unsigned s = block.size() / 2; s > 0; s >>= 1) {
    if (t < s)
      tmp[t] += tmp[t + s];
    cg::sync(block);
  }
  if (t == 0)
    out[blockIdx.x] = tmp[0];
}

__global__ void tileReduce(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int s = cg::reduce(warp, v, cg::plus<int>());
  for (int off = warp.size() / 2; off > 0; off /= 2)
    v += warp.shfl_down(v, off);
  if (warp.thread_rank() == 0)
    atomicAdd(out, s + v * 0);
  if (i < n && in[i] > 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    if (active.thread_rank() == 0)
      atomicAdd(out + 1, int(active.size()));
  }
}

__global__ void gridSum(const float *in, float *partial, float *total, int n) {
  cg::grid_group grid = cg::this_grid();
  float s = 0;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
       i += grid.size())
    s += in[i];
  atomicAdd(&partial[blockIdx.x], s);
  grid.sync();
  if (grid.thread_rank() == 0) {
    float t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      t += partial[b];
    *total = t;
  }
}

int main() {
  const int n = 1 << 16, threads = 256, blocks = (n + threads - 1) / threads;
  float *in = nullptr, *out = nullptr, *total = nullptr;
  int *iin = nullptr, *iout = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, blocks * sizeof(float)));
  CHECK(cudaMalloc(&total, sizeof(float)));
  CHECK(cudaMalloc(&iin, n * sizeof(int)));
  CHECK(cudaMalloc(&iout, 2 * sizeof(int)));
  CHECK(cudaMemset(in, 0, n * sizeof(float)));
  CHECK(cudaMemset(iin, 0, n * sizeof(int)));
  CHECK(cudaMemset(iout, 0, 2 * sizeof(int)));
  blockReduce<<<blocks, threads, threads * sizeof(float)>>>(in, out, n);
  CHECK_LAUNCH();
  tileReduce<<<blocks, threads>>>(iin, iout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemset(out, 0, blocks * sizeof(float)));
  int nn = n;
  void *args[] = {&in, &out, &total, &nn};
  CHECK(cudaLaunchCooperativeKernel((void *)gridSum, dim3(blocks), dim3(threads),
                                    args, 0, nullptr));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(total));
  CHECK(cudaFree(iin));
  CHECK(cudaFree(iout));
  return 0;
}
