// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-shared-memory-bounds %t
// Shared tiles in extension code, launched from an AT_DISPATCH lambda: a
// horizontal difference whose tile is as wide as the block (its last
// column of threads reads one past the row), and the same kernel with a
// halo column, which is clean. Then block sizes chosen by a switch inside
// (or around) the dispatch lambda, and a tile loaded by a device helper
// at an index its caller computes.

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

// A row difference dispatched over block sizes: the tile is BLOCK wide,
// thread BLOCK - 1 reads one past it.
template <typename scalar_t, int BLOCK>
__global__ void row_diff_kernel(const scalar_t *in, scalar_t *out,
                                int64_t n) {
  __shared__ scalar_t tile[BLOCK];
  int64_t i = blockIdx.x * (int64_t)BLOCK + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : scalar_t(0);
  __syncthreads();
  if (i + 1 < n)
    out[i] = tile[threadIdx.x + 1] - tile[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: shared array 'tile' is read at index 'threadIdx.x + 1', which reaches 128 for thread 127 of a 128-wide block; its extent is 128 [cuda-shared-memory-bounds]
    // CHECK-NOTES: :[[@LINE-7]]:23: note: 'tile' is declared here
    // CHECK-NOTES: :[[@LINE+30]]:9: note: the kernel is launched here with a 128-wide block
}

// The same with a halo element loaded by the last thread: clean.
template <typename scalar_t, int BLOCK>
__global__ void row_diff_halo_kernel(const scalar_t *in, scalar_t *out,
                                     int64_t n) {
  __shared__ scalar_t tile[BLOCK + 1];
  int64_t i = blockIdx.x * (int64_t)BLOCK + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : scalar_t(0);
  if (threadIdx.x == BLOCK - 1)
    tile[BLOCK] = i + 1 < n ? in[i + 1] : scalar_t(0);
  __syncthreads();
  if (i + 1 < n)
    out[i] = tile[threadIdx.x + 1] - tile[threadIdx.x];
}

torch::Tensor row_diff(torch::Tensor input, int64_t threads, bool halo) {
  TORCH_CHECK(input.is_cuda() && input.is_contiguous());
  auto out = torch::zeros_like(input);
  const int64_t n = input.numel();
  const int64_t blocks = (n + threads - 1) / threads;
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "row_diff", [&] {
    switch (threads) {
    case 128:
      if (halo)
        row_diff_halo_kernel<scalar_t, 128><<<blocks, threads, 0, stream>>>(
            input.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
      else
        row_diff_kernel<scalar_t, 128><<<blocks, threads, 0, stream>>>(
            input.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
      break;
    case 256:
      row_diff_halo_kernel<scalar_t, 256><<<blocks, threads, 0, stream>>>(
          input.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
      break;
    default:
      TORCH_CHECK(false, "unsupported block size ", threads);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return out;
}

// A 3-point stencil whose tile a helper loads at the caller's index: the
// tile has no room for the right neighbour of the last thread.
template <typename scalar_t>
__device__ void load_tile(scalar_t *tile, int slot, const scalar_t *in,
                          int64_t at, int64_t n) {
  tile[slot] = at < n ? in[at] : scalar_t(0);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: shared array 'tile' is written at index 'slot', which reaches 256 for thread 255 of a 256-wide block; its extent is 256 [cuda-shared-memory-bounds]
  // CHECK-NOTES: :[[@LINE+9]]:23: note: 'tile' is declared here
  // CHECK-NOTES: :[[@LINE+11]]:19: note: 'load_tile' is called here with 'threadIdx.x + 1' for 'slot'
  // CHECK-NOTES: :[[@LINE+47]]:7: note: the kernel is launched here with a 256-wide block
}

constexpr int kStencilBlock = 256;

template <typename scalar_t>
__global__ void blur_kernel(const scalar_t *in, scalar_t *out, int64_t n) {
  __shared__ scalar_t tile[kStencilBlock];
  int64_t i = blockIdx.x * (int64_t)kStencilBlock + threadIdx.x;
  load_tile(tile, threadIdx.x, in, i, n);
  load_tile(tile, threadIdx.x + 1, in, i + 1, n);
  __syncthreads();
  if (i < n)
    out[i] = tile[threadIdx.x] + tile[threadIdx.x + 1];
    // CHECK-NOTES: :[[@LINE-1]]:39: warning: shared array 'tile' is read at index 'threadIdx.x + 1', which reaches 256 for thread 255 of a 256-wide block; its extent is 256 [cuda-shared-memory-bounds]
    // CHECK-NOTES: :[[@LINE-8]]:23: note: 'tile' is declared here
    // CHECK-NOTES: :[[@LINE+31]]:7: note: the kernel is launched here with a 256-wide block
}

// The same with a halo tile of kStencilBlock + 2, loaded at tx + 1 with
// both edges: clean.
template <typename scalar_t>
__global__ void blur_halo_kernel(const scalar_t *in, scalar_t *out,
                                 int64_t n) {
  __shared__ scalar_t tile[kStencilBlock + 2];
  int64_t i = blockIdx.x * (int64_t)kStencilBlock + threadIdx.x;
  load_tile(tile, threadIdx.x + 1, in, i, n);
  if (threadIdx.x == 0) {
    load_tile(tile, 0, in, i - 1, n);
    load_tile(tile, kStencilBlock + 1, in, i + kStencilBlock, n);
  }
  __syncthreads();
  if (i < n)
    out[i] = tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2];
}

torch::Tensor blur(torch::Tensor input, bool halo) {
  TORCH_CHECK(input.is_cuda() && input.is_contiguous());
  auto out = torch::empty_like(input);
  const int64_t n = input.numel();
  const int64_t blocks = (n + kStencilBlock - 1) / kStencilBlock;
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "blur", [&] {
    if (halo)
      blur_halo_kernel<scalar_t><<<blocks, kStencilBlock, 0, stream>>>(
          input.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    else
      blur_kernel<scalar_t><<<blocks, kStencilBlock, 0, stream>>>(
          input.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("diff_x", &diff_x);
  m.def("row_diff", &row_diff);
  m.def("blur", &blur);
}
