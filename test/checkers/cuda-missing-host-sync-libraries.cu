// cuda-missing-host-sync: CUDA-aware MPI reading device memory that a kernel
// may still write, and host containers filled by asynchronous copies.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include "mpi_stub.h"
#include <vector>

__global__ void pack(float *buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    buf[i] = 2.f * i;
}

__global__ void unpack(const float *buf, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = buf[i];
}

// ---- Positive: MPI reads the buffer while the kernel may still write it ----

void haloSend(int n, int peer) {
  float *d_buf = nullptr;
  CUDA_CHECK(cudaMalloc(&d_buf, n * sizeof(float)));
  pack<<<(n + 255) / 256, 256>>>(d_buf, n);
  MPI_Send(d_buf, n, MPI_FLOAT, peer, 0, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'd_buf' is read on the host before the kernel 'pack' that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFree(d_buf));
}

void reduceAll(int n) {
  float *d_local = nullptr, *d_sum = nullptr;
  CUDA_CHECK(cudaMalloc(&d_local, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sum, n * sizeof(float)));
  pack<<<(n + 255) / 256, 256>>>(d_local, n);
  MPI_Allreduce(d_local, d_sum, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'd_local' is read on the host before the kernel 'pack' that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFree(d_local));
  CUDA_CHECK(cudaFree(d_sum));
}

// MPI writes the buffer while a kernel may still read it.
void receiveOver(int n, int peer) {
  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  unpack<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  MPI_Recv(d_in, n, MPI_FLOAT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'd_in' is written on the host while the kernel 'unpack' that uses it may still be running [cuda-missing-host-sync]
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
}

// ---- Positive: a vector read before the asynchronous copy into it ends ----

float sumAfterCopy(const float *d, int n, cudaStream_t s) {
  std::vector<float> host(n);
  CUDA_CHECK(cudaMemcpyAsync(host.data(), d, n * sizeof(float),
                             cudaMemcpyDeviceToHost, s));
  // CUDA_CHECK(cudaStreamSynchronize(s));
  float sum = 0;
  for (int i = 0; i < n; ++i)
    sum += host[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'host' is read on the host before the asynchronous copy into it is known to finish; it works only while 'host' is pageable memory, for which the copy returns when done [cuda-missing-host-sync]
  return sum;
}

// ---- Negative: synchronized first, or ordered by the library --------------

void haloSendSynced(int n, int peer, cudaStream_t s) {
  float *d_buf = nullptr;
  CUDA_CHECK(cudaMalloc(&d_buf, n * sizeof(float)));
  pack<<<(n + 255) / 256, 256, 0, s>>>(d_buf, n);
  CUDA_CHECK(cudaStreamSynchronize(s));
  MPI_Request req;
  MPI_Isend(d_buf, n, MPI_FLOAT, peer, 0, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  CUDA_CHECK(cudaFree(d_buf));
}

void sendUnrelated(int n, int peer) {
  float *d_a = nullptr, *d_b = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(float)));
  pack<<<(n + 255) / 256, 256>>>(d_a, n);
  MPI_Send(d_b, n, MPI_FLOAT, peer, 0, MPI_COMM_WORLD); // Not written.
  CUDA_CHECK(cudaDeviceSynchronize());
  MPI_Send(d_a, n, MPI_FLOAT, peer, 1, MPI_COMM_WORLD);
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
}

float sumAfterSync(const float *d, int n, cudaStream_t s) {
  std::vector<float> host(n);
  CUDA_CHECK(cudaMemcpyAsync(host.data(), d, n * sizeof(float),
                             cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  float sum = 0;
  for (int i = 0; i < n; ++i)
    sum += host[i];
  return sum + host.front() + host.at(0);
}
