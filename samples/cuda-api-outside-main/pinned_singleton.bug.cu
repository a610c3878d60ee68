// Scales a signal on the GPU through pinned staging blocks that a
// process-wide pool hands out. The pool is a singleton (a function-local
// static) that owns its blocks; each block frees its pinned memory in its
// destructor and reports a failed cudaFreeHost.
//
// cuda-tidy sample for cuda-api-outside-main (bug form): the singleton is
// built before the first CUDA call, so its destructor runs after the CUDA
// runtime's own exit handler. Destroying the pool deletes its blocks, and
// ~Block's cudaFreeHost fails with cudaErrorCudartUnloading.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
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

constexpr int kN = 1 << 20;

class Block {
public:
  explicit Block(size_t bytes) { CUDA_CHECK(cudaMallocHost(&data_, bytes)); }
  ~Block() {
    cudaError_t err = cudaFreeHost(data_);
    if (err != cudaSuccess) {
      std::fprintf(stderr, "FAILED: ~Block: cudaFreeHost: %s\n",
                   cudaGetErrorName(err));
      _exit(1);
    }
  }
  float *data() const { return data_; }

private:
  float *data_ = nullptr;
};

class StagingPool {
public:
  static StagingPool &instance() {
    static StagingPool pool;
    return pool;
  }
  Block *acquire(size_t bytes) {
    blocks_.push_back(new Block(bytes));
    return blocks_.back();
  }
  ~StagingPool() {
    for (Block *b : blocks_)
      delete b;
  }

private:
  StagingPool() = default;
  std::vector<Block *> blocks_;
};

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

} // namespace

int main() {
  StagingPool &pool = StagingPool::instance();
  Block *staging = pool.acquire(kN * sizeof(float));
  float *h = staging->data();
  for (int i = 0; i < kN; ++i)
    h[i] = float(i % 100);
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, kN * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d, h, kN * sizeof(float), cudaMemcpyHostToDevice));
  scale<<<(kN + 255) / 256, 256>>>(d, 0.5f, kN);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h, d, kN * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d));
  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (h[i] != 0.5f * float(i % 100))
      ++wrong;
  if (wrong) {
    std::printf("FAILED: %d of %d values wrong\n", wrong, kN);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
