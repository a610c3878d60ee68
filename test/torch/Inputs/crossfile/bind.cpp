// The bindings of an extension: the checks of each tensor are here, the
// raw pointers in launch.cu.
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x)                                                    \
  TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x)                                                         \
  CHECK_CUDA(x);                                                               \
  CHECK_CONTIGUOUS(x)

void scale_launcher(torch::Tensor x, torch::Tensor out);
void shift_launcher(torch::Tensor x, torch::Tensor out);
void bias_launcher(torch::Tensor x, torch::Tensor out);
void copy_launcher(torch::Tensor x, torch::Tensor out);
// Defined in launch.cu and bound here directly: Python calls it.
torch::Tensor direct(torch::Tensor x);

torch::Tensor scale(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  auto out = torch::empty_like(x);
  scale_launcher(x, out);
  return out;
}

torch::Tensor shift(torch::Tensor x) {
  CHECK_CUDA(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  auto out = torch::empty_like(x);
  shift_launcher(x, out);
  return out;
}

// One caller checks, the other does not.
torch::Tensor bias(torch::Tensor x) {
  CHECK_INPUT(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  auto out = torch::empty_like(x);
  bias_launcher(x, out);
  return out;
}

torch::Tensor bias_strided(torch::Tensor x) {
  CHECK_CUDA(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  auto out = torch::empty_like(x);
  bias_launcher(x, out);
  return out;
}

// .contiguous() in the caller.
torch::Tensor copy(torch::Tensor x) {
  CHECK_CUDA(x);
  const at::cuda::OptionalCUDAGuard guard(device_of(x));
  auto xc = x.contiguous();
  auto out = torch::empty_like(xc);
  copy_launcher(xc, out);
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale", &scale);
  m.def("shift", &shift);
  m.def("bias", &bias);
  m.def("bias_strided", &bias_strided);
  m.def("copy", &copy);
  m.def("direct", &direct);
}
