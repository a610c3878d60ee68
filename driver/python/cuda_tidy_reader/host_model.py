"""The rows of analysis/CudaApiModel.def that the host lowering reads
(CUDA_PYTHON_BINDING, CUDA_PYTHON_API, CUDA_PYTHON_CALL, and the CUDA_ALLOC
and CUDA_RESOURCE rows that say what an out-parameter holds). The file is
installed beside this package (CMakeLists.txt); in the source tree it is
analysis/CudaApiModel.def. Read once per reader process, and only for a
file with host code."""

import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_CANDIDATES = (os.path.join(_HERE, 'CudaApiModel.def'),
               os.path.join(_HERE, '..', '..', '..', 'analysis', 'CudaApiModel.def'))

_FAMILIES = ('CUDA_PYTHON_BINDING(', 'CUDA_PYTHON_API(', 'CUDA_PYTHON_CALL(',
             'CUDA_ALLOC(', 'CUDA_RESOURCE(', 'CUDA_COPY(', 'CUDA_PYTHON_ARRAY(',
             'CUDA_PYTHON_ARRAY_COPY(', 'CUDA_PYTHON_KERNEL(', 'CUDA_PYTHON_GENERATED_MODULE(',
             'CUDA_DEVICE_RESET(', 'CUDA_PYTHON_MODULE_ALIAS(', 'CUDA_PYTHON_LIBRARY(',
             'CUDA_STATUS_TYPE(', 'CUDA_RESOURCE_BY_ADDRESS(', 'CUDA_FREE(', 'CUDA_SYNC(')

#: The runtime's handle types by the resource or scope a row names.
_RUNTIME_HANDLES = {'Stream': 'cudaStream_t', 'Event': 'cudaEvent_t'}


class HostModel:
    def __init__(self, text):
        #: module -> (library, convention); 'ctypes' -> {library: convention}
        self.bindings = {}
        self.ctypes = {}
        #: CUDA function -> (params, outs tuple, overloaded)
        self.api = {}
        #: (module, python name) -> (function, args list, result)
        self.calls = {}
        #: CUDA function (without _v2) -> (library, space) of its out pointer
        self.alloc = {}
        #: CUDA function (without _v2) -> (library, resource, role, handle arg)
        self.resource = {}
        #: destroys that take the handle's address (CUDA_RESOURCE_BY_ADDRESS):
        #: cuda-python passes the handle, the C function its address
        self.by_address = set()
        #: CUDA function (without _v2) -> kind argument index
        self.copy_kind = {}
        #: CUDA function (without _v2) -> its byte-count argument index
        self.bytes_arg = {}
        #: runtime CUDA function -> {argument index: its parameter's C type},
        #: for the handles and pointers that CUDA_FREE, CUDA_SYNC and
        #: CUDA_RESOURCE rows name (an argument of that very type needs no cast)
        self.param_types = {}
        #: runtime copy -> (destination, source, stream) argument indexes
        self.copy_ptrs = {}
        #: (module, name) -> (space, form) of a call that makes a collected array
        self.arrays = {}
        #: (module, method) -> (direction, target list, stream index)
        self.array_copies = {}
        #: (module, decorator) -> subscript index of the launch's stream
        self.kernels = {}
        #: last names of generated ctypes binding modules
        self.generated = set()
        #: functions that end the device's context (CUDA_DEVICE_RESET)
        self.resets = set()
        #: python names of CUDA_PYTHON_CALL rows that are such a function
        self.python_resets = {}
        #: library -> (prefix, header, status type, success) of the CUDA
        #: libraries other than the runtime and the driver (CUDA_PYTHON_LIBRARY)
        self.libraries = {}
        #: (alias, module) of CUDA_PYTHON_MODULE_ALIAS rows
        aliases = []
        #: library -> (status type, success): its first CUDA_STATUS_TYPE row
        statuses = {}
        #: every CUDA_STATUS_TYPE row's type (cudaError_t, cublasStatus_t...)
        self.status_types = set()
        for line in text.split('\n'):
            if not line.startswith(_FAMILIES):
                continue
            family, _, rest = line.partition('(')
            body = rest[:rest.rfind(')')]
            if family == '#define':
                continue
            cols = [c.strip() for c in body.split(',')]
            if cols and cols[0] in ('Name', 'Module'):
                continue  # the #define line's parameter names
            if family == 'CUDA_PYTHON_BINDING' and len(cols) == 3:
                if cols[0] == 'ctypes':
                    self.ctypes[cols[1]] = cols[2]
                else:
                    self.bindings[cols[0]] = (cols[1], cols[2])
            elif family == 'CUDA_PYTHON_API' and len(cols) == 4:
                outs = () if cols[2] == 'None' else tuple(int(x) for x in cols[2].split('|'))
                self.api[cols[0]] = (int(cols[1]), outs, cols[3] == '1')
            elif family == 'CUDA_PYTHON_CALL' and len(cols) == 5:
                self.calls[(cols[0], cols[1])] = (cols[2], cols[3].split(), cols[4])
            elif family == 'CUDA_PYTHON_ARRAY' and len(cols) == 4:
                self.arrays[(cols[0], cols[1])] = (cols[2], cols[3])
            elif family == 'CUDA_PYTHON_ARRAY_COPY' and len(cols) == 5:
                self.array_copies[(cols[0], cols[1])] = (cols[2], cols[3].split(), int(cols[4]))
            elif family == 'CUDA_PYTHON_GENERATED_MODULE' and len(cols) == 1 and cols[0] != 'LastName':
                self.generated.add(cols[0])
            elif family == 'CUDA_PYTHON_LIBRARY' and len(cols) == 3 and cols[0] != 'Library':
                self.libraries[cols[0]] = tuple(cols[1:])
            elif family == 'CUDA_STATUS_TYPE' and len(cols) == 3 and cols[0] != 'Library':
                statuses.setdefault(cols[0], (cols[1], cols[2]))
                self.status_types.add(cols[1])
            elif family == 'CUDA_PYTHON_MODULE_ALIAS' and len(cols) == 2 and cols[0] != 'Alias':
                aliases.append((cols[0], cols[1]))
            elif family == 'CUDA_DEVICE_RESET' and len(cols) == 1 and cols[0] != 'Name':
                self.resets.add(strip_version(cols[0]))
            elif family == 'CUDA_PYTHON_KERNEL' and len(cols) == 3:
                self.kernels[(cols[0], cols[1])] = int(cols[2])
            elif family == 'CUDA_ALLOC' and len(cols) == 8:
                self.alloc[strip_version(cols[0])] = (cols[1], cols[2])
                self.bytes_arg[strip_version(cols[0])] = int(cols[4])
            elif family == 'CUDA_RESOURCE_BY_ADDRESS' and len(cols) == 1:
                self.by_address.add(cols[0])
            elif family == 'CUDA_RESOURCE' and len(cols) == 5:
                self.resource[strip_version(cols[0])] = (cols[1], cols[2], cols[3], int(cols[4]))
                t = _RUNTIME_HANDLES.get(cols[2]) if cols[1] == 'Runtime' else None
                if t and cols[3] in ('Create', 'Destroy'):
                    self.param_types.setdefault(cols[0], {})[int(cols[4])] = \
                        t + ' *' if cols[3] == 'Create' else t
            elif family == 'CUDA_FREE' and len(cols) == 5 and cols[1] == 'Runtime':
                self.param_types.setdefault(cols[0], {})[int(cols[3])] = 'void *'
            elif family == 'CUDA_SYNC' and len(cols) == 4 and cols[1] == 'Runtime' and \
                    cols[2] in _RUNTIME_HANDLES:
                self.param_types.setdefault(cols[0], {})[int(cols[3])] = _RUNTIME_HANDLES[cols[2]]
            elif family == 'CUDA_COPY' and len(cols) == 9:
                self.copy_kind[strip_version(cols[0])] = int(cols[5])
                if cols[1] == 'Runtime' and 'Set' not in cols[8] and 'Pitched' not in cols[8]:
                    self.copy_ptrs[cols[0]] = (int(cols[2]), int(cols[3]), int(cols[6]))
                self.bytes_arg[strip_version(cols[0])] = int(cols[4])
        for lib, row in list(self.libraries.items()):
            if lib in statuses:
                self.libraries[lib] = row + statuses[lib]
            else:
                del self.libraries[lib]
        for alias, module in aliases:
            for (m, name), row in list(self.calls.items()):
                if m == module:
                    self.calls[(alias, name)] = row
        for (_, name), (function, _, _) in self.calls.items():
            if strip_version(function) in self.resets:
                self.python_resets[name.rpartition('.')[2]] = True


    def library_of(self, fn):
        """The library whose function fn is: a CUDA_PYTHON_LIBRARY row's,
        Runtime for cuda*, Driver for the other cu* functions (once per
        name: the lowering asks for each call)."""
        memo = self.__dict__.setdefault('_library_of', {})
        lib = memo.get(fn)
        if lib is None:
            lib = memo[fn] = self._library_of_name(fn)
        return lib

    def _library_of_name(self, fn):
        for lib, (prefix, _, _, _) in self.libraries.items():
            if fn.startswith(prefix):
                return lib
        return 'Runtime' if fn.startswith('cuda') else 'Driver'

    def status_of(self, fn):
        """(status type, success) of what CUDA function fn returns."""
        lib = self.library_of(fn)
        if lib in self.libraries:
            return self.libraries[lib][2:]
        return ('cudaError_t', 'cudaSuccess') if lib == 'Runtime' else ('CUresult', 'CUDA_SUCCESS')

    def library_file(self, text):
        """The library of a CUDA_PYTHON_LIBRARY row that a shared library's
        name (libcublas.so.12) is, or None."""
        for lib, (prefix, _, _, _) in self.libraries.items():
            if 'lib' + prefix + '.' in text or 'lib' + prefix + '64' in text or \
                    text.strip('\'"') in ('lib' + prefix, prefix):
                return lib
            # a loader's variable named for it (scikit-cuda's
            # `for _libcublas_libname in ...: LoadLibrary(_libcublas_libname)`)
            at = text.find('_lib' + prefix + '_')
            if at >= 0 and text.isidentifier():
                return lib
        return None


def strip_version(name):
    return name[:-3] if name.endswith(('_v2', '_v3', '_v4')) else name


_MODEL = []


def host_model():
    """The model, read once; None when no CudaApiModel.def is found (then
    nothing is lowered)."""
    if _MODEL:
        return _MODEL[0]
    model = None
    for path in _CANDIDATES:
        try:
            with open(path, 'r', encoding='utf-8') as f:
                model = HostModel(f.read())
            break
        except OSError:
            continue
    _MODEL.append(model)
    return model
