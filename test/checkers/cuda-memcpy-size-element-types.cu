// Byte counts that already name their size, arrays of several dimensions,
// branches a template instantiation cannot take, and sizeof of an element
// type smaller than the buffer's (issue #18).
// RUN: %check_cuda_tidy_plugin %s cuda-memcpy-size %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-memcpy-size %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdlib>
#include <typeinfo>

// ---------------------------------------------------------------------------
// Positive cases: sizeof names a type smaller than the elements.

void vector_elements(size_t n, const float *h) {
  float4 *d4;
  cudaMalloc(&d4, sizeof(float) * n); // BUG: a quarter of n float4s
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates 'sizeof(float) * n' bytes, counted in elements of type 'float', for elements of type 'float4' (aka 'struct float4') [cuda-memcpy-size]
  // Counted in the source's floats: the copy fits the (too small) allocation.
  cudaMemcpy(d4, h, sizeof(float) * n, cudaMemcpyHostToDevice);
  cudaMemset(d4, 0, n * sizeof(float)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the byte count 'n * sizeof(float)' of 'cudaMemset' is counted in elements of type 'float', but 'd4' holds elements of type 'float4' (aka 'struct float4') [cuda-memcpy-size]
  cudaFree(d4);
}

void through_void_cast(size_t n) {
  double2 *d;
  cudaMalloc((void **)&d, n * sizeof(double)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates 'n * sizeof(double)' bytes, counted in elements of type 'double', for elements of type 'double2' (aka 'struct double2') [cuda-memcpy-size]
  long long *h = (long long *)malloc(n * sizeof(int)); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'malloc' allocates 'n * sizeof(int)' bytes, counted in elements of type 'int', for elements of type 'long long' [cuda-memcpy-size]
  free(h);
  cudaFree(d);
}

// ---------------------------------------------------------------------------
// Negative cases.

// A copy between a float4 buffer and a float buffer counted in floats
// reinterprets the elements; the count is in the destination's units.
void float4_results_to_floats(size_t n, float *result, const float4 *merged) {
  cudaMemcpy(result, merged, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy((void *)result, (void *)merged, n * sizeof(float), cudaMemcpyDeviceToHost);
}

void d4_upload_counted_in_floats(size_t n, const float *h, float4 *d4) {
  cudaMemcpy(d4, h, n * sizeof(float), cudaMemcpyHostToDevice);
}

// A byte count held in a variable already names its size; a buffer larger
// than the copy is not a bug.
void bytes_in_a_variable(size_t n) {
  size_t bytes = n * sizeof(float);
  float *h = (float *)malloc(bytes);
  float *big = new float[bytes];
  float *d;
  CUDA_CHECK(cudaMalloc(&d, bytes));
  CUDA_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d, big, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d, 0, bytes));
  int count = sizeof(int) * n;
  int *wide;
  CUDA_CHECK(cudaMalloc(&wide, n * sizeof(int) * 4));
  CUDA_CHECK(cudaMemset(wide, 0, count));
  delete[] big;
  free(h);
  CUDA_CHECK(cudaFree(wide));
  CUDA_CHECK(cudaFree(d));
}

// The scalars of a 2-D array are its elements.
__constant__ unsigned table[3][31];
void two_dimensional(unsigned host[3][31]) {
  CUDA_CHECK(cudaMemcpyToSymbol(table, host, 3 * 31 * sizeof(unsigned)));
  unsigned local[2][4][8];
  CUDA_CHECK(cudaMemcpyFromSymbol(local, table, 2 * 4 * 8 * sizeof(unsigned)));
}

// Branches the instantiation cannot take.
template <typename Real> void dead_branches(Real *d, size_t n) {
  double *twice = (double *)malloc(2 * sizeof(double));
  float *once = (float *)malloc(2 * sizeof(float));
  if (typeid(Real) == typeid(float))
    CUDA_CHECK(cudaMemcpy(d, once, 2 * sizeof(float), cudaMemcpyHostToDevice));
  else if (typeid(Real) == typeid(double))
    CUDA_CHECK(cudaMemcpy(d, twice, 2 * sizeof(double), cudaMemcpyHostToDevice));
  if constexpr (sizeof(Real) == 8)
    CUDA_CHECK(cudaMemcpy(d, twice, 2 * sizeof(double), cudaMemcpyHostToDevice));
  if (sizeof(Real) == 4)
    CUDA_CHECK(cudaMemcpy(d, once, 2 * sizeof(float), cudaMemcpyHostToDevice));
  free(twice);
  free(once);
}
template void dead_branches<float>(float *, size_t);
template void dead_branches<double>(double *, size_t);

// Byte buffers, void buffers, unions and records of bytes are
// reinterpreted freely; a constant factor may count the elements.
union Word {
  unsigned u;
  float f;
};
struct Pixel {
  unsigned char r, g, b, a;
};
void reinterpreted(size_t n) {
  Word *w;
  CUDA_CHECK(cudaMalloc(&w, n * sizeof(unsigned short)));
  Pixel *p;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(unsigned char)));
  void *v;
  CUDA_CHECK(cudaMalloc(&v, n * sizeof(float)));
  float4 *d4;
  CUDA_CHECK(cudaMalloc(&d4, n * 4 * sizeof(float)));
  float2 *d2;
  CUDA_CHECK(cudaMalloc(&d2, sizeof(float2) * n));
  double *dd;
  CUDA_CHECK(cudaMalloc(&dd, n * sizeof(float2)));
  CUDA_CHECK(cudaFree(dd));
  CUDA_CHECK(cudaFree(d2));
  CUDA_CHECK(cudaFree(d4));
  CUDA_CHECK(cudaFree(v));
  CUDA_CHECK(cudaFree(p));
  CUDA_CHECK(cudaFree(w));
}

// A size computed in a loop, passed to an allocation wrapper behind a
// macro: the wrapper's size cannot be compared.
static inline void *checked_malloc(size_t size, const char *file, int line) {
  void *p = malloc(size);
  if (p == NULL) {
    fprintf(stderr, "%s:%d\n", file, line);
    exit(EXIT_FAILURE);
  }
  return p;
}
#define CHECKED_MALLOC(size) checked_malloc(size, __FILE__, __LINE__)
void size_from_a_loop(float *d, const size_t *sizes, int parts) {
  size_t total = 0;
  for (int i = 0; i < parts; i++)
    total += sizes[i];
  float *h = (float *)CHECKED_MALLOC(total * sizeof(float));
  CUDA_CHECK(cudaMemcpy(d, h, total * sizeof(float), cudaMemcpyHostToDevice));
  free(h);
}
