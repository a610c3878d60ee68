// Thrust and CUB from CUDA 13's CCCL, with a host-side batch size computed
// with min() on unsigned values, as nvcc code does.
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>

struct square {
  __host__ __device__ float operator()(float v) const { return v * v; }
};

cudaError_t sum_of_squares(const thrust::host_vector<float> &h, float *result) {
  thrust::device_vector<float> d = h;
  thrust::transform(d.begin(), d.end(), d.begin(), square());
  thrust::device_vector<float> out(1);
  size_t temp_bytes = 0;
  unsigned n = (unsigned)d.size();
  unsigned batch = min(n, 1u << 20);
  cudaError_t e = cub::DeviceReduce::Sum(nullptr, temp_bytes,
                                         thrust::raw_pointer_cast(d.data()),
                                         thrust::raw_pointer_cast(out.data()),
                                         (int)batch);
  if (e != cudaSuccess)
    return e;
  thrust::device_vector<unsigned char> temp(temp_bytes);
  e = cub::DeviceReduce::Sum(thrust::raw_pointer_cast(temp.data()), temp_bytes,
                             thrust::raw_pointer_cast(d.data()),
                             thrust::raw_pointer_cast(out.data()), (int)batch);
  if (e != cudaSuccess)
    return e;
  *result = out[0];
  return cudaSuccess;
}
