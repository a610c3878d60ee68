// The op's device dispatch, in a file of its own (no binding here): the
// tensors come from Python through bind.cpp.
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

torch::Tensor pick_rows_cuda(torch::Tensor boxes, torch::Tensor sorted_boxes);

// Bug: sorted_boxes is whatever Python passed (a sliced or transposed
// tensor) and reaches the kernel as a dense array.
torch::Tensor pick_rows(torch::Tensor boxes, torch::Tensor sorted_boxes) {
  TORCH_CHECK(boxes.is_cuda(), "boxes must be a CUDA tensor");
  TORCH_CHECK(sorted_boxes.is_cuda(), "sorted_boxes must be a CUDA tensor");
  const at::cuda::OptionalCUDAGuard guard(device_of(boxes));
  return pick_rows_cuda(boxes.contiguous(), sorted_boxes);
}

// The fix: .contiguous() at the call.
torch::Tensor pick_rows_contig(torch::Tensor boxes,
                               torch::Tensor sorted_boxes) {
  TORCH_CHECK(boxes.is_cuda(), "boxes must be a CUDA tensor");
  TORCH_CHECK(sorted_boxes.is_cuda(), "sorted_boxes must be a CUDA tensor");
  const at::cuda::OptionalCUDAGuard guard(device_of(boxes));
  return pick_rows_cuda(boxes.contiguous(), sorted_boxes.contiguous());
}
