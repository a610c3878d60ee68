// Stand-in for CuPy's complex.cuh: thrust::complex.
#pragma once
// As the CCCL that the real one includes.
#if __cplusplus < 201703L
#error "needs C++17"
#endif
namespace thrust {
template <typename T> struct complex {
  T re, im;
  __device__ complex(T r = T(), T i = T()) : re(r), im(i) {}
  __device__ T real() const { return re; }
};
} // namespace thrust
