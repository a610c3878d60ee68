// cuda-api-outside-main: the order of construction decides whether a static
// object's destructor may still use CUDA. The runtime registers its own
// teardown when it is first used; statics are destroyed in the reverse order
// of their construction. An object constructed before the first CUDA call is
// destroyed after the teardown (its cudaFree fails with
// cudaErrorCudartUnloading); one constructed after it is destroyed before,
// and works only because of that order.
// RUN: %check_cuda_tidy_plugin %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <algorithm>
#include <cublas_v2.h>
#include <map>
#include <memory>
#include <vector>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.f;
}

// ---- Before the runtime: a global whose constructor does no CUDA work ------

struct Arena {
  float *base = nullptr;
  void reserve(size_t n) { CUDA_CHECK(cudaMalloc(&base, n)); }
  ~Arena() { cudaFree(base); }
};
Arena arena;
// CHECK-NOTES: :[[@LINE-3]]:14: warning: 'cudaFree' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
// CHECK-NOTES: :[[@LINE-2]]:7: note: 'arena' is constructed before the first CUDA call, so it is destroyed after the CUDA runtime's teardown

// ---- Before the runtime: a member of a global, through a smart pointer ------

struct Staging {
  float *d = nullptr;
  ~Staging() { cudaFree(d); }
};
struct Engine {
  std::unique_ptr<Staging> staging;
};
Engine engine;
// CHECK-NOTES: :[[@LINE-6]]:16: warning: 'cudaFree' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
// CHECK-NOTES: :[[@LINE-2]]:8: note: 'engine' is constructed before the first CUDA call, so it is destroyed after the CUDA runtime's teardown

// ---- Before the runtime: a static smart pointer filled later in main -------

struct Handles {
  cudaStream_t s = nullptr;
  Handles() { CUDA_CHECK(cudaStreamCreate(&s)); }
  ~Handles() { cudaStreamDestroy(s); }
};
std::unique_ptr<Handles> handles;
// CHECK-NOTES: :[[@LINE-3]]:16: warning: 'cudaStreamDestroy' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
// CHECK-NOTES: :[[@LINE-2]]:26: note: 'handles' is constructed before the first CUDA call, so it is destroyed after the CUDA runtime's teardown

// ---- Before the runtime: a device context as a static member --------------
// (Reduced from a real fix: a toolkit's device singleton, a static data
// member whose constructor only sets fields, destroyed its library handles
// and reset the device in its destructor; the fix removed the destructor.)

class DeviceContext {
public:
  static DeviceContext &get() { return instance_; }
  void init() {
    cublasCreate(&blas_);
    enabled_ = true;
  }
  ~DeviceContext() {
    if (enabled_) {
      cublasDestroy(blas_);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'cublasDestroy_v2' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
      // CHECK-NOTES: :[[@LINE+13]]:30: note: 'instance_' is constructed before the first CUDA call, so it is destroyed after the CUDA runtime's teardown
      cudaDeviceReset();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'cudaDeviceReset' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
      // CHECK-NOTES: :[[@LINE+10]]:30: note: 'instance_' is constructed before the first CUDA call, so it is destroyed after the CUDA runtime's teardown
    }
  }

private:
  DeviceContext() : enabled_(false) {}
  static DeviceContext instance_;
  cublasHandle_t blas_ = nullptr;
  bool enabled_;
};
DeviceContext DeviceContext::instance_;

// ---- Before the runtime: a caching pool, a class template -------------------

template <typename T> class BlockCache {
public:
  T *get(size_t n) {
    auto &list = free_[n];
    if (!list.empty()) {
      T *p = list.back();
      list.pop_back();
      return p;
    }
    T *p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
    return p;
  }
  void put(T *p, size_t n) { free_[n].push_back(p); }
  ~BlockCache() {
    for (auto &entry : free_)
      std::for_each(entry.second.begin(), entry.second.end(),
                    [](T *p) { cudaFree(p); });
    // CHECK-NOTES: :[[@LINE-1]]:32: warning: 'cudaFree' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
  }

private:
  std::map<size_t, std::vector<T *>> free_;
};

// A Meyers singleton that main reaches before any CUDA call.
BlockCache<float> &cache() {
  static BlockCache<float> instance;
  // CHECK-NOTES: :[[@LINE-1]]:28: note: 'instance' is constructed before the first CUDA call, so it is destroyed after the CUDA runtime's teardown
  return instance;
}

// ---- Negative: cleanup before main returns -----------------------------------

class Device {
public:
  static Device &get() {
    static Device d;
    return d;
  }
  void release() {
    CUDA_CHECK(cudaFree(buf_));
    buf_ = nullptr;
  }
  ~Device() { fprintf(stderr, "device released\n"); }

private:
  float *buf_ = nullptr;
};

struct Buffer {
  float *d = nullptr;
  ~Buffer() { CUDA_CHECK(cudaFree(d)); }
};
std::unique_ptr<Buffer> released_buffer;

int main() {
  BlockCache<float> &c = cache();
  // CHECK-NOTES: :[[@LINE-1]]:26: note: 'instance' is first constructed through this call, before main's first CUDA call
  // CHECK-NOTES: :[[@LINE-43]]:7: note: reached through this call
  float *d = c.get(1024);
  fill<<<4, 256>>>(d, 1024);
  CUDA_CHECK(cudaGetLastError());
  c.put(d, 1024);
  DeviceContext::get().init();
  arena.reserve(64);
  engine.staging = std::make_unique<Staging>();
  handles = std::make_unique<Handles>();
  released_buffer = std::make_unique<Buffer>();
  Device::get().release();
  released_buffer.reset();
  return 0;
}
