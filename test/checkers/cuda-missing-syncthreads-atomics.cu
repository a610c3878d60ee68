// cuda-missing-syncthreads on shared counters and queues updated with
// atomics: an atomic update is ordered with other threads' atomics, but not
// with their plain reads and writes of the same element; a slot picked by
// an atomic's old value ('q[atomicAdd(&tail, 1)] = v') is a store into an
// element that any other thread may read.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs

#define BLOCK 256

//===--- Flagged -----------------------------------------------------------===//

// The barrier after the initialisation dropped: other threads' increments
// may come before thread 0's store of zero.
__global__ void countNoBarrierAfterInit(const int *in, int *out, int n) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0)
    atomicAdd(&count, 1);
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: atomic update of shared 'count' may run before the store of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: written here
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = count;
}

// The barrier before the read dropped: thread 0 may write the count out
// before the other threads have added to it.
__global__ void countNoBarrierBeforeRead(const int *in, int *out, int n) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0)
    atomicAdd_block(&count, 1);
  if (threadIdx.x == 0)
    out[blockIdx.x] = count;
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: read of shared 'count' may miss the atomic updates of other threads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:22: note: updated atomically here
}

// A queue filled through the tail's tickets, then read by every thread
// below the tail with no barrier: both the tail and the slots race.
__global__ void queueNoBarrierBeforeReads(const int *in, int *out, int n) {
  __shared__ int queue[BLOCK];
  __shared__ int tail;
  if (threadIdx.x == 0)
    tail = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0)
    queue[atomicAdd(&tail, 1)] = i;
  if (threadIdx.x < tail)
    // CHECK-NOTES: :[[@LINE-1]]:21: warning: read of shared 'tail' may miss the atomic updates of other threads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:22: note: updated atomically here
    out[blockIdx.x * BLOCK + threadIdx.x] = queue[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:45: warning: read of shared 'queue' at 'threadIdx.x' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-6]]:5: note: written here at 'atomicAdd(&tail, 1)'
}

// The slot through a local; the queue read in a loop up to the tail after
// a barrier between the counter and the loop, but not after the fill of
// the slots (the barrier is above them).
__global__ void queueLocalSlotLoop(const int *in, int *out, int n) {
  __shared__ int queue[BLOCK];
  __shared__ int tail;
  if (threadIdx.x == 0)
    tail = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    int slot = atomicAdd_block(&tail, 1);
    queue[slot] = in[i];
  }
  int sum = 0;
  for (int k = 0; k < BLOCK; ++k)
    sum += queue[k];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read of shared 'queue' at 'k' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: written here at 'slot'
  out[i] = sum;
}

// A histogram cleared by every thread, then counted into at data-dependent
// bins with no barrier between: an increment may come before the clear.
__global__ void histogramNoBarrierAfterClear(const unsigned char *in,
                                             int *out, int n) {
  __shared__ int bins[BLOCK];
  bins[threadIdx.x] = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[in[i]], 1);
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: atomic update of shared 'bins' at 'in[i]' may run before the store of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: written here at 'threadIdx.x'
  __syncthreads();
  atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
}

// The counter reset for the next round with no barrier after the reads:
// the reset may come before another thread reads the count.
__global__ void countResetInLoop(const int *in, int *out, int n, int rounds) {
  __shared__ int count;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0)
      count = 0;
    __syncthreads();
    if (in[r * BLOCK + threadIdx.x] > 0)
      atomicAdd(&count, 1);
    __syncthreads();
    out[r * BLOCK + threadIdx.x] = count;
  }
  // CHECK-NOTES: :[[@LINE-7]]:7: warning: write to shared 'count' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:36: note: read here
}

// An atomic in a helper, the read in the kernel.
__device__ void countIf(int *counter, bool take) {
  if (take)
    atomicAdd(&counter[0], 1);
}
__device__ void bump(int *counter) { atomicAdd(&counter[0], 1); }

__global__ void helperAtomicNoBarrier(const int *in, int *out) {
  __shared__ int count[1];
  if (threadIdx.x == 0)
    count[0] = 0;
  __syncthreads();
  bump(count);
  if (threadIdx.x == 0)
    out[blockIdx.x] = count[0];
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: read of shared 'count' at '0' may miss the atomic updates of other threads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-11]]:49: note: updated atomically here at '0'
  // CHECK-NOTES: :[[@LINE-5]]:3: note: in the call of 'bump' here
}

//===--- Not flagged -------------------------------------------------------===//

// Barriers on both sides of the atomics.
__global__ void countWithBarriers(const int *in, int *out, int n) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0)
    atomicAdd(&count, 1);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = count;
}

// The queue with its barriers.
__global__ void queueWithBarriers(const int *in, int *out, int n) {
  __shared__ int queue[BLOCK];
  __shared__ int tail;
  if (threadIdx.x == 0)
    tail = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0)
    queue[atomicAdd(&tail, 1)] = i;
  __syncthreads();
  if (threadIdx.x < tail)
    out[blockIdx.x * BLOCK + threadIdx.x] = queue[threadIdx.x];
}

// Atomics only: they are ordered among themselves, and each ticket is
// one thread's slot, which it then reads itself.
__global__ void atomicsOnly(const int *in, int *out, int n) {
  __shared__ int hits;
  __shared__ int queue[BLOCK];
  __shared__ int tail;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&hits, in[i]);
  atomicMax(&hits, 0);
  int slot = atomicAdd(&tail, 1);
  queue[slot] = i;
  out[i] = queue[slot];
}

// Warp-aggregated: each warp's leader adds the warp's count, and the
// slots come from a shuffle of the leader's ticket.
__global__ void warpAggregated(const int *in, int *out, int n) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool take = i < n && in[i] > 0;
  unsigned mask = __ballot_sync(0xffffffffu, take);
  int lane = threadIdx.x % 32;
  int base = 0;
  if (lane == 0)
    base = atomicAdd(&count, __popc(mask));
  base = __shfl_sync(0xffffffffu, base, 0);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = count + base * 0;
}

// One thread initialises, counts and reads: no other thread touches it.
__global__ void oneThreadCounts(const int *in, int *out, int n) {
  __shared__ int count;
  if (threadIdx.x == 0) {
    count = 0;
    for (int k = 0; k < n; ++k)
      if (in[k] > 0)
        atomicAdd(&count, 1);
    out[blockIdx.x] = count;
  }
}

// Atomics on global memory are not this check's.
__global__ void globalCounter(const int *in, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    count[blockIdx.x] = 0;
  if (i < n && in[i] > 0)
    atomicAdd(&count[blockIdx.x], 1);
}

// A private counter per thread.
__global__ void privateCounter(const int *in, int *out, int n) {
  int count = 0;
  for (int k = threadIdx.x; k < n; k += blockDim.x)
    if (in[k] > 0)
      atomicAdd(&count, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = count;
}

// A per-thread slot of a shared array, counted atomically and read by the
// same thread.
__global__ void ownSlotAtomic(const int *in, int *out, int n) {
  __shared__ int perThread[BLOCK];
  perThread[threadIdx.x] = 0;
  for (int k = threadIdx.x; k < n; k += blockDim.x)
    if (in[k] > 0)
      atomicAdd(&perThread[threadIdx.x], 1);
  out[blockIdx.x * BLOCK + threadIdx.x] = perThread[threadIdx.x];
}

// The counter read only after the kernel: the shared count is flushed to
// global memory after a barrier by one atomic per block.
__global__ void flushAfterBarrier(const int *in, int *total, int n) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0)
    atomicAdd(&count, 1);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(total, count);
}

// The histogram with its barriers, flushed per bin.
__global__ void histogramWithBarriers(const unsigned char *in, int *out,
                                      int n) {
  __shared__ int bins[BLOCK];
  bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&bins[in[i]], 1);
  __syncthreads();
  atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
}

// The round loop with its third barrier.
__global__ void countResetWithBarrier(const int *in, int *out, int n,
                                      int rounds) {
  __shared__ int count;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0)
      count = 0;
    __syncthreads();
    if (in[r * BLOCK + threadIdx.x] > 0)
      atomicAdd(&count, 1);
    __syncthreads();
    out[r * BLOCK + threadIdx.x] = count;
    __syncthreads();
  }
}

// The helper's atomic with the barriers at the call.
__global__ void helperAtomicWithBarrier(const int *in, int *out) {
  __shared__ int count[1];
  if (threadIdx.x == 0)
    count[0] = 0;
  __syncthreads();
  countIf(count, in[threadIdx.x] > 0);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = count[0];
}
