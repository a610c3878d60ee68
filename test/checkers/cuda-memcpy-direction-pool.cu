// cuda-memcpy-direction: blocks from a caching pool allocator (a block
// recycled from a free list, or a fresh cudaMalloc) are device memory; a
// kind chosen in the call by a condition must fit the sides in both arms.
// RUN: %check_cuda_tidy_plugin %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdlib>
#include <map>
#include <vector>

// A caching allocator: the free list holds blocks it handed out before.
class DevicePool {
public:
  void *allocate(size_t bytes) {
    auto it = free_.find(bytes);
    if (it != free_.end() && !it->second.empty()) {
      void *block = it->second.back();
      it->second.pop_back();
      return block;
    }
    void *fresh = nullptr;
    CUDA_CHECK(cudaMalloc(&fresh, bytes));
    return fresh;
  }
  void release(void *p, size_t bytes) { free_[bytes].push_back(p); }

private:
  std::map<size_t, std::vector<void *>> free_;
};

// One return, its local set from the free list or by cudaMalloc.
std::vector<float *> g_spare;
float *takeBlock(size_t n) {
  float *p = nullptr;
  if (!g_spare.empty()) {
    p = g_spare.back();
    g_spare.pop_back();
  } else {
    CUDA_CHECK(cudaMalloc(&p, n * sizeof(float)));
  }
  return p;
}

// ---- Positive ---------------------------------------------------------------

void uploadFromPool(DevicePool &pool, float *out, size_t n, bool toHost) {
  float *staged = static_cast<float *>(pool.allocate(n * sizeof(float)));
  float *h = static_cast<float *>(malloc(n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(h, staged, n * sizeof(float), cudaMemcpyHostToDevice));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'staged' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-NOTES: :[[@LINE-3]]:35: note: host memory allocated here by 'malloc'
  float *block = takeBlock(n);
  CUDA_CHECK(cudaMemcpy(out, block, n * sizeof(float),
                        toHost ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice));
  // CHECK-NOTES: :[[@LINE-2]]:14: warning: 'cudaMemcpy' with kind cudaMemcpyHostToDevice expects host memory as its source, but 'block' is device memory [cuda-memcpy-direction]
  // CHECK-NOTES: :[[@LINE-2]]:34: note: the kind is cudaMemcpyHostToDevice when the condition is true
  pool.release(staged, n * sizeof(float));
  free(h);
}

// ---- Negative ---------------------------------------------------------------

// Both arms fit: the destination is chosen with the kind.
void downloadEither(DevicePool &pool, float *h, size_t n, bool keep) {
  float *block = static_cast<float *>(pool.allocate(n * sizeof(float)));
  float *d2 = takeBlock(n);
  CUDA_CHECK(cudaMemcpy(keep ? d2 : h, block, n * sizeof(float),
                        keep ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h, block, n * sizeof(float), cudaMemcpyDeviceToHost));
}

// A helper whose flag says where its parameter points: trusted.
void copyIn(float *dst, const float *src, size_t n, bool srcOnHost) {
  CUDA_CHECK(cudaMemcpy(dst, src, n * sizeof(float),
                        srcOnHost ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice));
}
void callers(size_t n) {
  float *d = takeBlock(n);
  float *e = takeBlock(n);
  copyIn(d, e, n, false);
}

// A pool that may hand out host memory is not a device pool.
std::vector<float *> g_mixed;
float *takeMixed(size_t n, bool onHost) {
  if (!g_mixed.empty()) {
    float *p = g_mixed.back();
    g_mixed.pop_back();
    return p;
  }
  if (onHost)
    return static_cast<float *>(malloc(n * sizeof(float)));
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  return d;
}
void copyMixed(float *h, size_t n) {
  float *p = takeMixed(n, false);
  CUDA_CHECK(cudaMemcpy(p, h, n * sizeof(float), cudaMemcpyHostToDevice));
}
