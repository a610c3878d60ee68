// cuda-global-memory-race in __device__ helpers that no kernel of the file
// calls (a header's helpers): read whatever the caller passes. A pointer
// parameter may point to shared or local memory, a parameter used as an
// index may be the caller's thread index, and a parameter in a guard may
// pick one writer; an update is reported only where none of these decides,
// on a '__device__' variable, in a helper that reads the thread's
// coordinates.
// RUN: %check_cuda_tidy_plugin %s cuda-global-memory-race %t
// RUN: %check_cuda_tidy_driver %s cuda-global-memory-race %t

__device__ int g_matches;
__device__ unsigned g_histogram[64];
__device__ float g_blockTotals[1024];
__device__ float g_best;

//===--- Flagged -----------------------------------------------------------===//

// Every thread that finds a match bumps one counter.
__device__ void countMatch(const int *keys, int key, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] == key)
    g_matches += 1;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: every thread of the grid updates global 'g_matches' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
}

// A histogram bin read from the data: threads with equal keys collide.
__device__ void binKeys(const unsigned *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned bin = keys[i] % 64;
    g_histogram[bin] = g_histogram[bin] + 1;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads whose index read from memory is the same update global 'g_histogram' at 'bin' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-2]]:24: note: the old value is read here
  }
}

// Every thread of a block adds into its block's slot.
__device__ void accumulateBlock(const float *x) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  g_blockTotals[blockIdx.x] += v;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the threads of each block update global 'g_blockTotals' at 'blockIdx.x' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
}

// A running maximum kept with a compare and store.
__device__ void keepBest(const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > g_best)
    g_best = x[i];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: every thread of the grid updates global 'g_best' with a plain compare and store: concurrent updates are lost (use atomicMax) [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-3]]:23: note: the old value is read here
}

//===--- Not flagged -------------------------------------------------------===//

// A pointer parameter: the caller may pass shared or per-thread memory.
__device__ void countInto(int *counter, const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] == 0)
    *counter += 1;
}

// The index is the caller's: 'tid' passed in gives each thread its bin.
__device__ void bumpBin(unsigned bin) {
  if (threadIdx.x < 64)
    g_histogram[bin] += 1;
}

// The guard is the caller's: a leader flag lets one thread through.
__device__ void addIfLeader(float v, bool leader) {
  float w = v * (threadIdx.x + 1);
  if (leader)
    g_best = g_best + w;
}

// One thread of the grid updates the counter.
__device__ void countOnce(const int *keys) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    g_matches += keys[0];
}

// Atomics, and a plain store of a value that does not depend on the old one.
__device__ void countAtomically(const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] == 3)
    atomicAdd(&g_matches, 1);
  if (i < n && keys[i] < 0)
    g_histogram[0] = 1;
}

// Each thread its own element of a '__device__' array.
__device__ void scaleOwn(float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1024)
    g_blockTotals[i] = g_blockTotals[i] * s;
}

// No thread coordinate: nothing says that several threads run it.
__device__ void addToTotal(float v) { g_best += v; }

// Called by a kernel of the file: its callers decide (here one thread).
__device__ void bumpCalled() {
  if (threadIdx.x < 1024)
    g_matches++;
}

__global__ void callsOnce() {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    bumpCalled();
}
