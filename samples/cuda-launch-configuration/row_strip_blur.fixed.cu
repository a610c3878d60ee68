// Vertical 3-tap blur of a 1024 x 4096 grayscale image, one strip of rows
// per block.
//
// Each block stages a strip of kStripRows + 2 image rows (one halo row above
// and below) in dynamic shared memory: 18 rows of 1024 floats, 72 KiB. Every
// thread owns one column and reads each staged pixel three times from shared
// memory instead of global memory. The host computes the same blur and
// compares the two images.
//
// cuda-tidy sample for cuda-launch-configuration (fixed form): a kernel may
// use more than 48 KiB of dynamic shared memory only after
// cudaFuncSetAttribute raises its cudaFuncAttributeMaxDynamicSharedMemorySize;
// the fixed form does so before the launch.
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

constexpr int kWidth = 1024;
constexpr int kHeight = 4096;
constexpr int kStripRows = 16;
constexpr int kStripCount = kHeight / kStripRows;
// The staged strip: its rows plus one halo row on each side.
constexpr size_t kStripBytes = (kStripRows + 2) * kWidth * sizeof(float);

__device__ float pixel_or_edge(const float *img, int row, int col) {
  row = row < 0 ? 0 : (row >= kHeight ? kHeight - 1 : row);
  return img[row * kWidth + col];
}

__global__ void blur_rows(float *out, const float *in) {
  extern __shared__ float strip[];
  const int col = threadIdx.x;
  const int first = blockIdx.x * kStripRows;
  for (int r = 0; r < kStripRows + 2; ++r)
    strip[r * kWidth + col] = pixel_or_edge(in, first + r - 1, col);
  __syncthreads();
  for (int r = 1; r <= kStripRows; ++r) {
    const int row = first + r - 1;
    out[row * kWidth + col] = (strip[(r - 1) * kWidth + col] +
                               strip[r * kWidth + col] +
                               strip[(r + 1) * kWidth + col]) /
                              3.0f;
  }
}

float host_pixel(const std::vector<float> &img, int row, int col) {
  row = row < 0 ? 0 : (row >= kHeight ? kHeight - 1 : row);
  return img[size_t(row) * kWidth + col];
}

} // namespace

int main() {
  static_assert(kHeight % kStripRows == 0, "the strips cover the image");
  const size_t pixels = size_t(kWidth) * kHeight;
  std::vector<float> image(pixels), blurred(pixels);
  for (size_t i = 0; i < pixels; ++i)
    image[i] = float((i * 7919) % 256) / 255.0f;

  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, pixels * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, pixels * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, image.data(), pixels * sizeof(float),
                        cudaMemcpyHostToDevice));

  CUDA_CHECK(cudaFuncSetAttribute(blur_rows,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  int(kStripBytes)));
  blur_rows<<<kStripCount, kWidth, kStripBytes>>>(d_out, d_in);
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess) {
    std::fprintf(stderr, "blur launch rejected: %s\n",
                 cudaGetErrorString(launch));
    std::exit(EXIT_FAILURE);
  }
  CUDA_CHECK(cudaMemcpy(blurred.data(), d_out, pixels * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  int wrong = 0;
  for (int row = 0; row < kHeight; ++row)
    for (int col = 0; col < kWidth; ++col) {
      const float expected = (host_pixel(image, row - 1, col) +
                              host_pixel(image, row, col) +
                              host_pixel(image, row + 1, col)) /
                             3.0f;
      if (std::fabs(blurred[size_t(row) * kWidth + col] - expected) > 1e-5f)
        ++wrong;
    }
  if (wrong != 0) {
    std::fprintf(stderr, "FAILED: %d of %zu pixels wrong\n", wrong, pixels);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %d x %d image blurred in %d strips\n", kWidth, kHeight,
              kStripCount);
  return EXIT_SUCCESS;
}
