# CuPy's own headers (<cupy/carray.cuh>, thrust::complex of the generated
# kernels) come from the cupy package the reader's Python would import
# (located with importlib, never imported), or from --cupy-include.
# RUN: env PYTHONPATH=%S/Inputs/fakecupy %cuda-tidy --no-cache --verbose -checks='-*,cuda-missing-syncthreads' %s > %t.found 2>&1; echo "exit=$?" >> %t.found
# RUN: FileCheck %s --input-file=%t.found --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not='kernel source skipped'
# RUN: %cuda-tidy --no-cache --verbose -checks='-*,cuda-missing-syncthreads' --cupy-include=%S/Inputs/fakecupy/cupy/_core/include %s > %t.named 2>&1; echo "exit=$?" >> %t.named
# RUN: FileCheck %s --input-file=%t.named --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not='kernel source skipped'
# CuPy installed in a virtual environment named with --python: found in
# the environment's own site-packages, as its Python would import it (the
# reader runs with -S, which skips site's virtual-environment set-up).
# RUN: rm -rf %t.venv && python3 -m venv --without-pip %t.venv && cp -r %S/Inputs/fakecupy/cupy "$(%t.venv/bin/python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/"
# RUN: %cuda-tidy --no-cache --verbose -checks='-*,cuda-missing-syncthreads' --python=%t.venv/bin/python3 %s > %t.venv.out 2>&1; echo "exit=$?" >> %t.venv.out
# RUN: FileCheck %s --input-file=%t.venv.out --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not='kernel source skipped'
# Not found (CUDA_TIDY_CUPY_INCLUDE names a folder without cupy/): both
# kernels are skipped with the reason, and nothing is analysed.
# RUN: env CUDA_TIDY_CUPY_INCLUDE=%S %cuda-tidy --no-cache --verbose -checks='-*,cuda-missing-syncthreads' %s > %t.none 2>&1; echo "exit=$?" >> %t.none
# RUN: FileCheck %s --check-prefix=NONE --input-file=%t.none --implicit-check-not=warning: --implicit-check-not=error:
# A folder without CuPy's headers is a usage error.
# RUN: %cuda-tidy --no-cache --cupy-include=%S %s > %t.bad 2>&1; echo "exit=$?" >> %t.bad
# RUN: FileCheck %s --check-prefix=BAD --input-file=%t.bad
# BAD: error: --cupy-include '{{.*}}' holds no cupy/carray.cuh
# BAD: exit=3
import cupy

# A RawKernel that includes CuPy's header and uses its float16 (with
# assert inside the header): found, compiled, and its race reported.
halves = cupy.RawKernel(r'''
#include <cupy/carray.cuh>
extern "C" __global__ void halves(float16 *out, const float *in) {
  __shared__ float t[32];
  t[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = float16(t[31 - threadIdx.x]);
}''', "halves")
# CHECK: cupy-headers.py:[[@LINE-2]]:30: warning: read of shared 't'
# NONE: note: cupy-headers.py:[[@LINE-8]]:10: kernel source skipped: it includes <cupy/carray.cuh>, and CuPy's headers are not installed for this Python

# An ElementwiseKernel on thrust::complex, which CuPy's headers give every
# generated kernel: analysed (no error), with nothing to report.
magnitude = cupy.ElementwiseKernel(
    "float32 x", "float32 y",
    "y = thrust::complex<float>(x, 1.0f).real() * CUDART_PI_F",
    "magnitude")
# complex128 is thrust::complex<double> there, and the header's C++17 is
# kept over the kernel's own -std=c++11.
rotate = cupy.ElementwiseKernel(
    "float64 x", "complex128 y",
    "y = thrust::complex<double>(x, 1.0)",
    "rotate", options=("-std=c++11",))
# NONE: note: cupy-headers.py:[[@LINE-10]]:13: kernel source skipped: thrust:: names come from CuPy's headers, which are not installed for this Python (--cupy-include names them)
# NONE: note: cupy-headers.py:[[@LINE-5]]:10: kernel source skipped: thrust::
# CHECK: exit=1
# NONE: exit=0
