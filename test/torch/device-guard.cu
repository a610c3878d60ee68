// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-tensor-device %t
// RUN: %check_cuda_tidy_plugin %s cuda-tensor-device %t.plugin -- %torch_plugin_args
// RUN: %with_torch %check_cuda_tidy_driver --check-suffix=OFF %s cuda-tensor-device %t.off -- -config="{CheckOptions: {cuda-tensor-device.DeviceGuard: false}}"
// cuda-tensor-device's missing device guard: a CUDA tensor from Python sits
// on whichever GPU Python put it, and a launch runs on the current device
// unless a guard selects the tensor's (pytorch/pytorch#76586: extension-cpp
// gives zeros on cuda:1). Every tensor here is checked to be a CUDA tensor,
// so only the guard rule speaks. With DeviceGuard off, nothing is reported.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAFunctions.h>
#include <torch/library.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)

__global__ void add_kernel(const float *a, float *out, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[i] + 1.0f;
}

template <typename scalar_t>
__global__ void add_t_kernel(const scalar_t *a, scalar_t *out, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[i] + a[i];
}

// Bug: checked, but launched on whatever device is current.
torch::Tensor add_unguarded(torch::Tensor x) {
  CHECK_INPUT(x);
  auto y = torch::empty_like(x);
  int64_t n = x.numel();
  add_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), n);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: kernel 'add_kernel' is launched on the current device, but CUDA tensor 'x' from Python may sit on another GPU and no device guard selects its device; construct 'at::cuda::OptionalCUDAGuard guard(device_of(x))' first [cuda-tensor-device]
  return y;
}

// Bug: in an AT_DISPATCH case, one finding per launch.
torch::Tensor add_dispatch_unguarded(torch::Tensor x) {
  CHECK_INPUT(x);
  auto y = torch::empty_like(x);
  int64_t n = x.numel();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "add", [&] {
    add_t_kernel<scalar_t><<<(n + 255) / 256, 256, 0,
                             at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
    // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: kernel 'add_t_kernel<{{double|float}}>' is launched on the current device, but CUDA tensor 'x' from Python may sit on another GPU
  });
  return y;
}

// Bug: the guard comes after the launch.
torch::Tensor add_guard_late(torch::Tensor x) {
  CHECK_INPUT(x);
  auto y = torch::empty_like(x);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: kernel 'add_kernel' is launched on the current device, but CUDA tensor 'x' from Python
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  return y;
}

// Bug: a helper launches for a bound function that guards nothing.
void launch_add(const torch::Tensor &a, torch::Tensor &out) {
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      a.data_ptr<float>(), out.data_ptr<float>(), a.numel());
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: kernel 'add_kernel' is launched on the current device, but CUDA tensor 'a' from Python
}
torch::Tensor add_via_helper(torch::Tensor x) {
  CHECK_INPUT(x);
  auto y = torch::empty_like(x);
  launch_add(x, y);
  return y;
}

// Idiomatic: OptionalCUDAGuard from device_of (mmcv, vLLM).
torch::Tensor add_optional_guard(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  auto y = torch::empty_like(x);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  return y;
}

// Idiomatic: CUDAGuard from the tensor's device (pytorch3d), and a
// dispatch after it.
torch::Tensor add_cuda_guard(torch::Tensor x) {
  CHECK_INPUT(x);
  at::cuda::CUDAGuard device_guard(x.device());
  auto y = torch::empty_like(x);
  int64_t n = x.numel();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "add", [&] {
    add_t_kernel<scalar_t><<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
  });
  return y;
}

// Idiomatic: c10's guard, and the generic DeviceGuard.
torch::Tensor add_c10_guard(torch::Tensor x) {
  CHECK_INPUT(x);
  c10::cuda::CUDAGuard guard(x.get_device());
  auto y = torch::empty_like(x);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  return y;
}
torch::Tensor add_device_guard(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::DeviceGuard guard(x.device());
  auto y = torch::empty_like(x);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  return y;
}

// Idiomatic: the device made current by hand.
torch::Tensor add_set_device(torch::Tensor x) {
  CHECK_INPUT(x);
  c10::cuda::set_device(x.get_device());
  auto y = torch::empty_like(x);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  return y;
}
torch::Tensor add_cuda_set_device(torch::Tensor x) {
  CHECK_INPUT(x);
  cudaSetDevice(x.get_device());
  auto y = torch::empty_like(x);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  return y;
}

// Idiomatic: the guard is in the bound function, the launch in a helper.
void launch_add_guarded(const torch::Tensor &a, torch::Tensor &out) {
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      a.data_ptr<float>(), out.data_ptr<float>(), a.numel());
}
torch::Tensor add_guard_in_caller(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  auto y = torch::empty_like(x);
  launch_add_guarded(x, y);
  return y;
}

// Idiomatic: x.cuda() copies to the current device; a tensor made on
// "cuda" (no index) is on it too.
torch::Tensor add_to_current(torch::Tensor x) {
  auto xc = x.cuda();
  auto y = torch::empty({xc.numel()}, torch::device(torch::kCUDA));
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), y.data_ptr<float>(), xc.numel());
  return y;
}

// Not bound here: the caller in another file may guard; silent.
void external_launcher(torch::Tensor x, torch::Tensor y) {
  CHECK_INPUT(x);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("add_unguarded", &add_unguarded);
  m.def("add_dispatch_unguarded", &add_dispatch_unguarded);
  m.def("add_guard_late", &add_guard_late);
  m.def("add_via_helper", &add_via_helper);
  m.def("add_optional_guard", &add_optional_guard);
  m.def("add_cuda_guard", &add_cuda_guard);
  m.def("add_c10_guard", &add_c10_guard);
  m.def("add_device_guard", &add_device_guard);
  m.def("add_set_device", &add_set_device);
  m.def("add_cuda_set_device", &add_cuda_set_device);
  m.def("add_guard_in_caller", &add_guard_in_caller);
  m.def("add_to_current", &add_to_current);
}

// TORCH_LIBRARY_IMPL registers a CUDA kernel of an operator; the
// dispatcher does not guard custom operators either (extension-cpp's
// muladd).
at::Tensor muladd(const at::Tensor &a) {
  TORCH_INTERNAL_ASSERT(a.device().type() == at::DeviceType::CUDA);
  at::Tensor a_contig = a.contiguous();
  at::Tensor result = at::empty(a_contig.sizes(), a_contig.options());
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      a_contig.data_ptr<float>(), result.data_ptr<float>(), a_contig.numel());
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: kernel 'add_kernel' is launched on the current device, but CUDA tensor 'a_contig' from Python
  return result;
}
TORCH_LIBRARY_IMPL(device_guard_test, CUDA, m) { m.impl("muladd", &muladd); }
