// Monte Carlo pricing of European call options, two batches on two streams.
//
// Each block prices one option from 2^25 simulated end-of-term prices and
// writes the price and its standard error straight into mapped (zero-copy)
// host memory. The two batches run on their own streams; the host waits for
// both streams and checks every price against the Black-Scholes formula.
//
// cuda-tidy sample for cuda-unchecked-api-call (fixed form): the host polls
// cudaStreamQuery until it stops answering cudaErrorNotReady, and checks the
// final answer, so it reads the quotes only after the kernels have finished.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

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

constexpr int kStreams = 2;
constexpr int kOptionsPerStream = 64;
constexpr int kOptions = kStreams * kOptionsPerStream;
constexpr int kThreads = 256;
constexpr long long kPaths = 1ll << 25; // per option
constexpr unsigned long long kSeed = 20240611ull;
static_assert(kPaths % (2 * kThreads) == 0, "whole pairs of paths per thread");

struct Option {
  float spot, strike, rate, vol, years;
};

struct Quote {
  float price, std_error;
};

__device__ unsigned long long splitmix64(unsigned long long &state) {
  unsigned long long z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform in (0, 1).
__device__ float uniform(unsigned long long &state) {
  return (float(splitmix64(state) >> 40) + 0.5f) * (1.0f / 16777216.0f);
}

__device__ double block_sum(double v, double *scratch) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0)
    scratch[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? scratch[threadIdx.x] : 0.0;
  if (threadIdx.x < 32)
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, offset);
  __syncthreads(); // scratch is reused by the next call
  return v;
}

// One block per option; every thread simulates paths / kThreads paths.
__global__ void price_calls(Quote *quotes, const Option *options,
                            long long paths) {
  __shared__ double scratch[kThreads / 32];
  const Option o = options[blockIdx.x];
  const float drift = (o.rate - 0.5f * o.vol * o.vol) * o.years;
  const float vol_sqrt_t = o.vol * sqrtf(o.years);
  unsigned long long state =
      kSeed ^ ((unsigned long long)blockIdx.x << 32) ^ threadIdx.x;
  double sum = 0.0, sum_sq = 0.0;
  for (long long p = threadIdx.x; p < paths; p += 2 * kThreads) {
    const float r = sqrtf(-2.0f * logf(uniform(state)));
    float s, c;
    sincospif(2.0f * uniform(state), &s, &c);
    const float z[2] = {r * c, r * s}; // two normal draws
    for (float zi : z) {
      const float payoff =
          fmaxf(o.spot * expf(drift + vol_sqrt_t * zi) - o.strike, 0.0f);
      sum += payoff;
      sum_sq += double(payoff) * payoff;
    }
  }
  sum = block_sum(sum, scratch);
  sum_sq = block_sum(sum_sq, scratch);
  if (threadIdx.x == 0) {
    const double n = double(paths);
    const double mean = sum / n;
    const double var = fmax(sum_sq / n - mean * mean, 0.0);
    const double discount = exp(-double(o.rate) * o.years);
    quotes[blockIdx.x].price = float(discount * mean);
    quotes[blockIdx.x].std_error = float(discount * sqrt(var / n));
  }
}

double black_scholes_call(const Option &o) {
  const double sd = o.vol * std::sqrt(double(o.years));
  const double d1 =
      (std::log(double(o.spot) / o.strike) +
       (o.rate + 0.5 * double(o.vol) * o.vol) * o.years) / sd;
  const double d2 = d1 - sd;
  auto cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  return o.spot * cdf(d1) - o.strike * std::exp(-double(o.rate) * o.years) *
                                cdf(d2);
}

} // namespace

int main() {
  Option *options = nullptr;
  Quote *quotes = nullptr;
  CUDA_CHECK(cudaMallocHost(&options, kOptions * sizeof(Option)));
  CUDA_CHECK(cudaHostAlloc(&quotes, kOptions * sizeof(Quote),
                           cudaHostAllocMapped));
  for (int i = 0; i < kOptions; ++i)
    options[i] = {100.0f, 70.0f + 0.5f * float(i % 80), 0.03f,
                  0.1f + 0.05f * float(i % 7), 0.25f + 0.25f * float(i % 8)};
  std::memset(quotes, 0, kOptions * sizeof(Quote));

  Option *d_options = nullptr;
  Quote *d_quotes = nullptr;
  CUDA_CHECK(cudaMalloc(&d_options, kOptions * sizeof(Option)));
  CUDA_CHECK(cudaHostGetDevicePointer(&d_quotes, quotes, 0));

  cudaStream_t streams[kStreams];
  for (int s = 0; s < kStreams; ++s)
    CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
  for (int s = 0; s < kStreams; ++s) {
    const int first = s * kOptionsPerStream;
    CUDA_CHECK(cudaMemcpyAsync(d_options + first, options + first,
                               kOptionsPerStream * sizeof(Option),
                               cudaMemcpyHostToDevice, streams[s]));
    price_calls<<<kOptionsPerStream, kThreads, 0, streams[s]>>>(
        d_quotes + first, d_options + first, kPaths);
    CUDA_CHECK(cudaGetLastError());
  }

  // Both streams must have finished before the host reads the quotes.
  for (int s = 0; s < kStreams; ++s) {
    cudaError_t status;
    while ((status = cudaStreamQuery(streams[s])) == cudaErrorNotReady) {
    }
    CUDA_CHECK(status);
  }

  int wrong = 0;
  for (int i = 0; i < kOptions; ++i) {
    const double exact = black_scholes_call(options[i]);
    const double tolerance = 6.0 * quotes[i].std_error + 1e-3;
    if (!(std::fabs(quotes[i].price - exact) <= tolerance)) {
      if (wrong++ < 3)
        std::fprintf(stderr,
                     "option %d (strike %.1f): Monte Carlo %.4f +- %.4f, "
                     "Black-Scholes %.4f\n",
                     i, options[i].strike, quotes[i].price,
                     quotes[i].std_error, exact);
    }
  }
  for (int s = 0; s < kStreams; ++s)
    CUDA_CHECK(cudaStreamDestroy(streams[s]));
  CUDA_CHECK(cudaFree(d_options));
  CUDA_CHECK(cudaFreeHost(quotes));
  CUDA_CHECK(cudaFreeHost(options));
  if (wrong != 0) {
    std::fprintf(stderr, "FAILED: %d of %d prices wrong\n", wrong, kOptions);
    return EXIT_FAILURE;
  }

  std::printf("PASSED: %d options, %lld paths each, on %d streams\n", kOptions,
              kPaths, kStreams);
  return EXIT_SUCCESS;
}
