// cuda-missing-syncthreads past conditions on the thread index, in 2-D
// tiles, through device helpers and in __device__ functions no kernel of
// the file calls. Each flagged kernel is a reduced real fix, in neutral
// words; the negatives are idiomatic correct code.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

//===--- Flagged -----------------------------------------------------------===//

// A guarded tile refill: the guard limits which threads store, not which
// elements the loop over the tile reads; no barrier ends the loop.
__global__ void guardedRefill(const float *in, float *out, int n, int count) {
  __shared__ float tile[256];
  int tid = threadIdx.x;
  float acc = 0.0f;
  for (int base = 0; base < n; base += count) {
    if (tid < count)
      tile[tid] = in[base + tid];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: write to shared 'tile' at 'tid' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+3]]:14: note: read here at 'j'
    __syncthreads();
    for (int j = 0; j < count; ++j)
      acc += tile[j];
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

// The barrier opens each round; after the last round thread 0 has stored
// sh[0] and every thread reads it with no barrier.
__global__ void barrierAtRoundStart(const float *in, float *out) {
  __shared__ float sh[256];
  int tid = threadIdx.x;
  sh[tid] = in[blockIdx.x * blockDim.x + tid];
  for (int s = 128; s > 0; s >>= 1) {
    __syncthreads();
    if (tid < s)
      sh[tid] += sh[tid + s];
  }
  out[blockIdx.x * blockDim.x + tid] = sh[0];
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: read of shared 'sh' at '0' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: written here at 'tid'
}

// Thread 0 stores its own slot; the others read it at once.
__global__ void leaderStoresOwnSlot(const float *in, float *out) {
  __shared__ float s[32];
  int tid = threadIdx.x;
  if (tid == 0)
    s[tid] = in[blockIdx.x];
  out[blockIdx.x * blockDim.x + tid] = s[0];
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: read of shared 's' at '0' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: written here at 'tid'
}

// A constant bound on a tile column: thread tx reads column 7 - tx, which
// another thread of the row stores.
__global__ void halfRowMirror(float *out) {
  __shared__ float t[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx < 8)
    t[ty][tx] = out[ty * 16 + tx];
  out[ty * 16 + tx] = t[ty][7 - tx];
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: read of shared 't' at '[ty][7 - tx]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: written here at '[ty][tx]'
}

// A flattened tile stored under a test of the data: the threads that pass
// it still store elements that the transposed read takes.
__global__ void flatTileDataTest(const float *in, float *out) {
  __shared__ float t[16 * 16];
  int tx = threadIdx.x, ty = threadIdx.y;
  float v = in[ty * 16 + tx];
  if (v > 0.0f)
    t[ty * 16 + tx] = v;
  out[ty * 16 + tx] = t[tx * 16 + ty];
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: read of shared 't' at 'tx * 16 + ty' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: written here at 'ty * 16 + tx'
}

// The first lane of each warp sums its warp's slots with no __syncwarp()
// (or barrier) after the other lanes stored them.
__global__ void warpLeaderSum(const float *in, float *out) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  if (tid % 32 == 0) {
    float sum = 0.0f;
    for (int i = 0; i < 32; ++i)
      sum += s[(tid / 32) * 32 + i];
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 's' at '(tid / 32) * 32 + i' may see the write of another lane: the lanes of a warp do not run in lockstep, and no __syncwarp() or barrier orders them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-6]]:3: note: written here at 'tid'
    out[blockIdx.x * 8 + tid / 32] = sum;
  }
}

// No kernel of this file calls it: it is analysed as if a whole block did.
__device__ void shiftLeftUncalled(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = s[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of shared 's' at 'threadIdx.x + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'threadIdx.x'
}

// A helper that each thread calls reads four neighbours of a shared grid,
// then stores its own point, in one barrier interval (a Jacobi step done
// in place).
__device__ void relaxPoint(float (*m)[18], int y, int x) {
  float v = 0.25f * (m[y - 1][x] + m[y + 1][x] + m[y][x - 1] + m[y][x + 1]);
  m[y][x] = v;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to shared 'grid' at '[y][x]' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+9]]:5: note: in the call of 'relaxPoint' here
  // CHECK-NOTES: :[[@LINE-4]]:22: note: read here at '[y - 1][x]'
}
__global__ void jacobiInPlace(float *out, int iters) {
  __shared__ float grid[18][18];
  int x = threadIdx.x + 1, y = threadIdx.y + 1;
  grid[y][x] = out[y * 18 + x];
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    relaxPoint(grid, y, x);
    __syncthreads();
  }
  out[y * 18 + x] = grid[y][x];
}

// The same through a chain of wrappers, four calls deep, on a row.
__device__ void smoothAt(float *row, int i) {
  float v = 0.5f * (row[i - 1] + row[i + 1]);
  row[i] = v;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to shared 'line' at 'i' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+3]]:44: note: in the call of 'smoothAt' here
  // CHECK-NOTES: :[[@LINE-4]]:21: note: read here at 'i - 1'
}
__device__ void wrap1(float *row, int i) { smoothAt(row, i); }
__device__ void wrap2(float *row, int i) { wrap1(row, i); }
__device__ void wrap3(float *row, int i) { wrap2(row, i); }
__global__ void smoothDeep(float *out) {
  __shared__ float line[130];
  int i = threadIdx.x + 1;
  line[i] = out[i];
  __syncthreads();
  wrap3(line, i);
  __syncthreads();
  out[i] = line[i];
}

//===--- Not flagged -------------------------------------------------------===//

// A guarded refill with both barriers.
__global__ void guardedRefillCorrect(const float *in, float *out, int n,
                                     int count) {
  __shared__ float tile[256];
  int tid = threadIdx.x;
  float acc = 0.0f;
  for (int base = 0; base < n; base += count) {
    if (tid < count)
      tile[tid] = in[base + tid];
    __syncthreads();
    for (int j = 0; j < count; ++j)
      acc += tile[j];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

// The classic tree reduction: barrier at the end of each round, thread 0
// reads its own slot.
__global__ void treeReduction(const float *in, float *out) {
  __shared__ float sh[256];
  int tid = threadIdx.x;
  sh[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sh[tid] += sh[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sh[0];
}

// Barrier at the top of each round and one after the loop.
__global__ void barrierAtRoundStartCorrect(const float *in, float *out) {
  __shared__ float sh[256];
  int tid = threadIdx.x;
  sh[tid] = in[blockIdx.x * blockDim.x + tid];
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    __syncthreads();
    if (tid < s)
      sh[tid] += sh[tid + s];
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = sh[0];
}

// CUB-style block reduction: warp sums by shuffles, one slot per warp,
// a barrier, then the first warp reduces the slots.
__global__ void blockReduceByWarps(const float *in, float *out) {
  __shared__ float warpSums[32];
  int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  float v = in[blockIdx.x * blockDim.x + tid];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

// The warp leader sums after __syncwarp().
__global__ void warpLeaderSumSynced(const float *in, float *out) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncwarp();
  if (tid % 32 == 0) {
    float sum = 0.0f;
    for (int i = 0; i < 32; ++i)
      sum += s[(tid / 32) * 32 + i];
    out[blockIdx.x * 8 + tid / 32] = sum;
  }
}

// Half a row stores, then reads its own element only.
__global__ void halfRowOwn(float *out) {
  __shared__ float t[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx < 8) {
    t[ty][tx] = out[ty * 16 + tx];
    out[ty * 16 + tx] = t[ty][tx] * 2.0f;
  }
}

// Columns past the guard's bound: no thread that reads stores there.
__global__ void halfRowUpperHalf(float *out) {
  __shared__ float t[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx < 8)
    t[ty][tx] = out[ty * 16 + tx];
  if (tx < 8)
    out[ty * 16 + tx] = t[ty][tx + 8];
}

// Tiled matrix multiply with both barriers and bounds checks.
__global__ void tiledMatmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int t = 0; t < (n + 15) / 16; ++t) {
    As[ty][tx] = row < n && t * 16 + tx < n ? A[row * n + t * 16 + tx] : 0.0f;
    Bs[ty][tx] = col < n && t * 16 + ty < n ? B[(t * 16 + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

// The in-place Jacobi step with a separate output buffer.
__device__ void relaxInto(float (*src)[18], float (*dst)[18], int y, int x) {
  dst[y][x] =
      0.25f * (src[y - 1][x] + src[y + 1][x] + src[y][x - 1] + src[y][x + 1]);
}
__global__ void jacobiTwoBuffers(float *out) {
  __shared__ float a[18][18];
  __shared__ float b[18][18];
  int x = threadIdx.x + 1, y = threadIdx.y + 1;
  a[y][x] = out[y * 18 + x];
  __syncthreads();
  relaxInto(a, b, y, x);
  __syncthreads();
  out[y * 18 + x] = b[y][x];
}

// Called by a kernel: analysed there, under its guard, and not again.
__device__ void ownSlot(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = s[threadIdx.x] + 1.0f;
}
__global__ void callsOwnSlot(float *out) { ownSlot(out); }

// A transitive-closure step: the tests of the tile keep the store away
// from the elements other threads read in the same step.
__global__ void closureStep(unsigned *g) {
  __shared__ unsigned m[8][8];
  m[threadIdx.y][threadIdx.x] = g[threadIdx.y * 8 + threadIdx.x];
  __syncthreads();
  for (unsigned k = 0; k < 8; ++k) {
    if (m[threadIdx.y][threadIdx.x] == 0)
      if (m[threadIdx.y][k] != 0 && m[k][threadIdx.x] != 0)
        m[threadIdx.y][threadIdx.x] = k + 2;
    __syncthreads();
  }
  g[threadIdx.y * 8 + threadIdx.x] = m[threadIdx.y][threadIdx.x];
}
