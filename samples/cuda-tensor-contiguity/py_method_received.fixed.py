"""Row scaling with a CuPy template kernel kept on an object: the class
compiles scale_rows<float> once (name_expressions) and its __call__
launches it with the matrix its caller gives it. The kernel indexes m as a
dense row-major matrix, and CuPy passes only the data pointer: for a
transposed matrix a.T it reads the elements in a's memory order, so each
row is scaled by the wrong weight (main stands for a caller in another
module: it looks the class up by name). Fixed: __call__ makes m
contiguous first (cp.ascontiguousarray)."""
import sys

import cupy as cp
import numpy as np

_SRC = r'''
template <typename T>
__global__ void scale_rows(const T *m, const T *w, T *out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    for (int c = 0; c < cols; ++c) out[r * cols + c] = m[r * cols + c] * w[r];
}
'''


class RowScaler:
    def __init__(self):
        self.module = cp.RawModule(code=_SRC, name_expressions=['scale_rows<float>'])
        self.kernel = self.module.get_function('scale_rows<float>')

    def __call__(self, m, w):
        w = cp.ascontiguousarray(w, dtype=cp.float32)
        m = cp.ascontiguousarray(m)
        rows, cols = m.shape
        out = cp.empty((rows, cols), dtype=cp.float32)
        self.kernel(((rows + 127) // 128,), (128,),
                    (m, w, out, np.int32(rows), np.int32(cols)))
        return out


def main():
    scaler = getattr(sys.modules[__name__], 'RowScaler')()
    a = cp.arange(300 * 200, dtype=cp.float32).reshape(300, 200)
    m = a.T  # 200 x 300, Fortran order
    w = cp.arange(1, 201, dtype=cp.float32)
    got = scaler(m, w)
    cp.cuda.runtime.deviceSynchronize()
    want = m * w[:, None]
    if not bool(cp.allclose(got, want)):
        print("row scale wrong: out[0, 1] = %r, want %r" % (float(got[0, 1]), float(want[0, 1])))
        return 1
    print("row scale ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
