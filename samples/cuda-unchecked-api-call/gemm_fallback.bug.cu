// C = A * B for a 512 x 384 matrix A and a 384 x 256 matrix B, on cuBLAS.
//
// The matrices are stored column-major, as cuBLAS reads them. The program
// passes the leading dimension of A from its tile configuration, which for
// this shape is smaller than A's row count: cublasSgemm rejects the call
// with CUBLAS_STATUS_INVALID_VALUE and computes nothing. The host checks
// every element of C against its own product.
//
// cuda-tidy sample for cuda-unchecked-api-call (bug form): the status of
// cublasSgemm is dropped, so C stays zero and nobody is told why.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
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

#define CUBLAS_CHECK(call)                                                   \
  do {                                                                       \
    cublasStatus_t st_ = (call);                                             \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                      \
      std::fprintf(stderr, "cuBLAS error at %s:%d: %s failed: %s\n",         \
                   __FILE__, __LINE__, #call, cublasGetStatusString(st_));   \
      std::exit(EXIT_FAILURE);                                               \
    }                                                                        \
  } while (0)

namespace {

constexpr int kM = 512; // rows of A and C
constexpr int kK = 384; // columns of A, rows of B
constexpr int kN = 256; // columns of B and C
constexpr int kTileRows = 384; // the tile configuration's row count

} // namespace

// The reference product, column-major: one thread per element of C.
__global__ void gemm_plain(const float *a, const float *b, float *c, int m,
                           int n, int k) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n)
    return;
  float sum = 0.f;
  for (int i = 0; i < k; ++i)
    sum += a[i * m + row] * b[col * k + i];
  c[col * m + row] = sum;
}

int main() {
  std::vector<float> a(static_cast<size_t>(kM) * kK);
  std::vector<float> b(static_cast<size_t>(kK) * kN);
  std::vector<float> c(static_cast<size_t>(kM) * kN, 0.f);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<float>(i % 7) * 0.25f - 0.5f;
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<float>(i % 5) * 0.5f - 1.f;

  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, a.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_b, b.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_c, c.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, b.data(), b.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_c, 0, c.size() * sizeof(float)));

  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  const float one = 1.f, zero = 0.f;
  const int lda = kTileRows; // smaller than kM: an invalid leading dimension
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, kM, kN, kK, &one, d_a, lda,
              d_b, kK, &zero, d_c, kM);
  CUDA_CHECK(cudaMemcpy(c.data(), d_c, c.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUBLAS_CHECK(cublasDestroy(handle));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_c));

  int wrong = 0;
  for (int col = 0; col < kN; ++col)
    for (int row = 0; row < kM; ++row) {
      double want = 0.0;
      for (int i = 0; i < kK; ++i)
        want += static_cast<double>(a[static_cast<size_t>(i) * kM + row]) *
                b[static_cast<size_t>(col) * kK + i];
      float got = c[static_cast<size_t>(col) * kM + row];
      if (std::fabs(got - want) > 1e-3 * (1.0 + std::fabs(want)))
        ++wrong;
    }
  if (wrong) {
    std::printf("FAILED: %d of %d products wrong\n", wrong, kM * kN);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: C = A * B (%d x %d)\n", kM, kN);
  return EXIT_SUCCESS;
}
