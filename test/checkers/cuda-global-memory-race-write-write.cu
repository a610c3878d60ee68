// cuda-global-memory-race, write-write: every thread of a block stores its
// own value to one element the block shares ('out[blockIdx.x] = partial'),
// so the element keeps whichever store lands last. Reported only where the
// value provably differs between the threads (the thread index or
// per-thread data, with no helper, broadcast shuffle or shared-memory read
// that could make it the same) and every thread of the block reaches the
// store.
// RUN: %check_cuda_tidy_plugin %s cuda-global-memory-race %t
// RUN: %check_cuda_tidy_driver %s cuda-global-memory-race %t

#define BLOCK 256

//===--- Flagged -----------------------------------------------------------===//

// Each thread's partial sum of the row, stored by all of them.
__global__ void rowSumNoLeader(const float *x, float *out, int len) {
  float partial = 0.0f;
  for (int j = threadIdx.x; j < len; j += blockDim.x)
    partial += x[blockIdx.x * len + j];
  out[blockIdx.x] = partial;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: threads of each block store different values to global 'out' at 'blockIdx.x': a write-write race, the element keeps whichever thread's store lands last [cuda-global-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: store from one thread (for example under 'if (threadIdx.x == 0)' after the block's values are combined), or give each thread its own element
}

// Through a local item and a per-thread load.
__global__ void scaleThroughItem(const float *x, float *out) {
  int item = blockIdx.x;
  float v = x[item * BLOCK + threadIdx.x];
  out[item] = v * 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: threads of each block store different values to global 'out' at 'item': a write-write race, the element keeps whichever thread's store lands last [cuda-global-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: store from one thread (for example under 'if (threadIdx.x == 0)' after the block's values are combined), or give each thread its own element
}

// A shuffle-down reduction leaves the total in lane 0 only; the others
// hold partial sums, and every lane stores its own.
__global__ void warpSumAllLanes(const float *x, float *out) {
  float v = x[blockIdx.x * 32 + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  out[blockIdx.x] = v;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: threads of each block store different values to global 'out' at 'blockIdx.x': a write-write race, the element keeps whichever thread's store lands last [cuda-global-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: store from one thread (for example under 'if (threadIdx.x == 0)' after the block's values are combined), or give each thread its own element
}

// The thread index itself, to one element of the grid.
__global__ void lastWriterWins(int *winner) {
  winner[0] = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: threads of the grid store different values to global 'winner' at '0': a write-write race, the element keeps whichever thread's store lands last [cuda-global-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: store from one thread (for example under 'if (threadIdx.x == 0)' after the block's values are combined), or give each thread its own element
}

//===--- Not flagged -------------------------------------------------------===//

// A block reduction in shared memory, stored by thread 0.
__global__ void rowSumLeader(const float *x, float *out) {
  __shared__ float s[BLOCK];
  s[threadIdx.x] = x[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// The same, with an early exit of the other threads.
__global__ void rowSumEarlyExit(const float *x, float *out) {
  __shared__ float s[BLOCK];
  s[threadIdx.x] = x[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x != 0)
    return;
  out[blockIdx.x] = s[0];
}

// Every thread stores the reduced total it read from shared memory: the
// same value.
__global__ void rowSumAllStoreTotal(const float *x, float *out) {
  __shared__ float s[BLOCK];
  s[threadIdx.x] = x[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  float total = s[0];
  out[blockIdx.x] = total;
}

// A butterfly leaves every lane of the warp the total.
__global__ void warpSumButterfly(const float *x, float *out) {
  float v = x[blockIdx.x * 32 + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  out[blockIdx.x] = v;
}

// Lane 0 of a warp, after a shuffle-down reduction.
__global__ void warpSumLaneZero(const float *x, float *out) {
  float v = x[blockIdx.x * 32 + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  int lane = threadIdx.x % 32;
  if (lane == 0)
    out[blockIdx.x] = v;
}

// A helper that combines the block's values (it may broadcast the total).
__device__ float blockSum(float v);
__global__ void rowSumHelper(const float *x, float *out) {
  float v = blockSum(x[blockIdx.x * BLOCK + threadIdx.x]);
  out[blockIdx.x] = v;
}

// A value uniform in the block.
__global__ void fillRows(float *out, float scale) {
  out[blockIdx.x] = scale * 2.0f;
}

// Atomics.
__global__ void rowSumAtomic(const float *x, float *out) {
  atomicAdd(&out[blockIdx.x], x[blockIdx.x * BLOCK + threadIdx.x]);
}

// A grid-stride loop: one element per thread.
__global__ void copyGridStride(const float *x, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = x[i];
}

// A thread per element.
__global__ void scalePerThread(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] * 2.0f;
}

// A store under a condition on the thread's data: whoever finds the key.
__global__ void findKey(const int *keys, int *where, int key, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] == key)
    where[blockIdx.x] = i;
}

// Every thread stores the same flag.
__global__ void markRow(const float *x, int *flags) {
  flags[blockIdx.x] = 1;
}

//===--- Flagged: a ticket's value --------------------------------------===//

// Each selected thread draws a slot and stores the count so far: the
// element keeps the last store, not the largest (reduced from HeCBench p4,
// fixed in 69787e266 by removing the store).
__global__ void appendAndCount(const float *score, float *boxes, int *counter,
                               float thresh, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || score[i] < thresh)
    return;
  int slot = atomicAdd(counter, 1);
  boxes[0] = slot + 1;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: threads of the grid store different values to global 'boxes' at '0': a write-write race, the element keeps whichever thread's store lands last [cuda-global-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: store from one thread (for example under 'if (threadIdx.x == 0)' after the block's values are combined), or give each thread its own element
  boxes[1 + slot * 2] = score[i];
}

// The ticket picks the thread's own slot: no race.
__global__ void appendOnly(const float *score, float *boxes, int *counter,
                           float thresh, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || score[i] < thresh)
    return;
  int slot = atomicAdd(counter, 1);
  boxes[slot] = score[i];
}
