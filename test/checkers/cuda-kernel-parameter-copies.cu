// cuda-kernel-parameter: a class passed by value is reported only when its
// copy or destruction does something the launch's bitwise copy skips or
// runs on the host (frees, counts references). Empty destructors, copy
// assignments, and copy constructors that copy member by member do what
// the bitwise copy does.
// RUN: %check_cuda_tidy_plugin %s cuda-kernel-parameter %t
// RUN: %check_cuda_tidy_driver %s cuda-kernel-parameter %t

// ---- Negative: special members that do nothing a bitwise copy would not ----

// A view over device memory with an empty destructor written out.
struct MatrixView {
  float *elements;
  int rows, cols;
  __host__ __device__ ~MatrixView() {}
};
__global__ void zeroView(MatrixView m) { m.elements[threadIdx.x] = 0; }

// A copy assignment over device pointers and plain values.
struct Span {
  const int *begin;
  int length;
  __host__ __device__ Span &operator=(const Span &o) {
    begin = o.begin;
    length = o.length;
    return *this;
  }
};
__global__ void firstOf(Span s, int *out) { out[0] = s.begin[0]; }

// A copy constructor that copies each member from the same member.
struct Grid2D {
  double *cells;
  int nx, ny;
  Grid2D(double *c, int x, int y) : cells(c), nx(x), ny(y) {}
  __host__ __device__ Grid2D(const Grid2D &o) : cells(o.cells), nx(o.nx) {
    ny = o.ny;
  }
  __host__ __device__ ~Grid2D() {}
};
__global__ void clearGrid(Grid2D g) { g.cells[threadIdx.x] = 0.0; }

// Members of such classes, and classes derived from them.
struct Pair {
  MatrixView left, right;
};
__global__ void zeroPair(Pair p) { p.left.elements[0] = 0; }

struct NamedView : MatrixView {
  int id;
};
__global__ void zeroNamed(NamedView v) { v.elements[v.id] = 0; }

// ---- Positive: copies and destructions that do something ------------------

// A destructor that frees: the host's copy frees while the kernel runs.
struct OwnedBuffer {
  float *data;
  ~OwnedBuffer() { cudaFree(data); }
};
__global__ void fillOwned(OwnedBuffer b) { b.data[threadIdx.x] = 1; }
// CHECK-MESSAGES: :[[@LINE-1]]:39: warning: kernel parameter 'b' of type 'OwnedBuffer' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]

// A copy constructor that counts references.
struct Shared {
  float *data;
  int *refs;
  Shared(const Shared &o) : data(o.data), refs(o.refs) { ++*refs; }
};
__global__ void readShared(Shared s, float *out) { out[0] = s.data[0]; }
// CHECK-MESSAGES: :[[@LINE-1]]:35: warning: kernel parameter 's' of type 'Shared' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]

// A copy constructor that copies a member from another one.
struct Swapped {
  int a, b;
  Swapped(const Swapped &o) : a(o.b), b(o.a) {}
};
__global__ void readSwapped(Swapped s, int *out) { out[0] = s.a; }
// CHECK-MESSAGES: :[[@LINE-1]]:37: warning: kernel parameter 's' of type 'Swapped' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]

// An empty destructor beside a virtual function: the vtable is the problem.
struct Kernelish {
  virtual __host__ __device__ float eval() const { return 1; }
  __host__ __device__ ~Kernelish() {}
};
__global__ void evalAll(Kernelish k, float *out) { out[0] = k.eval(); }
// CHECK-MESSAGES: :[[@LINE-1]]:35: warning: kernel parameter 'k' of type 'Kernelish' holds a virtual table pointer, which is a host address on the device [cuda-kernel-parameter]

// A member whose destructor frees, inside a class whose own is empty.
struct Wrapper {
  OwnedBuffer inner;
  ~Wrapper() {}
};
__global__ void fillWrapped(Wrapper w) { w.inner.data[0] = 0; }
// CHECK-MESSAGES: :[[@LINE-1]]:37: warning: kernel parameter 'w' of type 'Wrapper' is not trivially copyable; the device gets a bitwise copy made on the host [cuda-kernel-parameter]
