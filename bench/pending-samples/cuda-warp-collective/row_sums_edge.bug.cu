// Row sums of an image whose width (1000) is not a multiple of 32: each
// warp adds its 32 pixels with shuffles and its first lane adds the warp's
// sum to the row's total; the host checks every row.
//
// The bug: the reduction runs inside the bounds check 'if (x < width)'
// with the full-warp mask. In the warp that holds the right edge, lanes
// past the width never execute the shuffles, yet the mask names them and
// the lanes inside read their values: undefined behaviour since Volta's
// independent thread scheduling (a hang or wrong sums in practice).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_),    \
              __FILE__, __LINE__);                                             \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWidth = 1000; // not a multiple of 32
constexpr int kHeight = 512;
constexpr int kThreads = 256;

__global__ void rowSums(const float *img, float *sums, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < width && y < height) {
    float v = img[(size_t)y * width + x];
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down_sync(kFullMask, v, offset);
    if (threadIdx.x % 32 == 0)
      atomicAdd(&sums[y], v);
  }
}

static float pixel(int x, int y) {
  return 0.5f + 0.001f * (float)((x * 13 + y * 7) % 211);
}

int main() {
  std::vector<float> img((size_t)kWidth * kHeight);
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x)
      img[(size_t)y * kWidth + x] = pixel(x, y);

  float *d_img = nullptr;
  float *d_sums = nullptr;
  CUDA_CHECK(cudaMalloc(&d_img, img.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sums, kHeight * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_img, img.data(), img.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_sums, 0, kHeight * sizeof(float)));

  dim3 grid((kWidth + kThreads - 1) / kThreads, kHeight);
  rowSums<<<grid, kThreads>>>(d_img, d_sums, kWidth, kHeight);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> sums(kHeight);
  CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, kHeight * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_img));
  CUDA_CHECK(cudaFree(d_sums));

  int wrong = 0;
  for (int y = 0; y < kHeight; ++y) {
    double want = 0.0;
    for (int x = 0; x < kWidth; ++x)
      want += img[(size_t)y * kWidth + x];
    if (std::fabs(sums[y] - want) / want > 1e-4)
      ++wrong;
  }
  if (wrong) {
    printf("FAILED: %d of %d row sums wrong\n", wrong, kHeight);
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
