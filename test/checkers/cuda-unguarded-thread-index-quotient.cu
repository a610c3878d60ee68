// cuda-unguarded-thread-index: a guard on a quotient of the index, 'i / c <
// n', bounds the index itself by n * c (c > 0): the buffers of n rows of c
// elements. The guard is kept only while the index and the divisor do not
// change.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t

// ---- Negative: the quotient is guarded ----

// n points of c channels each; one thread per channel value.
__global__ void scatterChannels(int n, int c, const float *feats,
                                const int *slot, float *out) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int point = index / c;
  int channel = index % c;
  if (point < n)
    out[slot[point] * c + channel] = feats[index];
}

// The guard written on the quotient itself, as an early return.
__global__ void clearPairs(float *pairs, int n, int width) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index / width >= n)
    return;
  pairs[index] = 0.0f;
}

// A power-of-two row length, as a shift.
__global__ void rowsOf32(float *rows, int numRows) {
  unsigned lane = blockIdx.x * blockDim.x + threadIdx.x;
  if ((lane >> 5) < numRows)
    rows[lane] += 1.0f;
}

void launchGuarded(int n, int c, const float *feats, const int *slot,
                   float *out) {
  int threads = n * c;
  scatterChannels<<<(threads + 255) / 256, 256>>>(n, c, feats, slot, out);
  clearPairs<<<(threads + 255) / 256, 256>>>(out, n, c);
  rowsOf32<<<(n * 32 + 255) / 256, 256>>>(out, n);
}

// ---- Positive: the guard does not cover the access ----

// Read after the guarded block: no bound on this path.
__global__ void afterGuard(int n, int c, const float *in, float *out) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int row = index / c;
  if (row < n)
    out[index] = 0.0f;
  out[index] += in[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'index' has no upper bound on this path [cuda-unguarded-thread-index]
}

// A quotient of another value bounds nothing here.
__global__ void otherQuotient(int n, int c, const int *tile, float *out) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (tile[0] / c < n)
    out[index] = 2.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'out' at thread-derived index 'index' has no upper bound on this path [cuda-unguarded-thread-index]
}

void launchUncovered(int n, int c, const int *tile, const float *in,
                     float *out) {
  int threads = n * c;
  afterGuard<<<(threads + 255) / 256, 256>>>(n, c, in, out);
  otherQuotient<<<(threads + 255) / 256, 256>>>(n, c, tile, out);
}
