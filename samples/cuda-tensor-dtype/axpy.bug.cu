// y = a * x + y on tensors of any floating dtype.
// Bug: the untyped pointers are cast to float*, but nothing checks the dtype;
// float64 tensors from Python are read as pairs of floats.
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
  axpy_kernel<float><<<(n + 255) / 256, 256, 0,
                       at::cuda::getCurrentCUDAStream()>>>(
      static_cast<float>(a), (const float *)x.data_ptr(), (float *)y.data_ptr(),
      n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("axpy", &axpy); }
