// The CUDA implementations, registered under each op's key; the launchers
// are in ops.cu.
#include "registry.h"
#include <c10/cuda/CUDAGuard.h>

void ScaleRowsLauncher(const torch::Tensor x, torch::Tensor out, double a);
void ShiftRowsLauncher(const torch::Tensor x, torch::Tensor out, double b);
void BlendRowsLauncher(const torch::Tensor x, torch::Tensor out, double w);
void ScaleRowsFixedLauncher(const torch::Tensor x, torch::Tensor out,
                            double a);

void scale_rows_cuda(torch::Tensor x, torch::Tensor out, double a) {
  ScaleRowsLauncher(x, out, a);
}

// The guard is set here, before the launcher.
void shift_rows_cuda(torch::Tensor x, torch::Tensor out, double b) {
  at::cuda::CUDAGuard guard(x.device());
  ShiftRowsLauncher(x, out, b);
}

void blend_rows_cuda(torch::Tensor x, torch::Tensor out, double w) {
  BlendRowsLauncher(x, out, w);
}

void scale_rows_fixed_cuda(torch::Tensor x, torch::Tensor out, double a) {
  ScaleRowsFixedLauncher(x, out, a);
}

void scale_rows_impl(torch::Tensor x, torch::Tensor out, double a);
void shift_rows_impl(torch::Tensor x, torch::Tensor out, double b);
void blend_rows_impl(torch::Tensor x, torch::Tensor out, double w);
void scale_rows_fixed_impl(torch::Tensor x, torch::Tensor out, double a);

REGISTER_DEVICE_IMPL(scale_rows_impl, CUDA, scale_rows_cuda);
REGISTER_DEVICE_IMPL(shift_rows_impl, CUDA, shift_rows_cuda);
REGISTER_DEVICE_IMPL(blend_rows_impl, CUDA, blend_rows_cuda);
REGISTER_DEVICE_IMPL(scale_rows_fixed_impl, CUDA, scale_rows_fixed_cuda);
