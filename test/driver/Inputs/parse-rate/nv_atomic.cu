// CUDA 12.8+ code that reads a counter with nvcc's built-in atomics.
#include <cuda_runtime.h>

__device__ unsigned bump(unsigned *counter, unsigned long long *total,
                         float *sum) {
  unsigned seen = __nv_atomic_load_n(counter, __NV_ATOMIC_RELAXED);
  unsigned expected = seen;
  while (!__nv_atomic_compare_exchange_n(counter, &expected, seen + 1, false,
                                         __NV_ATOMIC_ACQ_REL,
                                         __NV_ATOMIC_RELAXED,
                                         __NV_THREAD_SCOPE_DEVICE))
    seen = expected;
  __nv_atomic_fetch_add(total, 1ull, __NV_ATOMIC_RELAXED);
  __nv_atomic_add(sum, 0.5f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_max(counter, 7u, __NV_ATOMIC_SEQ_CST);
  __nv_atomic_store_n(counter, 0u, __NV_ATOMIC_RELEASE);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM);
  return seen;
}

__global__ void count(unsigned *counter, unsigned long long *total,
                      float *sum, unsigned *out) {
  out[0] = bump(counter, total, sum);
}
