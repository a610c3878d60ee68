// A __managed__ variable (without __device__) read by a kernel and written
// by the host, as nvcc allows.
#include <cuda_runtime.h>

__managed__ int buckets;

__global__ void hash(const int *keys, int *slots) {
  slots[0] = keys[0] % buckets;
}

int main() {
  buckets = 31;
  int *keys = nullptr, *slots = nullptr;
  hash<<<1, 1>>>(keys, slots);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
