"""Runs scale (bug or fixed form) on a float64 tensor, which the extension
dispatches on, and checks the result against PyTorch's own."""
import sys
from torch_sample import load_extension, finish
import torch

ext = load_extension(sys.argv[1], sys.argv[2])
x = torch.randn(1 << 16, device="cuda", dtype=torch.float64)
y = ext.scale(x, 3.0)
torch.cuda.synchronize()
want = 3.0 * x
finish(torch.allclose(y, want), "scale_dispatch", y, want)
