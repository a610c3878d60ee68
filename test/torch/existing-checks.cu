// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-unchecked-kernel-launch,cuda-unguarded-thread-index,cuda-launch-configuration %t
// The existing checks in an extension: torch's launch check macro counts as
// an examination of the launch error, numel() sizes the grid and the guard.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void add_one(float *x, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

__global__ void add_one_unguarded(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] += 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to 'x' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: guard the access with the extent of 'x', for example 'if (i >= n) return;' where n is its number of elements
  // CHECK-NOTES: :[[@LINE+34]]:3: note: this launch rounds the grid up: the last block runs past 'n'
}

void checked(torch::Tensor t) {
  int64_t n = t.numel();
  add_one<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      t.data_ptr<float>(), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void checked_with_macro(torch::Tensor t) {
  int64_t n = t.numel();
  add_one<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      t.data_ptr<float>(), n);
  AT_CUDA_CHECK(cudaGetLastError());
}

// Bound to Python below: nothing after it examines the launch error.
void unchecked(torch::Tensor t) {
  int64_t n = t.numel();
  add_one<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      t.data_ptr<float>(), n);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: launch of kernel 'add_one' is not checked for errors on every path; add C10_CUDA_KERNEL_LAUNCH_CHECK() after it [cuda-unchecked-kernel-launch]
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: the launch error is not examined on the path that leaves here

// Not bound here: a caller in another file may examine the error.
void unbound_launcher(torch::Tensor t) {
  add_one<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(t.data_ptr<float>(),
                                                          t.numel());
}

void unguarded(torch::Tensor t) {
  int64_t n = t.numel();
  add_one_unguarded<<<(n + 255) / 256, 256, 0,
                      at::cuda::getCurrentCUDAStream()>>>(t.data_ptr<float>());

  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void too_many_threads(torch::Tensor t) {
  add_one<<<1, 2048, 0, at::cuda::getCurrentCUDAStream()>>>(t.data_ptr<float>(),
                                                           t.numel());
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: launch of 'add_one' asks for 2048 threads per block, more than the 1024 the device allows [cuda-launch-configuration]
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("checked", &checked);
  m.def("checked_with_macro", &checked_with_macro);
  m.def("unchecked", &unchecked);
  m.def("unguarded", &unguarded);
  m.def("too_many_threads", &too_many_threads);
}
