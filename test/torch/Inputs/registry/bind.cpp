// Bindings: every op is defined in dispatch.cpp.
#include <torch/extension.h>

void scale_rows(torch::Tensor x, torch::Tensor out, double a);
void shift_rows(torch::Tensor x, torch::Tensor out, double b);
void blend_rows(torch::Tensor x, torch::Tensor out, double w);
void scale_rows_fixed(torch::Tensor x, torch::Tensor out, double a);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale_rows", &scale_rows);
  m.def("shift_rows", &shift_rows);
  m.def("blend_rows", &blend_rows);
  m.def("scale_rows_fixed", &scale_rows_fixed);
}
