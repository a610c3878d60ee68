// RUN: %check_no_crash %s
// Templates, variadic kernels, __host__ __device__ templates, non-type
// template parameters, recursion through templates, SFINAE.
#include "common.cuh"
#include <type_traits>
#include <utility>

template <typename T> __host__ __device__ T square(T x) { return x * x; }

template <typename T, int N> struct Vec {
  T v[N];
  __host__ __device__ T &operator[](int i) { return v[i]; }
  __host__ __device__ const T &operator[](int i) const { return v[i]; }
};

template <typename T> __host__ __device__ T sumAll() { return T(0); }
template <typename T, typename First, typename... Rest>
__host__ __device__ T sumAll(First f, Rest... rest) {
  return T(f) + sumAll<T>(rest...);
}

template <typename T, typename... Args>
__global__ void variadicKernel(T *out, int n, Args... args) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = sumAll<T>(args...) + square(T(i));
}

template <int N> __global__ void unrolled(float *out, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * N;
#pragma unroll
  for (int k = 0; k < N; ++k)
    if (i + k < n)
      out[i + k] = float(k);
}

template <typename T, typename = std::enable_if_t<std::is_floating_point<T>::value>>
__global__ void onlyFloats(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = -p[i];
}

template <typename F, typename... Args>
void launch(F kernel, dim3 grid, dim3 block, Args &&...args) {
  kernel<<<grid, block>>>(std::forward<Args>(args)...);
  CHECK_LAUNCH();
}

template <typename T, int N> __device__ T dot(const Vec<T, N> &a, const Vec<T, N> &b) {
  T s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i] * b[i];
  return s;
}

__global__ void useVec(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Vec<float, 3> a{{1.f, 2.f, float(i)}};
  if (i < n)
    out[i] = dot(a, a);
}

int main() {
  const int n = 1 << 10;
  float *d = nullptr;
  double *dd = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&dd, n * sizeof(double)));
  variadicKernel<<<(n + 255) / 256, 256>>>(d, n, 1, 2.0f, 3.0, 'c');
  CHECK_LAUNCH();
  variadicKernel<double><<<(n + 255) / 256, 256>>>(dd, n);
  CHECK_LAUNCH();
  unrolled<4><<<(n / 4 + 127) / 128, 128>>>(d, n);
  CHECK_LAUNCH();
  onlyFloats<<<(n + 255) / 256, 256>>>(dd, n);
  CHECK_LAUNCH();
  launch(useVec, dim3((n + 255) / 256), dim3(256), d, n);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(dd));
  CHECK(cudaFree(d));
  return 0;
}
