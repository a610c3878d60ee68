// RUN: %check_cuda_tidy_plugin %s cuda-invalid-free %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-invalid-free %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

__global__ void touch(float *p, int n) {
  int i = threadIdx.x;
  if (i < n)
    p[i] = 0.f;
}

static float *alloc_device(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(float)));
  return p;
}
static void alloc_pinned(float **out, size_t n) {
  CUDA_CHECK(cudaMallocHost((void **)out, n * sizeof(float)));
}
struct Pair {
  float *dev;
  float *host;
};
static void make_pair(Pair &p, size_t n) {
  CUDA_CHECK(cudaMalloc(&p.dev, n * sizeof(float)));
  p.host = (float *)malloc(n * sizeof(float));
}
static void release_pair(Pair &p) {
  CUDA_CHECK(cudaFree(p.dev));
  free(p.host);
}

void wrong_release_function(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  cudaFree(h); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is host memory, but it is released with 'cudaFree'; use free or delete [cuda-invalid-free]
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  free(d); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'd' is device memory, but it is released with 'free'; use cudaFree [cuda-invalid-free]
  float *p;
  cudaMallocHost(&p, n * sizeof(float));
  cudaFree(p); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'p' is pinned host memory, but it is released with 'cudaFree'; use cudaFreeHost [cuda-invalid-free]
  float *q;
  cudaHostAlloc(&q, n * sizeof(float), cudaHostAllocDefault);
  free(q); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'q' is pinned host memory, but it is released with 'free'; use cudaFreeHost [cuda-invalid-free]
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  delete[] m; // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'm' is managed memory, but it is released with 'delete[]'; use cudaFree [cuda-invalid-free]
  float *arr = new float[n];
  cudaFreeHost(arr); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'arr' is host memory, but it is released with 'cudaFreeHost'; use free or delete [cuda-invalid-free]
  float *d2;
  cudaMalloc(&d2, n * sizeof(float));
  cudaFreeHost(d2); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'd2' is device memory, but it is released with 'cudaFreeHost'; use cudaFree [cuda-invalid-free]
  float *d3;
  cudaMalloc(&d3, sizeof(float));
  delete d3; // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'd3' is device memory, but it is released with 'delete'; use cudaFree [cuda-invalid-free]
  float *h3 = new (std::nothrow) float[n];
  cudaFree(h3); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h3' is host memory, but it is released with 'cudaFree'; use free or delete [cuda-invalid-free]
}

void stack_and_containers(size_t n) {
  float stack[64];
  cudaFree(stack); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'stack' is host memory, but it is released with 'cudaFree'; use free or delete [cuda-invalid-free]
  std::vector<float> v(n);
  cudaFree(v.data()); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'v.data()' is host memory, but it is released with 'cudaFree'; use free or delete [cuda-invalid-free]
  float value = 0.f;
  cudaFreeHost(&value); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '&value' is host memory, but it is released with 'cudaFreeHost'; use free or delete [cuda-invalid-free]
}

void through_wrappers(size_t n) {
  float *d = alloc_device(n);
  free(d); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'd' is device memory, but it is released with 'free'; use cudaFree [cuda-invalid-free]
  float *p;
  alloc_pinned(&p, n);
  delete[] p; // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'p' is pinned host memory, but it is released with 'delete[]'; use cudaFreeHost [cuda-invalid-free]
  Pair pr;
  make_pair(pr, n);
  cudaFree(pr.host); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'pr.host' is host memory, but it is released with 'cudaFree'; use free or delete [cuda-invalid-free]
}

void double_free(size_t n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(d)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'd' is freed twice: it was already freed on every path to this 'cudaFree' [cuda-invalid-free]
  float *h = (float *)malloc(n);
  free(h);
  free(h); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is freed twice: it was already freed on every path to this 'free' [cuda-invalid-free]
  Pair pr;
  make_pair(pr, n);
  release_pair(pr);
  cudaFree(pr.dev); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'pr.dev' is freed twice: it was already freed on every path to this 'cudaFree' [cuda-invalid-free]
}

void use_after_free(size_t n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  float *h = (float *)malloc(n * sizeof(float));
  cudaFree(d);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'd' is read by a copy after it was freed [cuda-invalid-free]
  touch<<<1, 32>>>(d, n); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'd' is passed to a kernel after it was freed [cuda-invalid-free]
  free(h);
  h[0] = 1.f; // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is dereferenced after it was freed [cuda-invalid-free]
  float *h2 = new float[n];
  delete[] h2;
  memset(h2, 0, n * sizeof(float)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h2' is written by a copy after it was freed [cuda-invalid-free]
}

void branches(bool big, size_t n) {
  float *buf;
  if (big)
    buf = (float *)malloc(n * sizeof(float));
  else
    buf = new float[16];
  cudaFree(buf); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'buf' is host memory, but it is released with 'cudaFree'; use free or delete [cuda-invalid-free]
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  if (big) {
    cudaFree(d);
  } else {
    cudaFree(d);
  }
  cudaFree(d); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'd' is freed twice: it was already freed on every path to this 'cudaFree' [cuda-invalid-free]
}

template <typename T> void templated(size_t n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  free(d); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'd' is device memory, but it is released with 'free'; use cudaFree [cuda-invalid-free]
}
template void templated<float>(size_t);
template void templated<double>(size_t);

void malloc3d(int w, int h, int depth) {
  cudaPitchedPtr pp;
  cudaMalloc3D(&pp, make_cudaExtent(w * sizeof(float), h, depth));
  free(pp.ptr); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'pp.ptr' is device memory, but it is released with 'free'; use cudaFree [cuda-invalid-free]
}

void pitched(int width, int height) {
  float *img;
  size_t pitch;
  CUDA_CHECK(cudaMallocPitch(&img, &pitch, width * sizeof(float), height));
  cudaFreeHost(img); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'img' is device memory, but it is released with 'cudaFreeHost'; use cudaFree [cuda-invalid-free]
}

// ---- Correct code: no finding. ----

void correct_pairs(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  free(h);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaFree(d);
  float *p;
  cudaMallocHost(&p, n * sizeof(float));
  cudaFreeHost(p);
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  cudaFree(m);
  float *a = new float[n];
  delete[] a;
  float *q;
  cudaHostAlloc(&q, n * sizeof(float), 0);
  cudaFreeHost(q);
  float *d2 = alloc_device(n);
  cudaFree(d2);
  Pair pr;
  make_pair(pr, n);
  release_pair(pr);
}

void registered_memory(size_t n) {
  float *r = (float *)malloc(n * sizeof(float));
  cudaHostRegister(r, n * sizeof(float), 0);
  cudaHostUnregister(r);
  free(r);
  float *s = (float *)malloc(n * sizeof(float));
  cudaHostRegister(s, n * sizeof(float), 0);
  free(s);
}

void freed_then_reassigned(size_t n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaFree(d);
  d = nullptr;
  cudaFree(d);
  cudaMalloc(&d, n * sizeof(float));
  touch<<<1, 32>>>(d, n);
  cudaFree(d);
}

void free_in_loop(size_t n) {
  float *bufs[4];
  for (int i = 0; i < 4; ++i)
    cudaMalloc(&bufs[i], n * sizeof(float));
  for (int i = 0; i < 4; ++i)
    cudaFree(bufs[i]);
  for (int iter = 0; iter < 3; ++iter) {
    float *t;
    cudaMalloc(&t, n * sizeof(float));
    touch<<<1, 32>>>(t, n);
    cudaFree(t);
  }
}

void free_on_one_path(bool early, size_t n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  if (early)
    cudaFree(d);
  if (!early)
    cudaFree(d);
}

void mixed_origin(bool gpu, size_t n) {
  float *p;
  if (gpu)
    cudaMalloc(&p, n * sizeof(float));
  else
    p = (float *)malloc(n * sizeof(float));
  if (gpu)
    cudaFree(p);
  else
    free(p);
}

extern float *unknown_alloc(size_t n);
extern void unknown_release(float *p);
void unknowns(size_t n, float *param) {
  float *u = unknown_alloc(n);
  cudaFree(u);
  free(param);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  unknown_release(d);
  cudaFree(d);
}

void null_is_fine(void) {
  float *p = nullptr;
  cudaFree(p);
  free(p);
  cudaFreeHost(p);
  float *q = NULL;
  delete[] q;
}

void mapped_alias(size_t n) {
  float *h;
  cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocMapped);
  float *dm;
  cudaHostGetDevicePointer(&dm, h, 0);
  touch<<<1, 32>>>(dm, n);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
}

void malloc3d_correct(int w, int h, int depth) {
  cudaPitchedPtr pp;
  cudaMalloc3D(&pp, make_cudaExtent(w * sizeof(float), h, depth));
  cudaFree(pp.ptr);
}

void pitched_correct(int width, int height) {
  float *img;
  size_t pitch;
  CUDA_CHECK(cudaMallocPitch(&img, &pitch, width * sizeof(float), height));
  CUDA_CHECK(cudaFree(img));
}

struct Cell {
  float v;
};
void placement_new_in_managed(size_t n) {
  void *raw;
  cudaMallocManaged(&raw, n * sizeof(Cell));
  Cell *cells = new (raw) Cell[n];
  cudaFree(cells);
  float *h = new (std::nothrow) float[n];
  delete[] h;
}

void async_free(size_t n, cudaStream_t s) {
  float *d;
  cudaMallocAsync(&d, n * sizeof(float), s);
  touch<<<1, 32, 0, s>>>(d, n);
  cudaFreeAsync(d, s);
}

// A check macro that evaluates its argument again when it fails frees the
// pointer a second time only on the failure path: cuda-unchecked-api-call
// reports the macro, not this check.
#define CHECK_TWICE(x)                                                         \
  if ((x) != cudaSuccess) {                                                    \
    fprintf(stderr, "%s\n", cudaGetErrorString(x));                            \
  }
void macro_evaluates_twice(size_t n) {
  float *d = alloc_device(n);
  float *h;
  alloc_pinned(&h, n);
  CHECK_TWICE(cudaFree(d));
  CHECK_TWICE(cudaFreeHost(h));
}
