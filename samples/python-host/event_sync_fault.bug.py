"""Fill device buffers with a marker, one PTX kernel launch per entry of a
table of buffer addresses, and wait for each fill with an event, calling the
driver API through ctypes functions bound at module level (as a generated
binding module binds them). The last entry of the table is stale: address
0x10, where no memory is mapped, so its fill faults (700,
CUDA_ERROR_ILLEGAL_ADDRESS).
Bug: the CUresult of cuEventSynchronize is dropped, so the fault goes
unnoticed and every fill is reported done (cuda-unchecked-api-call)."""
import ctypes
import sys

_drv = ctypes.CDLL("libcuda.so.1")
cuEventSynchronize = _drv.cuEventSynchronize

COUNT = 1 << 16
STALE = 0x10  # an address no allocation of this program has

# fill(p, n): p[i] = 7 for i < n.
PTX = b"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry fill(.param .u64 p, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .u32 %r<8>;
  .reg .u64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.u32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd2, %r5, 4;
  add.u64 %rd3, %rd1, %rd2;
  mov.u32 %r6, 7;
  st.global.u32 [%rd3], %r6;
DONE:
  ret;
}
"""


def check(status, what):
    if status != 0:
        raise RuntimeError("%s failed: CUresult %d" % (what, status))


def fill(function, address, count, done):
    """Launches the fill on the default stream and waits for it."""
    p = ctypes.c_uint64(address)
    n = ctypes.c_uint32(count)
    params = (ctypes.c_void_p * 2)(ctypes.cast(ctypes.byref(p), ctypes.c_void_p),
                                   ctypes.cast(ctypes.byref(n), ctypes.c_void_p))
    check(_drv.cuLaunchKernel(function, (count + 255) // 256, 1, 1, 256, 1, 1, 0, None, params, None),
          "cuLaunchKernel")
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
    check(_drv.cuModuleGetFunction(ctypes.byref(function), module, b"fill"), "cuModuleGetFunction")
    done = ctypes.c_void_p()
    check(_drv.cuEventCreate(ctypes.byref(done), 0), "cuEventCreate")
    buffers = []
    for _ in range(3):
        address = ctypes.c_uint64()
        check(_drv.cuMemAlloc_v2(ctypes.byref(address), COUNT * 4), "cuMemAlloc")
        buffers.append(address.value)
    table = buffers + [STALE]
    outcomes = []
    try:
        for address in table:
            outcomes.append(fill(function, address, COUNT, done))
    except RuntimeError as e:
        outcomes.append("fault reported (%s)" % e)
    # The oracle: whether the context saw a fault, asked once more.
    fault = _drv.cuCtxSynchronize()
    for address in buffers:
        freed = _drv.cuMemFree_v2(ctypes.c_uint64(address))
        if freed not in (0, fault):
            print("cuMemFree failed: CUresult %d" % freed)
    destroyed = _drv.cuEventDestroy_v2(done)
    if destroyed not in (0, fault):
        print("cuEventDestroy failed: CUresult %d" % destroyed)
    if fault != 0 and outcomes.count("done") == len(table):
        print("kernel fault hidden: all %d fills were reported done, but the context holds CUresult %d"
              % (len(table), fault))
        return 1
    print("fills: %s" % ", ".join(outcomes))
    return 0 if fault == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
