// Minimum of every 32-pixel segment of each row of an image whose width
// (1000) is not a multiple of 32: one warp per segment reduces with
// shuffles, and its first lane stores the segment's minimum.
//
// The fix: every lane takes part in the full-mask reduction; lanes past
// the width contribute FLT_MAX, and only the store is under the bounds
// check.
#include <cfloat>
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
constexpr int kSegments = (kWidth + 31) / 32;

__global__ void segmentMins(const float *img, float *mins, int width,
                            int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (y >= height)
    return;
  float v = x < width ? img[(size_t)y * width + x] : FLT_MAX;
  for (int offset = 16; offset > 0; offset >>= 1)
    v = fminf(v, __shfl_down_sync(kFullMask, v, offset));
  if (x < width && threadIdx.x % 32 == 0)
    mins[(size_t)y * kSegments + x / 32] = v;
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
  float *d_mins = nullptr;
  size_t minCount = (size_t)kHeight * kSegments;
  CUDA_CHECK(cudaMalloc(&d_img, img.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_mins, minCount * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_img, img.data(), img.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  dim3 grid((kWidth + kThreads - 1) / kThreads, kHeight);
  segmentMins<<<grid, kThreads>>>(d_img, d_mins, kWidth, kHeight);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> mins(minCount);
  CUDA_CHECK(cudaMemcpy(mins.data(), d_mins, minCount * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_img));
  CUDA_CHECK(cudaFree(d_mins));

  int wrong = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int s = 0; s < kSegments; ++s) {
      float want = FLT_MAX;
      for (int x = s * 32; x < kWidth && x < s * 32 + 32; ++x)
        want = img[(size_t)y * kWidth + x] < want ? img[(size_t)y * kWidth + x]
                                                  : want;
      if (mins[(size_t)y * kSegments + s] != want)
        ++wrong;
    }
  if (wrong) {
    printf("FAILED: %d of %zu segment minima wrong\n", wrong, minCount);
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
