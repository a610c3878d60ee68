// cuda-warp-collective: a full mask in a warp the launches leave partial.
// RUN: %check_cuda_tidy_plugin %s cuda-warp-collective %t
// RUN: %check_cuda_tidy_driver %s cuda-warp-collective %t

#define FULL_MASK 0xffffffffu

// Sixteen threads per block: lanes 16-31 do not exist, and the first step
// of the reduction reads from them.
__global__ void sixteenLaneSum(const float *in, float *out) {
  float v = in[blockIdx.x * 16 + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down_sync' with mask 0xffffffff names lanes 16-31, which do not exist: every launch of 'sixteenLaneSum' has blocks of 16 threads [cuda-warp-collective]
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

// 48 threads: the second warp is half present.
__global__ void partialLastWarp(const int *in, int *out) {
  int v = in[blockIdx.x * 48 + threadIdx.x];
  int all = __all_sync(FULL_MASK, v > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: '__all_sync' with mask 0xffffffff names lanes 16-31, which do not exist: every launch of 'partialLastWarp' has blocks of 48 threads [cuda-warp-collective]
  out[blockIdx.x * 48 + threadIdx.x] = all;
}

// The fix: a mask of the lanes the block has.
__global__ void sixteenLaneSumFixed(const float *in, float *out) {
  float v = in[blockIdx.x * 16 + threadIdx.x];
  for (int offset = 8; offset > 0; offset /= 2)
    v += __shfl_down_sync(0x0000ffffu, v, offset);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

// Whole warps: nothing absent.
__global__ void wholeWarps(const float *in, float *out) {
  float v = in[blockIdx.x * 64 + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  out[blockIdx.x * 64 + threadIdx.x] = v;
}

// The block size is not known: no fact, no finding.
__global__ void unknownBlock(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  v += __shfl_xor_sync(FULL_MASK, v, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// __syncwarp() with its default mask: the hardware does not wait for lanes
// that do not exist.
__global__ void defaultSyncwarp(int *data) {
  data[threadIdx.x] += 1;
  __syncwarp();
  data[threadIdx.x] += data[threadIdx.x ^ 1];
}

void launchAll(const float *fin, float *fout, const int *iin, int *iout,
               int *data, int n) {
  sixteenLaneSum<<<n, 16>>>(fin, fout);
  partialLastWarp<<<n, 48>>>(iin, iout);
  sixteenLaneSumFixed<<<n, 16>>>(fin, fout);
  wholeWarps<<<n, 64>>>(fin, fout);
  unknownBlock<<<n, n>>>(fin, fout);
  defaultSyncwarp<<<1, 8>>>(data);
}
