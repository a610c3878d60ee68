// Smooths a batch of signals on the GPU with a moving average. Device blocks
// come from a caching allocator: a block handed back goes on a free list by
// size and is recycled by the next request of that size. The cache is a
// namespace-scope object that frees the blocks it still holds in its
// destructor, and reports a failed cudaFree.
//
// cuda-tidy sample for cuda-api-outside-main (bug form): the cache is
// constructed before the program's first CUDA call (its constructor does no
// CUDA work), so the CUDA runtime registers its teardown after the cache's
// destructor was registered, and tears down first. The cache's cudaFree
// then fails with cudaErrorCudartUnloading.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <map>
#include <unistd.h>
#include <vector>

#define CUDA_CHECK(call)                                                     \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n", __FILE__, \
                   __LINE__, #call, cudaGetErrorString(err_));               \
      std::exit(EXIT_FAILURE);                                               \
    }                                                                        \
  } while (0)

namespace {

constexpr int kSignals = 64;
constexpr int kLength = 1 << 14;
constexpr int kWindow = 5;

template <typename T> class BlockCache {
public:
  T *acquire(size_t count) {
    std::vector<T *> &list = free_[count];
    if (!list.empty()) {
      T *block = list.back();
      list.pop_back();
      return block;
    }
    T *block = nullptr;
    CUDA_CHECK(cudaMalloc(&block, count * sizeof(T)));
    return block;
  }
  void recycle(T *block, size_t count) { free_[count].push_back(block); }
  ~BlockCache() {
    for (auto &entry : free_)
      std::for_each(entry.second.begin(), entry.second.end(), [](T *block) {
        cudaError_t err = cudaFree(block);
        if (err != cudaSuccess) {
          std::fprintf(stderr, "FAILED: ~BlockCache: cudaFree: %s (%d)\n",
                       cudaGetErrorName(err), static_cast<int>(err));
          _exit(1);
        }
      });
  }

private:
  std::map<size_t, std::vector<T *>> free_;
};

BlockCache<float> cache;

__global__ void movingAverage(const float *in, float *out, int n, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float sum = 0.f;
  int count = 0;
  for (int k = i - w / 2; k <= i + w / 2; ++k)
    if (k >= 0 && k < n) {
      sum += in[k];
      ++count;
    }
  out[i] = sum / count;
}

float reference(const std::vector<float> &h, int i) {
  float sum = 0.f;
  int count = 0;
  for (int k = i - kWindow / 2; k <= i + kWindow / 2; ++k)
    if (k >= 0 && k < kLength) {
      sum += h[k];
      ++count;
    }
  return sum / count;
}

} // namespace

int main() {
  std::vector<float> h(kLength), out(kLength);
  int wrong = 0;
  for (int s = 0; s < kSignals; ++s) {
    for (int i = 0; i < kLength; ++i)
      h[i] = float((i * (s + 3)) % 17);
    float *d_in = cache.acquire(kLength);
    float *d_out = cache.acquire(kLength);
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), kLength * sizeof(float),
                          cudaMemcpyHostToDevice));
    movingAverage<<<(kLength + 255) / 256, 256>>>(d_in, d_out, kLength,
                                                   kWindow);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, kLength * sizeof(float),
                          cudaMemcpyDeviceToHost));
    cache.recycle(d_in, kLength);
    cache.recycle(d_out, kLength);
    for (int i = 0; i < kLength; ++i)
      if (out[i] != reference(h, i))
        ++wrong;
  }
  if (wrong) {
    std::printf("FAILED: %d of %d averages wrong\n", wrong,
                kSignals * kLength);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
