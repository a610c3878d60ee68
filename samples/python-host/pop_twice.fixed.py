"""Free and total memory of each GPU through the driver API, with ctypes into
libcuda: the primary context is retained and pushed around the query.
Fixed: only the finally block pops the context, once."""
import ctypes
import glob
import os
import sys


def load_libcuda():
    """The driver library from the loader path or the usual folders."""
    names = ["libcuda.so.1", "libcuda.so"]
    names += sorted(glob.glob("/usr/lib/x86_64-linux-gnu/libcuda.so*"))
    names += sorted(glob.glob("/usr/local/cuda/compat/libcuda.so*"))
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    sys.exit("no libcuda found")


libcuda = load_libcuda()
libcuda.cuMemGetInfo_v2.argtypes = [ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_size_t)]


def check(err, what):
    if err != 0:
        raise RuntimeError("%s failed with CUDA error %d" % (what, err))


def memory_of(ordinal):
    """(free, total) bytes of one GPU, under its primary context."""
    dev = ctypes.c_int()
    check(libcuda.cuDeviceGet(ctypes.byref(dev), ordinal), "cuDeviceGet")
    ctx = ctypes.c_void_p()
    check(libcuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(libcuda.cuCtxPushCurrent(ctx), "cuCtxPushCurrent")
    popped = ctypes.c_void_p()
    try:
        free = ctypes.c_size_t()
        total = ctypes.c_size_t()
        check(libcuda.cuMemGetInfo_v2(ctypes.byref(free), ctypes.byref(total)), "cuMemGetInfo")
    finally:
        check(libcuda.cuCtxPopCurrent(ctypes.byref(popped)), "cuCtxPopCurrent")
        check(libcuda.cuDevicePrimaryCtxRelease(dev), "cuDevicePrimaryCtxRelease")
    return free.value, total.value


def main():
    check(libcuda.cuInit(0), "cuInit")
    count = ctypes.c_int()
    check(libcuda.cuDeviceGetCount(ctypes.byref(count)), "cuDeviceGetCount")
    try:
        for ordinal in range(count.value):
            free, total = memory_of(ordinal)
            if not 0 < free <= total:
                print("memory query wrong: %d of %d bytes free" % (free, total))
                return 1
    except RuntimeError as e:
        print("memory query failed: %s" % e)
        return 1
    print("memory query ok on %d GPU(s)" % count.value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
