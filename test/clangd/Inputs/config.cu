// The file test/clangd/config.test opens: one finding from a cuda-* check.
void leak(size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return;
}
