// cuda-warp-collective: lane facts through a __device__ function's
// parameters, a full mask under a bound at the data's edge, and data in
// the shuffle's mask slot. Each flagged function is a reduced real fix, in
// neutral words; the negatives are idiomatic correct code.
// RUN: %check_cuda_tidy_plugin %s cuda-warp-collective %t
// RUN: %check_cuda_tidy_driver %s cuda-warp-collective %t

#define FULL_MASK 0xffffffffu

//===--- Flagged -----------------------------------------------------------===//

// The helper is given threadIdx.x: only lanes 0-7 vote, with a full mask.
__device__ int voteLowLanes(int tid, int v) {
  int r = 0;
  if (tid < 8)
    r = __any_sync(FULL_MASK, v);
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: '__any_sync' with mask 0xffffffff names lanes 8-31, which do not execute it under 'tid < 8' [cuda-warp-collective]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes 8-31 leave here
  return r;
}
__global__ void voteKernel(const int *in, int *out) {
  out[threadIdx.x] = voteLowLanes(threadIdx.x, in[threadIdx.x]);
}

// An early return on a parameter that every caller passes uniformly; the
// whole warp then runs a shuffle whose mask names five lanes.
__device__ float partialSum(float v, int n) {
  if (n <= 0)
    return 0.0f;
  for (int o = 4; o > 0; o /= 2)
    v += __shfl_down_sync(0x1f, v, o);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: '__shfl_down_sync' is executed by lanes 5-31, which are not in its mask 0x0000001f [cuda-warp-collective]
  return v;
}
__global__ void partialSumKernel(const float *in, float *out, int n) {
  out[threadIdx.x] = partialSum(in[threadIdx.x], n);
}

// A full-mask reduction inside the bounds check of a 2-D image: in the
// warp that holds the right edge, the lanes past it never arrive.
__global__ void rowSumsInBounds(const float *img, float *sums, int width,
                                int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < width && y < height) {
    float v = img[y * width + x];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(FULL_MASK, v, o);
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: '__shfl_down_sync' with mask 0xffffffff runs under the bound 'x < width': unless the bound is a multiple of 32, the lanes of the warp at its edge that fail it are still in the mask [cuda-warp-collective]
    // CHECK-NOTES: :[[@LINE-5]]:7: note: the lanes past the bound leave here
    if (threadIdx.x % 32 == 0)
      atomicAdd(&sums[y], v);
  }
}

// A double moved as two int words through a union, ported from the
// maskless __shfl_down: each word lands in the mask slot.
__device__ double shuffleDownWords(double v, int delta) {
  union {
    double d;
    int w[2];
  } u;
  u.d = v;
  u.w[0] = __shfl_down_sync(u.w[0], delta, 32);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: '__shfl_down_sync' is given 'u.w[0]' of type 'int' as its lane mask: the mask argument is missing or in the wrong place [cuda-warp-collective]
  u.w[1] = __shfl_down_sync(u.w[1], delta, 32);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: '__shfl_down_sync' is given 'u.w[1]' of type 'int' as its lane mask: the mask argument is missing or in the wrong place [cuda-warp-collective]
  return u.d;
}

// The result goes back into the variable in the mask slot.
__device__ int swapNeighbour(int x) {
  x = __shfl_xor_sync(x, 1, 32);
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: '__shfl_xor_sync' is given 'x' of type 'int' as its lane mask: the mask argument is missing or in the wrong place [cuda-warp-collective]
  return x;
}

//===--- Not flagged -------------------------------------------------------===//

// Out-of-range lanes load zero and take part: the mask is right.
__global__ void rowSumsPadded(const float *img, float *sums, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x < width ? img[x] : 0.0f;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(FULL_MASK, v, o);
  if (x < width && threadIdx.x % 32 == 0)
    atomicAdd(sums, v);
}

// The mask of the lanes inside the bound, taken before the branch.
__global__ void rowSumsBallot(const float *img, float *sums, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned mask = __ballot_sync(FULL_MASK, x < width);
  if (x < width) {
    float v = img[x];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(mask, v, o);
    if (threadIdx.x % 32 == 0)
      atomicAdd(sums, v);
  }
}

// A bound on the warp's index sends whole warps.
__global__ void wholeWarpsOnly(const float *in, float *out, int warps) {
  int warp = threadIdx.x / 32;
  if (warp < warps) {
    float v = in[threadIdx.x];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_xor_sync(FULL_MASK, v, o);
    out[threadIdx.x] = v;
  }
}

// The helper given threadIdx.x, with the whole warp in the collective.
__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(FULL_MASK, v, o);
  return v;
}
__device__ float laneScaled(int lane, float v) {
  float s = warpSum(v * (lane + 1));
  return lane == 0 ? s : 0.0f;
}
__global__ void laneScaledKernel(const float *in, float *out) {
  out[threadIdx.x] = laneScaled(threadIdx.x % 32, in[threadIdx.x]);
}

// A parameter that callers pass differently per lane: unknown, silent.
__device__ int voteIfFlag(int flag, int v) {
  int r = 0;
  if (flag)
    r = __any_sync(FULL_MASK, v);
  return r;
}
__global__ void flagsFromData(const int *flags, const int *in, int *out) {
  out[threadIdx.x] = voteIfFlag(flags[threadIdx.x], in[threadIdx.x]);
}

// The mask itself is broadcast.
__device__ unsigned broadcastMask(unsigned m) {
  m = __shfl_sync(m, m, 0);
  return m;
}

// A typed shuffle of a double, mask first.
__device__ double shuffleDownDouble(double v, int delta) {
  return __shfl_down_sync(FULL_MASK, v, delta);
}
