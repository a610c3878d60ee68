// cuda-missing-syncthreads through helpers that wait at a barrier: such a
// call ends the interval, but what the helper touches before its barrier
// happens on the way in, and what it touches after it on the way out. A
// grid-stride pass that stages a tile in 'stage(); __syncthreads();' and
// then reads across it must wait again before the next pass stages over
// it (the shape of a distance kernel whose epilog lost its barrier).
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t

#define TILE 256

//===--- Flagged -----------------------------------------------------------===//

// Free helpers: the stores of the next pass's stage() race with the reads
// of this pass's rowSum().
__device__ void stage(float *tile, const float *src, int base) {
  tile[threadIdx.x] = src[base + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to shared 'tile' at 'threadIdx.x' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+16]]:5: note: in the call of 'stage' here
  // CHECK-NOTES: :[[@LINE+8]]:12: note: read here at 'k'
  // CHECK-NOTES: :[[@LINE+15]]:31: note: in the call of 'rowSum' here
  __syncthreads();
}

__device__ float rowSum(const float *tile) {
  float acc = 0.f;
  for (int k = 0; k < TILE; ++k)
    acc += tile[k];
  return acc;
}

__global__ void passesNoBarrier(const float *src, float *dst, int n) {
  __shared__ float tile[TILE];
  for (int base = blockIdx.x * TILE; base < n; base += TILE * gridDim.x) {
    stage(tile, src, base);
    dst[base + threadIdx.x] = rowSum(tile);
  }
}

// A class template nobody instantiates: the pass and its steps are
// members, called through 'this->'.
template <typename T, int N>
struct Contraction {
  const T *src;
  T *dst;
  int n;

  __device__ void load(T *tile, int base) {
    tile[threadIdx.x] = src[base + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'tile' at 'threadIdx.x' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+16]]:7: note: in the call of 'load' here
    // CHECK-NOTES: :[[@LINE+7]]:14: note: read here at 'k'
    // CHECK-NOTES: :[[@LINE+15]]:15: note: in the call of 'accumulate' here
    __syncthreads();
  }
  __device__ T accumulate(const T *tile) {
    T acc = T(0);
    for (int k = 0; k < N; ++k)
      acc += tile[k] * tile[k];
    return acc;
  }
  __device__ void epilog(T acc, int base) { dst[base + threadIdx.x] = acc; }

  __device__ void run() {
    __shared__ T tile[N];
    for (int base = blockIdx.x * N; base < n; base += N * gridDim.x) {
      this->load(tile, base);
      T acc = this->accumulate(tile);
      this->epilog(acc, base);
    }
  }
};

// One helper stages and reads: its read after the barrier races with its
// own store of the next pass.
__device__ float stageAndShift(float *tile, float v) {
  tile[threadIdx.x] = v;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write to shared 'tile' at 'threadIdx.x' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+10]]:9: note: in the call of 'stageAndShift' here
  // CHECK-NOTES: :[[@LINE+2]]:10: note: read here at '(threadIdx.x + 1) % TILE'
  __syncthreads();
  return tile[(threadIdx.x + 1) % TILE];
}

__global__ void shiftPasses(const float *src, float *dst, int rounds) {
  __shared__ float tile[TILE];
  float v = src[blockIdx.x * TILE + threadIdx.x];
  for (int r = 0; r < rounds; ++r)
    v = stageAndShift(tile, v);
  dst[blockIdx.x * TILE + threadIdx.x] = v;
}

//===--- Not flagged -------------------------------------------------------===//

// The fix: a barrier after the pass's reads.
__global__ void passesWithBarrier(const float *src, float *dst, int n) {
  __shared__ float tile[TILE];
  for (int base = blockIdx.x * TILE; base < n; base += TILE * gridDim.x) {
    stage(tile, src, base);
    dst[base + threadIdx.x] = rowSum(tile);
    __syncthreads();
  }
}

template <typename T, int N>
struct ContractionFixed {
  const T *src;
  T *dst;
  int n;

  __device__ void load(T *tile, int base) {
    tile[threadIdx.x] = src[base + threadIdx.x];
    __syncthreads();
  }
  __device__ T accumulate(const T *tile) {
    T acc = T(0);
    for (int k = 0; k < N; ++k)
      acc += tile[k] * tile[k];
    return acc;
  }
  __device__ void epilog(T acc, int base) {
    dst[base + threadIdx.x] = acc;
    __syncthreads();
  }

  __device__ void run() {
    __shared__ T tile[N];
    for (int base = blockIdx.x * N; base < n; base += N * gridDim.x) {
      this->load(tile, base);
      T acc = this->accumulate(tile);
      this->epilog(acc, base);
    }
  }
};

// The helper waits before it stages as well as after.
__device__ void stageGuarded(float *tile, const float *src, int base) {
  __syncthreads();
  tile[threadIdx.x] = src[base + threadIdx.x];
  __syncthreads();
}

__global__ void passesBarrierFirst(const float *src, float *dst, int n) {
  __shared__ float tile[TILE];
  for (int base = blockIdx.x * TILE; base < n; base += TILE * gridDim.x) {
    stageGuarded(tile, src, base);
    dst[base + threadIdx.x] = rowSum(tile);
  }
}

// Each thread reads back only its own element.
__global__ void ownElementPasses(const float *src, float *dst, int n) {
  __shared__ float tile[TILE];
  for (int base = blockIdx.x * TILE; base < n; base += TILE * gridDim.x) {
    stage(tile, src, base);
    dst[base + threadIdx.x] = 2.f * tile[threadIdx.x];
  }
}

// One pass only: the reads follow the barrier and nothing stages again.
__global__ void onePass(const float *src, float *dst) {
  __shared__ float tile[TILE];
  stage(tile, src, blockIdx.x * TILE);
  dst[blockIdx.x * TILE + threadIdx.x] = rowSum(tile);
}

// A block reduction that waits after its last read: its accesses are
// between its own barriers, and the loop around it adds no race.
__device__ float blockSum(float *partial, float v) {
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int s = TILE / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  float total = partial[0];
  __syncthreads();
  return total;
}

__global__ void reducePasses(const float *src, float *dst, int rounds) {
  __shared__ float partial[TILE];
  float v = src[blockIdx.x * TILE + threadIdx.x];
  for (int r = 0; r < rounds; ++r)
    v = v - blockSum(partial, v) / TILE;
  dst[blockIdx.x * TILE + threadIdx.x] = v;
}

// Stage and shift with the barrier at the end of the helper as well.
__device__ float stageAndShiftSafe(float *tile, float v) {
  tile[threadIdx.x] = v;
  __syncthreads();
  float w = tile[(threadIdx.x + 1) % TILE];
  __syncthreads();
  return w;
}

__global__ void shiftPassesSafe(const float *src, float *dst, int rounds) {
  __shared__ float tile[TILE];
  float v = src[blockIdx.x * TILE + threadIdx.x];
  for (int r = 0; r < rounds; ++r)
    v = stageAndShiftSafe(tile, v);
  dst[blockIdx.x * TILE + threadIdx.x] = v;
}

// Double buffering: each pass stages into the page the previous pass did
// not read, and the barrier inside the helper orders the page it reads.
__device__ void stagePage(float *page, const float *src, int base) {
  page[threadIdx.x] = src[base + threadIdx.x];
  __syncthreads();
}

__global__ void pingPong(const float *src, float *dst, int n) {
  __shared__ float pages[2][TILE];
  int p = 0;
  for (int base = blockIdx.x * TILE; base < n; base += TILE * gridDim.x) {
    stagePage(pages[p], src, base);
    float acc = 0.f;
    for (int k = 0; k < TILE; ++k)
      acc += pages[p][k];
    dst[base + threadIdx.x] = acc;
    p ^= 1;
  }
}

//===--- Flagged: a pass object that a kernel calls -------------------------===//

// The kernel calls run(), whose passes call the members that stage and
// read: the helpers' accesses are followed one call deeper.
struct Passes {
  const float *src;
  float *dst;
  int n;

  __device__ void load(float *tile, int base) {
    tile[threadIdx.x] = src[base + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'tile' at 'threadIdx.x' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+14]]:7: note: in the call of 'load' here
    // CHECK-NOTES: :[[@LINE+7]]:14: note: read here at 'k'
    // CHECK-NOTES: :[[@LINE+13]]:19: note: in the call of 'sum' here
    __syncthreads();
  }
  __device__ float sum(const float *tile) {
    float acc = 0.f;
    for (int k = 0; k < TILE; ++k)
      acc += tile[k];
    return acc;
  }
  __device__ void run() {
    __shared__ float tile[TILE];
    for (int base = blockIdx.x * TILE; base < n; base += TILE * gridDim.x) {
      load(tile, base);
      float acc = sum(tile);
      dst[base + threadIdx.x] = acc;
    }
  }
};

__global__ void passObject(Passes p) { p.run(); }

//===--- Not flagged: the same object with the barrier after the reads ------===//

struct PassesFixed {
  const float *src;
  float *dst;
  int n;

  __device__ void load(float *tile, int base) {
    tile[threadIdx.x] = src[base + threadIdx.x];
    __syncthreads();
  }
  __device__ float sum(const float *tile) {
    float acc = 0.f;
    for (int k = 0; k < TILE; ++k)
      acc += tile[k];
    return acc;
  }
  __device__ void run() {
    __shared__ float tile[TILE];
    for (int base = blockIdx.x * TILE; base < n; base += TILE * gridDim.x) {
      load(tile, base);
      float acc = sum(tile);
      __syncthreads();
      dst[base + threadIdx.x] = acc;
    }
  }
};

__global__ void passObjectFixed(PassesFixed p) { p.run(); }
