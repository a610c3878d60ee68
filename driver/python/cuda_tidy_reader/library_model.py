"""The Python-side API model: what CuPy, PyCUDA and torch do with kernel
sources and launch arguments (/work/shared/TOOLCHAIN.md, "Python-hosted
CUDA"). Sizes and kinds of dtypes are rows of analysis/CudaApiModel.def."""


# --- The Python-side API model -------------------------------------------
# What CuPy, PyCUDA and torch do with kernel sources and launch arguments,
# from their documentation and sources (/work/shared/TOOLCHAIN.md, "Python-
# hosted CUDA"). The sizes and kinds of the dtypes, which the check compares
# with the kernel's parameters, are rows CUDA_PYTHON_DTYPE of
# analysis/CudaApiModel.def; this table only names them.

#: numpy/CuPy dtype names and their C types in kernels (ElementwiseKernel).
DTYPES = {
    'bool': 'bool', 'int8': 'signed char', 'int16': 'short', 'int32': 'int',
    'int64': 'long long', 'uint8': 'unsigned char', 'uint16': 'unsigned short',
    'uint32': 'unsigned int', 'uint64': 'unsigned long long',
    'float16': '__half', 'float32': 'float', 'float64': 'double',
    'complex64': 'cuda_tidy_python::complex<float>',
    'complex128': 'cuda_tidy_python::complex<double>',
}
DTYPE_ALIASES = {
    'bool_': 'bool', 'byte': 'int8', 'ubyte': 'uint8', 'short': 'int16',
    'ushort': 'uint16', 'intc': 'int32', 'uintc': 'uint32', 'int_': 'int64',
    'longlong': 'int64', 'ulonglong': 'uint64', 'intp': 'int64',
    'uintp': 'uint64', 'half': 'float16', 'single': 'float32',
    'double': 'float64', 'float_': 'float64', 'csingle': 'complex64',
    'cdouble': 'complex128', 'complex_': 'complex128',
}
#: The dtype numpy and CuPy give a Python type named as a dtype
#: (`x.astype(float)` is float64). How each library passes a Python scalar
#: to a raw kernel is the CUDA_PYTHON_SCALAR rows of CudaApiModel.def.
PYTHON_SCALAR_DTYPE = {'float': 'float64', 'int': 'int64', 'bool': 'bool'}

#: Array constructors: (module root, name) -> default dtype when no dtype=
#: is given ('like': the first argument's; 'data': from the data).
ARRAY_MAKERS = {
    'zeros': 'float64', 'ones': 'float64', 'empty': 'float64',
    'full': 'data1', 'arange': 'data', 'array': 'data', 'asarray': 'data',
    'ascontiguousarray': 'data', 'linspace': 'float64',
    'zeros_like': 'like', 'ones_like': 'like', 'empty_like': 'like',
    'full_like': 'like', 'copy': 'data',
    'random.rand': 'float64', 'random.randn': 'float64',
    'random.random': 'float64', 'random.uniform': 'float64',
    'random.standard_normal': 'float64', 'random.normal': 'float64',
    'random.randint': 'int64',
    'to_gpu': 'data', 'to_gpu_async': 'data',
}
#: The C type PyCUDA's dtype_to_ctype gives a dtype (pycuda/tools.py),
#: where it differs from DTYPES: its own complex type.
PYCUDA_CTYPES = {'complex64': 'pycuda::complex<float>',
                 'complex128': 'pycuda::complex<double>'}
#: The block PyCUDA's ReductionKernel launches its first stage with.
PYCUDA_REDUCTION_BLOCK = 512
#: Where an array made by a module lives.
ARRAY_SPACE = {'cupy': 'device', 'cupyx': 'device', 'numpy': 'host',
               'pycuda.gpuarray': 'device'}

#: Kernel constructors: qualified name -> (library, kind, parameter names in
#: order). Reached under any import alias.
CONSTRUCTORS = {
    'cupy.RawKernel': ('cupy', 'raw-kernel',
                       ['code', 'name', 'options', 'backend', 'translate_cucomplex',
                        'enable_cooperative_groups', 'jitify']),
    'cupy.RawModule': ('cupy', 'raw-module',
                       ['code', 'path', 'options', 'backend', 'translate_cucomplex',
                        'enable_cooperative_groups', 'name_expressions', 'jitify']),
    'cupy.ElementwiseKernel': ('cupy', 'elementwise',
                               ['in_params', 'out_params', 'operation', 'name',
                                'reduce_dims', 'preamble', 'no_return',
                                'return_tuple', 'loop_prep', 'after_loop',
                                'options']),
    'cupy.ReductionKernel': ('cupy', 'reduction',
                             ['in_params', 'out_params', 'map_expr',
                              'reduce_expr', 'post_map_expr', 'identity',
                              'name', 'reduce_type', 'reduce_dims',
                              'preamble', 'options']),
    'pycuda.compiler.SourceModule': ('pycuda', 'source-module',
                                     ['source', 'nvcc', 'options', 'keep',
                                      'no_extern_c', 'arch', 'code',
                                      'cache_dir', 'include_dirs']),
    'pycuda.compiler.DynamicSourceModule': ('pycuda', 'source-module',
                                            ['source', 'nvcc', 'options',
                                             'keep', 'no_extern_c', 'arch',
                                             'code', 'cache_dir',
                                             'include_dirs']),
    # PyCUDA's generated elementwise kernel (pycuda/elementwise.py).
    'pycuda.elementwise.ElementwiseKernel': ('pycuda', 'pycuda-elementwise',
                                             ['arguments', 'operation', 'name',
                                              'keep', 'options', 'preamble',
                                              'loop_prep', 'after_loop']),
    # PyCUDA's generated reduction (pycuda/reduction.py): dtype_out is a
    # numpy dtype, the rest C text; `i` runs over the first vector's size.
    'pycuda.reduction.ReductionKernel': ('pycuda', 'pycuda-reduction',
                                         ['dtype_out', 'neutral', 'reduce_expr',
                                          'map_expr', 'arguments', 'name',
                                          'keep', 'options', 'preamble']),
    # Chainer's memoizing wrappers of CuPy's kernels (chainer.backends.cuda).
    'chainer.backends.cuda.elementwise': ('cupy', 'elementwise',
                                          ['in_params', 'out_params', 'operation',
                                           'name', 'reduce_dims', 'preamble',
                                           'no_return', 'return_tuple',
                                           'loop_prep', 'after_loop', 'options']),
    'chainer.backends.cuda.reduce': ('cupy', 'reduction',
                                     ['in_params', 'out_params', 'map_expr',
                                      'reduce_expr', 'post_map_expr', 'identity',
                                      'name', 'reduce_type', 'reduce_dims',
                                      'preamble', 'options']),
    'chainer.backends.cuda.raw': ('cupy', 'raw-kernel',
                                  ['code', 'name', 'options', 'backend']),
    'torch.utils.cpp_extension.load_inline': ('torch', 'load-inline',
                                              ['name', 'cpp_sources',
                                               'cuda_sources', 'functions',
                                               'extra_cflags',
                                               'extra_cuda_cflags']),
}
#: What CuPy puts before the code of every ElementwiseKernel and
#: ReductionKernel (cupy/_core/core.pyx, cupy_header_list), from the folder
#: --cupy-include or the located cupy package gives.
CUPY_GENERATED_HEADERS = ('cupy/complex.cuh', 'cupy/carray.cuh', 'cupy/atomics.cuh',
                          'cupy/math_constants.h')
#: The libraries' own header folders (CuPy's, PyCUDA's) are system
#: folders: their warnings are not the user's.
LIBRARY_INCLUDE = '-isystem'
FLOAT16_TYPEDEF = 'typedef __half float16;\n'
#: The dtypes whose C++ type CuPy's headers give (complex.cuh: thrust's).
CUPY_HEADER_TYPES = {'cuda_tidy_python::complex<float>': 'thrust::complex<float>',
                     'cuda_tidy_python::complex<double>': 'thrust::complex<double>'}
#: importlib.resources (and its backport): the folder of a package, and
#: the older read_text(package, resource).
RESOURCE_FILES = ('importlib.resources.files', 'importlib_resources.files')
RESOURCE_READ_TEXT = ('importlib.resources.read_text', 'importlib_resources.read_text')
#: The headers load_inline puts before each CUDA source.
LOAD_INLINE_HEADERS = ['#include <torch/types.h>\n', '#include <cuda.h>\n',
                       '#include <cuda_runtime.h>\n']
#: Words whose presence makes a file worth parsing (the driver scans for
#: the same words before it starts Python at all).
TRIGGERS = (b'cupy', b'pycuda', b'load_inline')
#: Limits against huge generated files.
MAX_KERNEL_TEXT = 16 << 20
MAX_DEPTH = 40


def canonical_dtype(name):
    name = DTYPE_ALIASES.get(name, name)
    return name if name in DTYPES else None
