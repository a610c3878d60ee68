// Correct code that cuda-unguarded-thread-index still reports: the file
// expects no finding and is marked XFAIL until the check learns the idiom
// (lit then reports XPASS and the XFAIL line goes; docs/precision.md).
// XFAIL: *
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t

#define R 4

// A halo read before the guard, inside padding of R on each side.
__global__ void paddedStencil(float *out, const float *padded, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float left = padded[i];
  if (i >= n)
    return;
  out[i] = left + padded[i + 2 * R];
}

void launchOpen(int *ids, float *f, const int *ci, const float *cf, int n) {
  paddedStencil<<<(n + 255) / 256, 256>>>(f, cf, n);
}
