// cuda-launch-configuration: a gridDim.y or .z that grows with the data and
// that nothing bounds below 65535 (an element count, a product of sizes of
// which a tensor gives one, or any size while gridDim.x is one block). Idiomatic grids stay silent:
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

// One block column, the product of two sizes on y.
void product_on_y(float *p, int batch, int cameras, int n) {
  int nrows = batch * cameras;
  dim3 grid(1, nrows, 1);
  per_row<<<grid, 256>>>(p, nrows, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'per_row' puts 'nrows' (batch * cameras) on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 1: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-4]]:15: note: 'nrows' is computed here
  // CHECK-NOTES: :[[@LINE-4]]:16: note: put the large dimension on gridDim.x, which allows 2147483647 blocks, or bound it ('TORCH_CHECK(nrows <= 65535)', or min(nrows, 65535) blocks with a grid-stride loop in the kernel)
}

// Negatives: two integer parameters multiplied beside a data-sized x: the
// parameters may as well be small counts (three projections times a head
// group), so only products of which a tensor gives a size are reported
// (test/torch/grid-limits.cu).
void params_product_beside_x(float *p, int batch, int cameras, int n) {
  int nrows = batch * cameras;
  dim3 grid((n + 255) / 256, nrows, 1);
  per_row<<<grid, 256>>>(p, nrows, n);
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
  per_row<<<dim3(1, 1, b * h), 256>>>(p, b * h, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'per_row' puts 'b * h' on gridDim.z, a size that nothing bounds on this path, while gridDim.x is 1: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
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

// Negatives: one size on y while x is also a size, or a constant other
// than one block (a batch beside two blocks of work).
void batch_on_y(float *p, int batch, int n) {
  per_row<<<dim3((n + 255) / 256, batch), 256>>>(p, batch, n);
  per_row<<<dim3(2, batch), 256>>>(p, batch, n);
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
  dim3 grid(1, nrows, 1);
  per_row<<<grid, 256>>>(p, nrows, n);
}

void bounded_by_ternary(float *p, int rows, int cols) {
  int y = rows < 65535 ? rows : 65535;
  per_row<<<dim3(1, y), 128>>>(p, rows, cols);
}

// The same cap written the other way round.
void bounded_by_ternary_reversed(float *p, int rows, int cols) {
  int y = 65535 > rows ? rows : 65535;
  per_row<<<dim3(1, y), 128>>>(p, rows, cols);
}

// A maximum written by hand bounds nothing ('rows > 1 ? rows : 1').
void maximum_by_hand(float *p, int rows, int cols) {
  int y = rows > 1 ? rows : 1;
  per_row<<<dim3(1, y), 128>>>(p, rows, cols);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'per_row' puts 'y' (rows > 1 ? rows : 1) on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 1: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-3]]:11: note: 'y' is computed here
  // CHECK-NOTES: :[[@LINE-3]]:21: note: put the large dimension on gridDim.x
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

// Negatives: a 3-D domain whose x the block carries, one block column of
// ny x nz blocks (a lattice-Boltzmann solver's cube): every size there is
// as small as the block's.
void domain_3d(float *p, int nx, int ny, int nz) {
  per_row<<<dim3(1, ny, nz), nx>>>(p, ny, nx);
  per_row<<<dim3(1, ny, nz), 128>>>(p, ny, nx);
}

// Negatives: a parameter that every call in the file passes a constant
// for (a benchmark configured at compile time).
#define PROBLEM 2048
static void run_benchmark(float *p, int num, int cols) {
  per_row<<<dim3(1, num / 256), 256>>>(p, num / 256, cols);
}
void drive_benchmark(float *p) {
  const int num = PROBLEM;
  run_benchmark(p, num, 64);
  run_benchmark(p, 4096, 64);
}

// Negatives: the tail of a tiled launch. The function puts the rows on x,
// 64 to a block, and launches the rows left over one block wide; y is the
// second dimension of the tiling in both (the channels in 64s), which the
// first launch shows not to be the rows.
static int div_up(int a, int b) { return (a + b - 1) / b; }
void tiled_with_tail(float *p, int rows, int planes) {
  int full = (rows / 64) * 64;
  if (full >= 64)
    per_row<<<dim3(rows / 64, div_up(planes, 64)), dim3(16, 64)>>>(p, full,
                                                                  planes);
  if (rows > full)
    per_row<<<dim3(1, div_up(planes, 64)), dim3(16, 64)>>>(p + full,
                                                          rows - full, planes);
}

// The tail first, the tiles after, the grids held in variables.
void tail_then_tiles(float *p, int rows, int planes) {
  int full = (rows / 32) * 32;
  const dim3 tail(1, planes / 32);
  if (rows > full)
    per_row<<<tail, dim3(8, 32)>>>(p + full, rows - full, planes);
  const dim3 tiles(rows / 32, planes / 32);
  per_row<<<tiles, dim3(8, 32)>>>(p, full, planes);
}

// The same pair inside a lambda that the function calls.
void tiled_with_tail_lambda(float *p, int rows, int planes) {
  auto launch = [&](int full) {
    per_row<<<dim3(full / 16, planes / 16), dim3(4, 16)>>>(p, full, planes);
    per_row<<<dim3(1, planes / 16), dim3(4, 16)>>>(p + full, rows - full,
                                                  planes);
  };
  launch((rows / 16) * 16);
}

// Still reported: the other launch puts another size on y (the rows are on
// y in both), its x is a constant too, or it is in another function.
void tail_beside_other_y(float *p, int rows, int cols) {
  per_row<<<dim3(cols / 64, div_up(cols, 64)), 64>>>(p, rows, cols);
  per_row<<<dim3(1, rows), 64>>>(p, rows, cols);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'per_row' puts 'rows' on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 1: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-2]]:21: note: put the large dimension on gridDim.x
}

void both_one_block_wide(float *p, int rows, int cols) {
  per_row<<<dim3(1, rows), 64>>>(p, rows, cols);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'per_row' puts 'rows' on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 1: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-2]]:21: note: put the large dimension on gridDim.x
  per_row<<<dim3(2, rows), 64>>>(p, rows, cols);
}

void tail_beside_capped_x(float *p, int rows, int cols) {
  per_row<<<dim3(std::min(cols / 64, 512), rows), 64>>>(p, rows, cols);
  per_row<<<dim3(1, rows), 64>>>(p, rows, cols);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'per_row' puts 'rows' on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 1: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-2]]:21: note: put the large dimension on gridDim.x
}

void tiles_elsewhere(float *p, int rows, int planes) {
  per_row<<<dim3(rows / 64, planes / 64), 64>>>(p, rows, planes);
}
void tail_elsewhere(float *p, int rows, int planes) {
  per_row<<<dim3(1, planes / 64), 64>>>(p, rows, planes);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'per_row' puts 'planes / 64' on gridDim.y, a size that nothing bounds on this path, while gridDim.x is 1: the launch fails once it passes 65535 blocks [cuda-launch-configuration]
  // CHECK-NOTES: :[[@LINE-2]]:21: note: put the large dimension on gridDim.x
}
