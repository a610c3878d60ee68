// Runs 4 steps of a damped oscillator simulation on 64 Ki particles, then
// writes a checkpoint and ends the program from save_and_exit(): a kernel
// packs the state and a host function enqueued behind it marks the
// checkpoint saved. A check registered with atexit verifies at the end
// that the checkpoint was saved.
//
// cuda-tidy sample for cuda-unsynchronized-exit (bug form): save_and_exit
// calls exit() right after queueing the packing kernel and the host
// function. The program ends while they are still queued: the checkpoint
// is never saved and no error says so. Synchronizing the stream first
// waits for them.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <unistd.h>

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

constexpr int kN = 1 << 16;
constexpr int kSteps = 4;
constexpr int kSubsteps = 1 << 21; // about 10 ms per kernel

std::atomic<bool> saved{false};

void CUDART_CB mark_saved(void *) { saved.store(true); }

void verify_checkpoint() {
  if (!saved.load()) {
    std::fprintf(stderr, "FAILED: the checkpoint was never saved\n");
    _exit(1);
  }
  std::printf("PASSED: checkpoint saved\n");
}

__global__ void step(float2 *state, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float2 s = state[i];
  for (int k = 0; k < kSubsteps; ++k) {
    s.y -= 1e-6f * (s.x + 0.01f * s.y);
    s.x += 1e-6f * s.y;
  }
  state[i] = s;
}

__global__ void pack(const float2 *state, float *packed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    packed[i] = state[i].x * state[i].x + state[i].y * state[i].y;
}

[[noreturn]] void save_and_exit(cudaStream_t stream, float2 *state,
                                float *packed) {
  step<<<kN / 256, 256, 0, stream>>>(state, kN);
  pack<<<kN / 256, 256, 0, stream>>>(state, packed, kN);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaLaunchHostFunc(stream, mark_saved, nullptr));
  CUDA_CHECK(cudaFreeAsync(state, stream));
  CUDA_CHECK(cudaFreeAsync(packed, stream));
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::exit(EXIT_SUCCESS);
}

} // namespace

int main() {
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  std::atexit(verify_checkpoint);
  float2 *state;
  float *packed;
  CUDA_CHECK(cudaMallocAsync(&state, kN * sizeof(float2), stream));
  CUDA_CHECK(cudaMallocAsync(&packed, kN * sizeof(float), stream));
  CUDA_CHECK(cudaMemsetAsync(state, 0, kN * sizeof(float2), stream));
  for (int s = 0; s < kSteps; ++s) {
    step<<<kN / 256, 256, 0, stream>>>(state, kN);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  save_and_exit(stream, state, packed);
}
