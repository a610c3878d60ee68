// cuda-shared-memory-bounds: a subscript of a statically sized __shared__
// array that some thread of a block the kernel is launched with runs past
// (a tile read one column past its width at the block's edge), or below 0.
// RUN: %check_cuda_tidy_plugin %s cuda-shared-memory-bounds %t
// RUN: %check_cuda_tidy_driver %s cuda-shared-memory-bounds %t

#define TILE 32
#define RADIUS 3
#define BLOCK 256
#define WARP 32

//===--- Flagged ----------------------------------------------------------===//

// The block's last column reads one past the tile's width.
__global__ void shiftRight(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx, row = blockIdx.y * TILE + ty;
  if (row < n && col < n)
    tile[ty][tx] = in[row * n + col];
  __syncthreads();
  if (row < n && col < n)
    out[row * n + col] = tile[ty][tx + 1] - tile[ty][tx];
    // CHECK-NOTES: :[[@LINE-1]]:35: warning: shared array 'tile' is read at column 'tx + 1', which reaches 32 for thread 31 of a 32x32 block; its extent is 32 [cuda-shared-memory-bounds]
    // CHECK-NOTES: :[[@LINE-9]]:20: note: 'tile' is declared here
    // CHECK-NOTES: :[[@LINE+269]]:3: note: the kernel is launched here with a 32x32 block
}

// The row below, for the block's last row.
__global__ void shiftDown(const float *in, float *out) {
  __shared__ float tile[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[ty * 16 + tx];
  __syncthreads();
  int below = ty + 1;
  out[ty * 16 + tx] = tile[below][tx];
  // CHECK-NOTES: :[[@LINE-1]]:28: warning: shared array 'tile' is read at row 'below', which reaches 16 for thread (0, 15) of a 16x16 block; its extent is 16 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-7]]:20: note: 'tile' is declared here
  // CHECK-NOTES: :[[@LINE+257]]:3: note: the kernel is launched here with a 16x16 block
}

// Thread 0 reads the element before the array.
__global__ void leftNeighbour(const float *in, float *out) {
  __shared__ float s[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[threadIdx.x - 1];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: shared array 's' is read at index 'threadIdx.x - 1', which reaches -1 for thread 0; its extent is 256 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 's' is declared here
}

// The guard lets thread TILE - 1 through, which reads s[TILE].
__global__ void guardedLoad(const float *in, float *out) {
  __shared__ float s[TILE];
  int tx = threadIdx.x;
  if (tx < TILE) {
    s[tx] = in[tx];
    out[tx] = s[tx + 1];
    // CHECK-NOTES: :[[@LINE-1]]:17: warning: shared array 's' is read at index 'tx + 1', which reaches 32 for thread 31, let through by 'tx < TILE'; its extent is 32 [cuda-shared-memory-bounds]
    // CHECK-NOTES: :[[@LINE-6]]:20: note: 's' is declared here
  }
}

// No launch here: the block is as wide as __launch_bounds__ allows.
__global__ void __launch_bounds__(128) bounded(const float *in, float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 2];
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: shared array 's' is read at index 'threadIdx.x + 2', which reaches 129 for thread 127 of a block of 128 threads, the most its __launch_bounds__ allows; its extent is 128 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-5]]:20: note: 's' is declared here
}

// A stencil whose tile has no room for its halo.
__global__ void stencilNoHalo(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  int g = blockIdx.x * BLOCK + threadIdx.x;
  s[threadIdx.x + RADIUS] = in[g];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: shared array 's' is written at index 'threadIdx.x + RADIUS', which reaches 258 for thread 255 of a 256-wide block; its extent is 256 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 's' is declared here
  // CHECK-NOTES: :[[@LINE+217]]:3: note: the kernel is launched here with a 256-wide block
  __syncthreads();
  out[g] = s[threadIdx.x];
}

// A flattened tile indexed by both coordinates, stored to.
__global__ void flatTile(const float *in, float *out) {
  __shared__ float s[16 * 16];
  s[threadIdx.y * 16 + threadIdx.x + 1] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: shared array 's' is written at index 'threadIdx.y * 16 + threadIdx.x + 1', which reaches 256 for thread (15, 15) of a 16x16 block; its extent is 256 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-3]]:20: note: 's' is declared here
  // CHECK-NOTES: :[[@LINE+207]]:3: note: the kernel is launched here with a 16x16 block
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// One partial per warp, read by every lane of the first warp (8 warps).
struct Pair { float m, d; };
template <int THREADS>
__global__ void warpPartials(const float *x, float *y) {
  const int WARPS = THREADS / WARP;
  __shared__ Pair part[WARPS];
  int tid = threadIdx.x;
  Pair v{x[blockIdx.x * THREADS + tid], 1.0f};
  if (tid % WARP == 0)
    part[tid / WARP] = v;
  __syncthreads();
  if (tid < WARP) {
    Pair p = part[tid];
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: shared array 'part' is read at index 'tid', which reaches 31 for thread 31, let through by 'tid < WARP'; its extent is 8 [cuda-shared-memory-bounds]
    // CHECK-NOTES: :[[@LINE-9]]:19: note: 'part' is declared here
    y[tid] = p.m;
  }
}

//===--- Not flagged ------------------------------------------------------===//

// Guards that keep the neighbour inside the tile.
__global__ void shiftGuarded(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[ty * TILE + tx];
  __syncthreads();
  if (tx + 1 < TILE)
    out[ty * TILE + tx] = tile[ty][tx + 1];
  if (tx < TILE - 1)
    out[ty * TILE + tx] += tile[ty][tx + 1];
  if (tx > 0)
    out[ty * TILE + tx] += tile[ty][tx - 1];
  if (tx != 0 && ty < TILE - 1)
    out[ty * TILE + tx] += tile[ty + 1][tx - 1];
  out[0] = tx > 0 ? tile[ty][tx - 1] : 0.0f;
  out[1] = tx == 0 ? 0.0f : tile[ty][tx - 1];
}

// A halo tile: BLOCK + 2 * RADIUS elements, loaded at tx + RADIUS.
__global__ void halo(const float *in, float *out, int n) {
  __shared__ float s[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * BLOCK + threadIdx.x;
  s[threadIdx.x + RADIUS] = in[g];
  if (threadIdx.x < RADIUS) {
    s[threadIdx.x] = in[g - RADIUS];
    s[threadIdx.x + BLOCK + RADIUS] = in[g + BLOCK];
  }
  __syncthreads();
  float v = 0;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    v += s[threadIdx.x + RADIUS + k];
  out[g] = v;
}

// Early exits before the access.
__global__ void earlyExit(const float *in, float *out) {
  __shared__ float s[TILE];
  int tx = threadIdx.x;
  s[tx] = in[tx];
  __syncthreads();
  if (tx >= TILE - 1)
    return;
  out[tx] = s[tx + 1];
}

__global__ void lowerExit(const float *in, float *out) {
  __shared__ float s[TILE];
  int tx = threadIdx.x;
  s[tx] = in[tx];
  __syncthreads();
  if (tx == 0)
    return;
  out[tx] = s[tx - 1];
}

// A test of the thread the analysis does not read: silent.
__global__ void parity(const float *in, float *out) {
  __shared__ float s[TILE];
  int tx = threadIdx.x;
  s[tx] = in[tx];
  __syncthreads();
  if (tx % 2 == 0)
    out[tx] = s[tx + 1];
}

// A bound that is not a constant ('tx < width'): silent.
__global__ void widthBound(const float *in, float *out, int width) {
  __shared__ float s[TILE];
  int tx = threadIdx.x;
  if (tx < width)
    out[tx] = s[tx + 1];
}

// The tree reduction: 'tid + s' under 'tid < s', and the last warp.
__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// A histogram: the bin comes from the data.
__global__ void histogram(const int *data, int *bins, int n) {
  __shared__ int hist[64];
  hist[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[data[i] & 63], 1);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], hist[threadIdx.x]);
}

// Transpose through a padded tile, TILE x 8 threads, rows in a loop.
__global__ void transpose(const float *in, float *out, int w) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Tiled matrix product.
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0;
  for (int t = 0; t < n / 16; ++t) {
    As[ty][tx] = A[row * n + t * 16 + tx];
    Bs[ty][tx] = B[(t * 16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// The partials, read only by the lanes that have one.
template <int THREADS>
__global__ void warpPartialsFixed(const float *x, float *y) {
  const int WARPS = THREADS / WARP;
  __shared__ Pair part[WARPS];
  int tid = threadIdx.x;
  Pair v{x[blockIdx.x * THREADS + tid], 1.0f};
  if (tid % WARP == 0)
    part[tid / WARP] = v;
  __syncthreads();
  if (tid < WARP) {
    Pair p = tid < WARPS ? part[tid] : Pair{0.0f, 0.0f};
    y[tid] = p.m;
  }
}

// A block no launch or attribute tells: silent.
__global__ void unknownBlock(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
}

// A launch with a block smaller than the tile.
__global__ void narrowBlock(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x + 1] = in[threadIdx.x];
}

// One past the end as an address, and dynamic shared memory.
__global__ void pointerPastEnd(float *out) {
  __shared__ float s[TILE];
  float *end = &s[threadIdx.x + 1];
  out[0] = *(end - 1);
  extern __shared__ float dyn[];
  out[1] = dyn[threadIdx.x + 1];
}

void launch(const float *in, float *out, int n) {
  dim3 block(TILE, TILE);
  dim3 grid(n / TILE, n / TILE);
  shiftRight<<<grid, block>>>(in, out, n);
  shiftDown<<<1, dim3(16, 16)>>>(in, out);
  shiftGuarded<<<grid, block>>>(in, out, n);
  leftNeighbour<<<n / BLOCK, BLOCK>>>(in, out);
  stencilNoHalo<<<n / BLOCK, BLOCK>>>(in, out, n);
  flatTile<<<1, dim3(16, 16)>>>(in, out);
  halo<<<n / BLOCK, BLOCK>>>(in, out, n);
  earlyExit<<<1, TILE>>>(in, out);
  lowerExit<<<1, TILE>>>(in, out);
  parity<<<1, TILE>>>(in, out);
  reduce<<<n / BLOCK, BLOCK>>>(in, out);
  histogram<<<n / 64, 64>>>((const int *)in, (int *)out, n);
  transpose<<<grid, dim3(TILE, 8)>>>(in, out, n);
  matmul<<<grid, dim3(16, 16)>>>(in, in, out, n);
  widthBound<<<1, TILE>>>(in, out, n);
  warpPartials<256><<<n, 256>>>(in, out);
  warpPartialsFixed<256><<<n, 256>>>(in, out);
  narrowBlock<<<1, 63>>>(in, out);
  pointerPastEnd<<<1, TILE, 64>>>(out);
}

// A template sized by its block, launched at two widths; half the block
// reads the other half; a strided loop; a test in a switch.
template <int B>
__global__ void sizedByBlock(const float *in, float *out) {
  __shared__ float s[B];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < B / 2)
    out[threadIdx.x] = s[threadIdx.x + B / 2];
  for (int i = threadIdx.x; i + 1 < B; i += blockDim.x)
    out[i] += s[i + 1];
  switch (threadIdx.x) {
  case 0:
    out[0] += s[threadIdx.x + B - 1];
    break;
  default:
    break;
  }
}

// A padded tile read by a 32x8 block: the column stays in the padding.
__global__ void paddedColumn(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.y][threadIdx.x + 1];
}

void launchMore(const float *in, float *out) {
  sizedByBlock<128><<<4, 128>>>(in, out);
  sizedByBlock<256><<<4, 256>>>(in, out);
  paddedColumn<<<1, dim3(TILE, 8)>>>(in, out);
}

// One partial per warp: every lane reads its own slot, past the 8 warps
// of a 256-thread block; the lanes of the first warp likewise. Reading
// only the lanes that have a slot is clean, however the lane is written.
template <int THREADS>
__global__ void partialsByLane(const float *x, float *y) {
  constexpr int WARPS = THREADS / WARP;
  __shared__ float part[WARPS];
  int tid = threadIdx.x;
  int lane = tid % WARP, warp = tid / WARP;
  float v = x[blockIdx.x * THREADS + tid];
  if (lane == 0)
    part[warp] = v;
  __syncthreads();
  float all = part[lane];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: shared array 'part' is read at index 'lane', which reaches 31 for thread 31 of a 256-wide block; its extent is 8 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-9]]:20: note: 'part' is declared here
  // CHECK-NOTES: :[[@LINE+25]]:3: note: the kernel is launched here with a 256-wide block
  if (warp == 0)
    y[blockIdx.x] = part[lane];
    // CHECK-NOTES: :[[@LINE-1]]:26: warning: shared array 'part' is read at index 'lane', which reaches 31 for thread 31, let through by 'warp == 0'; its extent is 8 [cuda-shared-memory-bounds]
    // CHECK-NOTES: :[[@LINE-14]]:20: note: 'part' is declared here
  float ok = lane < WARPS ? part[lane] : 0.0f;
  float ok2 = (tid & 31) < WARPS ? part[tid & 31] : 0.0f;
  if (warp == 0 && lane < WARPS)
    y[lane] = part[lane];
  y[tid] = all + ok + ok2 + part[tid >> 5];
}

// A group index one past the groups of a 128-thread block.
__global__ void groupsPlusOne(const float *x, float *y) {
  __shared__ float g[4];
  int tid = threadIdx.x;
  g[tid >> 5] = x[tid];
  __syncthreads();
  y[tid] = g[tid / 32 + 1];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: shared array 'g' is read at index 'tid / 32 + 1', which reaches 4 for thread 127 of a 128-wide block; its extent is 4 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'g' is declared here
  // CHECK-NOTES: :[[@LINE+5]]:3: note: the kernel is launched here with a 128-wide block
}

void launchLanes(const float *x, float *y) {
  partialsByLane<256><<<10, 256>>>(x, y);
  groupsPlusOne<<<10, 128>>>(x, y);
}

// Launched as a row and as a column: no block has both 32 columns and 32
// rows, so 'tx + ty + 1' stays below 33.
__global__ void rowOrColumn(const float *x, float *y) {
  __shared__ float s[33];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[tx + ty + 1] = x[tx + ty];
}

void launchRowOrColumn(const float *x, float *y) {
  rowOrColumn<<<1, dim3(32, 1)>>>(x, y);
  rowOrColumn<<<1, dim3(1, 32)>>>(x, y);
}

// Helpers that compute their own thread index run on the caller's block:
// a block reduction whose every lane reads a partial, a neighbour read
// past a 64-element tile; the same helpers guarded at the call, or inside,
// are clean. A helper indexing through a parameter reads the caller's
// array at the caller's index: 'row[threadIdx.x + 1]'.
template <int THREADS>
__device__ float blockReduce(float v) {
  constexpr int WARPS = THREADS / WARP;
  static __shared__ float partial[WARPS];
  int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  return partial[lane];
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: shared array 'partial' is read at index 'lane', which reaches 31 for thread 31 of a 256-wide block; its extent is 8 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-7]]:27: note: 'partial' is declared here
  // CHECK-NOTES: :[[@LINE+43]]:3: note: the kernel is launched here with a 256-wide block
}

template <int THREADS>
__device__ float blockReduceGuarded(float v) {
  constexpr int WARPS = THREADS / WARP;
  static __shared__ float partial[WARPS];
  int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  return lane < WARPS ? partial[lane] : 0.0f;
}

__device__ float rightNeighbour() {
  __shared__ float t[64];
  t[threadIdx.x] = 1.0f;
  __syncthreads();
  return t[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: shared array 't' is read at index 'threadIdx.x + 1', which reaches 64 for thread 63 of a 64-wide block; its extent is 64 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-5]]:20: note: 't' is declared here
  // CHECK-NOTES: :[[@LINE+23]]:3: note: the kernel is launched here with a 64-wide block
}

__device__ float atParameter(const float *s, int i) { return s[i + 1]; }
// CHECK-NOTES: :[[@LINE-1]]:64: warning: shared array 'row' is read at index 'i + 1', which reaches 256 for thread 255 of a 256-wide block; its extent is 256 [cuda-shared-memory-bounds]
// CHECK-NOTES: :[[@LINE+6]]:20: note: 'row' is declared here
// CHECK-NOTES: :[[@LINE+10]]:49: note: 'atParameter' is called here with 'threadIdx.x' for 'i'
// CHECK-NOTES: :[[@LINE+15]]:3: note: the kernel is launched here with a 256-wide block

template <int THREADS>
__global__ void reduceRows(const float *x, float *y) {
  __shared__ float row[THREADS];
  row[threadIdx.x] = x[threadIdx.x];
  float a = blockReduce<THREADS>(x[threadIdx.x]);
  float b = blockReduceGuarded<THREADS>(x[threadIdx.x]);
  float c = threadIdx.x < 63 ? rightNeighbour() : 0.0f;
  y[threadIdx.x] = a + b + c + atParameter(row, threadIdx.x);
}

__global__ void neighbours(float *y) { y[threadIdx.x] = rightNeighbour(); }

void launchHelpers(const float *x, float *y) {
  reduceRows<256><<<1, 256>>>(x, y);
  neighbours<<<1, 64>>>(y);
}

//===--- Block sizes chosen at run time -----------------------------------===//

// The block is a run-time value, and each case of a switch on it launches
// the specialization for that size: under 'case 128:' it is 128. The tile
// is as wide as the block, so the neighbour read runs one past it.
template <int SIZE>
__global__ void shiftByCase(const float *in, float *out) {
  __shared__ float s[SIZE];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: shared array 's' is read at index 'threadIdx.x + 1', which reaches 128 for thread 127 of a 128-wide block; its extent is 128 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-5]]:20: note: 's' is declared here
  // CHECK-NOTES: :[[@LINE+58]]:5: note: the kernel is launched here with a 128-wide block
}

// One partial per warp, read by every lane; the block is a dim3 of the
// switched value, as a reduction dispatched over block sizes writes it.
template <int THREADS>
__global__ void partialsBySize(const float *x, float *y) {
  __shared__ float part[THREADS / WARP];
  int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
  if (lane == 0)
    part[warp] = x[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = part[lane];
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: shared array 'part' is read at index 'lane', which reaches 31 for thread 31 of a 128-wide block; its extent is 4 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-7]]:20: note: 'part' is declared here
  // CHECK-NOTES: :[[@LINE+58]]:5: note: the kernel is launched here with a 128-wide block
}

// A tile with a halo of one on each side, loaded at tx + 1: clean at
// every size the switch launches.
template <int SIZE>
__global__ void haloByCase(const float *in, float *out, int n) {
  __shared__ float s[SIZE + 2];
  int g = blockIdx.x * SIZE + threadIdx.x;
  s[threadIdx.x + 1] = in[g];
  if (threadIdx.x == 0) {
    s[0] = g > 0 ? in[g - 1] : 0.0f;
    s[SIZE + 1] = g + SIZE < n ? in[g + SIZE] : 0.0f;
  }
  __syncthreads();
  out[g] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
}

// An equality test picks the size as a case does.
template <int SIZE>
__global__ void shiftByTest(const float *in, float *out) {
  __shared__ float s[SIZE];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: shared array 's' is read at index 'threadIdx.x + 1', which reaches 64 for thread 63 of a 64-wide block; its extent is 64 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE-5]]:20: note: 's' is declared here
  // CHECK-NOTES: :[[@LINE+40]]:5: note: the kernel is launched here with a 64-wide block
}

// Where the value is not fixed by the branch, the block is not known:
// a default label, a case another falls into, a test joined by '||', a
// variable changed in the case. Each kernel would overrun its 64-element
// tile for a block of 128 or more (the value the branch names): silent.
template <int N>
__global__ void unknownSize(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
}

void dispatchBySize(const float *in, float *out, int block, int n) {
  switch (block) {
  case 128:
    shiftByCase<128><<<n / 128, block>>>(in, out);
    haloByCase<128><<<n / 128, block>>>(in, out, n);
    break;
  case 256:
    shiftByCase<256><<<n / 256, block>>>(in, out);
    haloByCase<256><<<n / 256, block>>>(in, out, n);
    break;
  default:
    unknownSize<0><<<n / 128, block>>>(in, out);
    break;
  }
  const int threads = block;
  dim3 grid(n / threads), threadsPerBlock(threads);
  switch (threads) {
  case 128:
    partialsBySize<128><<<grid, threadsPerBlock>>>(in, out);
    break;
  case 256:
    n /= 2;
  case 512:
    unknownSize<1><<<grid, threadsPerBlock>>>(in, out);
    break;
  }
  if (block == 64 && n > 0) {
    shiftByTest<64><<<1, block>>>(in, out);
  } else if (block == 128 || n < 64) {
    unknownSize<2><<<1, block>>>(in, out);
  }
  int changed = block;
  switch (changed) {
  case 128:
    changed = 256;
    unknownSize<3><<<1, changed>>>(in, out);
    break;
  }
}

//===--- Indices from a helper's parameters -------------------------------===//

// The helper writes the caller's tile at the caller's index: thread 63
// writes s[64].
__device__ void storeAt(float *tile, int i, float v) { tile[i] = v; }
// CHECK-NOTES: :[[@LINE-1]]:61: warning: shared array 's' is written at index 'i', which reaches 64 for thread 63 of a 64-wide block; its extent is 64 [cuda-shared-memory-bounds]
// CHECK-NOTES: :[[@LINE+16]]:20: note: 's' is declared here
// CHECK-NOTES: :[[@LINE+16]]:14: note: 'storeAt' is called here with 'threadIdx.x + 1' for 'i'
// CHECK-NOTES: :[[@LINE+65]]:3: note: the kernel is launched here with a 64-wide block

// A two-dimensional tile passed whole, read a column to the right, two
// calls deep.
__device__ float cell(const float (*t)[TILE], int r, int c) { return t[r][c]; }
// CHECK-NOTES: :[[@LINE-1]]:75: warning: shared array 'tile' is read at column 'c', which reaches 32 for thread 31 of a 32x32 block; its extent is 32 [cuda-shared-memory-bounds]
// CHECK-NOTES: :[[@LINE+13]]:20: note: 'tile' is declared here
// CHECK-NOTES: :[[@LINE+16]]:41: note: 'right' is called here with 'tx' for 'x'
// CHECK-NOTES: :[[@LINE+58]]:3: note: the kernel is launched here with a 32x32 block
__device__ float right(const float (*t)[TILE], int y, int x) {
  return cell(t, y, x + 1);
}

__global__ void helperIndices(const float *in, float *out) {
  __shared__ float s[64];
  storeAt(s, threadIdx.x + 1, in[threadIdx.x]);
}

__global__ void helperTile(const float *in, float *out) {
  __shared__ float tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[ty * TILE + tx];
  __syncthreads();
  out[ty * TILE + tx] = right(tile, ty, tx);
}

// Clean: the halo tile the same helper writes at tx + 1; a guard in the
// helper on its parameter, against a constant the caller passes; the
// caller's guard; a reference to the array.
__device__ void storeIf(float *tile, int i, int n, float v) {
  if (i < n)
    tile[i] = v;
}
__device__ float readRef(const float (&t)[66], int i) { return t[i]; }

__global__ void helperClean(const float *in, float *out, int width) {
  __shared__ float s[64], h[66];
  storeAt(h, threadIdx.x + 1, in[threadIdx.x]);
  storeIf(s, threadIdx.x + 1, 64, in[threadIdx.x]);
  if (threadIdx.x + 1 < 64)
    storeAt(s, threadIdx.x + 1, 0.0f);
  __syncthreads();
  out[threadIdx.x] = readRef(h, threadIdx.x + 2);
}

// Not read: a guard against a run-time width, a parameter the helper
// changes, a row of the tile or a cast instead of the array, an index
// with a loop counter.
__device__ void bump(float *tile, int i) {
  i += 1;
  tile[i] = 0.0f;
}
__device__ float rowAt(const float *row, int i) { return row[i]; }

__global__ void helperUnread(const float *in, float *out, int width) {
  __shared__ float s[64], t[4][64];
  storeIf(s, threadIdx.x + 1, width, in[threadIdx.x]);
  bump(s, threadIdx.x);
  out[0] = rowAt(t[0], threadIdx.x + 1);
  out[1] = rowAt((const float *)t, threadIdx.x + 1);
  for (int k = 0; k < 4; ++k)
    storeAt(s, threadIdx.x + k, 0.0f);
}

void launchHelperIndices(const float *in, float *out, int width) {
  helperIndices<<<1, 64>>>(in, out);
  helperTile<<<1, dim3(TILE, TILE)>>>(in, out);
  helperClean<<<1, 64>>>(in, out, width);
  helperUnread<<<1, 64>>>(in, out, width);
}

//===--- A guard against a size capped by a constant ----------------------===//

// Five values per box, but stored six apart: 'tx < count' with 'count =
// min(n - start, 64)' lets all 64 threads through once n is large.
#define BOXES 64
__global__ void boxesSixApart(const float *boxes, float *out, int n) {
  const int start = blockIdx.x * BOXES;
  const int count = min(n - start, BOXES);
  __shared__ float box[BOXES * 5];
  if (threadIdx.x < count)
    box[threadIdx.x * 6 + 4] = boxes[(start + threadIdx.x) * 5 + 4];
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: shared array 'box' is written at index 'threadIdx.x * 6 + 4', which reaches 382 for thread 63, let through by 'threadIdx.x < count'; its extent is 320 [cuda-shared-memory-bounds]
    // CHECK-NOTES: :[[@LINE-4]]:20: note: 'box' is declared here
  __syncthreads();
  out[threadIdx.x] = box[threadIdx.x];
}

// Five apart is clean; a cap on a value that does not grow with the
// data ('n % 8'), or a size with no cap, is not read.
__global__ void boxesFiveApart(const float *boxes, float *out, int n,
                               int width) {
  const int start = blockIdx.x * BOXES;
  const int count = min(n - start, BOXES);
  const int few = min(n % 8, BOXES);
  __shared__ float box[BOXES * 5];
  if (threadIdx.x < count)
    box[threadIdx.x * 5 + 4] = boxes[(start + threadIdx.x) * 5 + 4];
  if (threadIdx.x < few)
    box[threadIdx.x * 6] = 0.0f;
  if (threadIdx.x < width)
    box[threadIdx.x * 6] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = box[threadIdx.x];
}

// The same cap written as a conditional, either way round: read as min().
__global__ void boxesSixApartByHand(const float *boxes, float *out, int n) {
  const int start = blockIdx.x * BOXES;
  const int count = n - start < BOXES ? n - start : BOXES;
  const int count2 = BOXES > n - start ? n - start : BOXES;
  __shared__ float box[BOXES * 5];
  if (threadIdx.x < count)
    box[threadIdx.x * 6 + 4] = boxes[(start + threadIdx.x) * 5 + 4];
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: shared array 'box' is written at index 'threadIdx.x * 6 + 4', which reaches 382 for thread 63, let through by 'threadIdx.x < count'; its extent is 320 [cuda-shared-memory-bounds]
    // CHECK-NOTES: :[[@LINE-4]]:20: note: 'box' is declared here
  if (threadIdx.x < count2)
    box[threadIdx.x * 6 + 5] = 0.0f;
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: shared array 'box' is written at index 'threadIdx.x * 6 + 5', which reaches 383 for thread 63, let through by 'threadIdx.x < count2'; its extent is 320 [cuda-shared-memory-bounds]
    // CHECK-NOTES: :[[@LINE-8]]:20: note: 'box' is declared here
  __syncthreads();
  out[threadIdx.x] = box[threadIdx.x];
}

// Negatives: five apart under the conditional cap; a maximum written by
// hand ('n - start > BOXES ? n - start : BOXES') caps nothing, and the arms of a
// conditional that compares other values are no minimum.
__global__ void boxesFiveApartByHand(const float *boxes, float *out, int n,
                                     int flag) {
  const int start = blockIdx.x * BOXES;
  const int count = n - start < BOXES ? n - start : BOXES;
  const int most = n - start > BOXES ? n - start : BOXES;
  const int other = flag < 3 ? n - start : BOXES;
  __shared__ float box[BOXES * 5];
  if (threadIdx.x < count)
    box[threadIdx.x * 5 + 4] = boxes[(start + threadIdx.x) * 5 + 4];
  if (threadIdx.x < most)
    box[threadIdx.x * 6] = 0.0f;
  if (threadIdx.x < other)
    box[threadIdx.x * 6] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = box[threadIdx.x];
}
