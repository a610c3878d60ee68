//===- cuda_tidy_nvcc_compat.h - What nvcc accepts and clang does not -----===//
//
// cuda-tidy force-includes this header (-include) in every CUDA file it
// analyses, after clang's CUDA runtime wrapper, so that code written for nvcc
// parses with clang 22. It declares only what nvcc's own headers declare and
// clang's CUDA headers lack; docs/nvcc-compat.md lists each item and why.
// Turn it off with --no-nvcc-compat.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_NVCC_COMPAT_H
#define CUDA_TIDY_NVCC_COMPAT_H

#if defined(__CUDA__) && defined(__clang__) && !defined(__NVCC__) &&         \
    defined(__cplusplus)

// 1. Host min/max. nvcc's math_functions.h declares min and max in the
//    global namespace for host and device code, for every mix of int,
//    unsigned, long, unsigned long, long long, unsigned long long, float and
//    double; clang declares them for device code only, so a host call fails
//    with "no matching function for call to 'max'".
#define __CUDA_TIDY_MINMAX(R, A, B)                                            \
  static inline __host__ R min(A __a, B __b) {                                 \
    return (R)__a < (R)__b ? (R)__a : (R)__b;                                  \
  }                                                                            \
  static inline __host__ R max(A __a, B __b) {                                 \
    return (R)__a > (R)__b ? (R)__a : (R)__b;                                  \
  }
__CUDA_TIDY_MINMAX(int, int, int)
__CUDA_TIDY_MINMAX(unsigned int, unsigned int, unsigned int)
__CUDA_TIDY_MINMAX(unsigned int, int, unsigned int)
__CUDA_TIDY_MINMAX(unsigned int, unsigned int, int)
__CUDA_TIDY_MINMAX(long, long, long)
__CUDA_TIDY_MINMAX(unsigned long, unsigned long, unsigned long)
__CUDA_TIDY_MINMAX(unsigned long, long, unsigned long)
__CUDA_TIDY_MINMAX(unsigned long, unsigned long, long)
__CUDA_TIDY_MINMAX(long long, long long, long long)
__CUDA_TIDY_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__CUDA_TIDY_MINMAX(unsigned long long, long long, unsigned long long)
__CUDA_TIDY_MINMAX(unsigned long long, unsigned long long, long long)
__CUDA_TIDY_MINMAX(float, float, float)
__CUDA_TIDY_MINMAX(double, double, double)
__CUDA_TIDY_MINMAX(double, float, double)
__CUDA_TIDY_MINMAX(double, double, float)
#undef __CUDA_TIDY_MINMAX

// 2. Host isfinite/isinf/isnan/signbit in the global namespace. nvcc's
//    runtime headers include <math.h>, whose C++ version brings them there
//    from std; clang's wrapper includes only <cmath>, so an unqualified host
//    call finds clang's device overloads alone. Including <math.h> is what
//    nvcc does, and does not clash with a later #include <math.h>.
#include <math.h>

// 3. Cache-hinted stores. nvcc declares __stcs, __stcg and __stwb (and
//    __stwt) for every scalar and vector type; clang 22 has only __stwt, for
//    some types. For the analysis a plain store is what they do. The second
//    parameter is not deduced, so that __stcs(float *, double) converts as
//    nvcc's overloads do; clang's own __stwt overloads win where they exist.
template <typename __T> struct __cuda_tidy_same { using type = __T; };
#define __CUDA_TIDY_STORE(NAME)                                                \
  template <typename __T>                                                      \
  static inline __device__ void NAME(                                          \
      __T *__ptr, typename __cuda_tidy_same<__T>::type __value) {              \
    *__ptr = __value;                                                          \
  }
__CUDA_TIDY_STORE(__stcs)
__CUDA_TIDY_STORE(__stcg)
__CUDA_TIDY_STORE(__stwb)
__CUDA_TIDY_STORE(__stwt)
#undef __CUDA_TIDY_STORE

#endif // __CUDA__ && __clang__ && !__NVCC__ && __cplusplus
#endif // CUDA_TIDY_NVCC_COMPAT_H
