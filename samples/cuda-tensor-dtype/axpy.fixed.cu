// y = a * x + y on tensors of any floating dtype.
// Fixed: AT_DISPATCH_FLOATING_TYPES picks the element type from x's dtype, and
// y is checked to have the same dtype.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#define CHECK_INPUT(x)                                                         \
  TORCH_CHECK(x.is_cuda() && x.is_contiguous(),                                \
              #x " must be a contiguous CUDA tensor")

template <typename T>
__global__ void axpy_kernel(T a, const T *x, T *y, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

void axpy(double a, torch::Tensor x, torch::Tensor y) {
  CHECK_INPUT(x);
  CHECK_INPUT(y);
  TORCH_CHECK(x.numel() == y.numel(), "sizes differ");
  TORCH_CHECK(x.scalar_type() == y.scalar_type(), "dtypes differ");
  int64_t n = x.numel();
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "axpy", [&] {
    axpy_kernel<scalar_t><<<(n + 255) / 256, 256, 0,
                            at::cuda::getCurrentCUDAStream()>>>(
        static_cast<scalar_t>(a), (const scalar_t *)x.data_ptr(),
        (scalar_t *)y.data_ptr(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("axpy", &axpy); }
