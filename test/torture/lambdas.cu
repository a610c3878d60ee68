// RUN: %check_no_crash %s
// Lambdas inside kernels, extended __device__ lambdas passed from host code,
// generic lambdas, captures by value and by reference, lambdas in templates.
#include "common.cuh"

template <typename F> __global__ void forEach(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

template <typename F> __global__ void gridStride(int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    f(i);
}

__global__ void lambdaInKernel(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto scale = [](float x) { return 2.0f * x; };
  auto clamp = [n](int j) { return j < n ? j : n - 1; };
  auto generic = [&](auto x) { return scale(x) + 1; };
  if (i < n)
    out[clamp(i)] = generic(in[i]);
  [&] {
    if (i == 0)
      out[0] = scale(out[0]);
  }();
}

int main() {
  const int n = 4096;
  float *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  float k = 3.0f;
  forEach<<<(n + 255) / 256, 256>>>(n, [=] __device__(int i) { a[i] = k * i; });
  CHECK_LAUNCH();
  gridStride<<<32, 256>>>(n, [=] __host__ __device__(int i) { b[i] = a[i] + 1; });
  CHECK_LAUNCH();
  lambdaInKernel<<<(n + 255) / 256, 256>>>(b, a, n);
  CHECK_LAUNCH();
  auto launchScaled = [&](float s) {
    forEach<<<(n + 255) / 256, 256>>>(n, [=] __device__(int i) { b[i] *= s; });
    return cudaGetLastError();
  };
  CHECK(launchScaled(0.5f));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return 0;
}
