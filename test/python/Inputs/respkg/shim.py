# A name that is not only CuPy: an object() where CuPy is missing.
try:
    import cupy
except ImportError:
    cupy = None
if cupy is None:
    cupy = object()
