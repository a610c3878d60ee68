// Launches written with spaced chevrons, as Visual Studio's formatter
// writes them; nvcc 13 builds this file (test/driver/launch-chevrons.test).
#include <cuda_runtime.h>
#include <map>
#include <ostream>
#include <vector>

__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.f;
}

template <typename T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; }

// Not launches: a shift operator's explicit template arguments, a nested
// template closed by '>> >', a string and a comment.
template <typename T> struct Box;
template <typename T>
std::ostream &operator<<(std::ostream &os, const Box<T> &b);
template <typename T> struct Box {
  T v;
  friend std::ostream &operator<< <T>(std::ostream &, const Box<T> &);
};
template <typename T>
std::ostream &operator<<(std::ostream &os, const Box<T> &b) {
  return os << b.v;
}
std::map<int, std::vector<std::vector<int>> > table;
constexpr char usage[] = "scale << <blocks, 256 >> > (p, n)";
static_assert(usage[8] == ' ' && usage[9] == '<', "strings are left alone");
// scale << <1, 1 >> > (nullptr, 0);

void run(float *p, int n) {
  scale << <(n + 255) / 256, 256 >> > (p, n);
  float *tmp; cudaMalloc(&tmp, n * sizeof(float));
}

void runTemplate(float *p) {
  fill<float> << < 1, 32 >> > (p, 1.f);
  float *q; cudaMalloc(&q, 4);
}

void runNested(float *p, int n) {
  scale<< <dim3((n + 255) / 256), dim3(256)>> >(p, n); float *r; cudaMalloc(&r, 4);
}

void runBraced(float *p, int n) {
  scale << <dim3{(unsigned)(n + 255) / 256}, dim3{256} >> > (p, n);
  float *s; cudaMalloc(&s, 4);
}
