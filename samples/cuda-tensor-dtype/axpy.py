"""Runs axpy (bug or fixed form) on float64 tensors and checks the result
against PyTorch's own."""
import sys
from torch_sample import load_extension, finish
import torch

ext = load_extension(sys.argv[1], sys.argv[2])
x = torch.randn(1 << 16, device="cuda", dtype=torch.float64)
y = torch.randn(1 << 16, device="cuda", dtype=torch.float64)
want = 2.0 * x + y
ext.axpy(2.0, x, y)
torch.cuda.synchronize()
finish(torch.allclose(y, want), "axpy", y, want)
