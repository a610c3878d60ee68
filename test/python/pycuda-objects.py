# PyCUDA kernels kept on objects: `self.func = mod.get_function(...)`,
# prepared once (`self.func.prepare(fmt)`) and launched in methods. A host
# array that a method receives and hands to drv.In/Out/InOut unconverted
# is copied in its memory order: a transposed array (Fortran-contiguous,
# which PyCUDA accepts) reaches a kernel that indexes it densely in the
# wrong order. Arrays the code makes or converts are not reported.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments,cuda-tensor-contiguity' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import numpy as np
import pycuda.autoinit  # noqa: F401
import pycuda.driver as drv
from pycuda.compiler import SourceModule

_SRC = """
__global__ void add_rows(const float *m, float *out, int rows, int cols)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
  for (int c = 0; c < cols; ++c) s += m[r * cols + c];
  out[r] = s;
}
__global__ void scale(float *a, float s, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}
"""


class RowSums:
    def __init__(self):
        self.mod = SourceModule(_SRC)
        self.rows = self.mod.get_function("add_rows")
        self.scale = self.mod.get_function("scale")
        self.scale.prepare("Pdi")

    def __call__(self, m):
        rows, cols = m.shape
        out = np.empty(rows, dtype=np.float32)
        self.rows(drv.In(m), drv.Out(out), np.int32(rows), np.int32(cols),
                  block=(128, 1, 1), grid=((rows + 127) // 128, 1))
        # CHECK: pycuda-objects.py:[[@LINE-2]]:19: warning: array 'm', which 'RowSums.__call__' receives and never makes contiguous, is copied to the device in its memory order and reaches parameter 'm' of kernel 'add_rows', which indexes it densely: a transposed array from the caller is read in the wrong order; pass np.ascontiguousarray(m) [cuda-tensor-contiguity]
        # CHECK: pycuda-objects.py:[[@LINE-6]]:24: note: 'm' is a parameter of 'RowSums.__call__'
        # CHECK: pycuda-objects.py:20:39: note: 'm' is indexed densely here
        return out

    def doubled(self, n):
        a = np.ones(n, dtype=np.float64)
        self.scale(drv.InOut(a), np.float32(2), np.int32(n), block=(256, 1, 1), grid=((n + 255) // 256, 1))
        # CHECK: pycuda-objects.py:[[@LINE-1]]:20: warning: float64 array passed to pointer parameter 'a' of type 'float *' of 'scale'; the kernel reads the 8-byte float64 elements as 4-byte 'float' values: convert with .astype(numpy.float32) [cuda-kernel-arguments]
        # CHECK: pycuda-objects.py:23:30: note: parameter 'a' of type 'float *' of 'scale' declared here
        return a

    def prepared(self, a_gpu, n):
        self.scale.prepared_call(((n + 255) // 256, 1), (256, 1, 1), a_gpu.gpudata, 2.0, n)
        # CHECK: pycuda-objects.py:[[@LINE-1]]:9: warning: prepare() format character 'd' packs 8 bytes for parameter 's' of type 'float' of 'scale', which reads 4; the kernel reads the wrong bytes [cuda-kernel-arguments]

    # Idiomatic correct code: not reported.

    def converted(self, m):
        m = np.ascontiguousarray(m, dtype=np.float32)
        rows, cols = m.shape
        out = np.empty(rows, dtype=np.float32)
        self.rows(drv.In(m), drv.Out(out), np.int32(rows), np.int32(cols),
                  block=(128, 1, 1), grid=((rows + 127) // 128, 1))
        return out

    def converted_inline(self, m):
        rows, cols = m.shape
        out = np.empty(rows, dtype=np.float32)
        self.rows(drv.In(np.ascontiguousarray(m)), drv.Out(out), np.int32(rows), np.int32(cols),
                  block=(128, 1, 1), grid=((rows + 127) // 128, 1))
        return out

    def _sums(self, m):
        # Private: its callers are elsewhere.
        rows, cols = m.shape
        out = np.empty(rows, dtype=np.float32)
        self.rows(drv.In(m), drv.Out(out), np.int32(rows), np.int32(cols),
                  block=(128, 1, 1), grid=((rows + 127) // 128, 1))
        return out

    def scaled(self, a):
        # Each element alone, written back in the order it was copied: a
        # transposed array is right, a stepped one raises.
        self.scale(drv.InOut(a), np.float32(2), np.int32(a.size), block=(256, 1, 1),
                   grid=((a.size + 255) // 256, 1))


class Other:
    def __init__(self):
        # Another class's attribute of the same name is its own.
        self.rows = None
# CHECK: exit=1
