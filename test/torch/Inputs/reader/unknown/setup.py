# What cannot be read without running: a subprocess, and a file's contents.
import json
import subprocess

from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension

arch = subprocess.check_output(["nvidia-smi", "--query"]).decode().strip()
with open("features.json") as f:
    features = json.load(f)

setup(
    name="unknown",
    ext_modules=[CUDAExtension(
        name="unknown._C",
        sources=["src/kernels.cu"],
        define_macros=[("ARCH", arch), ("KNOWN", "1")],
        extra_compile_args={"cxx": [], "nvcc": ["-DFROM_NVCC"] + features["flags"]},
    )],
)
