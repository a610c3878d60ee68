// A shared-memory histogram with atomics; the host splits the input into
// batches with max()/min() on long long sizes.
#include <cuda_runtime.h>

__global__ void histogram(unsigned *bins, const unsigned char *data, long long n) {
  __shared__ unsigned local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    local[i] = 0;
  __syncthreads();
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    atomicAdd(&bins[i], local[i]);
}

cudaError_t histogram_batched(unsigned *bins, const unsigned char *data,
                              long long n, long long batch) {
  batch = max(batch, 1LL << 16);
  for (long long off = 0; off < n; off += batch) {
    long long len = min(batch, n - off);
    int blocks = (int)min((len + 255) / 256, 1024LL);
    histogram<<<blocks, 256>>>(bins, data + off, len);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
      return e;
  }
  return cudaDeviceSynchronize();
}
