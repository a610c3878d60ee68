// cuda-unguarded-thread-index over a block per item: 'item = blockIdx.x'
// (or the rank of a 2-D grid, 'blockIdx.x + blockIdx.y * gridDim.x'), the
// threads of the block striding over the item's elements. An access at
// the item with no bound on it is reported where a launch in this file may
// run more blocks than the kernel's item count: a grid rounded up to a
// multiple, the count plus one, a grid read from other data. A grid equal
// to the count, a division of it, a guard, or a grid-stride loop over the
// items is not reported.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t

#define BLOCK 256

//===--- Flagged -----------------------------------------------------------===//

// The grid is the item count rounded up to whole blocks of blocks.
__global__ void degreePerBlock(const int *offsets, int *degree, int n) {
  int item = blockIdx.x;
  if (threadIdx.x == 0)
    degree[item] = offsets[item + 1] - offsets[item];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'degree' at block-derived index 'item' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'n' items [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: read of 'offsets' at block-derived index 'item + 1' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'n' items [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-3]]:40: warning: read of 'offsets' at block-derived index 'item' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'n' items [cuda-unguarded-thread-index]
}

// A grid from other data (the edge count) for a kernel over the nodes; the
// node count is passed and never read.
__global__ void neighbourSumPerBlock(const int *offsets, const float *w,
                                     float *out, int num_nodes) {
  int node = blockIdx.x;
  int beg = offsets[node];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: read of 'offsets' at block-derived index 'node' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'num_nodes' items [cuda-unguarded-thread-index]
  int end = offsets[node + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: read of 'offsets' at block-derived index 'node + 1' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'num_nodes' items [cuda-unguarded-thread-index]
  float s = 0.0f;
  for (int j = beg + threadIdx.x; j < end; j += blockDim.x)
    s += w[j];
  if (threadIdx.x == 0)
    out[node] = s;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'out' at block-derived index 'node' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'num_nodes' items [cuda-unguarded-thread-index]
}

// The rank of a 2-D grid, guarded on one path and not on the other; the
// launch runs one block more than the items.
__global__ void rankPerBlock(const float *in, float *out, int n) {
  int item = blockIdx.x + blockIdx.y * gridDim.x;
  float v = in[item];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: read of 'in' at block-derived index 'item' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'n' items [cuda-unguarded-thread-index]
  if (item < n && threadIdx.x == 0)
    out[item] = v;
}

// blockIdx.y as the item, the grid's y rounded up with a macro.
__global__ void columnPerBlock(float *colMax, const float *m, int cols,
                               int rows) {
  int col = blockIdx.y;
  float best = -1e30f;
  for (int r = threadIdx.x; r < rows; r += blockDim.x)
    best = fmaxf(best, m[r * cols + col]);
  if (threadIdx.x == 0)
    colMax[col] = best;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'colMax' at block-derived index 'col' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'cols' items [cuda-unguarded-thread-index]
  if (col < cols && threadIdx.x == 1)
    colMax[col] = 0.0f;
}

// A row per item: the threads stride over the item's row, 'row * len + j'.
__global__ void rowScale(const float *x, float *y, int rows, int len) {
  int row = blockIdx.x;
  for (int j = threadIdx.x; j < len; j += blockDim.x)
    y[row * len + j] = 2.0f * x[row * len + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'y' at block-derived index 'row * len + j' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'rows' items [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-2]]:31: warning: read of 'x' at block-derived index 'row * len + j' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'rows' items [cuda-unguarded-thread-index]
}

// The item from a same-TU helper.
__device__ int itemOfBlock() { return blockIdx.x; }

__global__ void helperItem(const int *offsets, int *degree, int n) {
  int item = itemOfBlock();
  if (threadIdx.x == 0)
    degree[item] = offsets[item + 1] - offsets[item];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'degree' at block-derived index 'item' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'n' items [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: read of 'offsets' at block-derived index 'item + 1' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'n' items [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-3]]:40: warning: read of 'offsets' at block-derived index 'item' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'n' items [cuda-unguarded-thread-index]
}

#define ROUND_UP(x, m) (((x) + (m) - 1) / (m) * (m))

void launchFlagged(const int *offsets, int *degree, const float *w,
                   float *out, int n, int num_edges, const float *in,
                   float *colMax, const float *m, int cols, int rows) {
  degreePerBlock<<<(n + BLOCK - 1) / BLOCK * BLOCK, BLOCK>>>(offsets, degree,
                                                            n);
  neighbourSumPerBlock<<<num_edges, BLOCK>>>(offsets, w, out, n);
  rankPerBlock<<<n + 1, BLOCK>>>(in, out, n);
  dim3 grid(1, ROUND_UP(cols, 8));
  columnPerBlock<<<grid, BLOCK>>>(colMax, m, cols, rows);
  rowScale<<<ROUND_UP(rows, 4), BLOCK>>>(in, out, rows, cols);
  helperItem<<<n + 1, BLOCK>>>(offsets, degree, n);
}

//===--- Not flagged -------------------------------------------------------===//

// The grid is the item count: every block has an item.
__global__ void degreeExact(const int *offsets, int *degree, int n) {
  int item = blockIdx.x;
  if (threadIdx.x == 0)
    degree[item] = offsets[item + 1] - offsets[item];
}

// Guarded, with an early exit.
__global__ void degreeGuarded(const int *offsets, int *degree, int n) {
  int item = blockIdx.x;
  if (item >= n)
    return;
  if (threadIdx.x == 0)
    degree[item] = offsets[item + 1] - offsets[item];
}

// A grid-stride loop over the items.
__global__ void degreeGridStride(const int *offsets, int *degree, int n) {
  for (int item = blockIdx.x; item < n; item += gridDim.x)
    if (threadIdx.x == 0)
      degree[item] = offsets[item + 1] - offsets[item];
}

// A row per block, launched with as many blocks as rows; 'len' is the row
// length, not the item count.
__global__ void rowSum(const float *x, float *out, int len) {
  int row = blockIdx.x;
  float s = 0.0f;
  for (int j = threadIdx.x; j < len; j += blockDim.x)
    s += x[row * len + j];
  if (threadIdx.x == 0)
    out[row] = s;
}

// A row per item, guarded, launched with more blocks than rows.
__global__ void rowScaleGuarded(const float *x, float *y, int rows, int len) {
  int row = blockIdx.x;
  if (row >= rows)
    return;
  for (int j = threadIdx.x; j < len; j += blockDim.x)
    y[row * len + j] = 2.0f * x[row * len + j];
}

// A row per item launched with exactly one block per row.
__global__ void rowScaleExact(const float *x, float *y, int rows, int len) {
  for (int j = threadIdx.x; j < len; j += blockDim.x)
    y[blockIdx.x * len + j] = x[blockIdx.x * len + j];
}

// The item from a helper, guarded.
__global__ void helperItemGuarded(const int *offsets, int *degree, int n) {
  int item = itemOfBlock();
  if (item < n && threadIdx.x == 0)
    degree[item] = offsets[item + 1] - offsets[item];
}

// A persistent grid of constant size for a count known at run time: which
// is larger is unknown.
__global__ void degreePersistent(const int *offsets, int *degree, int n) {
  int item = blockIdx.x;
  degree[item] = offsets[item + 1];
}

// Blocks 1 to n write the item before them: n + 1 blocks are right.
__global__ void previousItem(int *degree, int n) {
  int item = blockIdx.x;
  if (item > 0)
    degree[item - 1] = item;
}

// A thread per item: the thread-per-item rules apply, and it is guarded.
__global__ void threadPerItem(const int *offsets, int *degree, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    degree[i] = offsets[i + 1] - offsets[i];
}

void launchGood(const int *offsets, int *degree, int n, const float *x,
                float *out, int rows, int len) {
  degreeExact<<<n, BLOCK>>>(offsets, degree, n);
  int blocks = n;
  degreeExact<<<blocks, BLOCK>>>(offsets, degree, n);
  degreeExact<<<n / 2, BLOCK>>>(offsets, degree, n);
  degreeExact<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(offsets, degree, n);
  dim3 grid(n);
  degreeExact<<<grid, BLOCK>>>(offsets, degree, n);
  degreeExact<<<min(n, 65535), BLOCK>>>(offsets, degree, n);
  degreeExact<<<100, BLOCK>>>(offsets, degree, 100);
  degreeGuarded<<<(n + BLOCK - 1) / BLOCK * BLOCK, BLOCK>>>(offsets, degree,
                                                           n);
  degreeGridStride<<<1024, BLOCK>>>(offsets, degree, n);
  rowSum<<<rows, BLOCK>>>(x, out, len);
  degreePersistent<<<1024, BLOCK>>>(offsets, degree, n);
  previousItem<<<n + 1, BLOCK>>>(degree, n);
  threadPerItem<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(offsets, degree, n);
  rowScaleGuarded<<<rows + 1, BLOCK>>>(x, out, rows, len);
  rowScaleExact<<<rows, BLOCK>>>(x, out, rows, len);
  helperItemGuarded<<<n + 1, BLOCK>>>(offsets, degree, n);
}
