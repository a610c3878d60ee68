// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-unchecked-kernel-launch,cuda-torch-default-stream,cuda-tensor-device,cuda-tensor-contiguity %t
// Launches inside AT_DISPATCH_* cases, [&] lambdas and function-like macros
// are launches of the function that writes them, for every check that reads
// launches: the unchecked launch is reported where the kernel is launched
// (with a note where the lambda is called) and, in a torch file, suggests
// C10_CUDA_KERNEL_LAUNCH_CHECK(); a launch with no stream is on the default
// stream; a guard or a check before the dispatch covers the lambda.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

template <typename scalar_t>
__global__ void scale(scalar_t *x, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2;
}

#define LAUNCH_SCALE(T, p, n)                                                  \
  scale<T><<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(p, n)
#define LAUNCH_NO_STREAM(kernel, grid, block, ...)                             \
  kernel<<<grid, block>>>(__VA_ARGS__)

#define CHECK_INPUT(x)                                                         \
  TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor");                       \
  TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")

void in_dispatch(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  int64_t n = x.numel();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", [&] {
    scale<scalar_t><<<(n + 255) / 256, 256, 0,
                      at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), n);
    // CHECK-NOTES: :[[@LINE-3]]:5: warning: launch of kernel 'scale' is not checked for errors on every path; add C10_CUDA_KERNEL_LAUNCH_CHECK() after it [cuda-unchecked-kernel-launch]
  });
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the lambda that launches it is called here
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: the launch error is not examined on the path that leaves here

void in_lambda(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  int64_t n = x.numel();
  auto run = [&] {
    scale<float><<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), n);
    // CHECK-NOTES: :[[@LINE-2]]:5: warning: launch of kernel 'scale' is not checked for errors on every path; add C10_CUDA_KERNEL_LAUNCH_CHECK() after it [cuda-unchecked-kernel-launch]
  };
  run();
  // CHECK-NOTES: :[[@LINE-1]]:{{[0-9]+}}: note: the lambda that launches it is called here
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: the launch error is not examined on the path that leaves here

void in_macro(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  int64_t n = x.numel();
  LAUNCH_SCALE(float, x.data_ptr<float>(), n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of kernel 'scale' is not checked for errors on every path; add C10_CUDA_KERNEL_LAUNCH_CHECK() after it [cuda-unchecked-kernel-launch]
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: the launch error is not examined on the path that leaves here

// Checked inside the case, or after the dispatch: nothing to report.
void in_dispatch_checked(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  int64_t n = x.numel();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", [&] {
    scale<scalar_t><<<(n + 255) / 256, 256, 0,
                      at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

void in_dispatch_checked_after(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  int64_t n = x.numel();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "scale", [&] {
    scale<scalar_t><<<(n + 255) / 256, 256, 0,
                      at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

// No stream: in a case, in a helper macro, and beside the extension's own
// stream variable that is never passed.
void dispatch_no_stream(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  int64_t n = x.numel();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", [&] {
    scale<scalar_t><<<(n + 255) / 256, 256>>>(x.data_ptr<scalar_t>(), n);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: launch of kernel 'scale<double>' uses the default stream (no stream), not PyTorch's current stream; pass at::cuda::getCurrentCUDAStream() as the fourth launch argument [cuda-torch-default-stream]
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

void macro_no_stream(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  int64_t n = x.numel();
  LAUNCH_NO_STREAM(scale<float>, (n + 255) / 256, 256, x.data_ptr<float>(), n);
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: launch of kernel 'scale<float>' uses the default stream (no stream), not PyTorch's current stream; pass at::cuda::getCurrentCUDAStream() as the fourth launch argument [cuda-torch-default-stream]
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void stream_not_passed(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  int64_t n = x.numel();
  scale<float><<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of kernel 'scale<float>' uses the default stream (no stream), not PyTorch's current stream; pass at::cuda::getCurrentCUDAStream() as the fourth launch argument [cuda-torch-default-stream]
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  (void)stream;
}

// Tensor facts reach into the case: x, never made contiguous, is reported at
// its pointer in the lambda, like a launch in the function itself.
void dispatch_unchecked_tensor(torch::Tensor x) {
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  int64_t n = x.numel();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", [&] {
    scale<scalar_t><<<(n + 255) / 256, 256, 0,
                      at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), n);
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: raw pointer of tensor 'x' reaches kernel 'scale<double>', but nothing makes 'x' contiguous: a transposed or sliced tensor from Python is read with the wrong strides; call .contiguous() or check is_contiguous() first [cuda-tensor-contiguity]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: the kernel is launched here
    // CHECK-NOTES: :[[@LINE+14]]:3: note: 'x' comes from Python through this binding
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("in_dispatch", &in_dispatch);
  m.def("in_lambda", &in_lambda);
  m.def("in_macro", &in_macro);
  m.def("in_dispatch_checked", &in_dispatch_checked);
  m.def("in_dispatch_checked_after", &in_dispatch_checked_after);
  m.def("dispatch_no_stream", &dispatch_no_stream);
  m.def("macro_no_stream", &macro_no_stream);
  m.def("stream_not_passed", &stream_not_passed);
  m.def("dispatch_unchecked_tensor", &dispatch_unchecked_tensor);
}
