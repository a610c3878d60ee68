// Stand-in for PyCUDA's pycuda-complex.hpp.
#pragma once
namespace pycuda {
// As the real header: clang warns here, in the library's code, not the
// user's (the folder is a system folder).
__device__ constexpr float log10_invf() { return 1.f / ::log(10.f); }
template <class T> struct complex { T re, im; };
template <class T> __device__ T abs(const complex<T> &z) {
  return sqrt(z.re * z.re + z.im * z.im);
}
} // namespace pycuda
