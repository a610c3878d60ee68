// Two solvers in the styles of the cuda-samples nbody and of textbook 3-D
// stencils: an all-pairs gravity step that stages body tiles in shared memory
// (the last tile is partial and padded with massless bodies), and a 7-point
// Laplacian on a 3-D grid with its boundary layer held. Both are guarded on
// every path; cuda-tidy must stay silent.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdio>
#include <vector>

#define TILE 128

__global__ void gravityStep(const float4 *pos, float4 *vel, int n, float dt) {
  __shared__ float4 tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float3 acc = make_float3(0.0f, 0.0f, 0.0f);
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    int j = t * TILE + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      float3 d = make_float3(tile[k].x - me.x, tile[k].y - me.y,
                             tile[k].z - me.z);
      float inv = rsqrtf(d.x * d.x + d.y * d.y + d.z * d.z + 1e-4f);
      float s = tile[k].w * inv * inv * inv;
      acc.x += d.x * s;
      acc.y += d.y * s;
      acc.z += d.z * s;
    }
    __syncthreads();
  }
  if (i >= n)
    return;
  float4 v = vel[i];
  vel[i] = make_float4(v.x + acc.x * dt, v.y + acc.y * dt, v.z + acc.z * dt,
                       v.w);
}

__global__ void laplacian3d(const float *u, float *out, int nx, int ny,
                            int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz)
    return;
  size_t at = ((size_t)z * ny + y) * nx + x;
  if (x == 0 || y == 0 || z == 0 || x >= nx - 1 || y >= ny - 1 ||
      z >= nz - 1) {
    out[at] = u[at];
    return;
  }
  size_t plane = (size_t)nx * ny;
  out[at] = u[at - 1] + u[at + 1] + u[at - nx] + u[at + nx] + u[at - plane] +
            u[at + plane] - 6.0f * u[at];
}

int main() {
  const int n = 5000; // not a multiple of TILE
  std::vector<float4> hPos(n), hVel(n, make_float4(0, 0, 0, 0));
  for (int i = 0; i < n; ++i)
    hPos[i] = make_float4(i % 17, i % 23, i % 29, 1.0f);
  float4 *dPos, *dVel;
  checkCudaErrors(cudaMalloc(&dPos, n * sizeof(float4)));
  checkCudaErrors(cudaMalloc(&dVel, n * sizeof(float4)));
  checkCudaErrors(cudaMemcpy(dPos, hPos.data(), n * sizeof(float4),
                             cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(dVel, hVel.data(), n * sizeof(float4),
                             cudaMemcpyHostToDevice));
  gravityStep<<<(n + TILE - 1) / TILE, TILE>>>(dPos, dVel, n, 0.01f);
  getLastCudaError("gravityStep");

  const int nx = 100, ny = 60, nz = 30;
  const size_t cells = (size_t)nx * ny * nz;
  float *dU, *dOut;
  checkCudaErrors(cudaMalloc(&dU, cells * sizeof(float)));
  checkCudaErrors(cudaMalloc(&dOut, cells * sizeof(float)));
  checkCudaErrors(cudaMemset(dU, 0, cells * sizeof(float)));
  dim3 block(32, 4, 4);
  dim3 grid((nx + 31) / 32, (ny + 3) / 4, (nz + 3) / 4);
  laplacian3d<<<grid, block>>>(dU, dOut, nx, ny, nz);
  getLastCudaError("laplacian3d");

  std::vector<float4> out(n);
  checkCudaErrors(cudaMemcpy(out.data(), dVel, n * sizeof(float4),
                             cudaMemcpyDeviceToHost));
  printf("v[0] = (%f, %f, %f)\n", out[0].x, out[0].y, out[0].z);
  checkCudaErrors(cudaFree(dPos));
  checkCudaErrors(cudaFree(dVel));
  checkCudaErrors(cudaFree(dU));
  checkCudaErrors(cudaFree(dOut));
  return 0;
}
