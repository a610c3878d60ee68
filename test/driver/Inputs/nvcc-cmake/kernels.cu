#include "../nvcc_expect.cuh"

// One finding per file shows that the analysis ran.
void unchecked(float **d) { cudaMalloc(d, 64); }
