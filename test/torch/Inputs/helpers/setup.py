# A setup.py that takes its sources and flags from helper modules, as
# gsplat's does: one loaded by path with importlib (so that the package is
# not imported before it is built), one imported by name.
import os
import os.path as osp

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

from tools.flags import NVCC_DEFINES


def get_extensions():
    import importlib.util

    def _load_build_module(module_name, build_py_path):
        spec = importlib.util.spec_from_file_location(module_name, build_py_path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    setup_dir = osp.dirname(osp.abspath(__file__))
    build = _load_build_module("pkg_build", os.path.join("pkg", "cuda", "build.py"))
    params = build.get_build_parameters()
    sources = [os.path.relpath(s, setup_dir) for s in params.sources]
    return [
        CUDAExtension(
            "pkg.csrc",
            sources=sources,
            include_dirs=params.extra_include_paths,
            extra_compile_args={
                "cxx": params.extra_cflags,
                "nvcc": params.extra_cuda_cflags + NVCC_DEFINES,
            },
        )
    ]


setup(name="pkg", ext_modules=get_extensions(),
      cmdclass={"build_ext": BuildExtension})
