// cuda-divergent-syncthreads: divergence through control flow (a variable
// that some threads of a block store and others do not), barriers under
// conditions that the last block's threads or per-cell data split, and
// values broadcast through '__shared__' scalars after a barrier, which
// every thread of the block reads alike.
// RUN: %check_cuda_tidy_plugin %s cuda-divergent-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-divergent-syncthreads %t

#define BLOCK 256

//===--- Flagged: divergence through control flow -------------------------===//

// Only the threads inside the data set their flag; the barrier is then
// reached by those threads only.
__global__ void flagSetInsideBounds(float *out, const float *in, int n) {
  __shared__ float tile[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int go = 0;
  if (i < n)
    go = 1;
  tile[threadIdx.x] = go ? in[i] : 0.0f;
  if (go)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
  if (i < n)
    out[i] = tile[BLOCK - 1 - threadIdx.x];
}

// The leader clears its own copy of the loop flag: it leaves after one
// round while the others wait at the barrier again.
__global__ void leaderStopsAlone(int *work, int rounds) {
  bool more = true;
  while (more) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:10: note: threads run this loop a different number of times
    if (threadIdx.x == 0 && --rounds == 0)
      more = false;
    work[threadIdx.x] += 1;
  }
}

// A count of the thread's own hits decides the barrier.
__global__ void countOfOwnHits(const float *in, float *out, int per) {
  __shared__ float partial[BLOCK];
  int hits = 0;
  for (int k = 0; k < per; ++k)
    if (in[k * blockDim.x + threadIdx.x] > 0.0f)
      hits++;
  partial[threadIdx.x] = hits;
  if (hits > 0)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
  out[threadIdx.x] = partial[BLOCK - 1 - threadIdx.x];
}

//===--- Flagged: last block, reduction rows, per-cell flags --------------===//

// The threads of the last block past 'size' skip the barrier.
__global__ void lastBlockSkips(float *out, const float *in, int size) {
  __shared__ float s[BLOCK];
  int offset = blockIdx.x * blockDim.x + threadIdx.x;
  if (offset < size) {
    s[threadIdx.x] = in[offset];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is reached only on one branch of this condition
    out[offset] = s[BLOCK - 1 - threadIdx.x];
  }
}

// A row reduction whose barrier only the active rows reach.
__global__ void rowReduction(float *out, const float *in) {
  __shared__ float s[16][16];
  int ty = threadIdx.y, tx = threadIdx.x;
  s[ty][tx] = in[ty * 16 + tx];
  __syncthreads();
  for (int i = 8; i > 0; i >>= 1) {
    if (ty < i) {
      s[ty][tx] += s[ty + i][tx];
      __syncthreads();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
      // CHECK-NOTES: :[[@LINE-4]]:9: note: the barrier is reached only on one branch of this condition
    }
  }
  if (ty == 0)
    out[blockIdx.x * 16 + tx] = s[0][tx];
}

// Each thread reads the flags of its own cell.
__global__ void perCellFlags(const unsigned *cellFlags, float *field,
                             unsigned fluidMask) {
  __shared__ float halo[BLOCK];
  int cell = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned flags = cellFlags[cell];
  halo[threadIdx.x] = field[cell];
  if (flags & fluidMask) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
    field[cell] = 0.5f * (halo[threadIdx.x] + halo[(threadIdx.x + 1) % BLOCK]);
  }
}

// A shared scalar that threads overwrite with their own index in the same
// interval as the read: threads may read different values.
__global__ void unsettledBroadcast(const int *in, int *out) {
  __shared__ int stop;
  if (in[blockIdx.x * blockDim.x + threadIdx.x] < 0)
    stop = threadIdx.x;
  int last = stop;
  for (int k = 0; k < last; ++k)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:19: note: threads run this loop a different number of times
  out[threadIdx.x] = last;
}

//===--- Not flagged ------------------------------------------------------===//

// A flag set under a condition every thread of the block agrees on.
__global__ void flagSetPerBlock(float *out, int activeBlocks) {
  __shared__ float s[BLOCK];
  int go = 0;
  if (blockIdx.x < activeBlocks)
    go = 1;
  s[threadIdx.x] = go;
  if (go)
    __syncthreads();
  out[threadIdx.x] = s[BLOCK - 1 - threadIdx.x];
}

// Per-thread flags combined by a block vote before they steer barriers.
__global__ void votedFlag(const int *in, int *out, int n) {
  __shared__ int s[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int any = 0;
  if (i < n && in[i] > 0)
    any = 1;
  any = __syncthreads_or(any);
  if (any) {
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    out[i] = s[BLOCK - 1 - threadIdx.x];
  }
}

// Work items drawn in batches: one thread takes a batch, and a thread that
// meets the end of the data publishes where it stopped. Each bound is read
// from a shared scalar after a barrier, with no write to it until the next
// one: every thread of the block reads the same value.
__global__ void batchesFromSharedCursor(int *cursor, const int *items,
                                        int *out, int total) {
  __shared__ volatile int s_batch;
  __shared__ volatile int s_end;
  int tid = threadIdx.x;
  int batch = 0;
  for (;;) {
    if (tid == 0)
      s_batch = atomicAdd(cursor, BLOCK);
    __syncthreads();
    batch = s_batch;
    if (batch >= total)
      break;
    int end = min(batch + BLOCK, total);
    while (batch < end) {
      int item = batch + tid < end ? items[batch + tid] : 0;
      if (tid == 0)
        s_end = end;
      __syncthreads();
      if (item < 0)
        s_end = batch + tid;
      __syncthreads();
      end = s_end;
      if (batch + tid < end)
        out[batch + tid] = item;
      batch += BLOCK;
      __syncthreads();
    }
    __syncthreads();
  }
}

//===--- Helpers that wait at a barrier -----------------------------------===//

__device__ float blockSum(float v, float *scratch) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      scratch[threadIdx.x] += scratch[threadIdx.x + s];
    __syncthreads();
  }
  return scratch[0];
}

__device__ float twice(float v) { return 2.0f * v; }

// Only the threads inside the data call the reduction, barriers included.
__global__ void reductionInsideBounds(const float *in, float *out, int n) {
  __shared__ float scratch[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float total = blockSum(in[i], scratch);
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: call of 'blockSum', which waits at a block barrier, is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is reached only on one branch of this condition
    out[i] = in[i] / total;
  }
}

// Every thread calls the reduction; the bound is applied inside the data.
__global__ void reductionEveryThread(const float *in, float *out, int n) {
  __shared__ float scratch[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float total = blockSum(i < n ? in[i] : 0.0f, scratch);
  if (i < n)
    out[i] = twice(in[i]) / total;
}

//===--- Grid-stride loops unrolled by a constant -------------------------===//

#define UNROLL 4

// Each thread handles UNROLL elements per round; the bound is rounded up to
// a multiple of the stride, so every thread makes the same number of
// rounds and waits at every barrier.
__global__ void unrolledRoundedLoop(const float *in, float *out, int total) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int rounded = ((total - 1) / (blockDim.x * gridDim.x * UNROLL) + 1) *
                blockDim.x * gridDim.x * UNROLL;
  for (int linear = idx; linear < rounded;
       linear += gridDim.x * blockDim.x * UNROLL) {
    for (int k = 0; k < UNROLL; ++k) {
      int li = linear + blockDim.x * gridDim.x * k;
      if (li < total)
        out[li] = 2.0f * in[li];
    }
    __syncthreads();
  }
}

// The same loop bounded by the data itself: the last round is partial.
__global__ void unrolledDataBound(const float *in, float *out, int total) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  for (int linear = idx; linear < total;
       linear += gridDim.x * blockDim.x * UNROLL) {
    out[linear] = 2.0f * in[linear];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
    // CHECK-NOTES: :[[@LINE-5]]:26: note: threads run this loop a different number of times
  }
}

// Block-strided loop: the start is the block's first element, so every
// thread of a block agrees on each test; the tail is guarded inside.
__global__ void blockStartStride(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK];
  for (int base = blockIdx.x * blockDim.x; base < n;
       base += blockDim.x * gridDim.x) {
    int i = base + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
      out[i] = tile[BLOCK - 1 - threadIdx.x];
    __syncthreads();
  }
}
