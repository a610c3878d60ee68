// Computes the sum of squares of each row of a matrix in a worker context
// of its own, created with the driver API beside the runtime's primary
// context that main works in. row_norms() makes the worker context current
// for the device work and pops it before the host finishes the norms.
//
// Planted bug: a second pop, left over from when the function pushed twice,
// takes main's primary context off the stack too. main's next driver call
// finds no current context.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult err_ = (call);                                                    \
    if (err_ != CUDA_SUCCESS) {                                                \
      const char *msg_ = nullptr;                                              \
      if (cuGetErrorString(err_, &msg_) != CUDA_SUCCESS)                       \
        msg_ = nullptr;                                                        \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,     \
              msg_ ? msg_ : "unknown error");                                  \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#define RT_CHECK(call)                                                         \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,     \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__global__ void row_squares(const float *m, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += m[r * cols + c] * m[r * cols + c];
    out[r] = s;
  }
}

// The sums of squares of each row, computed in the worker context, and
// their square roots, on the host. Returns 0 on success.
static int row_norms(CUcontext worker, const std::vector<float> &m, int rows,
                     int cols, std::vector<double> &norms) {
  CU_CHECK(cuCtxPushCurrent(worker));
  float *d_m = nullptr, *d_out = nullptr;
  RT_CHECK(cudaMalloc(&d_m, m.size() * sizeof(float)));
  RT_CHECK(cudaMalloc(&d_out, rows * sizeof(float)));
  RT_CHECK(cudaMemcpy(d_m, m.data(), m.size() * sizeof(float),
                      cudaMemcpyHostToDevice));
  row_squares<<<(rows + 127) / 128, 128>>>(d_m, d_out, rows, cols);
  RT_CHECK(cudaGetLastError());
  std::vector<float> squares(rows);
  RT_CHECK(cudaMemcpy(squares.data(), d_out, rows * sizeof(float),
                      cudaMemcpyDeviceToHost));
  RT_CHECK(cudaFree(d_m));
  RT_CHECK(cudaFree(d_out));
  CU_CHECK(cuCtxPopCurrent(nullptr));

  norms.resize(rows);
  for (int r = 0; r < rows; ++r)
    norms[r] = std::sqrt(static_cast<double>(squares[r]));
  CU_CHECK(cuCtxPopCurrent(nullptr));
  return 0;
}

int main() {
  // main works in the runtime's primary context.
  RT_CHECK(cudaSetDevice(0));
  RT_CHECK(cudaFree(nullptr));
  CUcontext primary = nullptr;
  CU_CHECK(cuCtxGetCurrent(&primary));

  // The worker context: created (and so pushed), then popped until used.
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
  CUcontext worker = nullptr;
  CU_CHECK(cuCtxCreate(&worker, nullptr, 0, dev));
  CU_CHECK(cuCtxPopCurrent(nullptr));

  const int rows = 512, cols = 64;
  std::vector<float> m(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    m[i] = static_cast<float>(i % 7) - 3.0f;
  std::vector<double> norms;
  if (row_norms(worker, m, rows, cols, norms) != 0) {
    fprintf(stderr, "FAILED: the norms could not be computed\n");
    return 1;
  }

  CUcontext current = nullptr;
  CU_CHECK(cuCtxGetCurrent(&current));
  if (current != primary) {
    fprintf(stderr, "FAILED: after row_norms the current context is %s, not "
                    "main's primary context\n",
            current ? "another context" : "none");
    return 1;
  }
  // main's own device buffer for the norms, in its primary context.
  CUdeviceptr d_norms;
  CU_CHECK(cuMemAlloc(&d_norms, rows * sizeof(double)));
  CU_CHECK(cuMemcpyHtoD(d_norms, norms.data(), rows * sizeof(double)));
  int wrong = 0;
  for (int r = 0; r < rows; ++r) {
    double s = 0.0;
    for (int c = 0; c < cols; ++c)
      s += static_cast<double>(m[r * cols + c]) * m[r * cols + c];
    if (std::fabs(norms[r] - std::sqrt(s)) > 1e-3 * std::sqrt(s) + 1e-6)
      ++wrong;
  }
  CU_CHECK(cuMemFree(d_norms));
  if (wrong) {
    fprintf(stderr, "FAILED: %d norms wrong\n", wrong);
    return 1;
  }
  CU_CHECK(cuCtxDestroy(worker));
  printf("PASSED: %d row norms computed in the worker context\n", rows);
  return 0;
}
