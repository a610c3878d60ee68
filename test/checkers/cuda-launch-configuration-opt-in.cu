// cuda-launch-configuration: which cudaFuncSetAttribute calls count as the
// opt-in to more than 48 KiB of dynamic shared memory, kernels other
// translation units may see, and cudaLaunchKernelEx.
// RUN: %check_cuda_tidy_plugin %s cuda-launch-configuration %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-launch-configuration %t -- --extra-arg=-I%S/../Inputs

#include "launch_kernels.cuh"

__global__ void shared_in_header(float *v) {
  extern __shared__ float s[];
  s[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = s[threadIdx.x];
}

__global__ void carved(float *v) {
  extern __shared__ float s[];
  s[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = s[threadIdx.x];
}

__global__ void chosen(float *v) {
  extern __shared__ float s[];
  s[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = s[threadIdx.x];
}

__global__ void byVariable(float *v) {
  extern __shared__ float s[];
  s[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = s[threadIdx.x];
}

__global__ void plain(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = 0.0f;
}

void launches(float *v, int n) {
  // Another translation unit may opt this kernel in: silent. Its block is a
  // fact of this launch: reported.
  shared_in_header<<<1, 256, 64 * 1024>>>(v);
  shared_in_header<<<1, 2048>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'shared_in_header' asks for 2048 threads per block, more than the 1024 the device allows [cuda-launch-configuration]

  // Another attribute raises nothing.
  cudaFuncSetAttribute(carved, cudaFuncAttributePreferredSharedMemoryCarveout,
                       100);
  carved<<<1, 256, 64 * 1024>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'carved' asks for 65536 bytes of dynamic shared memory, more than the 49152 a kernel may use before cudaFuncSetAttribute raises its cudaFuncAttributeMaxDynamicSharedMemorySize [cuda-launch-configuration]

  // A kernel chosen through a function pointer, an attribute held in a
  // variable: either may be the opt-in.
  void (*k)(float *) = &chosen;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       64 * 1024);
  chosen<<<1, 256, 64 * 1024>>>(v);
  cudaFuncAttribute attr = cudaFuncAttributeMaxDynamicSharedMemorySize;
  cudaFuncSetAttribute(byVariable, attr, 64 * 1024);
  byVariable<<<1, 256, 64 * 1024>>>(v);

  // cudaLaunchKernelEx reads its shape from the configuration struct.
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 2047) / 2048);
  config.blockDim = dim3(2048);
  cudaLaunchKernelEx(&config, plain, v, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'plain' asks for 2048 threads per block, more than the 1024 the device allows [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-3]]:26: note: the value 2048 comes from here
  cudaLaunchConfig_t fine = {};
  fine.gridDim = dim3((n + 255) / 256);
  fine.blockDim = dim3(256);
  cudaLaunchKernelEx(&fine, plain, v, n);
}
