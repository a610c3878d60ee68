// cuda-missing-syncthreads: shared arrays reached through pointer members
// ('this->tile', 'p.sh') that every object of the file points at one
// __shared__ array, and helpers called on a base class that a template
// parameter names ('this->stage()', 'BaseT::total()').
// RUN: %check_cuda_tidy_plugin %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-syncthreads %t -- --extra-arg=-I%S/../Inputs

//===--- Flagged -----------------------------------------------------------===//

// A pass object whose tile is a member set in its constructor: each pass of
// the grid-stride loop refills the tile (load() waits after its stores)
// while other threads may still sum the previous pass's tile.
template <typename T, int N>
struct TilePass {
  T *tile;
  const T *x;
  T *out;
  int n;
  __device__ TilePass(T *s, const T *x_, T *o, int n_)
      : tile(s), x(x_), out(o), n(n_) {}
  __device__ void load(int base) {
    tile[threadIdx.x] = x[base + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write to shared 'tile' at 'threadIdx.x' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+13]]:7: note: in the call of 'load' here
    __syncthreads();
  }
  __device__ T sum() {
    T acc = T(0);
    for (int k = 0; k < N; ++k)
      acc += tile[k];
    // CHECK-NOTES: :[[@LINE-1]]:14: note: read here at 'k'
    // CHECK-NOTES: :[[@LINE+6]]:15: note: in the call of 'sum' here
    return acc;
  }
  __device__ void run() {
    for (int base = blockIdx.x * N; base < n; base += N * gridDim.x) {
      load(base);
      T acc = sum();
      out[base + threadIdx.x] = acc;
    }
  }
};

template <typename T, int N>
__global__ void tilePasses(const T *x, T *out, int n) {
  __shared__ T tile[N];
  TilePass<T, N> pass(tile, x, out, n);
  pass.run();
}
template __global__ void tilePasses<float, 256>(const float *, float *, int);

// A parameter block whose pointer member is set to the shared buffer: the
// helper sums it with no barrier after the stores.
struct SumParams {
  float *sh;
  int n;
};
__device__ float sumAll(const SumParams &p) {
  float s = 0.f;
  for (int k = 0; k < 128; ++k)
    s += p.sh[k];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: read of shared 'buf' at 'k' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
  // CHECK-NOTES: :[[@LINE+10]]:22: note: in the call of 'sumAll' here
  return s;
}
__global__ void paramsNoBarrier(const float *in, float *out) {
  __shared__ float buf[128];
  SumParams p;
  p.sh = buf;
  p.n = 128;
  p.sh[threadIdx.x] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: note: written here at 'threadIdx.x'
  out[threadIdx.x] = sumAll(p);
}

// Helpers of a base class named by a template parameter, called through
// 'this->' and 'BaseT::': the stores of one and the reads of the other
// with no barrier between.
template <typename T>
struct StageBase {
  T *smem;
  __device__ void stage(const T *x, int i) { smem[threadIdx.x] = x[i]; }
  __device__ T total() {
    T s = 0;
    for (int k = 0; k < 64; ++k)
      s += smem[k];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: read of shared 's' at 'k' may see the write of another thread: no barrier between them on this path [cuda-missing-syncthreads]
    // CHECK-NOTES: :[[@LINE+10]]:24: note: in the call of 'total' here
    // CHECK-NOTES: :[[@LINE-7]]:46: note: written here at 'threadIdx.x'
    // CHECK-NOTES: :[[@LINE+7]]:5: note: in the call of 'stage' here
    return s;
  }
};
template <typename BaseT>
struct Staged : BaseT {
  __device__ void go(const float *x, float *out) {
    this->stage(x, threadIdx.x);
    out[threadIdx.x] = BaseT::total();
  }
};
__global__ void baseNoBarrier(const float *x, float *out) {
  __shared__ float s[64];
  Staged<StageBase<float>> d;
  d.smem = s;
  d.go(x, out);
}

//===--- Not flagged -------------------------------------------------------===//

// The same pass object with a barrier after the sum: the next pass's
// stores wait for every thread's reads.
template <int N>
struct SyncedPass {
  float *tile;
  const float *x;
  float *out;
  int n;
  __device__ SyncedPass(float *s, const float *x_, float *o, int n_)
      : tile(s), x(x_), out(o), n(n_) {}
  __device__ void run() {
    for (int base = blockIdx.x * N; base < n; base += N * gridDim.x) {
      tile[threadIdx.x] = x[base + threadIdx.x];
      __syncthreads();
      float acc = 0.f;
      for (int k = 0; k < N; ++k)
        acc += tile[k];
      out[base + threadIdx.x] = acc;
      __syncthreads();
    }
  }
};
__global__ void syncedPasses(const float *x, float *out, int n) {
  __shared__ float tile[128];
  SyncedPass<128> pass(tile, x, out, n);
  pass.run();
}

// A member that points to global memory, set on the host: each thread
// reads and writes its own element.
struct Buffers {
  float *data;
  int n;
};
__global__ void scaleBuffers(Buffers b, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.n)
    b.data[i] = b.data[i] * f;
}
void launchScale(float *d, int n) {
  Buffers b{d, n};
  scaleBuffers<<<(n + 255) / 256, 256>>>(b, 2.f);
}

// A block's staging area in a parameter block: each thread reads only the
// slot it wrote, then after a barrier thread 0 sums them.
struct Staging {
  float *slots;
};
__device__ float ownSlot(const Staging &s) { return s.slots[threadIdx.x]; }
__global__ void stagedSum(const float *in, float *out) {
  __shared__ float slots[256];
  Staging s{slots};
  s.slots[threadIdx.x] = in[threadIdx.x];
  float mine = ownSlot(s);
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.f;
    for (int k = 0; k < 256; ++k)
      total += s.slots[k];
    out[blockIdx.x] = total + mine;
  }
}

// A tree reduction through a base class's member pointer, with its
// barriers.
template <typename T>
struct ReduceBase {
  T *red;
  __device__ T reduce(T v) {
    red[threadIdx.x] = v;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
      if (threadIdx.x < s)
        red[threadIdx.x] += red[threadIdx.x + s];
      __syncthreads();
    }
    return red[0];
  }
};
template <typename BaseT>
struct Reducer : BaseT {
  __device__ void go(const float *x, float *out) {
    float total = this->reduce(x[blockIdx.x * 256 + threadIdx.x]);
    if (threadIdx.x == 0)
      out[blockIdx.x] = total;
  }
};
__global__ void reduceBlocks(const float *x, float *out) {
  __shared__ float red[256];
  Reducer<ReduceBase<float>> r;
  r.red = red;
  r.go(x, out);
}

// One class whose objects point at two different arrays: which one a
// member names is not known, and nothing is said.
struct Window {
  float *w;
  __device__ explicit Window(float *p) : w(p) {}
  __device__ float sum() const {
    float s = 0.f;
    for (int k = 0; k < 64; ++k)
      s += w[k];
    return s;
  }
};
__global__ void twoWindows(const float *in, float *out) {
  __shared__ float a[64], b[64];
  Window wa(a), wb(b);
  a[threadIdx.x] = in[threadIdx.x];
  b[threadIdx.x] = in[64 + threadIdx.x];
  out[threadIdx.x] = wa.sum() + wb.sum();
}
