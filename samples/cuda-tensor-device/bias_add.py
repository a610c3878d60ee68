"""Runs bias_add (bug or fixed form) and checks the result against PyTorch's
own: the output must be the sum, on the GPU."""
import sys
from torch_sample import load_extension, finish
import torch

ext = load_extension(sys.argv[1], sys.argv[2])
x = torch.randn(1 << 20, device="cuda")
try:
    y = ext.bias_add(x, 0.5)
    torch.cuda.synchronize()
except RuntimeError as e:
    print(f"bias_add: FAILED, {str(e).splitlines()[0]}")
    sys.exit(1)
if not y.is_cuda:
    print("bias_add: FAILED, the result is not on the GPU")
    sys.exit(1)
finish(torch.allclose(y, x + 0.5), "bias_add", y, x + 0.5)
