// cuda-global-memory-race on a last-block ticket counter that nothing
// resets: the first launch works, and the next one starts counting where it
// ended, so no block draws the last ticket and the final result is never
// computed. The negatives reset the counter in the last block, in another
// kernel or from the host, take a wrapping ticket, or count on a pointer
// the host hands in.
// RUN: %check_cuda_tidy_plugin %s cuda-global-memory-race %t
// RUN: %check_cuda_tidy_driver %s cuda-global-memory-race %t

//===--- Flagged -----------------------------------------------------------===//

__device__ unsigned int blocksDone = 0;

// The threadFenceReduction shape without its 'count = 0' in the last block.
__global__ void sumNeverReset(const float *in, float *partial, float *total,
                              int n) {
  __shared__ bool amLast;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = i < n ? in[i] : 0.0f;
    __threadfence();
    unsigned ticket = atomicAdd(&blocksDone, 1u);
    // CHECK-NOTES: :[[@LINE-1]]:23: warning: 'atomicAdd' takes the block's ticket from global counter 'blocksDone', which nothing resets: the next launch starts counting where this one ended, and no block draws the last ticket [cuda-global-memory-race]
    amLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b)
      s += partial[b];
    // CHECK-NOTES: :[[@LINE-1]]:12: note: the block that draws the last ticket runs here; reset 'blocksDone' to 0 in its branch, or take the ticket with 'atomicInc(&blocksDone, gridDim.x - 1)', which wraps to 0
    *total = s;
  }
}

__device__ unsigned int maxDone;

// atomicInc with the grid size as its limit leaves the counter at
// gridDim.x, not 0: the next launch's first block wraps it.
__global__ void maxWrapsLate(const float *in, float *blockMax, float *result) {
  if (threadIdx.x == 0) {
    blockMax[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    if (atomicInc(&maxDone, gridDim.x) == gridDim.x - 1) {
      // CHECK-NOTES: :[[@LINE-1]]:9: warning: 'atomicInc' takes the block's ticket from global counter 'maxDone', which nothing resets: the next launch starts counting where this one ended, and no block draws the last ticket [cuda-global-memory-race]
      float m = blockMax[0];
      // CHECK-NOTES: :[[@LINE-1]]:17: note: the block that draws the last ticket runs here; reset 'maxDone' to 0 in its branch, or take the ticket with 'atomicInc(&maxDone, gridDim.x - 1)', which wraps to 0
      for (unsigned b = 1; b < gridDim.x; ++b)
        m = fmaxf(m, blockMax[b]);
      *result = m;
    }
  }
}

//===--- Not flagged -------------------------------------------------------===//

__device__ unsigned int retired = 0;

// CUDA's threadFenceReduction: the last block resets the counter.
__global__ void sumResetInLastBlock(const float *in, float *partial,
                                    float *total, int n) {
  __shared__ bool amLast;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = i < n ? in[i] : 0.0f;
    __threadfence();
    unsigned ticket = atomicInc(&retired, gridDim.x);
    amLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b)
      s += partial[b];
    *total = s;
    retired = 0;
  }
}

__device__ unsigned int wrapping = 0;

// A limit of gridDim.x - 1 wraps the counter to 0 with the last ticket.
__global__ void sumWrapping(const float *in, float *partial, float *total) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    if (atomicInc(&wrapping, gridDim.x - 1) == gridDim.x - 1) {
      float s = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b)
        s += partial[b];
      *total = s;
    }
  }
}

__device__ unsigned int hostReset = 0;

// The host resets the counter before each launch.
__global__ void sumHostReset(const float *in, float *partial, float *total) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    if (atomicAdd(&hostReset, 1u) == gridDim.x - 1) {
      float s = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b)
        s += partial[b];
      *total = s;
    }
  }
}

void launchSum(const float *in, float *partial, float *total, int blocks) {
  unsigned zero = 0;
  for (int rep = 0; rep < 10; ++rep) {
    cudaMemcpyToSymbol(hostReset, &zero, sizeof(zero));
    sumHostReset<<<blocks, 32>>>(in, partial, total);
  }
}

__device__ unsigned int kernelReset = 0;

__global__ void resetCounter() { kernelReset = 0; }

// Another kernel resets the counter.
__global__ void sumKernelReset(const float *in, float *partial, float *total) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    if (atomicAdd(&kernelReset, 1u) == gridDim.x - 1) {
      float s = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b)
        s += partial[b];
      *total = s;
    }
  }
}

// The counter is a buffer the host hands in (and may clear before each
// launch).
__global__ void sumCounterParameter(const float *in, float *partial,
                                    float *total, unsigned *arrived) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    if (atomicAdd(arrived, 1u) == gridDim.x - 1) {
      float s = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b)
        s += partial[b];
      *total = s;
    }
  }
}

__device__ unsigned int queueTail = 0;

// A counter that hands out slots of a queue, with no last-block test.
__global__ void enqueue(const int *flags, int *queue, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flags[i])
    queue[atomicAdd(&queueTail, 1u)] = i;
}

extern __device__ unsigned int sharedDone;

// Declared 'extern': another unit (separate compilation) may reset it.
__global__ void sumExternCounter(const float *in, float *partial,
                                 float *total) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    if (atomicAdd(&sharedDone, 1u) == gridDim.x - 1) {
      float s = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b)
        s += partial[b];
      *total = s;
    }
  }
}
