extern "C" __global__ void swap_a(float *p) {
  __shared__ float tile[32];
  tile[threadIdx.x] = p[threadIdx.x];
  p[0] = tile[31 - threadIdx.x];
}
