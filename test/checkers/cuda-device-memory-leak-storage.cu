// cuda-device-memory-leak: allocations into file-scope pointers and class
// members that no function of the translation unit frees.
// RUN: %check_cuda_tidy_plugin %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <memory>

__global__ void touch(float *p) { p[threadIdx.x] = 0.f; }
void registerBuffer(float *p);

// ---------------------------------------------------------------------------
// Positive cases.
// ---------------------------------------------------------------------------

float *g_weights = nullptr;

void initWeights(size_t n) {
  CUDA_CHECK(cudaMalloc(&g_weights, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: device memory allocated into file-scope variable 'g_weights' by 'cudaMalloc' is never freed [cuda-device-memory-leak]
  touch<<<1, 32>>>(g_weights);
}

class Workspace {
public:
  explicit Workspace(size_t n) {
    CUDA_CHECK(cudaMalloc(&scratch_, n * sizeof(float)));
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: device memory allocated into member 'scratch_' by 'cudaMalloc' is never freed [cuda-device-memory-leak]
  }
  void run() { touch<<<1, 32>>>(scratch_); }

private:
  float *scratch_ = nullptr;
};

class Lazy {
public:
  void init(size_t n) {
    cudaMalloc((void **)&buf_, n * sizeof(float));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: device memory allocated into member 'buf_' by 'cudaMalloc' is never freed [cuda-device-memory-leak]
  }
  ~Lazy() { buf_ = nullptr; }

private:
  float *buf_ = nullptr;
};

// ---------------------------------------------------------------------------
// Negative cases.
// ---------------------------------------------------------------------------

float *g_freed = nullptr;
float *g_escaped = nullptr;
static float *g_released = nullptr;

void initOthers(size_t n) {
  CUDA_CHECK(cudaMalloc(&g_freed, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&g_escaped, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&g_released, n * sizeof(float)));
  registerBuffer(g_escaped); // may keep it
}
void shutdownFreed() { CUDA_CHECK(cudaFree(g_freed)); }
void releaseVoid(void *p) { cudaFree(p); }
void shutdownReleased() { releaseVoid(g_released); }

class Owned {
public:
  explicit Owned(size_t n) { CUDA_CHECK(cudaMalloc(&d_, n * sizeof(float))); }
  ~Owned() { cudaFree(d_); }

private:
  float *d_ = nullptr;
};

class Released {
public:
  void init(size_t n) { CUDA_CHECK(cudaMalloc(&d_, n * sizeof(float))); }
  void release() {
    if (d_)
      cudaFree(d_);
    d_ = nullptr;
  }

private:
  float *d_ = nullptr;
};

struct DeviceDeleter {
  void operator()(float *p) const { cudaFree(p); }
};

class Handed {
public:
  explicit Handed(size_t n) {
    float *raw = nullptr;
    CUDA_CHECK(cudaMalloc(&raw_, n * sizeof(float)));
    owner_.reset(raw_);
    (void)raw;
  }

private:
  float *raw_ = nullptr;
  std::unique_ptr<float, DeviceDeleter> owner_;
};

// Declared methods defined elsewhere may free it.
class Partial {
public:
  explicit Partial(size_t n) { CUDA_CHECK(cudaMalloc(&d_, n * sizeof(float))); }
  ~Partial();

private:
  float *d_ = nullptr;
};

int main() {
  initWeights(256);
  initOthers(256);
  shutdownFreed();
  shutdownReleased();
  Workspace w(64);
  w.run();
  Lazy l;
  l.init(64);
  Owned o(64);
  Released r;
  r.init(64);
  r.release();
  Handed h(64);
  return 0;
}
