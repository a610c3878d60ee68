# A setup.py that picks its include folders and defines by platform, as
# mmcv's does: only the CUDA branch applies to a CUDA build.
import os
import platform

import torch
from pkg_resources import parse_version
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

include_dirs = [os.path.abspath('csrc/common')]
define_macros = []
if os.getenv('FORCE_MLU', '0') == '1':
    include_dirs.append(os.path.abspath('csrc/common/mlu'))
    define_macros += [('WITH_MLU', None)]
    extension = CppExtension
elif torch.cuda.is_available() or os.getenv('FORCE_CUDA', '0') == '1':
    include_dirs.append(os.path.abspath('csrc/common/cuda'))
    define_macros += [('WITH_CUDA', None)]
    if torch.version.hip is not None:
        define_macros += [('WITH_HIP', None)]
    extension = CUDAExtension
elif torch.backends.mps.is_available():
    define_macros += [('WITH_MPS', None)]
    extension = CppExtension
else:
    extension = CppExtension

if parse_version(torch.__version__) >= parse_version('2.0.0'):
    define_macros += [('TORCH_2', None)]
else:
    define_macros += [('TORCH_1', None)]

# Unknown to the reader: both branches count.
if project_option():
    include_dirs.append(os.path.abspath('csrc/extra'))
    define_macros += [('WITH_EXTRA', None)]

arch = os.getenv('CUSTOM_ARCH')
if arch:
    define_macros += [('CUSTOM_ARCH', arch)]

setup(
    name='branches',
    ext_modules=[
        extension(
            name='branches._ext',
            sources=['csrc/ops.cu'],
            include_dirs=include_dirs,
            define_macros=define_macros,
        )
    ],
    cmdclass={'build_ext': BuildExtension},
)
