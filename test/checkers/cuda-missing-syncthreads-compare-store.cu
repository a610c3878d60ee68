// cuda-missing-syncthreads on a compare-and-store that many threads make
// on one shared element ('if (v > s[0]) s[0] = v'): the test and the store
// of one thread may fall between another thread's, and a larger value is
// lost. In a 2-D tile, the threads of a row share 's[ty][0]'.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs

#define TILE 16

//===--- Flagged -----------------------------------------------------------===//

__global__ void rowMaxTile(const float *in, float *out, int w) {
  __shared__ float best[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  best[ty][tx] = -1e30f;
  __syncthreads();
  float v = in[ty * w + tx];
  if (v > best[ty][0])
    best[ty][0] = v;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads store different values into shared 'best' at '[ty][0]' with no barrier between the stores: which one a later read sees is unspecified [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+3]]:15: note: the element is read here
  __syncthreads();
  if (tx == 0)
    out[ty] = best[ty][0];
}

__global__ void blockMax(const float *in, float *out) {
  __shared__ float best[1];
  if (threadIdx.x == 0)
    best[0] = -1e30f;
  __syncthreads();
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > best[0])
    best[0] = v;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads store different values into shared 'best' at '0' with no barrier between the stores: which one a later read sees is unspecified [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+3]]:23: note: the element is read here
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = best[0];
}

// The tile has one column per row and is never indexed by tx; the threads
// of a row differ in tx, which the kernel reads for its input.
__global__ void rowMaxColumn(const float *in, float *out, int w) {
  __shared__ float best[TILE][1];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx == 0)
    best[ty][0] = -1e30f;
  __syncthreads();
  float v = in[ty * w + tx];
  if (v > best[ty][0])
    best[ty][0] = v;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads store different values into shared 'best' at '[ty][0]' with no barrier between the stores: which one a later read sees is unspecified [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+3]]:15: note: the element is read here
  __syncthreads();
  if (tx == 0)
    out[ty] = best[ty][0];
}

// A flat array of one slot per row, indexed by ty.
__global__ void rowMaxFlat(const float *in, float *out, int w) {
  __shared__ float best[TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx == 0)
    best[ty] = -1e30f;
  __syncthreads();
  float v = in[ty * w + tx];
  if (v > best[ty])
    best[ty] = v;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads store different values into shared 'best' at 'ty' with no barrier between the stores: which one a later read sees is unspecified [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+3]]:15: note: the element is read here
  __syncthreads();
  if (tx == 0)
    out[ty] = best[ty];
}

//===--- Not flagged -------------------------------------------------------===//

// One slot per row, a thread per row: the kernel never reads tx.
__global__ void rowMaxOneThreadPerRow(const float *in, float *out, int w) {
  __shared__ float best[TILE];
  int ty = threadIdx.y;
  best[ty] = -1e30f;
  for (int k = 0; k < w; ++k) {
    float v = in[ty * w + k];
    if (v > best[ty])
      best[ty] = v;
  }
  __syncthreads();
  out[ty] = best[ty];
}

// The flat slot per row, compared by the row's leader only.
__global__ void rowMaxFlatLeader(const float *in, float *out, int w) {
  __shared__ float best[TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx == 0) {
    best[ty] = -1e30f;
    for (int k = 0; k < w; ++k)
      if (in[ty * w + k] > best[ty])
        best[ty] = in[ty * w + k];
  }
  __syncthreads();
  out[ty * w + tx] = best[ty];
}

// The atomic form.
__global__ void rowMaxAtomic(const int *in, int *out, int w) {
  __shared__ int best[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  best[ty][tx] = -1000000;
  __syncthreads();
  atomicMax(&best[ty][0], in[ty * w + tx]);
  __syncthreads();
  if (tx == 0)
    out[ty] = best[ty][0];
}

// Each thread its own element.
__global__ void ownElementMax(const float *in, float *out, int w) {
  __shared__ float best[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  best[ty][tx] = -1e30f;
  float v = in[ty * w + tx];
  if (v > best[ty][tx])
    best[ty][tx] = v;
  __syncthreads();
  out[ty * w + tx] = best[ty][tx];
}

// One thread per row compares, serially.
__global__ void leaderRowMax(const float *in, float *out, int w) {
  __shared__ float best[TILE][TILE];
  __shared__ float vals[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  vals[ty][tx] = in[ty * w + tx];
  best[ty][tx] = -1e30f;
  __syncthreads();
  if (tx == 0)
    for (int k = 0; k < TILE; ++k)
      if (vals[ty][k] > best[ty][0])
        best[ty][0] = vals[ty][k];
  __syncthreads();
  out[ty * w + tx] = best[ty][0];
}

// One thread at a time, a barrier after each turn.
__global__ void turnsMax(const float *in, float *out) {
  __shared__ float best;
  if (threadIdx.x == 0)
    best = -1e30f;
  __syncthreads();
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int t = 0; t < blockDim.x; ++t) {
    if (threadIdx.x == t && v > best)
      best = v;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = best;
}
