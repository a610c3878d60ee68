// cuda-warp-collective: masks made by __activemask() (the lanes that execute
// it), masks that reach a collective through __device__ helpers (a fixed
// mask inside the helper, a default argument, a helper calling a helper),
// and data passed in the mask slot (a shuffle wrapper whose mask parameter
// is missing).
// RUN: %check_cuda_tidy_plugin %s cuda-warp-collective %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-warp-collective %t -- --extra-arg=-I%S/../Inputs

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define FULL_MASK 0xffffffffu

//===--- Flagged: __activemask() -------------------------------------------===//

// The mask is taken where the whole warp is, and the shuffle runs under a
// lane condition: lanes 16-31 are named but never come.
__global__ void activeMaskBeforeBranch(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  unsigned active = __activemask();
  float v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_down_sync(active, v, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down_sync' with mask 'active' (0xffffffff) names lanes 16-31, which do not execute it under 'lane < 16' [cuda-warp-collective]
  out[threadIdx.x] = v;
}

// The mask is taken by the lanes of the branch and kept past it: the lanes
// that skipped the branch execute the vote with a mask that lacks them.
__global__ void activeMaskKeptPastBranch(unsigned *out, const int *flags) {
  int lane = threadIdx.x & 31;
  unsigned firstHalf = 0;
  if (lane < 16)
    firstHalf = __activemask();
  unsigned early = lane < 16 ? __activemask() : 0u;
  out[threadIdx.x] = __ballot_sync(early, flags[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '__ballot_sync' is executed by lanes 16-31, which the mask 'early' computed for them does not name [cuda-warp-collective]
  out[threadIdx.x] += firstHalf;
}

// After an early exit the lanes that stay are fewer than the mask says.
__global__ void activeMaskThenReturn(int *out, const int *in) {
  unsigned mask = __activemask();
  int lane = threadIdx.x % 32;
  if (lane >= 24)
    return;
  out[threadIdx.x] = __reduce_add_sync(mask, in[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '__reduce_add_sync' with mask 'mask' (0xffffffff) names lanes 24-31, which leave before it at 'lane >= 24' [cuda-warp-collective]
}

//===--- Flagged: masks through __device__ helpers -------------------------===//

// A helper with a fixed full mask, called by the lanes of one half.
__device__ float broadcastFirst(float v) {
  return __shfl_sync(FULL_MASK, v, 0);
}
__global__ void fixedMaskHelper(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane >= 16)
    v = broadcastFirst(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'broadcastFirst' with mask 0xffffffff names lanes 0-15, which do not execute it under 'lane >= 16' [cuda-warp-collective]
  out[threadIdx.x] = v;
}

// A helper that calls a helper whose mask defaults to the full warp.
__device__ unsigned vote(int p, unsigned mask = FULL_MASK) {
  return __ballot_sync(mask, p);
}
__device__ int findLeftLane(int p) {
  unsigned bits = vote(p);
  return bits ? __ffs(bits) - 1 : -1;
}
__global__ void nestedDefaultMask(int *out, const int *flags, int numWarps) {
  int tid = threadIdx.x;
  if (tid < 4)
    out[tid] = findLeftLane(flags[tid]);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'findLeftLane' with mask 0xffffffff names lanes 4-31, which do not execute it under 'tid < 4' [cuda-warp-collective]
}

// A shuffle wrapper that takes the mask first; the call passes the delta
// there and the value second, so lane 0 is the only lane in the mask.
__device__ int shiftUp(unsigned mask, int v, int delta = 1) {
  return __shfl_up_sync(mask, v, delta);
}
__global__ void deltaInMaskSlot(int *out, const int *in) {
  int v = in[threadIdx.x];
  out[threadIdx.x] = v + shiftUp(1, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'shiftUp' is executed by lanes 1-31, which are not in its mask 0x00000001 [cuda-warp-collective]
}

// Ported from __shfl_up(var, delta, width): the mask argument is missing, so
// the value lands in the mask slot and the delta in the value slot.
template <typename T>
__device__ T shflUp(T var, unsigned delta, int width = 32) {
  return __shfl_up_sync(var, delta, width);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '__shfl_up_sync' is given 'var' of type 'float' as its lane mask: the mask argument is missing or in the wrong place [cuda-warp-collective]
}
__global__ void inclusiveScan(float *data) {
  float x = data[threadIdx.x];
  for (unsigned d = 1; d < 32; d *= 2) {
    float y = shflUp(x, d);
    if ((threadIdx.x & 31) >= d)
      x += y;
  }
  data[threadIdx.x] = x;
}

// The same without a template: a float converted to a mask.
__device__ float shflDown(float var, unsigned delta) {
  return __shfl_down_sync(var, delta, 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down_sync' is given 'var' of type 'float' as its lane mask: the mask argument is missing or in the wrong place [cuda-warp-collective]
}

// A template pattern that nothing instantiates.
template <typename T>
__device__ T shflXor(T var, int laneMask) {
  return __shfl_xor_sync(var, laneMask);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__shfl_xor_sync' is given 'var' of type 'T' as its lane mask: the mask argument is missing or in the wrong place [cuda-warp-collective]
}

//===--- Not flagged -------------------------------------------------------===//

// __activemask() under the same condition as the collective.
__global__ void activeMaskInBranch(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = __shfl_sync(__activemask(), v, 0);
  out[threadIdx.x] = v;
}

// The mask is taken inside the branch and used there.
__global__ void activeMaskTakenInBranch(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane >= 8) {
    unsigned m = __activemask();
    v += __shfl_sync(m, v, 8);
  }
  out[threadIdx.x] = v;
}

// Taken where the whole warp is and used by the whole warp.
__global__ void activeMaskWholeWarp(int *out, const int *in) {
  unsigned mask = __activemask();
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(mask, v, o);
  out[threadIdx.x] = v;
}

// Under a runtime bound the lanes that take the branch are unknown: the
// mask of the lanes there is the right one, and nothing is assumed.
__global__ void activeMaskRuntimeBound(float *out, const float *in, int n) {
  unsigned early = __activemask();
  if (threadIdx.x < n) {
    unsigned m = __activemask();
    out[threadIdx.x] = __shfl_sync(m, in[threadIdx.x], 0);
  }
  out[0] += early;
}

// Ballot, then the collective under the same predicate, through a helper.
__global__ void ballotThenSamePredicate(int *out, const int *v) {
  int lane = threadIdx.x % 32;
  unsigned m = __ballot_sync(FULL_MASK, lane > 3);
  if (lane > 3)
    out[threadIdx.x] = vote(v[threadIdx.x], m);
}

// The helper with the default full mask called by the whole warp, and with
// the mask of the half that calls it.
__global__ void helperWholeWarp(int *out, const int *flags) {
  int lane = threadIdx.x % 32;
  out[threadIdx.x] = findLeftLane(flags[threadIdx.x]);
  if (lane < 16)
    out[threadIdx.x] += vote(flags[threadIdx.x], 0x0000ffffu);
  out[threadIdx.x] += broadcastFirst(1.0f) > 0;
}

// A CUB-like warp reduction: the mask is a parameter, the shuffled value a
// template type, the helper called by the whole warp.
template <typename T, int LOGICAL_WARP>
struct WarpSum {
  __device__ static T reduce(T v, unsigned memberMask) {
    for (int o = LOGICAL_WARP / 2; o > 0; o /= 2)
      v += __shfl_down_sync(memberMask, v, o, LOGICAL_WARP);
    return v;
  }
};
template <typename T>
__global__ void warpSums(T *out, const T *in) {
  T v = WarpSum<T, 32>::reduce(in[threadIdx.x], FULL_MASK);
  if (threadIdx.x % 32 == 0)
    out[threadIdx.x / 32] = v;
}
template __global__ void warpSums<float>(float *, const float *);

// A correct shuffle wrapper: mask first, data of template type second.
template <typename T>
__device__ T shflUpMasked(unsigned mask, T var, unsigned delta) {
  return __shfl_up_sync(mask, var, delta);
}
template <typename MaskT, typename T>
__device__ T shflWithMaskType(MaskT mask, T var) {
  return __shfl_sync(mask, var, 0);
}
__global__ void maskedScan(float *data) {
  float x = data[threadIdx.x];
  x += shflUpMasked(FULL_MASK, x, 1u);
  x += shflWithMaskType(FULL_MASK, x);
  data[threadIdx.x] = x;
}

// Cooperative groups: the tile holds its own mask.
__global__ void tileReduce(float *out, const float *in) {
  cg::thread_block_tile<16> tile =
      cg::tiled_partition<16>(cg::this_thread_block());
  float v = in[threadIdx.x];
  if (tile.thread_rank() < 8)
    v += tile.shfl_down(v, 4);
  out[threadIdx.x] = v;
}
