import cupy

from ._sources import SWAP
from holepkg.ops._sources import SWAP as SWAP2


def swap(ctype):
    return cupy.RawKernel(SWAP.format(name="a", ctype=ctype), "swap_a")


def swap2(ctype):
    return cupy.RawKernel(SWAP2.format(name="b", ctype=ctype), "swap_b")
