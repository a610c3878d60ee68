// RUN: %check_cuda_tidy_plugin %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdlib>
#include <cstring>
#include <vector>
#include <array>

__constant__ float c_coeffs[16];
__device__ int d_counter;
__managed__ float m_table[64];

// Allocation wrappers: the analysis summarises them.
static float *alloc_device(size_t n) {
  float *p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(float)));
  return p;
}
static float *alloc_host(size_t n) {
  return static_cast<float *>(malloc(n * sizeof(float)));
}
static void alloc_device_out(float **out, size_t n) {
  CUDA_CHECK(cudaMalloc((void **)out, n * sizeof(float)));
}
static void alloc_pinned_ref(float *&out, size_t n) {
  CUDA_CHECK(cudaMallocHost(&out, n * sizeof(float)));
}

struct Buffers {
  float *d_x;
  float *h_x;
  size_t n;
};
static void make_buffers(Buffers &b, size_t n) {
  b.n = n;
  CUDA_CHECK(cudaMalloc(&b.d_x, n * sizeof(float)));
  b.h_x = new float[n];
}
static void make_buffers_ptr(Buffers *b, size_t n) {
  CUDA_CHECK(cudaMalloc(&b->d_x, n * sizeof(float)));
  b->h_x = (float *)calloc(n, sizeof(float));
}

void swapped_basic(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyHostToDevice)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyDeviceToHost)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'd' is device memory and the source 'h' is host memory, but the kind is cudaMemcpyDeviceToHost [cuda-memcpy-direction]
  free(h);
  CUDA_CHECK(cudaFree(d));
}

void wrong_kind_basic(size_t n) {
  float *h = new float[n];
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyDeviceToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies from host memory 'h' to device memory 'd', but the kind is cudaMemcpyDeviceToDevice; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyHostToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies from device memory 'd' to host memory 'h', but the kind is cudaMemcpyHostToHost; it should be cudaMemcpyDeviceToHost [cuda-memcpy-direction]
  float *d2;
  cudaMalloc(&d2, n * sizeof(float));
  cudaMemcpy(d2, d, n * sizeof(float), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies from device memory 'd' to device memory 'd2', but the kind is cudaMemcpyHostToDevice; it should be cudaMemcpyDeviceToDevice [cuda-memcpy-direction]
  float *h2 = new float[n];
  cudaMemcpy(h2, h, n * sizeof(float), cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies from host memory 'h' to host memory 'h2', but the kind is cudaMemcpyDeviceToHost; it should be cudaMemcpyHostToHost [cuda-memcpy-direction]
  delete[] h;
  delete[] h2;
  cudaFree(d);
  cudaFree(d2);
}

void through_wrappers(size_t n) {
  float *d = alloc_device(n);
  float *h = alloc_host(n);
  checkCudaErrors(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyHostToDevice)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  float *d2;
  alloc_device_out(&d2, n);
  checkCudaErrors(cudaMemcpy(d2, h, n * sizeof(float), cudaMemcpyDeviceToDevice)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'cudaMemcpy' copies from host memory 'h' to device memory 'd2', but the kind is cudaMemcpyDeviceToDevice; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  float *p;
  alloc_pinned_ref(p, n);
  checkCudaErrors(cudaMemcpy(p, d, n * sizeof(float), cudaMemcpyHostToDevice)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'p' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
}

void through_structs(size_t n) {
  Buffers b;
  make_buffers(b, n);
  HANDLE_ERROR(cudaMemcpy(b.h_x, b.d_x, b.n * sizeof(float), cudaMemcpyHostToDevice)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'b.h_x' is host memory and the source 'b.d_x' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  Buffers c;
  make_buffers_ptr(&c, n);
  HANDLE_ERROR(cudaMemcpy(c.d_x, c.h_x, n * sizeof(float), cudaMemcpyDeviceToHost)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'c.d_x' is device memory and the source 'c.h_x' is host memory, but the kind is cudaMemcpyDeviceToHost [cuda-memcpy-direction]
  Buffers e = b;
  HANDLE_ERROR(cudaMemcpy(e.d_x, c.d_x, n * sizeof(float), cudaMemcpyHostToHost)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'cudaMemcpy' copies from device memory 'c.d_x' to device memory 'e.d_x', but the kind is cudaMemcpyHostToHost; it should be cudaMemcpyDeviceToDevice [cuda-memcpy-direction]
}

void vectors_and_arrays(size_t n) {
  std::vector<float> host(n);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(host.data(), d, n * sizeof(float), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'host.data()' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  float stack[256];
  cudaMemcpy(d, stack, sizeof(stack), cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'd' is device memory and the source 'stack' is host memory, but the kind is cudaMemcpyDeviceToHost [cuda-memcpy-direction]
  std::array<float, 8> a;
  cudaMemcpy(d, a.data(), sizeof(a), cudaMemcpyDeviceToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies from host memory 'a.data()' to device memory 'd', but the kind is cudaMemcpyDeviceToDevice; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  cudaMemcpy(&host[0], d, n * sizeof(float), cudaMemcpyHostToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies from device memory 'd' to host memory '&host[0]', but the kind is cudaMemcpyHostToHost; it should be cudaMemcpyDeviceToHost [cuda-memcpy-direction]
}

void async_and_2d(size_t n, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  float *d;
  cudaMallocAsync(&d, n * sizeof(float), s);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyHostToDevice, s); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpyAsync' look swapped: the destination 'h' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  float *p;
  size_t pitch;
  cudaMallocPitch(&p, &pitch, 64 * sizeof(float), 64);
  float img[64 * 64];
  cudaMemcpy2D(p, pitch, img, 64 * sizeof(float), 64 * sizeof(float), 64, cudaMemcpyHostToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy2D' copies from host memory 'img' to device memory 'p', but the kind is cudaMemcpyHostToHost; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  cudaMemcpy2DAsync(img, 64 * sizeof(float), p, pitch, 64 * sizeof(float), 64, cudaMemcpyHostToDevice, s); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpy2DAsync' look swapped: the destination 'img' is host memory and the source 'p' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
}

void symbols(float *unused) {
  float h[16] = {};
  float *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpyToSymbol(c_coeffs, d, sizeof(h), 0, cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyToSymbol' copies from device memory 'd' to the symbol 'c_coeffs', but the kind is cudaMemcpyHostToDevice; it should be cudaMemcpyDeviceToDevice [cuda-memcpy-direction]
  cudaMemcpyToSymbol(c_coeffs, h, sizeof(h), 0, cudaMemcpyDeviceToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyToSymbol' copies from host memory 'h' to the symbol 'c_coeffs', but the kind is cudaMemcpyDeviceToDevice; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  int count;
  cudaMemcpyFromSymbol(&count, d_counter, sizeof(int), 0, cudaMemcpyDeviceToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyFromSymbol' copies from the symbol 'd_counter' to host memory '&count', but the kind is cudaMemcpyDeviceToDevice; it should be cudaMemcpyDeviceToHost [cuda-memcpy-direction]
}

void branches(bool gpu, size_t n) {
  float *src;
  if (gpu)
    src = (float *)malloc(n * sizeof(float));
  else
    src = new float[n];
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(src, d, n * sizeof(float), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'src' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  for (int i = 0; i < 3; ++i) {
    float *t = d + i;
    cudaMemcpy(t, src, sizeof(float), cudaMemcpyDeviceToHost); // BUG
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the arguments of 'cudaMemcpy' look swapped: the destination 't' is device memory and the source 'src' is host memory, but the kind is cudaMemcpyDeviceToHost [cuda-memcpy-direction]
  }
}

// A helper whose parameters are bound by its only caller below.
static void upload(float *dst, const float *src, size_t n) {
  cudaMemcpy(dst, src, n * sizeof(float), cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'dst' is device memory and the source 'src' is host memory, but the kind is cudaMemcpyDeviceToHost [cuda-memcpy-direction]
}
void calls_upload(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  upload(d, h, n);
}

// Struct parameters bound by the only caller: by reference, by pointer and
// by value.
static void download_ref(const Buffers &b) {
  cudaMemcpy(b.h_x, b.d_x, b.n * sizeof(float), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'b.h_x' is host memory and the source 'b.d_x' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
}
static void download_ptr(const Buffers *b) {
  cudaMemcpy(b->d_x, b->h_x, b->n * sizeof(float), cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'b->d_x' is device memory and the source 'b->h_x' is host memory, but the kind is cudaMemcpyDeviceToHost [cuda-memcpy-direction]
}
static void download_val(Buffers b) {
  cudaMemcpy(b.h_x, b.d_x, b.n * sizeof(float), cudaMemcpyDeviceToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies from device memory 'b.d_x' to host memory 'b.h_x', but the kind is cudaMemcpyDeviceToDevice; it should be cudaMemcpyDeviceToHost [cuda-memcpy-direction]
}
void calls_struct_helpers(size_t n) {
  Buffers b;
  make_buffers(b, n);
  download_ref(b);
  download_ptr(&b);
  download_val(b);
}

template <typename T> void templated(size_t n) {
  T *h = (T *)malloc(n * sizeof(T));
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
}
template void templated<float>(size_t);
template void templated<double>(size_t);

extern float *unknown_source(size_t n);
void one_side_known(size_t n) {
  float *u = unknown_source(n);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(u, d, n * sizeof(float), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' with kind cudaMemcpyHostToDevice expects host memory as its source, but 'd' is device memory [cuda-memcpy-direction]
}

// ---- Correct code: no finding. ----

void correct_basic(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  float *d2;
  cudaMalloc(&d2, n * sizeof(float));
  cudaMemcpy(d2, d, n * sizeof(float), cudaMemcpyDeviceToDevice);
  float *h2 = new float[n];
  cudaMemcpy(h2, h, n * sizeof(float), cudaMemcpyHostToHost);
}

void default_kind_never_flagged(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDefault);
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyDefault);
}

void managed_never_flagged(size_t n) {
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpy(m, h, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h, m, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(m_table, h, sizeof(m_table), cudaMemcpyDeviceToHost);
}

void mapped_never_flagged(size_t n) {
  float *h;
  cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocMapped);
  float *dm;
  cudaHostGetDevicePointer(&dm, h, 0);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(dm, d, n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaMemcpy(d, dm, n * sizeof(float), cudaMemcpyHostToDevice);
}

void pinned_is_host(size_t n) {
  float *p;
  cudaMallocHost(&p, n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, p, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(p, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  float *r = (float *)malloc(n * sizeof(float));
  cudaHostRegister(r, n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpy(d, r, n * sizeof(float), cudaMemcpyHostToDevice);
}

void mixed_branches_stay_silent(bool gpu, size_t n) {
  float *p;
  if (gpu)
    cudaMalloc(&p, n * sizeof(float));
  else
    p = (float *)malloc(n * sizeof(float));
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpy(h, p, n * sizeof(float), cudaMemcpyDefault);
  cudaMemcpy(p, h, n * sizeof(float), cudaMemcpyHostToDevice);
}

void reassigned_then_correct(size_t n) {
  float *p = (float *)malloc(n * sizeof(float));
  free(p);
  cudaMalloc(&p, n * sizeof(float));
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpy(p, h, n * sizeof(float), cudaMemcpyHostToDevice);
}

extern float *unknown_source(size_t n);
void unknown_stays_unknown(size_t n) {
  float *u = unknown_source(n);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(u, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(d, u, n * sizeof(float), cudaMemcpyHostToDevice);
  float *i = (float *)(uintptr_t)0x1000;
  cudaMemcpy(d, i, n * sizeof(float), cudaMemcpyDeviceToDevice);
}

// No caller in this file: the parameters are unknown.
void no_callers(float *a, float *b, size_t n) {
  cudaMemcpy(a, b, n * sizeof(float), cudaMemcpyDeviceToHost);
}

extern void may_reallocate(float **p);
void escaped_through_unknown_call(size_t n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  may_reallocate(&d);
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}

void correct_2d_and_symbols(size_t n) {
  float *p;
  size_t pitch;
  cudaMallocPitch(&p, &pitch, 64 * sizeof(float), 64);
  float img[64 * 64];
  cudaMemcpy2D(p, pitch, img, 64 * sizeof(float), 64 * sizeof(float), 64, cudaMemcpyHostToDevice);
  cudaMemcpy2D(img, 64 * sizeof(float), p, pitch, 64 * sizeof(float), 64, cudaMemcpyDeviceToHost);
  float h[16] = {};
  cudaMemcpyToSymbol(c_coeffs, h, sizeof(h));
  float *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpyToSymbol(c_coeffs, d, sizeof(h), 0, cudaMemcpyDeviceToDevice);
  int count;
  cudaMemcpyFromSymbol(&count, d_counter, sizeof(int));
}

void correct_structs_and_wrappers(size_t n) {
  Buffers b;
  make_buffers(b, n);
  cudaMemcpy(b.d_x, b.h_x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b.h_x, b.d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
  float *d = alloc_device(n);
  float *h = alloc_host(n);
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  std::vector<float> v(n);
  cudaMemcpy(v.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
}

void loop_alternating(size_t n, int iters) {
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  for (int i = 0; i < iters; ++i) {
    cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice);
    float *t = a;
    a = b;
    b = t;
  }
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpy(h, a, n * sizeof(float), cudaMemcpyDeviceToHost);
}

// A kind chosen at run time is checked on each path: when 'up' is false the
// copy asks for cudaMemcpyDeviceToHost (cuda-memcpy-direction-runtime.cu).
void kind_from_variable(size_t n, bool up) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpyKind k = up ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  cudaMemcpy(d, h, n * sizeof(float), k);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'd' is device memory and the source 'h' is host memory, but the kind is cudaMemcpyDeviceToHost [cuda-memcpy-direction]
}

void address_escapes(size_t n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  float **alias = &d;
  *alias = (float *)malloc(n * sizeof(float));
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToHost);
}

void lambda_capture(size_t n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  auto swap_in = [&] { d = (float *)malloc(n * sizeof(float)); };
  swap_in();
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToHost);
}

// A namespace-scope const table is host memory: clang's device compilation
// marks it __constant__ implicitly, but the host copy is what the call reads.
__constant__ float c_weights[4];
const float kWeights[4] = {0.1f, 0.2f, 0.3f, 0.4f};
void uploadWeights() {
  cudaMemcpyToSymbol(c_weights, kWeights, sizeof(kWeights));
  cudaMemcpyToSymbol(c_weights, kWeights, sizeof(kWeights), 0,
                     cudaMemcpyHostToDevice);
}
