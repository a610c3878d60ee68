// Template instantiations of every kind, reached by the whole-unit scans both
// with and without instantiations (test/driver/translation-unit-scan.test).
#include <cuda_runtime.h>
#include <memory>

template <typename T> __global__ void fill(T *p, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}
// An explicit instantiation sits in the translation unit's declarations.
template __global__ void fill<float>(float *, float, int);
template <> __global__ void fill<char>(char *p, char v, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = v;
}

template <typename T> struct Buffer {
  T *data = nullptr;
  int size = 0;
  Buffer(int n) : size(n) { cudaMalloc(&data, n * sizeof(T)); }
  ~Buffer() { cudaFree(data); }
  template <typename U> void fillWith(U v) {
    fill<T><<<(size + 255) / 256, 256>>>(data, T(v), size);
  }
  friend int sizeOf(const Buffer &b) { return b.size; }
};
template struct Buffer<double>;
extern template struct Buffer<long>;
template <> struct Buffer<short> {
  short *data = nullptr;
  void reset() { cudaFree(data); data = nullptr; }
};

template <typename T> T *devicePointer = nullptr;
template <typename T> int elementBytes = static_cast<int>(sizeof(T));
template int elementBytes<float>;

template <typename F> __global__ void apply(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

static void (*chosen)(float *, float, int) = &fill<float>;
static std::unique_ptr<Buffer<float>> shared;

int main() {
  Buffer<float> b(1024);
  b.fillWith(2);
  b.fillWith(3.0);
  Buffer<double> d(64);
  d.fillWith(1.0f);
  auto twice = [] __device__(auto x) { return 2 * x; };
  apply<<<4, 256>>>(1024, [=] __device__(int i) { (void)twice(i); });
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *p = nullptr;
  cudaMalloc(&p, 1024 * sizeof(float));
  chosen<<<4, 256, 0, s>>>(p, 1.0f, elementBytes<float>);
  devicePointer<float> = p;
  shared.reset(new Buffer<float>(16));
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  cudaFree(p);
  return sizeOf(b) == 1024 ? 0 : 1;
}
