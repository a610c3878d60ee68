// Correct code that cuda-missing-syncthreads still reports: each kernel
// below is race-free, and the file expects no finding. It is marked XFAIL
// until the check learns the idiom; when it does, lit reports XPASS and
// the XFAIL line goes (docs/precision.md, "cuda-missing-syncthreads").
// XFAIL: *
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
