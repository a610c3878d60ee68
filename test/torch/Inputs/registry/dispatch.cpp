// Each op's device dispatch: the registry picks the implementation that
// cudabind.cpp registered for the tensors' device type.
#include "registry.h"
#include <c10/cuda/CUDAGuard.h>

#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " not contiguous")

void scale_rows_impl(torch::Tensor x, torch::Tensor out, double a) {
  DISPATCH_DEVICE_IMPL(scale_rows_impl, x, out, a);
}

// Contiguous, no device guard on the way to the launcher.
void scale_rows(torch::Tensor x, torch::Tensor out, double a) {
  CHECK_CONTIGUOUS(x);
  CHECK_CONTIGUOUS(out);
  scale_rows_impl(x, out, a);
}

void shift_rows_impl(torch::Tensor x, torch::Tensor out, double b) {
  DISPATCH_DEVICE_IMPL(shift_rows_impl, x, out, b);
}

// Nothing makes x contiguous (not followed through the registry);
// cudabind.cpp guards the device.
void shift_rows(torch::Tensor x, torch::Tensor out, double b) {
  CHECK_CONTIGUOUS(out);
  shift_rows_impl(x, out, b);
}

void blend_rows_impl(torch::Tensor x, torch::Tensor out, double w) {
  DISPATCH_DEVICE_IMPL(blend_rows_impl, x, out, w);
}

// The guard is set here, before the dispatch.
void blend_rows(torch::Tensor x, torch::Tensor out, double w) {
  CHECK_CONTIGUOUS(x);
  CHECK_CONTIGUOUS(out);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  blend_rows_impl(x, out, w);
}

void scale_rows_fixed_impl(torch::Tensor x, torch::Tensor out, double a) {
  DISPATCH_DEVICE_IMPL(scale_rows_fixed_impl, x, out, a);
}

// As scale_rows; the launcher guards (ops.cu).
void scale_rows_fixed(torch::Tensor x, torch::Tensor out, double a) {
  CHECK_CONTIGUOUS(x);
  CHECK_CONTIGUOUS(out);
  scale_rows_fixed_impl(x, out, a);
}
