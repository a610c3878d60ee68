// cuda-unguarded-thread-index reads the allocations the launches pass: an
// index that may reach a guard's bound, or run a constant past the extent
// the grid was sized from, is in bounds when every buffer it touches holds
// that many elements more (1-based ids over 'n + 1' entries, halo reads
// inside padding). The same accesses over buffers without the room stay
// findings.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t

#define RADIUS 3
#define BLOCK 128

// --- 1-based ids: 'id <= n' over arrays of n + 1 entries. ---

__global__ void rankFromOne(int *rank, const int *parent, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (id <= n)
    rank[id] = parent[id] + 1;
}

// The same guard over arrays of exactly n entries: id == n is one past.
__global__ void rankFromOneShort(int *rank, const int *parent, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (id <= n)
    rank[id] = parent[id] + 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'rank' at thread-derived index 'id' can reach the bound in 'id <= n' [cuda-unguarded-thread-index]
  // CHECK-MESSAGES: :[[@LINE-2]]:16: warning: read of 'parent' at thread-derived index 'id' can reach the bound in 'id <= n' [cuda-unguarded-thread-index]
}

// One buffer has the extra entry and the other has not.
__global__ void rankMixed(int *rank, const int *parent, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (id > n)
    return;
  rank[id] = parent[id];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: read of 'parent' at thread-derived index 'id' can reach the bound in 'id > n' [cuda-unguarded-thread-index]
}

void rankAll(int n) {
  int *rank, *parent, *shortRank, *shortParent, *onlyRank;
  cudaMalloc(&rank, (n + 1) * sizeof(int));
  cudaMalloc(&parent, sizeof(int) * (n + 1));
  cudaMalloc(&shortRank, n * sizeof(int));
  cudaMalloc(&shortParent, n * sizeof(int));
  cudaMalloc(&onlyRank, (n + 1) * sizeof(int));
  int blocks = (n + BLOCK - 1) / BLOCK;
  rankFromOne<<<blocks, BLOCK>>>(rank, parent, n);
  rankFromOneShort<<<blocks, BLOCK>>>(shortRank, shortParent, n);
  rankMixed<<<blocks, BLOCK>>>(onlyRank, shortParent, n);
  cudaFree(rank);
  cudaFree(parent);
  cudaFree(shortRank);
  cudaFree(shortParent);
  cudaFree(onlyRank);
}

// --- Halo reads inside padding, on a grid rounded down. ---

// 'in' holds n + 2 * RADIUS elements; the grid covers at most n threads.
__global__ void smooth(float *out, const float *in) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += in[g + RADIUS + k];
  out[g] = sum + in[g + RADIUS];
}

// Padding of RADIUS on one side only: the right-hand halo runs past.
__global__ void smoothShort(float *out, const float *in) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g] + in[g + 2 * RADIUS];
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: read of 'in' at thread-derived index 'g + 2 * RADIUS' has no upper bound on this path [cuda-unguarded-thread-index]
}

// A guard against n, and reads up to 2 * RADIUS past it in a padded
// buffer.
__global__ void smoothGuarded(float *out, const float *in, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= n)
    return;
  out[g] = in[g] + in[g + 2 * RADIUS];
}

void smoothAll(int n) {
  float *out, *in, *inShort, *outAll, *inAll;
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&in, (n + 2 * RADIUS) * sizeof(float));
  cudaMalloc(&inShort, (n + RADIUS) * sizeof(float));
  cudaMalloc(&outAll, n * sizeof(float));
  cudaMalloc(&inAll, (n + 2 * RADIUS) * sizeof(float));
  smooth<<<n / BLOCK, BLOCK>>>(out, in);
  smoothShort<<<n / BLOCK, BLOCK>>>(out, inShort);
  smoothGuarded<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(outAll, inAll, n);
  cudaFree(out);
  cudaFree(in);
  cudaFree(inShort);
  cudaFree(outAll);
  cudaFree(inAll);
}

// --- Sizes that cannot be read stay findings. ---

// The buffer comes from the caller: its size is unknown here.
__global__ void rankUnknown(int *rank, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (id <= n)
    rank[id] = id;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'rank' at thread-derived index 'id' can reach the bound in 'id <= n' [cuda-unguarded-thread-index]
}

void rankGiven(int *rank, int n) {
  rankUnknown<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(rank, n);
}

// --- The next block's first elements, read by the first threads. ---

// Threads below RADIUS read BLOCK elements ahead: at most RADIUS past the
// extent, inside padding of RADIUS.
__global__ void haloAhead(int *out, const int *in) {
  int g = threadIdx.x + blockIdx.x * blockDim.x;
  int v = in[g];
  if (threadIdx.x < RADIUS)
    v += in[g + BLOCK];
  out[g] = v;
}

// The same read by threads below 2 * RADIUS runs past that padding.
__global__ void haloAheadWide(int *out, const int *in) {
  int g = threadIdx.x + blockIdx.x * blockDim.x;
  int v = in[g];
  if (threadIdx.x < 2 * RADIUS)
    v += in[g + BLOCK];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: read of 'in' at thread-derived index 'g + BLOCK' has no upper bound on this path [cuda-unguarded-thread-index]
  out[g] = v;
}

void haloAll(int length) {
  int *in, *out, *in2, *out2;
  cudaMalloc(&in, (length + RADIUS) * sizeof(int));
  cudaMalloc(&out, length * sizeof(int));
  cudaMalloc(&in2, (length + RADIUS) * sizeof(int));
  cudaMalloc(&out2, length * sizeof(int));
  dim3 grid(length / BLOCK), block(BLOCK);
  haloAhead<<<grid, block>>>(out, in);
  haloAheadWide<<<grid, block>>>(out2, in2);
  cudaFree(in);
  cudaFree(out);
  cudaFree(in2);
  cudaFree(out2);
}

// --- Allocations out of sight: the sizes the launching function copies. ---

// Node ids from 1: thread 'index' works on node index + 1.
__global__ void linkNodes(int *next, const int *left, int count) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < count) {
    int node = index + 1;
    next[node] = left[node];
  }
}

// The same kernels, launched where the copies show fewer elements.
__global__ void linkNodesShort(int *next, const int *left, int count) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < count) {
    int node = index + 1;
    next[node] = left[node];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'next' at thread-derived index 'node' can reach the bound in 'index < count' [cuda-unguarded-thread-index]
    // CHECK-MESSAGES: :[[@LINE-2]]:18: warning: read of 'left' at thread-derived index 'node' can reach the bound in 'index < count' [cuda-unguarded-thread-index]
  }
}

__global__ void linkNodesMaybe(int *next, const int *left, int count) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < count) {
    int node = index + 1;
    next[node] = left[node];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'next' at thread-derived index 'node' can reach the bound in 'index < count' [cuda-unguarded-thread-index]
    // CHECK-MESSAGES: :[[@LINE-2]]:18: warning: read of 'left' at thread-derived index 'node' can reach the bound in 'index < count' [cuda-unguarded-thread-index]
  }
}

// Two past the guard's bound: one more than the room.
__global__ void linkNodesPair(int *next, const int *left, int count) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < count) {
    int node = index + 2;
    next[node] = left[node];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'next' at thread-derived index 'node' can reach the bound in 'index < count' [cuda-unguarded-thread-index]
    // CHECK-MESSAGES: :[[@LINE-2]]:18: warning: read of 'left' at thread-derived index 'node' can reach the bound in 'index < count' [cuda-unguarded-thread-index]
  }
}

__global__ void linkNodesApart(int *next, const int *left, int count) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < count) {
    int node = index + 1;
    next[node] = left[node];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'next' at thread-derived index 'node' can reach the bound in 'index < count' [cuda-unguarded-thread-index]
  }
}

__global__ void linkNodesRegrown(int *next, const int *left, int count) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < count) {
    int node = index + 1;
    next[node] = left[node];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write to 'next' at thread-derived index 'node' can reach the bound in 'index < count' [cuda-unguarded-thread-index]
    // CHECK-MESSAGES: :[[@LINE-2]]:18: warning: read of 'left' at thread-derived index 'node' can reach the bound in 'index < count' [cuda-unguarded-thread-index]
  }
}

class NodeGraph {
public:
  explicit NodeGraph(int nodes) { reserve(nodes); }
  ~NodeGraph() { release(); }
  void link(const int *hostLeft, int nodes);
  void linkShort(const int *hostLeft, int nodes);
  void linkMaybe(const int *hostLeft, int nodes, bool refill);
  void linkApart(const int *hostLeft, int nodes);
  void linkRegrown(const int *hostLeft, int nodes);

private:
  void reserve(int nodes);
  void reserveLater(int nodes);
  void regrow(int nodes);
  void release();
  int *next, *left, *nextShort, *leftShort, *nextLater, *grown;
};

// 'next' is allocated alike 'left': the same count in the same function.
void NodeGraph::reserve(int nodes) {
  cudaMalloc(&next, (nodes + 1) * sizeof(int));
  cudaMalloc(&left, (nodes + 1) * sizeof(int));
  cudaMalloc(&nextShort, nodes * sizeof(int));
  cudaMalloc(&leftShort, nodes * sizeof(int));
  reserveLater(nodes);
}

// The same count, but in another function: a call of it may pass another.
void NodeGraph::reserveLater(int nodes) {
  cudaMalloc(&nextLater, (nodes + 1) * sizeof(int));
}

void NodeGraph::regrow(int nodes) {
  cudaFree(grown);
  cudaMalloc(&grown, nodes * sizeof(int));
}

void NodeGraph::release() {
  cudaFree(next);
  cudaFree(left);
  cudaFree(nextShort);
  cudaFree(leftShort);
  cudaFree(nextLater);
  cudaFree(grown);
}

// 'left' holds nodes + 1 entries, as the copy into it shows.
void NodeGraph::link(const int *hostLeft, int nodes) {
  cudaMemcpy(left, hostLeft, (nodes + 1) * sizeof(int), cudaMemcpyHostToDevice);
  linkNodes<<<(nodes + 255) / 256, 256>>>(next, left, nodes);
  linkNodesPair<<<(nodes + 255) / 256, 256>>>(next, left, nodes);
}

void NodeGraph::linkShort(const int *hostLeft, int nodes) {
  cudaMemcpy(leftShort, hostLeft, nodes * sizeof(int), cudaMemcpyHostToDevice);
  linkNodesShort<<<(nodes + 255) / 256, 256>>>(nextShort, leftShort, nodes);
}

// A copy on some paths only says nothing about the others.
void NodeGraph::linkMaybe(const int *hostLeft, int nodes, bool refill) {
  if (refill)
    cudaMemcpy(left, hostLeft, (nodes + 1) * sizeof(int),
               cudaMemcpyHostToDevice);
  linkNodesMaybe<<<(nodes + 255) / 256, 256>>>(next, left, nodes);
}

void NodeGraph::linkApart(const int *hostLeft, int nodes) {
  cudaMemcpy(left, hostLeft, (nodes + 1) * sizeof(int), cudaMemcpyHostToDevice);
  linkNodesApart<<<(nodes + 255) / 256, 256>>>(nextLater, left, nodes);
}

// The copy shows nodes + 1 entries, but a call made afterwards allocates
// the member again.
void NodeGraph::linkRegrown(const int *hostLeft, int nodes) {
  cudaMemcpy(grown, hostLeft, (nodes + 1) * sizeof(int), cudaMemcpyHostToDevice);
  regrow(nodes);
  linkNodesRegrown<<<(nodes + 255) / 256, 256>>>(grown, grown, nodes);
}

// The methods are launchers: each launch is seen once per call.
void buildGraph(const int *hostLeft, int nodes, bool refill) {
  NodeGraph graph(nodes);
  graph.link(hostLeft, nodes);
  graph.linkShort(hostLeft, nodes);
  graph.linkMaybe(hostLeft, nodes, refill);
  graph.linkApart(hostLeft, nodes);
  graph.linkRegrown(hostLeft, nodes);
}

// A caller's buffer, filled with n + 1 entries before the launch.
__global__ void rankCopied(int *rank, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (id <= n)
    rank[id] += id;
}

void rankFilled(int *rank, const int *hostRank, int n) {
  cudaMemcpy(rank, hostRank, sizeof(int) * (n + 1), cudaMemcpyHostToDevice);
  rankCopied<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(rank, n);
}
