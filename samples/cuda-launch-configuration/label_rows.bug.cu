// Per-sample sums of a (batch, classes) score matrix, each row split over two
// blocks that add their halves into the row's output.
// Bug: the launcher puts the two halves on gridDim.x and the batch, which
// comes from the labels tensor, on gridDim.y. gridDim.y stops at 65535
// blocks, so a batch of 70000 samples makes the launch fail.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

constexpr int kThreads = 256;
constexpr int kParts = 2;

__global__ void row_sums_kernel(const float *scores, float *out,
                                int64_t batch, int64_t classes) {
  const int64_t row = blockIdx.y;
  const int64_t part = blockIdx.x;
  const int64_t per_part = (classes + kParts - 1) / kParts;
  const int64_t begin = part * per_part;
  const int64_t end = std::min(classes, begin + per_part);
  float acc = 0.f;
  for (int64_t c = begin + threadIdx.x; c < end; c += blockDim.x)
    acc += scores[row * classes + c];
  __shared__ float partial[kThreads];
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0 && row < batch)
    atomicAdd(&out[row], partial[0]);
}

torch::Tensor row_sums(torch::Tensor scores, torch::Tensor labels) {
  TORCH_CHECK(scores.is_cuda() && scores.dim() == 2, "scores: a CUDA matrix");
  TORCH_CHECK(scores.scalar_type() == at::kFloat, "scores must be float32");
  TORCH_CHECK(labels.size(0) == scores.size(0), "one label per row");
  auto s = scores.contiguous();
  const int64_t batch = labels.size(0);
  const int64_t classes = s.size(1);
  auto out = torch::zeros({batch}, s.options());
  const at::cuda::OptionalCUDAGuard device_guard(device_of(s));
  dim3 grid(kParts, batch);
  row_sums_kernel<<<grid, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
      s.data_ptr<float>(), out.data_ptr<float>(), batch, classes);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("row_sums", &row_sums); }
