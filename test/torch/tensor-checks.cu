// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-tensor-contiguity,cuda-tensor-device,cuda-tensor-dtype %t
// The three tensor-boundary checks on one extension, against PyTorch's real
// headers (found through Python, as for a user). Positives: tensors from
// Python (m.def below) reach kernels unchecked; negatives: CHECK_INPUT,
// .contiguous(), device guards, AT_DISPATCH_FLOATING_TYPES, accessors, and a
// launcher whose callers are in another file.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)

__global__ void scale_kernel(const float *in, float *out, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}

template <typename scalar_t>
__global__ void scale_t_kernel(const scalar_t *in, scalar_t *out, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + in[i];
}

// Bug: no checks at all.
torch::Tensor scale_unchecked(torch::Tensor x) {
  auto y = torch::empty_like(x);
  int64_t n = x.numel();
  scale_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), n);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: raw pointer of tensor 'x' reaches kernel 'scale_kernel', but nothing makes 'x' contiguous: a transposed or sliced tensor from Python is read with the wrong strides; call .contiguous() or check is_contiguous() first [cuda-tensor-contiguity]
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: pointer of tensor 'x' reaches kernel 'scale_kernel', but nothing checks that 'x' is a CUDA tensor: a CPU tensor from Python gives the kernel a host address; check is_cuda() first [cuda-tensor-device]
  return y;
}

// Idiomatic: CHECK_INPUT on the input.
torch::Tensor scale_checked(torch::Tensor x) {
  CHECK_INPUT(x);
  auto y = torch::empty_like(x);
  int64_t n = x.numel();
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: kernel 'scale_kernel' is launched on the current device, but CUDA tensor 'x' from Python may sit on another GPU and no device guard selects its device; construct 'at::cuda::OptionalCUDAGuard guard(device_of(x))' first [cuda-tensor-device]
  scale_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}

// Idiomatic: contiguous() and a device guard.
torch::Tensor scale_contiguous(const torch::Tensor &input) {
  const at::cuda::OptionalCUDAGuard guard(device_of(input));
  auto x = input.contiguous();
  auto y = torch::empty_like(x);
  int64_t n = x.numel();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", [&] {
    scale_t_kernel<scalar_t><<<(n + 255) / 256, 256, 0,
                               at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
  });
  return y;
}

// Bug: a CPU tensor made without options.
torch::Tensor scale_cpu_out(torch::Tensor x) {
  CHECK_INPUT(x);
  auto y = torch::zeros({x.numel()});
  int64_t n = x.numel();
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: kernel 'scale_kernel' is launched on the current device, but CUDA tensor 'x' from Python may sit on another GPU and no device guard selects its device; construct 'at::cuda::OptionalCUDAGuard guard(device_of(x))' first [cuda-tensor-device]
  scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(),
                                         y.data_ptr<float>(), n);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: tensor 'y' is on the CPU (its options name no device), but its pointer reaches kernel 'scale_kernel' [cuda-tensor-device]
  return y;
}

// Bug: untyped pointer; and a typed pointer of the wrong type in a dispatch.
torch::Tensor scale_untyped(torch::Tensor x) {
  CHECK_INPUT(x);
  auto y = torch::empty({x.numel()}, x.options());
  int64_t n = x.numel();
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: kernel 'scale_kernel' is launched on the current device, but CUDA tensor 'x' from Python may sit on another GPU and no device guard selects its device; construct 'at::cuda::OptionalCUDAGuard guard(device_of(x))' first [cuda-tensor-device]
  scale_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      (const float *)x.data_ptr(), (float *)y.data_ptr(), n);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: untyped pointer of tensor 'x' is cast to 'const float *', but nothing checks its dtype: a tensor of another dtype from Python is silently misread; use the typed data_ptr<T>(), which checks, or check or dispatch on scalar_type() [cuda-tensor-dtype]
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", [&] {
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: kernel 'scale_t_kernel<{{double|float}}>' is launched on the current device, but CUDA tensor 'x' from Python may sit on another GPU and no device guard selects its device; construct 'at::cuda::OptionalCUDAGuard guard(device_of(x))' first [cuda-tensor-device]
    scale_t_kernel<scalar_t><<<1, 1, 0, at::cuda::getCurrentCUDAStream()>>>(
        (const scalar_t *)x.data_ptr(), reinterpret_cast<scalar_t *>(y.data_ptr()), n);
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: kernel 'scale_kernel' is launched on the current device, but CUDA tensor 'x' from Python may sit on another GPU and no device guard selects its device; construct 'at::cuda::OptionalCUDAGuard guard(device_of(x))' first [cuda-tensor-device]
    scale_kernel<<<1, 1, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), (float *)y.data_ptr(), n);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: tensor 'x' is read as 'float' in the AT_DISPATCH case for 'double'; that case fails at run time (use scalar_t) [cuda-tensor-dtype]
  });
  return y;
}

// Helper reached from a bound function: the facts follow the call.
void launch_scale(const torch::Tensor &x, torch::Tensor &y) {
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: raw pointer of tensor 'x' reaches kernel 'scale_kernel', but nothing makes 'x' contiguous: a transposed or sliced tensor from Python is read with the wrong strides; call .contiguous() or check is_contiguous() first [cuda-tensor-contiguity]
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: pointer of tensor 'x' reaches kernel 'scale_kernel', but nothing checks that 'x' is a CUDA tensor: a CPU tensor from Python gives the kernel a host address; check is_cuda() first [cuda-tensor-device]
}

torch::Tensor scale_via_helper(torch::Tensor x) {
  auto y = torch::empty_like(x);
  launch_scale(x, y);
  return y;
}

torch::Tensor scale_via_helper_checked(torch::Tensor x) {
  CHECK_INPUT(x);
  auto y = torch::empty_like(x);
  launch_scale(x.contiguous(), y);
  return y;
}

// Accessors carry strides: no contiguity needed.
__global__ void acc_kernel(torch::PackedTensorAccessor32<float, 2> a) {}
torch::Tensor use_accessor(torch::Tensor x) {
  CHECK_CUDA(x);
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: kernel 'acc_kernel' is launched on the current device, but CUDA tensor 'x' from Python may sit on another GPU and no device guard selects its device; construct 'at::cuda::OptionalCUDAGuard guard(device_of(x))' first [cuda-tensor-device]
  acc_kernel<<<1, 1, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.packed_accessor32<float, 2>());
  return x;
}

// Not bound here: its callers live in another file.
void external_launcher(torch::Tensor x) {
  scale_kernel<<<1, 1, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), x.data_ptr<float>(), x.numel());
}

// Idiomatic (pytorch3d): ATen's TensorArg checks, then a guard.
torch::Tensor add_checked_args(const at::Tensor &a, const at::Tensor &b) {
  at::TensorArg a_t{a, "a", 1}, b_t{b, "b", 2};
  at::CheckedFrom c = "add_checked_args";
  at::checkAllSameGPU(c, {a_t, b_t});
  at::checkAllContiguous(c, {a_t, b_t});
  at::checkScalarType(c, a_t, at::kFloat);
  at::checkScalarType(c, b_t, at::kFloat);
  at::cuda::CUDAGuard device_guard(a.device());
  auto y = torch::empty_like(a);
  int64_t n = a.numel();
  scale_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      b.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}

// Bug: the TensorArg checks name only 'a'; 'b' reaches the kernel unchecked.
torch::Tensor add_half_checked(const at::Tensor &a, const at::Tensor &b) {
  at::TensorArg a_t{a, "a", 1};
  at::checkAllSameGPU("add_half_checked", {a_t});
  at::checkContiguous("add_half_checked", a_t);
  at::cuda::CUDAGuard device_guard(a.device());
  auto y = torch::empty_like(a);
  int64_t n = a.numel();
  scale_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      b.data_ptr<float>(), y.data_ptr<float>(), n);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: raw pointer of tensor 'b' reaches kernel 'scale_kernel', but nothing makes 'b' contiguous: a transposed or sliced tensor from Python is read with the wrong strides; call .contiguous() or check is_contiguous() first [cuda-tensor-contiguity]
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: pointer of tensor 'b' reaches kernel 'scale_kernel', but nothing checks that 'b' is a CUDA tensor: a CPU tensor from Python gives the kernel a host address; check is_cuda() first [cuda-tensor-device]
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale_unchecked", &scale_unchecked);
  m.def("scale_checked", &scale_checked);
  m.def("scale_contiguous", &scale_contiguous);
  m.def("scale_cpu_out", &scale_cpu_out);
  m.def("scale_untyped", &scale_untyped);
  m.def("scale_via_helper", &scale_via_helper);
  m.def("scale_via_helper_checked", &scale_via_helper_checked);
  m.def("use_accessor", &use_accessor);
  m.def("add_checked_args", &add_checked_args);
  m.def("add_half_checked", &add_half_checked);
}

// Idiomatic (pytorch/extension-cpp): dtype and device asserted, inputs made
// contiguous, the output made from their options, bound with TORCH_LIBRARY.
at::Tensor muladd(const at::Tensor &a, const at::Tensor &b) {
  TORCH_CHECK(a.sizes() == b.sizes());
  TORCH_CHECK(a.dtype() == at::kFloat);
  TORCH_INTERNAL_ASSERT(a.device().type() == at::DeviceType::CUDA);
  at::Tensor a_contig = a.contiguous();
  at::Tensor result = at::empty(a_contig.sizes(), a_contig.options());
  const float *a_ptr = a_contig.data_ptr<float>();
  float *result_ptr = result.data_ptr<float>();
  int64_t numel = a_contig.numel();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: kernel 'scale_kernel' is launched on the current device, but CUDA tensor 'a_contig' from Python may sit on another GPU and no device guard selects its device; construct 'at::cuda::OptionalCUDAGuard guard(device_of(a_contig))' first [cuda-tensor-device]
  scale_kernel<<<(numel + 255) / 256, 256, 0, stream>>>(a_ptr, result_ptr,
                                                       numel);
  return result;
}

TORCH_LIBRARY_IMPL(tensor_checks, CUDA, m) { m.impl("muladd", &muladd); }
