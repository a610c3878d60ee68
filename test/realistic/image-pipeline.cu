// An image pipeline in the style of the cuda-samples: RGBA to grey, a
// separable box blur with a halo, and a Sobel magnitude, launched on grids
// rounded up to 16x16 blocks. The horizontal blur pass guards its pixel but
// not the halo it reads to the right; everything else is guarded.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdio>
#include <vector>

#define BLOCK 16
#define RADIUS 2

__global__ void rgbaToGrey(const uchar4 *rgba, float *grey, int width,
                           int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  uchar4 p = rgba[y * width + x];
  grey[y * width + x] = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
}

__global__ void blurRows(const float *in, float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < RADIUS || x >= width || y >= height)
    return;
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += in[y * width + x + k];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: read of 'in' at thread-derived index 'y * width + x + k' can reach the bound in 'x >= width' [cuda-unguarded-thread-index]
  out[y * width + x] = sum / (2 * RADIUS + 1);
}

__global__ void blurColumns(const float *in, float *out, int width,
                            int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k) {
    int yy = min(max(y + k, 0), height - 1);
    sum += in[yy * width + x];
  }
  out[y * width + x] = sum / (2 * RADIUS + 1);
}

__global__ void sobel(const float *in, float *mag, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
    return;
  const float *r0 = in + (y - 1) * width;
  float gx = in[y * width + x + 1] - in[y * width + x - 1];
  float gy = in[(y + 1) * width + x] - in[(y - 1) * width + x];
  mag[y * width + x] = sqrtf(gx * gx + gy * gy) + 0.0f * r0[x];
}

int main() {
  const int width = 1000, height = 750;
  const size_t pixels = (size_t)width * height;
  std::vector<uchar4> h(pixels, make_uchar4(10, 20, 30, 255));
  uchar4 *dRgba = nullptr;
  float *dGrey = nullptr, *dTmp = nullptr, *dOut = nullptr;
  checkCudaErrors(cudaMalloc(&dRgba, pixels * sizeof(uchar4)));
  checkCudaErrors(cudaMalloc(&dGrey, pixels * sizeof(float)));
  checkCudaErrors(cudaMalloc(&dTmp, pixels * sizeof(float)));
  checkCudaErrors(cudaMalloc(&dOut, pixels * sizeof(float)));
  checkCudaErrors(cudaMemcpy(dRgba, h.data(), pixels * sizeof(uchar4),
                             cudaMemcpyHostToDevice));

  dim3 block(BLOCK, BLOCK);
  dim3 grid((width + BLOCK - 1) / BLOCK, (height + BLOCK - 1) / BLOCK);
  rgbaToGrey<<<grid, block>>>(dRgba, dGrey, width, height);
  getLastCudaError("rgbaToGrey");
  blurRows<<<grid, block>>>(dGrey, dTmp, width, height);
  getLastCudaError("blurRows");
  blurColumns<<<grid, block>>>(dTmp, dGrey, width, height);
  getLastCudaError("blurColumns");
  sobel<<<grid, block>>>(dGrey, dOut, width, height);
  getLastCudaError("sobel");

  std::vector<float> out(pixels);
  checkCudaErrors(cudaMemcpy(out.data(), dOut, pixels * sizeof(float),
                             cudaMemcpyDeviceToHost));
  printf("centre %f\n", out[pixels / 2 + width / 2]);
  checkCudaErrors(cudaFree(dRgba));
  checkCudaErrors(cudaFree(dGrey));
  checkCudaErrors(cudaFree(dTmp));
  checkCudaErrors(cudaFree(dOut));
  return 0;
}
