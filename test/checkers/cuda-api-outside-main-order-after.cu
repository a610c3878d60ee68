// cuda-api-outside-main: static objects constructed after the CUDA runtime
// was set up are destroyed before its teardown; their destructors' CUDA
// calls work, but only because of the order of construction. They are
// worded as such, and ReportOrderDependent=false silences them.
// RUN: %check_cuda_tidy_plugin %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver --check-suffix=QUIET %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-api-outside-main.ReportOrderDependent: false, cuda-api-outside-main.CheckInitializers: false}}"

#include "error_macros.h"
#include <cublas_v2.h>
#include <memory>
#include <vector>

// ---- A singleton whose constructor makes the first CUDA call ---------------

class Blas {
public:
  static Blas &get() {
    static Blas b;
    return b;
  }
  cublasHandle_t handle() const { return h_; }
  ~Blas() { cublasDestroy(h_); }
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: 'cublasDestroy_v2' is called after main returns; it works only because 'b' is constructed after the CUDA runtime is set up, and so destroyed before the runtime's teardown [cuda-api-outside-main]
  // CHECK-NOTES: :[[@LINE-6]]:17: note: 'b' has static storage duration; its destructor runs after main returns
  // CHECK-NOTES: :[[@LINE+3]]:12: note: the CUDA runtime is first used here, before 'b' is constructed

private:
  Blas() { cublasCreate(&h_); }
  cublasHandle_t h_;
};

// ---- A singleton that main first reaches after its first CUDA call ---------

class Pool {
public:
  static Pool &get() {
    static Pool p;
    return p;
  }
  float *take(size_t n) {
    float *d = nullptr;
    CUDA_CHECK(cudaMalloc(&d, n));
    blocks_.push_back(d);
    return d;
  }
  ~Pool() {
    for (float *d : blocks_)
      cudaFree(d);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'cudaFree' is called after main returns; it works only because 'p' is constructed after the CUDA runtime is set up, and so destroyed before the runtime's teardown [cuda-api-outside-main]
    // CHECK-NOTES: :[[@LINE-13]]:17: note: 'p' has static storage duration; its destructor runs after main returns
    // CHECK-NOTES: :[[@LINE+8]]:14: note: the CUDA runtime is first used here, before 'p' is constructed
  }

private:
  std::vector<float *> blocks_;
};

int main() {
  CUDA_CHECK(cudaSetDevice(0));
  Pool &pool = Pool::get();
  float *d = pool.take(1024);
  cublasHandle_t h = Blas::get().handle();
  (void)h;
  (void)d;
  return 0;
}
