// The launchers: raw pointers of the tensors that the registered
// functions of cudabind.cpp pass.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

template <typename scalar_t>
__global__ void axpb_kernel(const scalar_t *x, scalar_t *out, scalar_t a,
                            scalar_t b, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * x[i] + b;
}

void ScaleRowsLauncher(const torch::Tensor x, torch::Tensor out, double a) {
  int64_t n = x.numel();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale_rows", [&] {
    axpb_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(
        x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), scalar_t(a),
        scalar_t(0), n);
  });
}

void ShiftRowsLauncher(const torch::Tensor x, torch::Tensor out, double b) {
  int64_t n = x.numel();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "shift_rows", [&] {
    axpb_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(
        x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), scalar_t(1),
        scalar_t(b), n);
  });
}

void BlendRowsLauncher(const torch::Tensor x, torch::Tensor out, double w) {
  int64_t n = x.numel();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "blend_rows", [&] {
    axpb_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(
        x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), scalar_t(w),
        scalar_t(1 - w), n);
  });
}

// The fix of the mined commits: the launcher sets the device itself.
void ScaleRowsFixedLauncher(const torch::Tensor x, torch::Tensor out,
                            double a) {
  at::cuda::CUDAGuard device_guard(x.device());
  int64_t n = x.numel();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale_rows_fixed", [&] {
    axpb_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(
        x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), scalar_t(a),
        scalar_t(0), n);
  });
}
