"""Fill 256 MiB of device memory and copy it back into pinned host memory
on a stream, with ctypes into libcudart. Bug: the host reads the last value
before the stream is synchronized; the asynchronous copy into pinned memory
has not finished, and the host sees 0 (cuda-missing-host-sync)."""
import ctypes
import glob
import os
import sys



def load_cudart():
    """libcudart from the loader path, the CUDA toolkit or a pip wheel."""
    names = ["libcudart.so"]
    names += sorted(glob.glob("/usr/local/cuda/lib64/libcudart.so*"))
    names += sorted(glob.glob(os.path.join(sys.prefix, "lib", "python3*", "site-packages",
                                           "nvidia", "cu*", "lib", "libcudart.so*")))
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    sys.exit("no libcudart found")


cudart = load_cudart()
cudaMemcpyHostToDevice = 1
cudaMemcpyDeviceToHost = 2


def check(err, what):
    if err != 0:
        raise RuntimeError("%s failed with CUDA error %d" % (what, err))


def main():
    n = 64 << 20
    nbytes = n * 4
    d = ctypes.c_void_p()
    h = ctypes.c_void_p()
    stream = ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(d), ctypes.c_size_t(nbytes)), "cudaMalloc")
    check(cudart.cudaMallocHost(ctypes.byref(h), ctypes.c_size_t(nbytes)), "cudaMallocHost")
    check(cudart.cudaStreamCreate(ctypes.byref(stream)), "cudaStreamCreate")
    values = ctypes.cast(h, ctypes.POINTER(ctypes.c_float))
    try:
        values[n - 1] = 0.0
        check(cudart.cudaMemsetAsync(d, 0x3F, ctypes.c_size_t(nbytes), stream), "cudaMemsetAsync")
        check(cudart.cudaMemcpyAsync(values, d, ctypes.c_size_t(nbytes), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync")
        last = values[n - 1]
        check(cudart.cudaStreamSynchronize(stream), "cudaStreamSynchronize")
    finally:
        check(cudart.cudaStreamDestroy(stream), "cudaStreamDestroy")
        check(cudart.cudaFreeHost(h), "cudaFreeHost")
        check(cudart.cudaFree(d), "cudaFree")
    expected = 0.7470588088035583  # the float whose bytes are all 0x3F
    if abs(last - expected) > 1e-6:
        print("pinned read wrong: %r, expected %r" % (last, expected))
        return 1
    print("pinned read ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
