// Scales a tensor on the GPU it sits on: y = a * x.
// Bug: no device guard. Python code keeps the first GPU current and hands
// over a tensor on the second; the kernel is launched on the current device
// (and its current stream), which cannot reach the second GPU's memory.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#define CHECK_INPUT(x)                                                         \
  TORCH_CHECK(x.is_cuda() && x.is_contiguous() &&                              \
                  x.scalar_type() == at::kFloat,                               \
              #x " must be a contiguous float32 CUDA tensor")

__global__ void scale_kernel(const float *x, float a, float *y, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}

torch::Tensor scale(torch::Tensor x, double a) {
  CHECK_INPUT(x);
  auto y = torch::empty_like(x);
  int64_t n = x.numel();
  scale_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), static_cast<float>(a), y.data_ptr<float>(), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scale", &scale); }
