// cuda-missing-syncthreads: reads at indices that do not depend on the
// thread (a loop counter, a constant) against writes of every thread to its
// own element: one thread summing what all wrote, a tile refilled at the
// top of the next iteration while others still read it, a namespace-scope
// shared array.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs

#define BLOCK 128

__shared__ int blockTotals[BLOCK];

//===--- Flagged -----------------------------------------------------------===//

// Thread 0 sums what every thread wrote, with no barrier after the writes.
__global__ void firstThreadSums(const int *in, int *out) {
  __shared__ int parts[BLOCK];
  parts[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int k = 0; k < BLOCK; ++k)
      sum += parts[k];
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 'parts' at 'k' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-6]]:3: note: written here at 'threadIdx.x'
    out[blockIdx.x] = sum;
  }
}

// The same with the array at namespace scope.
__global__ void firstThreadSumsGlobalArray(const int *in, int *out) {
  blockTotals[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int k = 0; k < BLOCK; k += 1)
      sum += blockTotals[k];
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 'blockTotals' at 'k' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-6]]:3: note: written here at 'threadIdx.x'
    *out = sum;
  }
}

// The last thread reads the first element, which thread 0 wrote.
__global__ void lastThreadReadsFirst(const float *in, float *out) {
  __shared__ float vals[BLOCK];
  vals[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x == BLOCK - 1)
    out[0] = vals[0];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 'vals' at '0' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: written here at 'threadIdx.x'
}

// The tile is refilled at the top of the next iteration while other
// threads may still read the previous one: the barrier at the end of the
// loop body is missing.
__global__ void tileRefilledTooEarly(const float *in, float *out, int tiles) {
  __shared__ float tile[BLOCK];
  float acc = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    tile[threadIdx.x] = in[t * BLOCK + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'tile' at 'threadIdx.x' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    __syncthreads();
    for (int e = 0; e < BLOCK; ++e)
      acc += tile[e];
    // CHECK-NOTES: :[[@LINE-1]]:14: note: read here at 'e'
  }
  out[blockIdx.x * BLOCK + threadIdx.x] = acc;
}

//===--- Not flagged -------------------------------------------------------===//

// The barrier is there: thread 0 sums after every write.
__global__ void firstThreadSumsAfterBarrier(const int *in, int *out) {
  __shared__ int parts[BLOCK];
  parts[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int k = 0; k < BLOCK; ++k)
      sum += parts[k];
    out[blockIdx.x] = sum;
  }
}

// Thread 0 reads back its own element.
__global__ void firstThreadReadsItsOwn(const float *in, float *out) {
  __shared__ float vals[BLOCK];
  vals[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x == 0)
    out[0] = vals[0];
}

// Both barriers of the tiled loop are there.
__global__ void tileWithBothBarriers(const float *in, float *out, int tiles) {
  __shared__ float tile[BLOCK];
  float acc = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    tile[threadIdx.x] = in[t * BLOCK + threadIdx.x];
    __syncthreads();
    for (int e = 0; e < BLOCK; ++e)
      acc += tile[e];
    __syncthreads();
  }
  out[blockIdx.x * BLOCK + threadIdx.x] = acc;
}

// Double buffering: the next tile goes into the other half, and the one
// barrier per iteration orders both.
__global__ void doubleBufferedTiles(const float *in, float *out, int tiles) {
  __shared__ float buf[2][BLOCK];
  float acc = 0.0f;
  buf[0][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (int t = 0; t < tiles; ++t) {
    int cur = t & 1;
    if (t + 1 < tiles)
      buf[cur ^ 1][threadIdx.x] = in[(t + 1) * BLOCK + threadIdx.x];
    for (int e = 0; e < BLOCK; ++e)
      acc += buf[cur][e];
    __syncthreads();
  }
  out[blockIdx.x * BLOCK + threadIdx.x] = acc;
}

// A block reduction whose result every thread reads after the last barrier.
__global__ void reductionThenBroadcast(const float *in, float *out) {
  __shared__ float red[BLOCK];
  red[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  out[blockIdx.x * BLOCK + threadIdx.x] = in[threadIdx.x] / red[0];
}


//===--- A window whose start is loaded from read-only memory ---------------===//

// Every thread of the block loads the same start from a const parameter
// at the block's index, so 'j + start' walks the same window in every
// thread: elements other threads write (#43, 'a[j + start]').
__global__ void windowFromOffsets(const float *in, const int *starts,
                                  float *out) {
  __shared__ float window[2 * BLOCK];
  window[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  int start = starts[blockIdx.x];
  float s = 0.f;
  for (int j = 0; j < BLOCK; ++j)
    s += window[j + start];
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: read of shared 'window' at 'j + start' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-6]]:3: note: written here at 'threadIdx.x'
  out[blockIdx.x * BLOCK + threadIdx.x] = s;
}

__constant__ int c_shift[16];

// The same start from a __constant__ array.
__global__ void windowFromConstant(const float *in, float *out) {
  __shared__ float window[2 * BLOCK];
  window[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  float s = 0.f;
  for (int j = 0; j < 4; ++j)
    s += window[j + c_shift[blockIdx.x % 16]];
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: read of shared 'window' at 'j + c_shift[blockIdx.x % 16]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-5]]:3: note: written here at 'threadIdx.x'
  out[blockIdx.x * BLOCK + threadIdx.x] = s;
}

// Not flagged: the fixed window, and starts that differ between threads or
// that the kernel itself may change.
__global__ void windowFromOffsetsFixed(const float *in, const int *starts,
                                       float *out) {
  __shared__ float window[2 * BLOCK];
  window[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  int start = starts[blockIdx.x];
  float s = 0.f;
  for (int j = 0; j < BLOCK; ++j)
    s += window[j + start];
  out[blockIdx.x * BLOCK + threadIdx.x] = s;
}

__global__ void windowPerThreadStart(const float *in, const int *starts,
                                     float *out) {
  __shared__ float window[2 * BLOCK];
  window[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  int start = starts[blockIdx.x * BLOCK + threadIdx.x];
  out[blockIdx.x * BLOCK + threadIdx.x] = window[start];
}

__global__ void windowWritableStarts(const float *in, int *starts,
                                     float *out) {
  __shared__ float window[2 * BLOCK];
  window[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  if (threadIdx.x == 0)
    starts[blockIdx.x] = 0;
  int start = starts[blockIdx.x];
  out[blockIdx.x * BLOCK + threadIdx.x] = window[threadIdx.x + start];
}
