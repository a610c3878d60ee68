// cuda-memcpy-direction: copy kinds chosen at run time, and pointers kept
// in class members and file-scope variables.
// RUN: %check_cuda_tidy_plugin %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdlib>

// ---- Positive: a kind chosen at run time, with the sides swapped ----------

void swappedTernary(size_t n, bool upload) {
  float *h = static_cast<float *>(malloc(n * sizeof(float)));
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  cudaMemcpyKind kind = upload ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
  if (upload)
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), kind));
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'd' is device memory and the source 'h' is host memory, but the kind is cudaMemcpyDeviceToHost [cuda-memcpy-direction]
    // CHECK-NOTES: :[[@LINE-4]]:3: note: 'kind' is set to cudaMemcpyDeviceToHost here
    // CHECK-NOTES: :[[@LINE-6]]:14: note: device memory allocated here by 'cudaMalloc'
    // CHECK-NOTES: :[[@LINE-9]]:35: note: host memory allocated here by 'malloc'
  else
    CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), kind));
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
    // CHECK-NOTES: :[[@LINE-10]]:3: note: 'kind' is set to cudaMemcpyHostToDevice here
    // CHECK-NOTES: :[[@LINE-14]]:35: note: host memory allocated here by 'malloc'
    // CHECK-NOTES: :[[@LINE-13]]:14: note: device memory allocated here by 'cudaMalloc'
  CUDA_CHECK(cudaFree(d));
  free(h);
}

// The kind set in one branch, the copy made on every path.
void kindFromBranch(size_t n, int mode) {
  float *h = new float[n];
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  cudaMemcpyKind kind;
  if (mode == 0)
    kind = cudaMemcpyHostToDevice;
  else
    kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), kind));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'kind' is set to cudaMemcpyHostToDevice here
  // CHECK-NOTES: :[[@LINE-11]]:14: note: host memory allocated here
  // CHECK-NOTES: :[[@LINE-10]]:14: note: device memory allocated here by 'cudaMalloc'
  CUDA_CHECK(cudaFree(d));
  delete[] h;
}

// ---- Positive: a member pointer that every method sees as device memory ---

class Number {
public:
  void reinit(int n) {
    n_ = n;
    CUDA_CHECK(cudaFree(val));
    CUDA_CHECK(cudaMalloc(&val, n * sizeof(double)));
  }
  void print() const {
    double *h = new double[n_];
    CUDA_CHECK(cudaMemcpy(h, val, n_ * sizeof(double), cudaMemcpyHostToDevice));
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'val' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
    // CHECK-NOTES: :[[@LINE-3]]:17: note: host memory allocated here
    // CHECK-NOTES: :[[@LINE-7]]:16: note: device memory allocated here by 'cudaMalloc'
    delete[] h;
  }
  ~Number() { cudaFree(val); }

private:
  double *val = nullptr;
  int n_ = 0;
};

// ---- Positive: a file-scope pointer allocated in one function only --------

static float *d_table = nullptr;

void initTable(size_t n) { CUDA_CHECK(cudaMalloc(&d_table, n * sizeof(float))); }

void readTable(float *out, size_t n) {
  CUDA_CHECK(cudaMemcpy(d_table, out, n * sizeof(float), cudaMemcpyDeviceToHost));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'cudaMemcpy' with kind cudaMemcpyDeviceToHost expects host memory as its destination, but 'd_table' is device memory [cuda-memcpy-direction]
  // CHECK-NOTES: :[[@LINE-5]]:39: note: device memory allocated here by 'cudaMalloc'
}

// ---- Negative: kinds that agree with the sides on every path --------------

void correlatedTernary(size_t n, bool upload) {
  float *h = static_cast<float *>(malloc(n * sizeof(float)));
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  cudaMemcpyKind kind = upload ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  if (upload)
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), kind));
  else
    CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), kind));
  cudaMemcpyKind any = cudaMemcpyDefault;
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), any));
  CUDA_CHECK(cudaFree(d));
  free(h);
}

// Sides chosen with the kind: no side is known.
void sidesWithKind(size_t n, bool upload) {
  float *h = static_cast<float *>(malloc(n * sizeof(float)));
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  float *dst = upload ? d : h;
  float *src = upload ? h : d;
  cudaMemcpyKind kind = upload ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy(dst, src, n * sizeof(float), kind));
  CUDA_CHECK(cudaFree(d));
  free(h);
}

// A kind the caller gives, and one stored by a switch on the same variable.
void fromCaller(float *h, float *d, size_t n, cudaMemcpyKind kind) {
  CUDA_CHECK(cudaMemcpy(h, d, n, kind));
}
void switchKinds(size_t n, int direction) {
  float *h = new float[n];
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  cudaMemcpyKind kind = cudaMemcpyDefault;
  switch (direction) {
  case 0:
    kind = cudaMemcpyHostToDevice;
    break;
  case 1:
    kind = cudaMemcpyDeviceToHost;
    break;
  }
  switch (direction) {
  case 0:
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), kind));
    break;
  case 1:
    CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), kind));
    break;
  default:
    break;
  }
  CUDA_CHECK(cudaFree(d));
  delete[] h;
}

// ---- Negative: members and globals that hold more than one space ----------

class Staging {
public:
  void useDevice(size_t n) { CUDA_CHECK(cudaMalloc(&buf, n)); }
  void useHost(size_t n) { buf = static_cast<char *>(malloc(n)); }
  void fetch(char *out, size_t n) {
    CUDA_CHECK(cudaMemcpy(out, buf, n, cudaMemcpyHostToHost));
  }

private:
  char *buf = nullptr;
};

struct Open {
  float *data = nullptr; // Assigned from outside the class.
  void alloc(size_t n) { CUDA_CHECK(cudaMalloc(&data, n * sizeof(float))); }
  void copyIn(const float *h, size_t n) {
    CUDA_CHECK(cudaMemcpy(data, h, n * sizeof(float), cudaMemcpyHostToHost));
  }
};
void reuse(Open &o, float *host) { o.data = host; }

void allocate(float **p, size_t n);
static float *g_opaque = nullptr;
void initOpaque(size_t n) {
  allocate(&g_opaque, n);
  CUDA_CHECK(cudaMalloc(&g_opaque, n));
}
void readOpaque(float *out, size_t n) {
  CUDA_CHECK(cudaMemcpy(out, g_opaque, n, cudaMemcpyHostToHost));
}
