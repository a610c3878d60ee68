// Row softmax with an online max, and a host check of the result that uses
// the global isfinite() and min() that nvcc's headers provide.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <vector>

__global__ void softmax_rows(float *out, const float *in, int rows, int cols) {
  int r = blockIdx.x;
  if (r >= rows)
    return;
  __shared__ float red[32];
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m = fmaxf(m, in[r * cols + c]);
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (threadIdx.x % 32 == 0)
    red[threadIdx.x / 32] = m;
  __syncthreads();
  m = red[0];
  for (int w = 1; w < (int)(blockDim.x / 32); ++w)
    m = fmaxf(m, red[w]);
  __syncthreads();
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += __expf(in[r * cols + c] - m);
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffff, s, o);
  if (threadIdx.x % 32 == 0)
    red[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    for (int w = 0; w < (int)(blockDim.x / 32); ++w)
      t += red[w];
    red[0] = t;
  }
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    out[r * cols + c] = __expf(in[r * cols + c] - m) / red[0];
}

bool check_rows(const std::vector<float> &h, int rows, int cols) {
  int shown = 0;
  for (int r = 0; r < rows; ++r) {
    float sum = 0.0f;
    for (int c = 0; c < cols; ++c) {
      float v = h[r * cols + c];
      if (!isfinite(v))
        return false;
      sum += v;
    }
    if (fabsf(sum - 1.0f) > 1e-3f && shown < min(rows, 4)) {
      printf("row %d sums to %f\n", r, sum);
      ++shown;
    }
  }
  return shown == 0;
}

int run_softmax(int rows, int cols) {
  float *d_in, *d_out;
  size_t bytes = (size_t)rows * cols * sizeof(float);
  if (cudaMalloc(&d_in, bytes) != cudaSuccess)
    return 1;
  if (cudaMalloc(&d_out, bytes) != cudaSuccess)
    return 1;
  std::vector<float> h(rows * cols, 0.5f);
  if (cudaMemcpy(d_in, h.data(), bytes, cudaMemcpyHostToDevice) != cudaSuccess)
    return 1;
  softmax_rows<<<rows, 256>>>(d_out, d_in, rows, cols);
  if (cudaGetLastError() != cudaSuccess)
    return 1;
  if (cudaMemcpy(h.data(), d_out, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  bool ok = check_rows(h, rows, cols);
  if (cudaFree(d_in) != cudaSuccess || cudaFree(d_out) != cudaSuccess)
    return 1;
  return ok ? 0 : 2;
}
