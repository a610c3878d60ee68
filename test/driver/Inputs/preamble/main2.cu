// Opens with the same #include <...> lines as main1.cu.
#include <cuda_runtime.h>
#include <helper.h>
int main() {
  float *p;
  allocate(&p);
  cudaFree(p);
  cudaDeviceSynchronize();
}
