// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-torch-default-stream %t
// RUN: %check_cuda_tidy_plugin %s cuda-torch-default-stream %t.plugin -- %torch_plugin_args
// Launches and asynchronous copies in an extension belong on PyTorch's
// current stream. Real torch headers, found through Python.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cublas_v2.h>
#include <cufft.h>

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

// Library calls run on the stream set on their handle: a handle the
// extension creates works on the default stream until one is set.
void own_blas_handle(torch::Tensor a, torch::Tensor b, torch::Tensor c, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cublasSgemm_v2' uses the default stream, not PyTorch's current stream: no cublasSetStream_v2 gives cuBLAS handle 'handle' a stream; use at::cuda::getCurrentCUDABlasHandle() (its stream is the current one), or call cublasSetStream_v2(handle, at::cuda::getCurrentCUDAStream()) first [cuda-torch-default-stream]
              a.data_ptr<float>(), n, b.data_ptr<float>(), n, &zero,
              c.data_ptr<float>(), n);
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
              a.data_ptr<float>(), n, b.data_ptr<float>(), n, &zero,
              c.data_ptr<float>(), n);
  cublasDestroy(handle);
}

// Bug: the stream set is the default one.
void fft_default_stream(torch::Tensor x, int n) {
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  cufftSetStream(plan, 0);
  auto *data = reinterpret_cast<cufftComplex *>(x.data_ptr());
  cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cufftExecC2C' uses the default stream, not PyTorch's current stream: no cufftSetStream gives cuFFT handle 'plan' a stream; call cufftSetStream(plan, at::cuda::getCurrentCUDAStream()) first [cuda-torch-default-stream]
  cufftDestroy(plan);
}

// Idiomatic: PyTorch's handle, whose stream is the current one.
void torch_blas_handle(torch::Tensor a, torch::Tensor c, int n) {
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
              a.data_ptr<float>(), n, a.data_ptr<float>(), n, &zero,
              c.data_ptr<float>(), n);
}

// Idiomatic: the extension's handle set to the current stream.
void own_handle_on_stream(torch::Tensor x, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, at::cuda::getCurrentCUDAStream());
  cublasSscal(handle, n, nullptr, x.data_ptr<float>(), 1);
  cublasDestroy(handle);
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  cufftSetStream(plan, stream);
  auto *data = reinterpret_cast<cufftComplex *>(x.data_ptr());
  cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  cufftDestroy(plan);
}

// A helper of the project may set the stream: silent.
void configure(cublasHandle_t h);
void own_handle_configured_elsewhere(torch::Tensor x, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  configure(handle);
  cublasSscal(handle, n, nullptr, x.data_ptr<float>(), 1);
}

// A handle from the caller: its stream is the caller's business.
void handle_from_caller(cublasHandle_t handle, torch::Tensor x, int n) {
  cublasSscal(handle, n, nullptr, x.data_ptr<float>(), 1);
}
