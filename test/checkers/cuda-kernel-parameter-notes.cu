// cuda-kernel-parameter: the notes name the member or base that makes a type
// unsuitable, the special member or virtual function behind it, and the
// launch that binds a reference to host memory.
// RUN: %check_cuda_tidy_plugin %s cuda-kernel-parameter %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-kernel-parameter %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"

struct DeviceBuffer {
  float *data = nullptr;
  ~DeviceBuffer() { cudaFree(data); }
};
struct Holder {
  int id;
  DeviceBuffer buf;
};
__global__ void fill_held(Holder h) { h.buf.data[0] = h.id; }
// CHECK-NOTES: :[[@LINE-1]]:34: warning: kernel parameter 'h' of type 'Holder' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]
// CHECK-NOTES: :[[@LINE-4]]:16: note: because of member 'buf' of type 'DeviceBuffer'
// CHECK-NOTES: :[[@LINE-9]]:3: note: 'DeviceBuffer' has a user-provided destructor, which runs on the host on the launch's copy while the kernel may still run

struct Shape {
  virtual __host__ __device__ float area() const { return 0; }
};
struct Square : Shape {
  float side;
};
__global__ void square_areas(Square s, float *out) { out[0] = s.side; }
// CHECK-NOTES: :[[@LINE-1]]:37: warning: kernel parameter 's' of type 'Square' holds a virtual table pointer, which is a host address on the device [cuda-kernel-parameter]
// CHECK-NOTES: :[[@LINE-5]]:17: note: because of base class 'Shape'
// CHECK-NOTES: :[[@LINE-8]]:37: note: 'area' is virtual in 'Shape'

__global__ void add_to(float &total, float v) { total += v; }
// CHECK-NOTES: :[[@LINE-1]]:31: warning: kernel parameter 'total' is a reference; the kernel receives the host address of its argument [cuda-kernel-parameter]
void launch(float v) {
  float host_total = 0;
  add_to<<<1, 1>>>(host_total, v);
  // CHECK-NOTES: :[[@LINE-1]]:20: note: the launch binds it to this argument, which is not a __managed__ variable
}

float host_square(float x) { return x * x; }
__global__ void apply(float (*op)(float), float *v) { v[0] = op(v[0]); }
void launch_apply(float *d) { apply<<<1, 1>>>(host_square, d); }
// CHECK-NOTES: :[[@LINE-1]]:47: warning: kernel 'apply' is given the address of host function 'host_square', which the device cannot call [cuda-kernel-parameter]
// CHECK-NOTES: :[[@LINE-4]]:7: note: 'host_square' declared here
