"""Scale a vector on the device with a kernel compiled at run time by NVRTC
(cuda-python: cuda.bindings.nvrtc and .driver), then check the result on
the host.

cuda-tidy sample for cuda-invalid-free (fixed form): compile() reads the
PTX first and destroys the program after it, in a finally block."""
import sys

import numpy as np
from cuda.bindings import driver, nvrtc

N = 1 << 20
SOURCE = b"""
extern "C" __global__ void scale(float a, float *x, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}
"""


class Failure(Exception):
    pass


def check(result, what):
    err = result[0]
    if err not in (driver.CUresult.CUDA_SUCCESS, nvrtc.nvrtcResult.NVRTC_SUCCESS):
        raise Failure("%s returned %s" % (what, err))
    return result[1] if len(result) == 2 else result[1:]


def compile(arch):
    err, prog = nvrtc.nvrtcCreateProgram(SOURCE, b"scale.cu", 0, [], [])
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise Failure("nvrtcCreateProgram returned %s" % err)
    try:
        opts = [b"--gpu-architecture=compute_%d" % arch]
        err, = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise Failure("nvrtcCompileProgram returned %s" % err)
        err, size = nvrtc.nvrtcGetPTXSize(prog)
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise Failure("nvrtcGetPTXSize returned %s" % err)
        ptx = b" " * size
        err, = nvrtc.nvrtcGetPTX(prog, ptx)
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise Failure("nvrtcGetPTX returned %s" % err)
        return ptx
    finally:
        err, = nvrtc.nvrtcDestroyProgram(prog)
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise Failure("nvrtcDestroyProgram returned %s" % err)


def run():
    check(driver.cuInit(0), "cuInit")
    dev = check(driver.cuDeviceGet(0), "cuDeviceGet")
    major = check(driver.cuDeviceGetAttribute(
        driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "cuDeviceGetAttribute")
    minor = check(driver.cuDeviceGetAttribute(
        driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "cuDeviceGetAttribute")
    ctx = check(driver.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
    check(driver.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    try:
        ptx = compile(major * 10 + minor)
        module = check(driver.cuModuleLoadData(ptx), "cuModuleLoadData")
        kernel = check(driver.cuModuleGetFunction(module, b"scale"), "cuModuleGetFunction")
        host = np.arange(N, dtype=np.float32)
        dptr = check(driver.cuMemAlloc(host.nbytes), "cuMemAlloc")
        try:
            check(driver.cuMemcpyHtoD(dptr, host.ctypes.data, host.nbytes), "cuMemcpyHtoD")
            a = np.array([3.0], dtype=np.float32)
            x = np.array([int(dptr)], dtype=np.uint64)
            n = np.array([N], dtype=np.uint32)
            args = np.array([a.ctypes.data, x.ctypes.data, n.ctypes.data], dtype=np.uint64)
            check(driver.cuLaunchKernel(kernel, (N + 255) // 256, 1, 1, 256, 1, 1, 0, 0,
                                        args.ctypes.data, 0), "cuLaunchKernel")
            out = np.empty_like(host)
            check(driver.cuMemcpyDtoH(out.ctypes.data, dptr, out.nbytes), "cuMemcpyDtoH")
        finally:
            check(driver.cuMemFree(dptr), "cuMemFree")
        check(driver.cuModuleUnload(module), "cuModuleUnload")
    finally:
        check(driver.cuDevicePrimaryCtxRelease(dev), "cuDevicePrimaryCtxRelease")
    wrong = int(np.count_nonzero(out != host * 3.0))
    return wrong


def main():
    try:
        wrong = run()
    except Failure as e:
        print("FAILED: %s" % e)
        return 1
    if wrong:
        print("FAILED: %d of %d elements wrong" % (wrong, N))
        return 1
    print("PASSED: %d elements scaled" % N)
    return 0


if __name__ == "__main__":
    sys.exit(main())
