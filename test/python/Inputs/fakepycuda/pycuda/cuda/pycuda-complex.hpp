// Stand-in for PyCUDA's pycuda-complex.hpp.
#pragma once
namespace pycuda {
template <class T> struct complex { T re, im; };
template <class T> __device__ T abs(const complex<T> &z) {
  return sqrt(z.re * z.re + z.im * z.im);
}
} // namespace pycuda
