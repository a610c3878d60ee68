// cuda-warp-collective on templates that this file never instantiates: the
// lanes that reach a collective and its mask rarely depend on the template
// arguments, so the pattern is analysed; masks and conditions that do
// depend on them stay silent.
// RUN: %check_cuda_tidy_plugin %s cuda-warp-collective %t
// RUN: %check_cuda_tidy_driver %s cuda-warp-collective %t

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define FULL_MASK 0xffffffffu

//===--- Flagged -----------------------------------------------------------===//

// A header's segmented scan: the shuffle of a value of type T is resolved
// only at instantiation, but it is __shfl_up_sync whatever T is, and half
// the warp skips it.
template <typename T>
__global__ void halfWarpScan(T *data) {
  T v = data[threadIdx.x];
  if ((threadIdx.x & 31) < 16)
    v += __shfl_up_sync(FULL_MASK, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_up_sync' with mask 0xffffffff names lanes 16-31, which do not execute it under '(threadIdx.x & 31) < 16' [cuda-warp-collective]
  data[threadIdx.x] = v;
}

// A class template's member that nothing here calls: a five-lane mask,
// executed by the whole warp.
template <typename T, int Items>
struct TileBroadcast {
  __device__ T broadcast(T v) { return __shfl_sync(0x1f, v, 0); }
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '__shfl_sync' is executed by lanes 5-31, which are not in its mask 0x0000001f [cuda-warp-collective]
};

// A ballot's lanes: lane 0 votes false and takes part anyway.
template <typename T>
__global__ void ballotThenAll(int *out, const T *v) {
  int tid = threadIdx.x;
  unsigned m = __ballot_sync(FULL_MASK, tid > 0);
  out[tid] = __all_sync(m, v[tid] != T(0));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__all_sync' is executed by lane 0, which the mask 'm' computed for it does not name [cuda-warp-collective]
}

//===--- Not flagged: correct or dependent ---------------------------------===//

// CUB-style warp reduction: every lane of a logical warp of LOGICAL_WARP
// lanes shuffles; the member mask is computed from the template argument.
template <typename T, int LOGICAL_WARP>
struct WarpReduce {
  static constexpr unsigned MemberMask =
      LOGICAL_WARP == 32 ? 0xffffffffu : (1u << LOGICAL_WARP) - 1;
  __device__ T sum(T v) {
    for (int offset = LOGICAL_WARP / 2; offset > 0; offset /= 2)
      v += __shfl_down_sync(MemberMask, v, offset, LOGICAL_WARP);
    return v;
  }
  __device__ T sumFull(T v) {
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_xor_sync(FULL_MASK, v, offset);
    return v;
  }
};

// CUB-style block reduction: warp sums to shared memory, a barrier, then
// the first warp reduces the warp sums with every one of its lanes.
template <typename T, int BLOCK_THREADS>
struct BlockReduce {
  static constexpr int Warps = BLOCK_THREADS / 32;
  __device__ T sum(T v, T *warpSums) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(FULL_MASK, v, offset);
    if (lane == 0)
      warpSums[warp] = v;
    __syncthreads();
    if (warp == 0) {
      v = lane < Warps ? warpSums[lane] : T(0);
      for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    return v;
  }
};

// A guard whose bound is a template argument: whether lanes leave depends
// on the instantiation.
template <typename T, int WIDTH>
__global__ void guardedByWidth(T *data) {
  T v = data[threadIdx.x];
  if ((threadIdx.x & 31) < WIDTH)
    v += __shfl_down_sync(0x0000ffffu, v, 1, WIDTH);
  data[threadIdx.x] = v;
}

// A local that holds a template-dependent bound: the same.
template <typename T, int WIDTH>
__global__ void boundInLocal(T *data) {
  T v = data[threadIdx.x];
  const bool active = (threadIdx.x & 31) < WIDTH;
  if (active)
    v = __shfl_sync(0x0000ffffu, v, 0);
  data[threadIdx.x] = v;
}

// A tile whose size is a template argument: tile.shfl is resolved at
// instantiation only.
template <typename T, int TILE>
__device__ T tileSum(cg::thread_block_tile<TILE> tile, T v) {
  for (int offset = TILE / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  return v;
}

// Ballot then a collective with the same predicate: only lanes that voted
// true execute it.
template <typename T>
__global__ void ballotSamePredicate(int *out, const T *v) {
  int tid = threadIdx.x;
  unsigned m = __ballot_sync(FULL_MASK, tid > 0);
  if (tid > 0)
    out[tid] = __all_sync(m, v[tid] != T(0));
}

// __activemask() inside a branch names exactly the lanes that took it.
template <typename T>
__global__ void activeLanes(T *data, const int *flags) {
  if (flags[threadIdx.x]) {
    unsigned m = __activemask();
    data[threadIdx.x] = __shfl_sync(m, data[threadIdx.x], __ffs(m) - 1);
  }
}
