// The file test/clangd/config.test opens: a fast and a medium check's findings.
void leak(float *h, size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}
