// cuda-unguarded-thread-index: the last entry of an n + 1 table (the total
// of an exclusive scan, the end of CSR row pointers), written by thread n
// in a branch that tests the index against the bound, is on purpose; a
// guard that lets thread n through without naming n is an off-by-one.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t

// ---- Negative: thread n writes the sentinel on purpose ----

// gsplat's compacted tile offsets: n + 1 threads, the last one writes the
// total.
__global__ void tileOffsets(int nItems, const int *starts, int n,
                            int *offsets) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n)
    return;
  if (i == n) {
    offsets[i] = nItems;
    return;
  }
  offsets[i] = starts[i];
}

// The test written the other way round, and '>=' for '=='.
__global__ void rowPointers(const int *counts, int rows, int *rowPtr,
                            int total) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r <= rows) {
    if (rows == r)
      rowPtr[r] = total;
    else
      rowPtr[r] = counts[r];
  }
}

__global__ void scanEnd(int *excl, const int *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n)
    return;
  if (i >= n)
    excl[i] = sums[n - 1];
}

void launchSentinels(int nItems, const int *starts, int n, int *offsets,
                     const int *counts, int *rowPtr) {
  tileOffsets<<<(n + 1 + 255) / 256, 256>>>(nItems, starts, n, offsets);
  rowPointers<<<(n + 1 + 255) / 256, 256>>>(counts, n, rowPtr, nItems);
  scanEnd<<<(n + 1 + 255) / 256, 256>>>(offsets, counts, n);
}

// ---- Positive: the guard lets thread n through, and nothing names n ----

__global__ void offByOne(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n)
    return;
  out[i] = in[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'i' can reach the bound in 'i > n' [cuda-unguarded-thread-index]
}

// A test below the bound ('i >= n - 1') lets two threads in: n - 1 and n.
__global__ void lastTwo(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n)
    return;
  if (i >= n - 1)
    out[i] = in[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'out' at thread-derived index 'i' can reach the bound in 'i > n' [cuda-unguarded-thread-index]
}

void launchOffByOne(const int *in, int n, int *out) {
  offByOne<<<(n + 1 + 255) / 256, 256>>>(in, n, out);
  lastTwo<<<(n + 1 + 255) / 256, 256>>>(in, n, out);
}
