// cuda-global-memory-race: plain read-modify-writes of one global element
// by several threads of a launch (a counter, a per-block slot, a
// neighbour's entry read from memory), where concurrent updates are lost.
// RUN: %check_cuda_tidy_plugin %s cuda-global-memory-race %t
// RUN: %check_cuda_tidy_driver %s cuda-global-memory-race %t

__device__ int g_total;
__device__ unsigned g_bins[64];

//===--- Flagged: one element for the whole grid ---------------------------===//

__global__ void countPositives(const float *in, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.0f)
    count[0] = count[0] + 1;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: every thread of the grid updates global 'count' at '0' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-2]]:16: note: the old value is read here
}

__global__ void countThroughPointer(const int *keys, int *counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] == 7)
    *counter += 1;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: every thread of the grid updates global 'counter' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
}

__global__ void countIntoDeviceVariable(const int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flags[i])
    g_total++;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: every thread of the grid updates global 'g_total' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
}

__global__ void maxThroughCompare(const float *in, float *best, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > best[0])
    best[0] = in[i];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: every thread of the grid updates global 'best' at '0' with a plain compare and store: concurrent updates are lost (use atomicMax) [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-3]]:24: note: the old value is read here
}

__global__ void blockSumsIntoOneTotal(const float *partial, float *total) {
  __shared__ float s[256];
  s[threadIdx.x] = partial[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  // One thread per block, but every block adds into the same total.
  if (threadIdx.x == 0)
    *total = *total + s[0];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: every thread of the grid updates global 'total' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-2]]:14: note: the old value is read here
}

__global__ void oldValueThroughLocal(const int *in, int *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int old = sum[0];
  sum[0] = old + in[i];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: every thread of the grid updates global 'sum' at '0' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:13: note: the old value is read here
}

//===--- Flagged: one element per block ------------------------------------===//

__global__ void perBlockCountByEveryThread(const int *in, int *blockCount) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] != 0)
    blockCount[blockIdx.x] += 1;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the threads of each block update global 'blockCount' at 'blockIdx.x' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
}

//===--- Flagged: an index read from memory --------------------------------===//

__global__ void histogramPlain(const unsigned char *pixels, unsigned *hist,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int bin = pixels[i] / 4;
    hist[bin]++;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads whose index read from memory is the same update global 'hist' at 'bin' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
  }
}

__global__ void histogramIntoDeviceArray(const unsigned *keys, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    g_bins[keys[i] & 63] = g_bins[keys[i] & 63] + 1;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads whose index read from memory is the same update global 'g_bins' at 'keys[i] & 63' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-2]]:28: note: the old value is read here
}

__global__ void relaxEdgesPlain(const int *rowStart, const int *adj,
                                const int *weight, int *dist, int n) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n)
    return;
  for (int e = rowStart[u]; e < rowStart[u + 1]; ++e) {
    int v = adj[e];
    int d = dist[u] + weight[e];
    if (d < dist[v])
      dist[v] = d;
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: threads whose index read from memory is the same update global 'dist' at 'v' with a plain compare and store: concurrent updates are lost (use atomicMin) [cuda-global-memory-race]
      // CHECK-NOTES: :[[@LINE-3]]:13: note: the old value is read here
  }
}

__global__ void relaxWithEarlyContinue(const int *rowStart, const int *adj,
                                       float *dist, int n) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n)
    return;
  for (int e = rowStart[u]; e < rowStart[u + 1]; ++e) {
    int v = adj[e];
    float d = dist[u] + 1.0f;
    if (dist[v] <= d)
      continue;
    dist[v] = d;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads whose index read from memory is the same update global 'dist' at 'v' with a plain compare and store: concurrent updates are lost (use atomicMin) [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-4]]:9: note: the old value is read here
  }
}

__global__ void degreeCount(const int *src, int *degree, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m)
    degree[src[e]] += 1;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: threads whose index read from memory is the same update global 'degree' at 'src[e]' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
}

//===--- Not flagged: atomics ----------------------------------------------===//

__global__ void histogramAtomic(const unsigned char *pixels, unsigned *hist,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[pixels[i] / 4], 1u);
}

__global__ void counterAtomic(const int *keys, int *counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] == 7)
    atomicAdd(counter, 1);
}

__global__ void relaxEdgesAtomic(const int *rowStart, const int *adj,
                                 const int *weight, int *dist, int n) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n)
    return;
  for (int e = rowStart[u]; e < rowStart[u + 1]; ++e) {
    int v = adj[e];
    int d = dist[u] + weight[e];
    if (d < dist[v])
      atomicMin(&dist[v], d);
  }
}

//===--- Not flagged: one-to-one indices -----------------------------------===//

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

__global__ void gridStrideAccumulate(const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = y[i] + x[i];
}

__global__ void neighbourOffset(float *y, int n) {
  int t = threadIdx.x;
  if (t + 1 < n)
    y[t + 1] *= 2.0f;
}

__global__ void csrSpmv(const int *rowPtr, const int *col, const float *val,
                        const float *x, float *y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    for (int j = rowPtr[row]; j < rowPtr[row + 1]; ++j)
      sum += val[j] * x[col[j]];
    y[row] += sum;
  }
}

__global__ void scaleOwnRow(const int *rowPtr, float *val, const float *s,
                            int rows) {
  // Each thread walks its own row's entries.
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    for (int j = rowPtr[row]; j < rowPtr[row + 1]; ++j)
      val[j] *= s[row];
}

__global__ void matrixAccumulate2D(const float *a, float *c, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    c[y * w + x] += a[y * w + x];
}

//===--- Not flagged: a value that does not depend on the old one ----------===//

__global__ void bfsVisit(const int *rowStart, const int *adj, int *visited,
                         int *frontierNext, int *level, int depth, int n) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n || level[u] != depth)
    return;
  for (int e = rowStart[u]; e < rowStart[u + 1]; ++e) {
    int v = adj[e];
    if (!visited[v]) {
      visited[v] = 1;
      level[v] = depth + 1;
      frontierNext[v] = 1;
    }
  }
}

__global__ void setDoneFlag(const float *residual, int *done, float tol,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && residual[i] > tol)
    done[0] = 0;
}

__global__ void markChanged(const int *a, const int *b, int *changed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && a[i] != b[i] && changed[0] == 0)
    changed[0] = 1;
}

__global__ void orFlags(const int *adj, unsigned *flags, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m)
    flags[adj[e]] |= 1u;
}

//===--- Not flagged: one writer -------------------------------------------===//

__global__ void blockReduce(const float *in, float *blockOut) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    blockOut[blockIdx.x] += s[0];
}

__global__ void blockReduceEarlyExit(const float *in, float *blockOut) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  float sum = 0.0f;
  for (int k = 0; k < 256; ++k)
    sum += s[k];
  blockOut[blockIdx.x] = blockOut[blockIdx.x] + sum;
}

__global__ void finalizeBySingleThread(const float *partial, float *total,
                                       int blocks) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    for (int b = 0; b < blocks; ++b)
      *total += partial[b];
}

__global__ void finalizeByGlobalRankZero(const float *partial, float *total,
                                         int blocks) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid == 0)
    for (int b = 0; b < blocks; ++b)
      total[0] += partial[b];
}

// The last block to finish, picked by a ticket: one thread of the grid.
__global__ void lastBlockCombines(const float *in, float *partial,
                                  unsigned *arrived, float *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = v;
    __threadfence();
    unsigned last = gridDim.x - 1;
    if (last == atomicInc(arrived, last))
      for (unsigned b = 0; b < gridDim.x; ++b)
        *total += partial[b];
  }
}

__global__ void lastBlockSharedFlag(const float *in, float *partial,
                                    unsigned *arrived, float *total, int n) {
  __shared__ bool amLast;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = i < n ? in[i] : 0.0f;
    __threadfence();
    unsigned ticket = atomicAdd(arrived, 1u);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0)
    for (unsigned b = 0; b < gridDim.x; ++b)
      total[0] = total[0] + partial[b];
}

// The same flag without the thread guard: every thread of the last block.
__global__ void lastBlockEveryThread(const float *partial, unsigned *arrived,
                                     float *total) {
  __shared__ bool amLast;
  if (threadIdx.x == 0)
    amLast = atomicAdd(arrived, 1u) == gridDim.x - 1;
  __syncthreads();
  if (amLast)
    total[0] += partial[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: every thread of the grid updates global 'total' at '0' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
}

__global__ void serialScan(int *a, int n) {
  // No thread coordinate: a kernel written for one thread.
  for (int i = 1; i < n; ++i)
    a[i] += a[i - 1];
}

__global__ void singleBlockReduce(const float *partial, float *total) {
  __shared__ float s[128];
  s[threadIdx.x] = partial[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0.0f;
    for (int k = 0; k < 128; ++k)
      sum += s[k];
    *total += sum;
  }
}

//===--- Not flagged: memory not known to be shared global memory ----------===//

__device__ void addInto(int *p, int v) { *p += v; }

__global__ void localCounters(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int local[4] = {0, 0, 0, 0};
  if (i < n)
    local[in[i] & 3]++;
  __shared__ int shared[4];
  if (i < n)
    atomicAdd(&shared[in[i] & 3], 1);
  int *mine = out + i * 4;
  mine[0] += local[0];
}

//===--- Launches decide how many threads share an element -----------------===//

__global__ void accumulateOneThread(const float *in, float *total, int n) {
  for (int i = 0; i < n; ++i)
    total[0] += in[i] * threadIdx.x;
}

void launchOneThread(const float *in, float *total, int n) {
  accumulateOneThread<<<1, 1>>>(in, total, n);
}

//===--- Bucket searches over sorted bounds: one thread of each block -------===//

struct TreeNode {
  int keys[9];
  int children[9];
};

// Each block descends one level for its query: the thread whose key range
// holds the query moves the block's cursor. The node's keys are sorted, so
// at most one thread of the block passes both bounds.
__global__ void descendOneLevel(const TreeNode *nodes, const int *queries,
                                int *cursor) {
  int q = blockIdx.x;
  int t = threadIdx.x;
  if (nodes[cursor[q]].keys[t] <= queries[q] &&
      queries[q] < nodes[cursor[q]].keys[t + 1])
    cursor[q] = nodes[cursor[q]].children[t];
}

// The same with the bounds the other way round and a strict lower bound.
__global__ void findBucket(const float *bounds, const float *values,
                           int *slot, int *hits) {
  int t = threadIdx.x;
  float v = values[blockIdx.x];
  if (bounds[t + 1] >= v && bounds[t] < v)
    hits[blockIdx.x] = hits[blockIdx.x] + t;
}

// Not a bracket: the upper bound is the same element, so every thread with
// a small key passes.
__global__ void notABracket(const int *keys, const int *queries, int *count) {
  int t = threadIdx.x;
  if (keys[t] <= queries[blockIdx.x] && queries[blockIdx.x] < keys[t] + 4)
    count[blockIdx.x] = count[blockIdx.x] + 1;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the threads of each block update global 'count' at 'blockIdx.x' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-2]]:25: note: the old value is read here
}

// Not a bracket: the bound moves with the thread, so many threads pass.
__global__ void boundPerThread(const int *keys, const int *limits, int *count) {
  int t = threadIdx.x;
  if (keys[t] <= limits[t] && limits[t] < keys[t + 1])
    count[blockIdx.x] = count[blockIdx.x] + 1;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the threads of each block update global 'count' at 'blockIdx.x' with a plain read-modify-write: concurrent updates are lost (use atomicAdd) [cuda-global-memory-race]
    // CHECK-NOTES: :[[@LINE-2]]:25: note: the old value is read here
}
