// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-shared-memory-bounds %t
// Shared tiles in extension code, launched from an AT_DISPATCH lambda: a
// horizontal difference whose tile is as wide as the block (its last
// column of threads reads one past the row), and the same kernel with a
// halo column, which is clean.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

constexpr int kTile = 16;

template <typename scalar_t>
__global__ void diff_x_kernel(const scalar_t *in, scalar_t *out, int64_t h,
                              int64_t w) {
  __shared__ scalar_t tile[kTile][kTile];
  int tx = threadIdx.x, ty = threadIdx.y;
  int64_t x = blockIdx.x * kTile + tx, y = blockIdx.y * kTile + ty;
  if (x < w && y < h)
    tile[ty][tx] = in[y * w + x];
  __syncthreads();
  if (x + 1 < w && y < h)
    out[y * w + x] = tile[ty][tx + 1] - tile[ty][tx];
    // CHECK-NOTES: :[[@LINE-1]]:31: warning: shared array 'tile' is read at column 'tx + 1', which reaches 16 for thread 15 of a 16x16 block; its extent is 16 [cuda-shared-memory-bounds]
    // CHECK-NOTES: :[[@LINE-9]]:23: note: 'tile' is declared here
    // CHECK-NOTES: :[[@LINE+30]]:7: note: the kernel is launched here with a 16x16 block
}

template <typename scalar_t>
__global__ void diff_x_halo_kernel(const scalar_t *in, scalar_t *out,
                                   int64_t h, int64_t w) {
  __shared__ scalar_t tile[kTile][kTile + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int64_t x = blockIdx.x * kTile + tx, y = blockIdx.y * kTile + ty;
  if (x < w && y < h)
    tile[ty][tx] = in[y * w + x];
  if (tx == kTile - 1 && x + 1 < w && y < h)
    tile[ty][tx + 1] = in[y * w + x + 1];
  __syncthreads();
  if (x + 1 < w && y < h)
    out[y * w + x] = tile[ty][tx + 1] - tile[ty][tx];
}

torch::Tensor diff_x(torch::Tensor input, bool halo) {
  TORCH_CHECK(input.is_cuda() && input.dim() == 2 && input.is_contiguous());
  auto out = torch::zeros_like(input);
  const int64_t h = input.size(0), w = input.size(1);
  const dim3 threads(kTile, kTile);
  const dim3 blocks((w + kTile - 1) / kTile, (h + kTile - 1) / kTile);
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "diff_x", [&] {
    if (halo)
      diff_x_halo_kernel<scalar_t><<<blocks, threads, 0, stream>>>(
          input.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), h, w);
    else
      diff_x_kernel<scalar_t><<<blocks, threads, 0, stream>>>(
          input.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), h, w);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("diff_x", &diff_x); }
