// Euclidean norm of every row of a 4096 x 1024 matrix.
//
// One block per row: each thread sums the squares of a strided slice of the
// row, the block reduces the partial sums in shared memory, and thread 0
// writes the square root. The host computes the same norms in double
// precision and compares.
//
// cuda-tidy sample for cuda-memcpy-direction (fixed form): the upload of the
// matrix names cudaMemcpyHostToDevice.
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

constexpr int kRows = 4096;
constexpr int kCols = 1024;
constexpr int kThreads = 256;

__global__ void row_norms(const float *mat, float *norms, int cols) {
  __shared__ float partial[kThreads];
  const float *row = mat + static_cast<size_t>(blockIdx.x) * cols;
  float sum = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    sum += row[c] * row[c];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    norms[blockIdx.x] = sqrtf(partial[0]);
}

} // namespace

int main() {
  const size_t elems = static_cast<size_t>(kRows) * kCols;
  const size_t mat_bytes = elems * sizeof(float);
  const size_t norm_bytes = kRows * sizeof(float);

  float *h_mat = static_cast<float *>(std::malloc(mat_bytes));
  float *h_norms = static_cast<float *>(std::malloc(norm_bytes));
  if (!h_mat || !h_norms) {
    std::fprintf(stderr, "out of host memory\n");
    return EXIT_FAILURE;
  }
  for (size_t i = 0; i < elems; ++i)
    h_mat[i] = static_cast<float>((i * 7919) % 101) / 50.0f - 1.0f;

  float *d_mat = nullptr;
  float *d_norms = nullptr;
  CUDA_CHECK(cudaMalloc(&d_mat, mat_bytes));
  CUDA_CHECK(cudaMalloc(&d_norms, norm_bytes));

  CUDA_CHECK(cudaMemcpy(d_mat, h_mat, mat_bytes, cudaMemcpyHostToDevice));
  row_norms<<<kRows, kThreads>>>(d_mat, d_norms, kCols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h_norms, d_norms, norm_bytes, cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int r = 0; r < kRows; ++r) {
    double sum = 0.0;
    for (int c = 0; c < kCols; ++c) {
      double v = h_mat[static_cast<size_t>(r) * kCols + c];
      sum += v * v;
    }
    double ref = std::sqrt(sum);
    if (std::fabs(h_norms[r] - ref) > 1e-3 * ref + 1e-4)
      ++wrong;
  }

  CUDA_CHECK(cudaFree(d_mat));
  CUDA_CHECK(cudaFree(d_norms));
  std::free(h_mat);
  std::free(h_norms);

  if (wrong) {
    std::printf("FAILED: %d of %d row norms wrong\n", wrong, kRows);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %d row norms\n", kRows);
  return EXIT_SUCCESS;
}
