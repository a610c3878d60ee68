// cuda-api-outside-main: CUDA calls and launches that run before main starts
// or after it returns.
// RUN: %check_cuda_tidy_plugin %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdlib>
#include <vector>

__global__ void zero(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 0;
}
float *d_scratch_final;

// ---- Positive: destructors of static objects --------------------------------

struct DevicePool {
  float *base = nullptr;
  ~DevicePool() { cudaFree(base); }
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'cudaFree' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
};
DevicePool global_pool;

struct StreamHolder {
  cudaStream_t s;
  ~StreamHolder() { release(); }
  void release() { cudaStreamDestroy(s); }
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'cudaStreamDestroy' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
};
namespace cache {
StreamHolder streams[2];
}

struct EventHolder {
  cudaEvent_t e;
  ~EventHolder() { CUDA_CHECK(cudaEventDestroy(e)); }
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'cudaEventDestroy' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
};
struct Registry {
  static EventHolder timer;
};
EventHolder Registry::timer;

struct Scratch {
  float *p = nullptr;
  ~Scratch() { zero<<<1, 1>>>(p, 1); }
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: kernel 'zero' is launched after main returns; it works only because 's' is constructed after the CUDA runtime is set up, and so destroyed before the runtime's teardown [cuda-api-outside-main]
};
Scratch &scratch() {
  static Scratch s;
  return s;
}

struct HostMem {
  void *p = nullptr;
  ~HostMem() { cuMemFreeHost(p); }
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'cuMemFreeHost' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
};
thread_local HostMem per_thread_staging;

struct Member {
  float *d = nullptr;
  ~Member() { cudaFreeHost(d); }
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'cudaFreeHost' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
};
struct Outer {
  Member m;
};
Outer outer;

struct BaseRelease {
  void *h = nullptr;
  ~BaseRelease() { cuMemFree(reinterpret_cast<CUdeviceptr>(h)); }
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'cuMemFree_v2' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
};
struct DerivedRelease : BaseRelease {};
static DerivedRelease derived_release;

void final_launch() { zero<<<1, 32>>>(d_scratch_final, 32); }
// CHECK-MESSAGES: :[[@LINE-1]]:23: warning: kernel 'zero' is launched after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
void flush_all() { final_launch(); }

// ---- Positive: initializers that run before main ----------------------------

int query_devices() {
  int n = 0;
  cudaGetDeviceCount(&n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaGetDeviceCount' is called before main starts, when the CUDA runtime may not be set up [cuda-api-outside-main]
  return n;
}
int device_count = query_devices();

struct Arena {
  float *base;
  Arena() { cudaMalloc(&base, 1 << 20); }
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'cudaMalloc' is called before main starts, when the CUDA runtime may not be set up [cuda-api-outside-main]
};
Arena arena;

// Copy-initialized from a temporary (elided): the destructor runs after main,
// not at the end of the initializer (HeCBench's mnist-cuda).
struct Layer {
  float *w = nullptr;
  explicit Layer(int n) {}
  ~Layer() { cudaFree(w); }
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaFree' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
};
static Layer layer = Layer(4);

// ---- Positive: exit handlers ---------------------------------------------------

float *d_buffer;
void release_buffer() { cudaFree(d_buffer); }
// CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'cudaFree' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
void reset_device() { cudaDeviceReset(); }
// CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'cudaDeviceReset' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
void sync_quick() { cudaDeviceSynchronize(); }
// CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'cudaDeviceSynchronize' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]

void register_handlers() {
  atexit(release_buffer);
  std::atexit(&reset_device);
  at_quick_exit(sync_quick);
  atexit(flush_all);
  atexit([] { cudaStreamSynchronize(0); });
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'cudaStreamSynchronize' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
}

// ---- Positive: constructor and destructor attributes ----------------------

__attribute__((constructor)) void warm_up() { cudaFree(0); }
// CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'cudaFree' is called before main starts, when the CUDA runtime may not be set up [cuda-api-outside-main]
__attribute__((destructor)) void tear_down() { cudaDeviceReset(); }
// CHECK-MESSAGES: :[[@LINE-1]]:48: warning: 'cudaDeviceReset' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]

// ---- Negative: CUDA inside main and what it calls -------------------------

struct Buffer {
  float *d = nullptr;
  explicit Buffer(size_t n) { CUDA_CHECK(cudaMalloc(&d, n * sizeof(float))); }
  ~Buffer() { CUDA_CHECK(cudaFree(d)); }
};

struct Lazy {
  float *d = nullptr;
  Lazy() { CUDA_CHECK(cudaMalloc(&d, 64)); }
};
Lazy &lazy() {
  static Lazy l; // constructed inside main, never destroyed with CUDA
  return l;
}

// A channel descriptor is filled in without the runtime (cuda-samples'
// imageDenoising).
cudaChannelFormatDesc uchar4_desc = cudaCreateChannelDesc<uchar4>();
cudaChannelFormatDesc float_desc =
    cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);

struct Plain {
  int n = 4;
  float scale = 1;
};
Plain plain_config;
static Plain *plain_ptr = new Plain();
const char *names[] = {"a", "b"};
std::vector<int> host_sizes = {1, 2, 3};

struct NoCudaDtor {
  std::vector<float> host;
  ~NoCudaDtor() { host.clear(); }
};
NoCudaDtor host_only;

struct Logger {
  ~Logger() { fprintf(stderr, "%s\n", cudaGetErrorString(cudaSuccess)); }
};
Logger logger;

struct Deferred {
  void (*fn)() = nullptr;
  ~Deferred() {}
};
Deferred deferred;

void cleanup_host() { fflush(stdout); }

struct QuietStatic {
  ~QuietStatic() { printf("bye\n"); }
};

void allocate_in_main(float **p) { CUDA_CHECK(cudaMalloc(p, 64)); }

struct Guard {
  float *d = nullptr;
  ~Guard() { free(d); }
};
Guard host_guard;

__device__ float device_state[4];
__managed__ float managed_counter;

void run(int n) {
  Buffer b(n);
  zero<<<(n + 255) / 256, 256>>>(b.d, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  auto finish = [] { cudaDeviceSynchronize(); };
  finish();
}

int main() {
  atexit(cleanup_host);
  run(1024);
  lazy();
  static QuietStatic quiet;
  float *p;
  allocate_in_main(&p);
  CUDA_CHECK(cudaFree(p));
  CUDA_CHECK(cudaFree(d_buffer));
  return 0;
}
