// Normalizes 64 rows of 4096 floats to unit length on the GPU. The rows go
// through a scratch buffer from a small device memory pool, which frees its
// block in its destructor and reports a failed cudaFree.
//
// cuda-tidy sample for cuda-api-outside-main (bug form): the pool is a
// global object, so its destructor runs after main returns, when the CUDA
// runtime is being shut down: cudaFree fails with cudaErrorCudartUnloading
// and the block is never given back. The pool belongs inside main.
#include <cmath>
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

constexpr int kRows = 64;
constexpr int kCols = 4096;

class ScratchPool {
public:
  float *get(size_t bytes) {
    if (!block_)
      CUDA_CHECK(cudaMalloc(&block_, bytes));
    return block_;
  }
  ~ScratchPool() {
    cudaError_t err = cudaFree(block_);
    if (err != cudaSuccess) {
      std::fprintf(stderr, "FAILED: ~ScratchPool: cudaFree: %s\n",
                   cudaGetErrorName(err));
      _exit(1);
    }
  }

private:
  float *block_ = nullptr;
};

ScratchPool pool;

__global__ void normalize_rows(float *rows, int cols) {
  __shared__ float partial[256];
  float *row = rows + blockIdx.x * cols;
  float sum = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    sum += row[c] * row[c];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  float inv = rsqrtf(partial[0]);
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    row[c] *= inv;
}

} // namespace

int main() {
  std::vector<float> host(kRows * kCols);
  for (int i = 0; i < kRows * kCols; ++i)
    host[i] = 1.0f + (i % 7);
  size_t bytes = host.size() * sizeof(float);
  float *rows = pool.get(bytes);
  CUDA_CHECK(cudaMemcpy(rows, host.data(), bytes, cudaMemcpyHostToDevice));
  normalize_rows<<<kRows, 256>>>(rows, kCols);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> result(host.size());
  CUDA_CHECK(cudaMemcpy(result.data(), rows, bytes, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int r = 0; r < kRows; ++r) {
    double norm = 0;
    for (int c = 0; c < kCols; ++c)
      norm += double(result[r * kCols + c]) * result[r * kCols + c];
    if (std::fabs(norm - 1.0) > 1e-3)
      ++wrong;
  }
  if (wrong) {
    std::printf("FAILED: %d of %d rows not normalized\n", wrong, kRows);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
