// cuda-missing-syncthreads: correct code once reported on the corpora
// (docs/precision.md): a cooperative-groups tile's barrier orders the
// lanes of its tile, and a slot no thread owns under the only launch. No
// finding is expected.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define LANES 32
#define WIDTH 128

// A tile-ordered reduction: reader and writer are lanes of one 32-thread
// tile (the reading lane is below step <= 16, the lane it reads is step
// further), and the tile's barrier orders every step.
__global__ void tileOrderedSum(const double *in, double *out) {
  __shared__ double part[WIDTH];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<LANES> tile = cg::tiled_partition<LANES>(block);
  double mine = in[block.group_index().x * WIDTH + block.thread_rank()];
  part[block.thread_rank()] = mine;
  cg::sync(block);
  for (int step = tile.size() / 2; step > 0; step >>= 1) {
    if (tile.thread_rank() < step) {
      mine += part[block.thread_rank() + step];
      part[block.thread_rank()] = mine;
    }
    cg::sync(tile);
  }
  if (tile.thread_rank() == 0)
    out[block.thread_rank() / LANES] = mine;
}

// A slot no thread owns: the only launch runs exactly WIDTH threads, so
// no thread writes stage[t + WIDTH] while t reads it.
__global__ void shiftStages(unsigned *data, int rounds) {
  __shared__ unsigned stage[2 * WIDTH];
  unsigned t = threadIdx.x;
  stage[t + WIDTH] = data[t];
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    stage[t] = stage[t + WIDTH];
    stage[t + WIDTH] = stage[t] * 3u + 1u;
    __syncthreads();
  }
  data[t] = stage[t];
}

void runStages(unsigned *data, int rounds) {
  shiftStages<<<1, WIDTH>>>(data, rounds);
}

// The same reduction ordered by the tile's member barrier.
__global__ void tileMemberSync(const float *in, float *out) {
  __shared__ float part[WIDTH];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<LANES> tile = cg::tiled_partition<LANES>(block);
  float mine = in[block.thread_rank()];
  part[block.thread_rank()] = mine;
  block.sync();
  for (int step = LANES / 2; step > 0; step /= 2) {
    if (tile.thread_rank() < step)
      part[block.thread_rank()] = mine += part[block.thread_rank() + step];
    tile.sync();
  }
  if (block.thread_rank() == 0)
    *out = part[0];
}

// A constant slot past the block: 'scratch[WIDTH]' is a spill slot no
// thread's own element overlaps.
__global__ void spillPastBlock(float *data) {
  __shared__ float scratch[WIDTH + 1];
  unsigned t = threadIdx.x;
  scratch[t] = data[t];
  float edge = scratch[WIDTH];
  data[t] = scratch[t] + edge;
}

void runPastBlock(float *data) { spillPastBlock<<<4, WIDTH>>>(data); }

// A tile-ordered reduction in a helper that gets the block and the tile by
// reference (NVIDIA's MonteCarlo sample): the lane bound 'tile.thread_rank()
// < i' keeps the thread that owns 'sum[tid + i]' out of the guarded step.
template <class T>
__device__ void tileSum(T *sum, cg::thread_block &cta,
                        cg::thread_block_tile<LANES> &tile, T *out) {
  const int tid = cta.thread_rank();
  T beta = sum[tid];
  for (int i = LANES / 2; i > 0; i >>= 1) {
    if (tile.thread_rank() < i) {
      beta += sum[tid + i];
      sum[tid] = beta;
    }
    cg::sync(tile);
  }
  cg::sync(cta);
  if (tid == 0)
    *out = sum[0];
}

__global__ void tileSumThroughHelper(const float *in, float *out) {
  __shared__ float part[WIDTH];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<LANES> tile = cg::tiled_partition<LANES>(cta);
  part[cta.thread_rank()] = in[cta.thread_rank()];
  cg::sync(cta);
  tileSum<float>(part, cta, tile, out);
}

// The lane as 'tid & 31' (NVIDIA's threadFenceReduction): every thread
// stores its slot, the tile barrier orders the lanes of each tile, and the
// guarded steps read only within the tile.
__device__ void laneMaskSum(volatile float *sdata, float mySum,
                            const unsigned tid, cg::thread_block cta) {
  cg::thread_block_tile<LANES> tile = cg::tiled_partition<LANES>(cta);
  sdata[tid] = mySum;
  cg::sync(tile);
  const int lane = tid & (LANES - 1);
  float beta = mySum;
  for (int i = LANES / 2; i > 0; i >>= 1) {
    if (lane < i) {
      beta += sdata[tid + i];
      sdata[tid] = beta;
    }
    cg::sync(tile);
  }
  cg::sync(cta);
}

__global__ void laneMaskThroughHelper(float *out) {
  extern __shared__ float dyn[];
  cg::thread_block cta = cg::this_thread_block();
  laneMaskSum(dyn, out[threadIdx.x], threadIdx.x, cta);
}
