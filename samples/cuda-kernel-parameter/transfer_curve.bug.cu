// Applies a tone curve to 1 Mi pixel intensities on the GPU. The curve is
// chosen at run time and given to the kernel as a function pointer.
//
// cuda-tidy sample for cuda-kernel-parameter (bug form): a function
// pointer given to a kernel must hold a device address. The host address of
// gamma_curve means nothing on the GPU; the device address of a __device__
// function is read from a __device__ variable with cudaMemcpyFromSymbol.
#include <cmath>
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

typedef float (*Curve)(float);

__host__ __device__ float gamma_curve(float x) { return sqrtf(x); }

__device__ Curve d_gamma_curve = gamma_curve;

__global__ void apply_curve(Curve curve, float *pixels, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    pixels[i] = curve(pixels[i]);
}

} // namespace

int main() {
  std::vector<float> host(kN);
  for (int i = 0; i < kN; ++i)
    host[i] = (i % 256) / 255.0f;
  float *pixels;
  CUDA_CHECK(cudaMalloc(&pixels, kN * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(pixels, host.data(), kN * sizeof(float),
                        cudaMemcpyHostToDevice));
  apply_curve<<<(kN + 255) / 256, 256>>>(gamma_curve, pixels, kN);
  CUDA_CHECK(cudaGetLastError());
  cudaError_t status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    std::printf("FAILED: kernel failed: %s\n", cudaGetErrorString(status));
    (void)cudaFree(pixels);
    return 1;
  }
  std::vector<float> result(kN);
  CUDA_CHECK(cudaMemcpy(result.data(), pixels, kN * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(pixels));
  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (std::fabs(result[i] - gamma_curve(host[i])) > 1e-6f)
      ++wrong;
  if (wrong) {
    std::printf("FAILED: %d of %d pixels wrong\n", wrong, kN);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
