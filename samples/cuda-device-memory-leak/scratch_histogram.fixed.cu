// Histogram of 4M bytes into 256 bins. Each call of the histogram routine
// counts into a device scratch array kept at file scope, allocated once in
// main and shared by the functions of this file.
//
// cuda-tidy sample for cuda-device-memory-leak (fixed form): main frees the
// scratch array before it returns. Without that cudaFree no function of the
// file frees it, and compute-sanitizer --leak-check full reports it leaked.
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

constexpr int kN = 1 << 22;
constexpr int kBins = 256;

static unsigned *scratch;

__global__ void count(const unsigned char *in, unsigned *bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[in[i]], 1u);
}

void histogram(const unsigned char *d_in, int n, std::vector<unsigned> &out) {
  CUDA_CHECK(cudaMemset(scratch, 0, kBins * sizeof(unsigned)));
  count<<<128, 256>>>(d_in, scratch, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), scratch, kBins * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
}

} // namespace

int main() {
  std::vector<unsigned char> host(kN);
  for (int i = 0; i < kN; ++i)
    host[i] = static_cast<unsigned char>((i * 7) & 0xff);
  unsigned char *d_in = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, kN));
  CUDA_CHECK(cudaMalloc(&scratch, kBins * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_in, host.data(), kN, cudaMemcpyHostToDevice));
  std::vector<unsigned> bins(kBins);
  histogram(d_in, kN, bins);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(scratch));
  int wrong = 0;
  for (int b = 0; b < kBins; ++b)
    if (bins[b] != kN / kBins)
      ++wrong;
  if (wrong) {
    std::printf("FAILED: %d of %d bins wrong\n", wrong, kBins);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
