import cupy
k = cupy.RawKernel(r"""
extern "C" __global__ void k(int *p) { p[0] = undeclared; }
""", "k")
