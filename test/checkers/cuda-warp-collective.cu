// cuda-warp-collective: warp collectives whose constant mask names lanes that
// do not execute them, shuffles that read a lane outside the mask, and
// shuffle widths that are not a power of two up to 32.
// RUN: %check_cuda_tidy_plugin %s cuda-warp-collective %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-warp-collective %t -- --extra-arg=-I%S/../Inputs

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define FULL_MASK 0xffffffffu

//===--- Flagged -----------------------------------------------------------===//

// The classic: a full-mask shuffle that only the lower half-warp reaches.
__global__ void halfWarpFullMask(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_down_sync(0xffffffff, v, 8);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: '__shfl_down_sync' with mask 0xffffffff names lanes 16-31, which do not execute it under 'lane < 16' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes 16-31 leave here
  out[threadIdx.x] = v;
}

// Only lane 0 votes, but the mask asks for all 32.
__global__ void leaderBallot(unsigned *out, const int *flags) {
  if (threadIdx.x % 32 == 0)
    out[threadIdx.x / 32] = __ballot_sync(FULL_MASK, flags[threadIdx.x]);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: '__ballot_sync' with mask 0xffffffff names lanes 1-31, which do not execute it under 'threadIdx.x % 32 == 0' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes 1-31 leave here
}

// The upper half-warp returns before the full-mask reduction.
__global__ void earlyReturn(float *out, const float *in) {
  unsigned lane = threadIdx.x & 31;
  if (lane >= 16)
    return;
  float v = in[threadIdx.x];
  v += __shfl_down_sync(FULL_MASK, v, 8);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: '__shfl_down_sync' with mask 0xffffffff names lanes 16-31, which leave before it at 'lane >= 16' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: lanes 16-31 leave here
  out[threadIdx.x] = v;
}

// A block-level bound that is not a multiple of 32 splits warp 1.
__global__ void blockBoundSplitsWarp(int *out, const int *in) {
  if (threadIdx.x < 40)
    out[threadIdx.x] = __any_sync(FULL_MASK, in[threadIdx.x] > 0);
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: '__any_sync' with mask 0xffffffff names lanes 8-31, which do not execute it under 'threadIdx.x < 40' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes 8-31 leave here
}

// The two halves wait at __syncwarp with different masks.
__global__ void mismatchedSyncwarp(float *buf) {
  int lane = threadIdx.x % 32;
  if (lane < 16) {
    buf[threadIdx.x] *= 2.0f;
    __syncwarp(0x0000ffff);
  } else {
    __syncwarp(0xffffffff);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncwarp' with mask 0xffffffff names lanes 0-15, which do not execute it under 'lane < 16' [cuda-warp-collective]
    // CHECK-NOTES: :[[@LINE-6]]:7: note: lanes 0-15 leave here
  }
}

// __syncwarp() waits for the whole warp by default.
__global__ void oddLanesSyncwarp(float *buf) {
  if (threadIdx.x & 1) {
    buf[threadIdx.x] = 0.0f;
    __syncwarp();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncwarp' with mask 0xffffffff names lanes 0, 2, 4, ... (16 lanes), which do not execute it under 'threadIdx.x & 1' [cuda-warp-collective]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: lanes 0, 2, 4, ... (16 lanes) leave here
  }
}

// The rank in a 32-thread tile is the lane.
__global__ void tileRankCondition(float *out, const float *in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  if (tile.thread_rank() < 8)
    v = __shfl_sync(FULL_MASK, v, 0);
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: '__shfl_sync' with mask 0xffffffff names lanes 8-31, which do not execute it under 'tile.thread_rank() < 8' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes 8-31 leave here
  out[block.thread_rank()] = v;
}

__device__ unsigned laneId() { return threadIdx.x & 31; }

// A lane-id helper whose body is one return.
__global__ void laneHelper(int *out, const int *in) {
  if (laneId() == 0)
    out[threadIdx.x / 32] = __all_sync(FULL_MASK, in[threadIdx.x]);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: '__all_sync' with mask 0xffffffff names lanes 1-31, which do not execute it under 'laneId() == 0' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes 1-31 leave here
}

// The lane of a global index: blockDim.x is a multiple of 32.
__global__ void globalIndexLane(unsigned *out, const unsigned *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = gid % 32;
  unsigned v = in[gid];
  if (lane < 8)
    v = __reduce_add_sync(FULL_MASK, v);
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: '__reduce_add_sync' with mask 0xffffffff names lanes 8-31, which do not execute it under 'lane < 8' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes 8-31 leave here
  out[gid] = v;
}

// A half-warp mask, but a nested condition leaves out lanes 0-3.
__global__ void nestedConditions(unsigned *out, const int *keys) {
  int lane = threadIdx.x % 32;
  if (lane < 16) {
    if (lane >= 4)
      out[threadIdx.x] = __match_any_sync(0x0000ffff, keys[threadIdx.x]);
    // CHECK-NOTES: :[[@LINE-1]]:26: warning: '__match_any_sync' with mask 0x0000ffff names lanes 0-3, which do not execute it under 'lane >= 4' [cuda-warp-collective]
    // CHECK-NOTES: :[[@LINE-3]]:9: note: lanes 0-3 leave here
  }
}

// A lane condition joined with a data condition by '&&'.
__global__ void laneAndData(float *out, const float *in, bool enabled) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 24 && enabled)
    v = __shfl_xor_sync(FULL_MASK, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: '__shfl_xor_sync' with mask 0xffffffff names lanes 24-31, which do not execute it under 'lane < 24 && enabled' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes 24-31 leave here
  out[threadIdx.x] = v;
}

// The edge lanes take the other branch of a '||'.
__global__ void edgeLanesElsewhere(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane == 0 || lane == 31)
    v = 0.0f;
  else
    v = __shfl_up_sync(FULL_MASK, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: '__shfl_up_sync' with mask 0xffffffff names lanes 0, 31, which do not execute it under 'lane == 0 || lane == 31' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: lanes 0, 31 leave here
  out[threadIdx.x] = v;
}

// The condition inside a loop: the same lanes skip every trip.
__global__ void conditionInLoop(float *out, const float *in, int steps) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  for (int s = 0; s < steps; ++s) {
    if (lane < 16)
      v += __shfl_down_sync(FULL_MASK, v, 8);
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: '__shfl_down_sync' with mask 0xffffffff names lanes 16-31, which do not execute it under 'lane < 16' [cuda-warp-collective]
    // CHECK-NOTES: :[[@LINE-3]]:9: note: lanes 16-31 leave here
  }
  out[threadIdx.x] = v;
}

// A 16 x 16 block puts two rows in a warp: 'threadIdx.y == 0' is half of
// warp 0 (every launch of the kernel is seen, with a constant block).
__global__ void rowsOfSixteen(float *error, const float *err2) {
  float err = err2[threadIdx.y * 16 + threadIdx.x];
  for (int offset = 8; offset > 0; offset /= 2)
    err += __shfl_down_sync(0xffffffff, err, offset);
  if (threadIdx.y == 0) {
    for (int offset = 8; offset > 0; offset /= 2)
      err += __shfl_down_sync(0xffffffff, err, offset);
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: '__shfl_down_sync' with mask 0xffffffff names lanes 16-31, which do not execute it under 'threadIdx.y == 0' [cuda-warp-collective]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: lanes 16-31 leave here
    if (threadIdx.x == 0)
      atomicAdd(error, err);
  }
}

void launchRows(float *error, const float *err2) {
  dim3 block(16, 16);
  rowsOfSixteen<<<4, block>>>(error, err2);
}

// In blocks of 16 x 8 threads a warp spans two rows: the rank in a 32-wide
// tile is the linear rank modulo 32, not threadIdx.x (always below 16
// here). Lanes 16-31 of each warp (the second row) skip the full-mask
// shuffle. (thread_rank is a static member called on the tile object, as
// in CUDA 13's thread_block_tile.)
__global__ void tileRankAcrossRows(float *out, const float *in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  if (tile.thread_rank() < 16)
    v += __shfl_down_sync(0xffffffff, v, 8);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: '__shfl_down_sync' with mask 0xffffffff names lanes 16-31, which do not execute it under 'tile.thread_rank() < 16' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes 16-31 leave here
  out[block.thread_rank()] = v;
}

void launchTileRank(float *out, const float *in) {
  tileRankAcrossRows<<<4, dim3(16, 8)>>>(out, in);
}

// A vote of the even lanes that names the odd ones.
__device__ int evenVote(int p) {
  if (threadIdx.x % 2 == 0)
    return __uni_sync(0x55555555 | 0x2, p);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: '__uni_sync' with mask 0x55555557 names lane 1, which does not execute it under 'threadIdx.x % 2 == 0' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lane 1 leaves here
  return 0;
}

// Widths must be powers of two up to 32, template arguments included.
template <int Width> __device__ float segmentSum(float v) {
  for (int o = Width / 2; o > 0; o /= 2)
    v += __shfl_down_sync(FULL_MASK, v, o, Width);
  // CHECK-NOTES: :[[@LINE-1]]:44: warning: width 24 of '__shfl_down_sync' is not a power of two up to 32 [cuda-warp-collective]
  return v;
}

__global__ void widths(float *out, const float *in) {
  float v = in[threadIdx.x];
  v = segmentSum<16>(v) + segmentSum<24>(v);
  v += __shfl_xor_sync(FULL_MASK, v, 1, 48);
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: width 48 of '__shfl_xor_sync' is not a power of two up to 32 [cuda-warp-collective]
  v += __shfl_up_sync(FULL_MASK, v, 1, 12);
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: width 12 of '__shfl_up_sync' is not a power of two up to 32 [cuda-warp-collective]
  out[threadIdx.x] = v;
}

// Broadcasts from a lane that the mask leaves out (executed by the whole
// warp, so the lanes outside the mask are reported too).
__global__ void sourceLanes(float *out, const float *in) {
  float v = in[threadIdx.x];
  float a = __shfl_sync(0x0000ffff, v, 20);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: '__shfl_sync' is executed by lanes 16-31, which are not in its mask 0x0000ffff [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-2]]:40: warning: source lane 20 of '__shfl_sync' is not in mask 0x0000ffff [cuda-warp-collective]
  float b = __shfl_sync(0x000000ff, v, 40);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: '__shfl_sync' is executed by lanes 8-31, which are not in its mask 0x000000ff [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-2]]:40: warning: source lane 8 (40 modulo width 32) of '__shfl_sync' is not in mask 0x000000ff [cuda-warp-collective]
  float c = __shfl_sync(0x00ff00ff, v, 9, 16);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: '__shfl_sync' is executed by lanes 8-15, 24-31, which are not in its mask 0x00ff00ff [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-2]]:40: warning: source lane 9 of '__shfl_sync' is not in mask 0x00ff00ff [cuda-warp-collective]
  out[threadIdx.x] = a + b + c;
}

//===--- Not flagged -------------------------------------------------------===//

// A full-warp tree reduction with no condition around it.
__device__ float warpReduceSum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

// The mask of the lanes that are active right now.
__global__ void activeMaskVote(unsigned *out, const int *flags) {
  if (threadIdx.x % 32 < 5)
    out[threadIdx.x] = __ballot_sync(__activemask(), flags[threadIdx.x]);
}

// The mask computed by a ballot of the same condition.
__global__ void ballotMask(float *out, const float *in, int n) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  unsigned mask = __ballot_sync(FULL_MASK, lane < n);
  if (lane < n)
    v += __shfl_down_sync(mask, v, 1);
  out[threadIdx.x] = v;
}

// Half-warp code with a half-warp mask and width.
__global__ void halfWarpMask(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16) {
    for (int o = 8; o > 0; o /= 2)
      v += __shfl_down_sync(0x0000ffff, v, o, 16);
    v = __shfl_sync(0x0000ffff, v, 0, 16);
  }
  out[threadIdx.x] = v;
}

// Cooperative groups hold the mask themselves.
__global__ void tileReduce(float *out, const float *in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0)
    out[block.thread_rank() / 32] = v;
}

// CUB-style macros around the intrinsics.
#define WARP_SYNC(mask) __syncwarp(mask)
#define WARP_SHFL_DOWN(v, o) __shfl_down_sync(FULL_MASK, v, o)
__global__ void macroReduce(float *out, const float *in) {
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += WARP_SHFL_DOWN(v, o);
  WARP_SYNC(FULL_MASK);
  out[threadIdx.x] = v;
}

// The first warp reduces the per-warp sums: whole warps take the branch.
__global__ void firstWarpReduces(float *out, const float *in) {
  __shared__ float sums[32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  float v = warpReduceSum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0)
    sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = sums[lane];
    v = warpReduceSum(v);
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_xor_sync(FULL_MASK, v, o);
  }
  if (threadIdx.x < 32)
    v += __shfl_down_sync(FULL_MASK, v, 1);
  if (threadIdx.x < 64)
    v = __shfl_sync(FULL_MASK, v, 0);
  if (threadIdx.x / 32 == 1)
    v += __shfl_up_sync(FULL_MASK, v, 1);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

// A runtime bound on a consecutive index splits the warp at its edge
// unless the bound is a multiple of 32: the full mask names lanes that
// leave (cuda-warp-collective-edges.cu has more).
__global__ void runtimeBound(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n)
    v = __shfl_down_sync(FULL_MASK, in[i], 1);
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: '__shfl_down_sync' with mask 0xffffffff runs under the bound 'i < n': unless the bound is a multiple of 32, the lanes of the warp at its edge that fail it are still in the mask [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the lanes past the bound leave here
  if (threadIdx.x < n)
    v += __shfl_down_sync(FULL_MASK, v, 2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: '__shfl_down_sync' with mask 0xffffffff runs under the bound 'threadIdx.x < n': unless the bound is a multiple of 32, the lanes of the warp at its edge that fail it are still in the mask [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the lanes past the bound leave here
  if (i < n)
    out[i] = v;
}

// Both halves meet at __syncwarp calls with the same mask (sm_70 and later).
__global__ void sameMaskBothBranches(float *buf) {
  int lane = threadIdx.x % 32;
  if (lane < 16) {
    buf[threadIdx.x] += 1.0f;
    __syncwarp();
  } else {
    buf[threadIdx.x] -= 1.0f;
    __syncwarp();
  }
}

// The same shuffle on both sides, of an int and of a float (two overloads).
__global__ void sameShuffleBothBranches(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_xor_sync(FULL_MASK, (int)v, 1);
  else
    v -= __shfl_xor_sync(FULL_MASK, v, 1);
  out[threadIdx.x] = v;
}

// Every launch gives 32 x 8 threads: 'threadIdx.x < 40' holds in every
// thread, and 'threadIdx.y == 0' selects warp 0.
__global__ void rowsOfThirtyTwo(float *out, const float *in) {
  float v = in[threadIdx.y * 32 + threadIdx.x];
  if (threadIdx.x < 40)
    v += __shfl_down_sync(FULL_MASK, v, 1);
  if (threadIdx.y == 0)
    v += __shfl_down_sync(FULL_MASK, v, 2);
  out[threadIdx.y * 32 + threadIdx.x] = v;
}

void launchRowsOfThirtyTwo(float *out, const float *in) {
  rowsOfThirtyTwo<<<8, dim3(32, 8)>>>(out, in);
}

// A condition on data the lanes read from different elements: the lanes of
// a warp may disagree on it.
__global__ void dataCondition(unsigned *out, const int *data) {
  if (data[threadIdx.x] > 0)
    out[threadIdx.x] = __ballot_sync(FULL_MASK, 1);
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: '__ballot_sync' with mask 0xffffffff runs under a condition on per-thread data: lanes of a warp may disagree on 'data[threadIdx.x]', and the lanes that do not execute it are still in the mask [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the lanes may take different sides here
}

// Broadcasts from lanes inside the mask, or from a lane computed at run time.
__global__ void goodSourceLanes(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  v += __shfl_sync(FULL_MASK, v, 0);
  if (lane < 16)
    v += __shfl_sync(0x0000ffff, v, 15);
  else
    v += __shfl_sync(0xffff0000, v, 16 + 16, 16);
  if (lane < 16)
    v += __shfl_sync(0x0000ffff, v, lane ^ 1);
  out[threadIdx.x] = v;
}

// Uniform conditions: the block, the row of a 2-D block.
__global__ void uniformConditions(float *out, const float *in, int mode) {
  float v = in[threadIdx.x];
  if (blockIdx.x == 0)
    v += __shfl_down_sync(FULL_MASK, v, 4);
  if (threadIdx.y == 0 && mode > 1)
    v += __shfl_down_sync(FULL_MASK, v, 2);
  out[threadIdx.x] = v;
}

// A lane id read with inline PTX is not known.
__global__ void asmLaneId(float *out, const float *in) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  float v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_down_sync(FULL_MASK, v, 8);
  out[threadIdx.x] = v;
}

// A lane variable overwritten with data.
__global__ void reassignedLane(float *out, const float *in, const int *perm) {
  int l = threadIdx.x % 32;
  l = perm[l];
  float v = in[threadIdx.x];
  if (l < 16)
    v += __shfl_down_sync(FULL_MASK, v, 8);
  out[threadIdx.x] = v;
}

// A helper's lane parameter: its callers are not followed.
__device__ float halfReduce(float v, int lane) {
  if (lane < 16)
    v += __shfl_down_sync(0x0000ffff, v, 8);
  return v;
}

// Shared-memory tree in one warp, __syncwarp outside the lane condition.
__global__ void sharedTree(float *out, const float *in) {
  __shared__ float s[32];
  int lane = threadIdx.x % 32;
  s[lane] = in[threadIdx.x];
  __syncwarp();
  for (int o = 16; o > 0; o >>= 1) {
    if (lane < o)
      s[lane] += s[lane + o];
    __syncwarp();
  }
  if (lane == 0)
    out[threadIdx.x / 32] = s[0] + halfReduce(s[1], lane);
}

// An early return of the upper half before a half-warp collective.
__global__ void returnThenHalfMask(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  if (lane >= 16)
    return;
  float v = in[threadIdx.x];
  v += __shfl_xor_sync(0x0000ffff, v, 1, 16);
  out[threadIdx.x] = v + segmentSum<16>(v);
}
