# Sources gathered by loops over the tree, a define from an environment
# variable's default, a helper that returns the flags, and a while loop.
import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

ROOT = os.path.dirname(os.path.abspath(__file__))
BLOCK = os.getenv("MY_BLOCK_SIZE", "256")


def nvcc_flags(arch_list):
    flags = ["-O3", "-DBLOCK_SIZE=" + BLOCK]
    for arch in arch_list:
        flags += ["-gencode", "arch=compute_{0},code=sm_{0}".format(arch)]
    return flags


sources = []
for sub in sorted(os.listdir(os.path.join(ROOT, "kernels"))):
    for f in sorted(os.listdir(os.path.join(ROOT, "kernels", sub))):
        if f.endswith(".cu") and not f.startswith("skip_"):
            sources.append(os.path.join("kernels", sub, f))

levels = []
n = 0
while n < 3:
    levels.append(("LEVEL_%d" % n, None))
    n += 1

setup(
    name="looped",
    ext_modules=[CUDAExtension(
        name="looped._C",
        sources=sources,
        define_macros=levels,
        extra_compile_args={"cxx": [], "nvcc": nvcc_flags(["80", "90"])},
    )],
    cmdclass={"build_ext": BuildExtension},
)
