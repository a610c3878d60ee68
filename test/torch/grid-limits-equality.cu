// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-launch-configuration %t
// A check that two sizes agree (one label per row) limits neither: the batch
// on gridDim.y is still unbounded. A comparison with a constant, or with a
// limit that is not a size, still bounds it.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void row_sums(const float *s, float *out, int64_t rows,
                         int64_t cols) {
  int64_t r = blockIdx.y;
  if (r < rows && threadIdx.x < cols)
    atomicAdd(&out[r], s[r * cols + threadIdx.x]);
}

void sums_labels_agree(torch::Tensor scores, torch::Tensor labels,
                       torch::Tensor out) {
  TORCH_CHECK(labels.size(0) == scores.size(0), "one label per row");
  const int64_t batch = labels.size(0);
  dim3 grid(2, batch);
  row_sums<<<grid, 128, 0, at::cuda::getCurrentCUDAStream()>>>(
      scores.data_ptr<float>(), out.data_ptr<float>(), batch, scores.size(1));
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: launch of 'row_sums' puts 'batch' (labels.size(0)) on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 2: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-5]]:25: note: 'batch' is computed here
  // CHECK-NOTES: :[[@LINE-5]]:16: note: put the large dimension on gridDim.x
}

// The same ties written as a failed '!=' on the path.
void sums_rows_differ(torch::Tensor scores, torch::Tensor labels,
                      torch::Tensor out) {
  const int64_t batch = labels.size(0);
  if (batch != scores.size(0))
    return;
  row_sums<<<dim3(2, batch), 128, 0, at::cuda::getCurrentCUDAStream()>>>(
      scores.data_ptr<float>(), out.data_ptr<float>(), batch, scores.size(1));
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: launch of 'row_sums' puts 'batch' (labels.size(0)) on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 2: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-6]]:25: note: 'batch' is computed here
  // CHECK-NOTES: :[[@LINE-4]]:22: note: put the large dimension on gridDim.x
}

// Negatives: an equality with a constant, an upper bound that is a
// parameter (a limit the caller chose), and a checked limit.
void sums_single_batch(torch::Tensor scores, torch::Tensor labels,
                       torch::Tensor out) {
  const int64_t batch = labels.size(0);
  TORCH_CHECK(batch == 1, "one sample at a time");
  row_sums<<<dim3(2, batch), 128, 0, at::cuda::getCurrentCUDAStream()>>>(
      scores.data_ptr<float>(), out.data_ptr<float>(), batch, scores.size(1));
}

void sums_under_limit(torch::Tensor scores, torch::Tensor labels,
                      torch::Tensor out, int64_t max_batch) {
  const int64_t batch = labels.size(0);
  TORCH_CHECK(batch <= max_batch, "batch over the configured limit");
  row_sums<<<dim3(2, batch), 128, 0, at::cuda::getCurrentCUDAStream()>>>(
      scores.data_ptr<float>(), out.data_ptr<float>(), batch, scores.size(1));
}

void sums_checked(torch::Tensor scores, torch::Tensor labels,
                  torch::Tensor out) {
  TORCH_CHECK(labels.size(0) == scores.size(0), "one label per row");
  const int64_t batch = labels.size(0);
  TORCH_CHECK(batch <= 65535, "batch too large for gridDim.y");
  row_sums<<<dim3(2, batch), 128, 0, at::cuda::getCurrentCUDAStream()>>>(
      scores.data_ptr<float>(), out.data_ptr<float>(), batch, scores.size(1));
}
