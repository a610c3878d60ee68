// The file that test/clangd/lsp-session.test edits through Neovim.
#include <cstdlib>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int run(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  if (cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyDeviceToDevice) != cudaSuccess)
    return 1;
  scale<<<(n + 255) / 256, 256>>>(d, n);
  if (cudaGetLastError() != cudaSuccess)
    return 1;
  free(h);
  return 0;
}
