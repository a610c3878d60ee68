// y = x + 1, launched through the extension's own launch macro, called from
// Python code that queues its work on its own stream.
// Fixed: the macro launches on PyTorch's current stream, ordered with the
// work that fills x.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#define CHECK_INPUT(x)                                                         \
  TORCH_CHECK(x.is_cuda() && x.is_contiguous() &&                              \
                  x.scalar_type() == at::kFloat,                               \
              #x " must be a contiguous float32 CUDA tensor")

#define LAUNCH_1D(kernel, n, ...)                                              \
  kernel<<<((n) + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(   \
      __VA_ARGS__)

__global__ void shift_kernel(const float *x, float *y, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] + 1.0f;
}

torch::Tensor shift(torch::Tensor x) {
  CHECK_INPUT(x);
  auto y = torch::empty_like(x);
  int64_t n = x.numel();
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  LAUNCH_1D(shift_kernel, n, x.data_ptr<float>(), y.data_ptr<float>(), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("shift", &shift); }
