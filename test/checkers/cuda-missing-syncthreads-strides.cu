// cuda-missing-syncthreads: indices with a stride of the thread's index
// ('a[2 * tid + 1]', 'a[j + tid * 4]' over a loop counter j): each thread's
// slots are its own, so a read of a neighbour's slot, or of every slot by
// one thread, with no barrier after the writes, is a race; reads of the
// thread's own slots, and strided code with its barriers, are not.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs

#include <cooperative_groups.h>

#define N 256

//===--- Flagged -----------------------------------------------------------===//

// Each thread stores a pair, then reads the first slot of the next pair.
__global__ void nextPair(const float *in, float *out) {
  __shared__ float pairs[2 * N + 2];
  int tid = threadIdx.x;
  pairs[tid * 2] = in[tid];
  pairs[tid * 2 + 1] = in[tid + N];
  out[tid] = pairs[tid * 2 + 2];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 'pairs' at 'tid * 2 + 2' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: written here at 'tid * 2'
}

// A window of two slots per thread written in a loop, read one slot past it.
__global__ void windowPastEnd(const float *in, float *out) {
  __shared__ float win[2 * N + 2];
  int tid = threadIdx.x;
  for (int j = 0; j < 2; ++j)
    win[j + tid * 2] = in[tid * 2 + j];
  out[tid] = win[tid * 2 + 3];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 'win' at 'tid * 2 + 3' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: written here at 'j + tid * 2'
}

// The window's start in a local; the second loop reads four slots, two of
// them the next thread's.
__global__ void widerReadWindow(const float *in, float *out) {
  __shared__ float win[2 * N + 2];
  int tid = threadIdx.x;
  int start = tid * 2;
  for (int j = 0; j < 2; ++j)
    win[j + start] = in[start + j];
  float s = 0.f;
  for (int j = 0; j < 4; ++j)
    s += win[j + start];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: read of shared 'win' at 'j + start' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: written here at 'j + start'
  out[tid] = s;
}

// Thread 0 sums every pair with no barrier after the stores.
__global__ void leaderSumsPairs(const float *in, float *out) {
  __shared__ float pairs[2 * N];
  pairs[2 * threadIdx.x] = in[threadIdx.x];
  pairs[2 * threadIdx.x + 1] = in[threadIdx.x + N];
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int k = 0; k < 2 * N; ++k)
      s += pairs[k];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: read of shared 'pairs' at 'k' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-7]]:3: note: written here at '2 * threadIdx.x'
    out[blockIdx.x] = s;
  }
}

// Odd slots written by stride, read by the thread's plain index: thread 1
// reads what thread 0 wrote.
__global__ void strideAgainstFlat(const float *in, float *out) {
  __shared__ float a[2 * N];
  int tid = threadIdx.x;
  a[2 * tid + 1] = in[tid];
  out[tid] = a[tid];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 'a' at 'tid' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at '2 * tid + 1'
}

// The pairs are refilled by the next pass while other threads may still
// read the previous pass's pairs: the barrier sits between the stores and
// the reads only.
__global__ void pairsRefilled(const float *in, float *out, int passes) {
  __shared__ float pairs[2 * N];
  int tid = threadIdx.x;
  float acc = 0.f;
  for (int p = 0; p < passes; ++p) {
    pairs[2 * tid] = in[p * 2 * N + 2 * tid];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'pairs' at '2 * tid' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+6]]:14: note: read here at 'k'
    pairs[2 * tid + 1] = in[p * 2 * N + 2 * tid + 1];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'pairs' at '2 * tid + 1' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+3]]:14: note: read here at 'k'
    __syncthreads();
    for (int k = 0; k < 2 * N; ++k)
      acc += pairs[k];
  }
  out[tid] = acc;
}

//===--- Not flagged -------------------------------------------------------===//

// Each thread reads back only its own pair.
__global__ void ownPair(const float *in, float *out) {
  __shared__ float pairs[2 * N];
  int tid = threadIdx.x;
  pairs[2 * tid] = in[tid];
  pairs[2 * tid + 1] = in[tid + N];
  out[tid] = pairs[2 * tid] + pairs[2 * tid + 1];
}

// A window of four slots per thread, written and read by its owner.
__global__ void ownWindow(const float *in, float *out) {
  __shared__ float win[4 * N];
  int tid = threadIdx.x;
  for (int j = 0; j < 4; ++j)
    win[tid * 4 + j] = in[tid * 4 + j];
  float s = 0.f;
  for (int j = 0; j < 4; ++j)
    s += win[tid * 4 + j];
  out[tid] = s;
}

// Even slots written, odd slots read: no slot is both.
__global__ void evenThenOdd(const float *in, float *out) {
  __shared__ float a[2 * N];
  int tid = threadIdx.x;
  a[tid * 2] = in[tid];
  out[tid] = a[tid * 2 + 1];
}

// The first step of a pairwise sum: each thread folds its own pair.
__global__ void foldOwnPair(float *data) {
  __shared__ float a[2 * N];
  int tid = threadIdx.x;
  a[2 * tid] = data[2 * tid];
  a[2 * tid + 1] = data[2 * tid + 1];
  if (tid < N)
    a[2 * tid] += a[2 * tid + 1];
  data[tid] = a[2 * tid];
}

// Two elements per thread loaded cooperatively, a barrier, then any slot.
__global__ void cooperativePairs(const float *in, float *out) {
  __shared__ float a[2 * N + 2];
  int tid = threadIdx.x;
  a[2 * tid] = in[2 * blockIdx.x * N + 2 * tid];
  a[2 * tid + 1] = in[2 * blockIdx.x * N + 2 * tid + 1];
  __syncthreads();
  out[blockIdx.x * N + tid] = a[2 * tid + 2] - a[tid];
}

// The work-efficient scan: every step waits before the next one reads.
__global__ void blellochScan(float *g, int n) {
  __shared__ float temp[2 * N];
  int thid = threadIdx.x;
  int offset = 1;
  temp[2 * thid] = g[2 * thid];
  temp[2 * thid + 1] = g[2 * thid + 1];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (thid == 0)
    temp[n - 1] = 0;
  __syncthreads();
  g[2 * thid] = temp[2 * thid];
  g[2 * thid + 1] = temp[2 * thid + 1];
}

// Interleaved reduction with a barrier on every step.
__global__ void interleavedSum(const float *in, float *out) {
  __shared__ float sdata[2 * N];
  unsigned tid = threadIdx.x;
  sdata[2 * tid] = in[2 * (blockIdx.x * N + tid)];
  sdata[2 * tid + 1] = in[2 * (blockIdx.x * N + tid) + 1];
  __syncthreads();
  for (unsigned s = 1; s < 2 * blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < 2 * blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Warp-synchronous pairs: the first sixteen lanes are one warp, and
// __syncwarp() orders their stores before the reads of the next pair.
__global__ void warpPairs(const float *in, float *out) {
  __shared__ float a[34];
  int tid = threadIdx.x;
  if (tid < 16) {
    a[2 * tid] = in[2 * tid];
    a[2 * tid + 1] = in[2 * tid + 1];
    __syncwarp();
    out[tid] = a[2 * tid + 2] + a[2 * tid + 3];
  }
}

// Each pass refills the pairs after a barrier that ends the reads.
__global__ void pairsPerPass(const float *in, float *out, int passes) {
  __shared__ float pairs[2 * N];
  int tid = threadIdx.x;
  float acc = 0.f;
  for (int p = 0; p < passes; ++p) {
    pairs[2 * tid] = in[p * 2 * N + 2 * tid];
    pairs[2 * tid + 1] = in[p * 2 * N + 2 * tid + 1];
    __syncthreads();
    for (int k = 0; k < 2 * N; ++k)
      acc += pairs[k];
    __syncthreads();
  }
  out[tid] = acc;
}

// A covariance reduction over six slots per thread, in one sixteen-thread
// group that a cooperative_groups::thread_group sync orders at every step.
namespace cg = cooperative_groups;
__device__ float trace3(const float m[6]) { return m[0] + m[3] + m[5]; }
__device__ float groupCovariance(float dx, float dy, cg::thread_group g) {
  __shared__ float cov[16 * 6];
  const int idx = threadIdx.x;
  for (int c = 0; c < 6; ++c)
    cov[6 * idx + c] = c < 3 ? dx * dx : dx * dy;
  cg::sync(g);
  for (int d = 8; d > 0; d >>= 1) {
    if (idx < d)
      for (int c = 0; c < 6; ++c)
        cov[6 * idx + c] += cov[6 * (idx + d) + c];
    cg::sync(g);
  }
  return trace3(cov);
}
__global__ void covarianceBlocks(const float *x, float *out) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_group g = cg::tiled_partition(cta, 16);
  if (threadIdx.x < 16)
    out[blockIdx.x * 16 + threadIdx.x] =
        groupCovariance(x[threadIdx.x], x[16 + threadIdx.x], g);
}

//===--- Groups of threads -------------------------------------------------===//

// Each thread sums its group of eight slots, written by the group's other
// lanes with nothing ordering them.
__global__ void groupSumNoSync(const float *in, float *out) {
  __shared__ float a[N];
  unsigned tid = threadIdx.x;
  a[tid] = in[tid];
  float s = 0.f;
  for (unsigned j = 0; j < 8; ++j)
    s += a[j + (tid / 8) * 8];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: read of shared 'a' at 'j + (tid / 8) * 8' may see the write of another lane: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: written here at 'tid'
  out[tid] = s;
}

// The group's first slot as 'tid - tid % 4', in a local.
__global__ void quadSumNoSync(const float *in, float *out) {
  __shared__ float a[N];
  int tid = threadIdx.x;
  a[tid] = in[tid];
  int start = tid - tid % 4;
  float s = 0.f;
  for (int j = 0; j < 4; ++j)
    s += a[j + start];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: read of shared 'a' at 'j + start' may see the write of another lane: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: written here at 'tid'
  out[tid] = s;
}

// Rounds that refill the slots after the group's reads of the last round,
// with a __syncwarp() only between the stores and the reads.
__global__ void groupRounds(const float *in, float *out, int n) {
  __shared__ float a[N];
  unsigned tid = threadIdx.x;
  float s = 0.f;
  for (int r = 0; r < n; ++r) {
    a[tid] = in[r * N + tid];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'a' at 'tid' may overwrite the value another lane reads: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+3]]:12: note: read here at 'j + (tid / 8) * 8'
    __syncwarp();
    for (unsigned j = 0; j < 8; ++j)
      s += a[j + (tid / 8) * 8];
  }
  out[tid] = s;
}

// The same groups with __syncwarp() after the stores and after the reads.
__global__ void groupRoundsSynced(const float *in, float *out, int n) {
  __shared__ float a[N];
  unsigned tid = threadIdx.x;
  float s = 0.f;
  for (int r = 0; r < n; ++r) {
    a[tid] = in[r * N + tid];
    __syncwarp();
    for (unsigned j = 0; j < 8; ++j)
      s += a[j + (tid / 8) * 8];
    __syncwarp();
  }
  out[tid] = s;
}

// A block barrier between the stores and the group's reads.
__global__ void groupAfterBarrier(const float *in, float *out) {
  __shared__ float a[N];
  unsigned tid = threadIdx.x;
  a[tid] = in[tid];
  __syncthreads();
  float s = 0.f;
  for (unsigned j = 0; j < 8; ++j)
    s += a[j + (tid / 8) * 8];
  out[tid] = s;
}

// The warp leader sums its warp's slots after __syncwarp().
__global__ void leaderSumsWarp(const float *in, float *out) {
  __shared__ float a[N];
  unsigned tid = threadIdx.x;
  a[tid] = in[tid];
  __syncwarp();
  if (tid % 32 == 0) {
    float s = 0.f;
    for (int i = 0; i < 32; ++i)
      s += a[(tid / 32) * 32 + i];
    out[tid / 32] = s;
  }
}
