# A package's compatibility module, as thinc's: the name is CuPy or None.
try:
    import cupy
    import cupy.cuda

    has_cupy = True
except ImportError:
    cupy = None
    has_cupy = False
