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

// A system header, as nvcc's own are: no check reports inside it, through
// the driver or the plugin, whatever the header filter.
#pragma clang system_header

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

// 4. <time.h> and <string.h>. nvcc's crt/common_functions.h includes both
//    (and declares clock, memset and memcpy __host__ __device__); clang's
//    wrapper does not, so a host call of clock() in a file that includes
//    only <stdio.h> finds clang's __device__ clock() alone: "no matching
//    function for call to 'clock'".
#include <string.h>
#include <time.h>

// 5. __CUDACC__ is 1 under nvcc; clang's wrapper defines it empty, so
//    "#if __CUDACC__" fails with "expected value in expression".
#undef __CUDACC__
#define __CUDACC__ 1

// 6. __managed__ variables. nvcc's __managed__ implies __device__: device
//    code reads them, host code too. clang 22 keeps the managed attribute
//    for HIP only and drops it for CUDA, so "__managed__ int n;" is a host
//    variable and every device use is "reference to __host__ variable".
//    As a __device__ variable it is visible to both passes; the checks
//    recognise managed variables by the __managed__ written in the source.
#undef __managed__
#define __managed__ __device__

// 7. The memory-order and scope constants and the __nv_atomic_* builtins
//    of CUDA 12.8+ (CUDA C++ Programming Guide, "Built-in Atomic
//    Functions"). nvcc's crt/device_functions.h declares the constants,
//    which clang's wrapper replaces by its own header; the functions are
//    nvcc builtins. Here they are clang's __atomic builtins, whose order
//    values are the same (0 relaxed ... 5 seq_cst); the scope, which only
//    narrows what the hardware must make visible, is accepted and unused.
#if defined(CUDA_VERSION) && CUDA_VERSION >= 12080
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
template <typename __T> struct __cuda_tidy_unqual { using type = __T; };
template <typename __T> struct __cuda_tidy_unqual<const __T> {
  using type = __T;
};
template <typename __T> struct __cuda_tidy_unqual<volatile __T> {
  using type = __T;
};
template <typename __T> struct __cuda_tidy_unqual<const volatile __T> {
  using type = __T;
};
#define __CUDA_TIDY_VAL(T) typename __cuda_tidy_unqual<T>::type
#define __CUDA_TIDY_SCOPE int __scope = __NV_THREAD_SCOPE_SYSTEM

template <typename __T>
static inline __device__ __CUDA_TIDY_VAL(__T)
    __nv_atomic_load_n(__T *__ptr, int __order, __CUDA_TIDY_SCOPE) {
  return __atomic_load_n(__ptr, __order);
}
template <typename __T, typename __U>
static inline __device__ void __nv_atomic_load(__T *__ptr, __U *__ret,
                                               int __order,
                                               __CUDA_TIDY_SCOPE) {
  __atomic_load(__ptr, __ret, __order);
}
template <typename __T>
static inline __device__ void
__nv_atomic_store_n(__T *__ptr, __CUDA_TIDY_VAL(__T) __val, int __order,
                    __CUDA_TIDY_SCOPE) {
  __atomic_store_n(__ptr, __val, __order);
}
template <typename __T, typename __U>
static inline __device__ void __nv_atomic_store(__T *__ptr, __U *__val,
                                                int __order,
                                                __CUDA_TIDY_SCOPE) {
  __atomic_store(__ptr, __val, __order);
}
template <typename __T>
static inline __device__ __CUDA_TIDY_VAL(__T)
    __nv_atomic_exchange_n(__T *__ptr, __CUDA_TIDY_VAL(__T) __val, int __order,
                           __CUDA_TIDY_SCOPE) {
  return __atomic_exchange_n(__ptr, __val, __order);
}
template <typename __T, typename __U, typename __V>
static inline __device__ void __nv_atomic_exchange(__T *__ptr, __U *__val,
                                                   __V *__ret, int __order,
                                                   __CUDA_TIDY_SCOPE) {
  __atomic_exchange(__ptr, __val, __ret, __order);
}
template <typename __T>
static inline __device__ bool
__nv_atomic_compare_exchange_n(__T *__ptr, __CUDA_TIDY_VAL(__T) * __expected,
                               __CUDA_TIDY_VAL(__T) __desired, bool __weak,
                               int __success, int __failure,
                               __CUDA_TIDY_SCOPE) {
  return __atomic_compare_exchange_n(__ptr, __expected, __desired, __weak,
                                     __success, __failure);
}
template <typename __T, typename __U, typename __V>
static inline __device__ bool
__nv_atomic_compare_exchange(__T *__ptr, __U *__expected, __V *__desired,
                             bool __weak, int __success, int __failure,
                             __CUDA_TIDY_SCOPE) {
  return __atomic_compare_exchange(__ptr, __expected, __desired, __weak,
                                   __success, __failure);
}
#define __CUDA_TIDY_ATOMIC_RMW(OP)                                             \
  template <typename __T>                                                      \
  static inline __device__ __CUDA_TIDY_VAL(__T) __nv_atomic_fetch_##OP(       \
      __T *__ptr, __CUDA_TIDY_VAL(__T) __val, int __order,                     \
      __CUDA_TIDY_SCOPE) {                                                     \
    return __atomic_fetch_##OP(__ptr, __val, __order);                         \
  }                                                                            \
  template <typename __T>                                                      \
  static inline __device__ void __nv_atomic_##OP(                              \
      __T *__ptr, __CUDA_TIDY_VAL(__T) __val, int __order,                     \
      __CUDA_TIDY_SCOPE) {                                                     \
    (void)__atomic_fetch_##OP(__ptr, __val, __order);                          \
  }
__CUDA_TIDY_ATOMIC_RMW(add)
__CUDA_TIDY_ATOMIC_RMW(sub)
__CUDA_TIDY_ATOMIC_RMW(and)
__CUDA_TIDY_ATOMIC_RMW(or)
__CUDA_TIDY_ATOMIC_RMW(xor)
__CUDA_TIDY_ATOMIC_RMW(min)
__CUDA_TIDY_ATOMIC_RMW(max)
#undef __CUDA_TIDY_ATOMIC_RMW
static inline __device__ void __nv_atomic_thread_fence(int __order,
                                                       __CUDA_TIDY_SCOPE) {
  __atomic_thread_fence(__order);
}
#undef __CUDA_TIDY_SCOPE
#undef __CUDA_TIDY_VAL
#endif // CUDA_VERSION >= 12080

#endif // __CUDA__ && __clang__ && !__NVCC__ && __cplusplus
#endif // CUDA_TIDY_NVCC_COMPAT_H
