// cuda-missing-syncthreads: a shared-memory element one thread writes and
// another thread reads (or reads before another thread overwrites it) with
// no barrier between.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCK 256
#define TILE 16

//===--- Flagged -----------------------------------------------------------===//

__global__ void reductionFirstBarrierRemoved(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
      // CHECK-NOTES: :[[@LINE-1]]:17: warning: read of shared 's' at 'tid + stride' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
      // CHECK-NOTES: :[[@LINE-5]]:3: note: written here at 'tid'
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void reductionLoopBarrierRemoved(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
      // CHECK-NOTES: :[[@LINE-1]]:17: warning: read of shared 's' at 'tid + stride' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: written here at 'tid'
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void reverseNoBarrier(const float *in, float *out) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  out[tid] = s[blockDim.x - 1 - tid];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 's' at 'blockDim.x - 1 - tid' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'tid'
}

__global__ void broadcastNoBarrier(const float *in, float *out) {
  __shared__ float s[1];
  if (threadIdx.x == 0)
    s[0] = in[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[0];
  // CHECK-NOTES: :[[@LINE-1]]:48: warning: read of shared 's' at '0' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: written here at '0'
}

__global__ void readFirstSlotNoBarrier(const float *in, float *out) {
  __shared__ float s[BLOCK];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = s[0];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of shared 's' at '0' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'threadIdx.x'
}

__global__ void rightNeighbour(const float *in, float *out) {
  __shared__ float s[BLOCK + 1];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  out[tid] = s[tid + 1] - s[tid];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 's' at 'tid + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'tid'
}

__global__ void leftNeighbour(const float *in, float *out) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  if (tid > 0)
    out[tid] = s[tid - 1];
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: read of shared 's' at 'tid - 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:3: note: written here at 'tid'
}

__global__ void dynamicSharedNeighbour(const float *in, float *out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = dyn[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of shared 'dyn' at 'threadIdx.x + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'threadIdx.x'
}

__global__ void readThenNeighbourOverwrites(float *out) {
  __shared__ float s[BLOCK + 1];
  int tid = threadIdx.x;
  float v = s[tid + 1];
  s[tid] = v * 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to shared 's' at 'tid' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:13: note: read here at 'tid + 1'
  out[tid] = v;
}

__global__ void warpTailWithoutSyncwarp(float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] += s[tid + 16];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 's' at 'tid' may overwrite the value another lane reads: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-2]]:15: note: read here at 'tid + 16'
    s[tid] += s[tid + 8];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 's' at 'tid' may overwrite the value another lane reads: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-5]]:15: note: read here at 'tid + 16'
    // CHECK-NOTES: :[[@LINE-3]]:15: warning: read of shared 's' at 'tid + 8' may see the write of another lane: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-7]]:5: note: written here at 'tid'
  }
  if (tid == 0)
    out[0] = s[0];
}

__global__ void syncwarpAcrossWarps(const float *in, float *out) {
  __shared__ float s[BLOCK + 1];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncwarp();
  out[tid] = s[tid + 1];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 's' at 'tid + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: written here at 'tid'
}

__global__ void inPlaceScan(float *data) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  s[tid] = data[tid];
  __syncthreads();
  for (int off = 1; off < BLOCK; off *= 2) {
    if (tid >= off)
      s[tid] += s[tid - off];
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: write to shared 's' at 'tid' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
      // CHECK-NOTES: :[[@LINE-2]]:17: note: read here at 'tid - off'
    __syncthreads();
  }
  data[tid] = s[tid];
}

__global__ void blockRankNeighbour(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[BLOCK + 1];
  unsigned r = block.thread_rank();
  s[r] = in[r];
  out[r] = s[r + 1];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read of shared 's' at 'r + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'r'
}

__global__ void secondStageAfterBarrier(const float *in, float *out) {
  __shared__ float s[BLOCK + 2];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  s[tid] = s[tid] * 2.0f;
  out[tid] = s[tid + 2];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 's' at 'tid + 2' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'tid'
}

__global__ void uniformOffset(const float *in, float *out, int k) {
  __shared__ float s[2 * BLOCK];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  out[tid] = s[tid + k];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 's' at 'tid + k' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'tid'
}

__global__ void incrementThenNeighbour(int *out) {
  __shared__ int s[BLOCK + 1];
  int tid = threadIdx.x;
  s[tid] = 0;
  __syncthreads();
  s[tid]++;
  out[tid] = s[tid + 1];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 's' at 'tid + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'tid'
}

__global__ void secondBarrierMissing(const float *in, float *out) {
  __shared__ float s[BLOCK + 1];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  float left = s[tid + 1];
  s[tid] = left * 0.5f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to shared 's' at 'tid' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: read here at 'tid + 1'
  __syncthreads();
  out[tid] = s[tid];
}

__global__ void syncwarpWithWideStride(float *out) {
  __shared__ float s[96];
  unsigned tid = threadIdx.x;
  if (tid < 64) {
    s[tid] = out[tid];
    __syncwarp();
    out[tid] = s[tid + 32];
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: read of shared 's' at 'tid + 32' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: written here at 'tid'
  }
}

__global__ void mirrorConstant(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  out[tid] = s[BLOCK - 1 - tid];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 's' at 'BLOCK - 1 - tid' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'tid'
}

__global__ void gridStrideStaging(const float *in, float *out, int n) {
  __shared__ float s[BLOCK + 1];
  int tid = threadIdx.x;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
    s[tid] = in[i];
    out[i] = s[tid + 1];
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 's' at 'tid + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: written here at 'tid'
    __syncthreads();
  }
}

//===--- Not flagged -------------------------------------------------------===//

__global__ void treeReduction(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void topBarrierReduction(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (tid < stride)
      s[tid] += s[tid + stride];
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void sameThread(const float *in, float *out) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  s[tid] *= 2.0f;
  out[tid] = s[tid];
}

__global__ void reverseWithBarrier(const float *in, float *out) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  out[tid] = s[blockDim.x - 1 - tid];
}

__global__ void broadcastWithBarrier(const float *in, float *out) {
  __shared__ float s[1];
  if (threadIdx.x == 0)
    s[0] = in[blockIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[0];
}

__global__ void neighbourWithBarrier(const float *in, float *out) {
  __shared__ float s[BLOCK + 1];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  out[tid] = s[tid + 1] - s[tid];
}

__global__ void dynamicSharedWithBarrier(const float *in, float *out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = dyn[threadIdx.x + 1];
}

__global__ void warpTailWithSyncwarp(float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 32) {
    float v = s[tid];
    v += s[tid + 16];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
    v += s[tid + 8];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
  }
  __syncthreads();
  if (tid == 0)
    out[0] = s[0];
}

__global__ void groupSyncBarrier(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[BLOCK + 1];
  unsigned r = block.thread_rank();
  s[r] = in[r];
  block.sync();
  out[r] = s[r + 1];
  cg::sync(block);
  s[r] = 0.0f;
}

__global__ void syncthreadsCountBarrier(const float *in, int *out) {
  __shared__ float s[BLOCK + 1];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  int c = __syncthreads_count(s[tid] > 0.0f);
  out[tid] = c + (int)s[tid + 1];
}

__global__ void tiledMatmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__global__ void transpose(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void differentArrays(const float *in, float *out) {
  __shared__ float a[BLOCK];
  __shared__ float b[BLOCK + 1];
  int tid = threadIdx.x;
  a[tid] = in[tid];
  out[tid] = b[tid + 1];
}

__global__ void lowerHalfCopiesUpperHalf(float *out) {
  __shared__ float s[32];
  int tid = threadIdx.x;
  if (tid < 16)
    s[tid] = s[tid + 16];
  __syncthreads();
  out[tid] = s[tid];
}

__global__ void leaderReadsOwnSlot(const float *in, float *out) {
  __shared__ float s[BLOCK];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

__global__ void localArray(const float *in, float *out) {
  float s[4];
  int tid = threadIdx.x;
  s[tid & 3] = in[tid];
  out[tid] = s[(tid + 1) & 3];
}

__global__ void globalMemory(float *g) {
  int tid = threadIdx.x;
  g[tid] = 1.0f;
  g[tid + 1] += 1.0f;
}

__global__ void doubleBufferedScan(float *data) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  s[tid] = data[tid];
  __syncthreads();
  for (int off = 1; off < BLOCK; off *= 2) {
    float v = s[tid];
    if (tid >= off)
      v += s[tid - off];
    __syncthreads();
    s[tid] = v;
    __syncthreads();
  }
  data[tid] = s[tid];
}

__global__ void exclusiveBranches(const float *in, float *out) {
  __shared__ float s[BLOCK + 1];
  int tid = threadIdx.x;
  if (blockIdx.x == 0)
    s[tid] = in[tid];
  else
    out[tid] = s[tid + 1];
}

__global__ void perThreadIndexUnknown(const int *idx, float *out) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  s[tid] = 1.0f;
  out[tid] = s[idx[tid]];
}

__global__ void writeAfterBarrierInLoop(const float *in, float *out, int n) {
  __shared__ float s[BLOCK + 1];
  int tid = threadIdx.x;
  for (int k = 0; k < n; ++k) {
    s[tid] = in[k * BLOCK + tid];
    __syncthreads();
    out[k * BLOCK + tid] = s[tid + 1];
    __syncthreads();
  }
}

__global__ void twoSlotsPerThread(const float *in, float *out) {
  extern __shared__ float two[];
  unsigned tid = threadIdx.x;
  two[tid] = in[tid];
  two[tid + blockDim.x] = in[tid + blockDim.x];
  out[tid] = two[tid] + two[tid + blockDim.x];
}

// A reduction nested in a guard on the thread: t < s still separates the
// threads of each step, whatever other bound holds on t.
__global__ void nestedGuardedReduction(float *out, int cols) {
  __shared__ float scratch[256];
  int t = threadIdx.x;
  scratch[t] = 1.0f;
  __syncthreads();
  if (t < cols) {
    for (int s = 128; s > 0; s >>= 1) {
      if (t < s)
        scratch[t] += scratch[t + s];
      __syncthreads();
    }
  }
  out[t] = scratch[0];
}
