#include "include/level1.h"
__global__ void deep_kernel(float *x) { x[threadIdx.x] = 0.f; }
