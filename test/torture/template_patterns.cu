// RUN: %check_no_crash %s
// Dependent code that no one instantiates: the checks that read template
// patterns build CFGs of it and run their analyses over it. Every construct
// whose type, value, size or callee depends on the template arguments.
#include "common.cuh"
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

template <typename T> __global__ void fillKernel(T *out, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}

template <typename T, int N> struct Tile {
  T v[N];
  __host__ __device__ T &operator[](int i) { return v[i]; }
};

template <typename T, typename Alloc = std::allocator<T>> class Buffer {
public:
  explicit Buffer(size_t n) : n_(n) {
    CHECK(cudaMalloc(&d_, n * sizeof(T)));
    h_ = static_cast<T *>(std::malloc(n * sizeof(T)));
  }
  ~Buffer() {
    if (d_)
      CHECK(cudaFree(d_));
    std::free(h_);
  }
  void upload(cudaStream_t s) {
    cudaMemcpyKind kind = std::is_const<T>::value ? cudaMemcpyHostToDevice
                                                  : cudaMemcpyDefault;
    CHECK(cudaMemcpyAsync(d_, h_, n_ * sizeof(T), kind, s));
    CHECK(cudaStreamSynchronize(s));
  }
  template <typename U> void convertFrom(const Buffer<U> &other) {
    for (size_t i = 0; i < n_; ++i)
      h_[i] = static_cast<T>(other.host()[i]);
    CHECK(cudaMemcpy(d_, h_, sizeof(T[4]) * (n_ / 4), cudaMemcpyHostToDevice));
  }
  const T *host() const { return h_; }
  void fill(T value, int grid, int block) {
    fillKernel<<<grid, block, sizeof(Tile<T, 4>)>>>(d_, value, int(n_));
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
  }
  template <typename... Args> void each(Args &&...args) {
    (static_cast<void>(process(std::forward<Args>(args))), ...);
  }
  auto sizeBytes() const -> decltype(sizeof(T) * size_t()) {
    return sizeof(T) * n_;
  }
  void swapWith(Buffer &o) {
    std::swap(d_, o.d_);
    std::swap(h_, o.h_);
  }
  void arrays() {
    T local[sizeof(T) > 4 ? 2 : 4];
    T *p = &local[sizeof(T) - 1];
    Tile<T, sizeof(T)> t;
    t[0] = *p;
    if constexpr (sizeof(T) == 8)
      CHECK(cudaMemcpy(d_, &t, sizeof t, cudaMemcpyHostToDevice));
    else
      CHECK(cudaMemcpy(d_, local, sizeof local, cudaMemcpyHostToDevice));
    T *heap = new T[n_ + sizeof(T)];
    CHECK(cudaMemcpy(heap, d_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
    delete[] heap;
  }
  void dependentSwitch(typename Alloc::size_type k) {
    switch (k) {
    case sizeof(T):
      CHECK(cudaMemset(d_, 0, k));
      break;
    default:
      try {
        std::vector<T, Alloc> v(k);
        CHECK(cudaMemcpy(v.data(), d_, k * sizeof(T), cudaMemcpyDeviceToHost));
        for (auto &x : v)
          x = T();
      } catch (...) {
        throw;
      }
    }
  }

private:
  template <typename A> int process(A &&a) { return int(a.size()); }
  T *d_ = nullptr;
  T *h_ = nullptr;
  size_t n_;
};

template <typename T> struct Singleton {
  static Singleton &instance() {
    static Singleton s;
    return s;
  }
  ~Singleton() { CHECK(cudaFree(data)); }
  T *data = nullptr;
};

template <typename F, typename... Ts>
void launchAll(F f, cudaStream_t s, Ts *...ptrs) {
  auto body = [&](auto *p) {
    f<<<1, 32, 0, s>>>(p);
    return cudaGetLastError();
  };
  int codes[] = {0, int(body(ptrs))...};
  (void)codes;
  std::unique_ptr<float, decltype(&cudaFree)> owner(nullptr, &cudaFree);
  auto deleter = [](auto *p) { cudaFree(p); };
  (void)deleter;
}

template <typename T>
typename std::enable_if<std::is_floating_point<T>::value, cudaError_t>::type
sfinaeCopy(T *d, const std::vector<T> &h) {
  return cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
}

template <class Derived> struct Crtp {
  void run() { static_cast<Derived *>(this)->impl(); }
  void leak(size_t n) {
    typename Derived::value_type *p;
    CHECK(cudaMalloc(&p, n));
    static_cast<Derived *>(this)->adopt(p);
  }
};

template <typename T> void recursive(T *d, int depth) {
  if (depth > 0)
    recursive<T>(d, depth - 1);
  CHECK(cudaMemset(d, depth, sizeof(T)));
}

int main() { return 0; }
