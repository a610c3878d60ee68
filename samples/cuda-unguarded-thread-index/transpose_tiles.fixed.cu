// Transposes a 1000 x 750 image of floats through 32x32 tiles staged in
// shared memory (padded against bank conflicts), 32x8 threads per tile, and
// compares the result with a host transpose.
//
// Neither side is a multiple of 32, so the tiles of the last block row and
// column are partial: 1000 = 31 * 32 + 8 and 750 = 23 * 32 + 14.
//
// cuda-tidy sample for cuda-unguarded-thread-index (fixed form): both the
// load of a tile and its store skip the elements outside the image.
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
constexpr int kHeight = 750;
constexpr int kTile = 32;
constexpr int kBlockRows = 8;

// out (width rows of height) = transpose of in (height rows of width).
__global__ void transpose(float *out, const float *in, int width,
                          int height) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kBlockRows)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kBlockRows)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

} // namespace

int main() {
  const size_t n = size_t(kWidth) * kHeight;
  std::vector<float> h_in(n), h_out(n, 0.0f);
  for (size_t i = 0; i < n; ++i)
    h_in[i] = float(i % 4093) * 0.5f + 1.0f;

  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0, n * sizeof(float)));

  const dim3 block(kTile, kBlockRows);
  const dim3 grid((kWidth + kTile - 1) / kTile, (kHeight + kTile - 1) / kTile);
  transpose<<<grid, block>>>(d_out, d_in, kWidth, kHeight);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  size_t wrong = 0, first = 0;
  for (int r = 0; r < kHeight; ++r)
    for (int c = 0; c < kWidth; ++c) {
      const size_t at = size_t(c) * kHeight + r;
      if (h_out[at] != h_in[size_t(r) * kWidth + c] && wrong++ == 0)
        first = at;
    }
  if (wrong != 0) {
    std::fprintf(stderr, "FAILED: %zu of %zu elements wrong (first at %zu)\n",
                 wrong, n, first);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: transposed %d x %d in %u x %u tiles\n", kHeight, kWidth,
              grid.x, grid.y);
  return EXIT_SUCCESS;
}
