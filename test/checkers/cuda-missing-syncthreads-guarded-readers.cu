// cuda-missing-syncthreads on a shared scalar that one thread writes and
// that threads under a bound read ('if (i < n)', a thread-stride loop): the
// bound lets many threads through, so the readers include threads other
// than the writer. Reduced from HeCBench 53a5a4393 (aop): a block-wide
// flag read inside a thread-stride loop, then reset by thread 0 after the
// loop with no barrier. The negatives are the fixed forms and readers that
// are the writer itself.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

#define THREADS 256

//===--- Flagged -----------------------------------------------------------===//

// Every pass tests a block-wide flag (reset behind a barrier); after the
// loop thread 0 resets it for the final count while other threads may
// still test it.
__global__ void countPaying(const double *prices, int *counts, int n,
                            double strike) {
  __shared__ int any;
  int mine = 0;
  for (int p = threadIdx.x; p < n; p += THREADS) {
    int pays = prices[blockIdx.x * n + p] > strike;
    __syncthreads();
    if (threadIdx.x == 0)
      any = 0;
    __syncthreads();
    atomicOr(&any, pays);
    __syncthreads();
    if (any == 0)
      continue;
    mine += pays;
  }
  if (threadIdx.x == 0)
    any = 0;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'any' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-7]]:9: note: read here
  __syncthreads();
  atomicAdd(&any, mine);
  __syncthreads();
  if (threadIdx.x == 0)
    counts[blockIdx.x] = any;
}

// Thread 0 publishes a scale that the threads in range read at once.
__global__ void scaleInRange(const float *in, float *out, const float *scales,
                             int n) {
  __shared__ float scale;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    scale = scales[blockIdx.x];
  if (i < n)
    out[i] = in[i] * scale;
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of shared 'scale' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: written here
}

// The first warp reads the block's total, which thread 0 overwrites right
// after.
__global__ void firstWarpReads(const int *in, int *out) {
  __shared__ int total;
  if (threadIdx.x == 0)
    total = in[blockIdx.x];
  __syncthreads();
  int t = 0;
  if (threadIdx.x < 32)
    t = total;
  if (threadIdx.x == 0)
    total = 0;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'total' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:9: note: read here
  out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}

// Reduced from HeCBench 072420d21 (aidw): threads past the data leave
// early, the loop counters are declared before the loops, and the tile is
// refilled at the top of the next pass while others still read it.
__global__ void tiledWeights(const float *px, float *out, int npts, int nq) {
  __shared__ float tile[THREADS];
  int q = threadIdx.x + blockIdx.x * blockDim.x;
  if (q >= nq)
    return;
  int parts = (npts - 1) / THREADS;
  int m, e;
  float acc = 0.0f;
  int lid = threadIdx.x;
  for (m = 0; m <= parts; m++) {
    int count = min(THREADS, npts - THREADS * m);
    if (lid < count)
      tile[lid] = px[lid + THREADS * m];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: write to shared 'tile' at 'lid' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+3]]:14: note: read here at 'e'
    __syncthreads();
    for (e = 0; e < THREADS; e++)
      acc += tile[e];
  }
  out[q] = acc;
}

//===--- Not flagged -------------------------------------------------------===//

// The fix of tiledWeights: a barrier at the end of each pass.
__global__ void tiledWeightsFixed(const float *px, float *out, int npts,
                                  int nq) {
  __shared__ float tile[THREADS];
  int q = threadIdx.x + blockIdx.x * blockDim.x;
  if (q >= nq)
    return;
  int parts = (npts - 1) / THREADS;
  int m, e;
  float acc = 0.0f;
  int lid = threadIdx.x;
  for (m = 0; m <= parts; m++) {
    int count = min(THREADS, npts - THREADS * m);
    if (lid < count)
      tile[lid] = px[lid + THREADS * m];
    __syncthreads();
    for (e = 0; e < THREADS; e++)
      acc += tile[e];
    __syncthreads();
  }
  out[q] = acc;
}

// A grid-stride loop over a guarded tile with both barriers.
__global__ void gridStrideTiles(const float *in, float *out, int n) {
  __shared__ float tile[THREADS];
  for (int base = blockIdx.x * THREADS; base < n; base += gridDim.x * THREADS) {
    int i = base + threadIdx.x;
    if (i < n)
      tile[threadIdx.x] = in[i];
    __syncthreads();
    if (i < n)
      out[i] = tile[threadIdx.x] + tile[0];
    __syncthreads();
  }
}

// A CUB-style block reduction: the warp leaders' partials are read by the
// first warp behind a barrier.
__global__ void blockReduce(const float *in, float *out, int n) {
  __shared__ float partials[THREADS / 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % 32 == 0)
    partials[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < THREADS / 32 ? partials[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x == 0)
      out[blockIdx.x] = v;
  }
}

// The fix of countPaying: a barrier after the loop.
__global__ void countPayingFixed(const double *prices, int *counts, int n,
                                 double strike) {
  __shared__ int any;
  int mine = 0;
  for (int p = threadIdx.x; p < n; p += THREADS) {
    int pays = prices[blockIdx.x * n + p] > strike;
    __syncthreads();
    if (threadIdx.x == 0)
      any = 0;
    __syncthreads();
    atomicOr(&any, pays);
    __syncthreads();
    if (any == 0)
      continue;
    mine += pays;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    any = 0;
  __syncthreads();
  atomicAdd(&any, mine);
  __syncthreads();
  if (threadIdx.x == 0)
    counts[blockIdx.x] = any;
}

// The scale published behind a barrier.
__global__ void scaleInRangeFixed(const float *in, float *out,
                                  const float *scales, int n) {
  __shared__ float scale;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    scale = scales[blockIdx.x];
  __syncthreads();
  if (i < n)
    out[i] = in[i] * scale;
}

// The reader is the writer: thread 0, under a bound of one thread.
__global__ void leaderOnly(const int *in, int *out) {
  __shared__ int total;
  if (threadIdx.x == 0)
    total = in[blockIdx.x];
  if (threadIdx.x < 1)
    out[blockIdx.x] = total;
}

// Both under 'tid == 0': one thread.
__global__ void leaderBoth(const int *in, int *out, int n) {
  __shared__ int total;
  if (threadIdx.x == 0)
    total = in[blockIdx.x];
  if (threadIdx.x == 0 && n > 0)
    out[blockIdx.x] = total;
}

// A lane test lets one lane of every warp through: the analysis does not
// count them, and stays silent.
__global__ void laneReaders(const int *in, int *out) {
  __shared__ int total;
  if (threadIdx.x == 0)
    total = in[blockIdx.x];
  __syncthreads();
  int t = 0;
  if (threadIdx.x % 32 == 0)
    t = total;
  __syncthreads();
  if (threadIdx.x == 0)
    total = 0;
  out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}

// CUB-style: the block's total is broadcast behind a barrier, read by the
// threads in range, and the next round's reset waits at a barrier.
__global__ void broadcastRounds(const float *in, float *out, int n,
                                int rounds) {
  __shared__ float total;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0)
      total = in[r];
    __syncthreads();
    if (i < n)
      out[r * n + i] = total;
    __syncthreads();
  }
}
