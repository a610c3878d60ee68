// cuda-unguarded-thread-index over graph and sparse-matrix mappings: a warp
// per item ('(blockIdx.x * blockDim.x + threadIdx.x) / 32'), the '<='
// off-by-one over CSR offsets of n + 1 entries ('idx <= n' reading
// 'nindex[idx + 1]'), and the neighbour loop 'i <= end'.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t

#define WARP 32
#define BLOCK 256

//===--- Flagged -----------------------------------------------------------===//

// A warp per row with the row guard dropped: the grid is rounded up to
// whole blocks, so the last warps have no row.
__global__ void warpPerRowUnguarded(const int *rowPtr, const float *val,
                                    float *y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
  int lane = threadIdx.x % WARP;
  float s = 0.0f;
  for (int j = rowPtr[warp] + lane; j < rowPtr[warp + 1]; j += WARP)
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: read of 'rowPtr' at thread-derived index 'warp' has no upper bound on this path [cuda-unguarded-thread-index]
    // CHECK-MESSAGES: :[[@LINE-2]]:41: warning: read of 'rowPtr' at thread-derived index 'warp + 1' has no upper bound on this path [cuda-unguarded-thread-index]
    s += val[j];
  if (lane == 0)
    y[warp] = s;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'y' at thread-derived index 'warp' has no upper bound on this path [cuda-unguarded-thread-index]
}

// 'idx <= n' over offsets of n + 1 entries: 'nindex[idx]' is the last
// entry at idx == n, 'nindex[idx + 1]' one past it.
__global__ void degreesLessEqual(const int *nindex, int *degree, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx <= n) {
    int beg = nindex[idx];
    int end = nindex[idx + 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: read of 'nindex' at thread-derived index 'idx + 1' can reach the bound in 'idx <= n' [cuda-unguarded-thread-index]
    degree[idx] = end - beg;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'degree' at thread-derived index 'idx' can reach the bound in 'idx <= n' [cuda-unguarded-thread-index]
  }
}

// The neighbour loop 'i <= end' reads the next vertex's first neighbour,
// and past the end of the list for the last vertex.
__global__ void neighbourSumLessEqual(const int *nindex, const int *nlist,
                                      const float *w, float *out, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int beg = nindex[v];
    int end = nindex[v + 1];
    float s = 0.0f;
    for (int i = beg; i <= end; i++)
      s += w[nlist[i]];
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: read of 'nlist' at 'i' runs one past its segment: the loop bound 'i <= end' includes the next segment's first entry, past the end of 'nlist' for the last one [cuda-unguarded-thread-index]
    out[v] = s;
  }
}

__global__ void neighbourLoopAssigned(const int *rowPtr, const int *col,
                                      int *mark, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n)
    return;
  int i;
  for (i = rowPtr[v]; i <= rowPtr[v + 1]; ++i)
    mark[col[i]] = 1;
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: read of 'col' at 'i' runs one past its segment: the loop bound 'i <= rowPtr[v + 1]' includes the next segment's first entry, past the end of 'col' for the last one [cuda-unguarded-thread-index]
}

void launchAll(const int *rowPtr, const float *val, float *y, int rows,
               int *degree, const int *nlist, const float *w, float *out,
               int *mark) {
  warpPerRowUnguarded<<<(rows * WARP + BLOCK - 1) / BLOCK, BLOCK>>>(
      rowPtr, val, y, rows);
  degreesLessEqual<<<(rows + BLOCK - 1) / BLOCK, BLOCK>>>(rowPtr, degree,
                                                          rows);
  neighbourSumLessEqual<<<(rows + BLOCK - 1) / BLOCK, BLOCK>>>(
      rowPtr, nlist, w, out, rows);
  neighbourLoopAssigned<<<(rows + BLOCK - 1) / BLOCK, BLOCK>>>(
      rowPtr, nlist, mark, rows);
}

//===--- Not flagged -------------------------------------------------------===//

__global__ void warpPerRowGuarded(const int *rowPtr, const float *val,
                                  float *y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
  int lane = threadIdx.x % WARP;
  if (warp >= rows)
    return;
  float s = 0.0f;
  for (int j = rowPtr[warp] + lane; j < rowPtr[warp + 1]; j += WARP)
    s += val[j];
  if (lane == 0)
    y[warp] = s;
}

__global__ void warpPerRowShift(const int *rowPtr, float *y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (warp < rows && threadIdx.x % WARP == 0)
    y[warp] = (float)(rowPtr[warp + 1] - rowPtr[warp]);
}

__global__ void degreesLess(const int *nindex, int *degree, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n)
    degree[idx] = nindex[idx + 1] - nindex[idx];
}

// An exclusive scan's total: the last entry, written at idx == n.
__global__ void scanTotal(const int *counts, int *offsets, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx > n)
    return;
  if (idx == n) {
    offsets[idx] = counts[0];
    return;
  }
}

__global__ void neighbourSumLess(const int *nindex, const int *nlist,
                                 const float *w, float *out, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    float s = 0.0f;
    for (int i = nindex[v]; i < nindex[v + 1]; i++)
      s += w[nlist[i]];
    out[v] = s;
  }
}

// An inclusive last index, stored as such: 'i <= last' with last =
// off[v + 1] - 1.
__global__ void neighbourSumInclusiveLast(const int *nindex, const int *nlist,
                                          const float *w, float *out, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int last = nindex[v + 1] - 1;
    float s = 0.0f;
    for (int i = nindex[v]; i <= last; i++)
      s += w[nlist[i]];
    out[v] = s;
  }
}

// The loop declares another variable: its start is not read (no finding).
__global__ void neighbourStartOutside(const int *nindex, const int *nlist,
                                      int *out, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n)
    return;
  int i = nindex[v];
  int end = nindex[v + 1] - 1;
  for (int k = 0; i <= end; ++i)
    out[v] = nlist[i] + k;
}

void launchGood(const int *rowPtr, const float *val, float *y, int rows,
                int *degree, const int *nlist, const float *w, float *out) {
  warpPerRowGuarded<<<(rows * WARP + BLOCK - 1) / BLOCK, BLOCK>>>(
      rowPtr, val, y, rows);
  warpPerRowShift<<<(rows * WARP + BLOCK - 1) / BLOCK, BLOCK>>>(rowPtr, y,
                                                                rows);
  degreesLess<<<(rows + BLOCK - 1) / BLOCK, BLOCK>>>(rowPtr, degree, rows);
  scanTotal<<<(rows + BLOCK) / BLOCK, BLOCK>>>(degree, degree, rows);
  neighbourSumLess<<<(rows + BLOCK - 1) / BLOCK, BLOCK>>>(rowPtr, nlist, w,
                                                          out, rows);
  neighbourSumInclusiveLast<<<(rows + BLOCK - 1) / BLOCK, BLOCK>>>(
      rowPtr, nlist, w, out, rows);
}
