# The shape of PyTorch's own extension template: the folder from
# os.path.curdir (dirname('.') is ''), a class chosen by a conditional
# expression and called through a name, sources from list(glob.glob(...)).
import glob
import os

import torch
from setuptools import find_packages, setup
from torch.utils.cpp_extension import CppExtension, CUDAExtension, CUDA_HOME

library_name = "my_ops"


def get_extensions():
    debug_mode = os.getenv("DEBUG", "0") == "1"
    use_cuda = os.getenv("USE_CUDA", "1") == "1"
    use_cuda = use_cuda and torch.cuda.is_available() and CUDA_HOME is not None
    extension = CUDAExtension if use_cuda else CppExtension

    extra_compile_args = {
        "cxx": ["-O3" if not debug_mode else "-O0", "-DFROM_CXX_ARGS"],
        "nvcc": ["-O3" if not debug_mode else "-O0", "-DFROM_NVCC_ARGS"],
    }
    if debug_mode:
        extra_compile_args["cxx"].append("-g")
        extra_compile_args["nvcc"].append("-g")

    this_dir = os.path.dirname(os.path.curdir)
    extensions_dir = os.path.join(this_dir, library_name, "csrc")
    sources = list(glob.glob(os.path.join(extensions_dir, "*.cpp")))
    cuda_sources = list(glob.glob(os.path.join(extensions_dir, "cuda", "*.cu")))
    if use_cuda:
        sources += cuda_sources

    return [
        extension(
            f"{library_name}._C",
            sources,
            extra_compile_args=extra_compile_args,
            py_limited_api=True,
        )
    ]


setup(
    name=library_name,
    packages=find_packages(),
    ext_modules=get_extensions(),
    long_description=open("README.md").read(),
)
