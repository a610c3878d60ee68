# Build parameters shared by setup.py and the JIT build (gsplat's layout).
import glob
import os
import sys
from types import SimpleNamespace

import torch
import torch.utils.cpp_extension as jit

PATH = os.path.dirname(os.path.abspath(__file__))
DEBUG = os.getenv("DEBUG", "0") == "1"
NVCC_FLAGS = os.getenv("NVCC_FLAGS", "")


def get_build_parameters():
    name = "pkg_cuda"
    extra_include_paths: list[str] = [os.path.join(PATH, "include/")]
    sources = list(glob.glob(os.path.join(PATH, "csrc/*.cu")))
    sources = [s for s in sources if not s.endswith("disabled.cu")]
    extra_cflags = []
    extra_cuda_cflags = []
    if sys.platform == "win32":
        extra_cuda_cflags += ["-std=c++20", "-DWIN32_LEAN_AND_MEAN"]
    else:
        extra_cflags = ["-std=c++20"]
    if DEBUG:
        extra_cflags += ["-DPKG_DEBUG_BUILD"]
    else:
        extra_cflags += ["-DNDEBUG"]
    if torch.version.hip:
        extra_cflags += ["-DUSE_ROCM"]
    if sys.platform != "win32":
        extra_cuda_cflags += extra_cflags
    extra_cuda_cflags += [] if NVCC_FLAGS == "" else NVCC_FLAGS.split(" ")
    return SimpleNamespace(
        name=name,
        sources=sources,
        extra_include_paths=extra_include_paths,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
    )


def build_and_load():
    params = get_build_parameters()
    return jit.load(name=params.name, sources=params.sources,
                    extra_cuda_cflags=params.extra_cuda_cflags,
                    extra_include_paths=params.extra_include_paths)
