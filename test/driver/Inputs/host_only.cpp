// A C++ file that calls the runtime API from host code.
#include <cuda_runtime.h>
void copyBack(float *h, const float *d, size_t n) {
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}
