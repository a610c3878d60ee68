// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-tensor-contiguity %t
// Tensors whose layout autograd or a strided factory chooses: the gradients
// a C++ autograd function's backward receives, empty_strided/as_strided
// results and *_like copies of them. A raw pointer of one indexed densely
// by a kernel is reported unless something made it contiguous.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

__global__ void scale_grad(const float *g, float *out, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * g[i];
}

struct Doubled : public torch::autograd::Function<Doubled> {
  static torch::Tensor forward(AutogradContext *ctx, torch::Tensor x) {
    return x * 2;
  }

  // The gradient is read densely as autograd gives it (an expanded or
  // transposed gradient is read wrong); grad_in = empty_like(grad) keeps
  // grad's strides, one cause with it, reported once.
  static variable_list backward(AutogradContext *ctx, variable_list grads) {
    torch::Tensor grad = grads[0];
    auto grad_in = torch::empty_like(grad);
    int64_t n = grad.numel();
    scale_grad<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        grad.data_ptr<float>(), grad_in.data_ptr<float>(), n);
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: raw pointer of tensor 'grad' reaches kernel 'scale_grad', but nothing makes 'grad' contiguous: a gradient from autograd may be non-contiguous and is read with the wrong strides; call .contiguous() or check is_contiguous() first [cuda-tensor-contiguity]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the kernel is launched here
    // CHECK-NOTES: :[[@LINE-8]]:69: note: 'grads' holds the gradients autograd passes to backward
    return {grad_in};
  }
};

// Made contiguous, or checked: nothing to report.
struct DoubledContiguous
    : public torch::autograd::Function<DoubledContiguous> {
  static torch::Tensor forward(AutogradContext *ctx, torch::Tensor x) {
    return x * 2;
  }
  static variable_list backward(AutogradContext *ctx, variable_list grads) {
    auto grad = grads[0].contiguous();
    auto grad_in = torch::empty_like(grad);
    int64_t n = grad.numel();
    scale_grad<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        grad.data_ptr<float>(), grad_in.data_ptr<float>(), n);
    return {grad_in};
  }
};

struct DoubledChecked : public torch::autograd::Function<DoubledChecked> {
  static torch::Tensor forward(AutogradContext *ctx, torch::Tensor x) {
    return x * 2;
  }
  static variable_list backward(AutogradContext *ctx, variable_list grads) {
    torch::Tensor grad = grads.at(0);
    TORCH_CHECK(grad.is_contiguous(), "grad must be contiguous");
    auto grad_in = torch::zeros_like(grad, at::MemoryFormat::Contiguous);
    int64_t n = grad.numel();
    scale_grad<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        grad.data_ptr<float>(), grad_in.data_ptr<float>(), n);
    return {grad_in};
  }
};

// A tensor made with given strides, and a dense one.
void strided_output(int64_t rows, int64_t cols) {
  auto opts = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat);
  auto src = torch::empty({rows, cols}, opts);
  auto dst = torch::empty_strided({rows, cols}, {1, rows}, opts);
  int64_t n = rows * cols;
  scale_grad<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      src.data_ptr<float>(), dst.data_ptr<float>(), n);
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: raw pointer of tensor 'dst' reaches kernel 'scale_grad', but nothing makes 'dst' contiguous: a tensor with the strides it was given may be non-contiguous and is read with the wrong strides; call .contiguous() or check is_contiguous() first [cuda-tensor-contiguity]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-NOTES: :[[@LINE-6]]:14: note: 'empty_strided' makes it with the strides it is given
}
