// Idioms of real CUDA programs that the memory checks must leave alone.
// RUN: %check_cuda_tidy_plugin %s cuda-memcpy-direction,cuda-memcpy-size,cuda-wrong-memory-space,cuda-invalid-free %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-memcpy-direction,cuda-memcpy-size,cuda-wrong-memory-space,cuda-invalid-free %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#define STREAMS 4
#define ALIGNMENT 4096
#define ALIGN_UP(x, size) (((size_t)x + (size - 1)) & (~(size - 1)))

__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
__global__ void fill(float *p, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}

struct Particle {
  float pos[3];
  float vel[3];
};

// Aligned generic memory pinned with cudaHostRegister, then mapped.
void zero_copy_generic(int n) {
  size_t bytes = n * sizeof(float);
  float *raw = (float *)malloc(bytes + ALIGNMENT);
  float *a = (float *)ALIGN_UP(raw, ALIGNMENT);
  checkCudaErrors(cudaHostRegister(a, bytes, cudaHostRegisterMapped));
  float *d_a;
  checkCudaErrors(cudaHostGetDevicePointer((void **)&d_a, (void *)a, 0));
  fill<<<(n + 255) / 256, 256>>>(d_a, n, 1.f);
  checkCudaErrors(cudaDeviceSynchronize());
  a[0] += 1.f;
  checkCudaErrors(cudaHostUnregister(a));
  free(raw);
}

// One pitch variable shared by two pitched allocations of the same shape.
void shared_pitch(int nx, int ny) {
  float *in, *out;
  size_t pitch;
  checkCudaErrors(cudaMallocPitch((void **)&in, &pitch, nx * sizeof(float), ny));
  checkCudaErrors(cudaMallocPitch((void **)&out, &pitch, nx * sizeof(float), ny));
  float *h = (float *)malloc(sizeof(float) * nx * ny);
  size_t hpitch = nx * sizeof(float);
  checkCudaErrors(cudaMemcpy2D(in, pitch, h, hpitch, nx * sizeof(float), ny, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset2D(out, pitch, 0, nx * sizeof(float), ny));
  checkCudaErrors(cudaMemcpy2D(h, hpitch, out, pitch, nx * sizeof(float), ny, cudaMemcpyDeviceToHost));
  free(h);
  checkCudaErrors(cudaFree(in));
  checkCudaErrors(cudaFree(out));
}

// Arrays of per-stream buffers, allocated and freed in loops.
void per_stream_buffers(int n) {
  float *d_in[STREAMS], *d_out[STREAMS], *h_in[STREAMS];
  cudaStream_t streams[STREAMS];
  for (int s = 0; s < STREAMS; ++s) {
    checkCudaErrors(cudaStreamCreate(&streams[s]));
    checkCudaErrors(cudaMalloc(&d_in[s], n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_out[s], n * sizeof(float)));
    checkCudaErrors(cudaMallocHost(&h_in[s], n * sizeof(float)));
  }
  for (int s = 0; s < STREAMS; ++s) {
    checkCudaErrors(cudaMemcpyAsync(d_in[s], h_in[s], n * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
    add<<<(n + 255) / 256, 256, 0, streams[s]>>>(d_in[s], d_in[s], d_out[s], n);
    checkCudaErrors(cudaMemcpyAsync(h_in[s], d_out[s], n * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
  }
  checkCudaErrors(cudaDeviceSynchronize());
  for (int s = 0; s < STREAMS; ++s) {
    checkCudaErrors(cudaFree(d_in[s]));
    checkCudaErrors(cudaFree(d_out[s]));
    checkCudaErrors(cudaFreeHost(h_in[s]));
    checkCudaErrors(cudaStreamDestroy(streams[s]));
  }
}

// A table of device pointers built on the host and uploaded.
void pointer_table(int n) {
  float **h_ptrs = (float **)malloc(n * sizeof(float *));
  for (int i = 0; i < n; ++i)
    checkCudaErrors(cudaMalloc(&h_ptrs[i], 64 * sizeof(float)));
  float **d_ptrs;
  checkCudaErrors(cudaMalloc(&d_ptrs, n * sizeof(float *)));
  checkCudaErrors(cudaMemcpy(d_ptrs, h_ptrs, n * sizeof(float *), cudaMemcpyHostToDevice));
  for (int i = 0; i < n; ++i)
    checkCudaErrors(cudaFree(h_ptrs[i]));
  checkCudaErrors(cudaFree(d_ptrs));
  free(h_ptrs);
}

// Scalars and structs through the stack.
int scalar_results(int n) {
  int *d_count;
  checkCudaErrors(cudaMalloc(&d_count, sizeof(int)));
  checkCudaErrors(cudaMemset(d_count, 0, sizeof(int)));
  int count = 0;
  checkCudaErrors(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
  cudaPointerAttributes attrs;
  memset(&attrs, 0, sizeof(cudaPointerAttributes));
  checkCudaErrors(cudaPointerGetAttributes(&attrs, d_count));
  checkCudaErrors(cudaFree(d_count));
  Particle *d_p;
  checkCudaErrors(cudaMalloc(&d_p, n * sizeof(Particle)));
  std::vector<Particle> h_p(n);
  checkCudaErrors(cudaMemcpy(d_p, h_p.data(), h_p.size() * sizeof(Particle), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(h_p.data(), d_p, n * sizeof(h_p[0]), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d_p));
  return count;
}

// Chunked copies at offsets, and sizes that grow in a loop.
void chunks_and_sweeps(int n, int chunk) {
  float *d, *h;
  checkCudaErrors(cudaMalloc(&d, n * sizeof(float)));
  checkCudaErrors(cudaMallocHost(&h, n * sizeof(float)));
  for (int off = 0; off < n; off += chunk)
    checkCudaErrors(cudaMemcpy(d + off, h + off, chunk * sizeof(float), cudaMemcpyHostToDevice));
  for (size_t bytes = 4; bytes <= n * sizeof(float); bytes *= 2)
    checkCudaErrors(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFreeHost(h));
  checkCudaErrors(cudaFree(d));
}

// Ping-pong buffers swapped with std::swap, and cleanup through goto.
int ping_pong(int n, int iters) {
  float *a = nullptr, *b = nullptr;
  int status = 1;
  if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess)
    goto cleanup;
  if (cudaMalloc(&b, n * sizeof(float)) != cudaSuccess)
    goto cleanup;
  for (int i = 0; i < iters; ++i) {
    add<<<(n + 255) / 256, 256>>>(a, a, b, n);
    std::swap(a, b);
  }
  status = cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
  checkCudaErrors(cudaFree(a));
  a = nullptr;
cleanup:
  cudaFree(a);
  cudaFree(b);
  return status;
}

// Allocate, use and free in every iteration.
void per_iteration(int n, int iters) {
  for (int i = 0; i < iters; ++i) {
    float *t;
    checkCudaErrors(cudaMalloc(&t, n * sizeof(float)));
    fill<<<(n + 255) / 256, 256>>>(t, n, 0.f);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaFree(t));
  }
}

// GPU or CPU path chosen at run time, released on the matching path.
void either_side(bool gpu, int n) {
  float *buf;
  if (gpu)
    checkCudaErrors(cudaMalloc(&buf, n * sizeof(float)));
  else
    buf = new float[n];
  if (gpu) {
    fill<<<(n + 255) / 256, 256>>>(buf, n, 1.f);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaFree(buf));
  } else {
    for (int i = 0; i < n; ++i)
      buf[i] = 1.f;
    delete[] buf;
  }
}

// realloc keeps host memory on the host.
void growing_host_buffer(int n) {
  float *h = (float *)malloc(n * sizeof(float));
  h = (float *)realloc(h, 2 * n * sizeof(float));
  float *d;
  checkCudaErrors(cudaMalloc(&d, 2 * n * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d, h, 2 * n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaFree(d));
  free(h);
}
