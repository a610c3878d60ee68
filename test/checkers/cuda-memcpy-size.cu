// RUN: %check_cuda_tidy_plugin %s cuda-memcpy-size %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-memcpy-size %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdlib>
#include <cstring>
#include <vector>

struct Particle {
  float x, y, z;
  float vx, vy, vz;
};

static float *alloc_device(size_t n) {
  float *p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(float)));
  return p;
}
static void alloc_device_out(double **out, size_t count) {
  CUDA_CHECK(cudaMalloc((void **)out, count * sizeof(double)));
}
struct Mesh {
  float *d_pos;
  int *d_idx;
  size_t nverts;
};
static void make_mesh(Mesh &m, size_t nverts) {
  m.nverts = nverts;
  CUDA_CHECK(cudaMalloc(&m.d_pos, 3 * nverts * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&m.d_idx, nverts * sizeof(int)));
}

void wrong_element_type(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(double), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count of 'cudaMemcpy' uses the size of 'double', but the buffers hold elements of type 'float' [cuda-memcpy-size]
  cudaMemcpyAsync(h, d, sizeof(double) * n, cudaMemcpyDeviceToHost, 0); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count of 'cudaMemcpyAsync' uses the size of 'double', but the buffers hold elements of type 'float' [cuda-memcpy-size]
  cudaMemset(d, 0, n * sizeof(short)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count of 'cudaMemset' uses the size of 'short', but the buffers hold elements of type 'float' [cuda-memcpy-size]
  Particle *dp;
  cudaMalloc(&dp, n * sizeof(Particle));
  cudaMemset(dp, 0, n * sizeof(Particle *)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count of 'cudaMemset' uses the size of the pointer type 'Particle *', not of its elements of type 'Particle' [cuda-memcpy-size]
}

void sizeof_pointer(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count of 'cudaMemcpy' is the size of the pointer 'h', not of the 'float' elements it points to [cuda-memcpy-size]
  cudaMemcpy(h, d, n * sizeof(d), cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count of 'cudaMemcpy' is the size of the pointer 'd', not of the 'float' elements it points to [cuda-memcpy-size]
  cudaMemcpy(d, h, n * sizeof(float *), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count of 'cudaMemcpy' uses the size of the pointer type 'float *', not of its elements of type 'float' [cuda-memcpy-size]
  memcpy(h, h + n / 2, sizeof(h)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count of 'memcpy' is the size of the pointer 'h', not of the 'float' elements it points to [cuda-memcpy-size]
}

void counts_elements(size_t n, int rows, int cols) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count 'n' of 'cudaMemcpy' counts elements, not bytes: 'd' holds 'n * sizeof(float)' bytes [cuda-memcpy-size]
  cudaMemset(d, 0, n); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count 'n' of 'cudaMemset' counts elements, not bytes: 'd' holds 'n * sizeof(float)' bytes [cuda-memcpy-size]
  double *m;
  cudaMalloc(&m, rows * cols * sizeof(double));
  double *hm = new double[rows * cols];
  cudaMemcpy(hm, m, cols * rows, cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count 'cols * rows' of 'cudaMemcpy' counts elements, not bytes: 'hm' holds 'rows * cols * sizeof(double)' bytes [cuda-memcpy-size]
}

void exceeds_allocation(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  double *dd;
  cudaMalloc(&dd, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates 'n * sizeof(float)' bytes, counted in elements of type 'float', for elements of type 'double' [cuda-memcpy-size]
  cudaMemcpy(dd, h, n * sizeof(double), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies 'n * sizeof(double)' bytes, more than the 'n * sizeof(float)' bytes of 'dd' [cuda-memcpy-size]
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, (n + 1) * sizeof(float), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies '(n + 1) * sizeof(float)' bytes, more than the 'n * sizeof(float)' bytes of 'd' [cuda-memcpy-size]
  cudaMemcpy(h, d, 2 * n * sizeof(float), cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies '2 * n * sizeof(float)' bytes, more than the 'n * sizeof(float)' bytes of 'h' [cuda-memcpy-size]
  float small[64];
  cudaMemcpy(small, d, 128 * sizeof(float), cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies '128 * sizeof(float)' bytes, more than the '256' bytes of 'small' [cuda-memcpy-size]
  const size_t bytes = n * sizeof(float);
  float *d2;
  cudaMalloc(&d2, bytes);
  cudaMemset(d2, 0, bytes + 16); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemset' sets 'bytes + 16' bytes, more than the 'bytes' bytes of 'd2' [cuda-memcpy-size]
}

void through_wrappers(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d = alloc_device(n);
  cudaMemcpy(d, h, n * 2 * sizeof(float), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies 'n * 2 * sizeof(float)' bytes, more than the 'n * sizeof(float)' bytes of 'd' [cuda-memcpy-size]
  double *dd;
  alloc_device_out(&dd, n);
  double *hd = new double[2 * n];
  cudaMemcpy(dd, hd, 2 * n * sizeof(double), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies '2 * n * sizeof(double)' bytes, more than the 'count * sizeof(double)' bytes of 'dd' [cuda-memcpy-size]
  Mesh mesh;
  make_mesh(mesh, n);
  std::vector<float> pos(3 * n);
  cudaMemcpy(pos.data(), mesh.d_pos, 4 * n * sizeof(float), cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies '4 * n * sizeof(float)' bytes, more than the '3 * n * sizeof(float)' bytes of 'pos.data()' [cuda-memcpy-size]
  cudaMemcpy(mesh.d_idx, h, n, cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count 'n' of 'cudaMemcpy' counts elements, not bytes: 'mesh.d_idx' holds 'nverts * sizeof(int)' bytes [cuda-memcpy-size]
}

void pitched(size_t width, size_t height) {
  float *d;
  size_t pitch;
  CUDA_CHECK(cudaMallocPitch(&d, &pitch, width * sizeof(float), height));
  std::vector<float> h(width * height);
  cudaMemcpy2D(d, width * sizeof(float), h.data(), width * sizeof(float), width * sizeof(float), height, cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the destination pitch 'width * sizeof(float)' of 'cudaMemcpy2D' is not the pitch that 'cudaMallocPitch' returned for 'd' [cuda-memcpy-size]
  cudaMemcpy2D(h.data(), width * sizeof(float), d, pitch, width * sizeof(double), height, cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the width 'width * sizeof(double)' of 'cudaMemcpy2D' is larger than the destination pitch 'width * sizeof(float)' [cuda-memcpy-size]
  cudaMemset2D(d, pitch, 0, pitch + 4, height); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the width 'pitch + 4' of 'cudaMemset2D' is larger than the destination pitch 'pitch' [cuda-memcpy-size]
  cudaMemcpy2DAsync(d, pitch, h.data(), width, width * sizeof(float), height, cudaMemcpyHostToDevice, 0); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the width 'width * sizeof(float)' of 'cudaMemcpy2DAsync' is larger than the source pitch 'width' [cuda-memcpy-size]
}

template <typename T> void templated(size_t n) {
  T *h = (T *)malloc(n * sizeof(T));
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, h, n * sizeof(T) + 1, cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies 'n * sizeof(T) + 1' bytes, more than the 'n * sizeof(T)' bytes of 'd' [cuda-memcpy-size]
}
template void templated<float>(size_t);
template void templated<int>(size_t);

void branches(bool big, size_t n) {
  float *d;
  if (big)
    cudaMalloc(&d, n * sizeof(float));
  else
    cudaMalloc(&d, n * sizeof(float));
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(double), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count of 'cudaMemcpy' uses the size of 'double', but the buffers hold elements of type 'float' [cuda-memcpy-size]
}

void untyped_pointers(size_t n) {
  void *d;
  float *typed;
  cudaMalloc(&typed, n * sizeof(float));
  d = typed;
  void *h = malloc(n * sizeof(float));
  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count 'n' of 'cudaMemcpy' counts elements, not bytes: 'd' holds 'n * sizeof(float)' bytes [cuda-memcpy-size]
  void *raw = (double *)malloc(n * sizeof(double));
  cudaMemcpy(d, raw, n * sizeof(double), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies 'n * sizeof(double)' bytes, more than the 'n * sizeof(float)' bytes of 'd' [cuda-memcpy-size]
}

void host_vectors(size_t n) {
  std::vector<float> h(n);
  float *d;
  cudaMalloc(&d, 2 * n * sizeof(float));
  cudaMemcpy(h.data(), d, 2 * n * sizeof(float), cudaMemcpyDeviceToHost); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies '2 * n * sizeof(float)' bytes, more than the 'n * sizeof(float)' bytes of 'h.data()' [cuda-memcpy-size]
  std::vector<float> init(n, 1.f);
  cudaMemcpy(d, &init[0], (n + 1) * sizeof(float), cudaMemcpyHostToDevice); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies '(n + 1) * sizeof(float)' bytes, more than the 'n * sizeof(float)' bytes of '&init[0]' [cuda-memcpy-size]
}

// ---- Correct code: no finding. ----

void correct(size_t n, int rows, int cols) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(h, d, sizeof(float) * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(h, d, n * sizeof(*h), cudaMemcpyDeviceToHost);
  cudaMemcpy(d, h, (n / 2) * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, h, n * sizeof(float) - 4, cudaMemcpyHostToDevice);
  cudaMemset(d, 0, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice); // same size
  double *m;
  cudaMalloc(&m, rows * cols * sizeof(double));
  double *hm = new double[rows * cols];
  cudaMemcpy(hm, m, cols * rows * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(hm, m, sizeof(double) * cols * rows, cudaMemcpyDeviceToHost);
}

void correct_bytes_variable(size_t n) {
  size_t bytes = n * sizeof(float);
  float *d, *h;
  cudaMalloc(&d, bytes);
  cudaMallocHost(&h, bytes);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  char *raw;
  cudaMalloc(&raw, bytes);
  cudaMemcpy(raw, h, bytes, cudaMemcpyHostToDevice);
}

void reassigned_size_is_unknown(size_t n) {
  size_t bytes = n * sizeof(float);
  float *d;
  cudaMalloc(&d, bytes);
  bytes *= 2;
  float *h = (float *)malloc(bytes);
  cudaMemcpy(h, d, bytes / 2, cudaMemcpyDeviceToHost);
}

void offsets_and_unknowns(size_t n, size_t m) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  float *h = (float *)malloc(2 * n * sizeof(float));
  cudaMemcpy(h + n, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(d, h, m * sizeof(float), cudaMemcpyHostToDevice);
  float *e = d + 4;
  cudaMemcpy(e, h, 4 * sizeof(float), cudaMemcpyHostToDevice);
}

void raw_bytes(size_t n) {
  void *d;
  cudaMalloc(&d, n);
  unsigned char *h = (unsigned char *)malloc(n);
  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
  cudaMemset(d, 0, n);
  char *c;
  cudaMalloc(&c, n);
  cudaMemcpy(c, h, n, cudaMemcpyHostToDevice);
}

void correct_pitched(size_t width, size_t height) {
  float *d;
  size_t pitch;
  cudaMallocPitch(&d, &pitch, width * sizeof(float), height);
  std::vector<float> h(width * height);
  cudaMemcpy2D(d, pitch, h.data(), width * sizeof(float), width * sizeof(float), height, cudaMemcpyHostToDevice);
  cudaMemcpy2D(h.data(), width * sizeof(float), d, pitch, width * sizeof(float), height, cudaMemcpyDeviceToHost);
  cudaMemset2D(d, pitch, 0, width * sizeof(float), height);
  const size_t p = pitch;
  cudaMemcpy2D(d, p, h.data(), width * sizeof(float), width * sizeof(float), height, cudaMemcpyHostToDevice);
}

void correct_wrappers_and_structs(size_t n) {
  float *d = alloc_device(n);
  std::vector<float> h(n);
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  Mesh mesh;
  make_mesh(mesh, n);
  std::vector<float> pos(3 * n);
  cudaMemcpy(pos.data(), mesh.d_pos, 3 * n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(pos.data(), mesh.d_pos, n * 3 * sizeof(float), cudaMemcpyDeviceToHost);
  std::vector<int> idx(n);
  cudaMemcpy(mesh.d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  Particle *dp;
  cudaMalloc(&dp, n * sizeof(Particle));
  std::vector<Particle> hp(n);
  cudaMemcpy(dp, hp.data(), n * sizeof(Particle), cudaMemcpyHostToDevice);
}

void resized_vectors(size_t n) {
  float *d;
  cudaMalloc(&d, 2 * n * sizeof(float));
  std::vector<float> grown(n);
  grown.resize(2 * n);
  cudaMemcpy(grown.data(), d, 2 * n * sizeof(float), cudaMemcpyDeviceToHost);
  std::vector<float> pushed(n);
  pushed.push_back(0.f);
  cudaMemcpy(d, pushed.data(), (n + 1) * sizeof(float), cudaMemcpyHostToDevice);
  std::vector<float> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
}

void managed_and_pinned(size_t n) {
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  float *p;
  cudaHostAlloc(&p, n * sizeof(float), 0);
  cudaMemcpy(m, p, n * sizeof(float), cudaMemcpyDefault);
  memset(p, 0, n * sizeof(float));
}

void single_pointer_copy(float **table, size_t n) {
  float **d_table;
  cudaMalloc(&d_table, n * sizeof(float *));
  cudaMemcpy(d_table, table, n * sizeof(float *), cudaMemcpyHostToDevice);
}
