// RUN: %check_cuda_tidy_plugin %s cuda-wrong-memory-space %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-wrong-memory-space %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <vector>
#include <array>

__constant__ float c_weights[16];
__device__ int d_flags[32];
__managed__ int m_total;
float host_weights[16];

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
__device__ float load(const float *p, int i) { return p[i]; }
__global__ void through_device_fn(const float *in, float *out, int n) {
  int i = threadIdx.x;
  if (i < n)
    out[i] = load(in, i);
}
__global__ void offset_alias(float *base, int n) {
  float *row = base + blockIdx.x * n;
  row[threadIdx.x] = 0.f;
}
__global__ void only_compares(const float *p, int *flag) {
  if (p == nullptr)
    *flag = 1;
}
__global__ void atomics(int *counter) { atomicAdd(counter, 1); }
__device__ void external_consumer(const float *p); // defined elsewhere (-rdc)
__global__ void forwards_to_unknown(const float *p) { external_consumer(p); }
struct Node {
  float value;
  Node *next;
};

static float *alloc_device(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(float)));
  return p;
}
struct DeviceBuffers {
  float *x;
  float *y;
};
static void make_buffers(DeviceBuffers *b, size_t n) {
  CUDA_CHECK(cudaMalloc(&b->x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b->y, n * sizeof(float)));
}

void host_pointer_to_kernel(int n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  saxpy<<<1, 256>>>(2.f, h, d, n); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: host memory 'h' is passed to kernel 'saxpy', which dereferences it on the device [cuda-wrong-memory-space]
  saxpy<<<1, 256>>>(2.f, d, h, n); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: host memory 'h' is passed to kernel 'saxpy', which dereferences it on the device [cuda-wrong-memory-space]
  std::vector<float> v(n);
  saxpy<<<1, 256>>>(2.f, d, v.data(), n); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: host memory 'v.data()' is passed to kernel 'saxpy', which dereferences it on the device [cuda-wrong-memory-space]
  float stack[256];
  through_device_fn<<<1, 256>>>(stack, d, n); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: host memory 'stack' is passed to kernel 'through_device_fn', which dereferences it on the device [cuda-wrong-memory-space]
  float *arr = new float[n];
  offset_alias<<<4, 64>>>(arr + 1, 64); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: host memory 'arr + 1' is passed to kernel 'offset_alias', which dereferences it on the device [cuda-wrong-memory-space]
  int count = 0;
  atomics<<<1, 32>>>(&count); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: host memory '&count' is passed to kernel 'atomics', which dereferences it on the device [cuda-wrong-memory-space]
  std::array<float, 64> a;
  saxpy<<<1, 64>>>(1.f, a.data(), d, 64); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: host memory 'a.data()' is passed to kernel 'saxpy', which dereferences it on the device [cuda-wrong-memory-space]
}

void device_pointer_on_host(int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  d[0] = 1.f; // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'd' is dereferenced on the host [cuda-wrong-memory-space]
  float first = *d; // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device memory 'd' is dereferenced on the host [cuda-wrong-memory-space]
  (void)first;
  float *d2 = alloc_device(n);
  for (int i = 0; i < n; ++i)
    printf("%f\n", d2[i]); // BUG
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: device memory 'd2' is dereferenced on the host [cuda-wrong-memory-space]
  Node *list;
  cudaMalloc(&list, sizeof(Node));
  list->value = 3.f; // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'list' is dereferenced on the host [cuda-wrong-memory-space]
  DeviceBuffers b;
  make_buffers(&b, n);
  b.x[1] = 2.f; // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'b.x' is dereferenced on the host [cuda-wrong-memory-space]
}

void device_pointer_to_host_functions(int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  float *h = (float *)malloc(n * sizeof(float));
  memcpy(h, d, n * sizeof(float)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: device memory 'd' is passed to 'memcpy', which reads or writes it on the host [cuda-wrong-memory-space]
  memset(d, 0, n * sizeof(float)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: device memory 'd' is passed to 'memset', which reads or writes it on the host [cuda-wrong-memory-space]
  char *name;
  cudaMalloc(&name, 32);
  printf("kernel %s\n", name); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: device memory 'name' is passed to 'printf', which reads or writes it on the host [cuda-wrong-memory-space]
  fprintf(stderr, "%d: %s\n", n, name); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: device memory 'name' is passed to 'fprintf', which reads or writes it on the host [cuda-wrong-memory-space]
}

void not_symbols(int n) {
  float h[16] = {};
  cudaMemcpyToSymbol(host_weights, h, sizeof(h)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyToSymbol' is given 'host_weights', which is not a __device__ or __constant__ variable [cuda-wrong-memory-space]
  float local[16];
  cudaMemcpyFromSymbol(local, h, sizeof(h)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyFromSymbol' is given 'h', which is not a __device__ or __constant__ variable [cuda-wrong-memory-space]
  float *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpyToSymbol(d, h, sizeof(h)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyToSymbol' is given 'd', which is not a __device__ or __constant__ variable [cuda-wrong-memory-space]
}

void branches(bool onGpu, int n) {
  float *buf;
  if (onGpu)
    buf = (float *)malloc(n * sizeof(float));
  else
    buf = new float[n];
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  saxpy<<<1, 256>>>(1.f, d, buf, n); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: host memory 'buf' is passed to kernel 'saxpy', which dereferences it on the device [cuda-wrong-memory-space]
  float *out = d;
  if (n > 100)
    out = d + 100;
  out[0] = 0.f; // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'out' is dereferenced on the host [cuda-wrong-memory-space]
}

static void fill(float *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] = 0.f; // BUG
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: device memory 'p' is dereferenced on the host [cuda-wrong-memory-space]
}
void calls_fill(int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  fill(d, n);
}

template <typename T> void templated(int n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  d[0] = T(); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'd' is dereferenced on the host [cuda-wrong-memory-space]
}
template void templated<float>(int);
template void templated<int>(int);

void pitched_rows_on_host(int width, int height) {
  float *img;
  size_t pitch;
  CUDA_CHECK(cudaMallocPitch(&img, &pitch, width * sizeof(float), height));
  for (int y = 0; y < height; ++y) {
    float *row = (float *)((char *)img + y * pitch);
    row[0] = 0.f; // BUG
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: device memory 'row' is dereferenced on the host [cuda-wrong-memory-space]
  }
}

// ---- Correct code: no finding. ----

void correct_kernels(int n) {
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  saxpy<<<1, 256>>>(2.f, x, y, n);
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  saxpy<<<1, 256>>>(2.f, m, y, n);
  float *p;
  cudaHostAlloc(&p, n * sizeof(float), cudaHostAllocMapped);
  float *pm;
  cudaHostGetDevicePointer(&pm, p, 0);
  saxpy<<<1, 256>>>(2.f, pm, y, n);
  saxpy<<<1, 256>>>(2.f, p, y, n); // pinned: valid with UVA
  float *r = (float *)malloc(n * sizeof(float));
  cudaHostRegister(r, n * sizeof(float), cudaHostRegisterMapped);
  saxpy<<<1, 256>>>(2.f, r, y, n);
  int flag;
  int *d_flag;
  cudaMalloc(&d_flag, sizeof(int));
  float h_only[4];
  only_compares<<<1, 1>>>(h_only, d_flag); // never dereferenced
  forwards_to_unknown<<<1, 1>>>(h_only); // what the callee does is unknown
  (void)flag;
}

void correct_host_use(int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  float *e = &d[4]; // address arithmetic only
  float *f = d + 8;
  size_t s = sizeof(*d);
  (void)e; (void)f; (void)s;
  printf("%p\n", (void *)d);
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  cudaDeviceSynchronize();
  m[0] = 1.f;
  printf("%f\n", *m);
  float *p;
  cudaMallocHost(&p, n * sizeof(float));
  p[0] = 2.f;
  memset(p, 0, n * sizeof(float));
  float *h = (float *)malloc(n * sizeof(float));
  memcpy(h, p, n * sizeof(float));
  m_total = 3;
}

void correct_symbols(void) {
  float h[16] = {};
  cudaMemcpyToSymbol(c_weights, h, sizeof(h));
  int flags[32];
  cudaMemcpyFromSymbol(flags, d_flags, sizeof(flags));
  cudaMemcpyToSymbol(m_total, &flags[0], sizeof(int));
}

extern float *unknown_pointer(void);
void unknown_stays_silent(int n) {
  float *u = unknown_pointer();
  u[0] = 1.f;
  saxpy<<<1, 256>>>(2.f, u, u, n);
  float *v = (float *)(uintptr_t)0x1000;
  v[0] = 1.f;
}

void mixed_branches(bool gpu, int n) {
  float *p;
  if (gpu)
    cudaMalloc(&p, n * sizeof(float));
  else
    p = (float *)malloc(n * sizeof(float));
  if (!gpu)
    p[0] = 1.f;
  saxpy<<<1, 256>>>(2.f, p, p, n);
}

void reassigned_after_copy_back(int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  d = h;
  d[0] = 1.f;
}

void no_callers(float *p) { p[0] = 1.f; }

void pitched_rows_on_device(int width, int height) {
  float *img;
  size_t pitch;
  CUDA_CHECK(cudaMallocPitch(&img, &pitch, width * sizeof(float), height));
  float *row = (float *)((char *)img + pitch);
  saxpy<<<1, 256>>>(1.f, row, row, width);
  std::vector<float> h(width * height);
  CUDA_CHECK(cudaMemcpy2D(h.data(), width * sizeof(float), img, pitch,
                          width * sizeof(float), height, cudaMemcpyDeviceToHost));
  h[0] = 1.f;
}

void device_struct_field_host_side(int n) {
  DeviceBuffers b;
  b.x = (float *)malloc(n * sizeof(float));
  b.x[0] = 1.f;
  DeviceBuffers c;
  make_buffers(&c, n);
  float *px = c.x;
  cudaMemcpy(px, b.x, sizeof(float), cudaMemcpyHostToDevice);
}
