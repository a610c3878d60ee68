// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-unguarded-thread-index,cuda-global-memory-race %t
// Kernel bugs of a block per item in extension code: a segment per block
// launched with one block per offset entry (one more than the segments),
// and a row sum that every thread of the block stores.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// One block per segment; the grid comes from the offsets tensor, which
// holds num_segments + 1 entries.
__global__ void segment_sum_kernel(const float *values, const int64_t *offsets,
                                   float *out, int64_t num_segments) {
  int64_t seg = blockIdx.x;
  int64_t beg = offsets[seg];
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: read of 'offsets' at block-derived index 'seg' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'num_segments' items [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE+38]]:3: note: this launch runs 'offsets.size(0)' blocks for 'offsets.size(0) - 1' items
  // CHECK-NOTES: :[[@LINE-3]]:25: note: guard the access, for example with 'if (seg >= num_segments) return;'
  int64_t end = offsets[seg + 1];
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: read of 'offsets' at block-derived index 'seg + 1' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'num_segments' items [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE+34]]:3: note: this launch runs 'offsets.size(0)' blocks for 'offsets.size(0) - 1' items
  // CHECK-NOTES: :[[@LINE-3]]:25: note: guard the access, for example with 'if (seg >= num_segments) return;'
  __shared__ float partial[256];
  float s = 0.0f;
  for (int64_t j = beg + threadIdx.x; j < end; j += blockDim.x)
    s += values[j];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      partial[threadIdx.x] += partial[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[seg] = partial[0];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to 'out' at block-derived index 'seg' has no upper bound on this path: one block per item, and a launch may run more blocks than the 'num_segments' items [cuda-unguarded-thread-index]
  // CHECK-NOTES: :[[@LINE+18]]:3: note: this launch runs 'offsets.size(0)' blocks for 'offsets.size(0) - 1' items
  // CHECK-NOTES: :[[@LINE-3]]:9: note: guard the access, for example with 'if (seg >= num_segments) return;'
}

// Every thread of the row's block stores its own partial sum.
__global__ void row_sum_kernel(const float *x, float *out, int64_t cols) {
  float acc = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x)
    acc += x[blockIdx.x * cols + j];
  out[blockIdx.x] = acc;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: threads of each block store different values to global 'out' at 'blockIdx.x': a write-write race, the element keeps whichever thread's store lands last [cuda-global-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: store from one thread (for example under 'if (threadIdx.x == 0)' after the block's values are combined), or give each thread its own element
}

torch::Tensor segment_sum(torch::Tensor values, torch::Tensor offsets) {
  TORCH_CHECK(values.is_contiguous() && offsets.is_contiguous());
  auto out = torch::zeros({offsets.size(0) - 1}, values.options());
  auto stream = at::cuda::getCurrentCUDAStream();
  segment_sum_kernel<<<offsets.size(0), 256, 0, stream>>>(
      values.data_ptr<float>(), offsets.data_ptr<int64_t>(),
      out.data_ptr<float>(), offsets.size(0) - 1);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

torch::Tensor row_sum(torch::Tensor x) {
  TORCH_CHECK(x.is_contiguous());
  auto out = torch::empty({x.size(0)}, x.options());
  auto stream = at::cuda::getCurrentCUDAStream();
  row_sum_kernel<<<x.size(0), 256, 0, stream>>>(
      x.data_ptr<float>(), out.data_ptr<float>(), x.size(1));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

//===--- Not flagged: the fixed forms -------------------------------------===//

__global__ void segment_sum_guarded(const float *values,
                                    const int64_t *offsets, float *out,
                                    int64_t num_segments) {
  int64_t seg = blockIdx.x;
  if (seg >= num_segments)
    return;
  float s = 0.0f;
  for (int64_t j = offsets[seg] + threadIdx.x; j < offsets[seg + 1];
       j += blockDim.x)
    s += values[j];
  atomicAdd(&out[seg], s);
}

__global__ void row_sum_leader(const float *x, float *out, int64_t cols) {
  __shared__ float partial[256];
  float acc = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x)
    acc += x[blockIdx.x * cols + j];
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      partial[threadIdx.x] += partial[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

// The grid is the segment count exactly.
__global__ void segment_count(const int64_t *offsets, int64_t *counts,
                              int64_t num_segments) {
  int64_t seg = blockIdx.x;
  if (threadIdx.x == 0)
    counts[seg] = offsets[seg + 1] - offsets[seg];
}

void fixed(torch::Tensor values, torch::Tensor offsets, torch::Tensor out,
           torch::Tensor x, torch::Tensor rows, torch::Tensor counts) {
  auto stream = at::cuda::getCurrentCUDAStream();
  int64_t num_segments = offsets.size(0) - 1;
  segment_sum_guarded<<<offsets.size(0), 256, 0, stream>>>(
      values.data_ptr<float>(), offsets.data_ptr<int64_t>(),
      out.data_ptr<float>(), num_segments);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  row_sum_leader<<<x.size(0), 256, 0, stream>>>(
      x.data_ptr<float>(), rows.data_ptr<float>(), x.size(1));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  segment_count<<<num_segments, 256, 0, stream>>>(
      offsets.data_ptr<int64_t>(), counts.data_ptr<int64_t>(), num_segments);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("segment_sum", &segment_sum);
  m.def("row_sum", &row_sum);
  m.def("fixed", &fixed);
}
