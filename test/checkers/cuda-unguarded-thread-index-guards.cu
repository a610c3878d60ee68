// The guard cuda-unguarded-thread-index suggests is C++ that means what it
// says when pasted: parts printed from the AST, in parentheses where the
// operators around them would bind differently, minus signs kept, and
// indices written in macros named by what the macro spells.
// StrictMode, so that every form is reported whatever the analysis's
// confidence in it: this file is about the guard's text.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unguarded-thread-index.StrictMode: true}}"
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unguarded-thread-index.StrictMode: true}}"

#define GLOBAL_ID (blockIdx.x * blockDim.x + threadIdx.x)
#define WITH_BITS(i, m) (i) | (m)
#define WRITE_AT_ID(p, v) p[blockIdx.x * blockDim.x + threadIdx.x] = (v)

// A bitwise part of a sum keeps its parentheses.
__global__ void parity(float *a, int n, int base, int row) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  a[base + 2 * row + ((col + 1) & 1) + col] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'base + 2 * row + ((col + 1) & 1) + col' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:23: note: guard the access, for example with 'if (base + 2 * row + ((col + 1) & 1) + col >= n) return;'
}

// The whole index is a bitwise expression: parenthesized before '>='.
__global__ void masked(float *a, int n, int mask) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i | mask] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i | mask' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if ((i | mask) >= n) return;'
}

// Rows are guarded; the column is a sum the analysis rebuilds from its
// terms: a subtracted product keeps its sign, a masked coordinate its
// parentheses.
__global__ void tiles(float *a, int w, int h) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < h) {
    a[r * w + blockIdx.x * blockDim.x - threadIdx.x * 2] = 0.0f;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'r * w + blockIdx.x * blockDim.x - threadIdx.x * 2' has no upper bound on 'blockIdx.x * blockDim.x - threadIdx.x * 2' on this path [cuda-unguarded-thread-index]
    // CHECK-NOTES: :[[@LINE-2]]:15: note: guard the access, for example with 'if (blockIdx.x * blockDim.x - threadIdx.x * 2 >= w) return;'
    a[r * w - threadIdx.x + blockIdx.x * blockDim.x] = 1.0f;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'r * w - threadIdx.x + blockIdx.x * blockDim.x' has no upper bound on '-threadIdx.x + blockIdx.x * blockDim.x' on this path [cuda-unguarded-thread-index]
    // CHECK-NOTES: :[[@LINE-2]]:15: note: guard the access, for example with 'if (-threadIdx.x + blockIdx.x * blockDim.x >= w) return;'
    a[r * w + blockIdx.x * blockDim.x + (threadIdx.x & 7)] = 2.0f;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'r * w + blockIdx.x * blockDim.x + (threadIdx.x & 7)' has no upper bound on 'blockIdx.x * blockDim.x + (threadIdx.x & 7)' on this path [cuda-unguarded-thread-index]
    // CHECK-NOTES: :[[@LINE-2]]:15: note: guard the access, for example with 'if (blockIdx.x * blockDim.x + (threadIdx.x & 7) >= w) return;'
  }
}
void drawTiles(float *a, int w, int h) {
  tiles<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(a, w, h);
}

// An index that is a whole macro use: the macro's spelling.
__global__ void byMacro(float *a, int n) {
  a[GLOBAL_ID] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'GLOBAL_ID' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if (blockIdx.x * blockDim.x + threadIdx.x >= n) return;'
}

// A macro whose expansion binds more loosely than '>=': its use is
// parenthesized.
__global__ void byLooseMacro(float *a, int n, int bits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[WITH_BITS(i, bits)] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'WITH_BITS(i, bits)' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if ((WITH_BITS(i, bits)) >= n) return;'
}

// An index written inside a macro's body: the body's spelling, not a
// placeholder word.
__global__ void inMacroBody(float *a, int n) {
  WRITE_AT_ID(a, 2.0f);
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: write to 'a' at thread-derived index 'blockIdx.x * blockDim.x + threadIdx.x' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: guard the access, for example with 'if (blockIdx.x * blockDim.x + threadIdx.x >= n) return;'
}
