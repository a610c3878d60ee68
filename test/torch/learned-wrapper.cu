// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-unchecked-api-call %t
// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-api-call %t.plugin -- %torch_plugin_args
// A PyTorch extension checks its CUDA calls with C10_CUDA_CHECK (c10's
// macro, from torch's own headers): with no ErrorCheckMacro, the fix for an
// unchecked call uses it, learned from the extension's other calls (three:
// C10_CUDA_KERNEL_LAUNCH_CHECK() is C10_CUDA_CHECK(cudaGetLastError())). A
// stored result gets no fix. Real torch headers, found through Python.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>

__global__ void fill_kernel(float *out, float value, int64_t n) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n)
    out[i] = value;
}

torch::Tensor fill_and_read(torch::Tensor out, float value) {
  TORCH_CHECK(out.is_cuda() && out.is_contiguous() &&
              out.scalar_type() == torch::kFloat);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  int64_t n = out.numel();
  C10_CUDA_CHECK(cudaMemsetAsync(out.data_ptr<float>(), 0, n * sizeof(float),
                                 stream));
  fill_kernel<<<(n + 255) / 256, 256, 0, stream>>>(out.data_ptr<float>(),
                                                   value, n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  float first = 0;
  C10_CUDA_CHECK(cudaMemcpyAsync(&first, out.data_ptr<float>(), sizeof(float),
                                 cudaMemcpyDeviceToHost, stream));
  cudaStreamSynchronize(stream);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaStreamSynchronize' is not checked [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: fix-it wraps the call in 'C10_CUDA_CHECK(...)', the error-checking macro learned from 3 CUDA calls of the main file (set ErrorCheckMacro to choose another)
  // CHECK-FIXES: C10_CUDA_CHECK(cudaStreamSynchronize(stream));
  cudaError_t last = cudaGetLastError();
  last = cudaDeviceSynchronize();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the error code returned by 'cudaDeviceSynchronize' is stored in 'last' but never read [cuda-unchecked-api-call]
  TORCH_CHECK(first == value);
  return out;
}
