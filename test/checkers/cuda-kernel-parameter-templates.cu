// cuda-kernel-parameter: kernels in templates that this file never
// instantiates, and arguments given by default.
// RUN: %check_cuda_tidy_plugin %s cuda-kernel-parameter %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-kernel-parameter %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"

template <typename T> struct QuadratureData {
  T *weights;
  T *points;
  int n;
};

// ---- Positive: a reference parameter, whatever the template arguments -----

template <typename T>
__global__ void fill(QuadratureData<T> &data, T value) {
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: kernel parameter 'data' is a reference; the kernel receives the host address of its argument [cuda-kernel-parameter]
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < data.n)
    data.weights[i] = value;
}

template <typename T> void fillAll(QuadratureData<T> &qd, T value) {
  fill<<<(qd.n + 255) / 256, 256>>>(qd, value);
}

namespace quad {
template <typename T, int Order>
__global__ void integrate(const QuadratureData<T> &qd, T *out) {}
// CHECK-NOTES: :[[@LINE-1]]:52: warning: kernel parameter 'qd' is a reference; the kernel receives the host address of its argument [cuda-kernel-parameter]
} // namespace quad

// ---- Positive: a default argument naming a host global --------------------

struct Accumulator {
  float sum;
  int count;
};
Accumulator host_accumulator;

__global__ void accumulate(float v, Accumulator &acc = host_accumulator) {
  // CHECK-NOTES: :[[@LINE-1]]:50: warning: kernel parameter 'acc' is a reference; the kernel receives the host address of its argument [cuda-kernel-parameter]
  // CHECK-NOTES: :[[@LINE-2]]:56: note: the launch binds it to this argument, which is not a __managed__ variable
  atomicAdd(&acc.sum, v);
}

void launchAccumulate() {
  accumulate<<<1, 32>>>(1.0f);
  CUDA_CHECK(cudaGetLastError());
}

// ---- Negative: what depends on the template arguments, managed defaults ----

template <typename T> __global__ void byValue(T value, T *out) {
  out[threadIdx.x] = value;
}

template <typename T> __global__ void byPointer(QuadratureData<T> *data) {
  data->weights[threadIdx.x] = T();
}

template <typename T> void launchByValue(QuadratureData<T> qd, T *out) {
  byValue<<<1, 32>>>(qd, out);
  QuadratureData<T> *d_qd = nullptr;
  CUDA_CHECK(cudaMalloc(&d_qd, sizeof(*d_qd)));
  byPointer<<<1, 32>>>(d_qd);
}

__managed__ float managed_total;
__global__ void bump(float v, float &total = managed_total) { total += v; }

void launchBump() {
  bump<<<1, 1>>>(2.0f);
  CUDA_CHECK(cudaGetLastError());
}
