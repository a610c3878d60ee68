// A kernel whose signature names a type from a header that is missing
// (`tv::vec3` of a third-party header not checked out) is an invalid
// declaration, but its body compiled: the kernel-side checks read it.
// Reading such a parameter (`pts[i].x`) is data whose value is unknown; it
// changes no guard, barrier or thread index. A finding is dropped when its
// access holds what did not compile, when its index may come from it, when
// a condition of the kernel holds it, or when the kernel holds a call that
// did not compile (it may be a guard, a barrier or a collective).
// RUN: %check_cuda_tidy_driver --compile-errors %s 'cuda-*' %t

#include <cuda_runtime.h>
#include "thirdparty/tensor_view.h"
// CHECK-MESSAGES: :[[@LINE-1]]:10: error: 'thirdparty/tensor_view.h' file not found [clang-diagnostic-error]

// Positives: each is reported as in the same kernel with tv's header present.
__global__ void scale_points(const tv::vec3 *pts, float *out, int n) {
// CHECK-MESSAGES: :[[@LINE-1]]:36: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    out[i] = pts[i].x * 2.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'out' at thread-derived index 'i' can reach the bound in 'i <= n' [cuda-unguarded-thread-index]
}

__global__ void rotate_tile(const tv::vec3 *pts, float *out) {
// CHECK-MESSAGES: :[[@LINE-1]]:35: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  __shared__ float tile[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * 256 + tid;
  tile[tid] = pts[i].y;
  out[i] = tile[(tid + 1) % 256];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: read of shared 'tile' at '(tid + 1) % 256' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
}

__global__ void count_visible(const tv::vec3 *pts, int *visible, int n) {
// CHECK-MESSAGES: :[[@LINE-1]]:37: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    visible[0] = visible[0] + 1;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every thread of the grid updates global 'visible' at '0' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
}

__global__ void partial_sum(const tv::vec3 *pts, float *out) {
// CHECK-MESSAGES: :[[@LINE-1]]:35: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = pts[blockIdx.x * 256 + tid].z;
  if (tid < 128) {
    part[tid] += part[tid + 128];
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: read of shared 'part' at 'tid + 128' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
  }
  if (tid == 0)
    out[blockIdx.x] = part[0];
}

__global__ void warp_total(const tv::vec3 *pts, float *out, int n) {
// CHECK-MESSAGES: :[[@LINE-1]]:34: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 1.0f;
  if (threadIdx.x < 8)
    v += __shfl_down_sync(0xffffffff, v, 4);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down_sync' with mask 0xffffffff names lanes 8-31, which do not execute it under 'threadIdx.x < 8' [cuda-warp-collective]
  if (i < n)
    out[i] = v + pts[i].x;
}

// Negatives: each is reported with tv's header present, where the
// erroneous part is known.

// A call that did not compile may be the guard.
__global__ void guarded_by_helper(const tv::vec3 *pts, float *out, int n) {
// CHECK-MESSAGES: :[[@LINE-1]]:41: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!tv::inside(pts, i))
  // CHECK-MESSAGES: :[[@LINE-1]]:8: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
    return;
  if (i <= n)
    out[i] = 0.0f;
}

// A call that did not compile may be the barrier.
__global__ void staged(const tv::vec3 *pts, float *out) {
// CHECK-MESSAGES: :[[@LINE-1]]:30: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  __shared__ float tile[256];
  int tid = threadIdx.x;
  tile[tid] = pts[blockIdx.x * 256 + tid].x;
  tv::block_sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  out[blockIdx.x * 256 + tid] = tile[(tid + 1) % 256];
}

// The index is computed from data of unknown type.
__global__ void scatter(const tv::vec3 *pts, float *out, int n) {
// CHECK-MESSAGES: :[[@LINE-1]]:31: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int slot = i + pts[i].offset;
  if (slot <= n)
    out[slot] = 1.0f;
}

// The access itself is through the parameter of unknown type.
__global__ void reset_points(tv::vec3 *pts, int n) {
// CHECK-MESSAGES: :[[@LINE-1]]:30: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    pts[i].x = 0.0f;
}

// A condition holds what did not compile: the guards are unknown.
__global__ void visible_only(const tv::vec3 *pts, float *out, float *mask, int n) {
// CHECK-MESSAGES: :[[@LINE-1]]:36: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && pts[i].visible)
    out[i] = 1.0f;
  if (i <= n)
    mask[i] = 0.0f;
}
