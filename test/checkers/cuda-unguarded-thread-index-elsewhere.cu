// cuda-unguarded-thread-index on kernels launched from another file: with
// no launch in sight, a finding needs the kernel's own word that threads
// can outnumber elements (a guard on the same index elsewhere in it, or,
// in one dimension, an extent it was given and never used). Indices held in variables that also hold
// other values are path-dependent, and unknown.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t

//===--- The kernel says threads can outnumber elements ---------------------===//

// It guards one access, so it expects spare threads; the other has no guard.
__global__ void guardsOneOfTwo(float *sum, const float *a, float *flags,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    sum[i] += a[i];
  flags[i] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'flags' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

// The extent is passed and never compared or used as a stride.
__global__ void forgetsItsExtent(float *y, const float *x, int numElements) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = 2.0f * x[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'y' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-2]]:17: warning: read of 'x' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

// Generated (polyhedral) code: a guard on '32 * b + t', and accesses at
// multiples of it plus loop counters. '11872 * b + 371 * t' is 371 times
// the guarded sum.
__global__ void generatedTiles(float *at, float *y) {
  int b = blockIdx.x;
  int t = threadIdx.x;
  if (32 * b + t <= 369) {
    y[32 * b + t] = at[11872 * b + 371 * t];
    for (int c = 0; c <= 31; c += 1)
      y[32 * b + t] += at[32 * b + t + 370 * c];
  }
}

//===--- Nothing in the kernel says so: its launches elsewhere decide --------===//

// Every size is a stride: the grid is presumably exact.
__global__ void exactRowsElsewhere(float *m, const float *bias, int cols) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  m[row * cols + col] += bias[col];
}

// One block per row of a constant width.
#define ROW_WIDTH 256
__global__ void constantWidthRows(float *m, float v) {
  m[blockIdx.x * ROW_WIDTH + threadIdx.x] = v;
}

// No size at all: one thread per element of a buffer sized by the grid.
__global__ void oneThreadPerSlot(unsigned *slots) {
  slots[blockIdx.x * blockDim.x + threadIdx.x] = 0u;
}

// The extent is used, if not as a bound: whether the grid is exact is
// for the launch to say.
__global__ void extentInUnrelatedTest(int *out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (count > 0)
    out[i] = 1;
}

// An unused extent in two dimensions: often one the launch covers exactly.
__global__ void unusedHeight(float *img, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  img[y * width + x] = 0.0f;
}

// Rows are guarded, columns not: the guard is on another index, and the
// grid may cover the columns exactly.
__global__ void rowsGuardedOnly(float *img, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < height)
    img[y * width + x] = 0.0f;
}

// A grid-stride loop over a copy of the index; the tail write uses the
// index itself, which nothing compares.
__global__ void strideCopyThenTail(float *a, float *last, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = i; k < n; k += blockDim.x * gridDim.x)
    a[k] = 0.0f;
  last[i] = a[0];
}

// Each thread swaps with its mirror, or copies its own element when it is
// its own mirror; 'i < mate' picks one thread of each pair, it says
// nothing about threads past the data (the grid is the data's size).
__device__ unsigned mirrorOf(unsigned i, unsigned bits) {
  return __brev(i) >> (32 - bits);
}
__global__ void swapWithMirror(int *out, const int *in, unsigned bits) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned mate = mirrorOf(i, bits);
  bool self = i == mate;
  if (i < mate || self) {
    int mine = in[i];
    if (!self)
      out[i] = in[mate];
    out[mate] = mine;
  }
}

// The same pairing, and a guard against the extent on another access:
// the kernel expects spare threads, and the first copy has no guard.
__global__ void swapWithMirrorGuarded(int *out, const int *in, int *seen,
                                      unsigned bits, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned mate = mirrorOf(i, bits);
  seen[i] = in[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'seen' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: warning: read of 'in' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  if (i < n && i < mate)
    out[mate] = seen[i];
}

// 'threadIdx.x < 32' selects a warp, it does not bound a global index.
__global__ void warpSelectIsNoGuard(float *partial, const float *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 32)
    partial[blockIdx.x] = v[i];
}

//===--- Path-dependent variables ------------------------------------------===//

// One variable serves two indices: a scaled thread index, then a counter
// from zero. Which value reaches an access depends on the path.
__global__ void reusedWordIndex(const unsigned *words, unsigned *digest,
                                int numKeys) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= numKeys)
    return;
  int w;
  w = tid * 16;
  unsigned acc = words[w + 3] ^ words[w + 15];
  w = 0;
  for (int r = 0; r < 4; ++r, w += 2)
    acc += digest[w + 1];
  digest[tid] = acc;
}

// An index replaced by a slot from an atomic counter on some paths.
__global__ void slotFromCounter(int *rows, int *next, int offset, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n)
    return;
  int slot = 2 * idx + 1;
  if (rows[idx] < 0)
    slot = atomicAdd(next, 1);
  rows[slot] = offset;
}

// One variable, two layouts, each assigned just before its accesses: the
// value that reaches each access is known, and within the guarded range.
__global__ void gatesThenStorage(const float *in, float *store, int hsz,
                                 int total) {
  int li = blockIdx.x * blockDim.x + threadIdx.x;
  if (li < total) {
    int offset = (li / hsz) * 3 * hsz + li % hsz;
    float r = in[offset + 0 * hsz] + in[offset + 2 * hsz];
    offset = (li / hsz) * 5 * hsz + li % hsz;
    store[offset + 4 * hsz] = r;
  }
}

// Reassigned to a scaled index after the guard: a real overrun, but a
// scaled index is outside the forms the default mode is sure of (StrictMode
// reports it).
__global__ void doubledAfterGuard(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    i = i * 2;
    a[i] = 1.0f;
  }
}
