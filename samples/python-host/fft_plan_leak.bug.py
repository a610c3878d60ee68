"""Energy of the spectrum of a batch of signals, one cuFFT plan per signal,
with ctypes into libcufft and libcudart. Bug: a signal that is all zeros
returns early, before the plan is destroyed; each such plan keeps its work
area on the device (cuda-device-memory-leak, LibraryHandles). The oracle:
after a warm-up batch, the device's free memory after two more batches is
hundreds of MiB lower than before them."""
import ctypes
import glob
import os
import sys

import numpy as np


def find_library_file(name):
    """A CUDA library from the loader path, the CUDA toolkit or a pip wheel."""
    stem = name.split(".so")[0]
    names = [name]
    names += sorted(glob.glob("/usr/local/cuda/lib64/%s.so*" % stem))
    names += sorted(glob.glob(os.path.join(sys.prefix, "lib", "python3*", "site-packages",
                                           "nvidia", "*", "lib", "%s.so*" % stem)))
    for candidate in names:
        try:
            ctypes.CDLL(candidate)
            return candidate
        except OSError:
            continue
    sys.exit("no %s found" % name)


cudart = ctypes.CDLL(find_library_file("libcudart.so"))
cufft = ctypes.CDLL(find_library_file("libcufft.so"))
cudart.cudaMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
cudaMemcpyHostToDevice = 1
cudaMemcpyDeviceToHost = 2
CUFFT_C2C = 0x29
CUFFT_FORWARD = -1
N = 1 << 22


def check(status, what):
    if status != 0:
        raise RuntimeError("%s failed with status %d" % (what, status))


def free_bytes():
    free = ctypes.c_size_t()
    total = ctypes.c_size_t()
    check(cudart.cudaMemGetInfo(ctypes.byref(free), ctypes.byref(total)), "cudaMemGetInfo")
    return free.value


def spectrum_energy(signal, data):
    plan = ctypes.c_int()
    check(cufft.cufftPlan1d(ctypes.byref(plan), N, CUFFT_C2C, 1), "cufftPlan1d")
    if not signal.any():
        return 0.0
    check(cudart.cudaMemcpy(data, signal.ctypes.data, ctypes.c_size_t(N * 8), cudaMemcpyHostToDevice),
          "upload")
    check(cufft.cufftExecC2C(plan, ctypes.c_void_p(data.value), ctypes.c_void_p(data.value),
                             CUFFT_FORWARD), "cufftExecC2C")
    spectrum = np.empty(N, dtype=np.complex64)
    check(cudart.cudaMemcpy(spectrum.ctypes.data, data, ctypes.c_size_t(N * 8), cudaMemcpyDeviceToHost),
          "download")
    check(cufft.cufftDestroy(plan), "cufftDestroy")
    return float(np.sum(np.abs(spectrum.astype(np.complex128)) ** 2))


def run_batch(data, rng):
    """16 signals, every other one all zeros: (energy, expected energy)."""
    total = 0.0
    expected = 0.0
    for k in range(16):
        if k % 2:
            signal = np.zeros(N, dtype=np.complex64)
        else:
            signal = (rng.standard_normal(N) + 1j * rng.standard_normal(N)).astype(np.complex64)
        total += spectrum_energy(signal, data)
        expected += N * float(np.sum(np.abs(signal.astype(np.complex128)) ** 2))
    return total, expected


def main():
    data = ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(data), ctypes.c_size_t(N * 8)), "cudaMalloc")
    rng = np.random.default_rng(7)
    # warm-up batch: the library's and any sanitizer's first-use allocations
    # are made here, so that only memory lost per batch is counted below
    run_batch(data, rng)
    before = free_bytes()
    total = 0.0
    expected = 0.0
    for _ in range(2):
        batch_total, batch_expected = run_batch(data, rng)
        total += batch_total
        expected += batch_expected
    after = free_bytes()
    check(cudart.cudaFree(data), "cudaFree")
    lost = (before - after) / float(1 << 20)
    if abs(total - expected) > 1e-3 * expected:
        print("spectrum energy wrong: %r, expected %r" % (total, expected))
        return 1
    if lost > 16:
        print("FAILED: %.0f MiB of device memory lost to cuFFT plans over two batches" % lost)
        return 1
    print("spectrum energy ok, no device memory lost over two batches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
