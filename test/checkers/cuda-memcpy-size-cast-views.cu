// cuda-memcpy-size: a pointer cast to a wider element type is a view of the
// buffer, not its element type. A byte count in the buffer's own elements
// fits it; a count in the view's elements where the buffer is smaller, or
// a sizeof of a type smaller than the buffer's real elements, is still
// reported.
// RUN: %check_cuda_tidy_plugin %s cuda-memcpy-size %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-memcpy-size %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdlib>
#include <cstring>

// ---------------------------------------------------------------------------
// Negative cases: the view's type is not what the buffers hold.

// Float buffers copied through float4 views, counted in floats.
void vectorised_views(size_t n) {
  float *d, *h = (float *)malloc(n * sizeof(float));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy((float4 *)d, h, n * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(h, (const float4 *)d, sizeof(float) * n,
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemset((int4 *)d, 0, n * sizeof(float)));
  CUDA_CHECK(cudaFree(d));
  free(h);
}

// A void buffer cast for the call: the allocation names its elements.
void void_buffer_view(size_t n) {
  void *raw;
  CUDA_CHECK(cudaMalloc(&raw, n * sizeof(short)));
  short *h = (short *)malloc(n * sizeof(short));
  CUDA_CHECK(cudaMemcpy((uint2 *)raw, h, n * sizeof(short),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaFree(raw));
  free(h);
}

// The low bytes of a word buffer copied into a smaller key: the count is
// in the key's elements.
template <typename Key> void low_bytes(Key &key) {
  unsigned words[(sizeof(Key) + 3) / 4] = {0x12345678u};
  memcpy(&key, words, sizeof(Key));
}
void low_bytes_of_a_char() {
  unsigned char c;
  low_bytes(c);
}

// ---------------------------------------------------------------------------
// Positive cases: the buffers' own elements disagree with the count.

// The view's count over a buffer of floats: four times too many bytes.
void count_in_view_elements(size_t n) {
  float *d, *h = (float *)malloc(n * sizeof(float));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy((float4 *)d, h, n * sizeof(float4),
                        cudaMemcpyHostToDevice));
  // CHECK-MESSAGES: :[[@LINE-2]]:14: warning: 'cudaMemcpy' copies 'n * sizeof(float4)' bytes, more than the 'n * sizeof(float)' bytes of 'd' [cuda-memcpy-size]
  CUDA_CHECK(cudaFree(d));
  free(h);
}

// A sizeof smaller than the real elements, behind a byte view.
void bytes_view_of_doubles(size_t n) {
  double *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(double)));
  CUDA_CHECK(cudaMemset((char *)d, 0, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the byte count of 'cudaMemset' uses the size of 'float', but the buffers hold elements of type 'double' [cuda-memcpy-size]
  CUDA_CHECK(cudaFree(d));
}
