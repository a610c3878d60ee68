__global__ void k(int *a, int c, int n) { a[threadIdx.x] = 0; if ((n << c) < 0) return; }
