// A JIT cache of scaling kernels: each variant's expression is compiled with
// NVRTC, loaded with the driver API and run. Variants whose expression does
// not compile are skipped.
// Bug: compileVariant returns on a failed compile before destroying the NVRTC
// program, so every failed variant keeps its program (its source, its log and
// what the compiler made of it) in host memory until the process ends. The
// oracle: after a warm-up round, the process's resident memory grows by more
// than 32 MiB over four more rounds.
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult err_ = (call);                                                    \
    if (err_ != CUDA_SUCCESS) {                                                \
      std::fprintf(stderr, "%s failed: %d\n", #call, (int)err_);              \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)
#define CHECK_NVRTC(call)                                                      \
  do {                                                                         \
    nvrtcResult err_ = (call);                                                 \
    if (err_ != NVRTC_SUCCESS) {                                               \
      std::fprintf(stderr, "%s failed: %s\n", #call, nvrtcGetErrorString(err_)); \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)
#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_)); \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

static long residentKiB() {
  long pages = 0, resident = 0;
  FILE *f = std::fopen("/proc/self/statm", "r");
  if (!f || std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
    std::exit(2);
  std::fclose(f);
  return resident * 4;
}

// The PTX of 'y[i] = <expr>' over x, or an empty string when it does not
// compile. The documentation block pads each source as real generated
// sources are padded with their helpers.
static std::string compileVariant(const std::string &expr) {
  std::string src = "/*" + std::string(2 << 20, '-') + "*/\n"
                    "extern \"C\" __global__ void variant(const float *x, "
                    "float *y, int n) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) { float v = x[i]; y[i] = " + expr + "; }\n}\n";
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src.c_str(), "variant.cu", 0, nullptr,
                         nullptr) != NVRTC_SUCCESS)
    return std::string();
  const char *options[] = {"--gpu-architecture=compute_90"};
  if (nvrtcCompileProgram(prog, 1, options) != NVRTC_SUCCESS)
    return std::string();
  size_t size = 0;
  std::string ptx;
  if (nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS) {
    ptx.resize(size);
    if (nvrtcGetPTX(prog, &ptx[0]) != NVRTC_SUCCESS)
      ptx.clear();
  }
  CHECK_NVRTC(nvrtcDestroyProgram(&prog));
  return ptx;
}

// Runs every variant that compiles over x; returns how many results were wrong.
static int runRound(const std::vector<std::string> &exprs,
                    const std::vector<float> &scales, CUdeviceptr dx,
                    CUdeviceptr dy, int n) {
  int wrong = 0;
  std::vector<float> y(n);
  for (size_t k = 0; k < exprs.size(); ++k) {
    std::string ptx = compileVariant(exprs[k]);
    if (ptx.empty())
      continue;
    CUmodule module;
    CUfunction fn;
    CHECK_CU(cuModuleLoadData(&module, ptx.c_str()));
    CHECK_CU(cuModuleGetFunction(&fn, module, "variant"));
    void *args[] = {&dx, &dy, &n};
    CHECK_CU(cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr,
                            args, nullptr));
    CHECK_CU(cuCtxSynchronize());
    CHECK_CU(cuMemcpyDtoH(y.data(), dy, n * sizeof(float)));
    CHECK_CU(cuModuleUnload(module));
    for (int i = 0; i < n; ++i)
      if (y[i] != scales[k] * (float)i)
        ++wrong;
  }
  return wrong;
}

int main() {
  const int n = 1 << 16;
  CHECK_CUDA(cudaFree(nullptr)); // the runtime's primary context is current
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = (float)i;
  CUdeviceptr dx, dy;
  CHECK_CU(cuMemAlloc(&dx, n * sizeof(float)));
  CHECK_CU(cuMemAlloc(&dy, n * sizeof(float)));
  CHECK_CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));

  // Half the variants use an undefined name and do not compile.
  std::vector<std::string> exprs;
  std::vector<float> scales;
  for (int k = 0; k < 16; ++k) {
    exprs.push_back(k % 2 ? "v * gain" + std::to_string(k)
                          : "v * " + std::to_string(k) + ".0f");
    scales.push_back((float)k);
  }
  int wrong = runRound(exprs, scales, dx, dy, n); // warm-up
  long before = residentKiB();
  for (int round = 0; round < 4; ++round)
    wrong += runRound(exprs, scales, dx, dy, n);
  long grown = (residentKiB() - before) / 1024;
  CHECK_CU(cuMemFree(dx));
  CHECK_CU(cuMemFree(dy));
  if (wrong) {
    std::printf("FAILED: %d wrong results\n", wrong);
    return 1;
  }
  if (grown > 32) {
    std::printf("FAILED: resident memory grew by %ld MiB over four rounds of "
                "JIT variants\n", grown);
    return 1;
  }
  std::printf("all variants ok, resident memory grew by %ld MiB\n", grown);
  return 0;
}
