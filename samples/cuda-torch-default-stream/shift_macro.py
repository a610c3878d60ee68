"""Runs shift (bug or fixed form) on a side stream, where x is filled after
a delay, as Python code on its own stream does, and checks the result."""
import sys
from torch_sample import load_extension, finish
import torch

ext = load_extension(sys.argv[1], sys.argv[2])
n = 1 << 20
# Load the kernel's module first: a lazily loaded module's first launch
# waits for the device, which would hide the race.
ext.shift(torch.ones(n, device="cuda"))
torch.cuda.synchronize()
side = torch.cuda.Stream()
with torch.cuda.stream(side):
    x = torch.zeros(n, device="cuda")
    torch.cuda._sleep(1_000_000_000)  # keep the stream busy (~0.5 s)
    x.fill_(1.0)
    y = ext.shift(x)
torch.cuda.synchronize()
want = torch.full((n,), 2.0, device="cuda")
finish(torch.equal(y, want), "shift", y, want)
