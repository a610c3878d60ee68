// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-torch-default-stream %t
// Launches and asynchronous copies in an extension belong on PyTorch's
// current stream. Real torch headers, found through Python.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__global__ void fill_kernel(float *out, float v, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = v;
}

void default_launches(torch::Tensor out) {
  int64_t n = out.numel();
  float *p = out.data_ptr<float>();
  fill_kernel<<<(n + 255) / 256, 256>>>(p, 1.0f, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill_kernel' uses the default stream (no stream), not PyTorch's current stream; pass at::cuda::getCurrentCUDAStream() as the fourth launch argument [cuda-torch-default-stream]
  fill_kernel<<<(n + 255) / 256, 256, 0, 0>>>(p, 1.0f, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill_kernel' uses the default stream (stream 0), not PyTorch's current stream; pass at::cuda::getCurrentCUDAStream() as the fourth launch argument [cuda-torch-default-stream]
  fill_kernel<<<(n + 255) / 256, 256, 0, nullptr>>>(p, 1.0f, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill_kernel' uses the default stream (a null stream), not PyTorch's current stream; pass at::cuda::getCurrentCUDAStream() as the fourth launch argument [cuda-torch-default-stream]
  fill_kernel<<<(n + 255) / 256, 256, 0, cudaStreamPerThread>>>(p, 1.0f, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill_kernel' uses the default stream (cudaStreamPerThread), not PyTorch's current stream; pass at::cuda::getCurrentCUDAStream() as the fourth launch argument [cuda-torch-default-stream]
  C10_CUDA_CHECK(cudaMemcpyAsync(p, p + 1, sizeof(float), cudaMemcpyDeviceToDevice));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'cudaMemcpyAsync' uses the default stream (no stream), not PyTorch's current stream; pass at::cuda::getCurrentCUDAStream() [cuda-torch-default-stream]
  C10_CUDA_CHECK(cudaMemsetAsync(p, 0, sizeof(float), 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'cudaMemsetAsync' uses the default stream (stream 0), not PyTorch's current stream; pass at::cuda::getCurrentCUDAStream() [cuda-torch-default-stream]
  AT_DISPATCH_FLOATING_TYPES(out.scalar_type(), "fill", [&] {
    fill_kernel<<<1, 1>>>(p, 2.0f, n);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: launch of kernel 'fill_kernel' uses the default stream (no stream), not PyTorch's current stream; pass at::cuda::getCurrentCUDAStream() as the fourth launch argument [cuda-torch-default-stream]
  });
}

// Idiomatic: the current stream, directly, through a variable, under a guard,
// inside AT_DISPATCH, and for copies.
void current_stream(torch::Tensor out) {
  const at::cuda::OptionalCUDAGuard guard(device_of(out));
  int64_t n = out.numel();
  float *p = out.data_ptr<float>();
  fill_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(p, 1.0f, n);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  fill_kernel<<<(n + 255) / 256, 256, 0, stream>>>(p, 1.0f, n);
  AT_DISPATCH_FLOATING_TYPES(out.scalar_type(), "fill", [&] {
    fill_kernel<<<1, 1, 0, stream>>>(p, 2.0f, n);
  });
  C10_CUDA_CHECK(cudaMemcpyAsync(p, p + 1, sizeof(float), cudaMemcpyDeviceToDevice, stream));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

// A stream the caller chose is not the default stream.
void on_stream(torch::Tensor out, cudaStream_t s) {
  fill_kernel<<<1, 1, 0, s>>>(out.data_ptr<float>(), 0.0f, out.numel());
}
