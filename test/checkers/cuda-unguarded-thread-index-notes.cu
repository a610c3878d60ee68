// The notes of cuda-unguarded-thread-index: a guard to add, naming a
// plausible extent parameter; where the bound that is too weak was set;
// where a helper indexes the memory.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs

__global__ void saxpy(float *y, const float *x, float a, int numElements) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = a * x[i] + y[i];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'y' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access, for example with 'if (i >= numElements) return;'
  // CHECK-NOTES: :[[@LINE-3]]:14: warning: read of 'x' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-4]]:16: note: guard the access, for example with 'if (i >= numElements) return;'
  // CHECK-NOTES: :[[@LINE-5]]:21: warning: read of 'y' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-6]]:23: note: guard the access, for example with 'if (i >= numElements) return;'
}

__global__ void rows(float *m, int cols, int rows) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols)
    m[r * cols + c] = 0.0f;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to 'm' at thread-derived index 'r * cols + c' has no upper bound on 'r' on this path [cuda-unguarded-thread-index]
    // CHECK-NOTES: :[[@LINE-2]]:7: note: guard the access, for example with 'if (r >= rows) return;'
    // CHECK-NOTES: :[[@LINE+4]]:3: note: this launch rounds the grid up in y: the last block runs past 'rows'
}

void clearRows(float *m, int cols, int rows) {
  ::rows<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(m, cols, rows);
}

__global__ void noExtent(float *out, float v) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'blockIdx.x * blockDim.x + threadIdx.x' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:7: note: guard the access with the extent of 'out', for example 'if (blockIdx.x * blockDim.x + threadIdx.x >= n) return;' where n is its number of elements
  // CHECK-NOTES: :[[@LINE+4]]:3: note: this launch rounds the grid up: the last block runs past 'count'
}

void fill(float *out, float v, int count) {
  noExtent<<<(count + 127) / 128, 128>>>(out, v);
}

__device__ int table[64];

__global__ void readTable(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = table[i];
  out[0] = table[i];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read of 'table' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:18: note: guard the access, for example with 'if (i >= 64) return;'
}

__global__ void inclusive(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    a[i] = 0.0f;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to 'a' at thread-derived index 'i' can reach the bound in 'i <= n' [cuda-unguarded-thread-index]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: bound set here
}

__device__ void put(float *p, int k, float v) { p[k] = v; }

__global__ void viaHelper(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  put(a, i, 1.0f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'put' writes 'a' at thread-derived index 'i', which has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-6]]:49: note: 'put' indexes its parameter 'p' here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: guard the access, for example with 'if (i >= n) return;'
}
