# PyCUDA SourceModule: the extern "C" wrapper, no_extern_c, options, and the
# argument rules of f(*args, block=, grid=) and prepare()/prepared_call.
# PyCUDA is not installed where the GPU samples run: these rules are proven
# here only.
# RUN: %cuda-tidy --no-cache --quiet %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import numpy
import pycuda.autoinit  # noqa: F401
import pycuda.driver as cuda
import pycuda.gpuarray as gpuarray
from pycuda.compiler import SourceModule as SM

mod = SM("""
__global__ void twice(float *a, float s, int n)
{
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n)
    a[idx] *= s * TWO;
}
""", options=["-DTWO=2"])
twice = mod.get_function("twice")

cxx = SM("""
__global__ void mangled(float *a) { a[threadIdx.x] = 0; }
""", no_extern_c=True)
f = cxx.get_function("mangled")
# CHECK: pycuda-source-module.py:[[@LINE-1]]:22: warning: kernel 'mangled' is not extern "C" (the module has no_extern_c=True): its name is mangled, and PyCUDA does not find it by 'mangled'; declare it extern "C" [cuda-kernel-arguments]
# CHECK: pycuda-source-module.py:[[@LINE-4]]:17: note: kernel 'mangled' declared here
missing = mod.get_function("thrice")
# CHECK: pycuda-source-module.py:[[@LINE-1]]:28: warning: kernel 'thrice' is not defined in the source given to the module; PyCUDA fails to find it when the kernel is first used [cuda-kernel-arguments]

a = numpy.random.randn(400).astype(numpy.float32)
a_gpu = gpuarray.to_gpu(a)
n = numpy.int32(400)
twice(a_gpu, numpy.float32(2), n, block=(256, 1, 1), grid=(2, 1))
twice(cuda.InOut(a), numpy.float32(2), n, block=(256, 1, 1), grid=(2, 1))
twice(a, numpy.float32(2), n, block=(256, 1, 1), grid=(2, 1))
# CHECK: pycuda-source-module.py:[[@LINE-1]]:7: warning: host numpy array passed to pointer parameter 'a' of type 'float *' of 'twice'; PyCUDA packs the array's bytes into the parameter, and the kernel reads them as an address: pass cuda.In(...), cuda.InOut(...) or a gpuarray [cuda-kernel-arguments]
twice(a_gpu, 2.0, n, block=(256, 1, 1), grid=(2, 1))
# CHECK: pycuda-source-module.py:[[@LINE-1]]:14: warning: Python float passed to parameter 's' of type 'float' of 'twice'; PyCUDA raises 'invalid type on parameter': pass numpy.float32(...) [cuda-kernel-arguments]
twice(a_gpu, numpy.float64(2), n, block=(256, 1, 1), grid=(2, 1))
# CHECK: pycuda-source-module.py:[[@LINE-1]]:14: warning: float64 scalar passed to parameter 's' of type 'float' of 'twice'
b = numpy.zeros(400)
twice(cuda.Out(b), numpy.float32(2), n, block=(256, 1, 1), grid=(2, 1))
# CHECK: pycuda-source-module.py:[[@LINE-1]]:7: warning: float64 array passed to pointer parameter 'a' of type 'float *' of 'twice'; the kernel reads the 8-byte float64 elements as 4-byte 'float' values: convert with .astype(numpy.float32) [cuda-kernel-arguments]

twice.prepare("Pfi")
twice.prepared_call((2, 1), (256, 1, 1), a_gpu.gpudata, 2.0, 400)
twice.prepare("Pi")
twice.prepared_call((2, 1), (256, 1, 1), a_gpu.gpudata, 400)
# CHECK: pycuda-source-module.py:[[@LINE-1]]:1: warning: prepare() format 'Pi' names 2 arguments, but kernel 'twice' has 3 parameters; {{.*}} [cuda-kernel-arguments]
twice.prepare("Pdi")
twice.prepared_call((2, 1), (256, 1, 1), a_gpu.gpudata, 2.0, 400)
# CHECK: pycuda-source-module.py:[[@LINE-1]]:1: warning: prepare() format character 'd' packs 8 bytes for parameter 's' of type 'float' of 'twice', which reads 4; the kernel reads the wrong bytes [cuda-kernel-arguments]

# Dynamic parallelism: DynamicSourceModule compiles with -rdc=true; a
# launch from device code, configured from the parent's gridDim and
# blockDim, is not read (no cuda-launch-configuration finding).
from pycuda.compiler import DynamicSourceModule
dyn = DynamicSourceModule("""
__global__ void child(int *p) { p[threadIdx.x] = 0; }
__global__ void parent(int *p) { child<<<gridDim.x, blockDim.x>>>(p); }
""")

# CHECK: exit=1
