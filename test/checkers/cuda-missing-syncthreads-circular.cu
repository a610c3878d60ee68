// cuda-missing-syncthreads on circular neighbours: an index
// '(tid + c) % M' wraps at M, and thread 0 reads the element of thread
// c mod M, so it races with that thread's store as 'tid + c' would. The
// negatives are the same kernels with their barriers, remainders that name
// a lane or a ring buffer, and a wrap that stays on the thread's own slot.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

#define N 256

//===--- Flagged -----------------------------------------------------------===//

// Each thread takes its right neighbour's value, the last wraps to 0.
__global__ void rotateLeft(const float *in, float *out) {
  __shared__ float s[N];
  s[threadIdx.x] = in[blockIdx.x * N + threadIdx.x];
  out[blockIdx.x * N + threadIdx.x] = s[(threadIdx.x + 1) % N];
  // CHECK-NOTES: :[[@LINE-1]]:39: warning: read of shared 's' at '(threadIdx.x + 1) % N' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 'threadIdx.x'
}

// The left neighbour through the block size: '(t + blockDim.x - 1) %
// blockDim.x'.
__global__ void leftNeighbour(const float *in, float *out) {
  extern __shared__ float ring[];
  int t = threadIdx.x;
  ring[t] = in[blockIdx.x * blockDim.x + t];
  float left = ring[(t + blockDim.x - 1) % blockDim.x];
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: read of shared 'ring' at '(t + blockDim.x - 1) % blockDim.x' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here at 't'
  out[blockIdx.x * blockDim.x + t] = left;
}

// The read is fenced off from the first store, but the tile is refilled
// in place while a neighbour may still be reading it.
__global__ void shiftInPlace(float *data, int rounds) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = data[blockIdx.x * N + t];
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    float v = s[(t + 3) % N];
    s[t] = v;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 's' at 't' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE-3]]:15: note: read here at '(t + 3) % N'
    __syncthreads();
  }
  data[blockIdx.x * N + t] = s[t];
}

//===--- Not flagged -------------------------------------------------------===//

// The fixed rotation: a barrier between the store and the wrapped read.
__global__ void rotateLeftFixed(const float *in, float *out) {
  __shared__ float s[N];
  s[threadIdx.x] = in[blockIdx.x * N + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * N + threadIdx.x] = s[(threadIdx.x + 1) % N];
}

// The in-place shift done right: read, barrier, write, barrier.
__global__ void shiftInPlaceFixed(float *data, int rounds) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = data[blockIdx.x * N + t];
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    float v = s[(t + 3) % N];
    __syncthreads();
    s[t] = v;
    __syncthreads();
  }
  data[blockIdx.x * N + t] = s[t];
}

// A whole turn: '(t + N) % N' is the thread's own slot.
__global__ void ownSlotWrapped(const float *in, float *out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[t];
  out[t] = s[(t + N) % N];
}

// A ring of two tiles picked by the loop counter: the remainder is
// uniform, and each round's barrier orders the reads.
__global__ void doubleBuffer(const float *in, float *out, int tiles) {
  __shared__ float buf[2][N];
  int t = threadIdx.x;
  float acc = 0.0f;
  buf[0][t] = in[t];
  __syncthreads();
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      buf[(k + 1) % 2][t] = in[(k + 1) * N + t];
    acc += buf[k % 2][(t + 1) % N];
    __syncthreads();
  }
  out[t] = acc;
}

// A lane's own slot in a warp-sized buffer, ordered by __syncwarp().
__global__ void laneSlots(const float *in, float *out) {
  __shared__ float lanes[8][32];
  int t = threadIdx.x;
  lanes[t / 32][t % 32] = in[t];
  __syncwarp();
  out[t] = lanes[t / 32][(t + 1) % 32];
}
