// cuda-unguarded-thread-index reads how each kernel is launched in the
// translation unit: launches that cannot run a thread past the data keep an
// unguarded index quiet; a grid rounded up past its extent is reported, with
// a note at that launch.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs

#include <cassert>
#include <cmath>
#include <cstdlib>

#define LANES 512
#define TPB 128

// --- Launches that stay within the data: no finding. ---

// A floor-divided grid: (n / B) * B threads never exceed n, whether or not
// B divides n (the remainder is left to someone else).
__global__ void halve(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] *= 0.5f;
}

// Sizes from macros, used in the launch and in the kernel.
__global__ void lanes(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = t % LANES;
}

// A launch shape filled in field by field; the row pitch comes from the
// grid itself.
__global__ void stamp(unsigned *img) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned pitch = gridDim.x * blockDim.x;
  img[y * pitch + x] = x ^ y;
}

// Four elements per thread, the size asserted to be a multiple of four
// blocks' worth.
__global__ void copyWide(uint4 *dst, const uint4 *src) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  dst[q] = src[q];
}

// One step of a power-of-two sorting network: the partner index i ^ j stays
// below the (power-of-two) element count the grid was sized from.
__global__ void compareSwap(float *keys, unsigned j, unsigned k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned partner = i ^ j;
  if (partner > i) {
    bool up = (i & k) == 0;
    float a = keys[i], b = keys[partner];
    if ((a > b) == up) {
      keys[i] = b;
      keys[partner] = a;
    }
  }
}

// A launcher whose grid and block are its parameters.
__global__ void accumulate(double *acc, const double *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  acc[i] += x[i];
}

static void runAccumulate(double *acc, const double *x, int n, int blocks,
                          int threads) {
  accumulate<<<blocks, threads>>>(acc, x, n);
}

// A rounded-up grid, but the size is checked to be a multiple first.
__global__ void square(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = v[i] * v[i];
}

// The same, the multiple checked through a helper that returns its test.
__global__ void cube(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = v[i] * v[i] * v[i];
}

static bool divides(int b, int n) { return n % b == 0; }

static void cubeAll(float *f, int n) {
  if (!divides(256, n))
    return;
  cube<<<(n + 255) / 256, 256>>>(f, n);
}

// Through the runtime's launch function, a floor-divided dim3 grid.
__global__ void clear(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = 0;
}

// A single block of exactly n threads.
__global__ void single(float *p, int n) {
  p[threadIdx.x + blockIdx.x * blockDim.x] = 1.0f;
}

void stayWithin(float *f, int *ip, unsigned *u, uint4 *w, const uint4 *r,
                double *d, const double *e, int n) {
  halve<<<n / 256, 256>>>(f, n);

  lanes<<<LANES / TPB, TPB>>>(ip);

  dim3 grid, block;
  grid.x = 12;
  grid.y = 8;
  block.x = 64;
  block.y = 4;
  stamp<<<grid, block>>>(u);

  const int wide = 4 * TPB;
  assert(n % wide == 0);
  copyWide<<<n / wide, TPB>>>(w, r);

  const unsigned elems = 1u << 16;
  for (unsigned k = 2; k <= elems; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1)
      compareSwap<<<elems / 256, 256>>>(f, j, k);

  runAccumulate(d, e, n, n / 128, 128);

  if (n % 256 != 0)
    return;
  square<<<(n + 255) / 256, 256>>>(f, n);

  dim3 threads(TPB);
  dim3 blocks(n / threads.x);
  void *args[] = {&ip, &n};
  cudaLaunchKernel((const void *)clear, blocks, threads, args, 0, 0);

  single<<<1, n>>>(f, n);
}

// --- Launches that run past the data: reported, with the launch. ---

__global__ void roundedUp(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'v' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if (i >= n) return;'
  // CHECK-NOTES: :[[@LINE+22]]:3: note: this launch rounds the grid up: the last block runs past 'n'
}

static int divUp(int a, int b) { return (a + b - 1) / b; }

__global__ void viaDivUp(int *p, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = i;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'p' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if (i >= count) return;'
  // CHECK-NOTES: :[[@LINE+13]]:3: note: this launch rounds the grid up: the last block runs past 'n'
}

__global__ void viaCeil(float *p, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'p' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if (i >= len) return;'
  // CHECK-NOTES: :[[@LINE+6]]:3: note: this launch rounds the grid up: the last block runs past 'n'
}

void runPast(float *f, int *ip, int n) {
  roundedUp<<<(n + 255) / 256, 256>>>(f, n);
  viaDivUp<<<divUp(n, 128), 128>>>(ip, n);
  viaCeil<<<(int)ceil((float)n / 256), 256>>>(f, n);
}

// One launch stays within, another rounds up: the finding names the second.
__global__ void mixed(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'v' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if (i >= n) return;'
  // CHECK-NOTES: :[[@LINE+5]]:3: note: this launch rounds the grid up: the last block runs past 'n'
}

void runMixed(float *f, int n) {
  mixed<<<n / 64, 64>>>(f, n);
  mixed<<<(n - 1) / 64 + 1, 64>>>(f, n - 1);
}

// A launcher that rounds up: the note is at the call that gave the size.
__global__ void fillRows(float *m, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  m[r] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'm' at thread-derived index 'r' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if (r >= rows) return;'
  // CHECK-NOTES: :[[@LINE+9]]:3: note: this launch rounds the grid up: the last block runs past 'rows'
}

static void launchFill(float *m, int rows, dim3 grid, dim3 block) {
  fillRows<<<grid, block>>>(m, rows);
}

void runFill(float *m, int rows) {
  launchFill(m, rows, dim3(rows / 32), dim3(32));
  launchFill(m, rows, dim3((rows + 31) / 32), dim3(32));
}

// Rounded up in y only; the column is bounded by its launch.
__global__ void columns(float *m, int width, int height) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  m[r * width + c] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'm' at thread-derived index 'r * width + c' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if (r >= height) return;'
  // CHECK-NOTES: :[[@LINE+6]]:3: note: this launch rounds the grid up in y: the last block runs past 'height'
}

void runColumns(float *m, int width, int height) {
  dim3 block(16, 16);
  dim3 grid(width / 16, (height + 15) / 16);
  columns<<<grid, block>>>(m, width, height);
}

// Within, but 'i + 1' still reaches the extent.
__global__ void forward(float *d, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  d[i] = x[i + 1] - x[i];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: read of 'x' at thread-derived index 'i + 1' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: guard the access, for example with 'if (i + 1 >= n) return;'
}

void runForward(float *d, const float *x, int n) {
  forward<<<n / 256, 256>>>(d, x, n);
}

// --- Kernels whose launches are not all visible keep today's behaviour. ---

// Its address is kept: it may be launched with any grid.
__global__ void escapes(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = 3.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'v' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if (i >= n) return;'
}

void (*keep)(float *, int) = escapes;

void runEscapes(float *v, int n) { escapes<<<n / 32, 32>>>(v, n); }

// Kernels chosen into a function pointer and launched through it: each
// launch through the pointer is a launch of every kernel stored in it.
__global__ void plainCopy(float *dst, const float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = src[i];
}

__global__ void scaledCopy(float *dst, const float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = 2.0f * src[i];
}

void runChosen(float *dst, const float *src, int n, int which) {
  void (*kernel)(float *, const float *, int);
  if (which == 0)
    kernel = &plainCopy;
  else
    kernel = scaledCopy;
  if (kernel == &plainCopy)
    n -= n % 64;
  kernel<<<n / 64, 64>>>(dst, src, n);
}

// A pointer that is handed on may be launched anywhere.
__global__ void handedOn(float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'dst' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:7: note: guard the access, for example with 'if (i >= n) return;'
}

void store(void (*k)(float *, int));

void runHandedOn(float *dst, int n) {
  void (*kernel)(float *, int) = handedOn;
  store(kernel);
  kernel<<<n / 64, 64>>>(dst, n);
}

// Two values per thread, and lanes of a tile: a constant offset on a scaled
// or composite index stays within what the launch was sized for.
__global__ void pairs(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[2 * t] + in[2 * t + 1];
}

__global__ void lanesOfTile(const double *in, double *out) {
  int base = 1024 * blockIdx.x + 4 * (threadIdx.x % 32) + 128 * (threadIdx.x / 32);
  out[base + 3] = in[base + 1] + in[base + 2];
}

void runScaled(const float *in, float *out, const double *din, double *dout) {
  pairs<<<LANES / TPB, TPB>>>(in, out);
  lanesOfTile<<<64, 256>>>(din, dout);
}

// A guard written with '&' between comparisons is a guard. (Defined here
// with no launch: the guard alone keeps it quiet.)
__global__ void bitwiseGuard(float *out, const float *in, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i >= 1) & (j >= 1) & (i <= nx - 2) & (j <= ny - 2))
    out[j * nx + i] = in[j * nx + i + 1] + in[(j - 1) * nx + i];
}

// An index function over coordinates that are each guarded: the rounded-up
// launch is harmless. An unguarded coordinate is still reported.
__host__ __device__ inline int at3(int x, int y, int z, int nx, int ny) {
  return x + y * nx + z * nx * ny;
}

__global__ void stencil3(float *out, const float *in, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= 1 && x < nx - 1 && y < ny && z < nz)
    out[at3(x, y, z, nx, ny)] = in[at3(x + 1, y, z, nx, ny)] - in[at3(x - 1, y, z, nx, ny)];
  out[at3(x, 0, 0, nx, ny)] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'at3(x, 0, 0, nx, ny)' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:7: note: guard the access, for example with 'if (at3(x, 0, 0, nx, ny) >= nx) return;'
  // CHECK-NOTES: :[[@LINE+6]]:3: note: this launch rounds the grid up: the last block runs past 'nx'
}

void runStencil(float *out, const float *in, int nx, int ny, int nz) {
  dim3 block(8, 8, 4);
  dim3 grid((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4);
  stencil3<<<grid, block>>>(out, in, nx, ny, nz);
}

// Rows of a constant width: the column is guarded against the width, and
// the row is one block per row of a grid of exactly that many rows.
constexpr int kWidth = 1000;

__global__ void rowsOfConstantWidth(float *m, const float *v) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y;
  if (col >= kWidth)
    return;
  int at = row * kWidth + col;
  m[at] = v[at] * 2.0f;
}

void runRows(float *m, const float *v, int rows) {
  dim3 grid((kWidth + 127) / 128, rows);
  rowsOfConstantWidth<<<grid, 128>>>(m, v);
}

// A strict guard against 'n + 1' names an extent of n + 1: the index may
// reach n. ('i <= n' is still reported, see cuda-unguarded-thread-index.cu.)
__global__ void loadTable(float *dst, const float *table, int n) {
  for (int i = threadIdx.x; i < n + 1; i += blockDim.x)
    dst[i] = table[i];
}
