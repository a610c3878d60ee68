// cuda-missing-syncthreads: the threads' index ranges. A fold step for a
// block that is not a power of two reads and writes ranges that do not
// meet; a fold whose ranges overlap is still a race.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

// Threads 256..319 read buf[tid] and write buf[tid - 256]: the written
// range 0..63 and the read range 256..319 do not meet.
__global__ void foldDisjoint(float *out, const float *in) {
  __shared__ float buf[320];
  int tid = threadIdx.x;
  buf[tid] = in[blockIdx.x * 320 + tid];
  __syncthreads();
  if (tid >= 256)
    buf[tid - 256] += buf[tid];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      buf[tid] += buf[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = buf[0];
}

// The same step bounded by a guard instead of the launch.
__global__ void foldDisjointGuarded(float *out, const float *in) {
  __shared__ float buf[320];
  int tid = threadIdx.x;
  if (tid < 320)
    buf[tid] = in[blockIdx.x * 320 + tid];
  __syncthreads();
  if (tid >= 256 && tid < 320)
    buf[tid - 256] += buf[tid];
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = buf[0];
}

// Threads 128..319 write buf[0..191] while threads 128..191 read their own
// elements there: thread 256 writes buf[128], which thread 128 reads.
__global__ void foldOverlapping(float *out, const float *in) {
  __shared__ float buf[320];
  int tid = threadIdx.x;
  buf[tid] = in[blockIdx.x * 320 + tid];
  __syncthreads();
  if (tid >= 128)
    buf[tid - 128] += buf[tid];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to shared 'buf' at 'tid - 128' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = buf[0];
}

void launch(float *out, const float *in) {
  foldDisjoint<<<8, 320>>>(out, in);
  foldOverlapping<<<8, 320>>>(out, in);
}
