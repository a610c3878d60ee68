#ifndef PREAMBLE_HELPER_H
#define PREAMBLE_HELPER_H
#include <cuda_runtime.h>
inline void allocate(float **p) { cudaMalloc(p, 4 * sizeof(float)); }
#endif
