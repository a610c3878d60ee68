#include <cuda_runtime.h>

// Expensive to copy: clang-tidy would pass it by const reference.
struct Buffer {
  Buffer(const Buffer &Other);
  ~Buffer();
  float *Data;
  int Size;
};

// A kernel's parameters are copied to the device at the launch: a
// reference would make the kernel read host memory.
__global__ void scale(Buffer B, float F) {
  if (threadIdx.x < B.Size)
    B.Data[threadIdx.x] *= F;
}

template <typename T> __global__ void fill(T B) { B.Data[threadIdx.x] = 0; }
template __global__ void fill<Buffer>(Buffer);

// On the host, the advice stands.
int sizeOf(Buffer B) { return B.Size; }
__device__ int deviceSizeOf(Buffer B) { return B.Size; }

// A redeclaration of a CUDA header's function: clang-tidy reports the name
// at the header's declaration (with --system-headers), and its fix-it would
// rename the header's function.
__device__ float __fdividef(float A, float B);


// A reserved name of the user's own is still reported.
__device__ float __halve(float X) { return X / 2; }
