// cuda-divergent-syncthreads on templates that this file never
// instantiates: where the barriers are and which conditions lead to them
// rarely depend on the template arguments. A condition that does is left
// alone.
// RUN: %check_cuda_tidy_plugin %s cuda-divergent-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-divergent-syncthreads %t

//===--- Flagged -----------------------------------------------------------===//

// A header's tiled transpose: only the first half of the block waits.
template <typename T, int TILE>
__global__ void halfBlockWaits(T *out, const T *in) {
  __shared__ T tile[TILE][TILE + 1];
  if (threadIdx.y < 8) {
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on the thread index [cuda-divergent-syncthreads]
  }
  out[threadIdx.x * TILE + threadIdx.y] = tile[threadIdx.x][threadIdx.y];
}

// A member of a class template that no one calls: threads that found
// nothing leave before the barrier.
template <typename Key>
struct Probe {
  __device__ void find(const Key *keys, Key target, int *found) {
    if (keys[threadIdx.x] != target)
      return;
    *found = threadIdx.x;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' is not reached by every thread of the block: control flow to it depends on per-thread data [cuda-divergent-syncthreads]
  }
};

//===--- Not flagged -------------------------------------------------------===//

// CUB-style block reduction: every thread passes every barrier.
template <typename T, int BLOCK_THREADS>
struct BlockReduce {
  __device__ T sum(T v, T *warpSums) {
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0)
      warpSums[threadIdx.x / 32] = v;
    __syncthreads();
    T total = T(0);
    if (threadIdx.x == 0)
      for (int w = 0; w < BLOCK_THREADS / 32; ++w)
        total += warpSums[w];
    __syncthreads();
    return total;
  }
};

// A condition on a template argument is the same for the whole block.
template <bool Synchronise, typename T>
__global__ void maybeWait(T *data) {
  data[threadIdx.x] += T(1);
  if (Synchronise)
    __syncthreads();
  data[threadIdx.x] *= T(2);
}

// A bound that is a template argument: every thread passes when it is the
// block size, as the launch code of such headers makes it.
template <typename T, int BLOCK_THREADS>
__global__ void guardedByBlockSize(T *data) {
  if (threadIdx.x < BLOCK_THREADS) {
    data[threadIdx.x] += T(1);
    __syncthreads();
  }
}

// A uniform loop over tiles, in a class template's member.
template <typename T, int TILE>
struct TileLoop {
  __device__ void run(const T *in, T *out, int tiles) {
    __shared__ T tile[TILE];
    for (int t = 0; t < tiles; ++t) {
      tile[threadIdx.x] = in[t * TILE + threadIdx.x];
      __syncthreads();
      out[t * TILE + threadIdx.x] = tile[TILE - 1 - threadIdx.x];
      __syncthreads();
    }
  }
};
