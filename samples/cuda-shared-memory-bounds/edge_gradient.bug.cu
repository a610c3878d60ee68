// Computes the horizontal gradient of a 1000 x 600 image of floats,
// out[y][x] = in[y][x + 1] - in[y][x] (0 in the last column), through 16x16
// tiles staged in shared memory, and compares it with the host's result.
//
// cuda-tidy sample for cuda-shared-memory-bounds (bug form): the tile is as
// wide as the block, so the last column of threads reads its right-hand
// neighbour one element past the tile's row: the first element of the next
// row, and for the block's last row past the end of the tile.
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

constexpr int kWidth = 1000;
constexpr int kHeight = 600;
constexpr int kTile = 16;

__global__ void gradientX(float *out, const float *in, int width,
                          int height) {
  __shared__ float tile[kTile][kTile];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * kTile + tx;
  int y = blockIdx.y * kTile + ty;
  if (x < width && y < height)
    tile[ty][tx] = in[y * width + x];
  __syncthreads();
  if (y < height && x < width - 1)
    out[y * width + x] = tile[ty][tx + 1] - tile[ty][tx];
  else if (y < height && x < width)
    out[y * width + x] = 0.0f;
}

} // namespace

int main() {
  const size_t n = size_t(kWidth) * kHeight;
  std::vector<float> h_in(n), h_out(n, -1.0f), expected(n);
  for (size_t i = 0; i < n; ++i)
    h_in[i] = float((i * 7919) % 1021) * 0.25f;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      size_t i = size_t(y) * kWidth + x;
      expected[i] = x + 1 < kWidth ? h_in[i + 1] - h_in[i] : 0.0f;
    }

  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float),
                        cudaMemcpyHostToDevice));

  dim3 block(kTile, kTile);
  dim3 grid((kWidth + kTile - 1) / kTile, (kHeight + kTile - 1) / kTile);
  gradientX<<<grid, block>>>(d_out, d_in, kWidth, kHeight);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  size_t wrong = 0, first = n;
  for (size_t i = 0; i < n; ++i)
    if (h_out[i] != expected[i]) {
      if (first == n)
        first = i;
      ++wrong;
    }
  if (wrong) {
    std::printf("FAILED: %zu of %zu gradients wrong (the first at x = %zu, "
                "y = %zu)\n",
                wrong, n, first % kWidth, first / kWidth);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %zu gradients\n", n);
  return EXIT_SUCCESS;
}
