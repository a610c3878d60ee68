// cuda-unguarded-thread-index: global memory read or written at a
// thread-derived index with no upper bound on some path.
// The "-STRICT" expectations are findings of StrictMode only: indices
// the default mode leaves alone as not certain (composite, scaled or
// clamped forms, kernels whose launches are unknown or exact).
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_plugin --check-suffix=,STRICT %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unguarded-thread-index.StrictMode: true}}"
// RUN: %check_cuda_tidy_driver --check-suffix=,STRICT %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unguarded-thread-index.StrictMode: true}}"

#include <cassert>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define TILE 16

//===--- 1-D ---------------------------------------------------------------===//

__global__ void scaleNoGuard(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] *= 2.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void copyNoGuard(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: read of 'in' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void rawIndexNoGuard(float *out, int count) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'blockIdx.x * blockDim.x + threadIdx.x' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void derefNoGuard(int *out, int n) {
  unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
  *(out + i) = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void atomicNoGuard(int *counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&counts[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: address of 'counts' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void unrelatedGuard(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > 0)
    a[i] = 1.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}
void setAll(float *a, int n) {
  unrelatedGuard<<<(n + 127) / 128, 128>>>(a, n);
}

__global__ void guardOnOtherValue(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i % 2; // A quotient would bound i: see -quotient.cu.
  if (j < n)
    a[i] = 1.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}
void setHalf(float *a, int n) {
  guardOnOtherValue<<<(2 * n + 255) / 256, 256>>>(a, n);
}

__global__ void afterGuardedBlock(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = 1.0f;
  }
  a[i] += 1.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void guardOnOnePath(float *a, int n, bool check) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (check) {
    if (i >= n)
      return;
  }
  a[i] = 0.0f;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void indexChangedAfterGuard(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    i = i * 2;
    a[i] = 1.0f;
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  }
}

__global__ void guardedWrite(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 1.0f;
}

__global__ void earlyReturn(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = in[i] * 2.0f;
}

__global__ void negatedEarlyReturn(float *out, int n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (!(i < n))
    return;
  out[i] = 0.0f;
}

__global__ void elseReturn(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
  } else {
    return;
  }
  out[i] = 1.0f;
}

__global__ void guardedDeref(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    *(out + i) = 1;
}

__global__ void unsignedGuard(float *out, unsigned n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((unsigned)i < n)
    out[(size_t)i] = 1.0f;
}

//===--- Off by one --------------------------------------------------------===//

__global__ void lessEqual(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    a[i] = 0.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'i' can reach the bound in 'i <= n' [cuda-unguarded-thread-index]
}

__global__ void greaterReturn(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n)
    return;
  a[i] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' can reach the bound in 'i > n' [cuda-unguarded-thread-index]
}

__global__ void lessEqualMinusOne(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n - 1)
    a[i] = 0.0f;
}

//===--- Halo reads (stencils) ---------------------------------------------===//

__global__ void stencilUnguardedRight(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n)
    out[i] = in[i - 1] + in[i] + in[i + 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: read of 'in' at thread-derived index 'i + 1' can reach the bound in 'i < n' [cuda-unguarded-thread-index]
}

__global__ void forwardDifference(float *d, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[i] = x[i + 1] - x[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: read of 'x' at thread-derived index 'i + 1' can reach the bound in 'i >= n' [cuda-unguarded-thread-index]
}

__global__ void stencilGuarded(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = in[i - 1] + in[i] + in[i + 1];
}

__global__ void forwardDifferenceGuarded(float *d, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    d[i] = x[i + 1] - x[i];
}

__global__ void stencilRadius(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 2 || i >= n - 2)
    return;
  out[i] = in[i - 2] + in[i - 1] + in[i] + in[i + 1] + in[i + 2];
}

//===--- 2-D and 3-D -------------------------------------------------------===//

__global__ void fill2DNoGuard(float *img, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  img[y * width + x] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'img' at thread-derived index 'y * width + x' has no upper bound on this path [cuda-unguarded-thread-index]
}
void clearImage(float *img, int width, int height) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  fill2DNoGuard<<<grid, block>>>(img, width, height);
}

__global__ void fill2DRowOnly(float *img, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height)
    img[row * width + col] = 0.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'img' at thread-derived index 'row * width + col' has no upper bound on 'col' on this path [cuda-unguarded-thread-index]
}
void launch_fill2DRowOnly(float *img, int width, int height) {
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  fill2DRowOnly<<<grid, dim3(16, 16)>>>(img, width, height);
}

__global__ void fill2DColumnOnly(float *img, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= width)
    return;
  img[row * width + col] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'img' at thread-derived index 'row * width + col' has no upper bound on 'row' on this path [cuda-unguarded-thread-index]
}
void launch_fill2DColumnOnly(float *img, int width, int height) {
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  fill2DColumnOnly<<<grid, dim3(16, 16)>>>(img, width, height);
}

__global__ void fill3DNoDepth(float *vol, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny)
    vol[(z * ny + y) * nx + x] = 0.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'vol' at thread-derived index '(z * ny + y) * nx + x' has no upper bound on 'z' on this path [cuda-unguarded-thread-index]
}
void launchFill3DNoDepth(float *vol, int nx, int ny, int nz) {
  dim3 grid((nx + 7) / 8, (ny + 7) / 8, (nz + 7) / 8);
  fill3DNoDepth<<<grid, dim3(8, 8, 8)>>>(vol, nx, ny, nz);
}

__global__ void fill3DNoGuard(float *vol, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  vol[(z * ny + y) * nx + x] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'vol' at thread-derived index '(z * ny + y) * nx + x' has no upper bound on this path [cuda-unguarded-thread-index]
}
void clearVolume(float *vol, int nx, int ny, int nz) {
  dim3 block(8, 8, 8);
  dim3 grid((nx + 7) / 8, (ny + 7) / 8, (nz + 7) / 8);
  fill3DNoGuard<<<grid, block>>>(vol, nx, ny, nz);
}

__global__ void rowLoopNoGuard(float *m, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < cols; ++c)
    m[r * cols + c] = 0.0f;
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: write to 'm' at thread-derived index 'r * cols + c' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void fill2DGuarded(float *img, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    img[y * width + x] = 1.0f;
}

__global__ void fill2DEarlyReturn(float *img, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  int idx = y * width + x;
  img[idx] = 1.0f;
}

__global__ void fill3DGuarded(float *vol, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz)
    vol[(z * ny + y) * nx + x] = 1.0f;
}

__global__ void rowLoopGuarded(float *m, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  for (int c = 0; c < cols; ++c)
    m[r * cols + c] = 0.0f;
}

__global__ void rowPerBlock(float *m, int cols) {
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m[blockIdx.x * cols + c] *= 0.5f;
}

//===--- Grid-stride loops -------------------------------------------------===//

__global__ void gridStride(float *y, const float *x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void gridStrideWhile(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  while (i < n) {
    y[i] = 0.0f;
    i += stride;
  }
}

__global__ void gridStrideOffByOne(float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n;
       i += blockDim.x * gridDim.x)
    y[i] = 0.0f;
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: write to 'y' at thread-derived index 'i' can reach the bound in 'i <= n' [cuda-unguarded-thread-index]
}

__global__ void gridStrideNext(float *y, const float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = x[i + 1];
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:12: warning: read of 'x' at thread-derived index 'i + 1' can reach the bound in 'i < n' [cuda-unguarded-thread-index]
}

__global__ void gridStrideAfterIncrement(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  while (i < n) {
    i += stride;
    y[i] = 0.0f;
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: write to 'y' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  }
}

//===--- Clamps, ternaries, modulo, assert ---------------------------------===//

__global__ void clampMin(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[min(i, n - 1)] = in[min(i, n - 1)];
}

__global__ void clampTernary(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i < n ? i : n - 1] = 1.0f;
}

__global__ void readUnderTernary(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (i < n)
    out[i] = v;
}

__global__ void wrapModulo(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i % n] += 1.0f;
  out[(i + 1) % n] += 1.0f;
}

__global__ void asserted(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  out[i] = 1.0f;
}

__global__ void clampMinOffByOne(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[min(i, n)] = 1.0f;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'min(i, n)' can reach the bound in 'min(i, n)' [cuda-unguarded-thread-index]
}

__global__ void clampTernaryOffByOne(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i < n ? i : n] = 1.0f;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'i < n ? i : n' can reach the bound in 'i < n ? i : n' [cuda-unguarded-thread-index]
}

//===--- __device__ helpers ------------------------------------------------===//

__device__ int globalIndex() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ bool inRange(int i, int n) { return i < n; }
__device__ bool inRangeInclusive(int i, int n) { return i <= n; }
__device__ void storeAt(float *p, int i, float v) { p[i] = v; }
__device__ void storeNext(float *p, int i, float v) { p[i + 1] = v; }
__device__ void storeChecked(float *p, int i, int n, float v) {
  if (i < n)
    p[i] = v;
}

__global__ void helperIndexNoGuard(float *a, int n) {
  int i = globalIndex();
  a[i] = 1.0f;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void helperStoreNoGuard(float *a, int n) {
  int i = globalIndex();
  storeAt(a, i, 1.0f);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: call to 'storeAt' writes 'a' at thread-derived index 'i', which has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void helperStoreNextGuardedOnI(float *a, int n) {
  int i = globalIndex();
  if (i < n)
    storeNext(a, i, 1.0f);
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: call to 'storeNext' writes 'a' at thread-derived index 'i + 1', which can reach the bound in 'i < n' [cuda-unguarded-thread-index]
}

__global__ void helperGuardInclusive(float *a, int n) {
  int i = globalIndex();
  if (inRangeInclusive(i, n))
    a[i] = 1.0f;
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'i' can reach the bound in 'i <= n' [cuda-unguarded-thread-index]
}

__global__ void helperGuard(float *a, int n) {
  int i = globalIndex();
  if (inRange(i, n))
    a[i] = 1.0f;
}

__global__ void helperCallGuard(float *a, int n) {
  if (globalIndex() < n)
    a[globalIndex()] = 1.0f;
}

__global__ void helperStoreGuarded(float *a, int n) {
  int i = globalIndex();
  if (i >= n)
    return;
  storeAt(a, i, 1.0f);
}

__global__ void helperStoreChecksItself(float *a, int n) {
  storeChecked(a, globalIndex(), n, 1.0f);
}

//===--- Cooperative groups ------------------------------------------------===//

__global__ void gridRankNoGuard(float *a, int n) {
  cg::grid_group grid = cg::this_grid();
  a[grid.thread_rank()] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'grid.thread_rank()' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void groupIndexNoGuard(float *a, int n) {
  cg::thread_block block = cg::this_thread_block();
  unsigned i = block.group_index().x * block.size() + block.thread_rank();
  a[i] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void threadIndexNoGuard(float *a, int n) {
  cg::thread_block block = cg::this_thread_block();
  a[blockIdx.x * blockDim.x + block.thread_index().x] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'blockIdx.x * blockDim.x + block.thread_index().x' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void gridRankGuarded(float *a, int n) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
    a[i] = 0.0f;
}

__global__ void groupIndexGuarded(float *a, int n) {
  cg::thread_block block = cg::this_thread_block();
  unsigned i = block.group_index().x * block.size() + block.thread_rank();
  if (i < n)
    a[i] = 0.0f;
}

__global__ void tileSums(const float *in, float *blockSums, int n) {
  __shared__ float warpSums[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * blockDim.x + block.thread_rank();
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  if (tile.thread_rank() == 0)
    warpSums[tile.meta_group_rank()] = v;
  block.sync();
  if (block.thread_rank() == 0) {
    float s = 0.0f;
    for (int w = 0; w < 32; ++w)
      s += warpSums[w];
    blockSums[blockIdx.x] = s;
  }
}

//===--- Reductions --------------------------------------------------------===//

__global__ void reduceNoGuard(const float *in, float *partial, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  sdata[tid] = in[i] + in[i + blockDim.x];
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:16: warning: read of 'in' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:24: warning: read of 'in' at thread-derived index 'i + blockDim.x' has no upper bound on this path [cuda-unguarded-thread-index]
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}

__global__ void reduceSecondLoadUnguarded(const float *in, float *partial,
                                          int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = 0.0f;
  if (i < n)
    v = in[i] + in[i + blockDim.x];
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:17: warning: read of 'in' at thread-derived index 'i + blockDim.x' can reach the bound in 'i < n' [cuda-unguarded-thread-index]
  sdata[tid] = v;
  __syncthreads();
  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}

__global__ void reduceGuarded(const float *in, float *partial, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;
  if (i + blockDim.x < n)
    v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}

//===--- Tiled matrix multiply and transpose -------------------------------===//

__global__ void matmulPartialTile(const float *A, const float *B, float *C,
                                  int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:36: warning: read of 'A' at thread-derived index 'row * n + t * TILE + threadIdx.x' has no upper bound on this path [cuda-unguarded-thread-index]
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:36: warning: read of 'B' at thread-derived index '(t * TILE + threadIdx.y) * n + col' has no upper bound on this path [cuda-unguarded-thread-index]
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

__global__ void matmulGuarded(const float *A, const float *B, float *C,
                              int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    int aCol = t * TILE + threadIdx.x;
    int bRow = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] =
        (row < n && aCol < n) ? A[row * n + aCol] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] =
        (bRow < n && col < n) ? B[bRow * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

__global__ void matmulRowGuardOnly(const float *A, float *C, int n) {
  __shared__ float As[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  float acc = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    if (row < n)
      As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
      // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:38: warning: read of 'A' at thread-derived index 'row * n + t * TILE + threadIdx.x' has no upper bound on 't * TILE + threadIdx.x' on this path [cuda-unguarded-thread-index]
    __syncthreads();
    acc += As[threadIdx.y][0];
    __syncthreads();
  }
  if (row < n)
    C[row] = acc;
}
void launchMatmulRowGuardOnly(const float *A, float *C, int n) {
  dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  matmulRowGuardOnly<<<grid, dim3(TILE, TILE)>>>(A, C, n);
}

__global__ void transposeNoGuard(float *out, const float *in, int width,
                                 int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: read of 'in' at thread-derived index 'y * width + x' has no upper bound on this path [cuda-unguarded-thread-index]
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * height + x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'y * height + x' has no upper bound on this path [cuda-unguarded-thread-index]
}

// Its launch rounds the grid up in both dimensions.
void transposeImage(float *out, const float *in, int width, int height) {
  dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
  transposeNoGuard<<<grid, dim3(TILE, TILE)>>>(out, in, width, height);
}

// The same kernel with no launch in this file: nothing in it says that
// threads outnumber elements (no guard anywhere, every size used as a
// stride), so its launches elsewhere decide, and they are unknown.
__global__ void transposeLaunchedElsewhere(float *out, const float *in,
                                           int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:36: warning: read of 'in' at thread-derived index 'y * width + x' has no upper bound on this path [cuda-unguarded-thread-index]
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * height + x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'y * height + x' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void transposeGuarded(float *out, const float *in, int width,
                                 int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height)
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width)
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

//===--- Shared memory, per-block and non-thread indices -------------------===//

__global__ void sharedByThread(float *blockOut) {
  __shared__ float buf[256];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0)
    blockOut[blockIdx.x] = buf[255];
}

__global__ void perBlockScratch(float *scratch) {
  scratch[threadIdx.x] = 0.0f;
}

__global__ void gather(float *out, const float *in, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[idx[i]];
}

__global__ void serialLoop(float *a, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    for (int k = 0; k < n; ++k)
      a[k] = 0.0f;
}

//===--- __device__ arrays -------------------------------------------------===//

__device__ float lookup[256];

__global__ void deviceArrayNoGuard(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = lookup[i];
}

__global__ void deviceArrayGuarded(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < 256)
    out[i] = lookup[i];
}

__global__ void deviceArrayMasked(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = lookup[i & 255];
}

//===--- Templates ---------------------------------------------------------===//

template <typename T> __global__ void fillT(T *a, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

template <typename T> __global__ void fillGuardedT(T *a, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = v;
}

//===--- Launches that cover the data exactly ------------------------------===//

constexpr int kElems = 1 << 20;
constexpr int kThreads = 256;

__global__ void exactConstant(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 0.0f;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void exactChecked(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 1.0f;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void exactAsserted(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 1.0f;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void exact2D(float *img, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  img[y * width + x] = 0.0f;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'img' at thread-derived index 'y * width + x' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void exactExtentArgument(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 0.0f;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void exactButReadsNext(float *d, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  d[i] = x[i + 1];
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'd' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: read of 'x' at thread-derived index 'i + 1' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void roundedUp(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void oneLaunchRoundedUp(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

void launchAll(float *d, float *e, int n) {
  fillT<<<(n + 255) / 256, 256>>>(d, 1.0f, n);
  fillT<<<(n + 255) / 256, 256>>>(reinterpret_cast<double *>(e), 1.0, n);
  fillGuardedT<<<(n + 255) / 256, 256>>>(d, 1.0f, n);

  exactConstant<<<kElems / kThreads, kThreads>>>(d);
  exactButReadsNext<<<kElems / kThreads, kThreads>>>(d, e);
  exactExtentArgument<<<4, 256>>>(d, 1024);
  dim3 block(16, 16);
  dim3 grid(1024 / 16, 768 / 16);
  exact2D<<<grid, block>>>(d, 1024);
  roundedUp<<<(n + 255) / 256, 256>>>(d, n);
  oneLaunchRoundedUp<<<kElems / kThreads, kThreads>>>(d, kElems);
  oneLaunchRoundedUp<<<(n + 255) / 256, 256>>>(d, n);

  if (n % kThreads != 0)
    return;
  int blocks = n / kThreads;
  exactChecked<<<blocks, kThreads>>>(d, n);
}

void launchAsserted(float *d, int n) {
  assert(n % 128 == 0);
  exactAsserted<<<n / 128, 128>>>(d, n);
}

//===--- Offset arrays of n + 1 entries ------------------------------------===//

// CSR row pointers and prefix sums are read at [r] and [r + 1]: an integer
// array read both ways under a guard on r is taken to have n + 1 entries.
__global__ void csrRowLengths(const int *rowPtr, int *len, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    len[r] = rowPtr[r + 1] - rowPtr[r];
}

//===--- Windows, strides and channels -------------------------------------===//

#define R 3

__global__ void convolveGuarded(float *out, const float *in, const float *w,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < R || i >= n - R)
    return;
  float s = 0.0f;
  for (int k = -R; k <= R; ++k)
    s += w[k + R] * in[i + k];
  out[i] = s;
}

__global__ void convolveWindowPastEnd(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < R || i >= n)
    return;
  float s = 0.0f;
  for (int k = -R; k <= R; ++k)
    s += in[i + k];
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: read of 'in' at thread-derived index 'i + k' can reach the bound in 'i >= n' [cuda-unguarded-thread-index]
  out[i] = s;
}

__global__ void naiveMatmul(const float *A, const float *B, float *C, int M,
                            int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float s = 0;
    for (int k = 0; k < K; ++k)
      s += A[row * K + k] * B[k * N + col];
    C[row * N + col] = s;
  }
}

__global__ void rgbChannels(unsigned char *img, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  for (int c = 0; c < 3; ++c)
    img[(y * width + x) * 3 + c] = 0;
}

template <unsigned BlockSize>
__global__ void reduceGridStrideTwoLoads(const int *in, int *out, unsigned n) {
  extern __shared__ int idata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BlockSize * 2) + tid;
  unsigned gridSize = BlockSize * 2 * gridDim.x;
  idata[tid] = 0;
  while (i < n) {
    idata[tid] += in[i] + in[i + BlockSize];
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:27: warning: read of 'in' at thread-derived index 'i + BlockSize' can reach the bound in 'i < n' [cuda-unguarded-thread-index]
    i += gridSize;
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = idata[0];
}
template __global__ void reduceGridStrideTwoLoads<256>(const int *, int *,
                                                      unsigned);

__global__ void breakOutOfLoop(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x;;
       i += blockDim.x * gridDim.x) {
    if (i >= n)
      break;
    a[i] = 0.0f;
  }
}

__global__ void elseBranchUnguarded(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 1.0f;
  else
    a[i] = 2.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

#define NCONST 4096
__global__ void constantExtent(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= NCONST)
    return;
  a[i] = 1.0f;
}

__global__ void doWhileStride(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  do {
    a[i] = 0.0f;
    i += blockDim.x * gridDim.x;
  } while (i < n);
}

__global__ void extentInStruct(float *a, int2 dims) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < dims.x && y < dims.y)
    a[y * dims.x + x] = 0.0f;
}

__global__ void copiedIndex(float *a, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long j = i;
  if (j < n)
    a[j] = 1.0f;
}

__global__ void guardThenSwitch(float *a, int n, int mode) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  switch (mode) {
  case 0:
    a[i] = 0.0f;
    break;
  default:
    a[i] = 1.0f;
  }
}

__global__ void guardBreaksAfterStore(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (true) {
    a[i] = 0.0f;
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
    if (i >= n)
      break;
    i += blockDim.x * gridDim.x;
  }
}

//===--- Inequalities that exclude the last element ------------------------===//

__global__ void jacobiEnds(const float *cur, float *next, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = (i == 0 || i == n - 1) ? cur[i]
                                     : 0.5f * (cur[i - 1] + cur[i + 1]);
    next[i] = v;
  }
}

__global__ void notLast(float *d, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i != n - 1)
    d[i] = x[i + 1] - x[i];
}

__global__ void notFirst(float *d, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i != 0)
    d[i] = x[i + 1] - x[i - 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: read of 'x' at thread-derived index 'i + 1' can reach the bound in 'i < n' [cuda-unguarded-thread-index]
}

//===--- Helpers that compute their own index ------------------------------===//

__device__ void zeroMine(float *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = 0.0f;
}
__device__ void zeroMineChecked(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 0.0f;
}
__global__ void callsUnguarded(float *a, int n) {
  zeroMine(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'zeroMine' writes 'a' at thread-derived index 'i', which has no upper bound on this path [cuda-unguarded-thread-index]
}
__global__ void callsGuarded(float *a, int n) { zeroMineChecked(a, n); }
__global__ void callsUnderGuard(float *a, int n) {
  if (blockIdx.x * blockDim.x + threadIdx.x < n)
    zeroMine(a);
}

//===--- __mul24 index arithmetic ------------------------------------------===//

#define IMUL(a, b) __mul24(a, b)
__global__ void oldStyle(float *d, int n) {
  const int ix = IMUL(blockDim.x, blockIdx.x) + threadIdx.x;
  d[ix] = 0.0f;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'd' at thread-derived index 'ix' has no upper bound on this path [cuda-unguarded-thread-index]
}
__global__ void oldStyleGuarded(float *d, int n) {
  const int ix = IMUL(blockDim.x, blockIdx.x) + threadIdx.x;
  if (ix < n)
    d[ix] = 0.0f;
}
__global__ void oldStyleLoop(float *d, int n) {
  for (int pos = IMUL(blockDim.x, blockIdx.x) + threadIdx.x; pos < n;
       pos += IMUL(blockDim.x, gridDim.x))
    d[pos] = 1.0f;
}

//===--- Guards held in a flag ---------------------------------------------===//

__global__ void flagGuard(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool active = i < n;
  float v = active ? a[i] : 0.0f;
  if (active)
    a[i] = v * 2.0f;
}
__global__ void flagStale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool active = i < n;
  i += 1;
  if (active)
    a[i] = 0.0f;
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

//===--- Linear block and thread indices -----------------------------------===//

__global__ void perBlock2D(float *partial) {
  int bid = blockIdx.y * gridDim.x + blockIdx.x;
  partial[bid] = 0.0f;
  partial[blockIdx.y * gridDim.x + blockIdx.x] += 1.0f;
}
__global__ void perThreadInBlock2D(float *scratch) {
  scratch[threadIdx.y * blockDim.x + threadIdx.x] = 0.0f;
}
__global__ void mixedNeedsGuard(float *a) {
  a[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'blockIdx.x * blockDim.x + threadIdx.x' has no upper bound on this path [cuda-unguarded-thread-index]
}
void clearMixed(float *a, int count) {
  mixedNeedsGuard<<<(count + 255) / 256, 256>>>(a);
}

// A window that ends at the thread's own index, under the thread's guard:
// j <= i and i < n give j < n.
__global__ void trailingWindow(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int first = i - 63 < 0 ? 0 : i - 63;
  float sum = 0.f;
  for (int j = first; j <= i; ++j)
    sum += in[j];
  out[i] = sum;
}

// An element of class type is written through its operator=.
struct Half16 {
  unsigned short bits;
  __device__ Half16 &operator=(float v) {
    bits = (unsigned short)v;
    return *this;
  }
};
__global__ void storeHalves(Half16 *mean, float m, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx > n)
    return;
  mean[idx] = m;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'mean' at thread-derived index 'idx' can reach the bound in 'idx > n' [cuda-unguarded-thread-index]
}
void storeAllHalves(Half16 *mean, int n) {
  storeHalves<<<(n + 127) / 128, 128>>>(mean, 1.0f, n);
}
