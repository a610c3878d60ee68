"""Run a kernel that stores through an invalid address and wait for it with
an event, calling the driver API through ctypes functions bound at module
level (as a generated binding module binds them). Bug: the CUresult of
cuEventSynchronize is dropped, so the kernel's fault (700,
CUDA_ERROR_ILLEGAL_ADDRESS) goes unnoticed and the run is reported as done
(cuda-unchecked-api-call)."""
import ctypes
import sys

_drv = ctypes.CDLL("libcuda.so.1")
cuEventSynchronize = _drv.cuEventSynchronize

# A kernel that stores 7 through its pointer argument.
PTX = b"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry poke(.param .u64 p)
{
  .reg .u64 %rd<2>;
  .reg .u32 %r<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 7;
  st.global.u32 [%rd1], %r1;
  ret;
}
"""


def check(status, what):
    if status != 0:
        raise RuntimeError("%s failed: CUresult %d" % (what, status))


def run(function, address, done):
    """Launches the kernel on the default stream and waits for it."""
    arg = ctypes.c_uint64(address)
    params = (ctypes.c_void_p * 1)(ctypes.cast(ctypes.byref(arg), ctypes.c_void_p))
    check(_drv.cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, None, params, None), "cuLaunchKernel")
    check(_drv.cuEventRecord(done, None), "cuEventRecord")
    cuEventSynchronize(done)
    return "done"


def main():
    check(_drv.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(_drv.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    ctx = ctypes.c_void_p()
    check(_drv.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(_drv.cuCtxPushCurrent_v2(ctx), "cuCtxPushCurrent")
    module = ctypes.c_void_p()
    check(_drv.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(PTX)), "cuModuleLoadData")
    function = ctypes.c_void_p()
    check(_drv.cuModuleGetFunction(ctypes.byref(function), module, b"poke"), "cuModuleGetFunction")
    done = ctypes.c_void_p()
    check(_drv.cuEventCreate(ctypes.byref(done), 0), "cuEventCreate")
    try:
        outcome = run(function, 0x10, done)  # no memory is mapped there
    except RuntimeError as e:
        outcome = "fault reported (%s)" % e
    # The oracle: whether the context saw a fault, asked once more.
    fault = _drv.cuCtxSynchronize()
    destroyed = _drv.cuEventDestroy_v2(done)
    if destroyed not in (0, fault):
        print("cuEventDestroy failed: CUresult %d" % destroyed)
    if fault != 0 and outcome == "done":
        print("kernel fault hidden: the run was reported done, but the context holds CUresult %d" % fault)
        return 1
    print("kernel outcome: %s" % outcome)
    return 0


if __name__ == "__main__":
    sys.exit(main())
