// cuda-launch-configuration: launches whose configuration, known at compile
// time, the device rejects.
// RUN: %check_cuda_tidy_plugin %s cuda-launch-configuration %t
// RUN: %check_cuda_tidy_driver %s cuda-launch-configuration %t

#include <cstdlib>

#define BLOCK_SIZE 4096
#define TILE 16
#define SMEM_BYTES (64 * 1024)

constexpr int kThreads = 1536;
constexpr int kEmpty = 0;
constexpr int kMaxThreads = 128;
enum { kTileBytes = 80 * 1024 };

__global__ void scale(float *v, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= a;
}

__global__ void blur(const float *in, float *out, int w, int h) {
  extern __shared__ float tile[];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    tile[threadIdx.y * blockDim.x + threadIdx.x] = in[y * w + x];
    __syncthreads();
    out[y * w + x] = tile[threadIdx.y * blockDim.x + threadIdx.x];
  }
}

__global__ void staged(float *v) {
  __shared__ float stage[4096]; // 16 KiB
  extern __shared__ float rest[];
  stage[threadIdx.x] = v[threadIdx.x];
  rest[threadIdx.x] = stage[threadIdx.x];
  v[threadIdx.x] = rest[threadIdx.x];
}

__global__ void __launch_bounds__(256) bounded(float *v) {
  v[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
}

__global__ void __launch_bounds__(kMaxThreads, 4) boundedConst(float *v) {
  v[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

__global__ void volume(float *v) {
  v[threadIdx.z * 64 + threadIdx.y * 8 + threadIdx.x] = 0.0f;
}

__global__ void huge(float *v) {
  extern __shared__ float whole[];
  whole[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = whole[threadIdx.x];
}

__global__ void other(float *v) {
  extern __shared__ float s[];
  s[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = s[threadIdx.x];
}

template <int Block> __global__ void fill(float *v) {
  v[blockIdx.x * Block + threadIdx.x] = 2.0f;
}

template <int Threads> void launchFill(float *v, int n) {
  fill<Threads><<<n / Threads, Threads>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'fill<2048>' asks for 2048 threads per block, more than the 1024 the device allows [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE+81]]:3: note: in 'launchFill<2048>', instantiated here
}

void runScale(float *v, int n, int threads) {
  scale<<<(n + threads - 1) / threads, threads>>>(v, 2.0f, n);
}

// --- Findings. ---

void positives(float *v, float *w, int n) {
  // More than 1024 threads per block: a literal, a macro, a constexpr.
  scale<<<(n + 2047) / 2048, 2048>>>(v, 2.0f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'scale' asks for 2048 threads per block, more than the 1024 the device allows [cuda-launch-configuration]
  scale<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(v, 2.0f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'scale' asks for 4096 threads per block, more than the 1024 the device allows [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-80]]:20: note: the value 4096 comes from here
  scale<<<n / kThreads, kThreads>>>(v, 2.0f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'scale' asks for 1536 threads per block, more than the 1024 the device allows [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-79]]:26: note: the value 1536 comes from here

  // Each side within its limit, the product over it.

  dim3 wide(32, 64);
  blur<<<dim3(4, 4), wide>>>(v, w, 128, 256);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'blur' asks for 2048 threads per block (32 x 64), more than the 1024 the device allows [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-3]]:17: note: the value 64 comes from here

  // A block assembled field by field.
  dim3 cube;
  cube.x = 16;
  cube.y = 16;
  cube.z = 8;
  volume<<<1, cube>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'volume' asks for 2048 threads per block (16 x 16 x 8), more than the 1024 the device allows [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-5]]:12: note: the value 16 comes from here

  // z is limited to 64.
  volume<<<1, dim3(1, 1, 128)>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'volume' asks for blockDim.z = 128, more than the 64 the device allows [cuda-launch-configuration]

  // Grids: y and z are limited to 65535; no dimension may be 0.

  dim3 tall(1, 70000);
  scale<<<tall, 256>>>(v, 2.0f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'scale' asks for gridDim.y = 70000, more than the 65535 the device allows [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: the value 70000 comes from here
  scale<<<dim3(1, 1, 65536), 256>>>(v, 2.0f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'scale' asks for gridDim.z = 65536, more than the 65535 the device allows [cuda-launch-configuration]

  scale<<<0, 256>>>(v, 2.0f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'scale' asks for gridDim.x = 0, which the device rejects [cuda-launch-configuration]
  scale<<<n, kEmpty>>>(v, 2.0f, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'scale' asks for blockDim.x = 0, which the device rejects [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-113]]:24: note: the value 0 comes from here

  // Over 48 KiB of shared memory with no opt-in: dynamic alone, and
  // dynamic with the kernel's static shared memory.
  blur<<<dim3(64, 64), dim3(TILE, TILE), SMEM_BYTES>>>(v, w, 1024, 1024);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'blur' asks for 65536 bytes of dynamic shared memory, more than the 49152 a kernel may use before cudaFuncSetAttribute raises its cudaFuncAttributeMaxDynamicSharedMemorySize [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-122]]:21: note: the value 65536 comes from here
  staged<<<1, 256, 40 * 1024>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'staged' asks for 40960 bytes of dynamic shared memory, which with its 16384 bytes of static shared memory is more than the 49152 a kernel may use before cudaFuncSetAttribute raises its cudaFuncAttributeMaxDynamicSharedMemorySize [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-101]]:17: note: 'staged' declares 16384 bytes of static shared memory
  other<<<1, 128, kTileBytes>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'other' asks for 81920 bytes of dynamic shared memory, more than the 49152 a kernel may use before cudaFuncSetAttribute raises its cudaFuncAttributeMaxDynamicSharedMemorySize [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-123]]:8: note: the value 81920 comes from here

  // Past the kernel's __launch_bounds__.

  bounded<<<n / 512, 512>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'bounded' asks for 512 threads per block, more than the 256 of its __launch_bounds__ [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-102]]:17: note: 'bounded' is declared with at most 256 threads per block here
  boundedConst<<<n / 256, 256>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'boundedConst' asks for 256 threads per block, more than the 128 of its __launch_bounds__ [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-101]]:17: note: 'boundedConst' is declared with at most 128 threads per block here

  // Through a launcher's parameter (reported at the call), a template
  // argument, and cudaLaunchKernel.
  runScale(v, n, 2048);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'scale' asks for 2048 threads per block, more than the 1024 the device allows [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-76]]:3: note: 'scale' is launched here
  launchFill<2048>(v, n);

  void *args[] = {&v};
  cudaLaunchKernel((const void *)volume, dim3(1), dim3(2048), args, 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'volume' asks for 2048 threads per block, more than the 1024 the device allows [cuda-launch-configuration]
}

__global__ void late(float *v) {
  extern __shared__ float l[];
  l[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = l[threadIdx.x];
}

// The opt-in comes after the launch.
void optInAfterLaunch(float *v) {
  late<<<1, 256, 100 * 1024>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'late' asks for 102400 bytes of dynamic shared memory, more than the 49152 a kernel may use before cudaFuncSetAttribute raises its cudaFuncAttributeMaxDynamicSharedMemorySize [cuda-launch-configuration]
  cudaFuncSetAttribute(late, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       100 * 1024);
}

// The opt-in is for another kernel.
void optInOtherKernel(float *v) {
  cudaFuncSetAttribute(scale, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       100 * 1024);
  other<<<1, 256, 100 * 1024>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'other' asks for 102400 bytes of dynamic shared memory, more than the 49152 a kernel may use before cudaFuncSetAttribute raises its cudaFuncAttributeMaxDynamicSharedMemorySize [cuda-launch-configuration]
}

// Past the 227 KiB a block may use on sm_90, opt-in or not.
void pastArchLimit(float *v) {
  cudaFuncSetAttribute(huge, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       240 * 1024);
  huge<<<1, 256, 240 * 1024>>>(v);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'huge' asks for 245760 bytes of dynamic shared memory, more than the 232448 bytes a block may use on sm_90 [cuda-launch-configuration]
}

// --- Correct launches: no finding. ---

__global__ void tiles(float *v) {
  extern __shared__ float t[];
  t[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = t[threadIdx.x];
}

__global__ void tiles2(float *v) {
  extern __shared__ float t[];
  t[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = t[threadIdx.x];
}

__global__ void tiles3(float *v) {
  extern __shared__ float t[];
  t[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = t[threadIdx.x];
}

__global__ void tiles4(float *v) {
  extern __shared__ float t[];
  t[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = t[threadIdx.x];
}

__global__ void halfStatic(float *v) {
  __shared__ float a[8192]; // 32 KiB
  extern __shared__ float b[];
  a[threadIdx.x] = v[threadIdx.x];
  b[threadIdx.x] = a[threadIdx.x];
  v[threadIdx.x] = b[threadIdx.x];
}

void configureTiles4() {
  cudaFuncSetAttribute(tiles4, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       96 * 1024);
}

void setLimit(const void *kernel, int bytes) {
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       bytes);
}

// A shape built from a dependent aggregate in a template: read in the
// instantiation only.
template <typename T> struct Shape {
  T *data;
  const int rows;
  const int cols;
};
template <typename T> void launchShaped(T *data, int rows) {
  Shape<T> shape{data, rows, 64};
  dim3 grid(shape.rows);
  dim3 block(shape.cols / 4, 4, 2);
  volume<<<grid, block>>>(data);
}

void negatives(float *v, float *w, int n, int argc, char **argv) {
  // Shapes at or within the limits; a grid of 100000 blocks in x.
  scale<<<(n + 1023) / 1024, 1024>>>(v, 2.0f, n);
  blur<<<dim3(64, 64), dim3(16, 16)>>>(v, w, 1024, 1024);
  volume<<<1, dim3(8, 8, 16)>>>(v);
  scale<<<100000, 256>>>(v, 2.0f, n);
  scale<<<dim3(1, 65535), 128>>>(v, 2.0f, n);

  // Opted in before the launch: the plain call, the template form, in the
  // loop that launches, in another function, through a helper whose
  // parameter is the kernel (whose address then escapes).
  cudaFuncSetAttribute(tiles, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       64 * 1024);
  tiles<<<1, 256, 64 * 1024>>>(v);

  cudaFuncSetAttribute<void(float *)>(
      &tiles2, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  tiles2<<<1, 256, 64 * 1024>>>(v);

  for (int i = 0; i < 4; ++i) {
    cudaFuncSetAttribute(tiles3, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         96 * 1024);
    tiles3<<<i + 1, 256, 96 * 1024>>>(v);
  }

  configureTiles4();
  tiles4<<<1, 256, 96 * 1024>>>(v);

  setLimit((const void *)huge, 80 * 1024);
  huge<<<1, 256, 80 * 1024>>>(v);

  // Within __launch_bounds__.
  bounded<<<n / 256, 256>>>(v);
  boundedConst<<<n / 128, 128>>>(v);

  // Sizes known only at run time, from the user or the occupancy API.

  int threads = std::atoi(argv[1]);
  scale<<<(n + threads - 1) / threads, threads>>>(v, 2.0f, n);
  size_t bytes = n * sizeof(float);
  other<<<1, 256, bytes>>>(v);

  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, scale, 0, 0);
  scale<<<(n + block - 1) / block, block>>>(v, 2.0f, n);

  // Exactly 48 KiB, dynamic alone and with 32 KiB of static memory.
  other<<<1, 256, 48 * 1024>>>(v);
  halfStatic<<<1, 256, 16 * 1024>>>(v);

  // A branch the constant condition rules out.

  constexpr int kBlock = 2048;
  if (kBlock <= 1024)
    scale<<<n / kBlock, kBlock>>>(v, 2.0f, n);
  else
    scale<<<n / 1024, 1024>>>(v, 2.0f, n);

  // Launchers and API launches with valid shapes.
  runScale(v, n, 256);
  launchFill<512>(v, n);
  launchShaped(v, n);

  void *args[] = {&v};
  cudaLaunchKernel((const void *)volume, dim3(1), dim3(8, 8, 8), args, 0, 0);
  cudaLaunchCooperativeKernel((const void *)volume, dim3(4), dim3(256), args,
                              0, 0);
}
