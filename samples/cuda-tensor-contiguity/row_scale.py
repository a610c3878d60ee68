"""Runs row_scale (bug or fixed form) on a transposed matrix, as a Python
caller would pass it, and checks the result against PyTorch's own."""
import sys
from torch_sample import load_extension, finish
import torch

ext = load_extension(sys.argv[1], sys.argv[2])
x = torch.randn(64, 48, device="cuda").t()  # a view: not contiguous
s = torch.randn(48, device="cuda")
y = ext.row_scale(x, s)
torch.cuda.synchronize()
finish(torch.allclose(y, x * s[:, None]), "row_scale", y, x * s[:, None])
