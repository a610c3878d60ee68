// cuda-missing-syncthreads: write-write races (threads store different
// values into one element, which is read later) and seeds that one thread
// writes while the others read them.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

//===--- Write-write: flagged ----------------------------------------------===//

// Every thread stores its own index into one slot; the value read after
// the barrier is whichever store landed last.
__global__ void lastWriterWins(int *out) {
  __shared__ int owner[4];
  owner[0] = threadIdx.x;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: threads store different values into shared 'owner' at '0' with no barrier between the stores: which one a later read sees is unspecified [cuda-missing-syncthreads]
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = owner[0];
  // CHECK-NOTES: :[[@LINE-1]]:48: note: the element is read here
}

// A scalar that every thread overwrites with the data it loaded.
__global__ void scalarOverwritten(const float *in, float *out) {
  __shared__ float pivot;
  pivot = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: threads store different values into shared 'pivot' with no barrier between the stores: which one a later read sees is unspecified [cuda-missing-syncthreads]
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] -= pivot;
  // CHECK-NOTES: :[[@LINE-1]]:49: note: the element is read here
}

// Every thread adds to one counter: read-modify-writes lose updates.
__global__ void sharedCounter(const int *flags, int *out) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  count += flags[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: every thread updates shared 'count' with no barrier between the updates: updates are lost [cuda-missing-syncthreads]
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = count;
  // CHECK-NOTES: :[[@LINE-1]]:23: note: the element is read here
}

//===--- Write-write: not flagged ------------------------------------------===//

// Every thread stores the same value.
__global__ void sameValueFlag(const int *in, int *out, int n) {
  __shared__ int done;
  __shared__ int base;
  done = 0;
  base = blockIdx.x * blockDim.x;
  __syncthreads();
  out[base + threadIdx.x] = in[base + threadIdx.x] + done;
}

// Nothing reads the element, yet which thread's value it keeps is still
// unspecified: a store race (GPUVerify's fail_tests/shared_int).
__global__ void deadStore(const int *in) {
  __shared__ int scratch;
  scratch = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: threads store different values into shared 'scratch' with no barrier between the stores: which one the element keeps is unspecified [cuda-missing-syncthreads]
  __syncthreads();
}

// One thread stores; the others wait at the barrier first.
__global__ void oneWriter(int *out) {
  __shared__ int owner;
  if (threadIdx.x == 0)
    owner = blockIdx.x;
  __syncthreads();
  out[threadIdx.x] = owner;
}

// Each thread its own slot.
__global__ void ownSlots(int *out) {
  __shared__ int slot[256];
  slot[threadIdx.x] = threadIdx.x * 2;
  __syncthreads();
  out[threadIdx.x] = slot[255 - threadIdx.x];
}

// A data-dependent writer: the block may hold one match.
__global__ void uniqueMatch(const int *keys, int key, int *out) {
  __shared__ int pos;
  if (threadIdx.x == 0)
    pos = -1;
  __syncthreads();
  if (keys[threadIdx.x] == key)
    pos = threadIdx.x;
  __syncthreads();
  out[blockIdx.x] = pos;
}

// Atomics order the updates.
__global__ void atomicCounter(const int *flags, int *out) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  atomicAdd(&count, flags[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = count;
}

//===--- Seeds: flagged ----------------------------------------------------===//

// The last thread writes the seed of the next round while the others may
// still read the current one.
__global__ void lastThreadSeeds(unsigned *out, int rounds) {
  __shared__ unsigned seed;
  if (threadIdx.x == 0)
    seed = 12345u;
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    unsigned mine = seed + threadIdx.x;
    out[r * blockDim.x + threadIdx.x] = mine;
    if (threadIdx.x == blockDim.x - 1)
      seed = mine * 1103515245u + 12345u;
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: write to shared 'seed' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-5]]:21: note: read here
    __syncthreads();
  }
}

// Thread 0 sets the seed, and no barrier follows before the reads (found
// before write-write races were learned; kept as the seed's other half).
__global__ void firstSeedUnsynchronised(unsigned *out, int rounds) {
  __shared__ unsigned seed;
  if (threadIdx.x == 0)
    seed = 12345u;
  for (int r = 0; r < rounds; ++r) {
    out[r * blockDim.x + threadIdx.x] = seed ^ threadIdx.x;
    // CHECK-NOTES: :[[@LINE-1]]:41: warning: read of shared 'seed' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: written here
    __syncthreads();
    if (threadIdx.x == 0)
      seed = seed * 1103515245u + 12345u;
    __syncthreads();
  }
}

//===--- Seeds: not flagged ------------------------------------------------===//

__global__ void lastThreadSeedsFixed(unsigned *out, int rounds) {
  __shared__ unsigned seed;
  if (threadIdx.x == 0)
    seed = 12345u;
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    unsigned mine = seed + threadIdx.x;
    out[r * blockDim.x + threadIdx.x] = mine;
    __syncthreads();
    if (threadIdx.x == blockDim.x - 1)
      seed = mine * 1103515245u + 12345u;
    __syncthreads();
  }
}

// The last thread reads what it wrote itself.
__global__ void lastThreadOwnValue(unsigned *out) {
  __shared__ unsigned tail;
  if (threadIdx.x == blockDim.x - 1) {
    tail = out[threadIdx.x];
    out[0] = tail + 1;
  }
}

//===--- Write-write between statements: flagged --------------------------===//

// Two threads each store their own value into one scalar in the same
// interval: the reader after the barrier sees either.
__global__ void twoThreadsTwoStores(const int *bounds, int *out) {
  __shared__ int limit;
  if (threadIdx.x == 0)
    limit = bounds[2 * blockIdx.x];
  if (threadIdx.x == 1)
    limit = bounds[2 * blockIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads store different values into shared 'limit' with no barrier between the stores: which one a later read sees is unspecified [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: other threads store into it here
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = limit;
  // CHECK-NOTES: :[[@LINE-1]]:48: note: the element is read here
}

// One thread corrects a default that every thread stores at the same time.
__global__ void defaultThenLeader(const int *in, int *out, int fallback) {
  __shared__ int mode;
  mode = fallback;
  if (threadIdx.x == 0)
    mode = in[blockIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads store different values into shared 'mode' with no barrier between the stores: which one a later read sees is unspecified [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: other threads store into it here
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = mode;
  // CHECK-NOTES: :[[@LINE-1]]:48: note: the element is read here
}

// The leader of every warp stores its warp's sum into the same slot.
__global__ void warpLeadersOneSlot(const float *in, float *out) {
  __shared__ float total[1];
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  int lane = threadIdx.x & 31;
  if (lane == 0)
    total[0] = v;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads store different values into shared 'total' at '0' with no barrier between the stores: which one a later read sees is unspecified [cuda-missing-syncthreads]
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = total[0];
  // CHECK-NOTES: :[[@LINE-1]]:23: note: the element is read here
}

//===--- Write-write between statements: not flagged ----------------------===//

// Warp leaders store into their own warp's slot (CUB-like block reduce).
__global__ void warpLeadersOwnSlots(const float *in, float *out) {
  __shared__ float partial[32];
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

// Warp leaders all raise the same flag.
__global__ void warpLeadersSameFlag(const float *in, int *out) {
  __shared__ int seen;
  if (threadIdx.x == 0)
    seen = 0;
  __syncthreads();
  if (threadIdx.x % 32 == 0)
    seen = 1;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = seen;
}

// One warp per block: its leader is the block's only writer.
__global__ void singleWarpLeader(const float *in, float *out) {
  __shared__ float total;
  float v = in[blockIdx.x * 32 + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0)
    total = v;
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = total;
}

void launchSingleWarpLeader(const float *in, float *out, int blocks) {
  singleWarpLeader<<<blocks, 32>>>(in, out);
}

// A barrier separates the two writers.
__global__ void writersInTurn(const int *bounds, int *out) {
  __shared__ int limit;
  if (threadIdx.x == 0)
    limit = bounds[0];
  __syncthreads();
  out[threadIdx.x] = limit;
  __syncthreads();
  if (threadIdx.x == 1)
    limit = bounds[1];
  __syncthreads();
  out[blockDim.x + threadIdx.x] = limit;
}

// The same thread stores twice; two threads store the same value.
__global__ void sameThreadOrSameValue(const int *bounds, int *out) {
  __shared__ int first, zero;
  if (threadIdx.x == 0)
    first = bounds[0];
  if (threadIdx.x == 0)
    first = bounds[1];
  if (threadIdx.x == 0)
    zero = 0;
  if (threadIdx.x == 1)
    zero = 0;
  __syncthreads();
  out[threadIdx.x] = first + zero;
}

// Two writers, and nothing reads the element afterwards.
__global__ void twoWritersDead(const int *bounds) {
  __shared__ int unused;
  if (threadIdx.x == 0)
    unused = bounds[0];
  if (threadIdx.x == 1)
    unused = bounds[1];
  __syncthreads();
}

// Writers in different blocks: a condition on the block picks one side.
__global__ void writerPerBlockKind(const int *bounds, int *out) {
  __shared__ int limit;
  if (blockIdx.x == 0)
    limit = bounds[0];
  else
    limit = bounds[1];
  __syncthreads();
  out[threadIdx.x] = limit;
}
