// Scales each row of a matrix by its own factor: y[i][j] = x[i][j] * s[i].
// Fixed: x is made contiguous before its pointer is taken, as the kernel
// indexes it densely (row * cols + col).
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_FLOAT(x) TORCH_CHECK(x.scalar_type() == at::kFloat, #x " must be float32")

__global__ void row_scale_kernel(const float *x, const float *s, float *y,
                                 int64_t rows, int64_t cols) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < rows * cols)
    y[i] = x[i] * s[i / cols];
}

torch::Tensor row_scale(torch::Tensor input, torch::Tensor s) {
  auto x = input.contiguous();
  CHECK_CUDA(x);
  CHECK_CUDA(s);
  CHECK_FLOAT(x);
  TORCH_CHECK(s.is_contiguous() && s.numel() == x.size(0), "bad factors");
  auto y = torch::empty({x.size(0), x.size(1)}, x.options());
  int64_t n = x.numel();
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
  row_scale_kernel<<<(n + 255) / 256, 256, 0,
                     at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), s.data_ptr<float>(), y.data_ptr<float>(), x.size(0),
      x.size(1));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("row_scale", &row_scale); }
