// cuda-unguarded-thread-index reports only what it reads with confidence.
// Every kernel here is launched on a rounded-up grid, so a finding would
// have launch facts behind it; each is correct code in a form found in
// public projects (docs/precision.md), which the default mode leaves
// alone (StrictMode reports some of them).
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t

#define R 4
#define H 8
#define W 16

// A linear index decomposed into coordinates and rebuilt in a larger
// layout: the rebuilt index is in range of the larger buffer.
__global__ void splitHeads(float *q, const float *qkv, int rows, int heads,
                           int dim) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < rows * heads * dim) {
    int r = idx / (heads * dim);
    int rest = idx % (heads * dim);
    int h = rest / dim;
    int d = rest % dim;
    q[idx] = qkv[r * 3 * heads * dim + h * dim + d];
  }
}

// Three levels of constant strides under guards on each coordinate.
__global__ void batchedSoftmaxGrad(float *grad, int batch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (x >= H || b >= batch)
    return;
  for (int w = 0; w < W; ++w)
    grad[b * W * H + w * H + x] = 0.0f;
}

// An inclusive range of ids that is not the array's extent.
__global__ void identityPrefix(int *ids, int fixedIds, int total) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx <= fixedIds + 1)
    ids[idx] = idx;
  else if (idx < total)
    ids[idx] = -1;
}

// Mirrored edges: coordinates clamped into the image, then combined.
__global__ void mirrorBlur(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float sum = 0.0f;
  for (int d = -R; d <= R; ++d) {
    int xx = x + d;
    if (xx < 0)
      xx = -xx;
    if (xx > w - 1)
      xx = w - 1 - d;
    int at = y * w + xx;
    sum += in[at];
  }
  out[y * w + x] = sum;
}

// A grid-stride loop over two halves, folded onto one.
__global__ void foldHalves(int *starts, const int *ranges, int half) {
  int nThreads = gridDim.x * blockDim.x;
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < 2 * half;
       idx += nThreads) {
    int cone = idx >> 1;
    starts[idx] = cone == 0 ? 0 : ranges[cone - 1];
  }
}

// Vertices around cells: the map has one more row and one more column
// than the cells (its pitch is not the guard's bound).
__global__ void cellCorners(float *corners, const float *map, int cellsX,
                            int cellsY) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px < cellsY && py < cellsX) {
    int pitch = cellsY + 1;
    int below = (py + 1) * pitch + px;
    int right = py * pitch + px + 1;
    corners[py * cellsY + px] = map[below] + map[right];
  }
}

// A window into a larger buffer at a uniform start, under an inclusive
// guard on the window's length.
__global__ void windowAt(int *hits, const char *text, int start, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > len)
    return;
  hits[0] += text[start + i];
}

// A helper that guards its neighbour itself.
__device__ float eastOf(const float *p, int idx, int width) {
  int x = idx % width;
  return x < width - 1 ? p[idx + 1] : p[idx];
}
__global__ void eastNeighbours(float *out, const float *p, int n, int width) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n)
    out[idx] = eastOf(p, idx, width);
}

void launchAll(float *f, int *ids, const float *cf, const int *ci, int n) {
  int blocks = (n + 255) / 256;
  dim3 grid2((n + 15) / 16, (n + 15) / 16);
  splitHeads<<<blocks, 256>>>(f, cf, n, 4, 8);
  batchedSoftmaxGrad<<<dim3((H + 31) / 32, n), 32>>>(f, n);
  identityPrefix<<<blocks, 256>>>(ids, 8, n);
  mirrorBlur<<<grid2, dim3(16, 16)>>>(f, cf, n, n);
  foldHalves<<<blocks, 256>>>(ids, ci, n);
  cellCorners<<<grid2, dim3(16, 16)>>>(f, cf, n, n);
  eastNeighbours<<<blocks, 256>>>(f, cf, n, n);
  windowAt<<<blocks, 256>>>(ids, (const char *)cf, 16, n);
}
