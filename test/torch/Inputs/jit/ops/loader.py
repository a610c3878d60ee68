# A project with no setup.py: its extension is built by cpp_extension.load()
# when the package is imported.
import json
import os

from torch.utils.cpp_extension import load

PATH = os.path.dirname(os.path.abspath(__file__))


def _settings():
    with open(os.path.join(PATH, "settings.json")) as f:
        return json.load(f)


def _flags(debug):
    flags = ["-std=c++20"]
    if debug:
        flags.append("-DOPS_DEBUG")
    return flags


_ops = load(
    "jit_ops",
    [os.path.join(PATH, "csrc", "jit_ops.cu")],
    extra_cuda_cflags=_flags(False) + ["-DOPS_FROM_LOAD"],
    extra_include_paths=[os.path.join(PATH, "include")],
)
