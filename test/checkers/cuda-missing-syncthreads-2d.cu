// cuda-missing-syncthreads on two- and three-dimensional shared tiles in
// two- and three-dimensional blocks: the tiled matrix multiply, the
// transpose, a stencil with a halo, flattened tiles, pointer-to-row views.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define TILE 16
#define R 1

//===--- Flagged -----------------------------------------------------------===//

// The first barrier removed: the inner loop reads the elements other
// threads of the tile have not stored yet.
__global__ void matmulFirstBarrierRemoved(const float *A, const float *B,
                                          float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int ty = threadIdx.y, tx = threadIdx.x;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of shared 'As' at '[ty][k]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
      // CHECK-NOTES: :[[@LINE-5]]:5: note: written here at '[ty][tx]'
      // CHECK-NOTES: :[[@LINE-3]]:26: warning: read of shared 'Bs' at '[k][tx]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
      // CHECK-NOTES: :[[@LINE-6]]:5: note: written here at '[ty][tx]'
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// The second barrier removed: the next tile's stores overwrite elements
// that slower threads are still reading.
__global__ void matmulSecondBarrierRemoved(const float *A, const float *B,
                                           float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'As' at '[threadIdx.y][threadIdx.x]' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+6]]:14: note: read here at '[threadIdx.y][k]'
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'Bs' at '[threadIdx.y][threadIdx.x]' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+3]]:35: note: read here at '[k][threadIdx.x]'
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
  }
  C[row * n + col] = acc;
}

__global__ void transposeNoBarrier(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
    // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of shared 'tile' at '[threadIdx.x][threadIdx.y]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-6]]:5: note: written here at '[threadIdx.y][threadIdx.x]'
}

__global__ void stencilHaloNoBarrier(const float *in, float *out, int w,
                                     int h) {
  __shared__ float tile[TILE + 2 * R][TILE + 2 * R];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
  tile[ty + R][tx + R] = in[y * w + x];
  if (tx < R) {
    tile[ty + R][tx] = x >= R ? in[y * w + x - R] : 0.0f;
    tile[ty + R][tx + TILE + R] = in[y * w + x + TILE];
  }
  if (ty < R) {
    tile[ty][tx + R] = y >= R ? in[(y - R) * w + x] : 0.0f;
    tile[ty + TILE + R][tx + R] = in[(y + TILE) * w + x];
  }
  if (x < w && y < h)
    out[y * w + x] = tile[ty + R][tx] + tile[ty + R][tx + 2 * R] +
                     tile[ty][tx + R] + tile[ty + 2 * R][tx + R] -
                     4.0f * tile[ty + R][tx + R];
                     // CHECK-NOTES: :[[@LINE-3]]:22: warning: read of shared 'tile' at '[ty + R][tx]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
                     // CHECK-NOTES: :[[@LINE-14]]:3: note: written here at '[ty + R][tx + R]'
                     // CHECK-NOTES: :[[@LINE-5]]:41: warning: read of shared 'tile' at '[ty + R][tx + 2 * R]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
                     // CHECK-NOTES: :[[@LINE-16]]:3: note: written here at '[ty + R][tx + R]'
                     // CHECK-NOTES: :[[@LINE-6]]:22: warning: read of shared 'tile' at '[ty][tx + R]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
                     // CHECK-NOTES: :[[@LINE-18]]:3: note: written here at '[ty + R][tx + R]'
                     // CHECK-NOTES: :[[@LINE-8]]:41: warning: read of shared 'tile' at '[ty + 2 * R][tx + R]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
                     // CHECK-NOTES: :[[@LINE-20]]:3: note: written here at '[ty + R][tx + R]'
                     // The block's shape is not known here: a thread 16
                     // columns on may read what a halo thread stores.
                     // CHECK-NOTES: :[[@LINE-11]]:29: warning: read of shared 'tile' at '[ty + R][tx + R]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
                     // CHECK-NOTES: :[[@LINE-17]]:5: note: written here at '[ty + TILE + R][tx + R]'
}

__global__ void flattenedTransposeNoBarrier(float *out, const float *in) {
  __shared__ float s[TILE * TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty * TILE + tx] = in[blockIdx.x * TILE * TILE + ty * TILE + tx];
  out[blockIdx.x * TILE * TILE + ty * TILE + tx] = s[tx * TILE + ty];
  // CHECK-NOTES: :[[@LINE-1]]:52: warning: read of shared 's' at 'tx * TILE + ty' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'ty * TILE + tx'
}

__global__ void flattenedRowNeighbour(float *out) {
  extern __shared__ float rows[];
  unsigned i = threadIdx.y * blockDim.x + threadIdx.x;
  rows[threadIdx.y * blockDim.x + threadIdx.x] = out[i];
  out[i] = rows[(threadIdx.y + 1) * blockDim.x + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read of shared 'rows' at '(threadIdx.y + 1) * blockDim.x + threadIdx.x' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'threadIdx.y * blockDim.x + threadIdx.x'
}

__global__ void pointerToRowsTranspose(float *out) {
  extern __shared__ float smem[];
  float (*tile)[TILE + 1] = reinterpret_cast<float (*)[TILE + 1]>(smem);
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = out[ty * TILE + tx];
  out[tx * TILE + ty] = tile[tx][ty];
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: read of shared 'tile' at '[tx][ty]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at '[ty][tx]'
}

__global__ void cubeNextSlice(float *out) {
  __shared__ float cube[4][8][8];
  int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  cube[tz][ty][tx] = out[(tz * 8 + ty) * 8 + tx];
  if (tz + 1 < blockDim.z)
    out[(tz * 8 + ty) * 8 + tx] = cube[tz + 1][ty][tx];
    // CHECK-NOTES: :[[@LINE-1]]:35: warning: read of shared 'cube' at '[tz + 1][ty][tx]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-4]]:3: note: written here at '[tz][ty][tx]'
}

__global__ void threadIndexTranspose(float *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float tile[TILE][TILE];
  dim3 t = block.thread_index();
  tile[t.y][t.x] = out[t.y * TILE + t.x];
  out[t.y * TILE + t.x] = tile[t.x][t.y];
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: read of shared 'tile' at '[t.x][t.y]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at '[t.y][t.x]'
}

// Reading the first row: every thread of row 0 wrote it, others read it.
__global__ void readFirstRow(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.y * TILE + threadIdx.x];
  out[threadIdx.y * TILE + threadIdx.x] = tile[0][threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: read of shared 'tile' at '[0][threadIdx.x]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at '[threadIdx.y][threadIdx.x]'
}

// A row-wise shift with a block-uniform offset: thread x reads the element
// thread x + s wrote.
__global__ void rowShiftInLoop(float *out, int n) {
  __shared__ float tile[TILE][2 * TILE];
  for (int s = 1; s < n; ++s) {
    tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    out[threadIdx.x] = tile[threadIdx.y][threadIdx.x + s];
    // CHECK-NOTES: :[[@LINE-1]]:24: warning: read of shared 'tile' at '[threadIdx.y][threadIdx.x + s]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: written here at '[threadIdx.y][threadIdx.x]'
    __syncthreads();
  }
}

// A two-dimensional array in a one-dimensional block.
__global__ void rowsOfOneDimBlock(const float *in, float *out) {
  __shared__ float s[2][TILE + 1];
  s[0][threadIdx.x] = in[threadIdx.x];
  s[1][threadIdx.x] = in[threadIdx.x] * 2.0f;
  out[threadIdx.x] = s[0][threadIdx.x + 1] + s[1][threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of shared 's' at '[0][threadIdx.x + 1]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: written here at '[0][threadIdx.x]'
}

__global__ void threadIndexCallsNoBarrier(float *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float tile[TILE][TILE];
  tile[block.thread_index().y][block.thread_index().x] = 1.0f;
  out[block.thread_index().x] = tile[block.thread_index().y][TILE - 1];
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: read of shared 'tile' at '[block.thread_index().y][TILE - 1]' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at '[block.thread_index().y][block.thread_index().x]'
}

//===--- Not flagged -------------------------------------------------------===//

// Double buffering: one barrier per step; the step reads one buffer and
// stores the other.
__global__ void doubleBufferedTiles(const float *A, float *C, int steps) {
  __shared__ float tile[2][TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int cur = 0, nxt = 1;
  tile[cur][ty][tx] = A[ty * TILE + tx];
  __syncthreads();
  float acc = 0.0f;
  for (int s = 1; s < steps; ++s) {
    for (int k = 0; k < TILE; ++k)
      acc += tile[cur][ty][k];
    tile[nxt][ty][tx] = A[(s * TILE + ty) * TILE + tx];
    __syncthreads();
    cur = 1 - cur;
    nxt = 1 - nxt;
  }
  C[ty * TILE + tx] = acc;
}

__global__ void matmulCorrect(const float *A, const float *B, float *C,
                              int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int ty = threadIdx.y, tx = threadIdx.x;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    if (row < n && t * TILE + tx < n)
      As[ty][tx] = A[row * n + t * TILE + tx];
    else
      As[ty][tx] = 0.0f;
    if (col < n && t * TILE + ty < n)
      Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    else
      Bs[ty][tx] = 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

__global__ void transposeCorrect(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void stencilHaloCorrect(const float *in, float *out, int w, int h) {
  __shared__ float tile[TILE + 2 * R][TILE + 2 * R];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
  tile[ty + R][tx + R] = in[y * w + x];
  if (tx < R) {
    tile[ty + R][tx] = x >= R ? in[y * w + x - R] : 0.0f;
    tile[ty + R][tx + TILE + R] = in[y * w + x + TILE];
  }
  __syncthreads();
  if (x < w && y < h)
    out[y * w + x] = tile[ty + R][tx] + tile[ty + R][tx + 2 * R] -
                     2.0f * tile[ty + R][tx + R];
}

// Each thread reads only the element it wrote.
__global__ void ownElementOnly(float *out) {
  __shared__ float tile[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = out[ty * TILE + tx];
  tile[ty][tx] *= 2.0f;
  out[ty * TILE + tx] = tile[ty][tx];
}

// The tile is read at [ty][tx] only; the loop's other reads are of an
// array stored before the barrier.
__global__ void ownElementInLoop(const float *in, float *out) {
  __shared__ float tile[TILE][TILE];
  __shared__ float coef[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  coef[ty][tx] = in[ty * TILE + tx];
  __syncthreads();
  tile[ty][tx] = out[ty * TILE + tx];
  float acc = 0.0f;
  for (int k = 0; k < TILE; ++k)
    acc += tile[ty][tx] * coef[ty][k];
  out[ty * TILE + tx] = acc;
}

__global__ void flattenedCorrect(float *out, const float *in) {
  __shared__ float s[TILE * TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty * TILE + tx] = in[ty * TILE + tx];
  out[ty * TILE + tx] = s[ty * TILE + tx];
  __syncthreads();
  out[tx * TILE + ty] = s[tx * TILE + ty];
}

__global__ void cubeOwnElement(float *out) {
  __shared__ float cube[4][8][8];
  int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  cube[tz][ty][tx] = out[(tz * 8 + ty) * 8 + tx];
  out[(tz * 8 + ty) * 8 + tx] = cube[tz][ty][tx] + 1.0f;
}

// Only the diagonal threads store: each reads back its own element.
__global__ void diagonalOnly(float *out) {
  __shared__ float tile[TILE][TILE];
  if (threadIdx.x == threadIdx.y)
    tile[threadIdx.y][threadIdx.x] = 1.0f;
  if (threadIdx.x == threadIdx.y)
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// A row-wise tree reduction: the guard keeps the readers of one step from
// the writers.
__global__ void rowReduction(float *out) {
  __shared__ float tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = out[ty * TILE + tx];
  __syncthreads();
  for (int s = TILE / 2; s > 0; s >>= 1) {
    if (tx < s)
      tile[ty][tx] += tile[ty][tx + s];
    __syncthreads();
  }
  if (tx == 0)
    out[ty] = tile[ty][0];
}

// Two slots per thread, blockDim.x apart.
__global__ void twoSlotsPerRow(float *out) {
  __shared__ float tile[TILE][2 * TILE];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  tile[threadIdx.y][threadIdx.x + blockDim.x] = 2.0f;
  out[threadIdx.x] = tile[threadIdx.y][threadIdx.x] +
                     tile[threadIdx.y][threadIdx.x + blockDim.x];
}

// Per-thread row and column from loaded data: not read.
__global__ void indirectIndices(const int *perm, float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  out[threadIdx.x] = tile[perm[threadIdx.y]][threadIdx.x];
}

// A different view of the buffer: not compared.
__global__ void twoViews(float *out) {
  extern __shared__ float smem[];
  float (*a)[TILE] = reinterpret_cast<float (*)[TILE]>(smem);
  float (*b)[TILE + 1] = reinterpret_cast<float (*)[TILE + 1]>(smem);
  a[threadIdx.y][threadIdx.x] = 1.0f;
  out[threadIdx.x] = b[threadIdx.y][threadIdx.x];
}

// The rows are loaded in a loop over ty: the index is not a coordinate.
__global__ void rowsInLoop(float *out) {
  __shared__ float tile[TILE][TILE];
  for (int r = threadIdx.y; r < TILE; r += blockDim.y)
    tile[r][threadIdx.x] = out[r * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
