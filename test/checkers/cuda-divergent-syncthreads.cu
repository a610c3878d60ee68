// cuda-divergent-syncthreads: a block barrier that only some threads of the
// block reach.
// RUN: %check_cuda_tidy_plugin %s cuda-divergent-syncthreads %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-divergent-syncthreads %t -- --extra-arg=-I%S/../Inputs

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define TILE 16
#define BLOCK 256

//===--- Flagged -----------------------------------------------------------===//

__global__ void earlyReturnThenBarrier(float *out, const float *in, int n) {
  __shared__ float s[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: threads leave before the barrier depending on this condition
  out[i] = s[BLOCK - 1 - threadIdx.x];
}

__global__ void barrierInsideThreadIf(float *out) {
  __shared__ float s[BLOCK];
  if (threadIdx.x < 32) {
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is reached only on one branch of this condition
    out[threadIdx.x] = s[31 - threadIdx.x];
  }
}

__global__ void barrierInElse(float *out) {
  if (threadIdx.x == 0) {
    out[0] = 1.0f;
  } else {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-5]]:7: note: the barrier is reached only on one branch of this condition
  }
}

__global__ void threadStridedLoop(float *out, const float *in, int n) {
  __shared__ float s[BLOCK];
  for (int k = threadIdx.x; k < n; k += blockDim.x) {
    s[threadIdx.x] = in[k];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:29: note: threads run this loop a different number of times
    out[k] = s[0];
  }
}

__global__ void whileOnPerThreadData(int *data) {
  int tid = threadIdx.x;
  while (data[tid] > 0) {
    data[tid] -= 1;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:10: note: threads run this loop a different number of times
  }
}

__global__ void ifOnLoadedValue(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0.0f)
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
  out[i] = in[i];
}

__global__ void ifOnLocalCopy(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (v > 0.0f)
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
  out[i] = v;
}

__global__ void ifOnAtomicResult(int *counter) {
  if (atomicAdd(counter, 1) == 0)
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
}

__global__ void atomicTicketThenReturn(int *counter, float *out) {
  int ticket = atomicAdd(counter, 1);
  if (ticket >= 4)
    return;
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: threads leave before the barrier depending on this condition
  out[ticket] = 1.0f;
}

__global__ void syncthreadsCountDivergent(int *out, const int *in) {
  int c = 0;
  if (threadIdx.x % 2 == 0)
    c = __syncthreads_count(in[threadIdx.x] > 0);
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: barrier '__syncthreads_count' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
  out[threadIdx.x] = c;
}

__global__ void syncthreadsAndDivergent(int *out, int n) {
  if (threadIdx.x < n)
    out[threadIdx.x] = __syncthreads_and(out[threadIdx.x]);
    // CHECK-NOTES: :[[@LINE-1]]:24: warning: barrier '__syncthreads_and' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
}

__global__ void syncthreadsOrAfterReturn(int *out, int n) {
  if (threadIdx.x >= n)
    return;
  out[threadIdx.x] = __syncthreads_or(out[threadIdx.x]);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: barrier '__syncthreads_or' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: threads leave before the barrier depending on this condition
}

__global__ void groupMemberSync(float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < n) {
    out[block.thread_rank()] = 0.0f;
    block.sync();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'thread_block::sync' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is reached only on one branch of this condition
  }
}

__global__ void groupFreeSync(float *out) {
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x > 0)
    return;
  cg::sync(block);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier 'cooperative_groups::sync' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: threads leave before the barrier depending on this condition
  out[0] = 1.0f;
}

__global__ void thisThreadBlockSync(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = 0.0f;
    cg::this_thread_block().sync();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'thread_block::sync' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is reached only on one branch of this condition
  }
}

__global__ void shortCircuitCondition(float *out, int n) {
  if (n > 0 && threadIdx.x < n) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
    out[threadIdx.x] = 0.0f;
  }
}

__global__ void breakOutOfReduction(float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid >= stride)
      break;
    s[tid] += s[tid + stride];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-5]]:9: note: threads leave before the barrier depending on this condition
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void reductionBarrierInsideGuard(float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s[tid] += s[tid + stride];
      __syncthreads();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
      // CHECK-NOTES: :[[@LINE-4]]:9: note: the barrier is reached only on one branch of this condition
    }
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void tiledMatmulGuardOutside(const float *A, const float *B,
                                        float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
      As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
      Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
      __syncthreads();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
      // CHECK-NOTES: :[[@LINE-7]]:7: note: the barrier is reached only on one branch of this condition
      for (int k = 0; k < TILE; ++k)
        acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
      __syncthreads();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
      // CHECK-NOTES: :[[@LINE-12]]:7: note: the barrier is reached only on one branch of this condition
    }
    C[row * n + col] = acc;
  }
}

__global__ void doWhileOnPerThreadData(int *work) {
  int left = work[threadIdx.x];
  do {
    --left;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
  } while (left > 0);
  // CHECK-NOTES: :[[@LINE-1]]:12: note: threads run this loop a different number of times
  work[threadIdx.x] = left;
}

__global__ void shuffleResult(int *out, int v) {
  int x = __shfl_down_sync(0xffffffffu, v, 1);
  if (x != 0)
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
  out[threadIdx.x] = x;
}

__global__ void twoDimensionalRow(float *out, int h) {
  if (threadIdx.y >= h)
    return;
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: threads leave before the barrier depending on this condition
  out[threadIdx.y] = 0.0f;
}

__global__ void switchOnLane(float *out) {
  switch (threadIdx.x % 4) {
  case 0:
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:11: note: the barrier is reached only on one branch of this condition
    break;
  default:
    out[threadIdx.x] = 0.0f;
  }
}

__device__ void stageLeader(float *s) {
  if (threadIdx.x == 0) {
    s[0] = 0.0f;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is reached only on one branch of this condition
  }
}

__global__ void gridRankCondition(float *out, unsigned long long n) {
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() >= n)
    return;
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: threads leave before the barrier depending on this condition
  out[grid.thread_rank()] = 0.0f;
}

//===--- Not flagged -------------------------------------------------------===//

__global__ void treeReduction(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void tiledMatmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < n && ac < n) ? A[row * n + ac] : 0.0f;
    if (br < n && col < n)
      Bs[threadIdx.y][threadIdx.x] = B[br * n + col];
    else
      Bs[threadIdx.y][threadIdx.x] = 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

__global__ void gridStrideBarrierOutside(float *out, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = in[i];
  __syncthreads();
}

__global__ void earlyReturnByBlock(float *out, int numBlocks) {
  if (blockIdx.x >= numBlocks)
    return;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
}

__global__ void earlyReturnByTileOrigin(float *out, int n) {
  int row0 = blockIdx.y * TILE;
  if (row0 >= n)
    return;
  __syncthreads();
  out[row0] = 0.0f;
}

__global__ void conditionOnParameter(float *out, int n) {
  if (n > 256)
    __syncthreads();
  out[threadIdx.x] = 0.0f;
}

__global__ void conditionOnBlockDim(float *out) {
  if (blockDim.x >= 64)
    __syncthreads();
  out[threadIdx.x] = 0.0f;
}

__global__ void uniformLoop(float *out, int n) {
  for (int k = 0; k < n; ++k) {
    out[threadIdx.x] += 1.0f;
    __syncthreads();
  }
}

__global__ void leaderWritesThenBarrier(int *out) {
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = out[0];
  __syncthreads();
  out[threadIdx.x] = flag;
}

__global__ void uniformSharedFlag(int *out) {
  __shared__ int done;
  if (threadIdx.x == 0)
    done = out[0] > 0;
  __syncthreads();
  if (done)
    return;
  __syncthreads();
  out[threadIdx.x] = 1;
}

__global__ void syncthreadsOrIsUniform(int *work) {
  int pending = work[threadIdx.x];
  while (__syncthreads_or(pending > 0)) {
    if (pending > 0)
      --pending;
  }
  int any = __syncthreads_or(pending);
  if (any)
    __syncthreads();
  work[threadIdx.x] = pending;
}

__global__ void syncthreadsCountIsUniform(int *out, const int *in) {
  int alive = __syncthreads_count(in[threadIdx.x] != 0);
  for (int k = 0; k < alive; ++k)
    __syncthreads();
  out[threadIdx.x] = alive;
}

__global__ void joinAfterThreadBranches(float *out, const float *in, int n) {
  __shared__ float s[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    s[threadIdx.x] = in[i];
  else
    s[threadIdx.x] = 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[blockDim.x - 1 - threadIdx.x];
}

__global__ void syncwarpIsNotABlockBarrier(float *out) {
  if (threadIdx.x < 32) {
    out[threadIdx.x] = 0.0f;
    __syncwarp();
  }
}

__global__ void loopOverGridDim(float *out) {
  for (unsigned b = 0; b < gridDim.x; ++b) {
    out[threadIdx.x] += b;
    __syncthreads();
  }
}

__global__ void conditionOnPerBlockData(const int *counts, float *out) {
  if (counts[blockIdx.x] > 0)
    __syncthreads();
  out[threadIdx.x] = 0.0f;
}

__global__ void conditionOnUniformLoad(const float *in, float *out) {
  if (in[0] > 0.0f)
    __syncthreads();
  out[threadIdx.x] = in[0];
}

__global__ void ternaryBeforeBarrier(float *out, const float *in, int n) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  s[tid] = tid < n ? in[tid] : 0.0f;
  __syncthreads();
  out[tid] = s[0];
}

__device__ void stageOnParameter(int k) {
  if (k > 0)
    __syncthreads();
}

__global__ void groupSyncUnconditional(float *out) {
  cg::thread_block block = cg::this_thread_block();
  out[block.thread_rank()] = 0.0f;
  cg::sync(block);
  block.sync();
  out[0] = 1.0f;
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

__global__ void loopOverSharedCount(float *out) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = (int)out[0];
  __syncthreads();
  for (int k = 0; k < count; ++k)
    __syncthreads();
}

__global__ void tileLoop(float *out, int n) {
  int numTiles = (n + TILE - 1) / TILE;
  for (int t = 0; t < numTiles; ++t) {
    if (t == numTiles - 1)
      continue;
    out[t * TILE + threadIdx.x] = 0.0f;
    __syncthreads();
  }
}

__global__ void switchOnBlock(float *out) {
  switch (blockIdx.x % 2) {
  case 0:
    __syncthreads();
    break;
  default:
    out[threadIdx.x] = 0.0f;
  }
}

__global__ void persistentLoop(int *queue) {
  while (true) {
    if (threadIdx.x == 0)
      queue[0] += 1;
    __syncthreads();
  }
}

__global__ void trapOnBadThread(float *out, int n) {
  if (threadIdx.x >= n)
    __trap();
  __syncthreads();
  out[threadIdx.x] = 0.0f;
}

__global__ void returnThenBarrierThenTrap(float *out, int n) {
  if (threadIdx.x >= n)
    return;
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: threads leave before the barrier depending on this condition
  __trap();
}

//===--- Uniform trip counts and broadcast values --------------------------===//

// A grid-stride loop whose bound is rounded up to a multiple of the stride:
// every thread makes the same number of trips, and the tail is guarded
// inside the body.
__global__ void gridStrideRoundedUp(float *data, int n) {
  __shared__ float tile[BLOCK];
  int stride = blockDim.x * gridDim.x;
  int padded = (n + stride - 1) / stride * stride;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < padded; i += stride) {
    tile[threadIdx.x] = i < n ? data[i] : 0.0f;
    __syncthreads();
    if (i < n)
      data[i] = tile[BLOCK - 1 - threadIdx.x];
    __syncthreads();
  }
}

// The same, block-stride, with the bound written out.
__global__ void blockStrideRoundedUp(float *data, int n) {
  __shared__ float tile[BLOCK];
  for (int i = threadIdx.x; i < (n + blockDim.x - 1) / blockDim.x * blockDim.x;
       i += blockDim.x) {
    tile[threadIdx.x] = i < n ? data[i] : 0.0f;
    __syncthreads();
  }
}

// Bounded by n itself, threads run the loop a different number of times.
__global__ void gridStrideNotRounded(float *data, int n) {
  __shared__ float tile[BLOCK];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    tile[threadIdx.x] = data[i];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-5]]:55: note: threads run this loop a different number of times
  }
}

// Rounded up to a multiple of something else than the stride.
__global__ void gridStrideWrongMultiple(float *data, int n) {
  __shared__ float tile[BLOCK];
  int padded = (n + 31) / 32 * 32;
  for (int i = threadIdx.x; i < padded; i += blockDim.x) {
    tile[threadIdx.x] = i < n ? data[i] : 0.0f;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:29: note: threads run this loop a different number of times
  }
}

// A value first per thread, then broadcast from shared memory after a
// barrier: the condition reads the broadcast.
__global__ void broadcastAfterBarrier(float *out, const float *in) {
  __shared__ float pivot[1];
  __shared__ float s[BLOCK];
  float v = in[blockIdx.x * BLOCK + threadIdx.x];
  s[threadIdx.x] = v;
  if (threadIdx.x == 0)
    pivot[0] = v;
  __syncthreads();
  v = pivot[0];
  if (v > 0.0f) {
    s[threadIdx.x] *= v;
    __syncthreads();
  }
  out[blockIdx.x * BLOCK + threadIdx.x] = s[threadIdx.x];
}

// The per-thread value reaches the condition on one path.
__global__ void broadcastOnOnePath(float *out, const float *in, int mode) {
  __shared__ float pivot[1];
  float v = in[blockIdx.x * BLOCK + threadIdx.x];
  if (threadIdx.x == 0)
    pivot[0] = v;
  __syncthreads();
  if (mode)
    v = pivot[0];
  if (v > 0.0f) {
    pivot[0] = 0.0f;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is reached only on one branch of this condition
  }
  out[threadIdx.x] = v;
}

// An integer that held the thread index, then a count read after a barrier.
__global__ void countAfterBarrier(int *out, const int *flags) {
  __shared__ int total;
  int t = threadIdx.x;
  if (t == 0)
    total = 0;
  __syncthreads();
  atomicAdd(&total, flags[t]);
  __syncthreads();
  t = total;
  while (t > 0) {
    t /= 2;
    __syncthreads();
  }
  out[threadIdx.x] = t;
}
