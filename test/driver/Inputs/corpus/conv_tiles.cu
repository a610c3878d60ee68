// A 2D convolution whose host code clamps tile borders with the integer
// min()/max() overloads nvcc declares for host code.
#include <cuda_runtime.h>
#include <cstddef>

constexpr int R = 2;

__global__ void conv2d(float *out, const float *in, const float *k, int w,
                       int h, int x0, int y0, int x1, int y1) {
  int x = x0 + blockIdx.x * blockDim.x + threadIdx.x;
  int y = y0 + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= x1 || y >= y1)
    return;
  float acc = 0.0f;
  for (int dy = -R; dy <= R; ++dy)
    for (int dx = -R; dx <= R; ++dx) {
      int sx = min(max(x + dx, 0), w - 1);
      int sy = min(max(y + dy, 0), h - 1);
      acc += k[(dy + R) * (2 * R + 1) + dx + R] * in[sy * w + sx];
    }
  out[y * w + x] = acc;
}

cudaError_t conv2d_tiled(float *out, const float *in, const float *k, int w,
                         int h, int tile, cudaStream_t s) {
  for (int ty = 0; ty < h; ty += tile)
    for (int tx = 0; tx < w; tx += tile) {
      int x0 = max(0, tx), y0 = max(0, ty);
      int x1 = min(w, tx + tile), y1 = min(h, ty + tile);
      dim3 block(16, 16);
      dim3 grid((x1 - x0 + 15) / 16, (y1 - y0 + 15) / 16);
      conv2d<<<grid, block, 0, s>>>(out, in, k, w, h, x0, y0, x1, y1);
      if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        return e;
    }
  return cudaSuccess;
}

size_t chunk_bytes(size_t total, size_t budget) {
  return min(total, max(budget, (size_t)4096));
}
