# A PyTorch extension's setup.py, as real ones are written: read by
# cuda-tidy with Python's parser (never run).
import glob
import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

ROOT = os.path.dirname(os.path.abspath(__file__))
include_dirs = [os.path.join(ROOT, "include")]
sources = glob.glob(os.path.join(ROOT, "src", "*.cu"))

setup(
    name="my_ext",
    ext_modules=[
        CUDAExtension(
            name="my_pkg._my_ext",
            sources=sources,
            include_dirs=include_dirs,
            define_macros=[("WITH_CUDA", None), ("TILE", "16")],
            extra_compile_args={
                "cxx": ["-O3"],
                "nvcc": ["-O3", "--use_fast_math", "-DFROM_NVCC_ARGS",
                         "-I" + os.path.join(ROOT, "include", "extra")],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
