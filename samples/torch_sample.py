"""Shared by the PyTorch extension samples' runners (samples/*/*.py): builds a
sample's .cu with torch.utils.cpp_extension.load, and ends the program with
the verdict of its own result check."""
import os
import sys

import torch
from torch.utils.cpp_extension import load


def load_extension(source, build_dir):
    name = os.path.basename(source).replace(".cu", "").replace(".", "_")
    os.makedirs(build_dir, exist_ok=True)
    return load(name=name, sources=[source], build_directory=build_dir,
                extra_cuda_cflags=["-lineinfo"], verbose=False)


def finish(ok, what, got=None, want=None):
    if ok:
        print(f"{what}: OK")
        sys.exit(0)
    bad = "?"
    if got is not None and want is not None:
        got, want = got.detach().cpu().double(), want.detach().cpu().double()
        bad = int((~torch.isclose(got, want)).sum())
    print(f"{what}: FAILED, {bad} values wrong")
    sys.exit(1)
