#pragma once
#include <cuda_runtime.h>
inline void clear(float *p) { cudaMemset(p, 0, 4); }
