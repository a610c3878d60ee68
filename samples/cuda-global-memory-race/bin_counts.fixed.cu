// Counts of 16-bit sensor codes by their top four bits: a 16-bin histogram
// of 4M codes, one code per thread; the host counts the same bins and
// compares.
//
// The fix: each thread adds one to its bin with atomicAdd. A plain load, add
// and store would lose increments: threads with the same bin would load the
// same count and each store it plus one, so the GPU's bins would come out
// far below the host's. atomicAdd makes each increment one indivisible
// read-modify-write.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "FAILED: CUDA error %s at %s:%d\n",                      \
              cudaGetErrorString(err_), __FILE__, __LINE__);                   \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

constexpr int kCodes = 1 << 22; // codes in the batch
constexpr int kBins = 16;       // one bin per value of the top four bits
constexpr int kThreads = 256;

__global__ void countBins(const unsigned short *codes, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int bin = codes[i] >> 12;
    atomicAdd(&bins[bin], 1u);
  }
}

// A code whose top bits vary from one thread to the next and repeat within
// every warp, so that lanes of one warp share bins.
static unsigned short codeOf(int i) {
  return (unsigned short)(((i * 7 + i / 97) % kBins) << 12 | (i & 0xfff));
}

int main() {
  std::vector<unsigned short> codes(kCodes);
  for (int i = 0; i < kCodes; ++i)
    codes[i] = codeOf(i);

  unsigned short *d_codes = nullptr;
  unsigned *d_bins = nullptr;
  CUDA_CHECK(cudaMalloc(&d_codes, kCodes * sizeof(unsigned short)));
  CUDA_CHECK(cudaMalloc(&d_bins, kBins * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_codes, codes.data(),
                        kCodes * sizeof(unsigned short),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_bins, 0, kBins * sizeof(unsigned)));

  int blocks = (kCodes + kThreads - 1) / kThreads;
  countBins<<<blocks, kThreads>>>(d_codes, d_bins, kCodes);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> bins(kBins);
  CUDA_CHECK(cudaMemcpy(bins.data(), d_bins, kBins * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_codes));
  CUDA_CHECK(cudaFree(d_bins));

  std::vector<unsigned> want(kBins, 0);
  for (int i = 0; i < kCodes; ++i)
    ++want[codes[i] >> 12];
  int wrong = 0;
  unsigned long long total = 0;
  for (int b = 0; b < kBins; ++b) {
    total += bins[b];
    if (bins[b] != want[b])
      ++wrong;
  }
  if (wrong) {
    printf("FAILED: %d of %d bins wrong (%llu of %d codes counted)\n", wrong,
           kBins, total, kCodes);
    return EXIT_FAILURE;
  }
  printf("PASSED: %d codes in %d bins\n", kCodes, kBins);
  return EXIT_SUCCESS;
}
