// The launchers: each takes raw pointers of tensors that bind.cpp checks
// (or does not).
#include <ATen/cuda/CUDAContext.h>
#include <torch/extension.h>

__global__ void add_kernel(const float *x, float *out, float v, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] + v;
}

static void launch(torch::Tensor x, torch::Tensor out, float v) {
  int64_t n = x.numel();
  add_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), out.data_ptr<float>(), v, n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void scale_launcher(torch::Tensor x, torch::Tensor out) {
  int64_t n = x.numel();
  add_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), out.data_ptr<float>(), 2.f, n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void shift_launcher(torch::Tensor x, torch::Tensor out) {
  int64_t n = x.numel();
  add_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), out.data_ptr<float>(), 1.f, n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void bias_launcher(torch::Tensor x, torch::Tensor out) {
  int64_t n = x.numel();
  add_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), out.data_ptr<float>(), 0.5f, n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void copy_launcher(torch::Tensor x, torch::Tensor out) { launch(x, out, 0.f); }

torch::Tensor direct(torch::Tensor x) {
  auto out = torch::empty_like(x);
  launch(x, out, 3.f);
  return out;
}
