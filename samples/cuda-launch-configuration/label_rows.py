"""Runs row_sums (bug or fixed form) on a batch of 70000 samples, more rows
than gridDim.y allows, and checks the sums against PyTorch's own."""
import sys
from torch_sample import load_extension, finish
import torch

ext = load_extension(sys.argv[1], sys.argv[2])
scores = torch.randn(70000, 100, device="cuda")
labels = torch.randint(0, 100, (70000,), device="cuda")
try:
    got = ext.row_sums(scores, labels)
    torch.cuda.synchronize()
except RuntimeError as e:
    print("row_sums: FAILED, launch rejected: %s" % str(e).splitlines()[0])
    sys.exit(1)
finish(torch.allclose(got, scores.sum(1), rtol=1e-4, atol=1e-3), "row_sums",
       got, scores.sum(1))
