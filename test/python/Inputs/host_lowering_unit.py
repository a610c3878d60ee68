"""Unit tests of cuda_tidy_reader.host_model and host_lowering
(host-lowering-unit.test): the API model's rows as the reader reads them,
names, kinds, and the C++ a few Python statements lower to."""
import ast
import os
import sys
import unittest

sys.path.insert(0, sys.argv.pop(1))

from cuda_tidy_reader import host_lowering as hl  # noqa: E402
from cuda_tidy_reader.host_model import HostModel, host_model  # noqa: E402
from cuda_tidy_reader.main import analyse  # noqa: E402


def unit(source):
    """The host part of the unit the reader writes for source."""
    result = analyse('/tmp/unit_test_input.py', source.encode())
    tu = result['tu']
    return tu[tu.find('namespace cuda_tidy_py'):]


class ModelRows(unittest.TestCase):
    def test_rows_are_read(self):
        m = host_model()
        self.assertIsNotNone(m)
        self.assertEqual(m.api['cudaMalloc'], (2, (0,), True))
        self.assertEqual(m.api['cudaMemGetInfo'][1], (0, 1))
        self.assertEqual(m.bindings['cuda.bindings.runtime'], ('Runtime', 'ErrorTuple'))
        self.assertEqual(m.ctypes['Driver'], 'Status')
        self.assertEqual(m.calls[('pycuda.driver', 'mem_alloc')][0], 'cuMemAlloc')
        self.assertEqual(m.alloc['cuMemAlloc'], ('Driver', 'Device'))
        self.assertEqual(m.copy_kind['cudaMemcpy'], 3)
        self.assertEqual(m.bytes_arg['cudaMemcpyAsync'], 2)
        self.assertIn('cuda', m.generated)
        self.assertNotIn('LastName', m.generated)
        self.assertEqual(m.calls[('pycuda.tools', 'make_default_context')][0], 'cuCtxCreate')

    def test_library_rows_are_read(self):
        m = host_model()
        self.assertEqual(m.libraries['cuBLAS'], ('cublas', 'cublas_v2.h', 'cublasStatus_t',
                                                 'CUBLAS_STATUS_SUCCESS'))
        self.assertEqual(m.ctypes['cuFFT'], 'Status')
        self.assertEqual(m.library_of('cublasCreate_v2'), 'cuBLAS')
        self.assertEqual(m.library_of('cudaMalloc'), 'Runtime')
        self.assertEqual(m.library_of('cuMemAlloc'), 'Driver')
        self.assertEqual(m.status_of('cusparseCreate'), ('cusparseStatus_t', 'CUSPARSE_STATUS_SUCCESS'))
        self.assertEqual(m.library_file('libcufft.so.11'), 'cuFFT')
        self.assertIsNone(m.library_file('libcublasLt.so.12'))
        self.assertEqual(m.resource['cublasCreate'], ('Runtime', 'BlasHandle', 'Create', 0))
        self.assertEqual(m.calls[('cupy.cuda.cusparse', 'createCsrilu02Info')][0],
                         'cusparseCreateCsrilu02Info')

    def test_nvrtc_and_solver_rows_are_read(self):
        m = host_model()
        self.assertEqual(m.bindings['cuda.bindings.nvrtc'], ('NVRTC', 'ErrorTuple'))
        self.assertEqual(m.status_of('nvrtcCreateProgram'), ('nvrtcResult', 'NVRTC_SUCCESS'))
        self.assertEqual(m.library_file('libnvrtc.so.12'), 'NVRTC')
        self.assertIn('nvrtcDestroyProgram', m.by_address)
        self.assertNotIn('cusolverDnDestroy', m.by_address)
        self.assertIn('nvrtc', m.generated)
        self.assertEqual(m.calls[('cupy.cuda.cusolver', 'createSyevjInfo')][0],
                         'cusolverDnCreateSyevjInfo')
        self.assertEqual(m.calls[('cupy_backends.cuda.libs.cusparse', 'createDnVec')][1],
                         ['out', '0', '1', '2'])

    def test_nvrtc_destroy_takes_the_address(self):
        tu = unit('from cuda.bindings import nvrtc\n'
                  'def f(src):\n'
                  '    err, prog = nvrtc.nvrtcCreateProgram(src, b"k.cu", 0, [], [])\n'
                  '    err, = nvrtc.nvrtcDestroyProgram(prog)\n'
                  '    return err\n')
        self.assertIn('nvrtcResult err', tu)
        self.assertIn('nvrtcCreateProgram(&prog, ', tu)
        self.assertIn('nvrtcDestroyProgram(&prog)', tu)

    def test_generated_nvrtc_module(self):
        tu = unit('import ctypes\n'
                  'import proj.autogen.nvrtc as nvrtc\n'
                  'def f(prog):\n'
                  '    nvrtc.nvrtcCompileProgram(prog, 0, None)\n')
        self.assertIn('nvrtcCompileProgram(', tu)

    def test_numba_rows_are_read(self):
        m = host_model()
        self.assertEqual(m.arrays[('numba.cuda', 'pinned_array')], ('Pinned', 'Shape'))
        self.assertEqual(m.arrays[('numba.cuda', 'to_device')], ('Device', 'Upload'))
        self.assertEqual(m.arrays[('numba.cuda', 'pinned')], ('Registered', 'Context'))
        self.assertEqual(m.array_copies[('numba.cuda', 'copy_to_host')], ('DeviceToHost', ['0', 'new'], 1))
        self.assertEqual(m.kernels[('numba.cuda', 'jit')], 2)
        self.assertEqual(m.calls[('numba.cuda', 'stream')], ('cudaStreamCreate', ['out'], 'NumbaStream'))
        self.assertEqual(m.copy_ptrs['cudaMemcpyAsync'], (0, 1, 4))
        self.assertNotIn('cudaMemset', m.copy_ptrs)

    def test_define_lines_are_skipped(self):
        m = HostModel('#define CUDA_PYTHON_API(Name, Params, Outs, Overloaded)\n'
                      'CUDA_PYTHON_API(cuInit, 1, None, 0)\n')
        self.assertEqual(list(m.api), ['cuInit'])


class Names(unittest.TestCase):
    def test_cxx_name(self):
        self.assertEqual(hl.cxx_name('n'), 'n')
        self.assertEqual(hl.cxx_name('main'), 'py_main')
        self.assertEqual(hl.cxx_name('cudaMemcpyDeviceToHost'), 'py_cudaMemcpyDeviceToHost')
        self.assertEqual(hl.cxx_name('int'), 'py_int')

    def test_merge(self):
        self.assertEqual(hl.merge('none', 'void *'), 'void *')
        self.assertEqual(hl.merge('void *', 'cudaStream_t'), 'cudaStream_t')
        self.assertEqual(hl.merge('long long', 'double'), 'double')
        self.assertEqual(hl.merge('long long', 'void *'), 'any')


class Lowering(unittest.TestCase):
    def test_no_binding_no_unit(self):
        result = analyse('/tmp/unit_test_input.py', b'import ctypes\nx = ctypes.c_int(3)\n')
        self.assertEqual(result['tu'], '')
        self.assertNotIn('host', result['stats'])

    def test_ctypes_call_and_array(self):
        text = unit('import ctypes\nimport numpy as np\ncudart = ctypes.CDLL("libcudart.so")\n'
                    'def f(n):\n    d = ctypes.c_void_p()\n    h = np.zeros(n, dtype=np.float32)\n'
                    '    cudart.cudaMalloc(ctypes.byref(d), n * 4)\n')
        self.assertIn('void f(long long n)', text)
        self.assertIn('float * h = (float *)::malloc(n * sizeof(float));', text)
        self.assertIn('cudaMalloc(&d, n * 4);', text)

    def test_float_elements_accumulate_into_a_double(self):
        # a typed local, not an any (whose assignment clang resolves as an
        # overloaded operator: bench/results/python-host-cost-2026-12-07c.md)
        src = ('import ctypes\nimport numpy as np\ncudart = ctypes.CDLL("libcudart.so")\n'
               'def f(n):\n    out = np.empty(n, dtype=np.%s)\n'
               '    cudart.cudaMemset(out.ctypes.data, 0, n * 4)\n'
               '    total = 0.0\n    for i in range(n):\n        total += out[i]\n    return total\n')
        text = unit(src % 'float32')
        self.assertIn('double total = 0.0;', text)
        self.assertIn('total += out[i];', text)
        # a float16 element (kind unsigned short) stays opaque
        text = unit(src % 'float16')
        self.assertNotIn('double total', text)
        self.assertNotIn('total += out[i];', text)

    def test_error_tuple(self):
        text = unit('from cuda.bindings import runtime as cudart\n'
                    'def f():\n    err, s = cudart.cudaStreamCreate()\n    return err\n')
        self.assertIn('err = cudaStreamCreate(&s);', text)
        self.assertIn('cudaStream_t s{};', text)

    def test_finally_runs_on_return(self):
        text = unit('import ctypes\ncudart = ctypes.CDLL("libcudart.so")\n'
                    'def f(p, ok):\n    try:\n        if not ok:\n            return 1\n'
                    '    finally:\n        cudart.cudaFree(p)\n    return 0\n')
        self.assertEqual(text.count('cudaFree('), 2)

    def test_numba_kernel_stub_and_launch(self):
        text = unit('import numpy as np\nfrom numba import cuda\n'
                    '@cuda.jit\ndef k(out, x):\n    out[0] = x[0]\n'
                    '@cuda.jit(device=True)\ndef helper(v):\n    return v\n'
                    'def f(n):\n    s = cuda.stream()\n'
                    '    d = cuda.device_array(n, dtype=np.float32)\n'
                    '    h = cuda.pinned_array(n, dtype=np.float32)\n'
                    '    k[1, 32, s](d, h)\n    d.copy_to_host(h, stream=s)\n')
        self.assertIn('template <class T0, class T1> __global__ void k(T0 out, T1 x) '
                      '{ cuda_tidy_host::device_write(out); cuda_tidy_host::device_read(x); }', text)
        self.assertNotIn('helper', text)
        self.assertIn('cudaMalloc((void **)&d, n * sizeof(float))', text)
        self.assertIn('cudaMallocHost((void **)&h, n * sizeof(float))', text)
        self.assertIn('k<<<1, 1, 0, s>>>(d, h);', text)
        self.assertIn('cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s)', text)

    def test_numba_pageable_kernel_argument_is_opaque(self):
        text = unit('import numpy as np\nfrom numba import cuda\n'
                    '@cuda.jit\ndef k(out):\n    out[0] = 1\n'
                    'def f(n):\n    h = np.zeros(n, dtype=np.float32)\n    k[1, 32](h)\n')
        self.assertIn('k<<<1, 1>>>(cuda_tidy_host::call(h));', text)

    def test_library_handle_through_ctypes(self):
        u = unit('import ctypes\nlib = ctypes.CDLL("libcublas.so.12")\n'
                 'def f():\n    h = ctypes.c_void_p()\n'
                 '    lib.cublasCreate_v2(ctypes.byref(h))\n    lib.cublasDestroy_v2(h)\n')
        self.assertIn('cublasCreate_v2(', u)
        self.assertIn('cublasDestroy_v2(', u)

    def test_conditional_exit_handler_sets_a_flag(self):
        u = unit('import atexit\nfrom cuda.bindings import runtime as rt\n'
                 'def h():\n    rt.cudaDeviceSynchronize()\n'
                 'def init(on):\n    if on:\n        atexit.register(h)\n')
        self.assertIn('(__exit_registered0 = true)', u)
        self.assertIn('if (__exit_registered0) h()', u)

    def test_object_in_module_dict_lives_until_exit(self):
        u = unit('from cuda.bindings import runtime as rt\n'
                 'class P:\n    def __init__(self):\n        e, self.p = rt.cudaMalloc(8)\n'
                 '    def __del__(self):\n        rt.cudaFree(self.p)\n'
                 '_cache = {}\ndef get(k):\n    _cache[k] = P()\n')
        self.assertIn('P __held0;', u)
        u = unit('from cuda.bindings import runtime as rt\n'
                 'class P:\n    def __init__(self):\n        e, self.p = rt.cudaMalloc(8)\n'
                 '    def __del__(self):\n        rt.cudaFree(self.p)\n'
                 '_cache = {}\ndef get(k):\n    _cache[k] = P()\ndef reset():\n    _cache.clear()\n')
        self.assertNotIn('__held', u)

    def test_positions_are_exact_for_same_names(self):
        src = 'import ctypes\ncudart = ctypes.CDLL("libcudart.so")\ndef f():\n    cudart.cudaDeviceReset()\n'
        result = analyse('/tmp/unit_test_input.py', src.encode())
        tu = result['tu']
        at = tu.find('cudaDeviceReset()')
        runs = [r for r in result['map'] if r[0] <= at < r[0] + r[1]]
        self.assertTrue(runs and runs[0][4])
        self.assertEqual(runs[0][3] + at - runs[0][0], src.find('cudaDeviceReset'))


class ExceptionDispatch(unittest.TestCase):
    def names(self, handler):
        tree = ast.parse('try:\n    pass\n' + handler + ':\n    pass\n')
        return hl.HostLowering.handler_names(tree.body[0].handlers[0])

    def test_handler_names(self):
        self.assertEqual(self.names('except ValueError'), {'ValueError'})
        self.assertEqual(self.names('except (KeyError, cupy.cuda.runtime.CUDARuntimeError) as e'),
                         {'KeyError', 'CUDARuntimeError'})
        self.assertIsNone(self.names('except'))
        self.assertIsNone(self.names('except (KeyError, Exception)'))

    def test_builtin_classes_reach_their_bases_only(self):
        catches = hl.HostLowering.handler_catches
        self.assertTrue(catches({'OSError'}, {'FileNotFoundError'}))
        self.assertTrue(catches({'LookupError'}, {'KeyError'}))
        self.assertFalse(catches({'KeyError'}, {'ValueError'}))
        self.assertFalse(catches({'CUDARuntimeError'}, {'ValueError'}))
        self.assertTrue(catches({'KeyError'}, {'PoolError'}))  # not Python's own: may derive from KeyError
        self.assertTrue(catches({'KeyError'}, None))
        self.assertTrue(catches(None, {'ValueError'}))

    def test_handlers_have_their_own_labels(self):
        text = unit('from cuda.bindings import runtime as cudart\n'
                    'def f(n):\n    err, p = cudart.cudaMalloc(n)\n    try:\n'
                    '        if n > 4:\n            raise KeyError(n)\n'
                    '    except ValueError:\n        cudart.cudaFree(p)\n'
                    '    except (KeyError, IndexError):\n        pass\n'
                    '    else:\n        cudart.cudaFree(p)\n')
        self.assertIn('goto __ct_except1_1;', text)
        self.assertNotIn('goto __ct_except1_0;', text)
        self.assertIn('__ct_except1_0:;', text)
        self.assertIn('__ct_except1_end:;', text)


class UnitMode(unittest.TestCase):
    """Host code alone is analysed without CUDA's runtime wrapper
    (-nocudainc; driver/PythonInput.cpp, withoutCudaWrapper): the unit
    includes the runtime's header itself. A kernel or a launch keeps the
    wrapper."""
    HOST = 'import ctypes\ncudart = ctypes.CDLL("libcudart.so")\ndef f():\n    cudart.cudaDeviceReset()\n'

    def test_host_code_alone_needs_no_wrapper(self):
        result = analyse('/tmp/unit_test_input.py', self.HOST.encode())
        self.assertIn('-nocudainc', result['args'])
        self.assertTrue(result['tu'].startswith('#include <cuda_runtime.h>\n'))

    def test_a_launch_keeps_the_wrapper(self):
        src = ('import numpy as np\nfrom numba import cuda\n'
               '@cuda.jit\ndef k(out):\n    out[0] = 1\n'
               'def f(n):\n    d = cuda.device_array(n, dtype=np.float32)\n    k[1, 32](d)\n')
        result = analyse('/tmp/unit_test_input.py', src.encode())
        self.assertIn('<<<', result['tu'])
        self.assertNotIn('-nocudainc', result['args'])
        self.assertNotIn('#include <cuda_runtime.h>', result['tu'])

    def test_a_kernel_module_keeps_the_wrapper(self):
        src = self.HOST + ('import cupy\nk = cupy.RawKernel(r\'\'\'extern "C" __global__ void k(float *x) '
                           '{ x[threadIdx.x] = 0; }\'\'\', "k")\n')
        result = analyse('/tmp/unit_test_input.py', src.encode())
        self.assertIn('__global__ void k', result['tu'])
        self.assertIn('cudaDeviceReset', result['tu'])
        self.assertNotIn('-nocudainc', result['args'])


if __name__ == '__main__':
    unittest.main(argv=[sys.argv[0]])
