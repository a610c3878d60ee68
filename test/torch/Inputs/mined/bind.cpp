// Bindings of a small extension shaped like two real fixes: the tensors are
// checked here, the raw pointers are taken in ops.cu, and one op goes
// through a dispatch file (dispatch.cpp) on its way there.
#include <torch/extension.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")

void fill_mul_cuda(torch::Tensor src, torch::Tensor out);
void fill_mul_set_device_cuda(torch::Tensor src, torch::Tensor out);
// Defined in dispatch.cpp, bound here.
torch::Tensor pick_rows(torch::Tensor boxes, torch::Tensor sorted_boxes);
torch::Tensor pick_rows_contig(torch::Tensor boxes,
                               torch::Tensor sorted_boxes);

// Checked to be CUDA and contiguous, but no device guard: the launcher
// runs on the current device (the fix of the mined commit set the device
// in the launcher).
torch::Tensor fill_mul(torch::Tensor src) {
  CHECK_CUDA(src);
  auto s = src.contiguous();
  auto out = torch::empty_like(s);
  fill_mul_cuda(s, out);
  return out;
}

torch::Tensor fill_mul_set_device(torch::Tensor src) {
  CHECK_CUDA(src);
  auto s = src.contiguous();
  auto out = torch::empty_like(s);
  fill_mul_set_device_cuda(s, out);
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("fill_mul", &fill_mul);
  m.def("fill_mul_set_device", &fill_mul_set_device);
  m.def("pick_rows", &pick_rows);
  m.def("pick_rows_contig", &pick_rows_contig);
}
