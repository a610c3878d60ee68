// cuda-kernel-parameter: kernel parameters that cannot carry their argument
// to the device, and launches that pass host addresses.
// RUN: %check_cuda_tidy_plugin %s cuda-kernel-parameter %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-kernel-parameter %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

// ---- Positive: references -------------------------------------------------

__global__ void scale_by_ref(float &x, float a) { x *= a; }
// CHECK-MESSAGES: :[[@LINE-1]]:37: warning: kernel parameter 'x' is a reference; the kernel receives the host address of its argument [cuda-kernel-parameter]

__global__ void read_const_ref(const int &n, float *out) { out[0] = n; }
// CHECK-MESSAGES: :[[@LINE-1]]:43: warning: kernel parameter 'n' is a reference; the kernel receives the host address of its argument [cuda-kernel-parameter]

struct Params {
  int n;
  float scale;
};
__global__ void by_struct_ref(const Params &p, float *out) { out[0] = p.scale; }
// CHECK-MESSAGES: :[[@LINE-1]]:45: warning: kernel parameter 'p' is a reference; the kernel receives the host address of its argument [cuda-kernel-parameter]

__global__ void rvalue_ref(float &&x, float *out) { out[0] = x; }
// CHECK-MESSAGES: :[[@LINE-1]]:36: warning: kernel parameter 'x' is a reference; the kernel receives the host address of its argument [cuda-kernel-parameter]

__managed__ float managed_total;
__global__ void add_to(float &total, float v) { total += v; }
// CHECK-MESSAGES: :[[@LINE-1]]:31: warning: kernel parameter 'total' is a reference; the kernel receives the host address of its argument [cuda-kernel-parameter]

void launch_add_to() {
  float host_total = 0;
  add_to<<<1, 1>>>(managed_total, 1.f);
  add_to<<<1, 1>>>(host_total, 1.f);
}

// ---- Positive: types that are not trivially copyable ----------------------

struct DeviceBuffer {
  float *data = nullptr;
  int n = 0;
  ~DeviceBuffer() { cudaFree(data); }
};
__global__ void fill(DeviceBuffer b) { b.data[threadIdx.x] = 0; }
// CHECK-MESSAGES: :[[@LINE-1]]:35: warning: kernel parameter 'b' of type 'DeviceBuffer' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]

struct Holder {
  int id;
  DeviceBuffer buf;
};
__global__ void fill_held(Holder h) { h.buf.data[0] = h.id; }
// CHECK-MESSAGES: :[[@LINE-1]]:34: warning: kernel parameter 'h' of type 'Holder' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]

struct Derived : DeviceBuffer {
  int extra;
};
__global__ void fill_derived(Derived d) { d.data[0] = d.extra; }
// CHECK-MESSAGES: :[[@LINE-1]]:38: warning: kernel parameter 'd' of type 'Derived' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]

struct Counted {
  int *count;
  Counted(const Counted &o) : count(o.count) { ++*count; }
};
__global__ void use_counted(Counted c) { (void)c; }
// CHECK-MESSAGES: :[[@LINE-1]]:37: warning: kernel parameter 'c' of type 'Counted' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]

struct Table {
  std::vector<float> weights;
};
__global__ void use_table(Table t, float *out) { out[0] = 1; }
// CHECK-MESSAGES: :[[@LINE-1]]:33: warning: kernel parameter 't' of type 'Table' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]

struct Parts {
  DeviceBuffer parts[2];
};
__global__ void use_array_member(Parts s) {}
// CHECK-MESSAGES: :[[@LINE-1]]:40: warning: kernel parameter 's' of type 'Parts' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]

template <typename T> __global__ void generic(T value, float *out) {
  out[0] = sizeof(value);
}
// CHECK-MESSAGES: :[[@LINE-3]]:49: warning: kernel parameter 'value' of type 'DeviceBuffer' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]
void launch_generic(float *out) {
  generic<<<1, 1>>>(DeviceBuffer(), out);
  generic<<<1, 1>>>(3.f, out);
}

// ---- Positive: polymorphic types ------------------------------------------

struct Shape {
  virtual __host__ __device__ float area() const { return 0; }
};
__global__ void areas(Shape s, float *out) { out[0] = s.area(); }
// CHECK-MESSAGES: :[[@LINE-1]]:29: warning: kernel parameter 's' of type 'Shape' holds a virtual table pointer, which is a host address on the device [cuda-kernel-parameter]

struct Square : Shape {
  float side;
};
__global__ void square_areas(Square s, float *out) { out[0] = s.side; }
// CHECK-MESSAGES: :[[@LINE-1]]:37: warning: kernel parameter 's' of type 'Square' holds a virtual table pointer, which is a host address on the device [cuda-kernel-parameter]

struct Scene {
  Square first;
};
__global__ void scene(Scene s, float *out) { out[0] = s.first.side; }
// CHECK-MESSAGES: :[[@LINE-1]]:29: warning: kernel parameter 's' of type 'Scene' holds a virtual table pointer, which is a host address on the device [cuda-kernel-parameter]

// ---- Positive: host function addresses at launches ---------------------------------

typedef float (*UnaryOp)(float);
float host_square(float x) { return x * x; }
__host__ __device__ float both_square(float x) { return x * x; }
__global__ void apply(UnaryOp op, float *v) { v[0] = op(v[0]); }
float host_table[16];
__global__ void read_table(const float *t, float *out) { out[0] = t[0]; }
struct Config {
  int n;
  float coeffs[4];
};
__global__ void read_config(const Config *c, float *out) { out[0] = c->n; }

void host_addresses(float *d) {
  apply<<<1, 1>>>(host_square, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: kernel 'apply' is given the address of host function 'host_square', which the device cannot call [cuda-kernel-parameter]
  apply<<<1, 1>>>(&host_square, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: kernel 'apply' is given the address of host function 'host_square', which the device cannot call [cuda-kernel-parameter]
  apply<<<1, 1>>>(both_square, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: kernel 'apply' is given the address of host function 'both_square', which the device cannot call [cuda-kernel-parameter]
  // Host variables' addresses are cuda-wrong-memory-space's findings.
  read_table<<<1, 1>>>(host_table, d);
  Config cfg{4, {1, 2, 3, 4}};
  read_config<<<1, 1>>>(&cfg, d);
  read_table<<<1, 1>>>(&cfg.coeffs[1], d);
}

// ---- Negative: idiomatic kernel parameters ---------------------------------

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void by_value_struct(Params p, float *out) { out[0] = p.scale; }

struct View {
  float *data;
  int n;
  View() = default;
  View(const View &) = default;
  __host__ __device__ float &operator[](int i) { return data[i]; }
};
__global__ void use_view(View v) { v[0] = 1; }

struct WithAssign {
  float *p;
  WithAssign &operator=(const WithAssign &o) { p = o.p; return *this; }
};
__global__ void use_assign(WithAssign w) { w.p[0] = 0; }

struct WithCtor {
  float *p;
  int n;
  __host__ __device__ WithCtor(float *p, int n) : p(p), n(n) {}
};
__global__ void use_ctor(WithCtor w) { w.p[0] = w.n; }

__global__ void texture_read(cudaTextureObject_t tex, float *out) {
  out[0] = tex2D<float>(tex, 0, 0);
}

__global__ void vectors(float4 a, int2 b, dim3 c, float *out) {
  out[0] = a.x + b.y + c.z;
}

template <typename F> __global__ void transform(F f, float *v, int n) {
  int i = threadIdx.x;
  if (i < n)
    v[i] = f(v[i]);
}
struct Doubler {
  __device__ float operator()(float x) const { return 2 * x; }
};

__managed__ float managed_sum;
__global__ void accumulate(float &sum, float v) { sum += v; }

__device__ float device_table[16];
__constant__ float constant_coeffs[4];
__device__ float device_square(float x) { return x * x; }
__device__ UnaryOp device_op = device_square;

// Not instantiated here: the pattern's reference is one for every T.
template <typename T> __global__ void generic_ref(const T &x, float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:60: warning: kernel parameter 'x' is a reference; the kernel receives the host address of its argument [cuda-kernel-parameter]
  out[0] = x;
}

__global__ void pair_param(std::pair<int, float> p, float *out) {
  out[0] = p.second;
}

__global__ void shared_state(float *state) { state[threadIdx.x] = 0; }

void negatives(float *d, int n) {
  pair_param<<<1, 1>>>(std::make_pair(1, 2.f), d);
  float *d_state;
  CUDA_CHECK(cudaMalloc(&d_state, 64 * sizeof(float)));
  shared_state<<<1, 64>>>(d_state);
  CUDA_CHECK(cudaFree(d_state));
  float *managed;
  CUDA_CHECK(cudaMallocManaged(&managed, sizeof(float)));
  shared_state<<<1, 1>>>(managed);
  CUDA_CHECK(cudaFree(managed));
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.f, d, d);
  by_value_struct<<<1, 1>>>(Params{n, 2.f}, d);
  use_view<<<1, 1>>>(View{d, n});
  use_ctor<<<1, 1>>>(WithCtor(d, n));
  vectors<<<1, 1>>>(make_float4(1, 2, 3, 4), make_int2(1, 2), dim3(1), d);
  transform<<<1, 32>>>(Doubler(), d, n);
  transform<<<1, 32>>>([] __device__(float x) { return x + 1; }, d, n);
  accumulate<<<1, 1>>>(managed_sum, 1.f);
  float *d_table;
  CUDA_CHECK(cudaGetSymbolAddress((void **)&d_table, device_table));
  read_table<<<1, 1>>>(d_table, d);
  UnaryOp op;
  CUDA_CHECK(cudaMemcpyFromSymbol(&op, device_op, sizeof(op)));
  apply<<<1, 1>>>(op, d);
  float *pinned;
  CUDA_CHECK(cudaMallocHost(&pinned, 16 * sizeof(float)));
  read_table<<<1, 1>>>(pinned, d);
  CUDA_CHECK(cudaFreeHost(pinned));
}
