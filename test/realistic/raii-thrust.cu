// A clean program: RAII device buffers, a unique_ptr deleter, Thrust, and a
// launcher class whose callers check. Both checks must stay silent.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <memory>
#include <stdexcept>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>
#include <thrust/transform_reduce.h>
#include <vector>

template <typename T> class DeviceArray {
public:
  explicit DeviceArray(size_t n) : n_(n) {
    CUDA_CHECK(cudaMalloc(&ptr_, n * sizeof(T)));
  }
  ~DeviceArray() { cudaFree(ptr_); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  void upload(const std::vector<T> &h) {
    CUDA_CHECK(cudaMemcpy(ptr_, h.data(), n_ * sizeof(T),
                          cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> h(n_);
    CUDA_CHECK(cudaMemcpy(h.data(), ptr_, n_ * sizeof(T),
                          cudaMemcpyDeviceToHost));
    return h;
  }
  T *data() { return ptr_; }
  size_t size() const { return n_; }

private:
  T *ptr_ = nullptr;
  size_t n_;
};

struct StreamDeleter {
  void operator()(CUstream_st *s) const { cudaStreamDestroy(s); }
};
using StreamPtr = std::unique_ptr<CUstream_st, StreamDeleter>;

StreamPtr makeStream() {
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess)
    throw std::runtime_error("cudaStreamCreate failed");
  return StreamPtr(s);
}

__global__ void square(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * x[i];
}

class Squarer {
public:
  explicit Squarer(cudaStream_t s) : stream_(s) {}
  void enqueue(DeviceArray<float> &a) {
    int n = (int)a.size();
    square<<<(n + 127) / 128, 128, 0, stream_>>>(a.data(), n);
  }

private:
  cudaStream_t stream_;
};

struct Square {
  __host__ __device__ float operator()(float v) const { return v * v; }
};

int main() {
  const int n = 1000;
  StreamPtr stream = makeStream();
  DeviceArray<float> a(n);
  a.upload(std::vector<float>(n, 3.0f));
  Squarer sq(stream.get());
  sq.enqueue(a);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  std::vector<float> h = a.download();

  thrust::device_vector<float> v(n);
  thrust::sequence(v.begin(), v.end());
  float sumSquares =
      thrust::transform_reduce(v.begin(), v.end(), Square(), 0.0f,
                               thrust::plus<float>());
  return (h[0] == 9.0f && sumSquares > 0.0f) ? 0 : 1;
}
