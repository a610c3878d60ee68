// nvcc defines __CUDACC__ as 1, so code tests it with #if.
#include <cuda_runtime.h>

#if __CUDACC__
#define BOTH __host__ __device__
#else
#define BOTH
#endif

BOTH inline float twice(float x) { return 2 * x; }

__global__ void scale(float *p) { p[0] = twice(p[0]); }
