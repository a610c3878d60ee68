# The build stops before it makes an extension (a submodule not checked out).
import os

from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension

third_party = os.path.join(os.path.dirname(__file__), "third_party", "cutlass")
if not os.path.exists(third_party):
    raise RuntimeError("run git submodule update --init")

setup(name="stops", ext_modules=[CUDAExtension("stops._C", ["kernels.cu"])])
