// RUN: %check_no_crash %s
// Texture and surface objects over CUDA arrays and linear memory.
#include "common.cuh"

__global__ void sampleTex(cudaTextureObject_t tex, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}

__global__ void fetchLinear(cudaTextureObject_t tex, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch<float>(tex, i);
}

__global__ void writeSurf(cudaSurfaceObject_t surf, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float v = float(x + y);
    surf2Dwrite(v, surf, x * (int)sizeof(float), y);
    float back = 0;
    surf2Dread(&back, surf, x * (int)sizeof(float), y);
  }
}

int main() {
  const int w = 64, h = 32, n = w * h;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &desc, w, h, cudaArraySurfaceLoadStore));

  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeClamp;
  td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  cudaSurfaceObject_t surf = 0;
  CHECK(cudaCreateSurfaceObject(&surf, &res));

  float *lin = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&lin, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  cudaResourceDesc lres = {};
  lres.resType = cudaResourceTypeLinear;
  lres.res.linear.devPtr = lin;
  lres.res.linear.desc = desc;
  lres.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureObject_t ltex = 0;
  CHECK(cudaCreateTextureObject(&ltex, &lres, &td, nullptr));

  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  writeSurf<<<grid, block>>>(surf, w, h);
  CHECK_LAUNCH();
  sampleTex<<<grid, block>>>(tex, out, w, h);
  CHECK_LAUNCH();
  fetchLinear<<<(n + 255) / 256, 256>>>(ltex, out, n);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaDestroyTextureObject(ltex));
  CHECK(cudaDestroySurfaceObject(surf));
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeArray(array));
  CHECK(cudaFree(lin));
  CHECK(cudaFree(out));
  return 0;
}
