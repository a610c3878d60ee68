# Kernel files of a package read through importlib.resources, and CuPy
# imported through the package's compatibility module (test/python/
# package-resources.test runs this file).
import importlib.resources
from importlib.resources import files

from ..compat import cupy
from ..shim import cupy as shim_cupy

# The package is this file's own: its trailing folders are respkg/ops.
swap_a = cupy.RawModule(
    code=files("respkg.ops").joinpath("swap_a.cu").read_text(encoding="utf8"))
# __package__ is this file's package too.
swap_b = cupy.RawKernel(files(__package__).joinpath("swap_b.cu").read_text(), "swap_b")
# The older read_text(package, resource).
swap_c = cupy.RawKernel(importlib.resources.read_text("respkg.ops", "swap_c.cu"), "swap_c")

# Another package: where it is installed is not known here.
other = cupy.RawKernel(files("otherpkg.ops").joinpath("swap_a.cu").read_text(), "swap_a")
# A name the package binds to something else too: not known to be CuPy.
shim = shim_cupy.RawKernel(r'''
extern "C" __global__ void shim(float *p) {
  __shared__ float t[32];
  t[threadIdx.x] = p[threadIdx.x];
  p[0] = t[31 - threadIdx.x];
}''', "shim")
