// The file test/clangd/fast-check-filter.test opens: one finding of a check
// measured fast (cuda-unchecked-api-call) and one of a check measured
// between clangd's fast and slow lines (cuda-device-memory-leak).
void leak(float *h, size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}
