"""Host-code lowering: Python functions that drive CUDA through a binding
(ctypes into libcudart/libcuda, cuda-python, PyCUDA's driver, CuPy's
runtime) written as C++ into the file's translation unit, so that the
checks of .cu files read them unchanged (docs/python-host.md).

Calls through a binding become calls of the CUDA functions they are (the
CUDA_PYTHON_* rows of analysis/CudaApiModel.def, host_model.py); Python
control flow becomes C++ control flow; numpy arrays of a known dtype and
size become malloc'd host buffers; a class becomes a struct whose
destructor runs __del__, and a module global of such a class is an object
with static storage duration; atexit.register and weakref.finalize at
module level become calls at the end of main (Python runs them before the
C-level exit), or std::atexit for a handler that resets the device. What the lowering does not know becomes an
opaque value (cuda_tidy_host::any) that the checks say nothing about.

Every piece of C++ is anchored at the Python node it comes from; names that
are the same in both languages map byte for byte."""

try:
    import _ast as ast
except ImportError:  # an implementation without it
    import ast

import builtins

from .host_model import strip_version
from .source import MStr, MStrJoin, MStrLog, iter_child_nodes, walk

#: Python's own exception classes by name: a raise of one of them reaches
#: only the handlers that name it or a base of it (handler_catches).
BUILTIN_EXCEPTIONS = {n: c for n, c in vars(builtins).items()
                      if isinstance(c, type) and issubclass(c, BaseException)}

#: Nodes whose bodies are scopes of their own (scope_nodes does not enter them).
_NESTED_SCOPES = frozenset((ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda,
                            ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))


#: The node types infer() looks at (the others are skipped at once).
_INFER_NODES = frozenset((ast.Call, ast.Global, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.NamedExpr,
                          ast.AsyncFor, ast.withitem))


class _At:
    """A stand-in node at a position (attr_node)."""
    __slots__ = ('lineno', 'col_offset')


#: by_type's key of the nodes that infer reads (_INFER_NODES), in order
_INFER_KEY = 'infer'

_NO_NODES = ()


def _position(n):
    return (getattr(n, 'lineno', 0), getattr(n, 'col_offset', 0))


#: Words of a file that make the host lowering worth trying (the driver
#: reads a .py file only when its bytes name one of these or a kernel
#: library: driver/PythonInput.cpp, mayHoldCuda).
HOST_TRIGGERS = (b'cudart', b'libcuda', b'cuda.bindings', b'cuda.cuda', b'from cuda import',
                 b'pycuda.driver', b'cupy.cuda.runtime', b'cupy_backends.cuda.api', b'numba.cuda', b'from numba import cuda',
                 # the CUDA libraries (CUDA_PYTHON_LIBRARY): ctypes, scikit-cuda, CuPy's bindings
                 b'libcublas', b'libcusparse', b'libcufft', b'libcurand', b'libcusolver', b'skcuda',
                 b'cupy_backends.cuda.libs', b'cupy.cuda.cublas', b'cupy.cuda.cusparse', b'cupy.cuda.curand',
                 b'cupy.cuda.cusolver', b'from cupy.cuda import',
                 # NVRTC: cuda-python's nvrtc module, ctypes or a generated binding of libnvrtc
                 b'nvrtc')

#: A call of a CUDA function through a module attribute (`cuda.cuInit(`,
#: `rt.cudaMalloc(`): what a generated binding module's users write
#: (CUDA_PYTHON_GENERATED_MODULE; driver/PythonInput.cpp, mayHoldCuda).
#: What the regular expression rb'\.cu(?:da)?[A-Z][A-Za-z0-9_]*\(' finds,
#: written out: importing re (and the enum, functools and collections
#: modules it imports) cost a third of the reader's start.
def generated_call(data):
    """Whether data (bytes) holds such a call."""
    i = data.find(b'.cu')
    n = len(data)
    while i >= 0:
        k = i + 3
        if data.startswith(b'da', k) and k + 2 < n and 65 <= data[k + 2] <= 90:
            k += 2
        if k < n and 65 <= data[k] <= 90:
            k += 1
            while k < n and data[k] in _WORD_BYTES:
                k += 1
            if k < n and data[k] == 40:
                return True
        i = data.find(b'.cu', i + 1)
    return False


_WORD_BYTES = frozenset(b'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_')

#: The driver API's header, only for a file that calls the driver API
#: (cuda_runtime.h, which CUDA mode includes, declares the runtime's).
DRIVER_INCLUDE = '#include <cuda.h>\n'

#: C's memmove and memset, only for a file that calls ctypes' (host_memory_call).
STRING_INCLUDE = '#include <string.h>\n'

# raise() loops rather than calling __builtin_trap: a builtin is declared
# where it is first used, and in a unit without CUDA's wrapper (host code
# alone, -nocudainc) that is this prelude, not a system header, so the
# analyses took the trap for an unknown call that may wait for the device
# (a missed cuda-missing-host-sync after check(cudaMemcpyAsync(...))).
HOST_PRELUDE = r'''
#include <stdlib.h>
namespace cuda_tidy_host {
struct any {
  any() {}
  template <class T> any(const T &) {}
  template <class T> operator T() const { return T(); }
  template <class... T> any operator()(const T &...) const { return any(); }
  template <class T> any operator[](const T &) const { return any(); }
};
template <class... T> any call(const T &...);
extern volatile bool unknown_condition;
template <class... T> bool cond(const T &...) { return unknown_condition; }
template <class... V> any result(const V &...);
template <class T> T collected(T value);
template <class T> T flows(T value);
template <class... T> any library_use(T...) { return any(); }
[[noreturn]] inline void raise() { for (;;) {} }
template <class F> struct params_;
template <class R, class... P> struct params_<R (*)(P...)> { template <unsigned I> using at = __type_pack_element<I, P...>; };
template <class F, unsigned I> using param_t = typename params_<F>::template at<I>;
template <class P> struct pointee_;
template <class P> struct pointee_<P *> { typedef P type; };
template <class F, unsigned I> using out_t = typename pointee_<param_t<F, I>>::type;
}
'''

#: numpy dtypes as C element types.
ELEMENT_TYPES = {
    'float32': 'float', 'float64': 'double', 'float16': 'unsigned short', 'int8': 'signed char',
    'int16': 'short', 'int32': 'int', 'int64': 'long long', 'uint8': 'unsigned char',
    'uint16': 'unsigned short', 'uint32': 'unsigned int', 'uint64': 'unsigned long long',
    'bool': 'bool', 'complex64': 'double', 'single': 'float', 'double': 'double',
    'intc': 'int', 'float_': 'double', 'int_': 'long long', 'uintc': 'unsigned int',
    'byte': 'signed char', 'ubyte': 'unsigned char', 'half': 'unsigned short',
}
#: ctypes scalar types as C types.
CTYPES = {
    'c_int': 'int', 'c_uint': 'unsigned int', 'c_long': 'long', 'c_ulong': 'unsigned long',
    'c_longlong': 'long long', 'c_ulonglong': 'unsigned long long', 'c_size_t': 'size_t',
    'c_ssize_t': 'long', 'c_float': 'float', 'c_double': 'double', 'c_int32': 'int',
    'c_uint32': 'unsigned int', 'c_int64': 'long long', 'c_uint64': 'unsigned long long',
    'c_bool': 'bool', 'c_char': 'char', 'c_ubyte': 'unsigned char', 'c_short': 'short',
    'c_ushort': 'unsigned short',
}
#: Copy kinds and success codes that cuda-python and CuPy name as attributes.
ENUMERATORS = {
    'cudaMemcpyHostToHost': 'cudaMemcpyHostToHost', 'cudaMemcpyHostToDevice': 'cudaMemcpyHostToDevice',
    'cudaMemcpyDeviceToHost': 'cudaMemcpyDeviceToHost',
    'cudaMemcpyDeviceToDevice': 'cudaMemcpyDeviceToDevice', 'cudaMemcpyDefault': 'cudaMemcpyDefault',
    'memcpyHostToHost': 'cudaMemcpyHostToHost', 'memcpyHostToDevice': 'cudaMemcpyHostToDevice',
    'memcpyDeviceToHost': 'cudaMemcpyDeviceToHost', 'memcpyDeviceToDevice': 'cudaMemcpyDeviceToDevice',
    'memcpyDefault': 'cudaMemcpyDefault',
    'cudaSuccess': 'cudaSuccess', 'CUDA_SUCCESS': 'CUDA_SUCCESS',
}
#: The C types of the objects PyCUDA and CuPy calls return (CUDA_PYTHON_CALL's Result).
RESULT_TYPES = {'Device': 'CUdevice', 'DeviceAllocation': 'CUdeviceptr', 'Context': 'CUcontext',
                'PrimaryContext': 'CUcontext', 'Stream': 'CUstream', 'Pointer': 'void *',
                'Handle': 'cudaStream_t', 'NumbaStream': 'cudaStream_t'}
#: What a created handle is, by library and resource (CUDA_RESOURCE rows).
HANDLE_TYPES = {('Runtime', 'Stream'): 'cudaStream_t', ('Runtime', 'Event'): 'cudaEvent_t',
                ('Driver', 'Stream'): 'CUstream', ('Driver', 'Event'): 'CUevent',
                ('Runtime', 'Graph'): 'cudaGraph_t', ('Runtime', 'GraphExec'): 'cudaGraphExec_t'}
NUMERIC = ('long long', 'double', 'bool')
#: Element kinds that a Python number accumulates as (`total += out[i]`
#: of a float32 array is a float64 in numpy): a typed local instead of
#: an any, which clang resolves as an overloaded operator at each use.
ACCUMULATED = {'float': 'double'}
#: Objects whose memory their library frees when Python collects them
#: (PyCUDA's DeviceAllocation): never a leak.
COLLECTED = ('DeviceAllocation', 'NumbaStream')
#: The modules whose objects' methods are CUDA_PYTHON_CALL rows 'Class.method'.
METHOD_MODULES = ('pycuda.driver', 'numba.cuda')
#: How a collected array of CUDA_PYTHON_ARRAY is allocated, by Space.
ARRAY_ALLOC = {'Device': 'cudaMalloc((void **)&%s, %s)',
               'Pinned': 'cudaMallocHost((void **)&%s, %s)',
               'Mapped': 'cudaHostAlloc((void **)&%s, %s, cudaHostAllocMapped)',
               'Managed': 'cudaMallocManaged((void **)&%s, %s, cudaMemAttachGlobal)'}
#: What a kernel of a decorator (CUDA_PYTHON_KERNEL) does with each
#: parameter: its stub's body calls these (the launch's arguments are of
#: any type, so each has a form for non-pointers that does nothing).
KERNEL_PRELUDE = r'''
namespace cuda_tidy_host {
template <class T> __device__ void device_write(T *p) { *p = T(); }
template <class T> __device__ void device_write(const T &) {}
template <class T> __device__ void device_read(T *p) { T v = *p; (void)v; }
template <class T> __device__ void device_read(const T &) {}
}
'''
ANY = 'cuda_tidy_host::any'
#: Nodes whose parts run on some paths only (registered_always).
_BRANCHING = (ast.If, ast.For, ast.While, ast.AsyncFor, ast.ExceptHandler, ast.FunctionDef,
              ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.IfExp, ast.BoolOp) + \
    ((ast.Match,) if hasattr(ast, 'Match') else ())

CXX_RESERVED = set('''alignas alignof asm auto bool break case catch char class const
constexpr const_cast continue decltype default delete do double dynamic_cast else enum
explicit export extern false float for friend goto if inline int long mutable namespace
new noexcept nullptr operator private protected public register reinterpret_cast return
short signed sizeof static static_assert static_cast struct switch template this
thread_local throw true try typedef typeid typename union unsigned using virtual void
volatile wchar_t while main dim3 min max malloc free exit atexit abort size_t std errno
NULL assert'''.split())


def cxx_name(name):
    """A Python name as a C++ one: itself unless C++, CUDA or the prelude
    claims it (then 'py_' before it)."""
    if name in CXX_RESERVED or name.startswith(('cu', 'CU', '__', '_Z')) or not name.isidentifier() \
            or not name.isascii():
        return 'py_' + ''.join(c if c.isalnum() or c == '_' else '_' for c in name)
    return name


class Val:
    """A lowered expression: its C++ text and its kind (a C type, 'any',
    'none', 'obj:Class' (a pointer to a lowered class), 'lib:Runtime' or
    'lib:Driver' (a ctypes handle), 'py:Class' (a PyCUDA object of that
    CUDA_PYTHON_CALL Result))."""
    __slots__ = ('m', 'kind', 'lvalue', 'outs', 'size', 'device', 'temp', 'upload')

    def __init__(self, m, kind, lvalue=False):
        self.m, self.kind, self.lvalue, self.outs, self.size = m, kind, lvalue, None, None
        self.device = False  # a CuPy array's memory (size: its byte size)
        self.temp = None     # the out temporary a raising call's value is
        self.upload = None   # (source Val, stream node) of an array made as a copy


def ctype_of(kind):
    if kind.startswith('obj:'):
        return kind[4:] + ' *'
    if kind.startswith('py:'):
        return RESULT_TYPES.get(kind[3:], ANY)
    if kind in ('any', 'none') or kind.startswith('lib:'):
        return ANY
    return kind


def merge(a, b):
    if a is None or a == b:
        return b
    if b is None:
        return a
    for x, y in ((a, b), (b, a)):
        # a null start (None, c_void_p()) and a handle or pointer later
        if x in ('none', 'void *') and (y.endswith('*') or y.startswith(('obj:', 'py:')) or
                                        y in HANDLE_TYPES.values() or y in ('CUdeviceptr', 'CUcontext')):
            return y
        if x == 'long long' and y in ('double',):
            return y
    return 'any'


class Scope:
    def __init__(self, owner, cls=None, module=False):
        self.owner = owner           # FunctionDef or Module
        self.cls = cls               # class name for methods
        self.module = module
        self.kinds = {}              # name -> kind
        self.cnames = {}             # name -> C++ name
        self.declared_at = {}        # name -> the top-level statement declaring it
        self.sizes = {}              # array name -> MStr of its byte size
        self.device_arrays = set()   # names bound once to a new CuPy array
        self.cupy_names = set()      # names bound to a new CuPy array (not indexed on the host)
        self.array_space = {}        # name -> Space of a CUDA_PYTHON_ARRAY array it is bound to
        self.temps = []              # (C++ name, C type) of out-parameter temporaries
        self.globals_ = set()
        self.returns = False
        self.inferred = False        # return_kind inferred its kinds


class HostLowering:
    """Lowers the host code of one file (a mixin of main.Emitter's state:
    self.r is the Reader)."""

    def __init__(self, reader, model):
        self.r = reader
        self.model = model
        self.ctypes_handles = {}     # id(node of a CDLL value) -> library
        self.classes = {}            # name -> ClassDef (module level)
        self.class_members = {}      # class -> {member: kind}
        self.functions = {}          # name -> FunctionDef (module level)
        self.module_scope = Scope(reader.tree, module=True)
        self.temp_count = 0
        self._at = {}                # (line, column) -> offset in the file
        # In an ASCII file a column is a character count: at() adds it to
        # its line's start, up to the line's end (Reader.offset), without
        # a call or a table.
        self._line_starts = reader.line_starts
        self._line_ends = [start + len(line) for start, line in zip(reader.line_starts, reader.lines_bytes)] \
            if reader.source.isascii() else None
        self.calls = 0               # CUDA calls lowered
        self.driver_calls = 0        # of which driver API calls
        self.host_memory_calls = 0   # ctypes.memmove / memset written as C's
        self.names = []              # (offset, C name, Python name): python_name()
        self.thunks = []
        self.python_exit = []        # (call MStr, at) of Python exit handlers (exit_handler)
        self.global_objects = {}     # module global -> its class
        self.constants = {}          # module constant -> its int value
        self.want_tuple = None       # the call a tuple assignment unpacks
        self.out_targets = {}        # out ordinal -> the lvalue Val it is unpacked into
        self.kernels = {}            # name -> (FunctionDef, stream index) of a decorated kernel
        self.launched = set()        # kernels launched by lowered code
        self._qualnames = {}         # id(node) -> the reader's qualname (nodes live as long as the tree)

    # --- what the file binds ------------------------------------------------------

    def qualname(self, expr):
        """The reader's qualified name of expr, computed once per node."""
        memo = self._qualnames
        key = id(expr)
        q = memo.get(key, memo)
        if q is memo:
            q = memo[key] = self.r.qualname(expr)
        return q

    def binding_module(self, q):
        """(module, library, convention) of a qualified name's module."""
        if not q:
            return None
        head, _, name = q.rpartition('.')
        if head in self.model.bindings:
            lib, conv = self.model.bindings[head]
            return head, lib, conv
        return None

    def ctypes_library(self, call):
        """Runtime or Driver for a call that loads libcudart or libcuda with
        ctypes; None otherwise."""
        q = self.qualname(call.func) or ''
        if not (q in ('ctypes.CDLL', 'ctypes.cdll.LoadLibrary', 'ctypes.PyDLL', 'ctypes.WinDLL',
                      'ctypes.windll.LoadLibrary')):
            return None
        if not call.args:
            return None
        a = call.args[0]
        text = None
        v = self.r.eval(a)
        if isinstance(v, MStr):
            text = v.text
        elif isinstance(a, ast.Call) and (self.qualname(a.func) or '') == 'ctypes.util.find_library' \
                and a.args:
            w = self.r.eval(a.args[0])
            text = ('lib' + w.text) if isinstance(w, MStr) else None
        else:
            # a path chosen at run time: the library the enclosing function
            # names (a loader that tries libcudart.so, libcudart.so.12, ...)
            text = self.r.segment(a) or ''
            f = self.r.scope_of(call)
            if 'cudart' not in text and 'libcuda' not in text and isinstance(f, ast.FunctionDef):
                body = self.r.segment(f) or ''
                runtime, driver = 'libcudart' in body, 'libcuda.' in body or "libcuda'" in body or \
                    'libcuda"' in body
                text = 'cudart' if runtime and not driver else 'libcuda' if driver and not runtime else ''
        if not text:
            return None
        if 'cudart' in text:
            return 'Runtime'
        lib = self.model.library_file(text)
        if lib is not None:
            return lib
        if 'libcuda' in text or 'nvcuda' in text or text.strip('\'"') == 'libcuda':
            return 'Driver'
        return None

    def collect(self):
        r = self.r
        for stmt in r.tree.body:
            if isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = stmt
            elif isinstance(stmt, (ast.FunctionDef,)):
                self.functions[stmt.name] = stmt
        # kernels and device functions of a decorator (@cuda.jit) are
        # device code: a kernel is a stub its launches call
        for name, f in list(self.functions.items()):
            k = self.kernel_decorator(f) if f.decorator_list else None
            if k is not None:
                del self.functions[name]
                if k != 'device':
                    self.kernels[name] = (f, k)
        # a class is lowered only under its own name, and once
        for name in list(self.classes):
            if cxx_name(name) != name or name in self.functions or name == 'cuda_tidy_py':
                del self.classes[name]
        # CDLL handles: names and self attributes bound to them.
        self.handle_names = {}       # (scope node, name) -> library
        self.handle_attrs = {}       # attribute name (self.X) -> library
        loaders = {}
        # the file's nodes by type, once: these loops, and later questions
        # about the whole file (status_params), read only their types
        file_nodes = self.by_type(r.nodes)
        file_calls = file_nodes.get(ast.Call, _NO_NODES)
        for node in file_calls:
            if isinstance(r.parents.get(node), ast.Return):
                lib = self.ctypes_library(node)
                f = r.scope_of(node)
                if lib and isinstance(f, ast.FunctionDef) and r.scope_of(f) is r.tree:
                    loaders[f.name] = lib
        for node in file_calls:
            lib = self.ctypes_library(node)
            if lib is None and isinstance(node.func, ast.Name) and not node.args and \
                    node.func.id in loaders:
                lib = loaders[node.func.id]
            parent = r.parents.get(node)
            if lib and isinstance(parent, ast.Assign):
                for t in parent.targets:
                    if isinstance(t, ast.Name):
                        self.handle_names[(r.tree if self.is_global(t) else r.scope_of(t), t.id)] = lib
                    elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and \
                            t.value.id == 'self':
                        self.handle_attrs[t.attr] = lib
        arrays = self.model.arrays
        for node in file_calls:
            if self.binding_of(node) is not None:
                return True
            if arrays:
                head, _, name = (self.qualname(node.func) or '').rpartition('.')
                if (head, name) in arrays:
                    return True
        if self.kernels:
            for node in file_nodes.get(ast.Subscript, _NO_NODES):
                if isinstance(node.value, ast.Name) and node.value.id in self.kernels:
                    return True
        return False

    def loads_library(self, name):
        """Whether the file loads with ctypes the library that defines name."""
        if not self.__dict__.get('_loads'):
            src = self.r.source
            self._loads = {'Runtime': 'ctypes' in src and 'cudart' in src,
                           'Driver': 'ctypes' in src and 'libcuda' in src}
        return self._loads['Runtime' if name.startswith('cuda') else 'Driver']

    def is_global(self, name_node):
        scope = self.r.scope_of(name_node)
        if scope is self.r.tree:
            return True
        for n in self.walk(scope):
            if isinstance(n, ast.Global) and name_node.id in n.names:
                return True
        return False

    def handle_of(self, expr):
        """The library of a ctypes handle expression, or None."""
        r = self.r
        if isinstance(expr, ast.Name):
            return self.handle_names.get((r.scope_of(expr), expr.id)) or \
                self.handle_names.get((r.tree, expr.id))
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and \
                expr.value.id == 'self':
            return self.handle_attrs.get(expr.attr)
        if isinstance(expr, ast.Call):
            return self.ctypes_library(expr)
        return None

    def binding_of(self, call):
        """(CUDA function, convention, row) for a call through a binding:
        convention 'Status', 'ErrorTuple' or 'Raises'; row: the
        CUDA_PYTHON_CALL row's (function, args, result) or None."""
        memo = self.__dict__.setdefault('_bindings', {})
        key = id(call)
        if key not in memo:
            memo[key] = self._binding_of(call)
        return memo[key]

    def _binding_of(self, call):
        func = call.func
        if isinstance(func, ast.Subscript) and isinstance(func.slice, ast.Constant) and \
                isinstance(func.slice.value, str) and func.slice.value in self.model.api and \
                self.loads_library(func.slice.value):
            # a table of the library's functions by name (funcs["cudaMalloc"])
            name = func.slice.value
            return name, self.model.ctypes['Runtime' if name.startswith('cuda') else 'Driver'], None
        if not isinstance(func, ast.Attribute):
            q = self.qualname(func)
            if q:
                head, _, name = q.rpartition('.')
                row = self.model.calls.get((head, name))
                if row:
                    return row[0], 'Raises', row
            return self.bare_binding(func, q) if isinstance(func, ast.Name) else None
        name = func.attr
        lib = self.handle_of(func.value)
        if lib is not None:
            # libcuda exports the current ABI under versioned names
            # (cuMemAlloc_v2, cuCtxPushCurrent_v2): the function they version
            if name not in self.model.api:
                name = strip_version(name)
            if name in self.model.api and lib in self.model.ctypes:
                if self.model.library_of(name) == lib:
                    return name, self.model.ctypes[lib], None
            return None
        q = self.qualname(func)
        b = self.binding_module(q)
        if b is not None:
            if name in self.model.api:
                return name, b[2], None
            return None
        g = self.generated_binding(func, q)
        if g is not None:
            return g
        if q:
            head, _, n = q.rpartition('.')
            row = self.model.calls.get((head, n))
            if row:
                return row[0], 'Raises', row
            # pycuda.driver.Context.pop(): a class method through the module
            head2, _, cls = head.rpartition('.')
            row = self.model.calls.get((head2, cls + '.' + n))
            if row and 'self' not in row[1]:
                return row[0], 'Raises', row
        return None

    # --- functions of the file that return what a CUDA call made ---------------

    def call_result(self, f, cls):
        """The kind a call of the file's function (or method of class cls)
        f has: 'void', a C type (return_kind), or 'any'."""
        if not self.returns_value(f):
            return 'void'
        return self.return_kind(f, cls)

    def return_kind(self, f, cls):
        """The C type of what f returns when every return statement returns
        a local of one pointer or handle type (or None): a wrapper of an
        allocation (`p = c_void_p(); check(cudart.cudaMalloc(byref(p), n));
        return p`) then gives its caller the memory, whose leak and free the
        checks follow through the call as in a .cu file. 'any' otherwise,
        and before the module's kinds are known."""
        if not getattr(self, '_kinds_ready', False):
            return 'any'
        memo = self.__dict__.setdefault('_return_kinds', {})
        key = id(f)
        if key in memo:
            return memo[key]
        memo[key] = 'any'  # a recursive call sees 'any'
        sc = self.function_scope(f, cls)
        nodes = self.scope_nodes(f)
        self.infer(sc, nodes)
        sc.inferred = True
        kind = None
        kept = self.kept_elsewhere(nodes)
        for n in nodes:
            if type(n) is not ast.Return or n.value is None:
                continue
            if isinstance(n.value, ast.Name) and n.value.id in kept:
                kind = 'any'
                break
            v = n.value
            if isinstance(v, ast.Constant) and v.value is None:
                k = 'none'
            elif isinstance(v, ast.Name) and v.id in sc.kinds and v.id not in sc.globals_ and \
                    v.id not in self.param_set(f):
                k = sc.kinds[v.id]
            else:
                kind = 'any'
                break
            kind = merge(kind, k)
            if kind == 'any':
                break
        if kind is not None and kind != 'any' and self.made_by_cuda(kind):
            memo[key] = kind
        elif kind in NUMERIC and cls is None and self.unreferenced(f):
            # a number, from a module function that nothing in the file
            # calls or names: its type changes no caller's code
            memo[key] = kind
        return memo[key]

    def unreferenced(self, f):
        """Whether no Name of the file names module function f."""
        names = self.__dict__.get('_file_names')
        if names is None:
            names = self._file_names = {n.id for n in self.by_type(self.r.nodes).get(ast.Name, _NO_NODES)}
        return self.functions.get(f.name) is f and f.name not in names

    STORING_METHODS = ('append', 'extend', 'add', 'insert', 'setdefault', 'put', 'push', 'update')

    def kept_elsewhere(self, nodes):
        """Locals that the function also stores in an object or a container
        (`self.blocks.append(p)`, `self.p = p`, `cache[k] = p`): a pool keeps
        them, so a caller does not own them alone."""
        kept = set()
        nodes = self.by_type(nodes)
        for n in nodes.get(ast.Assign, _NO_NODES):
            if isinstance(n.value, ast.Name) and \
                    any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in n.targets):
                kept.add(n.value.id)
        for n in nodes.get(ast.Call, _NO_NODES):
            if isinstance(n.func, ast.Attribute) and n.func.attr in self.STORING_METHODS:
                kept.update(a.id for a in n.args if isinstance(a, ast.Name))
        return kept

    def made_by_cuda(self, kind):
        """Whether a value of kind may hold memory or a handle that a CUDA
        call made: a C pointer, a driver pointer, a stream or event."""
        if kind.startswith(('obj:', 'py:', 'lib:')) or kind in ('none', 'any') or kind in NUMERIC:
            return False
        if kind.endswith('*') or kind in HANDLE_TYPES.values() or kind == 'CUdeviceptr':
            return True
        if kind.startswith('cuda_tidy_host::out_t<decltype(&'):
            fn = strip_version(kind[len('cuda_tidy_host::out_t<decltype(&'):].partition(')')[0])
            return fn in self.model.alloc or self.model.resource.get(fn, ('', '', ''))[2] == 'Create'
        return False

    def typed_return(self, scope):
        """Whether the function of scope returns a typed value (return_kind)."""
        return not scope.module and isinstance(scope.owner, ast.FunctionDef) and \
            self.returns_value(scope.owner) and self.return_kind(scope.owner, scope.cls) != 'any'

    def typed_return_stmt(self, scope, s, out, ctx):
        """Writes `return p;` for a return of a local of a function whose
        return_kind is typed, when no finally body or __exit__ runs on the
        way out (the caller then holds what p holds, as the checks' wrapper
        summaries read it). False when the statement is not one."""
        v = s.value
        if not isinstance(v, (ast.Name, ast.Constant)) or any(e[0] not in ('loop', 'except') for e in ctx) or \
                not self.typed_return(scope):
            return False
        if isinstance(v, ast.Constant):
            if v.value is not None:
                return False
            out.syn('  return 0;\n', 0, self.at(s))
            return True
        look = self.lookup(scope, v.id)
        if look is None or v.id not in scope.kinds:
            return False
        at = self.at(s)
        out.add(self.join(at, '  return ', self.name_text(v.id, look[0], v), ';\n'))
        return True

    def direct_result_kind(self, scope, e):
        """The typed result of a call of the file's function or of a method
        of an object of a lowered class; None when it is not one."""
        if e.keywords or any(isinstance(a, ast.Starred) for a in e.args):
            return None
        if isinstance(e.func, ast.Name):
            name = e.func.id
            if name in self.functions and self.lookup(scope, name) is None:
                f = self.functions[name]
                if self.plain_function(f) and self.arity_ok(f, len(e.args), False):
                    k = self.call_result(f, None)
                    return k if k not in ('any', 'void') else None
            return None
        base = self.kind_of(scope, e.func.value)
        if base.startswith('obj:'):
            cls = base[4:]
            m = self.method(cls, e.func.attr)
            if m is not None and self.method_ok(m) and self.arity_ok(m, len(e.args), True):
                k = self.call_result(m, cls)
                return k if k not in ('any', 'void') else None
        return None

    # --- generated ctypes binding modules (CUDA_PYTHON_GENERATED_MODULE) ----------

    def generated_binding(self, func, q):
        """(CUDA function, 'Status', None) for `M.cuX(...)` where M is a
        generated ctypes binding module of the project; None otherwise."""
        generated = self.model.generated
        if not generated or not isinstance(func.value, ast.Name):
            return None
        name = func.attr
        fn = name if name in self.model.api else strip_version(name)
        if fn not in self.model.api:
            return None
        lib = self.model.library_of(fn)
        if lib not in self.model.ctypes:
            return None
        if q:
            # an absolute import: of a package that no other row binds
            module = q.rpartition('.')[0]
            if not self.foreign_module(module):
                return None
        else:
            # a relative import: a module of the project itself
            rel = self.r.relative.get(func.value.id)
            if rel is None or self.locally_bound(self.r.scope_of(func), func.value.id):
                return None
            module = rel[2]
        if module.rpartition('.')[2] not in generated:
            return None
        return fn, self.model.ctypes[lib], None

    def foreign_module(self, module):
        """Whether module belongs to no package that a row of the model
        binds (cuda-python's cuda, pycuda, cupy, numba)."""
        memo = self.__dict__.get('_owned_roots')
        if memo is None:
            memo = set(m.partition('.')[0] for m in self.model.bindings)
            memo.update(m.partition('.')[0] for m, _ in self.model.calls)
            memo.update(m.partition('.')[0] for m, _ in self.model.arrays)
            self._owned_roots = memo
        return module.partition('.')[0] not in memo and module not in self.model.bindings

    # --- CUDA functions called by a bare name -------------------------------------

    def bare_binding(self, func, q):
        """(CUDA function, convention, None) for a call of a bare name that
        is a binding's CUDA function: imported from a binding module
        (`from cuda.bindings.driver import cuInit`, also `import *`, as a
        generated binding module's users do), or bound at module level to a
        function of a ctypes handle (`cuInit = _libcuda.cuInit`,
        `getattr(_libcuda, "cuInit")`). None when the name is a function or
        class of the file, or a local of the function that calls it."""
        name = func.id
        if name in self.functions or name in self.classes:
            return None
        if q:
            head, _, fn = q.rpartition('.')
            b = self.binding_module(q)
            if b is not None and fn in self.model.api and head != '':
                return fn, b[2], None
            return None
        if self.locally_bound(self.r.scope_of(func), name):
            return None
        alias = self.function_aliases().get(name)
        if alias is not None:
            fn, lib = alias
            return fn, self.model.ctypes[lib], None
        if name in self.model.api:
            for module in self.star_bindings():
                lib, conv = self.model.bindings[module]
                if (lib == 'Runtime') == name.startswith('cuda'):
                    return name, conv, None
        return None

    def star_bindings(self):
        """Binding modules the file imports with `from M import *`."""
        memo = self.__dict__.get('_stars')
        if memo is None:
            memo = self._stars = [s.module for s in self.r.tree.body
                                  if isinstance(s, ast.ImportFrom) and not s.level and
                                  s.module in self.model.bindings and
                                  any(a.name == '*' for a in s.names)]
        return memo

    def function_aliases(self):
        """Module names bound once, at module level, to a CUDA function of a
        ctypes handle: name -> (CUDA function, library)."""
        memo = self.__dict__.get('_fn_aliases')
        if memo is not None:
            return memo
        memo = self._fn_aliases = {}
        seen = {}
        for s in self.r.tree.body:
            if not isinstance(s, ast.Assign):
                continue
            for t in s.targets:
                if isinstance(t, ast.Name):
                    seen[t.id] = seen.get(t.id, 0) + 1
            if len(s.targets) != 1 or not isinstance(s.targets[0], ast.Name):
                continue
            v, fn, handle = s.value, None, None
            if isinstance(v, ast.Attribute):
                fn, handle = v.attr, v.value
            elif isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == 'getattr' and \
                    len(v.args) == 2 and isinstance(v.args[1], ast.Constant) and \
                    isinstance(v.args[1].value, str):
                fn, handle = v.args[1].value, v.args[0]
            if fn is not None and fn not in self.model.api:
                fn = strip_version(fn)
            if fn is None or fn not in self.model.api:
                continue
            lib = self.handle_of(handle)
            if lib in self.model.ctypes and (lib == 'Runtime') == fn.startswith('cuda'):
                memo[s.targets[0].id] = (fn, lib)
        for name in [n for n in memo if seen.get(n, 0) != 1]:
            del memo[name]
        return memo

    def locally_bound(self, scope_node, name):
        """Whether name is a parameter or an assigned local of the function
        scope_node (not the module)."""
        if scope_node is self.r.tree:
            return False
        memo = self.__dict__.setdefault('_local_names', {})
        names = memo.get(id(scope_node))
        if names is None:
            names = set()
            a = getattr(scope_node, 'args', None)
            if a is not None:
                names.update(x.arg for x in a.args + a.kwonlyargs + a.posonlyargs)
                names.update(x.arg for x in (a.vararg, a.kwarg) if x is not None)
            nodes = self.by_type(self.walk(scope_node))
            names.update(n.id for n in nodes.get(ast.Name, _NO_NODES) if isinstance(n.ctx, ast.Store))
            for t in (ast.Import, ast.ImportFrom):
                for n in nodes.get(t, _NO_NODES):
                    names.update((x.asname or x.name).partition('.')[0] for x in n.names)
            memo[id(scope_node)] = names
        return name in names

    def method_row(self, cls, name):
        """The CUDA_PYTHON_CALL row of method name of a library's class cls."""
        for mod in METHOD_MODULES:
            row = self.model.calls.get((mod, cls + '.' + name))
            if row:
                return row
        return None

    # --- Numba (CUDA_PYTHON_ARRAY, _ARRAY_COPY, _KERNEL rows) ---------------------

    def kernel_decorator(self, f):
        """The stream subscript index of a kernel decorator of f (@cuda.jit,
        @cuda.jit(...)); 'device' for a device function; None otherwise."""
        for d in f.decorator_list:
            call = d if isinstance(d, ast.Call) else None
            q = self.qualname(call.func if call else d) or ''
            head, _, name = q.rpartition('.')
            if (head, name) in self.model.kernels:
                for kw in (call.keywords if call else ()):
                    if kw.arg == 'device' and not (isinstance(kw.value, ast.Constant) and
                                                   kw.value.value is False):
                        return 'device'
                return self.model.kernels[(head, name)]
        return None

    def kernel_access(self, f):
        """(read, written) parameter names of a kernel's Python body."""
        params = [a.arg for a in f.args.args]
        read, written = set(), set()
        for n in self.walk(f):
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in params:
                (written if isinstance(n.ctx, ast.Store) else read).add(n.value.id)
                parent = self.r.parents.get(n)
                if isinstance(parent, ast.AugAssign) and parent.target is n:
                    read.add(n.value.id)
            elif isinstance(n, ast.Call):
                q = self.qualname(n.func) or ''
                if isinstance(n.func, ast.Name) and n.func.id in ('len', 'range', 'min', 'max', 'abs',
                                                                   'int', 'float', 'bool'):
                    continue
                if q.startswith('numba.cuda.') and not q.startswith('numba.cuda.atomic.'):
                    continue
                # an atomic, or a device function: may read and write
                for a in n.args:
                    if isinstance(a, ast.Name) and a.id in params:
                        read.add(a.id)
                        written.add(a.id)
        return read, written

    def array_call(self, scope, e, need_size=True):
        """(space, form, size MStr, element type, stream node) of a call of a
        CUDA_PYTHON_ARRAY row whose size the lowering knows; None otherwise."""
        q = self.qualname(e.func) or ''
        head, _, name = q.rpartition('.')
        row = self.model.arrays.get((head, name))
        if row is None or not e.args or any(isinstance(a, ast.Starred) for a in e.args):
            return None
        space, form = row
        if form == 'Context':
            return None  # with cuda.pinned(...): pinned_context()
        at = self.at(e)
        stream = None
        if form == 'Shape':
            dt = e.args[1] if len(e.args) > 1 else None
            for kw in e.keywords:
                if kw.arg == 'dtype':
                    dt = kw.value
                elif kw.arg == 'strides':
                    return None
            if dt is None:
                elem, dt = 'double', e
            else:
                dq = self.qualname(dt) or ''
                dname = dq.rpartition('.')[2] if dq.startswith('numpy.') else (
                    dt.value if isinstance(dt, ast.Constant) and isinstance(dt.value, str) else None)
                elem = ELEMENT_TYPES.get(dname)
                if elem is None:
                    return None
            count = e.args[0]
            shape = count.elts if isinstance(count, (ast.Tuple, ast.List)) else [count]
            if not shape or any(self.kind_of(scope, x) != 'long long' for x in shape):
                return None
            pieces = []
            for x in shape:
                simple = isinstance(x, (ast.Name, ast.Constant))
                pieces += ['' if simple else '(', self.expr(scope, x).m, ' * ' if simple else ') * ']
            pieces.append(self.syn('sizeof(%s)' % elem, dt))
            return space, form, self.join(at, *pieces), elem, None
        src = e.args[0]
        kind = self.kind_of(scope, src)
        if form == 'Upload':
            stream = e.args[1] if len(e.args) > 1 else None
            for kw in e.keywords:
                if kw.arg == 'stream':
                    stream = kw.value
                elif kw.arg in ('copy', 'to'):
                    return None
        if form == 'Like' and not (kind.endswith(' *') and kind != 'void *'):
            return None
        # of an array whose element type or size the lowering does not
        # know: bytes, of an unknown count
        elem = kind[:-2] if kind.endswith(' *') and kind != 'void *' else 'char'
        if not (isinstance(src, ast.Name) and src.id in scope.sizes):
            return (space, form, None if not need_size else
                    self.join(at, '(size_t)', self.opaque(e, []).m), elem, stream)
        return space, form, self.join(at, '(', scope.sizes[src.id], ')'), elem, stream

    def stream_arg(self, scope, node):
        """The lowered stream of a Numba call or launch: None for the
        default (none given, or 0: the call waits), else a cudaStream_t."""
        if node is None or isinstance(node, ast.Constant) and node.value in (0, None, False):
            return None
        v = self.expr(scope, node)
        if ctype_of(v.kind) == 'cudaStream_t':
            return v.m
        return self.join(self.at(node), '(cudaStream_t)' + ANY + '(', v.m, ')')

    def raising(self, at, *call):
        """A call that raises on error: its status is tested."""
        self.calls += 1
        return self.join(at, '  if (', *call, ' != cudaSuccess) cuda_tidy_host::raise();\n')

    def array_copy(self, scope, e, out):
        """d.copy_to_host(h[, stream]) / d.copy_to_device(h[, stream]) of a
        device array of CUDA_PYTHON_ARRAY as a statement: True when
        written."""
        f = e.func
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and
                scope.array_space.get(f.value.id) == 'Device' and f.value.id in scope.sizes):
            return False
        row = None
        for (mod, method), r in self.model.array_copies.items():
            if method == f.attr:
                row = r
        if row is None or any(isinstance(a, ast.Starred) for a in e.args):
            return False
        direction, targets, stream_at = row
        target = e.args[int(targets[0])] if int(targets[0]) < len(e.args) else None
        stream = e.args[stream_at] if stream_at < len(e.args) else None
        for kw in e.keywords:
            if kw.arg == 'stream':
                stream = kw.value
            elif kw.arg == 'ary':
                target = kw.value
            else:
                return False
        if target is None:
            return False
        h = self.expr(scope, target)
        if not h.kind.endswith(' *') or h.kind == 'void *':
            h = Val(self.join(self.at(target), '(void *)' + ANY + '(', h.m, ')'), 'void *')
        d = self.expr(scope, f.value)
        size = scope.sizes[f.value.id]
        st = self.stream_arg(scope, stream)
        dst, src = (h.m, d.m) if direction == 'DeviceToHost' else (d.m, h.m)
        at = self.at(e)
        kind = 'cudaMemcpy' + direction
        callee = MStr.anchored('cudaMemcpyAsync' if st else 'cudaMemcpy', 0, self.at(self.attr_node(f)))
        if st:
            out.add(self.raising(at, callee, '(', dst, ', ', src, ', ', size, ', %s, ' % kind, st, ')'))
        else:
            out.add(self.raising(at, callee, '(', dst, ', ', src, ', ', size, ', %s)' % kind))
        return True

    def pinned_context(self, scope, e, out, exits):
        """with cuda.pinned(a, b): the host arrays registered (page-locked)
        for the block and unregistered after it (CUDA_PYTHON_ARRAY row of
        Space Registered); True when written."""
        if not isinstance(e, ast.Call) or e.keywords or not e.args:
            return False
        head, _, name = (self.qualname(e.func) or '').rpartition('.')
        if self.model.arrays.get((head, name)) != ('Registered', 'Context'):
            return False
        arrays = []
        for a in e.args:
            if not (isinstance(a, ast.Name) and a.id in scope.sizes):
                return False
            v = self.expr(scope, a)
            if not v.kind.endswith(' *') or v.kind == 'void *':
                return False
            arrays.append((a, v))
        at = self.at(e)
        for a, v in arrays:
            out.add(self.raising(at, 'cudaHostRegister(', v.m, ', ', scope.sizes[a.id], ', 0)'))
            exits.append(self.raising(at, 'cudaHostUnregister(', v.m, ')'))
        return True

    def download(self, scope, t, e, out, s):
        """h = d.copy_to_host([stream=s]): a new pageable host array (the
        'new' target of CUDA_PYTHON_ARRAY_COPY), then the copy into it."""
        f = e.func
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and
                scope.array_space.get(f.value.id) == 'Device' and f.value.id in scope.sizes):
            return False
        row = [r for (mod, method), r in self.model.array_copies.items() if method == f.attr]
        if not row or 'new' not in row[0][1] or e.args or any(k.arg != 'stream' for k in e.keywords):
            return False
        tv = self.expr(scope, t)
        d = self.expr(scope, f.value)
        if not tv.lvalue or tv.kind != d.kind:
            return False
        at = self.at(s)
        size = scope.sizes[f.value.id]
        if scope.declared_at.get(t.id) is s:
            out.add(self.join(at, '  %s ' % ctype_of(tv.kind), tv.m, '{};\n'))
        self.python_name(at, 'malloc', f)
        out.add(self.join(at, '  ', tv.m, ' = (%s)::malloc(' % tv.kind, size, ');\n'))
        if getattr(scope, 'assigned', {}).get(t.id) == 1:
            scope.sizes[t.id] = size
        scope.array_space.pop(t.id, None)
        st = self.stream_arg(scope, e.keywords[0].value if e.keywords else None)
        callee = MStr.anchored('cudaMemcpyAsync' if st else 'cudaMemcpy', 0, self.at(self.attr_node(f)))
        if st:
            out.add(self.raising(at, callee, '(', tv.m, ', ', d.m, ', ', size,
                                 ', cudaMemcpyDeviceToHost, ', st, ')'))
        else:
            out.add(self.raising(at, callee, '(', tv.m, ', ', d.m, ', ', size, ', cudaMemcpyDeviceToHost)'))
        return True

    def launch(self, scope, e, out):
        """kernel[grid, block, stream](args) of a kernel of the file as a
        statement: True when written."""
        f = e.func
        if not (isinstance(f, ast.Subscript) and isinstance(f.value, ast.Name) and
                f.value.id in self.kernels and self.lookup(scope, f.value.id) is None) or e.keywords \
                or any(isinstance(a, ast.Starred) for a in e.args):
            return False
        kf, stream_at = self.kernels[f.value.id]
        if len(e.args) != len(kf.args.args) or kf.args.vararg or kf.args.defaults:
            return False
        config = f.slice.elts if isinstance(f.slice, ast.Tuple) else [f.slice]
        if len(config) < 2:
            return False
        at = self.at(e)
        stream = self.stream_arg(scope, config[stream_at] if stream_at < len(config) else None)
        for c in config:
            if self.has_binding_call(c):
                out.add(self.join(at, '  ', self.opaque(c, [self.expr(scope, c)]).m, ';\n'))
        pieces = [self.name_text(f.value.id, cxx_name(f.value.id), f.value),
                  '<<<1, 1' + (', 0, ' if stream else '')]
        if stream:
            pieces.append(stream)
        pieces.append('>>>(')
        for k, a in enumerate(e.args):
            if k:
                pieces.append(', ')
            v = self.expr(scope, a)
            space = scope.array_space.get(a.id) if isinstance(a, ast.Name) else None
            # device, mapped and managed memory is the kernel's; a pinned
            # host array is copied in and out on the stream; other host
            # memory is copied before the launch returns
            if space in ('Device', 'Mapped', 'Managed') or space == 'Pinned' and stream or \
                    v.kind in NUMERIC:
                pieces.append(v.m)
            else:
                pieces.append(self.opaque(a, [v]).m)
        pieces.append(');\n')
        out.add(self.join(at, '  ', *pieces))
        self.calls += 1
        self.launched.add(f.value.id)
        return True

    def kernel_stub(self, name, f):
        """template <...> __global__ void name(...) whose body reads and
        writes the parameters the Python kernel reads and writes."""
        read, written = self.kernel_access(f)
        params = [a.arg for a in f.args.args]
        at = self.at(f)
        body = []
        for p in params:
            if p in written:
                body.append('cuda_tidy_host::device_write(%s); ' % cxx_name(p))
            if p in read:
                body.append('cuda_tidy_host::device_read(%s); ' % cxx_name(p))
        text = 'template <%s> __global__ void %s(%s) { %s}\n' % (
            ', '.join('class T%d' % k for k in range(len(params))), cxx_name(name),
            ', '.join('T%d %s' % (k, cxx_name(p)) for k, p in enumerate(params)), ''.join(body))
        return MStr.anchored(text, 0, at)

    # --- text --------------------------------------------------------------------

    def at(self, node):
        ends = self._line_ends
        if ends is not None:
            line = node.lineno - 1
            at = self._line_starts[line] + node.col_offset
            end = ends[line]
            return at if at <= end else end
        key = (node.lineno, node.col_offset)
        at = self._at.get(key)
        if at is None:
            at = self._at[key] = self.r.offset(*key)
        return at

    def syn(self, text, node_or_at):
        at = node_or_at if isinstance(node_or_at, int) else self.at(node_or_at)
        return MStr.anchored(text, 0, at)

    def join(self, at, *parts):
        for p in parts:
            if type(p) is not str:
                break
        else:
            # only written text: one run anchored at `at`, as a builder makes it
            return MStr.anchored(''.join(parts), 0, at)
        return MStrJoin(at, parts)

    def name_text(self, pyname, cname, node):
        """A name at node: byte for byte when the C++ name is the Python one."""
        at = self.at(node)
        if cname == pyname and self.r.source.startswith(pyname, at):
            return MStr.exact(cname, 0, at)
        return MStr.anchored(cname, 0, at)

    def opaque(self, node, parts=()):
        """cuda_tidy_host::call(parts...): an unknown value that still
        evaluates the lowered parts (binding calls inside it run)."""
        at = self.at(node)
        pieces = ['cuda_tidy_host::call(']
        for k, p in enumerate(parts):
            if k:
                pieces.append(', ')
            if p.kind == 'void':
                pieces.extend(['(', p.m, ', ' + ANY + '())'])
            else:
                pieces.append(p.m)
        pieces.append(')')
        return Val(self.join(at, *pieces), 'any')

    # --- kinds of names ----------------------------------------------------------

    def lookup(self, scope, name):
        """(C++ text name, kind) of a Python name read in scope; None if not a variable."""
        if name in scope.kinds and name not in scope.globals_:
            return scope.cnames[name], scope.kinds[name]
        ms = self.module_scope
        if name in ms.kinds:
            return ms.cnames[name], ms.kinds[name]
        return None

    def infer(self, scope, body_nodes):
        """Kinds of the names a scope assigns, in source order."""
        targets = []
        calls = []
        for node in self.infer_nodes(body_nodes):
            t = type(node)
            if t is ast.Call:
                calls.append(node)
            elif t is ast.Global:
                scope.globals_.update(node.names)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                value = node.value
                tlist = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in tlist:
                    targets.append((node.lineno, node.col_offset, t, value, node))
            elif isinstance(node, ast.AugAssign):
                targets.append((node.lineno, node.col_offset, node.target, node, node))
            elif t is ast.NamedExpr and self.byref_walrus(node):
                # `ctypes.byref(prog := lib.nvrtcProgram())`: prog is a local
                targets.append((node.lineno, node.col_offset, node.target, node.value, node))
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                targets.append((node.lineno, node.col_offset, node.target, node, node))
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                targets.append((node.optional_vars.lineno, node.optional_vars.col_offset,
                                node.optional_vars, node, node))
        targets.sort(key=lambda t: (t[0], t[1]))
        scope.assigned = {}
        for _, _, t, value, stmt in targets:
            if isinstance(t, ast.Name):
                scope.assigned[t.id] = scope.assigned.get(t.id, 0) + 1
            self.bind_kinds(scope, t, value, stmt)
        # names whose address a CUDA call takes as an out-parameter
        for node in calls:
            self.out_param_kinds(scope, node)

    def bind_kinds(self, scope, target, value, stmt):
        if isinstance(target, ast.Name):
            if target.id in scope.globals_ and not scope.module:
                return
            if isinstance(value, ast.AugAssign):
                k = self.kind_of(scope, value.value)
                k = ACCUMULATED.get(k, k)
                k = merge(scope.kinds.get(target.id), k if k in NUMERIC else 'any')
            elif isinstance(value, (ast.For, ast.AsyncFor)):
                it = value.iter
                k = 'long long' if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and \
                    it.func.id == 'range' and it.args and len(it.args) <= 2 else 'any'
            elif isinstance(value, ast.withitem):
                k = self.with_kind(scope, value)
            elif value is None:
                k = 'any'
            else:
                k = self.kind_of(scope, value)
                prev = scope.kinds.get(target.id)
                if isinstance(value, ast.Constant) and type(value.value) is int and value.value == 0 and \
                        prev and prev.startswith('cuda_tidy_host::out_t<') and self.made_by_cuda(prev):
                    # `info = 0` after destroying a handle: a null handle
                    k = prev
            self.set_kind(scope, target.id, k)
        elif isinstance(target, (ast.Tuple, ast.List)):
            # err, value = cuda-python call
            outs = self.tuple_kinds(scope, value) if isinstance(value, ast.Call) and \
                not isinstance(stmt, (ast.For, ast.AsyncFor, ast.withitem)) else None
            for k, e in enumerate(target.elts):
                if isinstance(e, ast.Name):
                    kind = outs[k] if outs is not None and k < len(outs) else 'any'
                    if e.id in scope.globals_ and not scope.module:
                        continue
                    self.set_kind(scope, e.id, kind)
                elif isinstance(e, ast.Starred):
                    return
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
                target.value.id == 'self' and scope.cls:
            members = self.class_members.setdefault(scope.cls, {})
            k = self.kind_of(scope, value) if isinstance(value, ast.expr) else 'any'
            members[target.attr] = merge(members.get(target.attr), k)

    def with_kind(self, scope, item):
        k = self.kind_of(scope, item.context_expr)
        if k.startswith('obj:') and self.enter_returns_self(k[4:]):
            return k
        return 'any'

    def enter_returns_self(self, cls):
        enter = self.method(cls, '__enter__')
        if enter is None:
            return True
        rets = [n for n in self.walk(enter) if isinstance(n, ast.Return)]
        return len(rets) == 1 and isinstance(rets[0].value, ast.Name) and rets[0].value.id == 'self'

    def set_kind(self, scope, name, kind):
        scope.kinds[name] = merge(scope.kinds.get(name), kind)
        scope.cnames[name] = cxx_name(name)

    def tuple_kinds(self, scope, call):
        b = self.binding_of(call)
        if not b or b[1] != 'ErrorTuple':
            return None
        fn = b[0]
        params, outs, _ = self.model.api[fn]
        if len(call.args) + len(outs) != params or call.keywords:
            return None
        return [self.model.status_of(fn)[0]] + [self.out_type(fn, i) for i in outs]

    def out_type(self, fn, index):
        """The C type of what out-parameter index of fn holds."""
        if fn in self.model.alloc and index == 0:
            lib, space = self.model.alloc[fn]
            return 'CUdeviceptr' if lib == 'Driver' and space != 'Pinned' else 'void *'
        if fn in self.model.resource:
            lib, res, role, handle = self.model.resource[fn]
            if role == 'Create' and handle == index and (lib, res) in HANDLE_TYPES:
                return HANDLE_TYPES[(lib, res)]
        params, outs, overloaded = self.model.api[fn]
        if overloaded:
            return 'any'
        return 'cuda_tidy_host::out_t<decltype(&%s), %d>' % (fn, index)

    def out_param_kinds(self, scope, call):
        b = self.binding_of(call)
        if not b or b[1] != 'Status':
            return
        fn = b[0]
        params, outs, _ = self.model.api[fn]
        for i in outs:
            if i < len(call.args):
                a = call.args[i]
                target = self.byref_target(a)
                if isinstance(target, ast.Name) and target.id in scope.kinds:
                    k = self.out_type(fn, i)
                    if scope.kinds[target.id] in ('void *', 'none', 'any') and k != 'any':
                        scope.kinds[target.id] = k
                elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
                        target.value.id == 'self' and scope.cls:
                    members = self.class_members.setdefault(scope.cls, {})
                    k = self.out_type(fn, i)
                    if members.get(target.attr) in ('void *', 'none', None) and k != 'any':
                        members[target.attr] = k

    def byref_target(self, a):
        if isinstance(a, ast.Call) and (self.qualname(a.func) or '') in ('ctypes.byref', 'ctypes.pointer') \
                and len(a.args) == 1:
            if self.byref_walrus(a.args[0]):
                return a.args[0].target
            return a.args[0]
        return None

    def byref_walrus(self, node):
        """Whether node is `name := T()` given to ctypes.byref: a fresh
        ctypes value (a handle type's null) bound to a local whose address
        a call fills in."""
        if not (isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name) and
                isinstance(node.value, ast.Call) and not node.value.args and
                not node.value.keywords):
            return False
        parent = self.r.parents.get(node)
        return isinstance(parent, ast.Call) and \
            (self.qualname(parent.func) or '') in ('ctypes.byref', 'ctypes.pointer')

    def kind_of(self, scope, e):
        """The kind an expression lowers to, without writing it."""
        if isinstance(e, ast.Constant):
            v = e.value
            if v is None:
                return 'none'
            if isinstance(v, bool):
                return 'bool'
            if isinstance(v, int):
                return 'long long'
            if isinstance(v, float):
                return 'double'
            return 'any'
        if isinstance(e, ast.Name):
            if e.id in ('True', 'False'):
                return 'bool'
            if e.id == 'self' and scope.cls and 'self' not in scope.kinds:
                return 'obj:' + scope.cls
            v = self.lookup(scope, e.id)
            return v[1] if v else 'any'
        if isinstance(e, ast.BinOp):
            a, b = self.kind_of(scope, e.left), self.kind_of(scope, e.right)
            if a in NUMERIC[:2] and b in NUMERIC[:2] and not isinstance(e.op, ast.Pow):
                if isinstance(e.op, ast.Div):
                    return 'double'
                return 'double' if 'double' in (a, b) else 'long long'
            return 'any'
        if isinstance(e, ast.UnaryOp):
            k = self.kind_of(scope, e.operand)
            if isinstance(e.op, ast.Not):
                return 'bool'
            return k if k in NUMERIC[:2] else 'any'
        if isinstance(e, (ast.Compare, ast.BoolOp)):
            return 'bool' if isinstance(e, ast.Compare) else 'any'
        if isinstance(e, ast.Attribute):
            if e.attr == 'value':
                k = self.kind_of(scope, e.value)
                return k if k != 'any' and not k.startswith(('obj:', 'py:', 'lib:')) else 'any'
            if isinstance(e.value, ast.Name) and e.value.id == 'self' and scope.cls:
                return self.class_members.get(scope.cls, {}).get(e.attr, 'any')
            base = self.kind_of(scope, e.value)
            if base.startswith('obj:'):
                return self.class_members.get(base[4:], {}).get(e.attr, 'any')
            if e.attr in ('nbytes', 'size') and base.endswith('*'):
                return 'long long'
            if e.attr == 'data' and isinstance(e.value, ast.Attribute) and e.value.attr == 'ctypes':
                return self.kind_of(scope, e.value.value)
            if self.cupy_pointer_base(scope, e) is not None:
                return 'char *'
            return 'any'
        if isinstance(e, ast.Subscript):
            base = self.kind_of(scope, e.value)
            if base.endswith('*') and base != 'void *' and not isinstance(e.slice, (ast.Slice, ast.Tuple)):
                return base[:-2]
            if self.array_interface_base(e) is not None:
                return self.kind_of(scope, self.array_interface_base(e))
            if isinstance(e.value, ast.Call) and isinstance(e.slice, ast.Constant) and \
                    type(e.slice.value) is int:
                kinds = self.tuple_kinds(scope, e.value)
                if kinds and e.slice.value < len(kinds):
                    return kinds[e.slice.value]
            return 'any'
        if isinstance(e, ast.Call):
            return self.call_kind(scope, e)
        return 'any'

    def call_kind(self, scope, e):
        r = self.r
        q = self.qualname(e.func) or ''
        last = q.rpartition('.')[2]
        if q.startswith('ctypes.') and last in CTYPES:
            return CTYPES[last]
        if q == 'ctypes.c_void_p':
            return 'void *'
        if q in ('ctypes.memmove', 'ctypes.memset') and len(e.args) == 3 and not e.keywords:
            return 'void *'
        if q == 'ctypes.cast' and len(e.args) == 2:
            ct = self.pointer_type(e.args[1])
            return ct + ' *' if ct else 'any'
        if q.startswith(('numpy.', 'cupy.')):
            arr = self.array_spec(scope, e)
            if arr:
                return arr[1] + ' *'
            if q.startswith('numpy.'):
                return 'any'
        if self.model.arrays and (q.rpartition('.')[0], last) in self.model.arrays:
            spec = self.array_call(scope, e, need_size=False)
            return spec[3] + ' *' if spec else 'any'
        if isinstance(e.func, ast.Attribute) and e.func.attr == 'copy_to_host' and not e.args and \
                all(k.arg == 'stream' for k in e.keywords) and isinstance(e.func.value, ast.Name):
            k = self.kind_of(scope, e.func.value)
            return k if k.endswith(' *') and k != 'void *' else 'any'
        if isinstance(e.func, ast.Name):
            if e.func.id in ('int', 'len'):
                return 'long long'
            if e.func.id == 'float':
                return 'double'
            if e.func.id in self.classes and e.func.id not in scope.kinds:
                return 'obj:' + e.func.id
            k = self.direct_result_kind(scope, e)
            if k is not None:
                return k
        elif isinstance(e.func, ast.Attribute):
            k = self.direct_result_kind(scope, e)
            if k is not None:
                return k
        b = self.binding_of(e)
        if b:
            fn, conv, row = b
            if conv == 'Status':
                return self.model.status_of(fn)[0]
            if conv == 'Raises' and row and row[2] == 'LibraryHandle' and 'out' in row[1]:
                return self.out_type(fn, row[1].index('out'))
            if conv == 'Raises' and row and row[2] != 'None':
                return 'py:' + row[2]
            return 'any'
        if isinstance(e.func, ast.Attribute):
            base = self.kind_of(scope, e.func.value)
            if base.startswith('py:'):
                row = self.method_row(base[3:], e.func.attr)
                if row and row[2] != 'None':
                    return 'py:' + row[2]
        return 'any'

    def pointer_type(self, node):
        """The C element type of ctypes.POINTER(ctypes.c_X), or None."""
        if isinstance(node, ast.Call) and (self.qualname(node.func) or '') == 'ctypes.POINTER' and \
                len(node.args) == 1:
            q = self.qualname(node.args[0]) or ''
            last = q.rpartition('.')[2]
            if q.startswith('ctypes.') and last in CTYPES:
                return CTYPES[last]
        return None

    def array_spec(self, scope, call):
        """(byte-size MStr, C element type) of a numpy array a call makes
        whose size and dtype are known; None otherwise."""
        r = self.r
        q = self.qualname(call.func) or ''
        head, _, name = q.partition('.')
        if head not in ('numpy', 'cupy') or name not in ('empty', 'zeros', 'ones', 'arange', 'full'):
            return None
        dt = None
        for kw in call.keywords:
            if kw.arg == 'dtype':
                dt = kw.value
            elif kw.arg not in ('order',):
                return None
        if dt is None and name in ('empty', 'zeros', 'ones') and len(call.args) == 2:
            dt = call.args[1]
        if dt is None or not call.args:
            return None
        dq = self.qualname(dt) or ''
        dname = dq.rpartition('.')[2] if dq.startswith(('numpy.', 'cupy.')) else (
            dt.value if isinstance(dt, ast.Constant) and isinstance(dt.value, str) else None)
        elem = ELEMENT_TYPES.get(dname)
        if elem is None:
            return None
        count = call.args[0]
        if name == 'arange' and len(call.args) != 1:
            return None
        shape = count.elts if isinstance(count, (ast.Tuple, ast.List)) else [count]
        if not shape:
            return None
        parts = []
        for s in shape:
            if self.kind_of(scope, s) != 'long long':
                return None
            parts.append(s)
        return parts, elem, dt

    def cupy_pointer_base(self, scope, e):
        """a for a.data.ptr, where a is a local bound once to a new CuPy
        array of a known size; None otherwise."""
        if isinstance(e, ast.Attribute) and e.attr == 'ptr' and isinstance(e.value, ast.Attribute) and \
                e.value.attr == 'data' and isinstance(e.value.value, ast.Name) and \
                e.value.value.id in scope.device_arrays:
            return e.value.value
        return None

    def array_interface_base(self, e):
        """x for x.__array_interface__['data'][0]."""
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Subscript):
            inner = e.value
            if isinstance(inner.value, ast.Attribute) and inner.value.attr == '__array_interface__' \
                    and isinstance(inner.slice, ast.Constant) and inner.slice.value == 'data':
                return inner.value.value
        return None

    # --- expressions ------------------------------------------------------------------

    def expr(self, scope, e):
        r = self.r
        at = self.at(e)
        if isinstance(e, ast.Constant):
            v = e.value
            if v is None:
                return Val(self.syn('nullptr', e), 'none')
            if isinstance(v, bool):
                return Val(self.syn('true' if v else 'false', e), 'bool')
            if isinstance(v, int):
                if abs(v) >= 1 << 62:
                    return Val(self.syn(ANY + '()', e), 'any')
                return Val(self.syn(str(v) + ('LL' if abs(v) >= 1 << 31 else ''), e), 'long long')
            if isinstance(v, float):
                if v != v or v in (float('inf'), float('-inf')):
                    return Val(self.syn(ANY + '()', e), 'any')
                return Val(self.syn(repr(v), e), 'double')
            return Val(self.syn(ANY + '()', e), 'any')
        if isinstance(e, ast.Name):
            if e.id in ('True', 'False'):
                return Val(self.syn('true' if e.id == 'True' else 'false', e), 'bool')
            if e.id == 'self' and scope.cls and 'self' not in scope.kinds:
                return Val(self.syn('this', e), 'obj:' + scope.cls)
            v = self.lookup(scope, e.id)
            if v:
                cname, kind = v
                if kind.startswith('lib:'):
                    return Val(self.syn(ANY + '()', e), 'any')
                if e.id in self.constants and self.lookup(scope, e.id)[1] == 'long long' and \
                        e.id not in scope.kinds:
                    return Val(self.name_text(e.id, cname, e), kind)
                text = self.name_text(e.id, cname, e)
                if e.id in self.global_objects and e.id not in scope.kinds or \
                        scope.module and e.id in self.global_objects:
                    return Val(self.join(at, '(&', text, ')'), kind)
                return Val(text, kind, lvalue=True)
            return Val(self.syn(ANY + '()', e), 'any')
        if isinstance(e, ast.Attribute):
            return self.attribute(scope, e)
        if isinstance(e, ast.Subscript):
            base = self.array_interface_base(e)
            if base is not None:
                return self.expr(scope, base)
            if isinstance(e.value, ast.Call) and isinstance(e.slice, ast.Constant) and \
                    type(e.slice.value) is int:
                self.want_tuple = e.value
                v = self.expr(scope, e.value)
                self.want_tuple = None
                k = e.slice.value
                if v.outs is not None:
                    if k == 0:
                        return Val(v.m, v.kind)
                    if 0 < k <= len(v.outs) and v.outs[k - 1][0]:
                        # the status dropped; the value goes where the
                        # lowering does not follow it
                        tname, ct = v.outs[k - 1]
                        return Val(self.join(at, '(', v.m, ', cuda_tidy_host::flows(', tname, '))'), ct)
                return self.opaque(e, [v])
            b = self.expr(scope, e.value)
            if b.kind.endswith('*') and b.kind != 'void *' and not isinstance(e.slice, (ast.Slice, ast.Tuple)) \
                    and not (isinstance(e.value, ast.Name) and e.value.id in scope.cupy_names):
                i = self.expr(scope, e.slice)
                if i.kind in ('long long', 'bool'):
                    return Val(self.join(at, b.m, '[', i.m, ']'), b.kind[:-2], lvalue=True)
            return self.opaque(e, [b])
        if isinstance(e, ast.Call):
            return self.call(scope, e)
        if isinstance(e, ast.BinOp):
            a, b = self.expr(scope, e.left), self.expr(scope, e.right)
            ops = {ast.Add: ' + ', ast.Sub: ' - ', ast.Mult: ' * ', ast.FloorDiv: ' / ',
                   ast.Div: ' / ', ast.Mod: ' % ', ast.LShift: ' << ', ast.RShift: ' >> ',
                   ast.BitAnd: ' & ', ast.BitOr: ' | ', ast.BitXor: ' ^ '}
            op = ops.get(type(e.op))
            if op and a.kind in NUMERIC[:2] and b.kind in NUMERIC[:2] and not (
                    'double' in (a.kind, b.kind) and op not in (' + ', ' - ', ' * ', ' / ')):
                am = self.join(at, '(', a.m, ')') if isinstance(e.left, ast.BinOp) and \
                    not self.same_level(e.left.op, e.op) else a.m
                bm = self.join(at, '(', b.m, ')') if isinstance(e.right, ast.BinOp) else b.m
                if isinstance(e.op, ast.Div):
                    return Val(self.join(at, '(double)', am, op, bm), 'double')
                return Val(self.join(at, am, op, bm),
                           'double' if 'double' in (a.kind, b.kind) else 'long long')
            return self.opaque(e, [a, b])
        if isinstance(e, ast.UnaryOp):
            v = self.expr(scope, e.operand)
            if isinstance(e.op, ast.Not):
                return Val(self.join(at, '!(', self.truth(v, e.operand).m, ')'), 'bool')
            if isinstance(e.op, ast.USub) and v.kind in NUMERIC[:2]:
                return Val(self.join(at, '(-', v.m, ')'), v.kind)
            return self.opaque(e, [v])
        if isinstance(e, ast.BoolOp):
            parts = [self.truth(self.expr(scope, x), x) for x in e.values]
            op = ' && ' if isinstance(e.op, ast.And) else ' || '
            pieces = ['(']
            for k, p in enumerate(parts):
                if k:
                    pieces.append(op)
                pieces.append(p.m)
            pieces.append(')')
            return Val(self.join(at, *pieces), 'bool')
        if isinstance(e, ast.Compare):
            return self.compare(scope, e)
        if isinstance(e, ast.IfExp):
            c = self.truth(self.expr(scope, e.test), e.test)
            a, b = self.expr(scope, e.body), self.expr(scope, e.orelse)
            if a.kind == b.kind and a.kind in NUMERIC:
                return Val(self.join(at, '(', c.m, ' ? ', a.m, ' : ', b.m, ')'), a.kind)
            return self.opaque(e, [c, a, b])
        if isinstance(e, (ast.Tuple, ast.List, ast.Set)):
            return self.opaque(e, [self.expr(scope, x) for x in e.elts if not isinstance(x, ast.Starred)])
        if isinstance(e, ast.JoinedStr):
            return self.opaque(e, [self.expr(scope, v.value) for v in e.values
                                   if isinstance(v, ast.FormattedValue)])
        if isinstance(e, ast.Starred):
            return self.expr(scope, e.value)
        return Val(self.syn(ANY + '()', e), 'any')

    @staticmethod
    def same_level(inner, outer):
        """Whether `a inner b outer c` needs no parentheses around the left."""
        mul = (ast.Mult, ast.FloorDiv, ast.Div, ast.Mod)
        add = (ast.Add, ast.Sub)
        return (isinstance(inner, mul) and isinstance(outer, mul + add)) or \
            (isinstance(inner, add) and isinstance(outer, add))

    def truth(self, v, node):
        if v.kind in NUMERIC or v.kind.endswith('*') or v.kind in ('cudaError_t', 'CUresult'):
            return v
        return Val(self.join(self.at(node), 'cuda_tidy_host::cond(', v.m, ')'), 'bool')

    def compare(self, scope, e):
        at = self.at(e)
        if len(e.ops) != 1:
            return self.opaque(e, [self.expr(scope, x) for x in [e.left] + e.comparators])
        a, b = self.expr(scope, e.left), self.expr(scope, e.comparators[0])
        op = e.ops[0]
        ops = {ast.Eq: ' == ', ast.NotEq: ' != ', ast.Lt: ' < ', ast.LtE: ' <= ', ast.Gt: ' > ',
               ast.GtE: ' >= ', ast.Is: ' == ', ast.IsNot: ' != '}
        o = ops.get(type(op))
        codes = ('cudaError_t', 'CUresult') + tuple(v[2] for v in self.model.libraries.values())
        ok = False
        if o:
            if a.kind in NUMERIC and b.kind in NUMERIC:
                ok = True
            elif (a.kind in codes and b.kind in codes + ('long long',)) or \
                    (b.kind in codes and a.kind in codes + ('long long',)):
                ok = a.kind == b.kind or 'long long' in (a.kind, b.kind)
            elif isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) and 'none' in (a.kind, b.kind) and \
                    (a.kind.endswith('*') or b.kind.endswith('*')):
                ok = True
            elif isinstance(op, (ast.Eq, ast.NotEq)) and any(
                    k.startswith('cuda_tidy_host::out_t<') and self.made_by_cuda(k) and
                    isinstance(other, ast.Constant) and type(other.value) is int and other.value == 0
                    for k, other in ((a.kind, e.comparators[0]), (b.kind, e.left))):
                # a library handle tested against 0 (`if info != 0:`)
                ok = True
        if ok:
            return Val(self.join(at, '(', a.m, o, b.m, ')'), 'bool')
        return Val(self.join(at, 'cuda_tidy_host::cond(', a.m, ', ', b.m, ')'), 'bool')

    def attribute(self, scope, e):
        r = self.r
        at = self.at(e)
        q = self.qualname(e)
        if q and self.binding_module(q.rpartition('.')[0]):
            # a library's success code through its binding's enum
            # (nvrtc.nvrtcResult.NVRTC_SUCCESS: CUDA_STATUS_TYPE rows)
            for status, success in (row[2:] for row in self.model.libraries.values()):
                if e.attr == success:
                    return Val(self.syn(success, e), status)
        if q and e.attr in ENUMERATORS and (
                self.binding_module(q.rpartition('.')[0]) or
                self.binding_module(q.rpartition('.')[0].rpartition('.')[0]) or
                q.startswith('cupy.cuda.runtime.')):
            return Val(self.syn(ENUMERATORS[e.attr], e), 'long long' if 'Memcpy' in e.attr or
                       'memcpy' in e.attr else ('cudaError_t' if e.attr == 'cudaSuccess' else 'CUresult'))
        if isinstance(e.value, ast.Name) and e.value.id == 'self' and scope.cls:
            members = self.class_members.get(scope.cls, {})
            if e.attr in members:
                kind = members[e.attr]
                return Val(self.join(at, 'this->', self.name_text(e.attr, cxx_name(e.attr),
                                                                  self.attr_node(e))), kind, lvalue=True)
            return Val(self.syn(ANY + '()', e), 'any')
        if e.attr == 'data' and isinstance(e.value, ast.Attribute) and e.value.attr == 'ctypes':
            v = self.expr(scope, e.value.value)
            if v.kind.endswith('*'):
                return Val(v.m, v.kind)
            return self.opaque(e, [v])
        if self.cupy_pointer_base(scope, e) is not None:
            # a.data.ptr of a CuPy array: its device address, in bytes
            v = self.expr(scope, e.value.value)
            return Val(self.join(at, '(char *)', v.m), 'char *')
        if e.attr in ('value',):
            v = self.expr(scope, e.value)
            if v.kind not in ('any',) and not v.kind.startswith(('obj:', 'py:', 'lib:')):
                return Val(v.m, v.kind, v.lvalue)
            return self.opaque(e, [v])
        v = self.expr(scope, e.value)
        if v.kind.startswith('obj:'):
            members = self.class_members.get(v.kind[4:], {})
            if e.attr in members:
                return Val(self.join(at, v.m, '->', self.name_text(e.attr, cxx_name(e.attr),
                                                                   self.attr_node(e))),
                           members[e.attr], lvalue=True)
        if e.attr == 'nbytes' and isinstance(e.value, ast.Name) and e.value.id in scope.sizes:
            return Val(self.join(at, '(', scope.sizes[e.value.id], ')'), 'long long')
        return self.opaque(e, [v])

    def attr_node(self, e):
        """A stand-in node at the attribute's name in `x.name`."""
        n = _At()
        end = self.r.node_end(e)
        n.lineno, n.col_offset = e.end_lineno, e.end_col_offset - len(e.attr.encode('utf-8'))
        return n if self.r.source[end - len(e.attr):end] == e.attr else e

    # --- calls -----------------------------------------------------------------------------

    def call(self, scope, e):
        r = self.r
        at = self.at(e)
        q = self.qualname(e.func) or ''
        last = q.rpartition('.')[2]
        if q in ('ctypes.byref', 'ctypes.pointer') and len(e.args) == 1 and not e.keywords:
            arg = e.args[0]
            v = self.expr(scope, arg.target if self.byref_walrus(arg) else arg)
            if v.lvalue:
                return Val(self.join(at, '&', v.m), v.kind + ' *' if not v.kind.endswith('*')
                           else v.kind + '*')
            return self.opaque(e, [v])
        if q == 'ctypes.cast' and len(e.args) == 2 and not e.keywords:
            ct = self.pointer_type(e.args[1])
            v = self.expr(scope, e.args[0])
            if ct and (v.kind.endswith('*') or v.kind in ('long long', 'none')):
                return Val(self.join(at, '(%s *)(' % ct, v.m, ')'), ct + ' *')
            return self.opaque(e, [v])
        if q in ('ctypes.memmove', 'ctypes.memset'):
            lowered = self.host_memory_call(scope, e, last)
            if lowered is not None:
                return lowered
        if q == 'ctypes.c_void_p':
            if not e.args:
                return Val(self.syn('(void *)0', e), 'void *')
            v = self.expr(scope, e.args[0])
            if v.kind in ('long long', 'none') or v.kind.endswith('*'):
                return Val(self.join(at, '(void *)(', v.m, ')'), 'void *')
            return self.opaque(e, [v])
        if q.startswith('ctypes.') and last in CTYPES:
            ct = CTYPES[last]
            if not e.args:
                return Val(self.syn('(%s)0' % ct, e), ct)
            v = self.expr(scope, e.args[0])
            if v.kind == 'long long' and ct not in ('float', 'double', 'bool'):
                # an integer given to an integer type: the value itself
                return Val(v.m, v.kind)
            if v.kind in NUMERIC or v.kind in CTYPES.values():
                return Val(self.join(at, '(%s)(' % ct, v.m, ')'), ct)
            return Val(self.join(at, '(%s)(' % ct, self.opaque(e, [v]).m, ')'), ct)
        if q.startswith(('numpy.', 'cupy.')):
            spec = self.array_spec(scope, e)
            if spec:
                parts, elem, dt = spec
                if q.startswith('numpy.'):
                    self.python_name(at, 'malloc', e.func)
                pieces = ['(%s *)::malloc(' % elem]
                for s in parts:
                    simple = isinstance(s, (ast.Name, ast.Constant))
                    pieces.append('' if simple else '(')
                    pieces.append(self.expr(scope, s).m)
                    pieces.append(' * ' if simple else ') * ')
                pieces.append(self.syn('sizeof(%s)' % elem, dt))
                pieces.append(')')
                v = Val(self.join(at, *pieces), elem + ' *')
                v.size = self.join(at, *pieces[1:-1])
                if q.startswith('cupy.'):
                    # device memory: written by assign() as a cudaMalloc
                    # into the variable; elsewhere an unknown pointer
                    v.device = True
                    v.m = self.join(at, '(%s *)(' % elem, self.opaque(e, []).m, ')')
                return v
        if self.model.arrays and (q.rpartition('.')[0], last) in self.model.arrays:
            spec = self.array_call(scope, e)
            if spec:
                # written by assign() as the allocation into the variable
                space, form, size, elem, stream = spec
                v = Val(self.join(at, '(%s *)(' % elem, self.opaque(e, []).m, ')'), elem + ' *')
                v.size, v.device = size, space
                v.upload = (self.expr(scope, e.args[0]), stream, at) if form == 'Upload' else None
                return v
        if isinstance(e.func, ast.Name) and e.func.id in ('int', 'len', 'float') and len(e.args) == 1:
            v = self.expr(scope, e.args[0])
            if e.func.id != 'len' and v.kind in NUMERIC[:2]:
                ct = 'long long' if e.func.id == 'int' else 'double'
                return Val(self.join(at, '(%s)(' % ct, v.m, ')'), ct)
            if e.func.id == 'float' and v.kind in ('float', 'double', 'int', 'long long') :
                return Val(self.join(at, '(double)(', v.m, ')'), 'double')
            o = self.opaque(e, [v])
            ct = 'double' if e.func.id == 'float' else 'long long'
            return Val(self.join(at, '(%s)(' % ct, o.m, ')'), ct)
        b = self.binding_of(e)
        if b:
            lowered = self.cuda_call(scope, e, *b)
            if lowered is not None:
                if lowered.outs is not None and e is not self.want_tuple:
                    # (err, value...) used as one value: passed on whole
                    pieces = ['cuda_tidy_host::result(', lowered.m]
                    for tname, _ in lowered.outs:
                        if tname:
                            pieces.append(', ' + tname)
                    pieces.append(')')
                    return Val(self.join(at, *pieces), 'any')
                return lowered
        if isinstance(e.func, ast.Attribute) and not e.keywords:
            base = self.kind_of(scope, e.func.value)
            if base.startswith('py:'):
                row = self.method_row(base[3:], e.func.attr)
                if row:
                    lowered = self.cuda_call(scope, e, row[0], 'Raises', row)
                    if lowered is not None:
                        return lowered
        if q in ('atexit.register',) and len(e.args) == 1 and scope.cls and not scope.module:
            lowered = self.bound_exit_handler(scope, e, e.args[0])
            if lowered is not None:
                return lowered
        if q in ('atexit.register',) and e.args and scope.module:
            return self.exit_handler(scope, e, e.args[0], e.args[1:])
        if q in ('atexit.register',) and len(e.args) == 1 and not scope.cls and \
                isinstance(e.args[0], ast.Name) and e.args[0].id in self.functions and \
                not self.locally_bound(self.r.scope_of(e), e.args[0].id):
            # a module function registered by a function of the file: a
            # handler only when that function ran (python_exit_handler)
            return self.exit_handler(scope, e, e.args[0], [])
        if q in ('weakref.finalize',) and len(e.args) >= 2 and scope.module:
            return self.exit_handler(scope, e, e.args[1], e.args[2:])
        args = [self.expr(scope, a) for a in e.args]
        args += [self.expr(scope, k.value) for k in e.keywords]
        if isinstance(e.func, ast.Name) and not e.keywords and \
                not any(isinstance(a, ast.Starred) for a in e.args):
            name = e.func.id
            if name in self.functions and self.lookup(scope, name) is None:
                f = self.functions[name]
                if self.arity_ok(f, len(e.args), False):
                    return self.direct_call(e, self.name_text(name, self.fname(name), e.func), args,
                                            self.call_result(f, None))
            if name in self.classes and self.lookup(scope, name) is None:
                init = self.method(name, '__init__')
                if init is not None and not self.method_ok(init):
                    init = None if not args else False
                if init is False:
                    pass
                elif init is None and not args or init is not None and self.arity_ok(init, len(args), True):
                    return self.direct_call(e, self.join(at, name, '::__new'), args, 'obj:' + name)
        if isinstance(e.func, ast.Attribute) and not e.keywords and \
                not any(isinstance(a, ast.Starred) for a in e.args):
            base = self.expr(scope, e.func.value)
            if base.kind.startswith('obj:'):
                cls = base.kind[4:]
                m = self.method(cls, e.func.attr)
                if m is not None and self.method_ok(m) and self.arity_ok(m, len(args), True):
                    return self.direct_call(e, self.join(at, base.m, '->', self.method_cname(e.func.attr)), args,
                                            self.call_result(m, cls))
            if self.library_function(e):
                return self.library_use(e, args)
            return self.opaque(e, [base] + args)
        if self.library_function(e):
            return self.library_use(e, args)
        return self.opaque(e, args)

    def library_modules(self):
        """The Python modules of the CUDA libraries' bindings (the modules
        of CUDA_PYTHON_CALL rows of a CUDA_PYTHON_LIBRARY library)."""
        mods = self.__dict__.get('_library_modules')
        if mods is None:
            mods = self._library_modules = {m for (m, _), row in self.model.calls.items()
                                            if self.model.library_of(row[0]) in self.model.libraries}
        return mods

    def library_function(self, e):
        """Whether call e is of a function of a CUDA library that the model
        has no row of (`_cusparse.xcsrilu02_zeroPivot(...)`, a local bound to
        `getattr(_cusparse, name)`, `libcublas.cublasSgemm_v2(...)`): the
        library uses the handles and pointers it is given for the call and
        keeps none of them."""
        mods = self.library_modules()
        func = e.func
        if isinstance(func, ast.Attribute):
            if (self.qualname(func) or '').rpartition('.')[0] in mods:
                return True
            lib = self.handle_of(func.value)
            return lib is not None and lib in self.model.libraries
        if isinstance(func, ast.Name):
            f = self.r.scope_of(func)
            if f is self.r.tree or not isinstance(f, ast.FunctionDef):
                return False
            binds = self.r.scope_assigns(f).get(func.id, [])
            return bool(binds) and all(
                isinstance(b[1], ast.Call) and isinstance(b[1].func, ast.Name) and
                b[1].func.id == 'getattr' and len(b[1].args) >= 2 and
                (self.qualname(b[1].args[0]) or '') in mods for b in binds)
        return False

    def raising_library_call(self, e):
        """Whether call e is of a library function with no row through a
        Python binding module (CuPy's cupy_backends.cuda.libs.*,
        scikit-cuda), which raises on a failed status; through a ctypes
        handle it returns the status instead."""
        if not self.library_function(e):
            return False
        func = e.func
        return not (isinstance(func, ast.Attribute) and
                    (self.qualname(func) or '').rpartition('.')[0] not in self.library_modules())

    def library_use(self, e, args):
        """A call of a CUDA library's function with no row: its arguments
        are read for the call (cuda_tidy_host::library_use), none kept."""
        pieces = ['cuda_tidy_host::library_use(']
        for k, a in enumerate(args):
            if k:
                pieces.append(', ')
            pieces.extend(['(', a.m, ', ' + ANY + '())'] if a.kind == 'void' else [a.m])
        pieces.append(')')
        return Val(self.join(self.at(e), *pieces), 'any')

    def host_memory_call(self, scope, e, fn):
        """ctypes.memmove(dst, src, count) / ctypes.memset(dst, c, count):
        the C functions, which read and write their pointers on the host
        (CUDA_COPY rows memmove, memset); an opaque value when an argument
        is not an address or a number the lowering knows."""
        if len(e.args) != 3 or e.keywords or any(isinstance(a, ast.Starred) for a in e.args):
            return None
        at = self.at(e)
        args = [self.expr(scope, a) for a in e.args]
        pointers = (0, 1) if fn == 'memmove' else (0,)
        name_node = self.attr_node(e.func) if isinstance(e.func, ast.Attribute) else e.func
        callee = self.name_text(fn, fn, name_node) if (
            isinstance(e.func, ast.Attribute) and e.func.attr == fn) else MStr.anchored(fn, 0, self.at(name_node))
        text = ['::', callee, '(']
        for k, a in enumerate(args):
            if k:
                text.append(', ')
            if k in pointers:
                if a.kind.endswith('*') and not a.kind.startswith(('cuda_tidy_host', 'obj:')):
                    text.append(a.m)  # the address itself: its memory space stays known
                elif a.kind in ('long long', 'CUdeviceptr', 'size_t', 'any'):
                    text.extend(['(void *)(', a.m, ')'])
                else:
                    return self.opaque(e, args)
            elif a.kind in ('long long', 'size_t', 'int', 'any') or a.kind in CTYPES.values():
                text.append(a.m)
            else:
                return self.opaque(e, args)
        text.append(')')
        self.host_memory_calls += 1
        return Val(self.join(at, *text), 'void *')

    def python_name(self, at, cname, node):
        """Findings at offset at name the C function cname as the Python
        code wrote it (node's text: np.empty, d.copy_to_host), not as the
        lowering did (the driver renames it: "names" of the answer)."""
        text = self.r.segment(node)
        if text and len(text) <= 40 and '\n' not in text:
            self.names.append((at, cname, text))

    def direct_call(self, e, callee, args, kind):
        pieces = [callee, '(']
        for k, a in enumerate(args):
            if k:
                pieces.append(', ')
            if a.kind == 'void':
                pieces.append(self.join(self.at(e), ANY + '()'))
            else:
                pieces.append(a.m)
        pieces.append(')')
        return Val(self.join(self.at(e), *pieces), kind)

    def fname(self, name):
        return cxx_name(name)

    def method(self, cls, name):
        c = self.classes.get(cls)
        if c is None:
            return None
        found = None
        for s in c.body:
            if isinstance(s, ast.FunctionDef) and s.name == name:
                found = s  # a later definition replaces an earlier one
        return found

    def arity_ok(self, f, n, is_method):
        a = f.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            return False
        params = len(a.args) - (1 if is_method else 0)
        return params - len(a.defaults) <= n <= params

    def returns_value(self, f):
        memo = self.__dict__.setdefault('_returns', {})
        if id(f) not in memo:
            memo[id(f)] = any(n.value is not None
                              for n in self.by_type(self.scope_nodes(f)).get(ast.Return, _NO_NODES))
        return memo[id(f)]

    def cuda_call(self, scope, e, fn, conv, row):
        """A call of CUDA function fn, or None when the call cannot be
        written as one (its arguments do not fit the C function)."""
        at = self.at(e)
        if any(isinstance(a, ast.Starred) for a in e.args) or e.keywords:
            return None
        api = self.model.api.get(fn)
        if api is None:
            return None
        params, outs, overloaded = api
        name_node = self.attr_node(e.func) if isinstance(e.func, ast.Attribute) else e.func
        callee = self.name_text(fn, fn, name_node) if (
            isinstance(e.func, ast.Attribute) and e.func.attr == fn) else MStr.anchored(fn, 0, self.at(name_node))
        cargs = []           # (Val or None for an out temporary, param index)
        result_temp = None
        if conv == 'Status':
            if len(e.args) != params:
                return None
            cargs = [self.expr(scope, a) for a in e.args]
        elif conv == 'ErrorTuple':
            if len(e.args) + len(outs) != params:
                return None
            it = iter(e.args)
            for i in range(params):
                if i in outs:
                    cargs.append(None)
                else:
                    cargs.append(self.expr(scope, next(it)))
        else:
            spec = row[1]
            if len(spec) != params:
                return None
            base = None
            if isinstance(e.func, ast.Attribute) and 'self' in spec or 'device' in spec:
                base = self.expr(scope, e.func.value)
            for s in spec:
                if s == 'out':
                    cargs.append(None)
                elif s == 'self':
                    cargs.append(base)
                elif s == 'zero':
                    cargs.append(Val(self.syn('0', e), 'long long'))
                elif s == 'device':
                    cargs.append(Val(self.syn('(CUdevice)0', e), 'long long'))
                elif s.startswith('bytes:'):
                    k = int(s[6:])
                    a = e.args[k] if k < len(e.args) else None
                    if isinstance(a, ast.Name) and a.id in scope.sizes:
                        cargs.append(Val(self.join(at, '(', scope.sizes[a.id], ')'), 'long long'))
                    else:
                        cargs.append(Val(self.join(at, '(size_t)', self.opaque(e, []).m), 'size_t'))
                elif s.isdigit():
                    k = int(s)
                    if k >= len(e.args):
                        return None
                    cargs.append(self.expr(scope, e.args[k]))
                else:
                    return None
            if any(c is None for c in cargs) and row[2] == 'None':
                return None
        out_vals = []
        pieces = [callee, '(']
        for i, a in enumerate(cargs):
            if i:
                pieces.append(', ')
            if a is None:
                if conv == 'Raises' and row[2] == 'LibraryHandle':
                    ct = self.out_type(fn, i)
                elif conv == 'Raises':
                    ct = RESULT_TYPES.get(row[2], 'any')
                else:
                    ct = self.out_type(fn, i)
                if ct == 'any' or (overloaded and ct not in ('void *', 'cudaEvent_t', 'cudaStream_t')):
                    return None
                tgt = self.out_targets.get(len(out_vals)) if e is self.want_tuple else None
                if tgt is not None and tgt.lvalue and ctype_of(tgt.kind) == ct:
                    # unpacked straight into a variable of the same type
                    pieces.append(self.join(at, '&', tgt.m))
                    out_vals.append((None, ct))
                    continue
                self.temp_count += 1
                tname = '__ct_out%d' % self.temp_count
                scope.temps.append((tname, ct))
                pieces.append('&' + tname)
                out_vals.append((tname, ct))
                continue
            if conv == 'ErrorTuple' and fn in self.model.by_address and \
                    i == self.model.resource.get(fn, (None, None, None, -1))[3]:
                # cuda-python's destroy takes the handle, the C function
                # its address (nvrtcDestroyProgram(&prog))
                if not getattr(a, 'lvalue', False):
                    return None
                pieces.append(self.join(at, '&', a.m))
                continue
            if overloaded:
                if i in outs and not (a.kind.endswith('**') or a.kind.endswith('* *') or
                                      a.kind in ('cudaEvent_t *', 'cudaStream_t *')):
                    return None
                if i not in outs and a.kind not in NUMERIC + tuple(CTYPES.values()) + ('any',):
                    return None
                pieces.append(a.m)
            elif a.kind in ('long long', 'bool') and i != self.model.copy_kind.get(fn, -1) and \
                    self.plain_param(fn, i):
                pieces.append(a.m)
            elif self.direct_param(fn, i, a.kind):
                # the parameter's own type: no cast to instantiate
                pieces.append(a.m)
            elif fn in self.model.copy_ptrs and i == self.model.copy_kind.get(fn) and \
                    a.kind in ('long long', 'bool'):
                pieces.extend(['(cudaMemcpyKind)(', a.m, ')'])
            else:
                pieces.append('(cuda_tidy_host::param_t<decltype(&%s), %d>)(' % (fn, i))
                if a.kind in NUMERIC or a.kind.endswith('*') or a.kind in CTYPES.values() or \
                        a.kind in ('cudaError_t', 'CUresult', 'CUdeviceptr', 'CUcontext', 'CUdevice',
                                   'CUstream', 'CUevent', 'cudaStream_t', 'cudaEvent_t') or \
                        a.kind.startswith(('cuda_tidy_host::out_t', 'py:')):
                    pieces.append(a.m)
                else:
                    pieces.append(self.join(at, ANY + '(', a.m, ')'))
                pieces.append(')')
        pieces.append(')')
        call = self.join(at, *pieces)
        self.calls += 1
        lib = self.model.library_of(fn)
        if lib == 'Driver':
            self.driver_calls += 1
        elif lib in self.model.libraries:
            self.__dict__.setdefault('library_headers', set()).add(self.model.libraries[lib][1])
        status, ok = self.model.status_of(fn)
        if conv == 'Status':
            return Val(call, status)
        if conv == 'Raises':
            check = self.join(at, '((', call, ' != %s) ? (cuda_tidy_host::raise(), 0) : 0)' % ok)
            kind = 'py:' + row[2] if row[2] in RESULT_TYPES else 'any'
            if row[2] == 'LibraryHandle' and out_vals:
                kind = out_vals[0][1]
            if out_vals and out_vals[0][0] is not None:
                value = out_vals[0][0]
                if row[2] in COLLECTED:
                    value = 'cuda_tidy_host::collected(%s)' % value
                v = Val(self.join(at, '(', check, ', ', value, ')'), kind)
                v.temp = out_vals[0][0]
                return v
            v = Val(check, 'void')
            v.outs = out_vals if out_vals else None
            return v
        # ErrorTuple: the call with its out temporaries, for a tuple target
        v = Val(call, status)
        v.outs = out_vals
        return v

    def direct_param(self, fn, i, kind):
        """Whether an argument of this kind converts to parameter i of fn
        with no cast: a typed pointer given to a runtime copy's void *
        destination or source, a cudaStream_t given to its stream (the
        CUDA_COPY rows); an argument of the very type of a handle or pointer
        parameter that a CUDA_RESOURCE, CUDA_SYNC or CUDA_FREE row of the
        runtime names."""
        if self.model.param_types.get(fn, {}).get(i) == kind:
            # a runtime handle or freed pointer of the parameter's own type
            # (cudaStreamDestroy(stream), cudaFree(d))
            return True
        ptrs = self.model.copy_ptrs.get(fn)
        if ptrs is None:
            return False
        dst, src, stream = ptrs
        if i in (dst, src):
            return kind.endswith('*') and not kind.startswith(('cuda_tidy_host', 'obj:'))
        return i == stream and kind in ('cudaStream_t', 'py:NumbaStream', 'py:Handle')

    def plain_param(self, fn, i):
        """Whether parameter i of fn is its byte count (CUDA_COPY and
        CUDA_ALLOC rows), which an integer converts to with no cast."""
        return self.model.bytes_arg.get(fn, -1) == i

    def exit_handler(self, scope, e, func, extra):
        """atexit.register(f) / weakref.finalize(obj, f) at module level:
        std::atexit of a function that calls f."""
        at = self.at(e)
        if not isinstance(func, ast.Name) or func.id not in self.functions or \
                not self.arity_ok(self.functions[func.id], len(extra), False):
            return self.opaque(e, [self.expr(scope, a) for a in extra])
        f = self.functions[func.id]
        if not self.ends_runtime(f) and not self.ends_runtime(self.r.tree):
            # (where the file resets the device anywhere, a handler may run
            # after that reset: it stays a std::atexit handler)
            return self.python_exit_handler(scope, e, func, extra)
        if not extra and not f.args.args and not self.returns_value(f):
            return Val(self.join(at, '::atexit(', self.name_text(func.id, self.fname(func.id), func), ')'),
                       'int')
        thunk = '%s_at_exit' % self.fname(func.id)
        if any(t[0] == thunk for t in self.thunks):
            self.temp_count += 1
            thunk += str(self.temp_count)
        args = [self.expr(self.module_scope, a) for a in extra]
        self.thunks.append((thunk, self.direct_call(e, self.name_text(func.id, self.fname(func.id), func),
                                                    args, 'void').m, at))
        return Val(self.join(at, '::atexit(', MStr.anchored(thunk, 0, self.at(func)), ')'), 'int')

    def ends_runtime(self, f):
        """Whether f calls a function that ends the device's context
        (CUDA_DEVICE_RESET rows, directly or as a CUDA_PYTHON_CALL row's
        method): in a Python exit handler it runs before the module's
        objects are collected, whose __del__ then use a reset device."""
        resets = self.model.resets
        for n in self.walk(f):
            if isinstance(n, ast.Call):
                name = n.func.attr if isinstance(n.func, ast.Attribute) else \
                    n.func.id if isinstance(n.func, ast.Name) else None
                if name and (strip_version(name) in resets or
                             self.model.python_resets.get(name)):
                    return True
        return False

    def bound_exit_handler(self, scope, e, func):
        """atexit.register(self.m) in a method of a class whose object a
        module global holds: Python calls that object's m at exit, as a
        module-level handler (python_exit_handler); None when not so."""
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and
                func.value.id == 'self'):
            return None
        m = self.method(scope.cls, func.attr)
        holders = [g for g, c in self.global_objects.items() if c == scope.cls]
        if m is None or not holders or not self.method_ok(m) or not self.arity_ok(m, 0, True) or \
                self.ends_runtime(m) or self.ends_runtime(self.r.tree):
            return None
        at = self.at(e)
        for g in holders:
            self.python_exit.append((self.join(at, '%s.%s()' % (cxx_name(g), cxx_name(func.attr))), at))
        return Val(self.join(at, '0'), 'int')

    def python_exit_handler(self, scope, e, func, extra):
        """atexit.register(f) / weakref.finalize(obj, f) at module level,
        for an f that does not reset the device: Python calls it in its
        finalization, after the main module's code and before the C-level
        exit that tears down libcudart/libcuda, so it is lowered as a call
        at the end of main, in reverse order of registration (whether the
        registration ran is not followed: a registration at module level
        runs)."""
        at = self.at(e)
        args = [self.expr(self.module_scope, a) for a in extra]
        call = self.direct_call(e, self.name_text(func.id, self.fname(func.id), func), args, 'void').m
        if not self.registered_always(e):
            # registered on some paths only (under an if, in a loop or a
            # handler, in a function): the handler runs when its flag is set
            flags = self.__dict__.setdefault('exit_flags', [])
            flag = '__exit_registered%d' % len(flags)
            flags.append(flag)
            self.python_exit.append((self.join(at, 'if (%s) ' % flag, call), at))
            return Val(self.join(at, '(%s = true)' % flag), 'bool')
        self.python_exit.append((call, at))
        return Val(self.join(at, '0'), 'int')

    def registered_always(self, e):
        """Whether the module's code makes call e whenever it runs to its
        end: e is in a statement of the module's body (or of a with block
        or a try body there), not under an if, a loop or a handler."""
        r = self.r
        n = e
        while True:
            p = r.parents.get(n)
            if p is None or p is r.tree:
                return p is r.tree
            if isinstance(p, _BRANCHING):
                if isinstance(p, ast.If) and n is p.test:
                    n = p
                    continue
                return False
            if isinstance(p, ast.Try) and n not in p.body and n not in p.finalbody:
                return False
            n = p

    # --- statements ---------------------------------------------------------------------

    def block(self, scope, body, out, ctx, top=False):
        caught = any(e[0] == 'except' for e in ctx)
        for s in body:
            self.stmt(scope, s, out, ctx, top)
            if caught:
                raises, raised = self.statement_may_raise(scope, s)
                if raises:
                    # in the body of a try with handlers, a statement that
                    # calls what may raise can skip the rest of the body and
                    # land in a handler that may catch it
                    at = self.at(s)
                    edge = MStrLog()
                    self.raise_stmt(scope, edge, ctx, at, raised, leaves=False)
                    edge = edge.build()
                    if edge.text:
                        out.add(self.join(at, '  if (', self.raise_condition(scope, s), ') {\n'))
                        out.add(edge)
                        out.syn('  }\n', 0, at)
            elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and \
                    isinstance(s.value.func, ast.Name) and not scope.module and \
                    s.value.func.id in self.functions and \
                    not self.locally_bound(scope.owner, s.value.func.id) and \
                    self.allocates(scope.owner) and self.raises_of_its_own(self.functions[s.value.func.id]):
                # a function of the file that may raise: its exception
                # leaves here, skipping the rest of the block
                at = self.at(s)
                out.syn('  if (cuda_tidy_host::cond()) {\n', 0, at)
                self.raise_stmt(scope, out, ctx, at)
                out.syn('  }\n', 0, at)

    def raises_of_its_own(self, f, seen=None):
        """Whether module function f may raise an exception of its own,
        not caught in it: a raise statement outside a try, or a call of
        such a function of the file. A raise that only reports a failed
        status (under a test of a name against a success code or 0, or of
        its truth: a check(err) helper) does not count: the checks read
        the status, not the exception."""
        memo = self.__dict__.setdefault('_raises_of_its_own', {})
        if id(f) in memo:
            return memo[id(f)]
        seen = seen or set()
        seen.add(id(f))
        r = self.r
        found = False
        for n in self.walk(f):
            if r.scope_of(n) is not f:
                continue
            if isinstance(n, ast.Raise) and n.exc is not None:
                found = not self.in_try(n, f) and not self.status_raise(n, f)
            elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and \
                    isinstance(n.value.func, ast.Name) and n.value.func.id in self.functions:
                g = self.functions[n.value.func.id]
                found = id(g) not in seen and not self.in_try(n, f) and self.raises_of_its_own(g, seen)
            if found:
                break
        memo[id(f)] = found
        return found

    def in_try(self, n, f):
        r = self.r
        while n is not f and n is not None:
            p = r.parents.get(n)
            if isinstance(p, ast.Try) and n in p.body and p.handlers:
                return True
            n = p
        return False

    def status_raise(self, n, f):
        """Whether raise n is under an if that tests a status (a name
        compared with a success code or 0, or its truth)."""
        p = self.r.parents.get(n)
        while p is not None and p is not f and not isinstance(p, ast.If):
            p = self.r.parents.get(p)
        if not isinstance(p, ast.If):
            return False
        test = p.test
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test = test.operand
        if isinstance(test, ast.Name):
            return True
        if isinstance(test, ast.Compare) and len(test.comparators) == 1:
            for side in (test.left, test.comparators[0]):
                if isinstance(side, ast.Constant) and side.value == 0:
                    return True
                text = (self.r.segment(side) or '').lower()
                if 'success' in text or 'status' in text:
                    return True
        return False

    def stmt(self, scope, s, out, ctx, top=False):
        r = self.r
        at = self.at(s)
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant):
                return
            if isinstance(s.value, ast.Call) and (self.launch(scope, s.value, out) or
                                                  self.array_copy(scope, s.value, out)):
                return
            # a cuda-python call whose tuple is dropped: its status too
            self.want_tuple = s.value
            v = self.expr(scope, s.value)
            self.want_tuple = None
            out.add(self.join(at, '  ', v.m, ';\n'))
            return
        if isinstance(s, (ast.Assign, ast.AnnAssign)):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            if s.value is None:
                return
            if len(targets) == 1 and isinstance(targets[0], (ast.Tuple, ast.List)):
                return self.tuple_assign(scope, targets[0], s.value, out, s)
            t0 = targets[0]
            sv = s.value
            if len(targets) == 1 and isinstance(t0, ast.Name) and isinstance(sv, ast.Subscript) and \
                    isinstance(sv.value, ast.Call) and isinstance(sv.slice, ast.Constant) and \
                    type(sv.slice.value) is int and sv.slice.value >= 1 and \
                    self.tuple_kinds(scope, sv.value):
                tv = self.expr(scope, t0)
                if scope.declared_at.get(t0.id) is s:
                    out.add(self.join(at, '  %s ' % ctype_of(scope.kinds[t0.id]), tv.m, '{};\n'))
                self.want_tuple = sv.value
                self.out_targets = {sv.slice.value - 1: tv}
                v = self.expr(scope, sv.value)
                self.want_tuple = None
                self.out_targets = {}
                if v.outs is not None and v.outs[sv.slice.value - 1][0] is None:
                    out.add(self.join(at, '  ', v.m, ';\n'))
                    return
            if len(targets) == 1 and isinstance(t0, ast.Name) and isinstance(sv, ast.Call) and \
                    self.download(scope, t0, sv, out, s):
                return
            if len(targets) == 1 and isinstance(t0, ast.Name) and isinstance(sv, ast.Call):
                b = self.binding_of(sv)
                if b is None and isinstance(sv.func, ast.Attribute):
                    base = self.kind_of(scope, sv.func.value)
                    row = self.method_row(base[3:], sv.func.attr) \
                        if base.startswith('py:') else None
                    b = (row[0], 'Raises', row) if row else None
                if b and b[1] == 'Raises' and 'out' in b[2][1]:
                    # p = runtime.malloc(n): the call writes p itself
                    tv = self.expr(scope, t0)
                    self.want_tuple = sv
                    self.out_targets = {0: tv}
                    v = self.expr(scope, sv)
                    self.want_tuple = None
                    self.out_targets = {}
                    if v.outs is not None and v.outs[0][0] is None:
                        if scope.declared_at.get(t0.id) is s:
                            out.add(self.join(at, '  %s ' % ctype_of(scope.kinds[t0.id]), tv.m, '{};\n'))
                        out.add(self.join(at, '  ', v.m, ';\n'))
                        if b[2][2] in COLLECTED:
                            out.add(self.join(at, '  cuda_tidy_host::collected(', tv.m, ');\n'))
                        return
                    for t in targets:
                        self.assign(scope, t, v, out, s, top)
                    return
            v = self.expr(scope, s.value)
            for t in targets:
                self.assign(scope, t, v, out, s, top)
            return
        if isinstance(s, ast.AugAssign):
            t = self.expr(scope, s.target)
            v = self.expr(scope, s.value)
            vk = ACCUMULATED.get(v.kind, v.kind)
            ops = {ast.Add: '+=', ast.Sub: '-=', ast.Mult: '*=', ast.FloorDiv: '/=', ast.Mod: '%='}
            if t.lvalue and t.kind in NUMERIC[:2] and vk in NUMERIC[:2] and type(s.op) in ops \
                    and not (t.kind == 'long long' and vk == 'double'):
                out.add(self.join(at, '  ', t.m, ' %s ' % ops[type(s.op)], v.m, ';\n'))
            elif t.lvalue and t.kind == 'any':
                out.add(self.join(at, '  ', t.m, ' = ', self.opaque(s, [v]).m, ';\n'))
            else:
                out.add(self.join(at, '  ', self.opaque(s, [t, v]).m, ';\n'))
            return
        if isinstance(s, ast.If):
            c = self.truth(self.expr(scope, s.test), s.test)
            out.add(self.join(at, '  if (', c.m, ') {\n'))
            self.block(scope, s.body, out, ctx)
            if s.orelse:
                out.syn('  } else {\n', 0, at)
                self.block(scope, s.orelse, out, ctx)
            out.syn('  }\n', 0, at)
            return
        if isinstance(s, ast.While):
            c = self.truth(self.expr(scope, s.test), s.test)
            out.add(self.join(at, '  while (', c.m, ') {\n'))
            self.block(scope, s.body, out, ctx + [('loop',)])
            out.syn('  }\n', 0, at)
            if s.orelse:
                self.block(scope, s.orelse, out, ctx)
            return
        if isinstance(s, (ast.For, ast.AsyncFor)):
            it = s.iter
            t = s.target
            tv = self.expr(scope, t) if isinstance(t, ast.Name) else None
            if tv is not None and tv.kind == 'long long' and isinstance(it, ast.Call) and \
                    isinstance(it.func, ast.Name) and it.func.id == 'range' and 1 <= len(it.args) <= 2:
                lo = self.expr(scope, it.args[0]) if len(it.args) == 2 else Val(self.syn('0', it), 'long long')
                hi = self.expr(scope, it.args[-1])
                if lo.kind in NUMERIC[:1] + ('bool',) and hi.kind in ('long long', 'bool'):
                    out.add(self.join(at, '  for (', tv.m, ' = ', lo.m, '; ', tv.m, ' < ', hi.m, '; ++',
                                      tv.m, ') {\n'))
                    self.block(scope, s.body, out, ctx + [('loop',)])
                    out.syn('  }\n', 0, at)
                    self.block(scope, s.orelse, out, ctx)
                    return
            iv = self.expr(scope, it)
            out.add(self.join(at, '  while (cuda_tidy_host::cond(', iv.m, ')) {\n'))
            if tv is not None and tv.lvalue:
                out.add(self.join(at, '  ', tv.m, ' = ', ANY, '();\n'))
            self.block(scope, s.body, out, ctx + [('loop',)])
            out.syn('  }\n', 0, at)
            self.block(scope, s.orelse, out, ctx)
            return
        if isinstance(s, (ast.Break, ast.Continue)):
            self.unwind(scope, out, ctx, to_loop=True)
            out.syn('  break;\n' if isinstance(s, ast.Break) else '  continue;\n', 0, at)
            return
        if isinstance(s, ast.Return):
            if self.typed_return_stmt(scope, s, out, ctx):
                return
            v = self.expr(scope, s.value) if s.value is not None else None
            if v is not None and v.kind != 'void':
                self.temp_count += 1
                tmp = '__ct_ret%d' % self.temp_count
                escapes = [t for t, _ in (v.outs or ()) if t] or ([v.temp] if v.temp else [])
                if v.kind in NUMERIC or v.kind in ('any', 'none') or v.kind.startswith(('obj:', 'lib:')) \
                        or escapes:
                    out.add(self.join(at, '  ' + ANY + ' %s = ' % tmp, v.m, ';\n'))
                else:
                    out.add(self.join(at, '  %s %s = ' % (ctype_of(v.kind), tmp), v.m, ';\n'))
                    escapes = [tmp]
                # a pointer or handle returned goes to the caller (any's
                # converting constructor keeps nothing): not a leak
                # (a status returned goes to the caller as it is: no flows,
                # whose result would be a status dropped)
                for t in escapes if v.kind not in NUMERIC and v.kind not in self.model.status_types and \
                        not self.typed_return(scope) else ():
                    out.syn('  cuda_tidy_host::flows(%s);\n' % t, 0, at)
                self.unwind(scope, out, ctx)
                out.syn('  return %s;\n' % tmp, 0, at)
            else:
                if v is not None:
                    out.add(self.join(at, '  ', v.m, ';\n'))
                self.unwind(scope, out, ctx)
                out.syn('  return%s;\n' % (' ' + ANY + '()' if scope.returns else ''), 0, at)
            return
        if isinstance(s, ast.Raise):
            if s.exc is not None and self.has_binding_call(s.exc):
                out.add(self.join(at, '  ', self.expr(scope, s.exc).m, ';\n'))
            self.raise_stmt(scope, out, ctx, at, self.raised_names(s))
            return
        if isinstance(s, ast.Assert):
            c = self.truth(self.expr(scope, s.test), s.test)
            out.add(self.join(at, '  if (!(', c.m, ')) {\n'))
            self.unwind(scope, out, ctx)
            out.syn('  cuda_tidy_host::raise();\n  }\n', 0, at)
            return
        if isinstance(s, ast.Try) or type(s).__name__ == 'TryStar':
            fin = s.finalbody
            inner = ctx + [('finally', fin)] if fin else ctx
            out.syn('  {\n', 0, at)
            label = self.except_label(s)
            handlers = [('%s_%d' % (label, i), self.handler_names(h)) for i, h in enumerate(s.handlers)]
            self.block(scope, s.body, out, inner + [('except', label, handlers)] if label else inner)
            if s.handlers:
                # the body ends normally and the else body runs; or a raise
                # in the body, or a statement of it that calls what may
                # raise (block), jumps to a handler that may catch it (each
                # a path; `except (A, B)` and a bare `except` alike).
                # Nothing else enters them, as a C++ catch is entered only
                # from a throw (the CFG has no exception edges); an exception
                # that no handler names goes on out of the try.
                out.syn('  }\n  {\n', 0, at)
                self.block(scope, s.orelse, out, inner)
                out.syn('  }\n  goto %s_end;\n' % label, 0, at)
                for (hl, _), h in zip(handlers, s.handlers):
                    out.syn('  %s:;\n  {\n' % hl, 0, self.at(h))
                    self.block(scope, h.body, out, inner)
                    out.syn('  }\n  goto %s_end;\n' % label, 0, self.at(h))
                out.syn('  %s_end:;\n' % label, 0, at)
            else:
                self.block(scope, s.orelse, out, inner)
                out.syn('  }\n', 0, at)
            self.block(scope, fin, out, ctx)
            return
        if isinstance(s, (ast.With, ast.AsyncWith)):
            exits = []
            for item in s.items:
                v = self.expr(scope, item.context_expr)
                if v.kind.startswith('obj:'):
                    cls = v.kind[4:]
                    self.temp_count += 1
                    tmp = '__ct_with%d' % self.temp_count
                    out.add(self.join(at, '  %s *%s = ' % (cls, tmp), v.m, ';\n'))
                    enter = self.method(cls, '__enter__')
                    if enter is not None and not (self.method_ok(enter) and self.arity_ok(enter, 0, True)):
                        enter = None
                    if item.optional_vars is not None:
                        tv = self.expr(scope, item.optional_vars)
                        if tv.lvalue:
                            if enter is not None and self.enter_returns_self(cls):
                                out.add(self.join(at, '  %s->__enter__();\n  ' % tmp, tv.m, ' = %s;\n' % tmp))
                            elif enter is not None:
                                out.add(self.join(at, '  ', tv.m, ' = %s->__enter__();\n' % tmp))
                            else:
                                out.add(self.join(at, '  ', tv.m, ' = %s;\n' % tmp))
                    elif enter is not None:
                        out.syn('  %s->__enter__();\n' % tmp, 0, at)
                    ex = self.method(cls, '__exit__')
                    if ex is not None and self.method_ok(ex) and self.arity_ok(ex, 3, True):
                        exits.append(self.join(at, '  %s->__exit__(%s(), %s(), %s());\n' % (tmp, ANY, ANY, ANY)))
                elif self.pinned_context(scope, item.context_expr, out, exits):
                    pass
                else:
                    out.add(self.join(at, '  ', v.m, ';\n'))
                    if item.optional_vars is not None:
                        tv = self.expr(scope, item.optional_vars)
                        if tv.lvalue:
                            out.add(self.join(at, '  ', tv.m, ' = ', ANY, '();\n'))
            fin = [('code', list(reversed(exits)))] if exits else []
            out.syn('  {\n', 0, at)
            self.block(scope, s.body, out, ctx + fin)
            out.syn('  }\n', 0, at)
            for x in reversed(exits):
                out.add(x)
            return
        if isinstance(s, ast.Delete):
            return
        # imports, pass, global, nested definitions: nothing to lower
        return

    def except_label(self, s):
        """The label of the handlers of try statement s (each handler's is
        this one with _i, the end's with _end); None without handlers."""
        if not s.handlers:
            return None
        self.temp_count += 1
        return '__ct_except%d' % self.temp_count

    @staticmethod
    def handler_names(h):
        """The exception class names handler h names (last components), or
        None for one that catches everything (bare, Exception,
        BaseException)."""
        t = h.type
        items = t.elts if isinstance(t, ast.Tuple) else [t] if t is not None else []
        names = set()
        for n in items:
            name = n.attr if isinstance(n, ast.Attribute) else n.id if isinstance(n, ast.Name) else None
            if name is None or name in ('Exception', 'BaseException'):
                return None
            names.add(name)
        return names or None

    @staticmethod
    def raised_names(s):
        """The class name a raise statement raises (`raise E`, `raise
        E(...)`), as a set; None when not known (a bare re-raise, a
        variable)."""
        e = s.exc.func if isinstance(s.exc, ast.Call) else s.exc
        name = e.attr if isinstance(e, ast.Attribute) else e.id if isinstance(e, ast.Name) else None
        return {name} if name else None

    @staticmethod
    def handler_catches(names, raised):
        """Whether a handler naming names (None: everything) may catch an
        exception of one of the classes raised (None: not known). Only
        Python's own classes are known to be caught by no other name than
        their bases' (a class of the file or a library may derive from
        anything)."""
        if names is None or raised is None:
            return True
        for r in raised:
            c = BUILTIN_EXCEPTIONS.get(r)
            if c is None or r in names or any(n in BUILTIN_EXCEPTIONS and issubclass(c, BUILTIN_EXCEPTIONS[n])
                                              for n in names):
                return True
        return False

    def raise_stmt(self, scope, out, ctx, at, raised=None, leaves=True):
        """A raise statement (of the classes named raised, None when not
        known): the finally bodies and __exit__ calls on its way, then a
        handler of the innermost try of the function whose body it is in
        that may catch it (a goto to each, on unknown conditions), else it
        leaves the function (a return: an exception path, on which what the
        function still owns leaks). At module level, or in a function that
        allocates nothing itself (a check(err) helper: its caller's path
        goes on as the exception, which is not followed), the program ends
        (a trap), as before. With leaves False (a call that may raise,
        block), an exception that no handler of the function catches is not
        followed: nothing is written for it."""
        for i in range(len(ctx) - 1, -1, -1):
            entry = ctx[i]
            if entry[0] == 'except':
                targets = [hl for hl, names in entry[2] if self.handler_catches(names, raised)]
                if not targets:
                    continue
                for j in range(len(ctx) - 1, i, -1):
                    if ctx[j][0] == 'finally':
                        self.block(scope, ctx[j][1], out, ctx[:j])
                    elif ctx[j][0] == 'code':
                        for x in ctx[j][1]:
                            out.add(x)
                for t in targets[:-1]:
                    out.syn('  if (cuda_tidy_host::cond()) goto %s;\n' % t, 0, at)
                out.syn('  goto %s;\n' % targets[-1], 0, at)
                return
        if not leaves:
            return
        self.unwind(scope, out, ctx)
        if scope.module or not self.allocates(scope.owner):
            out.syn('  cuda_tidy_host::raise();\n', 0, at)
        else:
            out.syn('  return%s;\n' % (' ' + ANY + '()' if scope.returns else ''), 0, at)

    def statement_may_raise(self, scope, s):
        """(raises, raised) for simple statement s: whether it calls the
        file's own function that may raise (may_raise), or a CUDA call that
        raises on error (CuPy's or PyCUDA's runtime, the API model's
        CUDA_PYTHON_CALL rows), and the exception classes it may raise (None
        when not known). Not when s allocates: a failed allocation that
        raises made nothing, so the path from it must not hold what it would
        have made."""
        if not isinstance(s, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)):
            return False, None
        calls = [n for n in self.walk(s) if isinstance(n, ast.Call)]
        if not calls:
            return False, None
        self.allocates(s)  # fills _alloc_names
        raises, raised = False, set()
        for n in calls:
            name = n.func.attr if isinstance(n.func, ast.Attribute) else \
                n.func.id if isinstance(n.func, ast.Name) else None
            if name and strip_version(name) in self._alloc_names:
                return False, None
            b = self.binding_of(n)
            if b is not None:
                if b[1] == 'Raises':
                    raises, raised = True, None
            elif self.raising_library_call(n):
                raises, raised = True, None
            else:
                g = self.raising_callee(n, scope.cls, scope)
                r, names = self.may_raise(g, scope.cls) if g is not None else (False, None)
                if r:
                    raises = True
                    raised = None if raised is None or names is None else raised | names
        return raises, raised

    def raising_callee(self, n, cls, scope=None):
        """The file's function that call n calls by name (a module-level
        function, or self.m() of the method's class cls); None if none."""
        func = n.func
        if isinstance(func, ast.Name):
            if func.id in self.functions and (scope is None or self.lookup(scope, func.id) is None):
                return self.functions[func.id]
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id == 'self' and cls:
            return self.method(cls, func.attr)
        return None

    def raise_condition(self, scope, s):
        """When statement s may raise (statement_may_raise): check(err) of a
        status variable raises when the status is an error (so the path
        where the allocation that set it failed holds nothing); anything
        else, on an unknown condition."""
        e = s.value if isinstance(s, ast.Expr) else None
        if isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords and \
                isinstance(e.args[0], ast.Name) and isinstance(e.func, ast.Name):
            v = self.expr(scope, e.args[0])
            ok = {'cudaError_t': 'cudaSuccess', 'CUresult': 'CUDA_SUCCESS'}.get(v.kind)
            if ok:
                return self.join(self.at(e), v.m, ' != %s' % ok)
        return self.syn('cuda_tidy_host::cond()', s)

    def may_raise(self, f, cls=None, seen=None):
        """(raises, raised) for the file's function f (a method of class
        cls, when cls): whether it may raise (it has a raise statement,
        calls a CUDA function that raises on error, or calls another
        function of the file, or method of cls through self, that may
        raise), and the classes it may raise (None when not known)."""
        memo = self.__dict__.setdefault('_may_raise', {})
        if id(f) in memo:
            return memo[id(f)]
        seen = seen or set()
        seen.add(id(f))
        raises, raised = False, set()
        for n in self.walk(f):
            if isinstance(n, ast.Raise):
                names = self.raised_names(n) if n.exc is not None else None
                raises = True
                raised = None if raised is None or names is None else raised | names
            elif isinstance(n, ast.Call):
                b = self.binding_of(n)
                if b is not None:
                    if b[1] == 'Raises':
                        raises, raised = True, None
                else:
                    g = self.raising_callee(n, cls)
                    if g is not None and id(g) not in seen:
                        r, names = self.may_raise(g, cls, seen)
                        if r:
                            raises = True
                            raised = None if raised is None or names is None else raised | names
        memo[id(f)] = (raises, raised)
        return memo[id(f)]

    def allocates(self, f):
        """Whether function f itself calls a function that allocates memory
        or creates a handle (CUDA_ALLOC rows, CUDA_RESOURCE Create rows, or
        a CUDA_PYTHON_CALL row that is one), by name."""
        memo = self.__dict__.setdefault('_allocates', {})
        if id(f) in memo:
            return memo[id(f)]
        model = self.model
        names = self.__dict__.get('_alloc_names')
        if names is None:
            def makes(fn):
                fn = strip_version(fn)
                return fn in model.alloc or model.resource.get(fn, ('', '', ''))[2] == 'Create'
            names = set(fn for fn in model.alloc) | \
                set(fn for fn, r in model.resource.items() if r[2] == 'Create') | \
                set(n.rpartition('.')[2] for (_, n), row in model.calls.items() if makes(row[0]))
            self._alloc_names = names
        found = False
        for n in self.walk(f):
            if isinstance(n, ast.Call):
                name = n.func.attr if isinstance(n.func, ast.Attribute) else \
                    n.func.id if isinstance(n.func, ast.Name) else None
                if name and strip_version(name) in names:
                    found = True
                    break
        memo[id(f)] = found
        return found

    def has_binding_call(self, node):
        return any(isinstance(n, ast.Call) and self.binding_of(n) for n in self.walk(node)
                   if isinstance(n, ast.Call))

    def unwind(self, scope, out, ctx, to_loop=False):
        """The finally bodies and __exit__ calls a return, raise or break
        runs on its way out (innermost first)."""
        for entry in reversed(ctx):
            if entry[0] == 'loop':
                if to_loop:
                    return
                continue
            if entry[0] == 'finally':
                idx = ctx.index(entry)
                self.block(scope, entry[1], out, ctx[:idx])
            elif entry[0] == 'code':
                for x in entry[1]:
                    out.add(x)

    def assign(self, scope, t, v, out, s, top):
        at = self.at(s)
        if isinstance(t, ast.Name):
            if scope.module and t.id in self.constants and scope.kinds.get(t.id) == 'long long':
                return
            if scope.module and t.id in self.global_objects:
                # g = Class(...): the object of static storage duration,
                # constructed here
                if v.kind == 'obj:' + self.global_objects[t.id]:
                    cls = self.global_objects[t.id]
                    out.add(self.join(at, '  ', self.name_text(t.id, scope.cnames[t.id], t),
                                      '.__assign(', v.m, ');\n'))
                    return
            tv = self.expr(scope, t)
            if not tv.lvalue:
                out.add(self.join(at, '  ', v.m, ';\n'))
                return
            if v.size is not None and getattr(scope, 'assigned', {}).get(t.id) == 1:
                scope.sizes[t.id] = v.size
            if isinstance(v.device, str) and tv.kind == v.kind:
                # d = cuda.device_array(n, ...), cuda.to_device(h),
                # cuda.pinned_array(...): memory of a known size in a known
                # space, freed when the array is collected (never a leak)
                once = getattr(scope, 'assigned', {}).get(t.id) == 1
                if v.device == 'Device':
                    scope.cupy_names.add(t.id)
                if once:
                    scope.array_space[t.id] = v.device
                else:
                    scope.array_space.pop(t.id, None)
                if scope.declared_at.get(t.id) is s:
                    out.add(self.join(at, '  %s ' % ctype_of(v.kind), tv.m, '{};\n'))
                alloc = ARRAY_ALLOC[v.device].split('%s')
                out.add(self.raising(at, alloc[0], tv.m, alloc[1], v.size, alloc[2]))
                out.add(self.join(at, '  cuda_tidy_host::collected(', tv.m, ');\n'))
                if v.upload is not None:
                    src, stream, cat = v.upload
                    if not src.kind.endswith('*'):
                        src = Val(self.join(cat, '(const void *)' + ANY + '(', src.m, ')'), 'void *')
                    st = self.stream_arg(scope, stream)
                    if st:
                        out.add(self.raising(cat, 'cudaMemcpyAsync(', tv.m, ', ', src.m, ', ', v.size,
                                             ', cudaMemcpyHostToDevice, ', st, ')'))
                    else:
                        out.add(self.raising(cat, 'cudaMemcpy(', tv.m, ', ', src.m, ', ', v.size,
                                             ', cudaMemcpyHostToDevice)'))
                return
            if v.device and tv.kind == v.kind:
                # a = cupy.empty(n, dtype=...): device memory of a known
                # size, freed when the array is collected (never a leak);
                # CuPy raises on error
                scope.cupy_names.add(t.id)
                if getattr(scope, 'assigned', {}).get(t.id) == 1:
                    scope.device_arrays.add(t.id)
                if scope.declared_at.get(t.id) is s:
                    out.add(self.join(at, '  %s ' % ctype_of(v.kind), tv.m, '{};\n'))
                out.add(self.join(at, '  ((cudaMalloc((void **)&', tv.m, ', ', v.size,
                                  ') != cudaSuccess) ? (cuda_tidy_host::raise(), 0) : 0);\n'))
                out.add(self.join(at, '  cuda_tidy_host::collected(', tv.m, ');\n'))
                return
            if scope.declared_at.get(t.id) is s:
                out.add(self.join(at, '  %s ' % ctype_of(scope.kinds[t.id]), tv.m, ' = ',
                                  self.convert(v, scope.kinds[t.id], s), ';\n'))
            else:
                out.add(self.join(at, '  ', tv.m, ' = ', self.convert(v, tv.kind, s), ';\n'))
            return
        if isinstance(t, (ast.Attribute, ast.Subscript)):
            tv = self.expr(scope, t)
            if tv.lvalue:
                out.add(self.join(at, '  ', tv.m, ' = ', self.convert(v, tv.kind, s), ';\n'))
                if v.temp:
                    # what a raising call made is the member's now (the
                    # analysis does not follow it through the comma)
                    out.syn('  cuda_tidy_host::flows(%s);\n' % v.temp, 0, at)
            else:
                out.add(self.join(at, '  ', self.opaque(s, [tv, v]).m, ';\n'))
            return
        out.add(self.join(at, '  ', v.m, ';\n'))

    def convert(self, v, kind, node):
        """v as a value of kind (a C-style cast where C++ needs one)."""
        if v.kind == kind or kind == 'any' or v.kind == 'void':
            if v.kind == 'void':
                return self.join(self.at(node), '(', v.m, ', ', ANY, '())')
            return v.m
        if v.kind in ('any', 'none') or kind.startswith('obj:') or v.kind.startswith('obj:'):
            if v.kind == 'none' and (kind.endswith('*') or kind in HANDLE_TYPES.values() or
                                     kind.startswith('obj:')):
                return self.join(self.at(node), '(%s)0' % ctype_of(kind))
            if v.kind == 'any':
                return self.join(self.at(node), '(%s)(' % ctype_of(kind), v.m, ')')
            return self.join(self.at(node), '(%s)(' % ctype_of(kind), ANY + '(', v.m, '))')
        return self.join(self.at(node), '(%s)(' % ctype_of(kind), v.m, ')')

    def tuple_assign(self, scope, target, value, out, s):
        at = self.at(s)
        self.want_tuple = value
        self.out_targets = {}
        for k, e in enumerate(target.elts[1:]):
            if isinstance(e, ast.Name) and e.id != '_' and scope.kinds.get(e.id) is not None:
                ev = self.expr(scope, e)
                if ev.lvalue and e.id not in self.global_objects:
                    self.out_targets[k] = ev
        v = self.expr(scope, value) if isinstance(value, ast.Call) else None
        self.want_tuple = None
        self.out_targets = {}
        outs = v.outs if v is not None else None
        if outs is not None and not any(isinstance(e, ast.Starred) for e in target.elts):
            elts = target.elts
            first = elts[0] if elts else None
            if isinstance(first, ast.Name) and first.id != '_':
                fv = self.expr(scope, first)
                if fv.lvalue:
                    out.add(self.join(at, '  ', fv.m, ' = ', self.convert(v, fv.kind, s), ';\n'))
                else:
                    out.add(self.join(at, '  ', v.m, ';\n'))
            else:
                out.add(self.join(at, '  ', v.m, ';\n'))
            for k, e in enumerate(elts[1:]):
                if k < len(outs) and outs[k][0] is None:
                    continue
                if k < len(outs) and isinstance(e, (ast.Name, ast.Attribute)) and \
                        not (isinstance(e, ast.Name) and e.id == '_'):
                    ev = self.expr(scope, e)
                    if ev.lvalue:
                        out.add(self.join(at, '  ', ev.m, ' = ', self.convert(
                            Val(MStr.anchored(outs[k][0], 0, at), outs[k][1]), ev.kind, s), ';\n'))
                        continue
                if k < len(outs) and not (isinstance(e, ast.Name) and e.id == '_'):
                    # stored where the lowering does not follow it (an
                    # attribute that is no member, an item): the value
                    # goes on, it is not dropped
                    out.add(self.join(at, '  cuda_tidy_host::flows(', outs[k][0], ');\n'))
            return
        if v is None:
            v = self.expr(scope, value)
        elif outs is not None:
            v = Val(self.join(at, 'cuda_tidy_host::result(', v.m,
                              ''.join(', ' + t for t, _ in outs if t), ')'), 'any')
        out.add(self.join(at, '  ', v.m, ';\n'))
        for e in target.elts:
            if isinstance(e, ast.Name):
                ev = self.expr(scope, e)
                if ev.lvalue:
                    out.add(self.join(at, '  ', ev.m, ' = ', self.convert(
                        Val(self.join(at, ANY + '()'), 'any'), ev.kind, s), ';\n'))

    # --- the unit -----------------------------------------------------------------------

    def lower(self):
        """The host part of the unit (an MStr), or None when the file
        makes no call through a binding."""
        if self.model is None or not self.collect():
            return None
        r = self.r
        ms = self.module_scope
        module_nodes = self.scope_nodes(r.tree)
        # module globals that hold an object of a class of the file, also
        # under `if __name__ == "__main__":` (every module-level binding of
        # the name is that class's constructor)
        other = set()
        for stmt in module_nodes:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                    isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call) and \
                    isinstance(stmt.value.func, ast.Name) and stmt.value.func.id in self.classes and \
                    self.global_objects.get(stmt.targets[0].id, stmt.value.func.id) == stmt.value.func.id:
                self.global_objects[stmt.targets[0].id] = stmt.value.func.id
            elif isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.withitem)):
                for t in self.walk(stmt.target if hasattr(stmt, 'target') else stmt):
                    if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store):
                        other.add(t.id)
        for name in other:
            self.global_objects.pop(name, None)
        # module constants: bound once, at the top level, to an integer
        declared_global = set()
        for n in self.by_type(r.nodes).get(ast.Global, _NO_NODES):
            declared_global.update(n.names)
        for name, entries in r.scope_assigns(r.tree).items():
            if len(entries) == 1 and entries[0][2] and isinstance(entries[0][1], ast.Constant) and \
                    type(entries[0][1].value) is int and abs(entries[0][1].value) < 1 << 62 and \
                    name not in declared_global:
                self.constants[name] = entries[0][1].value
        # classes' members (methods assign self.X), twice: a member may be
        # set from another
        for _ in range(2):
            for cname, c in self.classes.items():
                for m in c.body:
                    if isinstance(m, ast.FunctionDef):
                        sc = self.function_scope(m, cname)
                        self.infer(sc, self.scope_nodes(m))
        self.infer(ms, module_nodes)
        self._kinds_ready = True
        for name, cls in list(self.global_objects.items()):
            if ms.kinds.get(name) != 'obj:' + cls:
                del self.global_objects[name]
        for name in list(ms.kinds):
            if name in self.functions or name in self.classes:
                del ms.kinds[name]
        self.held_objects = self.objects_held_to_exit()
        b = MStrLog()
        rest = MStrLog()
        self.emit_unit(rest, module_nodes)
        if not self.calls:
            return None
        unit = rest.build()
        # the driver API's names (CUresult, CUdevice, CUDA_SUCCESS, cu*)
        if self.driver_calls or 'CU' in unit.text:
            b.syn(DRIVER_INCLUDE, 0, 0)
        for header in sorted(self.__dict__.get('library_headers', ())):
            b.syn('#include <%s>\n' % header, 0, 0)
        b.syn(HOST_PRELUDE, 0, 0)
        if self.launched:
            b.syn(KERNEL_PRELUDE, 0, 0)
        if self.host_memory_calls:
            b.syn(STRING_INCLUDE, 0, 0)
        b.add(unit)
        return b.build()

    def emit_unit(self, b, module_nodes):
        r = self.r
        ms = self.module_scope
        b.syn('namespace cuda_tidy_py {\n', 0, 0)
        for cname, c in self.classes.items():
            b.syn('struct %s;\n' % cname, 0, self.at(c))
        for fname, f in self.functions.items():
            b.add(self.signature(f, None, ';\n'))
        method_bodies = []
        for cname, c in self.classes.items():
            b.syn('struct %s {\n' % cname, 0, self.at(c))
            for member, kind in sorted(self.class_members.get(cname, {}).items()):
                b.syn('  %s %s{};\n' % (ctype_of(kind), cxx_name(member)), 0, self.at(c))
            init = self.method(cname, '__init__')
            if init is not None and not self.method_ok(init):
                init = None
            params = self.param_list(init, True) if init else ''
            names = self.param_names(init, True) if init else []
            b.syn('  static %s *__new(%s) { %s *o = new %s; %s return o; }\n' % (
                cname, params, cname, cname,
                ('o->__init__(%s);' % ', '.join(names)) if init else ''), 0, self.at(c))
            b.syn('  void __assign(%s *o) { *this = *o; }\n' % cname, 0, self.at(c))
            b.syn('  template <class T> explicit operator T() const { return T(); }\n', 0, self.at(c))
            for m in c.body:
                if isinstance(m, ast.FunctionDef) and self.method_ok(m) and \
                        self.method(cname, m.name) is m:
                    b.add(self.signature(m, cname, ';\n', decl=True))
                    method_bodies.append((cname, m))
            d = self.method(cname, '__del__')
            if d is not None and self.method_ok(d) and len(d.args.args) == 1:
                b.syn('  ~%s() { __del__(); }\n' % cname, 0, self.at(d))
            b.syn('};\n', 0, self.at(c))
        # module globals: objects of static storage duration
        for name, kind in ms.kinds.items():
            ms.cnames[name] = cxx_name(name)
            node = self.global_node(name)
            text = self.name_text(name, ms.cnames[name], node)
            if name in self.global_objects:
                b.add(self.join(0, '%s ' % self.global_objects[name], text, ';\n'))
            elif name in self.constants and kind == 'long long':
                b.add(self.join(self.at(node), 'constexpr long long ', text,
                                ' = %dLL;\n' % self.constants[name]))
            else:
                b.add(self.join(0, '%s ' % ctype_of(kind), text, '{};\n'))
        # objects that live until exit without a global of their own
        # (objects_held_to_exit): globals of their class too
        for k, (cname, node) in enumerate(self.__dict__.get('held_objects', ())):
            at = self.at(node)
            self.python_name(at, '__held%d' % k, node)
            b.add(self.join(0, '%s ' % cname, MStr.anchored('__held%d' % k, 0, at), ';\n'))
        funcs = MStrLog()
        for fname, f in self.functions.items():
            self.function(f, None, funcs)
        for cname, m in method_bodies:
            self.function(m, cname, funcs)
        body = MStrLog()
        self.block(ms, r.tree.body, body, [], top=True)
        # the kernels launched, before the functions that launch them
        for kname in sorted(self.launched):
            b.add(self.kernel_stub(kname, self.kernels[kname][0]))
        for flag in self.__dict__.get('exit_flags', ()):
            b.syn('bool %s{};\n' % flag, 0, 0)
        b.add(funcs.build())
        for thunk, call, at in self.thunks:
            b.syn('static void %s() { ' % thunk, 0, at)
            b.add(call)
            b.syn('; }\n', 0, at)
        b.syn('void __module() {\n', 0, 0)
        for tname, ct in ms.temps:
            b.syn('  %s %s{};\n' % (ctype_of(ct), tname), 0, 0)
        b.add(body.build())
        if not self.python_exit:
            b.syn('}\n}\nint main() {\n  cuda_tidy_py::__module();\n  return 0;\n}\n', 0, 0)
            return
        # Python's exit handlers, called by main after the module's code
        b.syn('}\nvoid __python_exit() {\n', 0, 0)
        for call, at in reversed(self.python_exit):
            b.syn('  ', 0, at)
            b.add(call)
            b.syn(';\n', 0, at)
        b.syn('}\n}\nint main() {\n  cuda_tidy_py::__module();\n  cuda_tidy_py::__python_exit();\n'
              '  return 0;\n}\n', 0, 0)

    CONTAINER_STORES = ('append', 'add', 'insert', 'setdefault', 'appendleft')
    CONTAINER_MAKERS = ('dict', 'list', 'set', 'collections.OrderedDict', 'collections.defaultdict',
                        'collections.deque')
    CACHE_DECORATORS = ('functools.lru_cache', 'functools.cache')

    def objects_held_to_exit(self):
        """(class, node) of the objects of the file's classes with a __del__
        that Python keeps until its finalization without a module global
        of their own, so that their __del__ runs at exit as a module
        global's does: an object stored into a module-level dict, list or
        set (`_states[dev] = State()`, `_pool.append(p)`), assigned to a
        class attribute (`cls._instance = Pool()`), or returned by a
        module function cached with functools.lru_cache or functools.cache
        (its cache holds what it returns). Only an object made by the
        class's own constructor, there or in a local bound to nothing else."""
        r = self.r
        dels = {c for c in self.classes
                if (lambda d: d is not None and self.method_ok(d) and len(d.args.args) == 1)(
                    self.method(c, '__del__'))}
        if not dels:
            return []
        containers = set()
        for name, entries in r.scope_assigns(r.tree).items():
            if len(entries) == 1 and entries[0][2]:
                v = entries[0][1]
                if isinstance(v, (ast.Dict, ast.List, ast.Set)) or (
                        isinstance(v, ast.Call) and (self.qualname(v.func) or '') in self.CONTAINER_MAKERS):
                    containers.add(name)
        # a container that the file empties (`X.clear()`, `global X; X = {}`
        # in a function, an atexit handler's reset) may release its objects
        # before exit: not certain
        for n in r.nodes:
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    n.func.attr in ('clear', 'pop', 'popitem', 'remove') and \
                    isinstance(n.func.value, ast.Name):
                containers.discard(n.func.value.id)
            elif isinstance(n, ast.Global):
                f = r.scope_of(n)
                for name in n.names:
                    if name in r.scope_assigns(f):
                        containers.discard(name)
            elif isinstance(n, ast.Delete):
                for tg in n.targets:
                    if isinstance(tg, ast.Subscript) and isinstance(tg.value, ast.Name):
                        containers.discard(tg.value.id)

        def made(value):
            """The class of the object value is, when it is certain."""
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
                    value.func.id in dels and self.r.scope_of(value) is not None:
                return value.func.id
            if isinstance(value, ast.Name):
                f = r.scope_of(value)
                if f is r.tree or not isinstance(f, ast.FunctionDef):
                    return None
                # bound only to the class's constructor, to None, or to what
                # the same module container holds (`rs = _states.get(k)`)
                kinds = set()
                for b in r.scope_assigns(f).get(value.id, []):
                    v = b[1]
                    if isinstance(v, ast.Constant) and v.value is None:
                        continue
                    if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and \
                            v.func.attr in ('get', 'setdefault') and module_container(v.func.value):
                        continue
                    kinds.add(made(v) if isinstance(v, ast.Call) else None)
                if len(kinds) == 1:
                    return kinds.pop()
            return None

        def module_container(e):
            if not (isinstance(e, ast.Name) and e.id in containers):
                return False
            f = r.scope_of(e)
            return f is r.tree or e.id not in r.scope_assigns(f) or self.is_global(e)

        held = []
        seen = set()

        def keep(cls, node):
            key = (cls, node.lineno, node.col_offset)
            if cls and key not in seen:
                seen.add(key)
                held.append((cls, node))

        for n in r.nodes:
            if isinstance(n, ast.Assign):
                for tg in n.targets:
                    if isinstance(tg, ast.Subscript) and module_container(tg.value):
                        keep(made(n.value), tg)
                    elif isinstance(tg, ast.Attribute) and isinstance(tg.value, ast.Name):
                        f = r.scope_of(tg)
                        owner = tg.value.id
                        if owner == 'cls' and isinstance(f, ast.FunctionDef) and any(
                                isinstance(d, ast.Name) and d.id == 'classmethod' for d in f.decorator_list):
                            keep(made(n.value), tg)
                        elif owner in self.classes and owner not in (r.scope_assigns(f) if f is not r.tree else {}):
                            keep(made(n.value), tg)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    n.func.attr in self.CONTAINER_STORES and module_container(n.func.value) and n.args:
                keep(made(n.args[-1]), n.func.value)
            elif isinstance(n, ast.FunctionDef) and r.scope_of(n) is r.tree and any(
                    (self.qualname(d.func if isinstance(d, ast.Call) else d) or '') in self.CACHE_DECORATORS
                    for d in n.decorator_list):
                for s in self.walk(n):
                    if isinstance(s, ast.Return) and s.value is not None and r.scope_of(s) is n:
                        keep(made(s.value), s.value)
        return held

    def global_node(self, name):
        for stmt in self.scope_nodes(self.r.tree):
            if isinstance(stmt, ast.Assign):
                for t in stmt.targets:
                    if isinstance(t, ast.Name) and t.id == name:
                        return t
            if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and isinstance(stmt.target, ast.Name) \
                    and stmt.target.id == name:
                return stmt.target
        return self.r.tree.body[0] if self.r.tree.body else self.r.tree

    def walk(self, node):
        """Every node under node in source.walk's order, from the reader's
        child lists (Reader.children, made once in that order) instead of
        reading each node's fields again; memoized per node (the lowering
        walks each function five times). A caller does not modify the list."""
        memo = self.__dict__.setdefault('_walks', {})
        nodes = memo.get(id(node))
        if nodes is not None and nodes[0] is node:
            return nodes
        children = self.r.children
        nodes = [node]
        extend = nodes.extend
        for n in nodes:
            c = children.get(n)
            extend(iter_child_nodes(n) if c is None else c)
        memo[id(node)] = nodes
        return nodes

    def by_type(self, nodes):
        """The nodes of a memoized node list (walk, scope_nodes) by their
        type, each type's in the list's order: one pass over a function's
        nodes that every later question about them shares (which names it
        stores, whether it returns a value, what it keeps elsewhere...)
        instead of a pass of each over all of them."""
        memo = self.__dict__.setdefault('_by_type', {})
        entry = memo.get(id(nodes))
        if entry is not None and entry[0] is nodes:
            return entry[1]
        buckets = {}
        get = buckets.get
        for n in nodes:
            t = type(n)
            b = get(t)
            if b is None:
                buckets[t] = [n]
            else:
                b.append(n)
        memo[id(nodes)] = (nodes, buckets)
        return buckets

    def infer_nodes(self, nodes):
        """The nodes of a memoized node list that infer reads
        (_INFER_NODES), in the list's order."""
        buckets = self.by_type(nodes)
        out = buckets.get(_INFER_KEY)
        if out is None:
            out = buckets[_INFER_KEY] = [n for n in nodes if type(n) in _INFER_NODES]
        return out

    def scope_nodes(self, scope_node):
        """The nodes of a scope, not of the scopes nested in it."""
        memo = self.__dict__.setdefault('_scope_nodes_memo', {})
        if id(scope_node) not in memo:
            memo[id(scope_node)] = self._scope_nodes(scope_node)
        return memo[id(scope_node)]

    def _scope_nodes(self, scope_node):
        out = []
        children = self.r.children
        pending = list(children.get(scope_node, ()))
        pop, push, append, get = pending.pop, pending.extend, out.append, children.get
        while pending:
            n = pop()
            if type(n) in _NESTED_SCOPES:
                continue
            append(n)
            c = get(n)
            if c:
                push(c)
        out.sort(key=_position)
        return out

    def function_scope(self, f, cls):
        key = ('scope', id(f))
        sc = self.__dict__.setdefault('_scopes', {}).get(key)
        if sc is None:
            sc = Scope(f, cls)
            a = f.args
            kinds = self.param_kinds(f)
            for k, arg in enumerate(a.args):
                if cls and k == 0:
                    continue
                sc.kinds[arg.arg] = kinds.get(arg.arg, 'any')
                sc.cnames[arg.arg] = cxx_name(arg.arg)
            self._scopes[key] = sc
        return sc

    def param_kinds(self, f):
        """Kinds of parameters that the body's uses tell: integers
        (integer_params), and PyCUDA devices and contexts (the methods
        called on them are CUDA_PYTHON_CALL rows of only that class)."""
        memo = self.__dict__.setdefault('_param_kinds', {})
        if id(f) in memo:
            return memo[id(f)]
        kinds = dict((n, 'long long') for n in self.integer_params(f))
        kinds.update(self.status_params(f, kinds))
        names = set(a.arg for a in f.args.args) - set(kinds)
        if names and 'pycuda' in self.r.source:
            owners = self.__dict__.get('_pycuda_owners')
            if owners is None:
                owners = self._pycuda_owners = {}
                for (mod, name) in self.model.calls:
                    if mod == 'pycuda.driver' and '.' in name:
                        cls, _, meth = name.partition('.')
                        owners.setdefault(meth, set()).add(cls)
            used = {}
            for n in self.by_type(self.scope_nodes(f)).get(ast.Name, _NO_NODES):
                if n.id in names:
                    p = self.r.parents.get(n)
                    if isinstance(p, ast.Attribute) and isinstance(self.r.parents.get(p), ast.Call) and \
                            self.r.parents[p].func is p and p.attr in owners:
                        used.setdefault(n.id, set()).add(p.attr)
                    elif isinstance(n.ctx, ast.Store):
                        used[n.id] = None
            for name, meths in used.items():
                if not meths:
                    continue
                classes = set.intersection(*(owners[m] for m in meths))
                if classes == {'Device'}:
                    kinds[name] = 'py:Device'
                elif 'Context' in classes and 'detach' not in meths:
                    kinds[name] = 'py:Context'
        memo[id(f)] = kinds
        return kinds

    def status_params(self, f, taken):
        """Parameters of a module function that receive a CUDA status: every
        use of the function's name in the file is a direct call that passes
        there a call through a binding returning a status (Status
        convention), all of one status type, and the body only compares the
        parameter (or names it in what it raises) and never rebinds it.
        The parameter then has that type, as in `static void
        check(cudaError_t err)` of a .cu file, instead of an `any` whose
        constructor template each call instantiates
        (bench/results/python-host-cost-2026-12-08.md)."""
        if self.functions.get(f.name) is not f or f.decorator_list or not self.plain_function(f):
            return {}
        params = [a.arg for a in f.args.args]
        wanted = [k for k, name in enumerate(params) if name not in taken]
        if not wanted:
            return {}
        r = self.r
        file_nodes = self.by_type(r.nodes)
        # the name is the function's everywhere: no parameter, import,
        # other definition or handler binds it (a stored Name is not a call)
        name = f.name
        if any(a.arg == name for a in file_nodes.get(ast.arg, _NO_NODES)) or \
                any(d is not f and d.name == name for t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
                    for d in file_nodes.get(t, _NO_NODES)) or \
                any(h.name == name for h in file_nodes.get(ast.ExceptHandler, _NO_NODES)) or \
                any((x.asname or x.name).partition('.')[0] == name for t in (ast.Import, ast.ImportFrom)
                    for i in file_nodes.get(t, _NO_NODES) for x in i.names):
            return {}
        types = {}
        calls = 0
        for n in file_nodes.get(ast.Name, _NO_NODES):
            if n.id != name:
                continue
            call = r.parents.get(n)
            if not (isinstance(call, ast.Call) and call.func is n and isinstance(n.ctx, ast.Load)) or \
                    call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
                return {}
            calls += 1
            for k in wanted:
                t = None
                if k < len(call.args) and isinstance(call.args[k], ast.Call):
                    b = self.binding_of(call.args[k])
                    if b and b[1] == 'Status':
                        t = self.model.status_of(b[0])[0]
                types.setdefault(k, set()).add(t)
        if not calls:
            return {}
        out = {}
        inner = self.by_type(self.scope_nodes(f)).get(ast.Name, _NO_NODES)
        every = self.by_type(self.walk(f)).get(ast.Name, _NO_NODES)
        for k in wanted:
            t = types.get(k)
            if not t or len(t) != 1 or None in t:
                continue
            name = params[k]
            uses = [n for n in inner if n.id == name]
            if len(uses) != sum(1 for n in every if n.id == name):
                continue  # a nested scope reads it
            ok = True
            for n in uses:
                p = r.parents.get(n)
                if isinstance(n.ctx, ast.Load) and isinstance(p, ast.Compare) and len(p.ops) == 1:
                    continue
                while p is not None and p is not f and not isinstance(p, ast.stmt):
                    p = r.parents.get(p)
                if isinstance(n.ctx, ast.Load) and isinstance(p, ast.Raise):
                    continue
                ok = False
                break
            if ok:
                out[name] = t.pop()
        return out

    def integer_params(self, f):
        memo = self.__dict__.setdefault('_integer_params_memo', {})
        if id(f) not in memo:
            memo[id(f)] = self._integer_params(f)
        return memo[id(f)]

    def _integer_params(self, f):
        """The parameters of f that its body uses only as integers: in
        arithmetic with an integer literal, or as range()'s bounds, and
        never rebound; the lowering gives them the type long long (a
        caller's value is converted)."""
        names = set(a.arg for a in f.args.args)
        ints, other = set(), set()
        for n in self.by_type(self.scope_nodes(f)).get(ast.Name, _NO_NODES):
            if n.id in names:
                p = self.r.parents.get(n)
                if isinstance(p, ast.BinOp) and isinstance(p.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv,
                                                                  ast.Mod, ast.LShift)):
                    o = p.right if p.left is n else p.left
                    if isinstance(o, ast.Constant) and type(o.value) is int:
                        ints.add(n.id)
                        continue
                if isinstance(p, ast.Call) and isinstance(p.func, ast.Name) and p.func.id == 'range' \
                        and n in p.args:
                    ints.add(n.id)
                    continue
                if isinstance(p, ast.Call) and p.args and p.args[0] is n and self.model.arrays and \
                        self.model.arrays.get((self.qualname(p.func) or '').rpartition('.')[::2],
                                              ('', ''))[1] == 'Shape':
                    # the shape of a new array (CUDA_PYTHON_ARRAY, Shape)
                    ints.add(n.id)
                    continue
                if isinstance(p, (ast.BinOp, ast.Compare, ast.AugAssign)) or (
                        isinstance(p, ast.arguments)) or (isinstance(p, ast.Call) and n in p.args):
                    if isinstance(n.ctx, ast.Load):
                        continue
                other.add(n.id)
        return ints - other

    def method_ok(self, m):
        a = m.args
        return bool(a.args) and a.args[0].arg == 'self' and not (a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs) and \
            not m.decorator_list

    def param_names(self, f, is_method):
        a = f.args.args[1:] if is_method else f.args.args
        return [cxx_name(x.arg) for x in a]

    def param_list(self, f, is_method, defaults=True):
        a = f.args
        params = a.args[1:] if is_method else a.args
        first_default = len(params) - len(a.defaults)
        out = []
        kinds = self.param_kinds(f)
        for k, p in enumerate(params):
            d = (' = ' + ANY + '()') if defaults and k >= first_default else ''
            ct = ctype_of(kinds.get(p.arg, 'any'))
            if d and ct != ANY:
                d = ' = 0'
            out.append('%s %s%s' % (ct, cxx_name(p.arg), d))
        return ', '.join(out)

    def signature(self, f, cls, tail, decl=False):
        at = self.at(f)
        ret = self.call_result(f, cls)
        ret = ANY if ret == 'any' else ret
        name = cxx_name(f.name) if not cls else self.method_cname(f.name)
        if cls is None and not self.plain_function(f):
            return MStr('', [])
        if cls and not decl:
            return MStr.anchored('%s %s::%s(%s)%s' % (ret, cls, name, self.param_list(f, True, False), tail), 0, at)
        if cls:
            return MStr.anchored('  %s %s(%s)%s' % (ret, name, self.param_list(f, True), tail), 0, at)
        return MStr.anchored('%s %s(%s)%s' % (ret, name, self.param_list(f, False, tail == ';\n'), tail),
                             0, at)

    @staticmethod
    def method_cname(name):
        return name if name.startswith('__') and name.endswith('__') and name.isascii() else cxx_name(name)

    def plain_function(self, f):
        a = f.args
        return not (a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs)

    def function(self, f, cls, out):
        """Writes the lowered f into the builder out."""
        if cls is None and not self.plain_function(f):
            return
        if cls is None and f.decorator_list:
            # a decorated function is what the decorator returns: its
            # body still runs when called, so it is lowered
            pass
        sc = self.function_scope(f, cls)
        sc.returns = self.returns_value(f)
        nodes = self.scope_nodes(f)
        if not (sc.inferred and not self.classes):
            # Inferred again only where the file has classes: a method's
            # inference may change a class member's kind in between. Without
            # them the inputs (module kinds, other functions' return kinds)
            # are what return_kind's inference read, and a second pass only
            # merged each kind with itself.
            self.infer(sc, nodes)
        # where each local is declared: at its first assignment, when that
        # is a statement of the body itself and nothing reads it before
        first = {}
        kinds = sc.kinds
        for n in self.by_type(nodes).get(ast.Name, _NO_NODES):
            if n.id in kinds and n.id not in first:
                first[n.id] = n
        for stmt in f.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                    isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                fn = first.get(name)
                if fn is stmt.targets[0] and name not in sc.declared_at and name not in self.param_set(f):
                    sc.declared_at[name] = stmt
        body = MStrLog()
        self.block(sc, f.body, body, [])
        out.add(self.signature(f, cls, ' {\n'))
        params = self.param_set(f)
        for name, kind in sc.kinds.items():
            if name in params or name in sc.declared_at or name in sc.globals_:
                continue
            out.syn('  %s %s{};\n' % (ctype_of(kind), sc.cnames[name]), 0, self.at(f))
        for tname, ct in sc.temps:
            out.syn('  %s %s{};\n' % (ctype_of(ct), tname), 0, self.at(f))
        out.add(body.build())
        last = self.at(f.body[-1]) if f.body else self.at(f)
        if sc.returns:
            out.syn('  return 0;\n' if self.typed_return(sc) else '  return %s();\n' % ANY, 0, last)
        out.syn('}\n', 0, last)

    def param_set(self, f):
        return set(a.arg for a in f.args.args)
