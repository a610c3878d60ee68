"""Runs scale (bug or fixed form) on a tensor of the last GPU while the
first stays current, as Python code that never calls torch.cuda.set_device
does, and checks the result. Needs two GPUs (exit 2 otherwise)."""
import sys
from torch_sample import load_extension, finish
import torch

if torch.cuda.device_count() < 2:
    print("scale: needs two GPUs to place the tensor off the current device")
    sys.exit(2)
ext = load_extension(sys.argv[1], sys.argv[2])
other = torch.device("cuda", torch.cuda.device_count() - 1)
assert torch.cuda.current_device() != other.index
x = torch.randn(1 << 20, device=other)
want = 3.0 * x
try:
    y = ext.scale(x, 3.0)
    torch.cuda.synchronize(other)
    torch.cuda.synchronize(torch.cuda.current_device())
    ok = y.device == other and torch.allclose(y, want)
except RuntimeError as e:
    print(f"scale: FAILED, {str(e).splitlines()[0]}")
    sys.exit(1)
finish(ok, "scale", y, want)
