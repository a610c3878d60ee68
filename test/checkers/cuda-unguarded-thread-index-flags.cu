// cuda-unguarded-thread-index: a guard carried in a bool flag. The flag's
// initializer bounds the coordinates it compares wherever the flag is
// tested, as long as they hold the same value there as at the flag, even
// when they were declared first and assigned once afterwards.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t

#define TILE 16

// Coordinates declared, then assigned once: the flag still guards them.
__global__ void rowDifference(float *out, const float *in, int w, int h) {
  int col, row;
  col = blockIdx.x * blockDim.x + threadIdx.x;
  row = blockIdx.y * blockDim.y + threadIdx.y;
  bool active = row < h && col < w;
  if (active && row < h - 1)
    out[row * w + col] = in[(row + 1) * w + col] - in[row * w + col];
}

// The flag read through a ternary and a second test.
__global__ void tiledCopy(float *out, const float *in, int w, int h) {
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int row = blockIdx.y * TILE + threadIdx.y;
  const bool inside = (row < h) && (col < w);
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = inside ? in[row * w + col] : 0.0f;
  __syncthreads();
  if (inside)
    out[row * w + col] = tile[threadIdx.y][threadIdx.x];
}

// A flag that bounds the row only: the column stays unguarded.
__global__ void rowsOnly(float *out, const float *in, int w, int h) {
  int col, row;
  col = blockIdx.x * blockDim.x + threadIdx.x;
  row = blockIdx.y * blockDim.y + threadIdx.y;
  bool active = row < h;
  if (active)
    out[row * w + col] = in[row * w + col];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'out' at thread-derived index 'row * w + col' has no upper bound on 'blockIdx.x * blockDim.x + threadIdx.x' on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-2]]:26: warning: read of 'in' at thread-derived index 'row * w + col' has no upper bound on 'blockIdx.x * blockDim.x + threadIdx.x' on this path [cuda-unguarded-thread-index]
}

void launchAll(float *out, const float *in, int w, int h) {
  dim3 block(TILE, TILE);
  dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
  rowDifference<<<grid, block>>>(out, in, w, h);
  tiledCopy<<<grid, block>>>(out, in, w, h);
  rowsOnly<<<grid, block>>>(out, in, w, h);
}
