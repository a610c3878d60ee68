// cuda-missing-syncthreads: reduction steps under a condition that folds to
// false for the block size of this instantiation do not run, so their
// accesses meet nothing.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs

const int kThreads = 256;

// Unrolled steps for blocks up to 1024 threads, with this file's 256.
__global__ void unrolledMin(const float *in, float *out) {
  __shared__ float vals[kThreads];
  unsigned tid = threadIdx.x;
  vals[tid] = in[blockIdx.x * kThreads + tid];
  __syncthreads();
  if (kThreads >= 1024) { if (tid < 512) { vals[tid] = fminf(vals[tid], vals[tid + 512]); } __syncthreads(); }
  if (kThreads >= 512) { if (tid < 256) { vals[tid] = fminf(vals[tid], vals[tid + 256]); } __syncthreads(); }
  if (kThreads >= 256) { if (tid < 128) { vals[tid] = fminf(vals[tid], vals[tid + 128]); } __syncthreads(); }
  if (kThreads >= 128) { if (tid < 64) { vals[tid] = fminf(vals[tid], vals[tid + 64]); } __syncthreads(); }
  if (tid == 0)
    out[blockIdx.x] = vals[0];
}

template <int Threads>
__global__ void unrolledSum(const float *in, float *out) {
  __shared__ float vals[Threads];
  unsigned tid = threadIdx.x;
  vals[tid] = in[blockIdx.x * Threads + tid];
  __syncthreads();
  if (Threads >= 512) { if (tid < 256) vals[tid] += vals[tid + 256]; __syncthreads(); }
  if (Threads >= 256) { if (tid < 128) vals[tid] += vals[tid + 128]; __syncthreads(); }
  if (Threads >= 128) { if (tid < 64) vals[tid] += vals[tid + 64]; __syncthreads(); }
  if (tid == 0)
    out[blockIdx.x] = vals[0];
}

template __global__ void unrolledSum<128>(const float *, float *);
