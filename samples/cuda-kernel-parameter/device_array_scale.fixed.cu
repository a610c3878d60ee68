// Scales a vector of 1 Mi floats on the GPU and checks it on the host.
//
// The device memory is owned by a small RAII class, DeviceArray, whose
// destructor frees it. The kernel takes a DeviceSpan: a pointer and a
// length, trivially copyable, that the launch copies to the device bit by
// bit.
//
// cuda-tidy sample for cuda-kernel-parameter (fixed form): a kernel
// parameter must be trivially copyable. The launch makes its copy of the
// argument on the host and destroys it there when the launch returns; a
// DeviceArray passed by value would free the memory the kernel still uses.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CUDA_CHECK(call)                                                     \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n", __FILE__, \
                   __LINE__, #call, cudaGetErrorString(err_));               \
      std::exit(EXIT_FAILURE);                                               \
    }                                                                        \
  } while (0)

namespace {

constexpr int kN = 1 << 20;

struct DeviceSpan {
  float *data;
  int n;
};

class DeviceArray {
public:
  explicit DeviceArray(int n) : n_(n) {
    CUDA_CHECK(cudaMalloc(&data_, n * sizeof(float)));
  }
  DeviceArray(const DeviceArray &other) = default;
  ~DeviceArray() { cudaFree(data_); }
  __host__ __device__ float *data() const { return data_; }
  __host__ __device__ int size() const { return n_; }
  DeviceSpan span() const { return {data_, n_}; }

private:
  float *data_ = nullptr;
  int n_ = 0;
};

__global__ void scale(DeviceSpan v, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < v.n)
    v.data[i] *= factor;
}

} // namespace

int main() {
  std::vector<float> host(kN);
  for (int i = 0; i < kN; ++i)
    host[i] = 0.5f * (i % 1000);
  DeviceArray values(kN);
  CUDA_CHECK(cudaMemcpy(values.data(), host.data(), kN * sizeof(float),
                        cudaMemcpyHostToDevice));
  scale<<<(kN + 255) / 256, 256>>>(values.span(), 3.0f);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> result(kN);
  CUDA_CHECK(cudaMemcpy(result.data(), values.data(), kN * sizeof(float),
                        cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (result[i] != 3.0f * host[i])
      ++wrong;
  if (wrong) {
    std::printf("FAILED: %d of %d values wrong\n", wrong, kN);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
