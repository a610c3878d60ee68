// One explicit Euler step for 1 Mi particles under gravity, with the
// buffers grouped in a struct that a helper allocates and a helper releases.
//
// The host integrates the same step and compares positions and velocities.
//
// cuda-tidy sample for cuda-invalid-free (fixed form): the buffers are
// released once, by release_buffers.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CUDA_CHECK(call)                                                     \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n", __FILE__, \
                   __LINE__, #call, cudaGetErrorString(err_));               \
      std::exit(EXIT_FAILURE);                                               \
    }                                                                        \
  } while (0)

namespace {

constexpr int kParticles = 1 << 20;
constexpr float kDt = 0.01f;
constexpr float kGravity = -9.81f;

struct DeviceBuffers {
  float *pos; // x, y, z interleaved
  float *vel;
};

void allocate_buffers(DeviceBuffers &b, int n) {
  CUDA_CHECK(cudaMalloc(&b.pos, 3 * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b.vel, 3 * n * sizeof(float)));
}

void release_buffers(DeviceBuffers &b) {
  CUDA_CHECK(cudaFree(b.pos));
  CUDA_CHECK(cudaFree(b.vel));
}

__global__ void euler_step(float *pos, float *vel, int n, float dt, float g) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  vel[3 * i + 1] += g * dt;
  for (int k = 0; k < 3; ++k)
    pos[3 * i + k] += vel[3 * i + k] * dt;
}

} // namespace

int main() {
  const int n = kParticles;
  std::vector<float> pos(3 * n), vel(3 * n);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      pos[3 * i + k] = static_cast<float>((i * (k + 3)) % 1000) * 0.01f;
      vel[3 * i + k] = static_cast<float>((i * (k + 7)) % 200) * 0.05f - 5.f;
    }

  DeviceBuffers bufs;
  allocate_buffers(bufs, n);
  CUDA_CHECK(cudaMemcpy(bufs.pos, pos.data(), 3 * n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(bufs.vel, vel.data(), 3 * n * sizeof(float), cudaMemcpyHostToDevice));

  euler_step<<<(n + 255) / 256, 256>>>(bufs.pos, bufs.vel, n, kDt, kGravity);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> gpu_pos(3 * n), gpu_vel(3 * n);
  CUDA_CHECK(cudaMemcpy(gpu_pos.data(), bufs.pos, 3 * n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gpu_vel.data(), bufs.vel, 3 * n * sizeof(float), cudaMemcpyDeviceToHost));
  release_buffers(bufs);
  // bufs.pos and bufs.vel were released by release_buffers.

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    vel[3 * i + 1] += kGravity * kDt;
    for (int k = 0; k < 3; ++k) {
      pos[3 * i + k] += vel[3 * i + k] * kDt;
      if (std::fabs(gpu_pos[3 * i + k] - pos[3 * i + k]) > 1e-5f ||
          std::fabs(gpu_vel[3 * i + k] - vel[3 * i + k]) > 1e-5f)
        ++wrong;
    }
  }

  if (wrong) {
    std::printf("FAILED: %d of %d values wrong\n", wrong, 6 * n);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %d particles\n", n);
  return EXIT_SUCCESS;
}
