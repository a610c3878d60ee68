# A name that is not only CuPy: whatever make_cupy_like returns.
try:
    import cupy
except ImportError:
    cupy = None
if cupy is None:
    cupy = object()
