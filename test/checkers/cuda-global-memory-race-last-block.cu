// cuda-global-memory-race on the last-block pattern: each block stores a
// partial result to global memory, one thread takes a ticket from a
// counter, and the block that draws the last ticket reads every partial.
// The store must be fenced before the ticket (else the last block may read
// a stale partial), and when several threads store, a barrier must come
// between their stores and the ticket.
// RUN: %check_cuda_tidy_plugin %s cuda-global-memory-race %t
// RUN: %check_cuda_tidy_driver %s cuda-global-memory-race %t

__device__ unsigned int finished = 0;

// The partial of each block is stored, and the ticket is taken at once.
__global__ void sumNoFence(const float *in, float *partial, float *total,
                           int n) {
  __shared__ bool amLast;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = v;
    unsigned ticket = atomicAdd(&finished, 1u);
    // CHECK-NOTES: :[[@LINE-1]]:23: warning: 'atomicAdd' takes the block's ticket with no __threadfence() after the store of its partial result to global 'partial': the last block may read a stale partial [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the partial result is stored here; call __threadfence() between this store and the ticket
    // CHECK-NOTES: :[[@LINE+7]]:12: note: the last block reads the partials here
    amLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b)
      s += partial[b];
    *total = s;
    finished = 0;
  }
}

// The ticket compared in place, with atomicInc; the read sits in the
// branch the comparison opens.
__global__ void maxNoFence(const float *in, float *blockMax,
                           unsigned *arrived, float *result) {
  if (threadIdx.x == 0) {
    blockMax[blockIdx.x] = in[blockIdx.x];
    unsigned last = gridDim.x - 1;
    if (atomicInc(arrived, last) == last) {
      // CHECK-NOTES: :[[@LINE-1]]:9: warning: 'atomicInc' takes the block's ticket with no __threadfence() after the store of its partial result to global 'blockMax': the last block may read a stale partial [cuda-global-memory-race]
      // CHECK-NOTES: :[[@LINE-4]]:5: note: the partial result is stored here; call __threadfence() between this store and the ticket
      // CHECK-NOTES: :[[@LINE+3]]:22: note: the last block reads the partials here
      float m = 0.0f;
      for (unsigned b = 0; b <= last; ++b)
        m = fmaxf(m, blockMax[b]);
      *result = m;
    }
  }
}

// The partial is stored by a helper; the last block returns early
// otherwise.
__device__ void storePartial(float *dst, float v) { dst[blockIdx.x] = v; }

__global__ void helperStoreNoFence(const float *in, float *partial,
                                   unsigned *arrived, float *total) {
  if (threadIdx.x != 0)
    return;
  storePartial(partial, in[blockIdx.x]);
  unsigned ticket = atomicAdd(arrived, 1u);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: 'atomicAdd' takes the block's ticket with no __threadfence() after the store of its partial result to global 'partial': the last block may read a stale partial [cuda-global-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the partial result is stored here; call __threadfence() between this store and the ticket
  // CHECK-NOTES: :[[@LINE+5]]:10: note: the last block reads the partials here
  if (ticket != gridDim.x - 1)
    return;
  float s = 0.0f;
  for (unsigned b = 0; b < gridDim.x; ++b)
    s += partial[b];
  *total = s;
}

// Every thread stores its part and fences, but thread 0 takes the ticket
// without waiting for the others.
__global__ void partsNoBarrier(const float *in, float *parts,
                               unsigned *arrived, float *total) {
  __shared__ bool amLast;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  parts[i] = in[i] * 2.0f;
  __threadfence();
  if (threadIdx.x == 0)
    amLast = atomicAdd(arrived, 1u) == gridDim.x - 1;
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'atomicAdd' takes the block's ticket on a path with no __syncthreads() after the other threads store their parts of global 'parts': the last block may read parts not yet stored [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-5]]:3: note: the threads store here; call __syncthreads() between these stores and the ticket
    // CHECK-NOTES: :[[@LINE+5]]:12: note: the last block reads the partials here
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned k = 0; k < gridDim.x * blockDim.x; ++k)
      s += parts[k];
    *total = s;
  }
}

// Every thread adds its block's counts to a global histogram with an
// atomic, and thread 0 takes the ticket right after its own adds; the last
// block, told through __syncthreads_or, scans the histogram (a top-k
// histogram pass, fixed in NVIDIA/cccl 879ab26a11 by a barrier before the
// ticket).
__global__ void histogramLastBlock(const unsigned *keys, unsigned *hist,
                                   unsigned *arrived, unsigned *prefix) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&local[keys[blockIdx.x * blockDim.x + threadIdx.x] & 255], 1u);
  __syncthreads();
  atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
  __threadfence();
  bool isLast = false;
  if (threadIdx.x == 0)
    isLast = atomicAdd(arrived, 1u) == gridDim.x - 1;
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'atomicAdd' takes the block's ticket on a path with no __syncthreads() after the other threads store their parts of global 'hist': the last block may read parts not yet stored [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-6]]:3: note: the threads store here; call __syncthreads() between these stores and the ticket
    // CHECK-NOTES: :[[@LINE+4]]:16: note: the last block reads the partials here
  if (__syncthreads_or(isLast) && threadIdx.x == 0) {
    unsigned total = 0;
    for (int b = 0; b < 256; ++b) {
      total += hist[b];
      prefix[b] = total;
    }
  }
}

// Negatives: the correct forms.

// The histogram pass with the barrier before the ticket.
__global__ void histogramLastBlockFixed(const unsigned *keys, unsigned *hist,
                                        unsigned *arrived, unsigned *prefix) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&local[keys[blockIdx.x * blockDim.x + threadIdx.x] & 255], 1u);
  __syncthreads();
  atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
  __threadfence();
  __syncthreads();
  bool isLast = false;
  if (threadIdx.x == 0)
    isLast = atomicAdd(arrived, 1u) == gridDim.x - 1;
  if (__syncthreads_or(isLast) && threadIdx.x == 0) {
    unsigned total = 0;
    for (int b = 0; b < 256; ++b) {
      total += hist[b];
      prefix[b] = total;
    }
  }
}

// The reference form: the partial stored by a helper, a fence by every
// thread, the ticket by thread 0, a barrier, and the counter reset.
__device__ void blockSum(const float *in, float *out, float *scratch) {
  scratch[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      scratch[threadIdx.x] += scratch[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = scratch[0];
}

__global__ void singlePassSum(const float *in, float *out) {
  extern __shared__ float scratch[];
  __shared__ bool amLast;
  blockSum(in, out, scratch);
  if (gridDim.x > 1) {
    __threadfence();
    if (threadIdx.x == 0) {
      unsigned ticket = atomicInc(&finished, gridDim.x);
      amLast = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (amLast) {
      float s = 0.0f;
      for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        s += out[b];
      if (threadIdx.x == 0) {
        out[0] = s;
        finished = 0;
      }
    }
  }
}

// The fence by the storing thread itself, just before the ticket.
__global__ void sumFenced(const float *in, float *partial, unsigned *arrived,
                          float *total) {
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

// Every thread stores, a barrier, then thread 0 fences and takes the
// ticket (the grid-barrier form).
__global__ void partsBarrierThenFence(const float *in, float *parts,
                                      unsigned *arrived, float *total) {
  __shared__ bool amLast;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  parts[i] = in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    amLast = atomicAdd(arrived, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned k = 0; k < gridDim.x * blockDim.x; ++k)
      s += parts[k];
    *total = s;
  }
}

// The fence inside a helper that signals the block is done.
__device__ unsigned signalDone(unsigned *arrived) {
  __threadfence();
  return atomicAdd(arrived, 1u);
}

__global__ void sumFencedInHelper(const float *in, float *partial,
                                  unsigned *arrived, float *total) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    if (signalDone(arrived) == gridDim.x - 1) {
      float s = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b)
        s += partial[b];
      *total = s;
    }
  }
}

// An unknown function between the store and the ticket may fence.
__device__ void publish();

__global__ void sumUnknownCall(const float *in, float *partial,
                               unsigned *arrived, float *total) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    publish();
    if (atomicAdd(arrived, 1u) == gridDim.x - 1)
      *total = partial[0] + partial[1];
  }
}

// Inline assembly between them ('fence.acq_rel.gpu').
__global__ void sumAsmFence(const float *in, float *partial,
                            unsigned *arrived, float *total) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    if (atomicAdd(arrived, 1u) == gridDim.x - 1)
      *total = partial[0] + partial[1];
  }
}

// A ticket that picks a slot, not the last block: no read of the buffer
// depends on a ticket test.
__global__ void compact(const float *in, float *out, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.0f) {
    unsigned slot = atomicAdd(count, 1u);
    out[slot] = in[i];
  }
}

// The last block reads a buffer that no block stored before its ticket.
__global__ void lastBlockReadsInput(const float *weights, unsigned *arrived,
                                    float *total) {
  if (threadIdx.x == 0 && atomicAdd(arrived, 1u) == gridDim.x - 1)
    *total = weights[0];
}

// A counter hands out free cells of a tree; the test reads a slot loaded
// at a cell's index, not the ticket's value: no block is picked as last.
__global__ void insertIntoTree(int *child, int *bottom, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int node = 0;
  while (i < n) {
    int ch = child[node];
    if (ch == -1) {
      if (atomicCAS(&child[node], -1, i) == -1)
        i += blockDim.x * gridDim.x;
    } else {
      int cell = atomicSub(bottom, 1) - 1;
      child[cell] = ch;
      node = cell;
    }
  }
}
