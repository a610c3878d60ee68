# A stand-in for an installed CuPy: the reader locates the package (it never
# imports it) and takes its headers from _core/include.
raise ImportError("the test's stand-in for CuPy is never imported")
