// Code that needs the CUDA defaults: device intrinsics (__ldg), cooperative groups
// (which needs CUDA 13's cccl folder), Thrust, and kernel launches.
#include <cooperative_groups.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void streamingStore(float *out, const float *in, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + block.thread_rank();
  if (i < n)
    out[i] = __ldg(in + i) * 2.0f;
  block.sync();
}

#ifdef REQUIRE_DEFINE
#error "REQUIRE_DEFINE reached the compile command"
#endif

int main() {
  thrust::device_vector<float> v(1024, 1.0f);
  thrust::sort(v.begin(), v.end());
  float *p = thrust::raw_pointer_cast(v.data());
  streamingStore<<<4, 256>>>(p, p, 1024);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
