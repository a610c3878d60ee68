// cuda-global-memory-race on shapes reduced from real reports (in our own
// words, neutral names); docs/precision/mined-global-memory-race.jsonl
// says where each comes from.
// RUN: %check_cuda_tidy_plugin %s cuda-global-memory-race %t
// RUN: %check_cuda_tidy_driver %s cuda-global-memory-race %t

#define TILE 256

// A tile rasterizer counts, for each primitive, the pixels it touches. The
// ids of a batch of primitives are staged in shared memory, and every pixel
// thread of the tile walks the same batch: all of them update the same
// count with a plain increment.
__global__ void rasterCountSharedIds(const int *tileIds, const float *alpha,
                                     int *hitCount, int perTile) {
  __shared__ int batch[TILE];
  int pixel = blockIdx.x * blockDim.x + threadIdx.x;
  batch[threadIdx.x] = tileIds[blockIdx.x * TILE + threadIdx.x];
  __syncthreads();
  for (int j = 0; j < perTile && j < TILE; ++j)
    if (alpha[pixel * TILE + j] > 0.5f)
      hitCount[batch[j]]++;
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: every thread of the grid updates global 'hitCount' at 'batch[j]' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
}

// The fix.
__global__ void rasterCountSharedIdsAtomic(const int *tileIds,
                                           const float *alpha, int *hitCount,
                                           int perTile) {
  __shared__ int batch[TILE];
  int pixel = blockIdx.x * blockDim.x + threadIdx.x;
  batch[threadIdx.x] = tileIds[blockIdx.x * TILE + threadIdx.x];
  __syncthreads();
  for (int j = 0; j < perTile && j < TILE; ++j)
    if (alpha[pixel * TILE + j] > 0.5f)
      atomicAdd(&hitCount[batch[j]], 1);
}

// A password search: every thread whose candidate matches bumps a shared
// found counter with a plain increment (two matches lose one).
__global__ void searchCandidates(const unsigned *hashes, unsigned target,
                                 int *found, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && hashes[i] == target)
    *found += 1;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every thread of the grid updates global 'found' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
}

// A tree build whose last block (picked by an atomicInc ticket) finishes
// the bounding box and bumps the step counter: one thread of the grid.
__global__ void boundingBoxLastBlock(const float *x, float *blockMax,
                                     unsigned *arrived, float *radius,
                                     int *step, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    blockMax[blockIdx.x] = i < n ? x[i] : 0.0f;
    __threadfence();
    unsigned last = gridDim.x - 1;
    if (last == atomicInc(arrived, last)) {
      float m = 0.0f;
      for (unsigned b = 0; b <= last; ++b)
        m = fmaxf(m, blockMax[b]);
      *radius = m;
      (*step)++;
    }
  }
}
