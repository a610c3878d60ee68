// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-launch-configuration %t
// Grid limits in extension code: gridDim.y and .z stop at 65535 blocks,
// gridDim.x at 2^31 - 1. A y or z computed from the tensors' element count,
// or from a product of their sizes, or a size while x is a constant, is
// reported when nothing on the path bounds it; launches inside AT_DISPATCH
// lambdas read the grid their function computed. TORCH_CHECK, min() and
// the large dimension on x keep it silent.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <algorithm>

template <typename scalar_t>
__global__ void normalize_rows(scalar_t *x, int64_t rows, int64_t cols) {
  int64_t r = blockIdx.y;
  if (r < rows && threadIdx.x < cols)
    x[r * cols + threadIdx.x] = 0;
}

template <typename scalar_t>
__global__ void normalize_rows_x(scalar_t *x, int64_t rows, int64_t cols) {
  int64_t r = blockIdx.x;
  if (r < rows && threadIdx.x < cols)
    x[r * cols + threadIdx.x] = 0;
}

// Every leading dimension flattened into rows, one block per row on y.
void layer_norm(torch::Tensor x) {
  const int64_t n2 = x.size(-1);
  const int64_t n1 = x.numel() / n2;
  const dim3 blocks(1, n1, 1);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "layer_norm", [&] {
    normalize_rows<scalar_t><<<blocks, dim3(32, 4), 0,
                               at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), n1, n2);
    // CHECK-NOTES: :[[@LINE-3]]:5: warning: launch of 'normalize_rows<{{double|float}}>' puts 'n1' (x.numel() / n2) on gridDim.y, an element count that nothing bounds on this path: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
    // CHECK-NOTES: :[[@LINE-7]]:{{[0-9]+}}: note: 'n1' is computed here
    // CHECK-NOTES: :[[@LINE-7]]:24: note: put the large dimension on gridDim.x
  });
}

// Batch times heads on y, sequence chunks on x.
void attention_rows(torch::Tensor q) {
  const int64_t batch = q.size(0), heads = q.size(1), len = q.size(2);
  dim3 grid((len + 63) / 64, batch * heads);
  normalize_rows<float><<<grid, 64, 0, at::cuda::getCurrentCUDAStream()>>>(
      q.data_ptr<float>(), batch * heads, len);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: launch of 'normalize_rows<float>' puts 'batch * heads' on gridDim.y, a product of sizes that nothing bounds on this path: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-4]]:30: note: put the large dimension on gridDim.x
}

// Negatives: the same with a check, with min(), or with the rows on x.
void layer_norm_checked(torch::Tensor x) {
  const int64_t n2 = x.size(-1);
  const int64_t n1 = x.numel() / n2;
  TORCH_CHECK(n1 <= 65535, "too many rows for gridDim.y: ", n1);
  const dim3 blocks(1, n1, 1);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "layer_norm", [&] {
    normalize_rows<scalar_t><<<blocks, dim3(32, 4), 0,
                               at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), n1, n2);
  });
}

void layer_norm_clamped(torch::Tensor x) {
  const int64_t n2 = x.size(-1);
  const int64_t n1 = x.numel() / n2;
  const int64_t max_y = at::cuda::getCurrentDeviceProperties()->maxGridSize[1];
  const dim3 blocks(1, std::min(n1, max_y), 1);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "layer_norm", [&] {
    normalize_rows<scalar_t><<<blocks, dim3(32, 4), 0,
                               at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), n1, n2);
  });
}

void layer_norm_on_x(torch::Tensor x) {
  const int64_t n2 = x.size(-1);
  const int64_t n1 = x.numel() / n2;
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "layer_norm", [&] {
    normalize_rows_x<scalar_t><<<n1, dim3(32, 4), 0,
                                 at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), n1, n2);
  });
}

// Negatives: an image tiled in 2-D, and a batch on y beside a data-sized x.
void image_tiles(torch::Tensor img) {
  const int64_t h = img.size(1), w = img.size(2);
  dim3 grid((w + 15) / 16, (h + 15) / 16, img.size(0));
  normalize_rows<float><<<grid, dim3(16, 16), 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      img.data_ptr<float>(), h, w);
}

void batch_on_y(torch::Tensor x) {
  const int64_t n = x.size(1);
  dim3 grid((n + 255) / 256, x.size(0));
  normalize_rows<float><<<grid, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), x.size(0), n);
}

// A tensor's leading size on y while x is a constant, or a capped
// grid-stride x:
// the grid's one dimension that grows with the data is y (x and y
// swapped: the batch belongs on x).
void two_passes_per_batch(torch::Tensor labels) {
  const int64_t batch = labels.size(0);
  const dim3 blocks(2, batch, 1);
  normalize_rows<float><<<blocks, 128, 0, at::cuda::getCurrentCUDAStream()>>>(
      labels.data_ptr<float>(), batch, 2);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: launch of 'normalize_rows<float>' puts 'batch' (labels.size(0)) on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 2: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-5]]:25: note: 'batch' is computed here
  // CHECK-NOTES: :[[@LINE-5]]:24: note: put the large dimension on gridDim.x
}

void strided_points_per_batch(torch::Tensor pts) {
  const int64_t n = pts.size(1);
  const int64_t blocks = (n + 255) / 256;
  dim3 grid(std::min<int64_t>(blocks, 1024), pts.size(0));
  normalize_rows<float><<<grid, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      pts.data_ptr<float>(), pts.size(0), n);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: launch of 'normalize_rows<float>' puts 'pts.size(0)' on gridDim.y, a size that nothing bounds on this path, while gridDim.x is bounded ('std::min<int64_t>(blocks, 1024)'): the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-4]]:46: note: put the large dimension on gridDim.x
  const int64_t capped = blocks < 1024 ? blocks : 1024;
  normalize_rows<float><<<dim3(capped, pts.size(0)), 256, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      pts.data_ptr<float>(), pts.size(0), n);
  // CHECK-NOTES: :[[@LINE-3]]:3: warning: launch of 'normalize_rows<float>' puts 'pts.size(0)' on gridDim.y, a size that nothing bounds on this path, while gridDim.x is bounded ('capped'): the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-4]]:40: note: put the large dimension on gridDim.x
}

// Negatives: the batch checked or capped (min() or by hand), a size that
// no tensor gives, two sizes on y and z (a 3-D domain), a block whose x
// varies (it carries the data), an inner size, and a size divided by a
// tensor's size.
void two_passes_checked(torch::Tensor labels) {
  const int64_t batch = labels.size(0);
  TORCH_CHECK(batch <= 65535, "batch too large for gridDim.y");
  normalize_rows<float><<<dim3(2, batch), 128, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      labels.data_ptr<float>(), batch, 2);
}

void two_passes_capped(torch::Tensor labels) {
  const int64_t batch = labels.size(0);
  const int64_t y = batch < 65535 ? batch : 65535;
  normalize_rows<float><<<dim3(2, y), 128, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      labels.data_ptr<float>(), batch, 2);
  normalize_rows<float><<<dim3(1, std::min<int64_t>(batch, 65535)), 128, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      labels.data_ptr<float>(), batch, 2);
}

void two_passes_of_count(torch::Tensor labels, int64_t count) {
  normalize_rows<float><<<dim3(2, count), 128, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      labels.data_ptr<float>(), count, 2);
}

void per_channel_and_batch(torch::Tensor x) {
  normalize_rows<float><<<dim3(4, x.size(1), x.size(0)), 128, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), x.size(0), x.size(1));
}

void two_passes_block_from_length(torch::Tensor x, int max_threads) {
  const int64_t len = x.size(1);
  const int threads = std::min<int64_t>(max_threads, len);
  normalize_rows<float><<<dim3(2, x.size(0)), threads, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), x.size(0), len);
}

// An inner size on y (channels, heads) beside a constant x: as often a
// small count as the image sizes of a tiling.
void per_channel(torch::Tensor x) {
  const int64_t channels = x.size(1);
  normalize_rows<float><<<dim3(2, channels), 128, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), channels, x.size(2));
  normalize_rows<float><<<dim3(2, x.size(-1) / 4), 128, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), x.size(-1) / 4, 4);
}

void rows_over_width(torch::Tensor x, int64_t total) {
  normalize_rows<float><<<dim3(4, total / x.size(0)), 128, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), total / x.size(0), x.size(1));
}

// Negatives: the tail of a tiled launch (sparse max pooling): the rows of
// the features on x, 64 to a block, then the rows left over one block
// wide; y is the channels in 64s in both launches, not the rows.
static int div_up(int a, int b) { return (a + b - 1) / b; }
void max_pool_with_tail(torch::Tensor features) {
  const int64_t rows = features.size(0);
  const int planes = features.size(1);
  const int64_t full = (rows / 64) * 64;
  auto stream = at::cuda::getCurrentCUDAStream();
  if (full >= 64)
    normalize_rows<float><<<dim3(rows / 64, div_up(planes, 64)), dim3(16, 64),
                            0, stream>>>(features.data_ptr<float>(), full,
                                         planes);
  if (rows > full)
    normalize_rows<float><<<dim3(1, div_up(planes, 64)), dim3(16, 64), 0,
                            stream>>>(features.data_ptr<float>() + full * planes,
                                      rows - full, planes);
}

// Still reported: the batch one block wide, beside a launch that tiles
// other data on x (a launch of its own, not the tail of the first).
void batch_beside_points(torch::Tensor pts) {
  const int64_t batch = pts.size(0), n = pts.size(1);
  auto stream = at::cuda::getCurrentCUDAStream();
  normalize_rows<float><<<dim3((n + 255) / 256, batch), 256, 0, stream>>>(
      pts.data_ptr<float>(), batch, n);
  normalize_rows<float><<<dim3(1, n), 256, 0, stream>>>(
      pts.data_ptr<float>(), n, batch);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: launch of 'normalize_rows<float>' puts 'n' (pts.size(1)) on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 1: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-7]]:42: note: 'n' is computed here
  // CHECK-NOTES: :[[@LINE-4]]:35: note: put the large dimension on gridDim.x
}
