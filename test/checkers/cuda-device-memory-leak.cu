// RUN: %check_cuda_tidy_plugin %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <memory>
#include <vector>
#include <thrust/device_ptr.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

bool validate(const float *h, size_t n);

// ---------------------------------------------------------------------------
// Positive cases.
// ---------------------------------------------------------------------------

// The classic: an error path returns early and skips the cleanup.
int errorPathLeak(const float *h, size_t n) {
  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'd_out' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  if (cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice) !=
      cudaSuccess) {
    cudaFree(d_in);
    return -1;
    // CHECK-NOTES: :[[@LINE-1]]:5: note: 'd_out' still holds it when the function returns here
  }
  scale<<<1, 256>>>(d_in, (int)n);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return 0;
}

int validationFailure(const float *h, size_t n) {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  if (!validate(h, n))
    return 1;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: 'd' still holds it when the function returns here
  CUDA_CHECK(cudaFree(d));
  return 0;
}

void neverFreed(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  scale<<<1, 32>>>(d, 32);
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'd' still holds it when the function returns here

// Allocation inside the loop, free after it: every iteration but the last
// leaks.
void allocInLoop(int steps, size_t n) {
  float *tmp = nullptr;
  for (int s = 0; s < steps; ++s) {
    CUDA_CHECK(cudaMalloc(&tmp, n));
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: device memory allocated into 'tmp' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    // CHECK-NOTES: :[[@LINE-2]]:16: note: 'tmp' is overwritten here while it holds the only reference
    scale<<<1, 32>>>(tmp, 32);
  }
  CUDA_CHECK(cudaFree(tmp));
}

void declaredInLoop(int steps, size_t n) {
  for (int s = 0; s < steps; ++s) {
    float *scratch;
    CUDA_CHECK(cudaMalloc(&scratch, n));
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: device memory allocated into 'scratch' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    scale<<<1, 32>>>(scratch, 32);
  }
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'scratch' still holds it when the function returns here

// The pointer is overwritten while it holds the only reference.
void overwritten(size_t n) {
  float *buf;
  CUDA_CHECK(cudaMalloc(&buf, n));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'buf' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  CUDA_CHECK(cudaMalloc(&buf, 2 * n));
  // CHECK-NOTES: :[[@LINE-1]]:14: note: 'buf' is overwritten here while it holds the only reference
  CUDA_CHECK(cudaFree(buf));
}

void overwrittenByAssignment(size_t n, float *other) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'p' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  p = other;
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'p' is overwritten here while it holds the only reference
  scale<<<1, 32>>>(p, 32);
}

// Allocated in both branches, freed in one.
void freedInOneBranch(bool big, size_t n) {
  float *p;
  if (big) {
    CUDA_CHECK(cudaMalloc(&p, 4 * n));
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: device memory allocated into 'p' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    scale<<<1, 32>>>(p, 32);
    return;
    // CHECK-NOTES: :[[@LINE-1]]:5: note: 'p' still holds it when the function returns here
  } else {
    CUDA_CHECK(cudaMalloc(&p, n));
    scale<<<1, 32>>>(p, 32);
  }
  CUDA_CHECK(cudaFree(p));
}

// goto cleanup that misses one buffer.
int gotoCleanupMissesOne(size_t n) {
  float *a = nullptr, *b = nullptr;
  int rc = 1;
  if (cudaMalloc(&a, n) != cudaSuccess)
    goto done;
  if (cudaMalloc(&b, n) != cudaSuccess)
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: device memory allocated into 'b' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    goto done;
  rc = 0;
done:
  cudaFree(a);
  return rc;
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'b' still holds it when the function returns here
}

// The second allocation fails: the first one is lost.
int secondAllocationFails(size_t n) {
  float *a, *b;
  if (cudaMalloc(&a, n) != cudaSuccess)
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: device memory allocated into 'a' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    return 1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return 1;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: 'a' still holds it when the function returns here
  cudaFree(a);
  cudaFree(b);
  return 0;
}

void pinnedLeak(size_t n) {
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: pinned host memory allocated into 'h' by 'cudaMallocHost' is not freed on every path [cuda-device-memory-leak]
  h[0] = 1.0f;
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'h' still holds it when the function returns here

void managedLeak(size_t n, bool early) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: managed memory allocated into 'm' by 'cudaMallocManaged' is not freed on every path [cuda-device-memory-leak]
  if (early)
    return;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: 'm' still holds it when the function returns here
  CUDA_CHECK(cudaFree(m));
}

void pitchedLeak(size_t w, size_t h) {
  float *img;
  size_t pitch;
  CUDA_CHECK(cudaMallocPitch(&img, &pitch, w * sizeof(float), h));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'img' by 'cudaMallocPitch' is not freed on every path [cuda-device-memory-leak]
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'img' still holds it when the function returns here

void asyncLeak(size_t n, cudaStream_t s) {
  float *d;
  CUDA_CHECK(cudaMallocAsync(&d, n, s));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'cudaMallocAsync' is not freed on every path [cuda-device-memory-leak]
  scale<<<1, 32, 0, s>>>(d, 32);
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'd' still holds it when the function returns here

// An allocation helper in this file: its result must be freed.
static float *allocDevice(size_t n) {
  float *p = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess)
    return nullptr;
  return p;
}

void helperResultLeaked(size_t n) {
  float *d = allocDevice(n);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'allocDevice' is not freed on every path [cuda-device-memory-leak]
  if (!d)
    return;
  scale<<<1, 32>>>(d, 32);
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'd' still holds it when the function returns here

// A helper that only reads its argument does not take ownership.
static void launchOn(float *p, int n) { scale<<<1, 32>>>(p, n); }

void readOnlyHelperDoesNotOwn(size_t n) {
  float *d;
  CUDA_CHECK(cudaMalloc(&d, n));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  launchOn(d, 32);
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'd' still holds it when the function returns here

void streamLeak() {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: stream allocated into 's' by 'cudaStreamCreate' is not destroyed on every path [cuda-device-memory-leak]
  CUDA_CHECK(cudaStreamSynchronize(s));
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 's' still holds it when the function returns here

float timeIt(bool skip) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: event allocated into 'stop' by 'cudaEventCreate' is not destroyed on every path [cuda-device-memory-leak]
  if (skip) {
    cudaEventDestroy(start);
    return 0.0f;
    // CHECK-NOTES: :[[@LINE-1]]:5: note: 'stop' still holds it when the function returns here
  }
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

// The copy through an alias is followed: both names are overwritten.
void aliasLost(size_t n, float *other) {
  float *a;
  CUDA_CHECK(cudaMalloc(&a, n));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'a' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  float *b = a;
  a = other;
  b = other;
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'b' is overwritten here while it holds the only reference
  scale<<<1, 32>>>(b, 32);
}

template <typename T> void typedLeak(size_t n) {
  T *p;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'p' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'p' still holds it when the function returns here
template void typedLeak<float>(size_t);
template void typedLeak<double>(size_t);

// A status that is not the allocation's own: the buffer is lost when the
// copy fails.
#define RETURN_IF_FAILED(call)                                                 \
  if ((call) != cudaSuccess)                                                   \
    return -1;

int macroReturnsOnCopyFailure(const float *h, size_t n) {
  float *d;
  RETURN_IF_FAILED(cudaMalloc(&d, n));
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  RETURN_IF_FAILED(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'd' still holds it when the function returns here
  cudaFree(d);
  return 0;
}

int copyStatusVariable(const float *h, size_t n) {
  float *d;
  CUDA_CHECK(cudaMalloc(&d, n));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  cudaError_t err = cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
  if (err != cudaSuccess)
    return 1;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: 'd' still holds it when the function returns here
  cudaFree(d);
  return 0;
}

void poolLeak(size_t n, cudaMemPool_t pool, cudaStream_t s) {
  float *d;
  CUDA_CHECK(cudaMallocFromPoolAsync(&d, n, pool, s));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'cudaMallocFromPoolAsync' is not freed on every path [cuda-device-memory-leak]
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'd' still holds it when the function returns here

void driverApiLeak(size_t n) {
  CUdeviceptr d;
  CU_CHECK(cuMemAlloc(&d, n));
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: device memory allocated into 'd' by 'cuMemAlloc_v2' is not freed on every path [cuda-device-memory-leak]
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: 'd' still holds it when the function returns here

struct Model {
  float *weights = nullptr;
  void forward(size_t n) {
    float *activations;
    CUDA_CHECK(cudaMalloc(&activations, n));
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: device memory allocated into 'activations' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    scale<<<1, 32>>>(activations, 32);
  }
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'activations' still holds it when the function returns here
};

void driverApiFreed(size_t n) {
  CUdeviceptr d;
  CU_CHECK(cuMemAlloc(&d, n));
  CU_CHECK(cuMemFree(d));
}

// main is checked too: compute-sanitizer reports what main leaves behind.
int main() {
  float *d;
  CUDA_CHECK(cudaMalloc(&d, 1024));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  scale<<<1, 256>>>(d, 256);
  CUDA_CHECK(cudaDeviceSynchronize());
  return 0;
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'd' still holds it when the function returns here
}

// ---------------------------------------------------------------------------
// Negative cases.
// ---------------------------------------------------------------------------

void freedOnEveryPath(const float *h, size_t n) {
  float *d;
  CUDA_CHECK(cudaMalloc(&d, n));
  if (!validate(h, n)) {
    cudaFree(d);
    return;
  }
  scale<<<1, 32>>>(d, 32);
  CUDA_CHECK(cudaFree(d));
}

// The allocation's own status says it failed: nothing to free.
int failedAllocationReturns(size_t n) {
  float *d;
  cudaError_t err = cudaMalloc(&d, n);
  if (err != cudaSuccess) {
    fprintf(stderr, "%s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaFree(d);
  return 0;
}

int failedAllocationDirect(size_t n) {
  float *d;
  if (cudaMalloc(&d, n))
    return 1;
  cudaFree(d);
  return 0;
}

void exitsOnError(size_t n, bool bad) {
  float *d;
  CUDA_CHECK(cudaMalloc(&d, n));
  if (bad) {
    fprintf(stderr, "bad input\n");
    exit(EXIT_FAILURE);
  }
  CUDA_CHECK(cudaFree(d));
}

int gotoCleanup(size_t n) {
  float *a = nullptr, *b = nullptr;
  int rc = 1;
  if (cudaMalloc(&a, n) != cudaSuccess)
    goto cleanup;
  if (cudaMalloc(&b, n) != cudaSuccess)
    goto cleanup;
  scale<<<1, 32>>>(a, 32);
  rc = 0;
cleanup:
  if (a)
    cudaFree(a);
  if (b)
    cudaFree(b);
  return rc;
}

void loopAllocFree(int steps, size_t n) {
  for (int s = 0; s < steps; ++s) {
    float *tmp;
    CUDA_CHECK(cudaMalloc(&tmp, n));
    scale<<<1, 32>>>(tmp, 32);
    CUDA_CHECK(cudaFree(tmp));
  }
}

void reallocInLoop(int steps, size_t n) {
  float *buf = nullptr;
  for (int s = 0; s < steps; ++s) {
    if (buf)
      CUDA_CHECK(cudaFree(buf));
    CUDA_CHECK(cudaMalloc(&buf, n * (s + 1)));
  }
  cudaFree(buf);
}

// Returned to the caller: the caller owns it.
float *returnedToCaller(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  return p;
}

void callerFrees(size_t n) {
  float *d = allocDevice(n);
  scale<<<1, 32>>>(d, 32);
  cudaFree(d);
}

// Stored where it outlives the function.
float *g_buffer;
struct Buffers {
  float *in;
  float *out;
};

void storedInGlobal(size_t n) { CUDA_CHECK(cudaMalloc(&g_buffer, n)); }

void storedThroughGlobal(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  g_buffer = p;
}

void storedInParamStruct(Buffers *b, size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  b->in = p;
  CUDA_CHECK(cudaMalloc(&b->out, n));
}

void outParameter(float **out, size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  *out = p;
}

void intoContainer(std::vector<float *> &pool, size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  pool.push_back(p);
}

Buffers makeBuffers(size_t n) {
  float *in, *out;
  CUDA_CHECK(cudaMalloc(&in, n));
  CUDA_CHECK(cudaMalloc(&out, n));
  return Buffers{in, out};
}

// Class members freed in the destructor.
class Workspace {
public:
  explicit Workspace(size_t n) {
    CUDA_CHECK(cudaMalloc(&scratch_, n));
    CUDA_CHECK(cudaStreamCreate(&stream_));
  }
  ~Workspace() {
    cudaFree(scratch_);
    cudaStreamDestroy(stream_);
  }
  void resize(size_t n) {
    float *bigger;
    CUDA_CHECK(cudaMalloc(&bigger, n));
    cudaFree(scratch_);
    scratch_ = bigger;
  }

private:
  float *scratch_ = nullptr;
  cudaStream_t stream_ = nullptr;
};

// RAII owners.
struct CudaFree {
  void operator()(void *p) const { cudaFree(p); }
};

std::unique_ptr<float, CudaFree> ownedByUniquePtr(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  return std::unique_ptr<float, CudaFree>(p);
}

void sharedOwner(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  std::shared_ptr<float> owner(p, [](float *q) { cudaFree(q); });
  scale<<<1, 32>>>(owner.get(), 32);
}

void handedToThrust(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  thrust::device_ptr<float> dp(p);
  (void)dp;
}

// A helper in this file that frees its argument.
static void releaseBuffer(float *p) { CUDA_CHECK(cudaFree(p)); }

void freedByHelper(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  scale<<<1, 32>>>(p, 32);
  releaseBuffer(p);
}

// A function defined elsewhere may keep the pointer.
void registerBuffer(float *p);
void passedToUnknown(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  registerBuffer(p);
}

void deviceReset(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  scale<<<1, 32>>>(p, 32);
  CUDA_CHECK(cudaDeviceReset());
}

void freedAsync(size_t n, cudaStream_t s) {
  float *p;
  CUDA_CHECK(cudaMallocAsync(&p, n, s));
  scale<<<1, 32, 0, s>>>(p, 32);
  CUDA_CHECK(cudaFreeAsync(p, s));
}

void pinnedFreed(size_t n) {
  float *h;
  CUDA_CHECK(cudaHostAlloc(&h, n, cudaHostAllocMapped));
  h[0] = 0.0f;
  CUDA_CHECK(cudaFreeHost(h));
}

void aliasFreed(size_t n) {
  float *a;
  CUDA_CHECK(cudaMalloc(&a, n));
  float *b = a;
  a = nullptr;
  cudaFree(b);
}

void nullCheckBeforeFree(size_t n, bool use) {
  float *p = nullptr;
  if (use)
    CUDA_CHECK(cudaMalloc(&p, n));
  if (p != nullptr)
    cudaFree(p);
}

void capturedByLambda(size_t n) {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, n));
  auto cleanup = [p] { cudaFree(p); };
  cleanup();
}

void eventsDestroyed() {
  cudaEvent_t e;
  CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventRecord(e));
  CUDA_CHECK(cudaEventSynchronize(e));
  CUDA_CHECK(cudaEventDestroy(e));
}

// Host memory is not this check's business.
void hostMalloc(size_t n) {
  float *h = (float *)malloc(n);
  h[0] = 1.0f;
}
