"""Runs doubled (bug or fixed form) forward and backward, using the output
transposed as Python code often does, so that autograd passes a transposed
gradient to the extension's backward; checks x.grad against PyTorch's own."""
import sys
from torch_sample import load_extension, finish
import torch

ext = load_extension(sys.argv[1], sys.argv[2])
x = torch.randn(64, 48, device="cuda", requires_grad=True)
w = torch.randn(48, 64, device="cuda")
y = ext.doubled(x)
(y.t() * w).sum().backward()  # the gradient of y is w.t(): a transposed view
torch.cuda.synchronize()
want = 2.0 * w.t()
finish(torch.allclose(x.grad, want), "grad_double", x.grad, want)
