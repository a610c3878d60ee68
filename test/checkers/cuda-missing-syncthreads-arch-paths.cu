// A kernel whose body holds '#if __CUDA_ARCH__' branches is analysed on the
// paths the analysed (device, sm_90) compilation sees: the branch for older
// architectures is another pass's code.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

#define N 256

// The sm_70+ path reads the neighbour's element with no barrier.
__global__ void neighbour_sum(const float *in, float *out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
#if __CUDA_ARCH__ >= 700
  float right = t + 1 < N ? s[t + 1] : 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: {{.*}}[cuda-missing-syncthreads]
#else
  __syncthreads();
  float right = t + 1 < N ? s[t + 1] : 0.0f;
#endif
  out[blockIdx.x * N + t] = s[t] + right;
}

// The sm_70+ path waits; the older path, which this pass does not run,
// does not.
__global__ void neighbour_sum_fixed(const float *in, float *out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
#if __CUDA_ARCH__ >= 700
  __syncthreads();
  float right = t + 1 < N ? s[t + 1] : 0.0f;
#else
  float right = t + 1 < N ? s[t + 1] : 0.0f;
#endif
  out[blockIdx.x * N + t] = s[t] + right;
}

// Host-only code in a kernel's body ('#ifndef __CUDA_ARCH__') never runs
// on the device.
__global__ void with_host_branch(const float *in, float *out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
#ifndef __CUDA_ARCH__
  s[0] = 0.0f;
#endif
  __syncthreads();
  out[blockIdx.x * N + t] = s[(t + 1) % N];
}
