// y = alpha * x for float and double tensors, dispatched on x's dtype.
// Fixed: inside the AT_DISPATCH case the input is taken as scalar_t *, the
// element type of the case.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#define CHECK_INPUT(x)                                                         \
  TORCH_CHECK(x.is_cuda() && x.is_contiguous(),                                \
              #x " must be a contiguous CUDA tensor")

template <typename in_t, typename out_t>
__global__ void scale_kernel(const in_t *x, out_t *y, out_t alpha, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = alpha * static_cast<out_t>(x[i]);
}

torch::Tensor scale(torch::Tensor x, double alpha) {
  CHECK_INPUT(x);
  auto y = torch::empty_like(x);
  int64_t n = x.numel();
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", [&] {
    scale_kernel<<<(n + 255) / 256, 256, 0,
                   at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(),
        static_cast<scalar_t>(alpha), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scale", &scale); }
