// cuda-launch-configuration: a gridDim.y or .z that grows with the data and
// that nothing bounds below 65535 (an element count, a product of sizes, or
// one size while gridDim.x is a constant). Idiomatic grids stay silent:
// the large dimension on x, 2-D tilings of an image, sizes bounded by
// min(), a check or a modulo, constants divided by a size.
// RUN: %check_cuda_tidy_driver %s cuda-launch-configuration %t

#include <algorithm>

__global__ void per_row(float *p, int rows, int cols) {
  int r = blockIdx.y + blockIdx.z * gridDim.y;
  if (r < rows && threadIdx.x < cols)
    p[r * cols + threadIdx.x] = 0.f;
}

__global__ void per_row_x(float *p, int rows, int cols) {
  int r = blockIdx.x;
  if (r < rows && threadIdx.x < cols)
    p[r * cols + threadIdx.x] = 0.f;
}

// The batch times the cameras on y: gridDim.y fails past 65535.
void product_on_y(float *p, int batch, int cameras, int n) {
  int nrows = batch * cameras;
  dim3 grid((n + 255) / 256, nrows, 1);
  per_row<<<grid, 256>>>(p, nrows, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'per_row' puts 'nrows' (batch * cameras) on gridDim.y, a product of sizes that nothing bounds on this path: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-4]]:15: note: 'nrows' is computed here
  // CHECK-NOTES: :[[@LINE-4]]:30: note: put the large dimension on gridDim.x, which allows 2147483647 blocks, or bound it ('TORCH_CHECK(nrows <= 65535)', or min(nrows, 65535) blocks with a grid-stride loop in the kernel)
}

// One block column, every row on y: the grid's x and y are swapped.
void rows_on_y(float *p, int rows, int cols) {
  const dim3 blocks(1, rows, 1);
  per_row<<<blocks, dim3(32, 4)>>>(p, rows, cols);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'per_row' puts 'rows' on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 1: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: put the large dimension on gridDim.x
}

// The same through a lambda that captures the grid.
void rows_on_y_lambda(float *p, int rows, int cols) {
  const dim3 blocks(1, rows, 1);
  auto launch = [&]() { per_row<<<blocks, dim3(32, 4)>>>(p, rows, cols); };
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: launch of 'per_row' puts 'rows' on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 1
  // CHECK-NOTES: :[[@LINE-3]]:24: note: put the large dimension on gridDim.x
  launch();
}

// z holds a product too.
void product_on_z(float *p, int b, int h, int n) {
  per_row<<<dim3(4, 1, b * h), 256>>>(p, b * h, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'per_row' puts 'b * h' on gridDim.z, a product of sizes that nothing bounds on this path: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-2]]:24: note: put the large dimension on gridDim.x
}

// Negatives: the large dimension on x.
void product_on_x(float *p, int batch, int cameras, int n) {
  dim3 grid(batch * cameras, (n + 255) / 256);
  per_row_x<<<grid, 256>>>(p, batch * cameras, n);
}

// Negatives: a 2-D tiling of an image, one size on each of x and y.
void image_tiles(float *p, int width, int height) {
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  per_row<<<grid, dim3(16, 16)>>>(p, height, width);
}

// Negatives: one size on y while x is also a size.
void batch_on_y(float *p, int batch, int n) {
  per_row<<<dim3((n + 255) / 256, batch), 256>>>(p, batch, n);
}

// Negatives: bounded by min(), a guard, an early exit, a modulo, and a
// constant over a size.
void bounded_min(float *p, int rows, int cols) {
  const dim3 blocks(1, std::min(rows, 65535), 1);
  per_row<<<blocks, 128>>>(p, rows, cols);
}

void bounded_by_guard(float *p, int batch, int cameras, int n) {
  int nrows = batch * cameras;
  if (nrows > 65535)
    return;
  dim3 grid((n + 255) / 256, nrows, 1);
  per_row<<<grid, 256>>>(p, nrows, n);
}

void bounded_by_ternary(float *p, int rows, int cols) {
  int y = rows < 65535 ? rows : 65535;
  per_row<<<dim3(1, y), 128>>>(p, rows, cols);
}

void bounded_constant_over_size(float *p, int batch, int n) {
  per_row<<<dim3(batch, 1024 / batch + 1), 128>>>(p, batch, n);
}

void bounded_modulo(float *p, int rows, int cols) {
  per_row<<<dim3(1, rows % 1024), 128>>>(p, rows, cols);
}

// Negatives: constants, and a size in a loop bounded by a constant.
void constants(float *p, int cols) {
  per_row<<<dim3(1, 4096, 8), 128>>>(p, 4096, cols);
  for (int chunk = 1; chunk < 64; ++chunk)
    per_row<<<dim3(1, chunk), 128>>>(p, chunk, cols);
}

// Negatives: a value the analysis cannot read.
int rows_from_somewhere();
void unknown_rows(float *p, int cols) {
  per_row<<<dim3(1, rows_from_somewhere()), 128>>>(p, 0, cols);
}
