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

// A flag that starts false and is raised once, in a branch that bounds the
// index: wherever it is true, the index is below the bound.
__global__ void flaggedStore(int *slots, const int *keys, int used) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool found = false;
  if (i < used && keys[i] > 0)
    found = true;
  if (found)
    slots[i] = 1;
}

// Raised under a test of the data only: nothing bounds the index.
__global__ void flaggedByData(int *slots, const int *keys, int used) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool found = false;
  if (keys[0] > used)
    found = true;
  if (found)
    slots[i] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'slots' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

// Raised in two places, one of them unguarded.
__global__ void flaggedTwice(int *slots, const int *keys, int used, bool all) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool found = false;
  if (i < used && keys[i] > 0)
    found = true;
  if (all)
    found = true;
  if (found)
    slots[i] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'slots' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

// The bound changes after the flag is raised.
__global__ void flaggedBoundMoved(int *slots, const int *keys, int used) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int limit = used;
  bool found = false;
  if (i < limit && keys[i] > 0)
    found = true;
  limit = keys[0];
  if (found && limit > 0)
    slots[i] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'slots' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

void launchFlags(int *slots, const int *keys, int used) {
  int blocks = (used + 255) / 256;
  flaggedStore<<<blocks, 256>>>(slots, keys, used);
  flaggedByData<<<blocks, 256>>>(slots, keys, used);
  flaggedTwice<<<blocks, 256>>>(slots, keys, used, false);
  flaggedBoundMoved<<<blocks, 256>>>(slots, keys, used);
}

void launchAll(float *out, const float *in, int w, int h) {
  dim3 block(TILE, TILE);
  dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
  rowDifference<<<grid, block>>>(out, in, w, h);
  tiledCopy<<<grid, block>>>(out, in, w, h);
  rowsOnly<<<grid, block>>>(out, in, w, h);
}
