// cuda-missing-syncthreads: shared scalars that one thread writes and all
// read, accesses made inside __device__ helpers (counted at the call), and
// warp-synchronous code that relies on lanes running in lockstep.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

#define BLOCK 256

// One thread writes a scalar; every thread reads it with no barrier.
__global__ void seedWithoutBarrier(const int *in, int *out) {
  __shared__ int seed;
  if (threadIdx.x == 0)
    seed = in[blockIdx.x];
  out[threadIdx.x] = seed + threadIdx.x;
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of shared 'seed' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: written here
}

// The fix: a barrier after the write.
__global__ void seedWithBarrier(const int *in, int *out) {
  __shared__ int seed;
  if (threadIdx.x == 0)
    seed = in[blockIdx.x];
  __syncthreads();
  out[threadIdx.x] = seed + threadIdx.x;
}

// Loop-carried: every thread reads the scalar, then thread 0 overwrites it
// at the top of the next round while others may still read it.
__global__ void roundsWithoutTrailingBarrier(const float *in, float *out,
                                             int rounds) {
  __shared__ float scale;
  float acc = 0.f;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0)
      scale = in[r];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: write to shared 'scale' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    __syncthreads();
    acc += scale * in[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:12: note: read here
  }
  out[threadIdx.x] = acc;
}

// The fix: a barrier at the end of each round.
__global__ void roundsWithTrailingBarrier(const float *in, float *out,
                                          int rounds) {
  __shared__ float scale;
  float acc = 0.f;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0)
      scale = in[r];
    __syncthreads();
    acc += scale * in[threadIdx.x];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// Thread 0 alone reads what it alone wrote: no other thread is involved.
__global__ void ownScalar(int *out) {
  __shared__ int count;
  if (threadIdx.x == 0) {
    count = 0;
    for (int i = 0; i < 4; ++i)
      count += out[i];
    out[0] = count;
  }
}

// An error-check flag set by one thread and read after the barrier.
__global__ void flagAfterBarrier(const int *in, int *out) {
  __shared__ bool bad;
  if (threadIdx.x == 0)
    bad = in[0] < 0;
  __syncthreads();
  if (bad)
    return;
  out[threadIdx.x] = in[threadIdx.x];
}

__shared__ float stage[BLOCK];

// A helper that reads the namespace-scope array at the neighbour's slot.
__device__ float neighbour(unsigned t) { return stage[t + 1]; }

__global__ void helperReadsNeighbour(const float *in, float *out) {
  unsigned t = threadIdx.x;
  stage[t] = in[t];
  out[t] = neighbour(t);
  // CHECK-NOTES: :[[@LINE-6]]:49: warning: read of shared 'stage' at 't + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: in the call of 'neighbour' here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: written here at 't'
}

__global__ void helperAfterBarrier(const float *in, float *out) {
  unsigned t = threadIdx.x;
  stage[t] = in[t];
  __syncthreads();
  out[t] = neighbour(t);
}

// A helper that writes through a pointer to the kernel's array.
__device__ void store(float *buf, unsigned i, float v) { buf[i] = v; }

__global__ void helperWritesThroughPointer(const float *in, float *out) {
  __shared__ float tile[BLOCK];
  unsigned t = threadIdx.x;
  store(tile, t, in[t]);
  out[t] = tile[BLOCK - 1 - t];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read of shared 'tile' at 'BLOCK - 1 - t' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-8]]:58: note: written here at 'i'
  // CHECK-NOTES: :[[@LINE-4]]:3: note: in the call of 'store' here
}

__global__ void helperWritesThenBarrier(const float *in, float *out) {
  __shared__ float tile[BLOCK];
  unsigned t = threadIdx.x;
  store(tile, t, in[t]);
  __syncthreads();
  out[t] = tile[BLOCK - 1 - t];
}

// A helper that waits at a barrier is a barrier at its call.
__device__ void blockBarrier() { __syncthreads(); }

__global__ void helperBarrier(const float *in, float *out) {
  __shared__ float tile[BLOCK];
  unsigned t = threadIdx.x;
  tile[t] = in[t];
  blockBarrier();
  out[t] = tile[BLOCK - 1 - t];
}

// A helper whose index the check cannot map to the caller's threads
// (a parameter it does not know): silent.
__device__ float at(const float *buf, int k) { return buf[k]; }

__global__ void helperUnknownIndex(const float *in, float *out, int k) {
  __shared__ float tile[BLOCK];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = at(tile, k);
}

// Warp-synchronous tail through a volatile pointer: lanes of the first
// warp read what other lanes wrote, with no __syncwarp().
__global__ void volatileWarpTail(const float *in, float *out) {
  __shared__ float sums[BLOCK];
  unsigned tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *v = sums;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'v' at 'tid' may overwrite the value another lane reads: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-2]]:15: note: read here at 'tid + 16'
    // CHECK-NOTES: :[[@LINE-3]]:15: warning: read of shared 'v' at 'tid + 16' may see the write of another lane: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-5]]:5: note: written here at 'tid'
  }
  if (tid == 0)
    out[blockIdx.x] = sums[0];
}

// The fix: __syncwarp() between the steps.
__global__ void syncwarpTail(const float *in, float *out) {
  __shared__ float sums[BLOCK];
  unsigned tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *v = sums;
    float x = v[tid] + v[tid + 32];
    __syncwarp();
    v[tid] = x;
    __syncwarp();
    x += v[tid + 16];
    __syncwarp();
    v[tid] = x;
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = sums[0];
}

// A loop that runs a constant number of passes (at least one), each
// waiting at a barrier: the path that would skip it does not exist.
__global__ void constantPassesEachWait(unsigned *out) {
  __shared__ unsigned counts[BLOCK + 1];
  unsigned t = threadIdx.x, i;
  counts[t] = out[t];
  for (i = BLOCK / 2; i >= 1; i >>= 1) {
    if ((t & i) == i)
      out[BLOCK + t] += 1;
    __syncthreads();
  }
  out[t] = counts[t + 1];
}

// The same with a pass count the kernel does not know: zero passes skip
// every barrier, and thread 0's next write races with the others' read.
__global__ void unknownPasses(const float *in, float *out, int rounds,
                              int passes) {
  __shared__ float pool[BLOCK + 1];
  for (int r = 0; r < rounds; r++) {
    if (threadIdx.x == 0)
      pool[BLOCK] = in[r];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: write to shared 'pool' at 'BLOCK' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    __syncthreads();
    float scale = pool[BLOCK];
    // CHECK-NOTES: :[[@LINE-1]]:19: note: read here at 'BLOCK'
    for (int p = 0; p < passes; p++) {
      __syncthreads();
      out[threadIdx.x] *= scale;
    }
  }
}

// A warp-synchronous helper called under 'tid < 32' from a helper that
// does the block-wide steps: each step of the helper reads what another
// lane writes in the step before, with no __syncwarp().
__device__ void warpMax(volatile int *s, int tid) {
  s[tid] = max(s[tid], s[tid + 32]);
  s[tid] = max(s[tid], s[tid + 16]);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to shared 'counts' at 'tid' may overwrite the value another lane reads: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+13]]:5: note: in the call of 'warpMax' here
  // CHECK-NOTES: :[[@LINE-3]]:24: note: read here at 'tid + 16'
  // CHECK-NOTES: :[[@LINE-4]]:24: warning: read of shared 'counts' at 'tid + 16' may see the write of another lane: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+10]]:5: note: in the call of 'warpMax' here
  // CHECK-NOTES: :[[@LINE-7]]:3: note: written here at 'tid'
}

__device__ int blockMax(int *s) {
  unsigned tid = threadIdx.x;
  if (tid < 64)
    s[tid] = max(s[tid], s[tid + 64]);
  __syncthreads();
  if (tid < 32)
    warpMax(s, tid);
  __syncthreads();
  return s[0];
}

__global__ void maxThroughHelpers(int *out) {
  __shared__ int counts[128];
  counts[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  int m = blockMax(counts);
  if (threadIdx.x == 0)
    out[0] = m;
}

// A constant-pass loop is a barrier only for what lies past it: its body
// before the barrier still meets the store above the loop.
__global__ void constantPassesReadFirst(const int *in, int *out) {
  __shared__ int partial[BLOCK];
  int t = threadIdx.x;
  partial[t] = in[t];
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s)
      partial[t] += partial[t + s];
    // CHECK-NOTES: :[[@LINE-1]]:21: warning: read of shared 'partial' at 't + s' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-5]]:3: note: written here at 't'
    __syncthreads();
  }
  if (t == 0)
    out[0] = partial[0];
}

// Thread 0 refills a slot each round; the round's inner passes (a constant
// count, each with barriers) order every reader before the next refill.
__global__ void refillAfterConstantPasses(const float *in, float *out,
                                          int rounds) {
  __shared__ float pool[BLOCK + 1];
  pool[threadIdx.x] = in[threadIdx.x];
  for (int r = 0; r < rounds; r++) {
    if (threadIdx.x == 0)
      pool[BLOCK] = in[r];
    __syncthreads();
    float scale = pool[BLOCK];
    for (int p = 0; p < 2; p++) {
      float v = pool[threadIdx.x];
      __syncthreads();
      pool[threadIdx.x] = v * scale;
      __syncthreads();
    }
  }
  out[threadIdx.x] = pool[threadIdx.x];
}
