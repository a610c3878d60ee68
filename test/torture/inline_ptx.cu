// RUN: %check_no_crash %s
// Inline PTX: outputs, inputs, memory clobbers, predicates, special
// registers, and asm inside templates and loops.
#include "common.cuh"
#include <cstdint>

__device__ __forceinline__ unsigned laneId() {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ float ldgNc(const float *p) {
  float v;
  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ void stCs(float *p, float v) {
  asm volatile("st.global.cs.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

template <typename T> __device__ T addCarry(T a, T b) {
  T r;
  asm("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__global__ void ptxKernel(const float *in, float *out, unsigned *lanes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = ldgNc(in + i);
  for (int k = 0; k < 3; ++k)
    asm("fma.rn.f32 %0, %0, %1, %1;" : "+f"(v) : "f"(1.5f));
  stCs(out + i, v);
  lanes[i] = laneId() + addCarry<unsigned>(1u, 2u);
  unsigned pred;
  asm("{\n\t.reg .pred p;\n\tsetp.gt.f32 p, %1, 0.0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(pred)
      : "f"(v));
  if (pred)
    asm volatile("membar.gl;" ::: "memory");
}

int main() {
  const int n = 2048;
  float *in = nullptr, *out = nullptr;
  unsigned *lanes = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMalloc(&lanes, n * sizeof(unsigned)));
  CHECK(cudaMemset(in, 0, n * sizeof(float)));
  ptxKernel<<<(n + 127) / 128, 128>>>(in, out, lanes, n);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(lanes));
  CHECK(cudaFree(out));
  CHECK(cudaFree(in));
  return 0;
}
