// cuda-missing-syncthreads in a loop: a write and a read of a shared
// element with no barrier at all race both ways (the read after the write
// in one pass, the write after the read across the back edge). That is one
// pair of accesses, reported once; a barrier that orders one way only
// leaves the other reported.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

#define N 256

// No barrier in the loop: one finding, at the read that may see another
// thread's write of this pass (not a second one at the write that the
// next pass makes).
__global__ void shiftNoBarrier(float *data, int rounds) {
  __shared__ float s[N + 1];
  int t = threadIdx.x;
  for (int k = 0; k < rounds; ++k) {
    s[t] = data[k * N + t];
    data[k * N + t] = s[t + 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: read of shared 's' at 't + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  }
}

// The barrier orders the read after the write; the next pass's write may
// still overwrite what a slower thread reads: one finding.
__global__ void shiftOneBarrier(float *data, int rounds) {
  __shared__ float s[N + 1];
  int t = threadIdx.x;
  for (int k = 0; k < rounds; ++k) {
    s[t] = data[k * N + t];
    __syncthreads();
    data[k * N + t] = s[t + 1];
  }
  // CHECK-MESSAGES: :[[@LINE-4]]:5: warning: write to shared 's' at 't' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
}

// Both barriers: silent.
__global__ void shiftTwoBarriers(float *data, int rounds) {
  __shared__ float s[N + 1];
  int t = threadIdx.x;
  for (int k = 0; k < rounds; ++k) {
    s[t] = data[k * N + t];
    __syncthreads();
    data[k * N + t] = s[t + 1];
    __syncthreads();
  }
}

// Outside a loop, the write then the read: one finding, at the read.
__global__ void shiftOnce(float *data) {
  __shared__ float s[N + 1];
  int t = threadIdx.x;
  s[t] = data[t];
  data[t] = s[t + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: read of shared 's' at 't + 1' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
}
