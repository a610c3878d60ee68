// cuda-kernel-parameter: CUDA's half and bfloat16 value types write their
// own copy constructors (on the device, one 32-bit move of the pair), but
// their copy is the bitwise copy a launch makes. A class holding them is
// as copyable as its other members make it.
// RUN: %check_cuda_tidy_plugin %s cuda-kernel-parameter %t
// RUN: %check_cuda_tidy_driver %s cuda-kernel-parameter %t
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// ---- Negative: parameters of half and bfloat16 value types ----

// Per-channel decode factors packed as half pairs.
struct PackedScales {
  __half2 scales[3][8];
  int degree;
};
__global__ void decode(PackedScales p, float *out) {
  out[threadIdx.x] = __low2float(p.scales[0][threadIdx.x % 8]) * p.degree;
}

__global__ void axpyHalf2(__half2 alpha, const __half2 *x, __half2 *y) {
  y[threadIdx.x] = __hfma2(alpha, x[threadIdx.x], y[threadIdx.x]);
}

struct Bf16Bias {
  __nv_bfloat162 bias;
  __nv_bfloat16 scale;
  __half offset;
};
__global__ void addBias(Bf16Bias b, float *out) {
  out[threadIdx.x] += __low2float(b.bias) * __bfloat162float(b.scale);
}

// ---- Positive: a class of the program's own around a half pair ----

// Its copy counts references on the host: not what the device gets.
struct CountedHalf2 {
  __half2 value;
  int *copies;
  CountedHalf2(const CountedHalf2 &o) : value(o.value), copies(o.copies) {
    ++*copies;
  }
};
__global__ void readCounted(CountedHalf2 c, float *out) {
// CHECK-MESSAGES: :[[@LINE-1]]:42: warning: kernel parameter 'c' of type 'CountedHalf2' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]
  out[0] = __low2float(c.value);
}
