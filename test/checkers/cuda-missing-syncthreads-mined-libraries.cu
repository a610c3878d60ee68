// cuda-missing-syncthreads on shapes reduced from fixes in template-heavy
// libraries (docs/precision/mined-libraries.jsonl), in neutral words.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs

#define BLOCK 256

// A block-wide sum reused each round.
__device__ void blockSum(float *buf) {
  for (int s = BLOCK / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
}

//===--- Flagged -----------------------------------------------------------===//

// Orthogonalisation rounds: every thread reads the round's sum from
// partial[0], and the next round stores its own partial with no barrier
// between, so thread 0 may overwrite the sum before the others read it.
__global__ void orthogonalizeRounds(float *v, int rows, int cols) {
  __shared__ float partial[BLOCK];
  for (int r = 1; r < rows; ++r) {
    float dot = 0.0f;
    for (int c = threadIdx.x; c < cols; c += BLOCK)
      dot += v[r * cols + c] * v[c];
    partial[threadIdx.x] = dot;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'partial' at 'threadIdx.x' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+4]]:11: note: read here at '0'
    __syncthreads();
    blockSum(partial);
    __syncthreads();
    dot = partial[0];
    for (int c = threadIdx.x; c < cols; c += BLOCK)
      v[r * cols + c] -= dot * v[c];
  }
}

//===--- Not flagged -------------------------------------------------------===//

// The fix: the barrier moved before the store of the next round's partial.
__global__ void orthogonalizeRoundsFixed(float *v, int rows, int cols) {
  __shared__ float partial[BLOCK];
  for (int r = 1; r < rows; ++r) {
    float dot = 0.0f;
    for (int c = threadIdx.x; c < cols; c += BLOCK)
      dot += v[r * cols + c] * v[c];
    __syncthreads();
    partial[threadIdx.x] = dot;
    __syncthreads();
    blockSum(partial);
    __syncthreads();
    dot = partial[0];
    for (int c = threadIdx.x; c < cols; c += BLOCK)
      v[r * cols + c] -= dot * v[c];
  }
}

// An unrolled arg-max in a helper whose guards bound its index parameter,
// called with threadIdx.x: each step reads x[i + K] and stores x[i] under
// 'i < K', so no thread stores what another reads; a barrier ends each
// step (a dense linear-algebra library's pivot search, in our words).
template <int N>
__device__ void argMaxSteps(int i, double *x, int *at) {
  __syncthreads();
  if (N > 128) {
    if (i < 128 && i + 128 < N)
      if (x[i] < x[i + 128]) {
        at[i] = at[i + 128];
        x[i] = x[i + 128];
      }
    __syncthreads();
  }
  if (N > 64) {
    if (i < 64 && i + 64 < N)
      if (x[i] < x[i + 64]) {
        at[i] = at[i + 64];
        x[i] = x[i + 64];
      }
    __syncthreads();
  }
}

__global__ void pivotSearch(const double *col, int *pivot) {
  __shared__ double mag[256];
  __shared__ int where[256];
  int tx = threadIdx.x;
  mag[tx] = fabs(col[tx]);
  where[tx] = tx;
  argMaxSteps<256>(tx, mag, where);
  if (tx == 0)
    pivot[blockIdx.x] = where[0];
}
