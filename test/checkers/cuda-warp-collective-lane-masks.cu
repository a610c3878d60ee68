// cuda-warp-collective: lanes that execute a collective without being in the
// mask they pass (a constant naming fewer lanes, a ballot's result, a
// sub-warp mask computed by shifts), full masks under a branch on per-thread
// data, and __device__ wrappers whose default mask is the full warp.
// RUN: %check_cuda_tidy_plugin %s cuda-warp-collective %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-warp-collective %t -- --extra-arg=-I%S/../Inputs

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define FULL_MASK 0xffffffffu

//===--- Flagged -----------------------------------------------------------===//

// A ballot's result names the lanes whose predicate held; lane 0 of the
// first warp votes false and then executes the collective anyway.
__global__ void ballotMaskAllLanes(int *out, const int *v) {
  int tid = threadIdx.x;
  unsigned m = __ballot_sync(FULL_MASK, tid > 0);
  out[tid] = __all_sync(m, v[tid]);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__all_sync' is executed by lane 0, which the mask 'm' computed for it does not name [cuda-warp-collective]
}

// A constant mask of five lanes, executed by the whole warp.
__global__ void fewerLanesThanExecute(float *out, const float *in) {
  float v = in[threadIdx.x];
  out[threadIdx.x] = __shfl_sync(0x1f, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '__shfl_sync' is executed by lanes 5-31, which are not in its mask 0x0000001f [cuda-warp-collective]
}

// Sub-warp masks by shifts: the segment comes from tid % 4, not from the
// lane's segment, so 24 of the 32 lanes pass a mask without their own bit.
__global__ void shiftedSubWarpMask(float *out, const float *in) {
  const int width = 8;
  int tid = threadIdx.x;
  unsigned mask = ((1u << width) - 1) << ((tid % (32 / width)) * width);
  float v = in[tid];
  v += __shfl_xor_sync(mask, v, 1, width);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_xor_sync' is executed by lanes 1-3, 5-8, 10-12, ... (24 lanes), which the mask 'mask' computed for them does not name [cuda-warp-collective]
  out[tid] = v;
}

// A full mask inside a branch on data that the lanes of a warp read from
// different elements.
__global__ void fullMaskUnderDataBranch(float *out, const float *in,
                                        const int *valid, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[tid];
  if (valid[tid] && tid < n) {
    v += __shfl_down_sync(0xffffffff, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down_sync' with mask 0xffffffff runs under a condition on per-thread data: lanes of a warp may disagree on 'valid[tid]', and the lanes that do not execute it are still in the mask [cuda-warp-collective]
  }
  out[tid] = v;
}

// A wrapper whose mask defaults to the full warp, called by eight lanes.
__device__ unsigned ballot(int p, unsigned mask = FULL_MASK) {
  return __ballot_sync(mask, p);
}
__global__ void defaultMaskWrapper(unsigned *out, const int *flags) {
  int tid = threadIdx.x;
  if (tid < 8)
    out[tid] = ballot(flags[tid]);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'ballot' with mask 0xffffffff names lanes 8-31, which do not execute it under 'tid < 8' [cuda-warp-collective]
}

//===--- Not flagged -------------------------------------------------------===//

// Ballot, then the collective under the same predicate.
__global__ void ballotThenSamePredicate(int *out, const int *v) {
  int tid = threadIdx.x;
  unsigned m = __ballot_sync(FULL_MASK, tid > 0);
  if (tid > 0)
    out[tid] = __all_sync(m, v[tid]);
}

// The sub-warp mask of the lane's own segment.
__global__ void laneSegmentMask(float *out, const float *in) {
  const int width = 8;
  int tid = threadIdx.x;
  unsigned mask = ((1u << width) - 1) << (((tid % 32) / width) * width);
  float v = in[tid];
  v += __shfl_xor_sync(mask, v, 1, width);
  out[tid] = v;
}

// __activemask() names exactly the lanes that took the branch.
__global__ void activeMaskUnderData(float *out, const float *in,
                                    const int *flags) {
  float v = in[threadIdx.x];
  if (flags[threadIdx.x]) {
    unsigned m = __activemask();
    v += __shfl_xor_sync(m, v, 1);
  }
  out[threadIdx.x] = v;
}

// A branch on data that is the same for the whole warp.
__global__ void warpUniformData(float *out, const float *in,
                                const int *valid) {
  int warp = threadIdx.x / 32;
  float v = in[threadIdx.x];
  if (valid[warp])
    v += __shfl_down_sync(FULL_MASK, v, 1);
  out[threadIdx.x] = v;
}

// A vote on per-thread data decides for the whole warp.
__global__ void voteDecides(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (__any_sync(FULL_MASK, in[threadIdx.x] > 0.0f))
    v += __shfl_down_sync(FULL_MASK, v, 1);
  out[threadIdx.x] = v;
}

// A warp reduction in a loop with a uniform trip count (CUB's
// WarpReduce shape).
__global__ void warpReduceLoop(float *out, const float *in) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  if ((threadIdx.x & 31) == 0)
    out[threadIdx.x / 32] = v;
}

// The lower half-warp with its own mask.
__global__ void halfWarpOwnMask(float *out, const float *in) {
  float v = in[threadIdx.x];
  if ((threadIdx.x & 31) < 16)
    v += __shfl_down_sync(0x0000ffffu, v, 8, 16);
  out[threadIdx.x] = v;
}

// Cooperative groups: the tile's collectives carry their own mask.
__global__ void tiledPartitionReduce(float *out, const float *in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[threadIdx.x];
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0)
    out[threadIdx.x / 32] = v;
}

// The wrapper called by the whole warp, and with an explicit mask that
// names only the lanes that call it.
__global__ void wrapperWholeWarp(unsigned *out, const int *flags) {
  int tid = threadIdx.x;
  unsigned b = ballot(flags[tid]);
  if (tid < 8)
    b &= ballot(flags[tid], 0xffu);
  out[tid] = b;
}

// A helper whose condition is on its parameter: which lanes pass it is the
// caller's business.
__device__ float maybeShuffle(float v, bool leader) {
  if (leader)
    v = __shfl_sync(0x1, v, 0);
  return v;
}
