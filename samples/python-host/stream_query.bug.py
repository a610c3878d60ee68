"""Fill 256 MiB of device memory and copy it back into pinned host memory
on a stream, with cuda-python (cuda.bindings.runtime). Bug: the status of
cudaStreamQuery is dropped, and the call is taken for a wait: it returns
cudaErrorNotReady at once, and the host reads the last value while the copy
still runs (cuda-unchecked-api-call)."""
import ctypes
import sys

from cuda.bindings import runtime as cudart


def check(err, what):
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError("%s failed: %s" % (what, err))


def main():
    n = 64 << 20
    nbytes = n * 4
    err, d = cudart.cudaMalloc(nbytes)
    check(err, "cudaMalloc")
    err, h = cudart.cudaMallocHost(nbytes)
    check(err, "cudaMallocHost")
    err, stream = cudart.cudaStreamCreate()
    check(err, "cudaStreamCreate")
    values = ctypes.cast(h, ctypes.POINTER(ctypes.c_float))
    try:
        values[n - 1] = 0.0
        err, = cudart.cudaMemsetAsync(d, 0x3F, nbytes, stream)
        check(err, "cudaMemsetAsync")
        err, = cudart.cudaMemcpyAsync(h, d, nbytes, cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost, stream)
        check(err, "cudaMemcpyAsync")
        cudart.cudaStreamQuery(stream)
        last = values[n - 1]
    finally:
        err, = cudart.cudaStreamSynchronize(stream)
        check(err, "cudaStreamSynchronize")
        check(cudart.cudaStreamDestroy(stream)[0], "cudaStreamDestroy")
        check(cudart.cudaFreeHost(h)[0], "cudaFreeHost")
        check(cudart.cudaFree(d)[0], "cudaFree")
    expected = 0.7470588088035583  # the float whose bytes are all 0x3F
    if abs(last - expected) > 1e-6:
        print("stream result wrong: %r, expected %r" % (last, expected))
        return 1
    print("stream result ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
