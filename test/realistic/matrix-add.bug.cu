// Sample program matrix_add (bug form), from samples/cuda-invalid-free/matrix_add.bug.cu.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t
// C = A + B for two 3000 x 2000 matrices, one thread per element.
//
// The host fills A and B, the GPU adds them, and the host checks every
// element of C before releasing the host and device buffers.
//
// cuda-tidy sample for cuda-invalid-free (bug form): the host result buffer,
// from malloc, is released with cudaFree.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
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

constexpr int kRows = 3000;
constexpr int kCols = 2000;

__global__ void add(const float *a, const float *b, float *c, int rows,
                    int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols)
    c[row * cols + col] = a[row * cols + col] + b[row * cols + col];
}

float *host_matrix(size_t elems) {
  float *m = static_cast<float *>(std::malloc(elems * sizeof(float)));
  if (!m) {
    std::fprintf(stderr, "out of host memory\n");
    std::exit(EXIT_FAILURE);
  }
  return m;
}

} // namespace

int main() {
  const size_t elems = static_cast<size_t>(kRows) * kCols;
  const size_t bytes = elems * sizeof(float);
  float *h_a = host_matrix(elems);
  float *h_b = host_matrix(elems);
  float *h_c = host_matrix(elems);
  for (size_t i = 0; i < elems; ++i) {
    h_a[i] = static_cast<float>(i % 1000);
    h_b[i] = static_cast<float>((i * 3) % 777) * 0.5f;
  }

  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, bytes));
  CUDA_CHECK(cudaMalloc(&d_b, bytes));
  CUDA_CHECK(cudaMalloc(&d_c, bytes));
  CUDA_CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));

  dim3 block(32, 8);
  dim3 grid((kCols + block.x - 1) / block.x, (kRows + block.y - 1) / block.y);
  add<<<grid, block>>>(d_a, d_b, d_c, kRows, kCols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));

  size_t wrong = 0;
  for (size_t i = 0; i < elems; ++i)
    if (h_c[i] != h_a[i] + h_b[i])
      ++wrong;

  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_c));
  std::free(h_a);
  std::free(h_b);
  CUDA_CHECK(cudaFree(h_c));
// CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'h_c' is host memory, but it is released with 'cudaFree'; use free or delete [cuda-invalid-free]

  if (wrong) {
    std::printf("FAILED: %zu of %zu elements wrong\n", wrong, elems);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %zu elements\n", elems);
  return EXIT_SUCCESS;
}
