// Sample program gaussian_blur (fixed form), from samples/cuda-wrong-memory-space/gaussian_blur.fixed.cu.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t
// Horizontal Gaussian blur of a 2048 x 2048 image with a 9-tap kernel.
//
// The filter weights are computed on the host, normalized, and uploaded next
// to the image; each thread blurs one pixel with clamped borders. The host
// blurs the same image and compares.
//
// cuda-tidy sample for cuda-wrong-memory-space (fixed form): the kernel gets
// the device copy of the weights.
#include <algorithm>
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

constexpr int kWidth = 2048;
constexpr int kHeight = 2048;
constexpr int kRadius = 4;
constexpr int kTaps = 2 * kRadius + 1;

__global__ void blur_rows(const float *in, float *out, const float *weights,
                          int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float sum = 0.f;
  for (int k = -kRadius; k <= kRadius; ++k) {
    int xx = min(max(x + k, 0), width - 1);
    sum += weights[k + kRadius] * in[y * width + xx];
  }
  out[y * width + x] = sum;
}

} // namespace

int main() {
  const size_t pixels = static_cast<size_t>(kWidth) * kHeight;
  std::vector<float> image(pixels), blurred(pixels);
  for (size_t i = 0; i < pixels; ++i)
    image[i] = static_cast<float>((i * 2654435761u) % 256) / 255.f;

  std::vector<float> weights(kTaps);
  float total = 0.f;
  for (int k = -kRadius; k <= kRadius; ++k) {
    weights[k + kRadius] = std::exp(-0.5f * k * k / 4.f);
    total += weights[k + kRadius];
  }
  for (float &w : weights)
    w /= total;

  float *d_in = nullptr, *d_out = nullptr, *d_weights = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, pixels * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, pixels * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_weights, kTaps * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, image.data(), pixels * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_weights, weights.data(), kTaps * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(32, 8);
  dim3 grid((kWidth + block.x - 1) / block.x, (kHeight + block.y - 1) / block.y);
  blur_rows<<<grid, block>>>(d_in, d_out, d_weights, kWidth, kHeight);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(blurred.data(), d_out, pixels * sizeof(float), cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      float ref = 0.f;
      for (int k = -kRadius; k <= kRadius; ++k) {
        int xx = std::min(std::max(x + k, 0), kWidth - 1);
        ref += weights[k + kRadius] * image[static_cast<size_t>(y) * kWidth + xx];
      }
      if (std::fabs(blurred[static_cast<size_t>(y) * kWidth + x] - ref) > 1e-5f)
        ++wrong;
    }

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_weights));

  if (wrong) {
    std::printf("FAILED: %d of %zu pixels wrong\n", wrong, pixels);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %zu pixels\n", pixels);
  return EXIT_SUCCESS;
}
