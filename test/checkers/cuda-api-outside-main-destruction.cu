// cuda-api-outside-main: destruction chains that reach CUDA after main
// returns (singletons, owned objects, smart pointers and their deleters,
// thread-local stores), and the idioms that are safe.
// RUN: %check_cuda_tidy_plugin %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cublas_v2.h>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

// ---- Positive: a singleton whose destructor tears the library down ---------

class Device {
public:
  static Device &instance() {
    static Device d;
    return d;
  }
  cublasHandle_t handle() const { return h; }

private:
  Device() { cublasCreate(&h); }
  ~Device() {
    cublasDestroy(h);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cublasDestroy_v2' is called after main returns; it works only because 'd' is constructed after the CUDA runtime is set up, and so destroyed before the runtime's teardown [cuda-api-outside-main]
    cudaDeviceReset();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceReset' is called after main returns; it works only because 'd' is constructed after the CUDA runtime is set up, and so destroyed before the runtime's teardown [cuda-api-outside-main]
  }
  cublasHandle_t h;
};

// ---- Positive: a static member pool that deletes what it owns --------------

struct Block {
  void *host = nullptr;
  ~Block() { cudaFreeHost(host); }
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaFreeHost' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
};

class Pool {
public:
  ~Pool() {
    for (Block *b : blocks)
      delete b;
  }
  static Pool shared;

private:
  std::vector<Block *> blocks;
};
Pool Pool::shared;

// ---- Positive: members owned through smart pointers ------------------------

struct Staging {
  float *d = nullptr;
  ~Staging() { cudaFree(d); }
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'cudaFree' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
};
struct Engine {
  std::unique_ptr<Staging> staging;
  std::vector<std::shared_ptr<Staging>> history;
};
Engine &engine() {
  static Engine e;
  return e;
}

// ---- Positive: namespace-scope smart pointers with deleters -----------------

struct DeviceDeleter {
  void operator()(float *p) const { cudaFree(p); }
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'cudaFree' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
};
std::unique_ptr<float, DeviceDeleter> weights;

std::unique_ptr<void, decltype(&cudaFreeHost)> pinned(nullptr, &cudaFreeHost);
// CHECK-MESSAGES: :[[@LINE-1]]:64: warning: 'cudaFreeHost' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]

std::shared_ptr<float> managed;
void setupManaged(size_t n) {
  float *p = nullptr;
  CUDA_CHECK(cudaMallocManaged(&p, n));
  managed = std::shared_ptr<float>(p, [](float *q) { cudaFree(q); });
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: 'cudaFree' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
}

// ---- Positive: a thread-local store whose entries are deleted at exit ------

struct Workspace {
  void *d = nullptr;
  ~Workspace() { cuMemFree(reinterpret_cast<CUdeviceptr>(d)); }
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'cuMemFree_v2' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
};
thread_local std::unordered_map<int, std::unique_ptr<Workspace>> workspaces;

// ---- Negative: destructors that expect the runtime to be unloading ---------

struct TolerantPinned {
  void *p = nullptr;
  ~TolerantPinned() {
    cudaError_t e = cudaFreeHost(p);
    if (e == cudaErrorCudartUnloading)
      return; // The runtime released everything already.
    if (e != cudaSuccess)
      fprintf(stderr, "cudaFreeHost: %s\n", cudaGetErrorString(e));
  }
};
TolerantPinned tolerant;

struct TolerantDriver {
  CUdeviceptr p = 0;
  ~TolerantDriver() {
    CUresult r = cuMemFree(p);
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_DEINITIALIZED)
      abort();
  }
};
static TolerantDriver tolerant_driver;

// ---- Negative: a singleton released by a shutdown() that main calls --------

class Context {
public:
  static Context &get() {
    static Context c;
    return c;
  }
  void shutdown() {
    CUDA_CHECK(cudaFree(scratch));
    scratch = nullptr;
  }
  ~Context() { fprintf(stderr, "context released\n"); }

private:
  float *scratch = nullptr;
};

// ---- Negative: RAII wrappers that main releases before it returns ----------

struct Buffer {
  float *d = nullptr;
  ~Buffer() { CUDA_CHECK(cudaFree(d)); }
};
std::unique_ptr<Buffer> buffer;
std::shared_ptr<float> scratch_area;

// ---- Negative: what destruction does not reach -----------------------------

std::vector<Block *> borrowed;        // Pointers are not owned.
std::shared_ptr<float> plain_host;    // Default deleter of a float.
std::map<int, std::weak_ptr<Staging>> observers; // weak_ptr owns nothing.

int main() {
  buffer = std::make_unique<Buffer>();
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 64));
  scratch_area.reset(d, [](float *q) { cudaFree(q); });
  Context::get().shutdown();
  scratch_area.reset();
  buffer.reset();
  return 0;
}
