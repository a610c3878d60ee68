// Transpose of a tall matrix: 2 Mi records of 24 features each, from
// record-major to feature-major layout.
//
// The kernel stages 32x32 tiles in shared memory (padded against bank
// conflicts). Blocks loop over tile rows with a stride of gridDim.y, so the
// grid's y-dimension need not cover every tile row. The host builds a
// reference transpose while the GPU works, polls the stream, and compares.
//
// cuda-tidy sample for cuda-unchecked-kernel-launch (bug form): the grid asks
// for one block row per tile row, 65568 of them, more than gridDim.y may be
// (65535). The runtime refuses the launch (cudaErrorInvalidValue), nothing
// examines the launch error, and the host compares its reference with an
// output the GPU never wrote.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

constexpr int kRows = (1 << 21) + 1000; // records
constexpr int kCols = 24;               // features per record
constexpr int kTile = 32;
constexpr int kBlockRows = 8;

// Owners of device and pinned host memory; they release it on scope exit.
template <typename T> struct DeviceArray {
  T *ptr = nullptr;
  explicit DeviceArray(size_t n) {
    CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(T)));
  }
  ~DeviceArray() { cudaFree(ptr); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
};

template <typename T> struct PinnedArray {
  T *ptr = nullptr;
  explicit PinnedArray(size_t n) {
    CUDA_CHECK(cudaMallocHost(&ptr, n * sizeof(T)));
  }
  ~PinnedArray() { cudaFreeHost(ptr); }
  PinnedArray(const PinnedArray &) = delete;
  PinnedArray &operator=(const PinnedArray &) = delete;
};

// out (cols x rows) = transpose of in (rows x cols), both row-major.
__global__ void transpose(float *out, const float *in, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int tile_rows = (rows + kTile - 1) / kTile;
  for (int ty = blockIdx.y; ty < tile_rows; ty += gridDim.y) {
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = ty * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows)
      if (col < cols && row0 + j < rows)
        tile[threadIdx.y + j][threadIdx.x] = in[size_t(row0 + j) * cols + col];
    __syncthreads();
    const int out_col = ty * kTile + threadIdx.x;
    const int out_row0 = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows)
      if (out_col < rows && out_row0 + j < cols)
        out[size_t(out_row0 + j) * rows + out_col] =
            tile[threadIdx.x][threadIdx.y + j];
    __syncthreads();
  }
}

} // namespace

int main() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));

  const size_t n = size_t(kRows) * kCols;
  PinnedArray<float> h_in(n), h_out(n);
  for (size_t i = 0; i < n; ++i)
    h_in.ptr[i] = float(i % 65521u) + 1.0f;
  std::memset(h_out.ptr, 0, n * sizeof(float));
  DeviceArray<float> d_in(n), d_out(n);

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  const int tile_cols = (kCols + kTile - 1) / kTile;
  const int tile_rows = (kRows + kTile - 1) / kTile;
  dim3 grid(tile_cols, tile_rows);
  const dim3 block(kTile, kBlockRows);
  CUDA_CHECK(cudaMemcpyAsync(d_in.ptr, h_in.ptr, n * sizeof(float),
                             cudaMemcpyHostToDevice, stream));
  transpose<<<grid, block, 0, stream>>>(d_out.ptr, d_in.ptr, kRows, kCols);
  CUDA_CHECK(cudaMemcpyAsync(h_out.ptr, d_out.ptr, n * sizeof(float),
                             cudaMemcpyDeviceToHost, stream));

  // Build the reference on the host while the GPU works.
  std::vector<float> reference(n);
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c)
      reference[size_t(c) * kRows + r] = h_in.ptr[size_t(r) * kCols + c];

  cudaError_t status;
  while ((status = cudaStreamQuery(stream)) == cudaErrorNotReady) {
  }
  CUDA_CHECK(status);
  CUDA_CHECK(cudaStreamDestroy(stream));

  size_t wrong = 0, first_wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    if (h_out.ptr[i] != reference[i] && wrong++ == 0)
      first_wrong = i;
  }
  if (wrong != 0) {
    std::fprintf(stderr,
                 "FAILED: %zu of %zu elements wrong (first at %zu: got %g, "
                 "expected %g)\n",
                 wrong, n, first_wrong, h_out.ptr[first_wrong],
                 reference[first_wrong]);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: transposed %d x %d (grid %u x %u)\n", kRows, kCols,
              grid.x, grid.y);
  return EXIT_SUCCESS;
}
