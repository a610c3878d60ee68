// Includes the project's own cuda.h, from the same folder, which is also
// on the include path (-I).
#include "cuda.h"
#include <cuda_runtime.h>

void own_setup(int device) {
  if (cudaSetDevice(device) != cudaSuccess)
    return;
}
