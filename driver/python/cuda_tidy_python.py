#!/usr/bin/env python3
"""cuda-tidy's reader of Python files (docs/python.md).

Reads a .py file with CPython's own parser (ast), finds the CUDA source given
to CuPy, PyCUDA and torch.utils.cpp_extension.load_inline, and writes, as
JSON on stdout, one CUDA translation unit holding every kernel module of the
file, the synthetic host functions that launch them as the Python code does,
and a map from each byte of that unit back to the Python file (or to the file
a kernel was read from). The driver analyses the unit and reports every
finding through the map (driver/PythonInput.cpp).

Nothing is guessed: a source whose text is not known in the file (a hole
that is not a constant of the module, a function parameter) is skipped and
named in "notes".

Usage: cuda_tidy_python.py FILE.py [--stats|--tu]   one file, JSON on stdout
       cuda_tidy_python.py --serve   files named on stdin, one per line;
                                     one line of JSON each (see serve())
Exit codes: 0 (JSON written, possibly with "errors"), 2 internal error.
"""

import io
import itertools
import keyword
import os
import sys
from bisect import bisect_right

# CPython's parser and node classes. The ast module adds only helpers, and
# importing it costs as much as all the reader's other imports: the three
# the reader needs are below.
try:
    import _ast as ast
except ImportError:  # an implementation without it
    import ast


def parse_python(source, path):
    return compile(source, path, 'exec', ast.PyCF_ONLY_AST)


def iter_child_nodes(node):
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            yield value
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, ast.AST):
                    yield item


def walk(node):
    """Every node under node, breadth first (as ast.walk)."""
    nodes = [node]
    for n in nodes:
        nodes.extend(iter_child_nodes(n))
    return nodes


def copy_location(new, old):
    for attr in ('lineno', 'col_offset', 'end_lineno', 'end_col_offset'):
        if hasattr(old, attr):
            setattr(new, attr, getattr(old, attr))
    return new


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


# --- Mapped strings ----------------------------------------------------------

#: Beyond any offset: bisect's key for "the last run starting at or before".
_PAST = float('inf')


class MStr:
    """Text with where each character came from, as runs: (start in text,
    file, offset, exact), starts strictly increasing, the first at 0. An
    exact run is the file's own characters from offset on (a replacement
    there is a replacement in the file); every character of any other run
    is anchored at (file, offset). No run continues the one before it (see
    MStrBuilder): compress writes each run as it is."""
    __slots__ = ('text', 'runs')

    def __init__(self, text, runs):
        self.text, self.runs = text, runs

    @staticmethod
    def anchored(text, fid, off):
        return MStr(text, [(0, fid, off, False)] if text else [])

    @staticmethod
    def exact(text, fid, off):
        return MStr(text, [(0, fid, off, True)] if text else [])

    @staticmethod
    def per_char(text, where):
        """From one (file, offset, exact) per character."""
        b = MStrBuilder()
        for c, (fid, off, exact) in zip(text, where):
            b.push(c, fid, off, exact)
        return b.build()

    def at(self, i):
        """(file, offset, exact) of character i."""
        start, fid, off, exact = self.runs[bisect_right(self.runs, (i, _PAST)) - 1]
        return fid, off + i - start if exact else off, exact

    def __add__(self, other):
        return join_mstr((self, other))

    def slice(self, a, b):
        """self.text[a:b] with its runs (a and b as a slice's, not negative)."""
        n = len(self.text)
        a = min(a, n)
        b = min(max(a, b), n)
        if a == b:
            return MStr('', [])
        runs = self.runs
        k = bisect_right(runs, (a, _PAST)) - 1
        start, fid, off, exact = runs[k]
        out = [(0, fid, off + a - start if exact else off, exact)]
        for k in range(k + 1, len(runs)):
            run = runs[k]
            if run[0] >= b:
                break
            out.append((run[0] - a,) + run[1:])
        return MStr(self.text[a:b], out)


class MStrBuilder:
    """An MStr written piece by piece; a piece that continues the last run
    (the same anchor, or the next characters of the same file) extends it,
    so that no run of the result continues the one before it."""
    __slots__ = ('texts', 'runs', 'length', 'follow')

    def __init__(self):
        self.texts, self.runs, self.length = [], [], 0
        # (file, offset, exact) of a character that would extend the last run
        self.follow = None

    def push(self, text, fid, off, exact):
        if not text:
            return
        where = (fid, off, exact)
        if where != self.follow:
            self.runs.append((self.length, fid, off, exact))
        self.texts.append(text)
        self.length += len(text)
        self.follow = (fid, off + len(text), True) if exact else where

    def syn(self, text, fid, off):
        """Text the reader writes, anchored at (file, offset)."""
        self.push(text, fid, off, False)

    def add(self, m):
        runs = m.runs
        if len(runs) < 2:
            if runs:
                self.push(m.text, *runs[0][1:])
            return
        n = self.length
        first = 1 if runs[0][1:] == self.follow else 0
        self.runs.extend([(start + n, fid, off, exact)
                          for start, fid, off, exact in runs[first:]])
        self.texts.append(m.text)
        self.length += len(m.text)
        start, fid, off, exact = runs[-1]
        self.follow = (fid, off + len(m.text) - start, True) if exact else (fid, off, exact)

    def build(self):
        return MStr(''.join(self.texts), self.runs)


def join_mstr(parts):
    b = MStrBuilder()
    for p in parts:
        b.add(p)
    return b.build()


class Unknown:
    def __init__(self, why):
        self.why = why


class FileHandle:
    def __init__(self, path):
        self.path = path


class KernelModule:
    """One compiled module: a constructor call."""

    def __init__(self, call, lib, kind):
        self.call, self.lib, self.kind = call, lib, kind
        self.index = None      # position in the unit, once emitted
        self.namespace = None
        self.kernels = {}      # name -> parameter count (None: unknown)
        self.extern_c = set()  # names declared extern "C" (or wrapped)
        self.single_name = None  # RawKernel / ElementwiseKernel name
        self.name_expressions = None
        self.skipped = None


class KernelRef:
    def __init__(self, module, name, name_node):
        self.module, self.name, self.name_node = module, name, name_node


class Prepared:
    def __init__(self, ref, fmt, node):
        self.ref, self.fmt, self.node = ref, fmt, node


# --- The reader ------------------------------------------------------------

#: Context managers that expect their body to raise (test code).
EXPECTED_FAILURE_CONTEXTS = {'raises', 'assertRaises', 'assertRaisesRegex',
                             'assertRaisesRegexp', 'assert_raises',
                             'assert_raises_regex'}



#: The nodes that bind a name or open a scope of their own; the walk that
#: collects assignments only descends through the others (most nodes).
BINDING_NODES = frozenset((
    ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Assign,
    ast.AnnAssign, ast.AugAssign, ast.ListComp, ast.SetComp, ast.DictComp,
    ast.GeneratorExp, ast.For, ast.AsyncFor, ast.withitem, ast.NamedExpr,
    ast.Global, ast.Nonlocal))
#: The nodes that open a scope of names (scope_of).
SCOPE_NODES = frozenset((ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module))


class Reader:
    def __init__(self, path, source):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        self.source = source
        self.files = [self.path]
        self.file_texts = {0: source}
        self.lines_bytes = source.split('\n')
        self.line_starts = [0]
        self.line_starts.extend(itertools.accumulate(len(line) + 1 for line in self.lines_bytes[:-1]))
        self.tree = parse_python(source, path)
        # Every node once, in ast.walk's order, its children and its parent.
        self.nodes = [self.tree]
        self.parents = {}
        self.children = {}
        for node in self.nodes:
            children = self.children[node] = list(iter_child_nodes(node))
            for child in children:
                self.parents[child] = node
            self.nodes.extend(children)
        self.aliases = {}
        self.relative = {}   # name -> (level, module, name) of `from ..m import x`
        self.reexports = {}  # name -> the library module it is, or None
        self.sibling_trees = {}  # path -> parsed module of the package, or None
        self.assigns = {}   # scope node -> name -> [(stmt, value expr, top)]
        self.functions = {}  # module-level function name -> FunctionDef
        self.modules = {}    # ctor call node -> KernelModule
        self.notes = []
        self.memo = {}
        self._collect()

    # positions
    def offset(self, lineno, col_bytes):
        """Character offset in the file of a (line, UTF-8 column)."""
        line = self.lines_bytes[lineno - 1]
        if line.isascii():
            col = min(col_bytes, len(line))
        else:
            col = len(line.encode('utf-8')[:col_bytes].decode('utf-8', 'replace'))
        return self.line_starts[lineno - 1] + col

    def node_start(self, node):
        return self.offset(node.lineno, node.col_offset)

    def node_end(self, node):
        return self.offset(node.end_lineno, node.end_col_offset)

    def segment(self, node):
        """The source text of a node (ast.get_source_segment splits the
        whole file on each call)."""
        if not hasattr(node, 'end_lineno') or node.end_lineno is None:
            return None
        return self.source[self.node_start(node):self.node_end(node)]

    def where(self, node):
        return '%s:%d:%d' % (os.path.basename(self.path), node.lineno,
                             node.col_offset + 1)

    # scopes and names
    def _collect(self):
        for node in self.nodes:
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        self.aliases[a.asname] = a.name
                    else:
                        root = a.name.split('.')[0]
                        self.aliases[root] = root
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for a in node.names:
                    self.aliases[a.asname or a.name] = node.module + '.' + a.name
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    self.relative[a.asname or a.name] = (node.level, node.module, a.name)
        for stmt in self.tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[stmt.name] = stmt

    def reexported(self, name):
        """A module that a sibling module of the package imports and this
        file imports from it (`from ..compat import cupy`, where compat.py
        says `import cupy`, and binds the name otherwise only to None)."""
        if name in self.reexports:
            return self.reexports[name]
        self.reexports[name] = None
        level, module, orig = self.relative[name]
        base = self.dir
        for _ in range(level - 1):
            base = os.path.dirname(base)
        stem = os.path.join(base, *module.split('.'))
        for path in (stem + '.py', os.path.join(stem, '__init__.py')):
            if not os.path.isfile(path):
                continue
            tree = self.sibling_trees.get(path, False)
            if tree is False:
                tree = None
                try:
                    with open(path, 'rb') as f:
                        data = f.read(MAX_KERNEL_TEXT)
                    # A module that names no library re-exports none.
                    if any(w in data for w in TRIGGERS):
                        tree = parse_python(data.decode('utf-8'), path)
                except (OSError, SyntaxError, ValueError):
                    pass
                self.sibling_trees[path] = tree
            if tree is None:
                return None
            bound = set()
            for n in walk(tree):
                if isinstance(n, ast.Import):
                    for a in n.names:
                        if (a.asname or a.name.split('.')[0]) == orig:
                            bound.add(a.name if a.asname else orig)
                elif isinstance(n, ast.ImportFrom):
                    for a in n.names:
                        if (a.asname or a.name) == orig:
                            bound.add(n.module + '.' + a.name
                                      if n.module and not n.level else None)
                elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign,
                                    ast.NamedExpr, ast.For, ast.withitem,
                                    ast.FunctionDef, ast.ClassDef, ast.Global)):
                    value = getattr(n, 'value', None)
                    if (any(isinstance(t, ast.Name) and t.id == orig
                            for t in walk(n) if isinstance(getattr(t, 'ctx', None), ast.Store))
                            or getattr(n, 'name', None) == orig) and not (
                            isinstance(value, ast.Constant) and value.value is None):
                        bound.add(None)
            if len(bound) == 1:
                self.reexports[name] = bound.pop()
            return self.reexports[name]
        return None

    def expects_failure(self, node):
        """Whether node runs inside `with pytest.raises(...)`,
        `self.assertRaises(...)` or numpy's `assert_raises(...)`: code whose
        failure is what its author asks for (a test of the error)."""
        n = self.parents.get(node)
        while n is not None:
            if isinstance(n, (ast.With, ast.AsyncWith)):
                for item in n.items:
                    e = item.context_expr
                    f = e.func if isinstance(e, ast.Call) else None
                    name = f.attr if isinstance(f, ast.Attribute) else \
                        f.id if isinstance(f, ast.Name) else None
                    if name in EXPECTED_FAILURE_CONTEXTS:
                        return True
            n = self.parents.get(n)
        return False

    def scope_of(self, node):
        n = self.parents.get(node)
        while n is not None and type(n) not in SCOPE_NODES:
            n = self.parents.get(n)
        return n if n is not None else self.tree

    def scope_assigns(self, scope):
        if scope in self.assigns:
            return self.assigns[scope]
        table = {}
        body = scope.body if isinstance(scope.body, list) else []
        top = set()
        pending = list(body)
        while pending:
            stmt = pending.pop()
            top.add(id(stmt))
            # The bodies of 'with' and 'try' run straight through.
            if isinstance(stmt, (ast.With, ast.AsyncWith)):
                pending.extend(stmt.body)
            elif isinstance(stmt, ast.Try):
                pending.extend(stmt.body)

        def add(name, stmt, value):
            table.setdefault(name, []).append((stmt, value, id(stmt) in top))

        def visit(n):
            for child in self.children[n]:
                if type(child) not in BINDING_NODES:
                    visit(child)
                    continue
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                      ast.Lambda, ast.ClassDef)):
                    if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        add(child.name, child, None)
                    continue
                if isinstance(child, ast.Assign):
                    for t in child.targets:
                        if isinstance(t, ast.Name):
                            add(t.id, child, child.value)
                        elif isinstance(t, (ast.Tuple, ast.List)):
                            for e in t.elts:
                                if isinstance(e, ast.Name):
                                    add(e.id, child, None)
                elif isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
                    add(child.target.id, child, child.value)
                elif isinstance(child, ast.AugAssign) and isinstance(child.target, ast.Name):
                    add(child.target.id, child, child)
                elif isinstance(child, (ast.ListComp, ast.SetComp, ast.DictComp,
                                        ast.GeneratorExp)):
                    continue  # its variables are its own
                elif isinstance(child, (ast.For, ast.AsyncFor)):
                    for e in walk(child.target):
                        if isinstance(e, ast.Name):
                            add(e.id, child, None)
                elif isinstance(child, ast.withitem) and child.optional_vars is not None:
                    if isinstance(child.optional_vars, ast.Name):
                        add(child.optional_vars.id, self.parents[child], child)
                elif isinstance(child, ast.NamedExpr):
                    add(child.target.id, child, child.value)
                elif isinstance(child, (ast.Global, ast.Nonlocal)):
                    for name in child.names:
                        add(name, child, None)
                visit(child)

        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = scope.args
            for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
                if arg is not None:
                    table.setdefault(arg.arg, []).append((scope, None, True))
        visit(scope)
        self.assigns[scope] = table
        return table

    def definition(self, name_node):
        """The expression a name stands for where it is read: the last
        assignment before it in straight-line code of its scope, else of
        the module. None: not known."""
        name = name_node.id
        scope = home = self.scope_of(name_node)
        line = name_node.lineno
        while True:
            entries = self.scope_assigns(scope).get(name)
            if entries:
                if scope is self.tree or not isinstance(scope, ast.Module):
                    pass
                if isinstance(scope, ast.Module) and home is not scope:
                    # Read from a function: the module's last binding, if it
                    # is the only one at the top level and none is nested.
                    if len(entries) == 1 and entries[0][2]:
                        return entries[0]
                    if all(e[2] for e in entries) and all(
                            isinstance(e[1], ast.AugAssign) for e in entries[1:]):
                        return entries[-1]
                    return None
                # An assignment never sees itself ('x = x + 1'); a 'with' or
                # 'for' binds the names its body reads.
                before = [e for e in entries if e[0].lineno <= line and
                          e[0] is not scope and not (
                              isinstance(e[0], (ast.Assign, ast.AugAssign, ast.AnnAssign))
                              and self._encloses(e[0], name_node))]
                params = [e for e in entries if e[0] is scope]
                if not before:
                    return None if params else None
                last = before[-1]
                return last if last[2] else None
            if isinstance(scope, ast.Module):
                return None
            scope = self.scope_of(scope)

    def _encloses(self, stmt, node):
        n = node
        while n is not None:
            if n is stmt:
                return True
            n = self.parents.get(n)
        return False

    def qualname(self, expr):
        if isinstance(expr, ast.Name):
            q = self.aliases.get(expr.id)
            return q if q or expr.id not in self.relative else self.reexported(expr.id)
        if isinstance(expr, ast.Attribute):
            base = self.qualname(expr.value)
            return base + '.' + expr.attr if base else None
        return None

    def ctor_of(self, call):
        q = self.qualname(call.func)
        if not q:
            return None
        if q in CONSTRUCTORS:
            return q
        parts = q.split('.')
        for full in CONSTRUCTORS:
            if parts[0] == full.split('.')[0] and parts[-1] == full.split('.')[-1]:
                return full
        return None

    # evaluation
    def arg(self, call, names, key, default=None):
        if key in names:
            i = names.index(key)
            if i < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:i + 1]):
                return call.args[i]
        for kw in call.keywords:
            if kw.arg == key:
                return kw.value
        return default

    def literal(self, node):
        """Decodes the string literal tokens of node's span with positions."""
        start, end = self.node_start(node), self.node_end(node)
        text = self.source
        i = start
        parts = MStrBuilder()
        literals = 0
        holes = [v for v in node.values if isinstance(v, ast.FormattedValue)] \
            if isinstance(node, ast.JoinedStr) else []
        hole_index = [0]
        while i < end:
            ch = text[i]
            if ch in ' \t\r\n\f()':
                i += 1
                continue
            if ch == '\\' and i + 1 < end and text[i + 1] == '\n':
                i += 2
                continue
            if ch == '#':
                while i < end and text[i] != '\n':
                    i += 1
                continue
            j = i
            while j < i + 2 and j < len(text) and text[j] in 'rRbBuUfF':
                j += 1
            quote = next((q for q in ('\'\'\'', '"""', "'", '"') if text.startswith(q, j)), None)
            if quote is None:
                return Unknown('unexpected text in a string literal')
            prefix = text[i:j].lower()
            i = j + len(quote)
            raw, fmt = 'r' in prefix, 'f' in prefix
            specials = quote[0] + '\\' + ('{}' if fmt else '')
            while True:
                if i >= end + 1 and not text.startswith(quote, i):
                    return Unknown('unterminated literal')
                if text.startswith(quote, i):
                    i += len(quote)
                    break
                c = text[i]
                if c not in specials:
                    # A run of ordinary characters, byte for byte the file's.
                    j = find_first(text, specials, i, end + 1)
                    if j < 0:
                        j = min(end + 1, len(text))
                    parts.push(text[i:j], 0, i, True)
                    i = j
                    continue
                if fmt and c in '{}':
                    if text.startswith(c * 2, i):
                        parts.push(c, 0, i, False)
                        i += 2
                        continue
                    if c == '}':
                        return Unknown('unbalanced } in an f-string')
                    j, depth = i + 1, 1
                    while j < len(text) and depth:
                        if text[j] == '{':
                            depth += 1
                        elif text[j] == '}':
                            depth -= 1
                        j += 1
                    if hole_index[0] >= len(holes):
                        return Unknown('f-string holes do not match')
                    hole = holes[hole_index[0]]
                    hole_index[0] += 1
                    value = self.format_hole(hole.value, hole.conversion,
                                             hole.format_spec, i)
                    if isinstance(value, Unknown):
                        return value
                    parts.add(value)
                    i = j
                    continue
                if c == '\\':
                    if raw:
                        nxt = text[i + 1] if i + 1 < len(text) else ''
                        if nxt in (quote[0], '\\'):
                            parts.push(c + nxt, 0, i, True)
                            i += 2
                        else:
                            parts.push(c, 0, i, True)
                            i += 1
                        continue
                    decoded, length = decode_escape(text, i)
                    if decoded is None:
                        return Unknown('unknown escape in a string literal')
                    parts.push(decoded, 0, i, False)
                    i += length
                    continue
                parts.push(c, 0, i, True)
                i += 1
            literals += 1
        if not literals:
            return Unknown('no literal')
        return parts.build()

    def format_hole(self, expr, conversion, spec, at):
        v = self.eval(expr)
        if isinstance(v, Unknown):
            return Unknown('the hole at %s is not a constant (%s)' % (
                self.where(expr), v.why))
        spec_text = ''
        if spec is not None:
            s = self.eval(spec)
            if not isinstance(s, MStr):
                return Unknown('format spec is not a constant')
            spec_text = s.text
        if isinstance(v, MStr) and conversion in (-1, ord('s')) and not spec_text:
            return v
        value = v.text if isinstance(v, MStr) else v
        if not isinstance(value, (int, float, str, bool)):
            return Unknown('the hole at %s is not a constant' % self.where(expr))
        if conversion == ord('r'):
            value = repr(value)
        try:
            out = format(value, spec_text)
        except (ValueError, TypeError):
            return Unknown('bad format spec')
        return MStr.anchored(out, 0, at)

    def eval(self, node, depth=0):
        key = id(node)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = Unknown('recursive definition')
        v = self._eval(node, depth)
        self.memo[key] = v
        return v

    def _eval(self, node, depth):
        if depth > MAX_DEPTH:
            return Unknown('too deep')
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return self.literal(node)
            if isinstance(node.value, bytes):
                return Unknown('bytes')
            return node.value
        if isinstance(node, ast.JoinedStr):
            return self.literal(node)
        if isinstance(node, (ast.Tuple, ast.List)):
            out = []
            for e in node.elts:
                v = self.eval(e, depth + 1)
                if isinstance(v, Unknown):
                    return v
                out.append(v)
            return tuple(out)
        if isinstance(node, ast.Name):
            if node.id == '__file__':
                return self.path
            if node.id in ('True', 'False', 'None'):
                return {'True': True, 'False': False, 'None': None}[node.id]
            d = self.definition(node)
            if d is None:
                return Unknown("'%s' is not a constant of the module" % node.id)
            stmt, value, _ = d
            if isinstance(value, ast.AugAssign):
                left = self.eval_name_before(node.id, stmt, depth)
                right = self.eval(value.value, depth + 1)
                return self.binop(value.op, left, right, value)
            if isinstance(value, ast.withitem):
                return self.eval(value.context_expr, depth + 1)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return ('function', stmt)
            if value is None:
                return Unknown("'%s' is a parameter or loop variable" % node.id)
            return self.eval(value, depth + 1)
        if isinstance(node, ast.BinOp):
            left = self.eval(node.left, depth + 1)
            right = self.eval(node.right, depth + 1)
            return self.binop(node.op, left, right, node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = self.eval(node.operand, depth + 1)
            return -v if isinstance(v, (int, float)) and not isinstance(v, bool) else Unknown('unary')
        if isinstance(node, ast.Call):
            return self.eval_call(node, depth)
        if isinstance(node, ast.Dict):
            return self.dict_value(node, depth)
        if isinstance(node, ast.Attribute):
            base = self.eval(node.value, depth + 1)
            if isinstance(base, str) and node.attr == 'parent':
                return os.path.dirname(base)
            return Unknown('an attribute (.%s), which the reader does not evaluate' % node.attr)
        return Unknown('a Python %s expression, which the reader does not evaluate'
                       % type(node).__name__)

    def eval_name_before(self, name, stmt, depth):
        probe = ast.Name(id=name, ctx=ast.Load())
        probe.lineno = stmt.lineno - 1 if stmt.lineno > 1 else 1
        probe.col_offset = 0
        self.parents[probe] = self.parents.get(stmt)
        if probe.lineno >= stmt.lineno:
            return Unknown('no earlier value')
        return self.eval(probe, depth + 1)

    def binop(self, op, left, right, node):
        if isinstance(left, Unknown):
            return left
        if isinstance(right, Unknown):
            return right
        if isinstance(op, ast.Add):
            if isinstance(left, MStr) and isinstance(right, MStr):
                return left + right
            if isinstance(left, (int, float)) and isinstance(right, (int, float)):
                return left + right
            if isinstance(left, tuple) and isinstance(right, tuple):
                return left + right
        if isinstance(op, ast.Mod) and isinstance(left, MStr):
            return self.percent(left, right, node)
        if isinstance(op, ast.Div) and isinstance(left, str) and isinstance(right, MStr):
            return os.path.join(left, right.text)  # pathlib's '/'
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (left, right)):
            try:
                if isinstance(op, ast.Sub):
                    return left - right
                if isinstance(op, ast.Mult):
                    return left * right
                if isinstance(op, ast.FloorDiv):
                    return left // right
                if isinstance(op, ast.Div):
                    return left / right
                if isinstance(op, ast.Mod):
                    return left % right
                if isinstance(op, ast.LShift):
                    return left << right
                if isinstance(op, ast.Pow) and abs(right) < 64:
                    return left ** right
            except (ZeroDivisionError, TypeError, ValueError):
                return Unknown('arithmetic')
        if isinstance(op, ast.Mult) and isinstance(left, MStr) and isinstance(right, int) and 0 <= right < 4096:
            return join_mstr([left] * right)
        return Unknown('operator')

    def as_text(self, v):
        if isinstance(v, MStr):
            return v.text
        return v

    def percent(self, fmt, values, node):
        at = self.node_start(node)
        if not isinstance(values, (tuple, dict)):
            values = (values,)
        import re  # only here and in rarer paths: importing it costs 8 ms
        out, i, k = [], 0, 0
        spec = re.compile(r'%(\([^)]*\))?([#0\- +]*)(\d+|\*)?(\.(\d+|\*))?[hlL]?([diouxXeEfFgGcrsa%])')
        text = fmt.text
        while i < len(text):
            j = text.find('%', i)
            if j < 0:
                out.append(fmt.slice(i, len(text)))
                break
            out.append(fmt.slice(i, j))
            m = spec.match(text, j)
            if not m:
                return Unknown('bad % format')
            if m.group(6) == '%':
                out.append(fmt.slice(j, j + 1))
            else:
                if m.group(1):
                    if not isinstance(values, dict):
                        return Unknown('% format needs a mapping')
                    v = values.get(m.group(1)[1:-1])
                else:
                    if isinstance(values, dict) or k >= len(values):
                        return Unknown('% format arguments')
                    v = values[k]
                    k += 1
                if v is None or isinstance(v, Unknown):
                    return Unknown('% hole is not a constant')
                if isinstance(v, MStr) and m.group(0) == '%s':
                    out.append(v)
                else:
                    try:
                        s = ('%' + m.group(0)[1 + len(m.group(1) or ''):]) % (self.as_text(v),)
                    except (TypeError, ValueError):
                        return Unknown('% format')
                    out.append(MStr.anchored(s, *fmt.at(j)[:2]))
            i = m.end()
        return join_mstr(out)

    def dict_value(self, node, depth):
        out = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                return Unknown('** in a dict')
            kv = self.eval(k, depth + 1)
            if not isinstance(kv, MStr):
                return Unknown('dict key')
            out[kv.text] = self.eval(v, depth + 1)
        return out

    def brace_format(self, fmt, args, kwargs):
        text, out, i, auto = fmt.text, [], 0, 0
        while i < len(text):
            c = text[i]
            if c in '{}' and text.startswith(c * 2, i):
                out.append(fmt.slice(i, i + 1))
                i += 2
                continue
            if c == '}':
                return Unknown('unbalanced }')
            if c != '{':
                j = i
                while j < len(text) and text[j] not in '{}':
                    j += 1
                out.append(fmt.slice(i, j))
                i = j
                continue
            j = text.find('}', i)
            if j < 0:
                return Unknown('unbalanced {')
            field = text[i + 1:j]
            spec = ''
            conv = None
            if ':' in field:
                field, spec = field.split(':', 1)
            if '!' in field:
                field, conv = field.split('!', 1)
            if field == '':
                key, auto = auto, auto + 1
            elif field.isdigit():
                key = int(field)
            elif field.isidentifier():
                key = field
            else:
                return Unknown('format field %r' % field)
            v = (args[key] if isinstance(key, int) and key < len(args)
                 else kwargs.get(key) if isinstance(key, str) else None)
            if v is None or isinstance(v, Unknown):
                return Unknown('the format hole {%s} is not a constant' % field)
            if isinstance(v, MStr) and not spec and conv in (None, 's'):
                out.append(v)
            else:
                value = self.as_text(v)
                if conv == 'r':
                    value = repr(value)
                try:
                    s = format(value, spec)
                except (ValueError, TypeError):
                    return Unknown('format spec')
                out.append(MStr.anchored(s, *fmt.at(i)[:2]))
            i = j + 1
        return join_mstr(out)

    def eval_call(self, call, depth):
        func = call.func
        q = self.qualname(func)
        ctor = self.ctor_of(call)
        if ctor:
            return self.module_of(call, ctor)
        if q in ('os.path.join',):
            parts = [self.eval(a, depth + 1) for a in call.args]
            parts = [p.text if isinstance(p, MStr) else p for p in parts]
            if all(isinstance(p, str) for p in parts):
                return os.path.join(*parts)
        if q in ('os.path.dirname', 'os.path.abspath', 'os.path.realpath'):
            p = self.eval(call.args[0], depth + 1) if call.args else None
            if isinstance(p, str):
                return os.path.dirname(p) if q.endswith('dirname') else p
        if q in ('pathlib.Path', 'pathlib.PurePath') and len(call.args) == 1:
            p = self.eval(call.args[0], depth + 1)
            return p.text if isinstance(p, MStr) else p if isinstance(p, str) else Unknown('path')
        if q in RESOURCE_FILES and len(call.args) == 1:
            return self.package_folder(call.args[0], depth)
        if q in RESOURCE_READ_TEXT and len(call.args) >= 2:
            folder = self.package_folder(call.args[0], depth)
            name = self.eval(call.args[1], depth + 1)
            if isinstance(folder, str) and isinstance(name, MStr):
                return self.read_file(os.path.join(folder, name.text), call)
            return folder if isinstance(folder, Unknown) else Unknown('resource name')
        if q in ('textwrap.dedent',) and len(call.args) == 1:
            v = self.eval(call.args[0], depth + 1)
            return dedent(v) if isinstance(v, MStr) else Unknown('dedent')
        if isinstance(func, ast.Attribute):
            base = self.eval(func.value, depth + 1)
            name = func.attr
            if isinstance(base, KernelModule) and name in ('get_function', 'get_kernel'):
                if call.args:
                    n = self.eval(call.args[0], depth + 1)
                    if isinstance(n, MStr):
                        return KernelRef(base, n.text, call.args[0])
                return Unknown('kernel name is not a constant')
            if isinstance(base, KernelRef) and name == 'prepare':
                if call.args:
                    f = self.eval(call.args[0], depth + 1)
                    if isinstance(f, (MStr, tuple)):
                        return Prepared(base, f, call)
                return Unknown('prepare format')
            if isinstance(base, FileHandle) and name == 'read':
                return self.read_file(base.path, call)
            if isinstance(base, Unknown) and name in ('joinpath', 'read_text'):
                return base  # why the path is not known
            if isinstance(base, str) and name == 'joinpath':
                parts = [self.eval(a, depth + 1) for a in call.args]
                if parts and all(isinstance(p, MStr) for p in parts):
                    return os.path.join(base, *(p.text for p in parts))
                return Unknown('joinpath of a name that is not a constant')
            if isinstance(base, str) and name in ('read_text', 'open'):
                if name == 'read_text':
                    return self.read_file(base, call)
                return FileHandle(base)
            if isinstance(base, MStr):
                return self.string_method(base, name, call, depth)
            return Unknown('call of %s' % name)
        if isinstance(func, ast.Name):
            if func.id == 'open' and call.args:
                p = self.eval(call.args[0], depth + 1)
                if isinstance(p, MStr):
                    p = p.text
                if isinstance(p, str):
                    return FileHandle(p if os.path.isabs(p) else os.path.join(self.dir, p))
                return Unknown('file name is not a constant')
            if func.id == 'str' and len(call.args) == 1:
                v = self.eval(call.args[0], depth + 1)
                if isinstance(v, (int, float)) or isinstance(v, MStr):
                    return v if isinstance(v, MStr) else MStr.anchored(
                        str(v), 0, self.node_start(call))
                return Unknown('str() of an unknown value')
            if func.id in ('int', 'float') and len(call.args) == 1:
                v = self.eval(call.args[0], depth + 1)
                if isinstance(v, (int, float)):
                    return int(v) if func.id == 'int' else float(v)
                return Unknown('conversion')
            d = self.eval(func, depth + 1)
            if isinstance(d, tuple) and d and d[0] == 'function' and not call.args and not call.keywords:
                returns = [n for n in walk(d[1]) if isinstance(n, ast.Return)]
                if len(returns) == 1 and returns[0].value is not None:
                    return self.eval(returns[0].value, depth + 1)
        return Unknown('call')

    def string_method(self, s, name, call, depth):
        args = [self.eval(a, depth + 1) for a in call.args]
        if any(isinstance(a, Unknown) for a in args):
            return next(a for a in args if isinstance(a, Unknown))
        if name == 'format':
            kwargs = {k.arg: self.eval(k.value, depth + 1) for k in call.keywords if k.arg}
            if any(k.arg is None for k in call.keywords):
                return Unknown('**kwargs in format')
            return self.brace_format(s, args, kwargs)
        if name == 'replace' and len(args) >= 2 and isinstance(args[0], MStr):
            new = args[1] if isinstance(args[1], MStr) else (
                MStr.anchored(str(args[1]), 0, self.node_start(call))
                if isinstance(args[1], (int, float)) else None)
            if new is None or not args[0].text:
                return Unknown('replace')
            out, i = [], 0
            while True:
                j = s.text.find(args[0].text, i)
                if j < 0:
                    break
                out.append(s.slice(i, j))
                out.append(new if new.text and new.at(0)[1] != self.node_start(call)
                           else MStr.anchored(new.text, *s.at(j)[:2]))
                i = j + len(args[0].text)
            out.append(s.slice(i, len(s.text)))
            return join_mstr(out)
        if name in ('strip', 'lstrip', 'rstrip') and not args:
            t = s.text
            a = len(t) - len(t.lstrip()) if name != 'rstrip' else 0
            b = len(t.rstrip()) if name != 'lstrip' else len(t)
            return s.slice(a, max(a, b))
        if name == 'join' and len(args) == 1 and isinstance(args[0], tuple):
            parts = []
            for k, p in enumerate(args[0]):
                if not isinstance(p, MStr):
                    return Unknown('join of non-strings')
                if k:
                    parts.append(s)
                parts.append(p)
            return join_mstr(parts) if parts else MStr('', [])
        return Unknown('str.%s' % name)

    def package_folder(self, arg, depth):
        """The folder of package `arg` for importlib.resources, known only
        where it is the script's own package: `__package__`, or a dotted
        name whose parts are the script's trailing folders."""
        if isinstance(arg, ast.Name) and arg.id == '__package__':
            return self.dir
        v = self.eval(arg, depth + 1)
        if not isinstance(v, MStr):
            return Unknown('package is not a constant')
        parts = v.text.split('.')
        folders = self.dir.split(os.sep)
        if all(is_word(x) for x in parts) and folders[-len(parts):] == parts:
            return self.dir
        return Unknown("package '%s' is not the script's own" % v.text)

    def read_file(self, path, call):
        path = os.path.normpath(path)
        try:
            with open(path, 'rb') as f:
                data = f.read(MAX_KERNEL_TEXT + 1)
        except OSError:
            return Unknown("cannot read '%s'" % path)
        if len(data) > MAX_KERNEL_TEXT:
            return Unknown("'%s' is too large" % path)
        try:
            text = data.decode('utf-8')
        except UnicodeDecodeError:
            return Unknown("'%s' is not UTF-8" % path)
        if path not in self.files:
            self.files.append(path)
            self.file_texts[len(self.files) - 1] = text
        fid = self.files.index(path)
        return MStr.exact(text, fid, 0)

    def module_of(self, call, ctor):
        if call in self.modules:
            return self.modules[call]
        lib, kind, names = CONSTRUCTORS[ctor]
        m = KernelModule(call, lib, kind)
        m.arg_names = names
        self.modules[call] = m
        return m


def decode_escape(text, i):
    """(decoded text, source length) of the escape at text[i] == '\\'."""
    c = text[i + 1] if i + 1 < len(text) else ''
    simple = {'n': '\n', 't': '\t', '\\': '\\', "'": "'", '"': '"', 'a': '\a',
              'b': '\b', 'f': '\f', 'v': '\v', 'r': '\r', '\n': ''}
    if c in simple:
        return simple[c], 2
    if c in '01234567':
        j = i + 1
        while j < min(i + 4, len(text)) and text[j] in '01234567':
            j += 1
        return chr(int(text[i + 1:j], 8)), j - i
    lengths = {'x': 2, 'u': 4, 'U': 8}
    if c in lengths:
        h = text[i + 2:i + 2 + lengths[c]]
        try:
            return chr(int(h, 16)), 2 + lengths[c]
        except ValueError:
            return None, 0
    if c == 'N':
        return None, 0
    return '\\' + c, 2  # an unknown escape keeps its backslash


def dedent(s):
    lines, pos = [], 0
    text = s.text
    while pos < len(text):
        j = text.find('\n', pos)
        j = len(text) if j < 0 else j + 1
        lines.append((pos, j))
        pos = j
    margin = None
    for a, b in lines:
        line = text[a:b]
        if line.strip():
            ws = line[:len(line) - len(line.lstrip(' \t'))]
            if margin is None:
                margin = ws
            else:
                k = 0
                while k < min(len(margin), len(ws)) and margin[k] == ws[k]:
                    k += 1
                margin = margin[:k]
    margin = margin or ''
    out = []
    for a, b in lines:
        line = text[a:b]
        if not line.strip():
            nl = line.endswith('\n')
            out.append(s.slice(b - 1, b) if nl else MStr('', []))
        else:
            out.append(s.slice(a + len(margin), b))
    return join_mstr(out) if out else s


# --- Argument facts ----------------------------------------------------------

class Facts:
    """What a launch argument is, as far as the file says."""

    def __init__(self, reader):
        self.r = reader

    def dtype_of_value(self, node, depth=0):
        """A dtype name from a dtype expression (cp.float32, 'float32',
        numpy.dtype('f4') is not read)."""
        q = self.r.qualname(node)
        if q:
            last = q.split('.')[-1]
            if q.split('.')[0] in ('numpy', 'cupy'):
                return canonical_dtype(last)
        if isinstance(node, ast.Name) and node.id in PYTHON_SCALAR_DTYPE:
            return PYTHON_SCALAR_DTYPE[node.id]
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return canonical_dtype(node.value)
        if isinstance(node, ast.Name) and depth < 8:
            d = self.r.definition(node)
            if d and d[1] is not None and not isinstance(d[1], (ast.AugAssign, ast.withitem)):
                return self.dtype_of_value(d[1], depth + 1)
        return None

    def fact(self, node, lib, depth=0):
        """'pyfloat', 'pyint', 'pybool', 'scalar:<dtype>',
        'array:<space>:<dtype or ?>[:view=<how>]', 'devptr' or 'unknown'."""
        if depth > 12:
            return 'unknown'
        r = self.r
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                return 'pybool'
            if isinstance(v, int):
                return 'pyint'
            if isinstance(v, float):
                return 'pyfloat'
            return 'unknown'
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            f = self.fact(node.operand, lib, depth + 1)
            return f if f in ('pyint', 'pyfloat') else 'unknown'
        if isinstance(node, ast.BinOp):
            a = self.fact(node.left, lib, depth + 1)
            b = self.fact(node.right, lib, depth + 1)
            # An array with a Python scalar keeps its dtype (a Python scalar
            # is weak in numpy's and CuPy's promotion), but an integer array
            # with a float becomes float64; arrays of one dtype keep it.
            for arr, other in ((a, b), (b, a)):
                if arr.startswith('array:') and isinstance(node.op, (
                        ast.Add, ast.Sub, ast.Mult)):
                    dt = arr.split(':')[2]
                    if other == 'pyint' or (other == 'pyfloat' and dt.startswith(('float', 'complex'))):
                        return without_view(arr)
                    if other.startswith('array:') and other.split(':')[1:3] == arr.split(':')[1:3]:
                        return without_view(arr)
            if a in ('pyint', 'pyfloat') and b in ('pyint', 'pyfloat'):
                if isinstance(node.op, ast.Div) or 'pyfloat' in (a, b):
                    return 'pyfloat'
                if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
                    return 'pyint'
            return 'unknown'
        if isinstance(node, ast.Name):
            d = r.definition(node)
            if not d or d[1] is None or isinstance(d[1], (ast.AugAssign, ast.withitem)):
                return 'unknown'
            return self.fact(d[1], lib, depth + 1)
        if isinstance(node, ast.Attribute):
            base = self.fact(node.value, lib, depth + 1)
            if node.attr == 'T' and base.startswith('array:'):
                return without_view(base) + ':view=T'
            if node.attr in ('size', 'ndim', 'nbytes', 'itemsize'):
                return 'pyint'
            if node.attr in ('gpudata', 'ptr'):
                return 'devptr'
            return 'unknown'
        if isinstance(node, ast.Subscript):
            base = self.fact(node.value, lib, depth + 1)
            if isinstance(node.value, ast.Attribute) and node.value.attr == 'shape':
                return 'pyint'
            if not base.startswith('array:'):
                return 'unknown'
            how = subscript_view(node.slice)
            if how == 'element':
                return 'unknown'
            if how:
                return without_view(base) + ':view=' + how
            return base
        if isinstance(node, ast.Call):
            return self.call_fact(node, lib, depth)
        return 'unknown'

    def call_fact(self, node, lib, depth):
        r = self.r
        q = r.qualname(node.func) or ''
        root = q.split('.')[0]
        last = q.split('.')[-1]
        if q in ('float',) or (isinstance(node.func, ast.Name) and node.func.id == 'float'):
            return 'pyfloat'
        if isinstance(node.func, ast.Name) and node.func.id in ('int', 'len'):
            return 'pyint'
        if root in ('numpy', 'cupy') and canonical_dtype(last) and len(q.split('.')) == 2:
            return 'scalar:' + canonical_dtype(last)
        if isinstance(node.func, ast.Attribute):
            m = node.func.attr
            base_node = node.func.value
            if m == 'astype' and node.args:
                base = self.fact(base_node, lib, depth + 1)
                dt = self.dtype_of_value(node.args[0])
                space = base.split(':')[1] if base.startswith('array:') else None
                if space and dt:
                    return 'array:%s:%s' % (space, dt)
                return 'unknown'
            if m in ('copy', 'ravel', 'flatten', 'reshape', 'view') and not q:
                base = self.fact(base_node, lib, depth + 1)
                if base.startswith('array:'):
                    if m == 'view':
                        return 'unknown'
                    return without_view(base) if m in ('copy', 'flatten') else (
                        base if m in ('reshape', 'ravel') and ':view=' not in base else
                        without_view(base) if m == 'ravel' else 'unknown')
                return 'unknown'
            if m in ('transpose', 'swapaxes') and not q:
                base = self.fact(base_node, lib, depth + 1)
                if base.startswith('array:'):
                    return without_view(base) + ':view=T'
                return 'unknown'
            if m == 'get' and not q:
                base = self.fact(base_node, lib, depth + 1)
                return ('array:host:' + base.split(':')[2]) if base.startswith('array:device') else 'unknown'
        if not q:
            return 'unknown'
        if q.startswith('pycuda.driver.') and last in ('In', 'Out', 'InOut') and node.args:
            base = self.fact(node.args[0], lib, depth + 1)
            if base.startswith('array:host'):
                return 'array:device:' + base.split(':')[2]
            return 'unknown'
        if q.startswith('pycuda.driver.') and last in ('mem_alloc', 'mem_alloc_like', 'to_device'):
            return 'devptr'
        space = None
        for mod, sp in ARRAY_SPACE.items():
            if q.startswith(mod + '.'):
                space = sp
        if q.startswith('pycuda.gpuarray.'):
            space = 'device'
        if not space:
            return 'unknown'
        name = q.split('.', 1)[1] if not q.startswith('pycuda.gpuarray.') else q[len('pycuda.gpuarray.'):]
        if name.startswith('cuda.') or name not in ARRAY_MAKERS:
            if root == 'cupy' and name in ('asnumpy',):
                base = self.fact(node.args[0], lib, depth + 1) if node.args else 'unknown'
                return ('array:host:' + base.split(':')[2]) if base.startswith('array:') else 'unknown'
            return 'unknown'
        rule = ARRAY_MAKERS[name]
        dt = None
        for kw in node.keywords:
            if kw.arg == 'dtype':
                dt = self.dtype_of_value(kw.value) or '?'
        if dt is None and name in ('zeros', 'ones', 'empty') and len(node.args) >= 2:
            dt = self.dtype_of_value(node.args[1]) or '?'
        if dt is None:
            if rule in ('float64', 'int64'):
                dt = rule
                if name.startswith('random.') and root == 'cupy' and rule == 'float64' and False:
                    dt = '?'
            elif rule == 'like' and node.args:
                base = self.fact(node.args[0], lib, depth + 1)
                dt = base.split(':')[2] if base.startswith('array:') else '?'
            elif rule in ('data', 'data1') and node.args:
                src = node.args[1] if rule == 'data1' and len(node.args) > 1 else node.args[0]
                base = self.fact(src, lib, depth + 1)
                if base.startswith('array:'):
                    dt = base.split(':')[2]
                elif name == 'arange' or rule == 'data1':
                    kinds = [self.fact(a, lib, depth + 1) for a in node.args]
                    if all(k in ('pyint', 'pyfloat') for k in kinds):
                        dt = 'float64' if 'pyfloat' in kinds else 'int64'
                elif isinstance(src, (ast.List, ast.Tuple)) and src.elts:
                    kinds = [self.fact(a, lib, depth + 1) for a in src.elts]
                    if all(k in ('pyint', 'pyfloat') for k in kinds):
                        dt = 'float64' if 'pyfloat' in kinds else 'int64'
            dt = dt or '?'
        return 'array:%s:%s' % (space, dt)


def without_view(fact):
    return fact.split(':view=')[0]


def subscript_view(sl):
    """How an index makes a view: 'step', 'column', None (contiguous or a
    leading range), 'element' (a scalar)."""
    def is_step(s):
        return isinstance(s, ast.Slice) and s.step is not None and not (
            isinstance(s.step, ast.Constant) and s.step.value == 1)
    if isinstance(sl, ast.Slice):
        return 'step' if is_step(sl) else None
    if isinstance(sl, ast.Tuple):
        elts = sl.elts
        if any(is_step(e) for e in elts):
            return 'step'
        if len(elts) >= 2 and isinstance(elts[0], ast.Slice) and not isinstance(elts[-1], ast.Slice):
            return 'column'
        if all(not isinstance(e, ast.Slice) for e in elts):
            return 'element'
        return None
    return 'element'


# --- The translation unit ------------------------------------------------------

PRELUDE = r'''namespace cuda_tidy_python {
template <unsigned I, class... T> struct at_;
template <class H, class... T> struct at_<0, H, T...> { typedef H type; };
template <unsigned I, class H, class... T> struct at_<I, H, T...> : at_<I - 1, T...> {};
template <class F, unsigned I> struct param_;
template <class... P, unsigned I> struct param_<void (*)(P...), I> : at_<I, P...> {};
template <class F, unsigned I> using param_t = typename param_<F, I>::type;
struct indexer { long long n; int ndim; const long long *index_; __device__ long long size() const { return n; } __device__ const long long *get() const { return index_; } };
template <class T> struct raw { T *data_; long long n_; __device__ T &operator[](long long i) const { return data_[i]; } template <class I> __device__ T &operator[](I *index) const { return data_[index[0]]; } __device__ long long size() const { return n_; } __device__ operator T &() const { return data_[0]; } };
template <class T> struct complex { T re, im; };
}
#define __CT_EXTC __attribute__((annotate("cuda-tidy-python-extern-c")))
#define __CT_EXTB namespace __ct_extern_c
'''


def c_identifier(name):
    s = ''.join(c if c.isalnum() or c == '_' else '_' for c in name)
    if not s or s[0].isdigit() or keyword.iskeyword(s) or s in CXX_KEYWORDS or s.startswith('__'):
        s = 'py_' + s
    return s


CXX_KEYWORDS = set('''alignas alignof asm auto bool break case catch char class const
constexpr const_cast continue decltype default delete do double dynamic_cast else enum
explicit export extern false float for friend goto if inline int long mutable namespace
new noexcept nullptr operator private protected public register reinterpret_cast return
short signed sizeof static static_assert static_cast struct switch template this
thread_local throw true try typedef typeid typename union unsigned using virtual void
volatile wchar_t while dim3 min max'''.split())


def extern_c_spans(text, start=0, end=None):
    """(start, end) of each `extern "C"` (any blanks between the words) in
    text[start:end], in order."""
    end = len(text) if end is None else end
    i = text.find('extern', start, end)
    while i >= 0:
        j = i + 6
        while j < end and text[j].isspace():
            j += 1
        if text.startswith('"C"', j, end):
            yield i, j + 3
            i = text.find('extern', j + 3, end)
        else:
            i = text.find('extern', i + 1, end)


class Emitter:
    def __init__(self, reader, facts):
        self.r = reader
        self.facts = facts
        self.unit = MStrBuilder()
        self.body = MStrBuilder()
        self.includes = []  # MStr lines
        self.include_keys = set()
        self.args = []
        self.std = None
        self.stats = {'found': 0, 'analysed': 0, 'skipped': []}
        self.launch_count = 0
        self.cupy_include = None  # looked for when a kernel includes <cupy/...>
        self.uses_cupy_headers = False
        self.pycuda_include = None  # looked for when a kernel includes <pycuda-...>

    def note(self, node, why):
        self.r.notes.append('%s: kernel source skipped: %s' % (self.r.where(node), why))
        self.stats['skipped'].append(why)

    def options(self, m, value):
        """-D/-I/-std of options=(...): the module's defines, and the unit's
        include folders and standard."""
        defines = []
        if value is None:
            return defines
        v = self.r.eval(value)
        if isinstance(v, MStr):
            v = (v,)
        if not isinstance(v, tuple):
            self.r.notes.append('%s: options are not constants; analysed without them'
                                % self.r.where(value))
            return defines
        opts = [o.text if isinstance(o, MStr) else str(o) for o in v]
        i = 0
        while i < len(opts):
            o = opts[i]
            nxt = opts[i + 1] if i + 1 < len(opts) else ''
            for flag in ('-D', '--define-macro=', '--define-macro'):
                if o.startswith(flag):
                    d = o[len(flag):] or nxt
                    if not o[len(flag):]:
                        i += 1
                    defines.append(d)
                    break
            else:
                for flag in ('-I', '--include-path=', '--include-path'):
                    if o.startswith(flag):
                        d = o[len(flag):] or nxt
                        if not o[len(flag):]:
                            i += 1
                        self.add_include_dir(d)
                        break
                else:
                    std = o[o.index('std=') + 4:][:5] if o.startswith(('-std=c++', '--std=c++')) else ''
                    if len(std) == 5 and std[3:].isdecimal() and (self.std is None or std > self.std):
                        self.std = std
            i += 1
        return defines

    def add_include_dir(self, d):
        d = d if os.path.isabs(d) else os.path.join(self.r.dir, d)
        if '-I' + d not in self.args:
            self.args.append('-I' + d)

    def module(self, m):
        r = self.r
        call = m.call
        names = m.arg_names
        self.stats['found'] += 1
        get = lambda key: r.arg(call, names, key)
        if any(isinstance(a, ast.Starred) for a in call.args) or any(
                k.arg is None for k in call.keywords):
            return self.note(call, 'arguments passed with * or **')
        if m.kind in ('raw-kernel', 'raw-module'):
            code_node = get('code')
            if code_node is None and m.kind == 'raw-module' and get('path') is not None:
                return self.note(call, 'a RawModule loaded from a cubin or PTX path')
            code = r.eval(code_node) if code_node is not None else Unknown('no code')
            if m.kind == 'raw-kernel':
                n = get('name')
                nv = r.eval(n) if n is not None else Unknown('no name')
                if isinstance(nv, MStr):
                    m.single_name = (nv.text, n)
            ne = get('name_expressions')
            if ne is not None:
                m.name_expressions = r.eval(ne)
            opts = get('options')
            jit = get('jitify')
            if jit is not None and r.eval(jit) is True:
                return self.note(call, 'jitify=True preprocesses the source')
            return self.emit_source(m, code, opts, wrap_c=False, headers=[])
        if m.kind == 'source-module':
            code = r.eval(get('source')) if get('source') is not None else Unknown('no source')
            ne = get('no_extern_c')
            no_extern_c = ne is not None and r.eval(ne) is True
            inc = get('include_dirs')
            if inc is not None:
                dirs = r.eval(inc)
                if isinstance(dirs, tuple):
                    for d in dirs:
                        d = d.text if isinstance(d, MStr) else d
                        if isinstance(d, str):
                            self.add_include_dir(d)
            if self.r.ctor_of(call).endswith('DynamicSourceModule') and '-fgpu-rdc' not in self.args:
                self.args.append('-fgpu-rdc')  # PyCUDA compiles it with -rdc=true
            return self.emit_source(m, code, get('options'), wrap_c=not no_extern_c, headers=[])
        if m.kind == 'load-inline':
            src = get('cuda_sources')
            if src is None:
                self.stats['found'] -= 1
                return None
            code = r.eval(src)
            if isinstance(code, tuple) and all(isinstance(c, MStr) for c in code):
                code = join_mstr([c + MStr.anchored('\n', 0, r.node_start(call)) for c in code])
            if not torch_include_known(self.args):
                return self.note(call, "load_inline's CUDA source needs torch's headers "
                                       "(torch/types.h); pass -I<torch>/include with --extra-arg")
            return self.emit_source(m, code, get('extra_cuda_cflags'), wrap_c=False,
                                    headers=LOAD_INLINE_HEADERS, namespace=False)
        if m.kind in ('elementwise', 'reduction'):
            return self.emit_generated(m)
        if m.kind == 'pycuda-elementwise':
            return self.emit_source(m, self.pycuda_elementwise(m), get('options'),
                                    wrap_c=False, headers=[])
        return None

    def pycuda_elementwise(self, m):
        """The source PyCUDA's ElementwiseKernel compiles
        (pycuda/elementwise.py, get_elwise_module): a grid-stride loop over
        i < n, n appended to the C arguments, written from its documented
        form with the user's text mapped to the file."""
        r = self.r
        at = r.node_start(m.call)
        vals = {}
        for key in ('arguments', 'operation', 'name', 'preamble', 'loop_prep', 'after_loop'):
            node = r.arg(m.call, m.arg_names, key)
            if node is None:
                continue
            v = r.eval(node)
            if isinstance(v, Unknown):
                return Unknown('%s: %s' % (key, v.why))
            if not isinstance(v, MStr):
                return Unknown('%s is not a string' % key)
            vals[key] = v
        if 'arguments' not in vals or 'operation' not in vals:
            return Unknown('no arguments or operation')
        name = vals['name'].text if 'name' in vals else 'kernel'
        if not is_word(name):
            return Unknown('kernel name')
        syn = lambda text: MStr.anchored(text, 0, at)
        empty = MStr('', [])
        # PyCUDA includes its complex header first; needed (and looked
        # for) only where the user's text names pycuda::.
        header = syn('#include <pycuda-complex.hpp>\n') if any(
            'pycuda::' in v.text for v in vals.values()) else empty
        return join_mstr([
            header, vals.get('preamble', empty),
            syn('\nextern "C" __global__ void %s(' % name), vals['arguments'],
            syn(', unsigned long n) {\nsize_t tid = threadIdx.x;\n'
                'size_t total_threads = gridDim.x * blockDim.x;\n'
                'size_t cta_start = blockDim.x * blockIdx.x;\nsize_t i;\n'),
            vals.get('loop_prep', empty),
            syn(';\nfor (i = cta_start + tid; i < n; i += total_threads) {\n'),
            vals['operation'],
            syn(';\n}\n'), vals.get('after_loop', empty), syn(';\n}\n')])

    def emit_source(self, m, code, opts, wrap_c, headers, namespace=True):
        r = self.r
        call = m.call
        if isinstance(code, Unknown):
            return self.note(call, code.why)
        if not isinstance(code, MStr):
            return self.note(call, 'the source is not a string')
        if len(code.text) > MAX_KERNEL_TEXT:
            return self.note(call, 'the source is larger than %d bytes' % MAX_KERNEL_TEXT)
        text = code.text
        # Includes the analysis cannot resolve skip the module: clang would
        # stop at them and nothing of the module would be analysed.
        for line_start, line_end, after in directive_lines(text, 'include'):
            opener = after
            while opener < line_end and text[opener] in ' \t':
                opener += 1
            if opener >= line_end or text[opener] not in '<"':
                continue
            close = find_first(text, '>"', opener + 1, line_end)
            if close <= opener + 1:
                continue
            name = text[opener + 1:close]
            if name.startswith('cupy/') and self.cupy_include is None:
                self.cupy_include = find_cupy_include() or ''
            if name.startswith('cupy/') and not self.cupy_include:
                return self.note(call, "it includes <%s>, and CuPy's headers are not "
                                       "installed for this Python" % name)
            if name.startswith('pycuda') and m.lib == 'pycuda' and self.pycuda_include is None:
                # SourceModule always adds the package's cuda/ folder.
                self.pycuda_include = find_package_folder('pycuda', 'cuda') or ''
                if self.pycuda_include:
                    self.args.append(LIBRARY_INCLUDE + self.pycuda_include)
            if name.startswith('pycuda') and not self.resolvable(name):
                return self.note(call, "it includes <%s>, one of PyCUDA's headers; pass "
                                       "include_dirs or -I" % name)
            if text[opener] == '"' and not self.resolvable(name):
                return self.note(call, 'it includes "%s", which is not beside the script '
                                       'or in an include folder' % name)
        if reopens_std(text):
            return self.note(call, "it reopens namespace std, which the module's own "
                                   "namespace here would make another namespace")
        if self.cupy_include and LIBRARY_INCLUDE + self.cupy_include not in self.args:
            self.args.append(LIBRARY_INCLUDE + self.cupy_include)
        at = r.node_start(call)
        index = len(self.stats['skipped']) + self.stats['analysed']
        m.index = index
        m.namespace = '__ct_m%d' % index
        defines = self.options(m, opts)
        self.implicit_headers(m, text, at)
        self.stats['analysed'] += 1
        # Leading includes go first, so that the module's namespace holds
        # none (they are blanked where they were, offsets unchanged).
        chars = list(text)
        for line_start, line_end, _ in directive_lines(text, 'include'):
            key = ''.join(text[line_start:line_end].split())
            if key not in self.include_keys:
                self.include_keys.add(key)
                self.includes.append(code.slice(line_start, line_end) +
                                     MStr.anchored('\n', 0, at))
            chars[line_start:line_end] = ' ' * (line_end - line_start)
        for h in headers:
            key = h.strip().replace(' ', '')
            if key not in self.include_keys:
                self.include_keys.add(key)
                self.includes.append(MStr.anchored(h, 0, at))
        # extern "C" keeps its length: a marker the check reads.
        for ec_start, ec_end in extern_c_spans(text):
            after = text[ec_end:].lstrip()
            repl = '__CT_EXTB' if after.startswith('{') else '__CT_EXTC'
            repl = repl + ' ' * (ec_end - ec_start - len(repl))
            if len(repl) != ec_end - ec_start:
                continue
            chars[ec_start:ec_end] = list(repl)
        body = MStr(''.join(chars), code.runs)
        self.scan_kernels(m, text, wrap_c)
        b = self.body
        b.syn('\n', 0, at)
        for d in defines:
            name, _, value = d.partition('=')
            b.syn('#define %s %s\n' % (name, value or '1'), 0, at)
        if namespace:
            b.syn('namespace %s { namespace __ct_extern_c {} using namespace __ct_extern_c;\n'
                  % m.namespace, 0, at)
            m.wrapped_c = wrap_c
        b.add(body)
        if namespace:
            b.syn('\n}\n', 0, at)
        for d in defines + defined_names(text):
            b.syn('#undef %s\n' % d.partition('=')[0], 0, at)
        return m

    def implicit_headers(self, m, text, at, cupy_headers=False):
        """What NVRTC and CuPy's headers give a CuPy kernel implicitly:
        float16, assert; and CuPy's headers for a generated kernel that
        needs them (cupy_headers: the folder is known)."""
        if m.lib != 'cupy':
            return
        # CuPy's own headers use assert (NVRTC has it built in) and define
        # their own float16, which the unit then takes instead of ours.
        cupy_headers = cupy_headers or any(
            text[after:b].strip()[1:].startswith('cupy/')
            for _, b, after in directive_lines(text, 'include'))
        self.uses_cupy_headers = self.uses_cupy_headers or cupy_headers
        wanted = [('assert', '#include <assert.h>\n'),
                  ('float16', '#include <cuda_fp16.h>\n'),
                  ('float16', FLOAT16_TYPEDEF)]
        if cupy_headers and getattr(m, 'generated', False):
            wanted += [('', '#include <%s>\n' % h) for h in CUPY_GENERATED_HEADERS]
        for word, header in wanted:
            if (word in text or cupy_headers) and header not in self.include_keys:
                self.include_keys.add(header)
                self.includes.append(MStr.anchored(header, 0, at))

    def unit_includes(self):
        """The hoisted lines of the unit: CuPy's headers, where a kernel
        includes them, define float16 in place of our typedef."""
        return [inc for inc in self.includes
                if not (self.uses_cupy_headers and inc.text == FLOAT16_TYPEDEF)]

    def resolvable(self, name):
        dirs = [self.r.dir] + [a[2:] for a in self.args if a.startswith('-I')] + [
            a[len(LIBRARY_INCLUDE):] for a in self.args if a.startswith(LIBRARY_INCLUDE)]
        return any(os.path.exists(os.path.join(d, name)) for d in dirs)

    def scan_kernels(self, m, text, wrap_c):
        """The __global__ functions of the source, their parameter counts and
        whether each is extern "C" -- only to decide whether a launch can be
        written; the check reads the parsed declarations."""
        clean = strip_comments(text)
        g = clean.find('__global__')
        while g >= 0:
            g_end = g + len('__global__')
            start = max(clean.rfind(';', 0, g), clean.rfind('}', 0, g),
                        clean.rfind('{', 0, g))
            head = clean[start + 1:g]
            declarator = declarator_name(clean, g_end)
            g_start, g = g, clean.find('__global__', g_end)
            if not declarator:
                continue
            name, open_paren = declarator
            depth, j = 1, open_paren + 1
            while j < len(clean) and depth:
                depth += {'(': 1, ')': -1}.get(clean[j], 0)
                j += 1
            params = clean[open_paren + 1:j - 1]
            count = count_params(params)
            templated = 'template' in head
            prev = m.kernels.get(name, 'none')
            m.kernels[name] = None if (prev != 'none' or templated) else count
            if wrap_c or any(extern_c_spans(head)) or in_extern_c_block(clean, g_start):
                m.extern_c.add(name)

    def emit_generated(self, m):
        """ElementwiseKernel and ReductionKernel: the kernel CuPy generates
        around the user's code, written from CuPy's documentation."""
        r = self.r
        call = m.call
        get = lambda key: r.arg(call, m.arg_names, key)
        at = r.node_start(call)
        vals = {}
        for key in ('in_params', 'out_params', 'operation', 'name', 'preamble',
                    'loop_prep', 'after_loop', 'map_expr', 'reduce_expr',
                    'post_map_expr', 'identity', 'reduce_type'):
            node = get(key)
            if node is None:
                continue
            v = r.eval(node)
            if isinstance(v, Unknown):
                return self.note(call, '%s: %s' % (key, v.why))
            if key == 'identity' and isinstance(v, (int, float)):
                v = MStr.anchored(repr(v), 0, r.node_start(node))
            if not isinstance(v, MStr):
                return self.note(call, '%s is not a string' % key)
            vals[key] = v
        name = vals.get('name', MStr.anchored('kernel', 0, at)).text
        if not is_word(name):
            return self.note(call, 'kernel name')
        params = []
        generic = set()
        code = strip_comments(' '.join(vals[k].text for k in (
            'operation', 'map_expr', 'reduce_expr', 'post_map_expr', 'identity', 'preamble',
            'loop_prep', 'after_loop') if k in vals))
        for key in ('in_params', 'out_params'):
            if key not in vals:
                continue
            spec = vals[key].text.strip()
            if not spec:
                continue
            for p in spec.split(','):
                words = p.split()
                raw = words[:1] == ['raw']
                words = [w for w in words if w not in ('raw', 'const')]
                if len(words) != 2 or not is_word(words[1]):
                    return self.note(call, 'parameter list %r' % spec)
                tname, pname = words
                ctype = DTYPES.get(canonical_dtype(tname) or '', None)
                if ctype is None:
                    generic.add(tname)
                    ctype = tname
                params.append((ctype, pname, raw, key == 'out_params'))
        # CuPy typedefs each type placeholder to the dtype of each call and
        # compiles one kernel per dtype: the kernel is written as a template
        # over its placeholders, whose pattern the checks analyse where a
        # fact does not depend on them (analysis/TemplatePatterns.h). A
        # preamble is written before the kernel, where CuPy's typedefs are:
        # one that names a placeholder cannot be written without its type.
        if generic and 'preamble' in vals:
            import re
            named = generic.intersection(re.findall(
                r'[A-Za-z_]\w*', strip_comments(vals['preamble'].text)))
            if named:
                return self.note(call, 'the preamble uses generic type %r, which CuPy '
                                       'chooses at each call' % sorted(named)[0])
        needs_headers = 'thrust::' in code or 'cupy::' in code
        if needs_headers and self.cupy_include is None:
            self.cupy_include = find_cupy_include() or ''
        if needs_headers and not self.cupy_include:
            return self.note(call, "%s names come from CuPy's headers, which are not "
                                   "installed for this Python (--cupy-include names them)"
                             % ('thrust::' if 'thrust::' in code else 'cupy::'))
        if needs_headers and LIBRARY_INCLUDE + self.cupy_include not in self.args:
            self.args.append(LIBRARY_INCLUDE + self.cupy_include)
        if needs_headers:
            # With CuPy's headers, complex64/complex128 are thrust::complex.
            params = [(CUPY_HEADER_TYPES.get(c, c), n, raw, out) for c, n, raw, out in params]
        index = len(self.stats['skipped']) + self.stats['analysed']
        m.index = index
        m.namespace = '__ct_m%d' % index
        m.single_name = None
        m.generated = True
        defines = self.options(m, get('options'))
        self.stats['analysed'] += 1
        self.implicit_headers(m, ' '.join(v.text for v in vals.values()) + ' '.join(
            p[0] for p in params), at, needs_headers)
        b = self.body
        b.syn('\n', 0, at)
        for d in defines:
            n, _, value = d.partition('=')
            b.syn('#define %s %s\n' % (n, value or '1'), 0, at)
        b.syn('namespace %s {\n' % m.namespace, 0, at)
        if 'preamble' in vals:
            b.add(vals['preamble'])
            b.syn('\n', 0, at)
        sig = []
        for ctype, pname, raw, out in params:
            if raw:
                sig.append('cuda_tidy_python::raw<%s%s> %s' % ('' if out else 'const ', ctype, pname))
            else:
                sig.append('%s%s *_raw_%s' % ('' if out else 'const ', ctype, pname))
        if generic:
            b.syn('template <%s>\n' % ', '.join('class ' + g for g in sorted(generic)), 0, at)
        b.syn('__global__ void %s(%s) {\n' % (name, ', '.join(sig + ['cuda_tidy_python::indexer _ind'])), 0, at)
        # A parameter named outside the per-element loop (loop_prep,
        # after_loop, identity, post_map_expr) is a scalar argument: CuPy
        # passes scalars by value, visible in the whole kernel.
        outside_text = strip_comments(' '.join(
            vals[k].text for k in ('loop_prep', 'after_loop', 'identity', 'post_map_expr')
            if k in vals))
        if outside_text.strip():
            import re
        outside = set(re.findall(r'(?<![\w.])(?<!->)([A-Za-z_]\w*)', outside_text)) \
            if outside_text.strip() else set()
        for ctype, pname, raw, out in params:
            if not raw and not out and pname in outside:
                b.syn('const %s %s = _raw_%s[0];\n' % (ctype, pname, pname), 0, at)
        if 'loop_prep' in vals:
            b.add(vals['loop_prep'])
            b.syn(';\n', 0, at)
        reduction = m.kind == 'reduction'
        if reduction:
            rtype = vals['reduce_type'].text if 'reduce_type' in vals else (
                params[-1][0] if params else 'float')
            b.syn('typedef %s _type_reduce;\n_type_reduce _s = _type_reduce(' % rtype, 0, at)
            if 'identity' in vals:
                b.add(vals['identity'])
            else:
                b.syn('0', 0, at)
            b.syn(');\n', 0, at)
        # CuPy indexes with 32 bits when the size allows, as here.
        b.syn('for (int i = blockIdx.x * blockDim.x + threadIdx.x; '
              'i < _ind.size(); i += blockDim.x * gridDim.x) {\n', 0, at)
        for ctype, pname, raw, out in params:
            if raw or (reduction and out):
                continue
            b.syn('%s%s &%s = _raw_%s[i];\n' % ('' if out else 'const ', ctype, pname, pname), 0, at)
        if reduction:
            # _j: the position of the element in the input, which reduction
            # expressions may name (CuPy's reduction loop variable).
            b.syn('const long long _j = i; (void)_j;\n', 0, at)
            b.syn('_type_reduce a = _s, b = _type_reduce(', 0, at)
            b.add(vals.get('map_expr', MStr.anchored('0', 0, at)))
            b.syn(');\n_s = _type_reduce(', 0, at)
            b.add(vals.get('reduce_expr', MStr.anchored('a', 0, at)))
            b.syn(');\n(void)a; (void)b;\n}\n{ _type_reduce a = _s;\n', 0, at)
            for ctype, pname, raw, out in params:
                if out and not raw:
                    b.syn('%s &%s = _raw_%s[0];\n' % (ctype, pname, pname), 0, at)
            if 'post_map_expr' in vals:
                b.add(vals['post_map_expr'])
            b.syn(';\n}\n', 0, at)
        else:
            if 'operation' in vals:
                b.add(vals['operation'])
            b.syn(';\n}\n', 0, at)
        if 'after_loop' in vals:
            b.add(vals['after_loop'])
            b.syn(';\n', 0, at)
        b.syn('}\n}\n', 0, at)
        for d in defines:
            b.syn('#undef %s\n' % d.partition('=')[0], 0, at)
        return m

    # launches
    def launches(self):
        r = self.r
        for node in r.nodes:
            if not isinstance(node, ast.Call) or r.expects_failure(node):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ('prepared_call', 'prepared_timed_call',
                                                                 'prepared_async_call'):
                p = r.eval(func.value)
                if isinstance(p, KernelRef):
                    p = self.prepared_for(func.value)
                if isinstance(p, Prepared) and p.ref.module.index is not None:
                    self.emit_prepared(node, p, func.attr)
                continue
            ref = r.eval(func) if isinstance(func, (ast.Name, ast.Attribute, ast.Call)) else None
            if isinstance(ref, KernelModule) and ref.kind == 'raw-kernel' and ref.single_name:
                ref = KernelRef(ref, ref.single_name[0], ref.single_name[1])
            if isinstance(ref, KernelRef) and ref.module.index is not None:
                if ref.module.lib == 'cupy':
                    self.emit_cupy_launch(node, ref)
                elif ref.module.lib == 'pycuda':
                    self.emit_pycuda_launch(node, ref)
        # kernel lookups (RawKernel name, get_function) for the name rule
        for m in r.modules.values():
            if m.index is None or getattr(m, 'generated', False):
                continue
            if m.kind == 'raw-kernel' and m.single_name and not r.expects_failure(m.call):
                self.emit_lookup(m, m.single_name[0], m.single_name[1])
        for node in r.nodes:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr == 'get_function' and node.args and \
                    not r.expects_failure(node):
                ref = r.eval(node)
                if isinstance(ref, KernelRef) and ref.module.index is not None:
                    self.emit_lookup(ref.module, ref.name, ref.name_node)

    def prepared_for(self, func_value):
        """f.prepare(fmt) earlier in the same scope, f a name."""
        if not isinstance(func_value, ast.Name):
            return None
        scope = self.r.scope_of(func_value)
        best = None
        for n in walk(scope):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    n.func.attr == 'prepare' and isinstance(n.func.value, ast.Name) and \
                    n.func.value.id == func_value.id and n.lineno <= func_value.lineno and \
                    (best is None or n.lineno > best.lineno):
                best = n
        v = self.r.eval(best) if best is not None else None
        return v if isinstance(v, Prepared) else None

    def emit_lookup(self, m, name, name_node):
        r = self.r
        at = r.node_start(name_node)
        lib = m.lib
        expr = m.name_expressions
        has_ne = 1 if expr is not None and not isinstance(expr, Unknown) else 0
        if isinstance(expr, Unknown):
            has_ne = 2
        if has_ne == 1 and isinstance(expr, tuple):
            names = [e.text for e in expr if isinstance(e, MStr)]
            if name in names:
                return
        self.launch_count += 1
        b = self.body
        b.syn('\n__attribute__((annotate("cuda-tidy-python-lookup|%s|%s|%s|%d|%d"))) static void '
              % (lib, m.namespace, name.replace('"', ''), has_ne,
                 1 if getattr(m, 'wrapped_c', False) else 0), 0, at)
        b.syn('__ct_lookup_%d' % self.launch_count, 0, at)
        b.syn('() {}\n', 0, at)

    def dims(self, node, lib):
        """A grid or block as a list of (C++ MStr) per dimension; None:
        unknown; the fact 'notuple' when it is not a tuple."""
        r = self.r
        v = node
        for _ in range(8):
            if isinstance(v, ast.Name):
                d = r.definition(v)
                if d and isinstance(d[1], (ast.Tuple, ast.List)):
                    v = d[1]
                    continue
            break
        if isinstance(v, (ast.Tuple, ast.List)):
            return [e for e in v.elts], False
        if is_int_expr(self.r, v):
            return [node], True
        return None, False

    def translate(self, e, params, depth=0):
        """A Python integer expression as C++ over named sizes; None when it
        cannot be written."""
        out = MStrBuilder()
        return out.build() if self.write_int_expr(e, params, out, depth) else None

    #: Python's integer operators as C++'s.
    CXX_INT_OPS = {ast.Add: ' + ', ast.Sub: ' - ', ast.Mult: ' * ', ast.FloorDiv: ' / ',
                   ast.Mod: ' % '}

    def write_int_expr(self, e, params, out, depth):
        """Writes translate's text of e to out; False when it cannot be
        written (out then holds a part of it)."""
        r = self.r
        at = r.node_start(e)
        if depth > 10:
            return False
        if isinstance(e, ast.Constant) and isinstance(e.value, int) and not isinstance(e.value, bool):
            out.syn(str(e.value), 0, at)
            return True
        if isinstance(e, ast.Name):
            d = r.definition(e)
            if d and d[1] is not None and not isinstance(d[1], (ast.AugAssign, ast.withitem)):
                v = r.eval(d[1])
                if isinstance(v, int) and not isinstance(v, bool):
                    out.syn(str(v), 0, at)
                    return True
                t = self.translate(d[1], params, depth + 1)
                if t is not None:
                    out.syn('(', 0, at)
                    out.add(t)
                    out.syn(')', 0, at)
                    return True
            out.add(self.size_param(e, params))
            return True
        if isinstance(e, (ast.Attribute, ast.Subscript)) or (
                isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == 'len'):
            out.add(self.size_param(e, params))
            return True
        if isinstance(e, ast.Call):
            q = r.qualname(e.func) or (e.func.id if isinstance(e.func, ast.Name) else '')
            if (q in ('int',) or q.split('.')[-1] in ('int32', 'int64', 'uint32', 'uint64', 'intp')) \
                    and len(e.args) == 1:
                return self.write_int_expr(e.args[0], params, out, depth + 1)
            if q in ('math.ceil', 'numpy.ceil') and len(e.args) == 1 and \
                    isinstance(e.args[0], ast.BinOp) and isinstance(e.args[0].op, ast.Div):
                return self.write_ceil_div(e.args[0].left, e.args[0].right, params, out, depth, at)
            return False
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
            o = e.operand
            if isinstance(o, ast.BinOp) and isinstance(o.op, ast.FloorDiv) and \
                    isinstance(o.left, ast.UnaryOp) and isinstance(o.left.op, ast.USub):
                return self.write_ceil_div(o.left.operand, o.right, params, out, depth, at)
            return False
        if isinstance(e, ast.BinOp):
            op = self.CXX_INT_OPS.get(type(e.op))
            if op is None:
                return False
            out.syn('((', 0, at)
            # Both sides, as either may name a size of the launch.
            left = self.write_int_expr(e.left, params, out, depth + 1)
            out.syn(')' + op + '(', 0, at)
            right = self.write_int_expr(e.right, params, out, depth + 1)
            out.syn('))', 0, at)
            return left and right
        return False

    def write_ceil_div(self, num, den, params, out, depth, at):
        a = self.translate(num, params, depth + 1)
        b = self.translate(den, params, depth + 1)
        if a is None or b is None:
            return False
        for piece in ('((', a, ') + (', b, ') - 1) / (', b, ')'):
            if isinstance(piece, str):
                out.syn(piece, 0, at)
            else:
                out.add(piece)
        return True

    def size_param(self, e, params):
        r = self.r
        src = r.segment(e) or ''
        if src in params:
            return params[src][1]
        name = c_identifier(src.replace('.', '_').replace('[', '_').replace(']', '').replace(
            '(', '_').replace(')', '').replace(' ', ''))
        while any(p[0] == name for p in params.values()):
            name += '_'
        at = r.node_start(e)
        if isinstance(e, ast.Name) and name == src:
            m = MStr.exact(name, 0, at)
        elif isinstance(e, ast.Name):
            m = MStr.per_char(name, [(0, at + min(k, len(src) - 1), False)
                                     for k in range(len(name))])
        else:
            m = MStr.anchored(name, 0, at)
        params[src] = (name, m, e)
        return m

    def kernel_params(self, ref):
        count = ref.module.kernels.get(ref.name)
        return count

    def emit_cupy_launch(self, node, ref):
        r = self.r
        args = node.args
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if any(isinstance(a, ast.Starred) for a in args):
            return
        grid = args[0] if len(args) > 0 else kw.get('grid')
        block = args[1] if len(args) > 1 else kw.get('block')
        kargs = args[2] if len(args) > 2 else kw.get('args')
        shared = kw.get('shared_mem')
        if grid is None or block is None or kargs is None:
            return
        karg_list = None
        v = kargs
        for _ in range(8):
            if isinstance(v, ast.Name):
                d = r.definition(v)
                if d and isinstance(d[1], (ast.Tuple, ast.List)):
                    v = d[1]
                    continue
            break
        if isinstance(v, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in v.elts):
            karg_list = v.elts
        self.emit_launch(node, ref, grid, block, shared, karg_list, 'cupy', kargs)

    def emit_pycuda_launch(self, node, ref):
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if any(isinstance(a, ast.Starred) for a in node.args):
            return
        block = kw.get('block')
        grid = kw.get('grid', ast.Tuple(elts=[ast.Constant(1)], ctx=ast.Load()))
        if block is None:
            return
        if not hasattr(grid, 'lineno'):
            copy_location(grid, node)
            copy_location(grid.elts[0], node)
        self.emit_launch(node, ref, grid, block, kw.get('shared'), node.args, 'pycuda', node)

    def emit_prepared(self, node, prepared, how):
        args = node.args
        if any(isinstance(a, ast.Starred) for a in args) or len(args) < 2:
            return
        skip = 3 if how == 'prepared_async_call' else 2
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        fmt = prepared.fmt
        fmt_text = fmt.text if isinstance(fmt, MStr) else None
        self.emit_launch(node, prepared.ref, args[0], args[1], kw.get('shared_size'),
                         args[skip:], 'pycuda-prepared', node, fmt_text=fmt_text,
                         fmt_node=prepared.node.args[0])

    def emit_launch(self, node, ref, grid, block, shared, kargs, lib, kargs_node,
                    fmt_text=None, fmt_node=None):
        r = self.r
        at = r.node_start(node)
        m = ref.module
        kernel = '%s::%s' % (m.namespace, ref.name)
        count = m.kernels.get(ref.name)
        if ref.name not in m.kernels or not is_word(ref.name):
            return
        self.launch_count += 1
        params = {}
        dims = {}
        facts = []
        for what, node_ in (('grid', grid), ('block', block)):
            elts, notuple = self.dims(node_, lib.split('-')[0])
            out = []
            if elts is None:
                out = None
            else:
                for e in elts[:3]:
                    t = self.translate(e, params)
                    if t is None:
                        out = None
                        break
                    out.append(t)
            dims[what] = out
            if notuple and lib == 'cupy':
                facts.append((what + '-notuple', node_))
        b = self.body
        s = lambda t: b.syn(t, 0, at)
        s('\n__attribute__((annotate("cuda-tidy-python-launch|%s%s"))) static void '
          % (lib, ('|' + fmt_text.replace('"', '')) if fmt_text is not None else ''))
        s('__ct_launch_%d(' % self.launch_count)
        first = [True]

        def sep():
            if not first[0]:
                s(', ')
            first[0] = False
        for src, (name, mname, e) in params.items():
            sep()
            s('long long ')
            b.add(mname)
        for what, node_ in facts:
            sep()
            s('__attribute__((annotate("cuda-tidy-python-%s"))) long long ' % what)
            b.syn('__%s' % what.replace('-', '_'), 0, r.node_start(node_))
        arg_names = []
        if kargs is not None:
            for i, a in enumerate(kargs):
                fact = self.facts.fact(a, lib)
                sep()
                s('__attribute__((annotate("cuda-tidy-python-arg|%s|%s"))) ' % (lib, fact))
                if count is not None and i < count:
                    s('cuda_tidy_python::param_t<decltype(&%s), %d> ' % (kernel, i))
                else:
                    s('long long ')
                pname = MStr.anchored('__a%d' % i, 0, r.node_start(a))
                b.add(pname)
                arg_names.append((a, pname))
        else:
            sep()
            s('__attribute__((annotate("cuda-tidy-python-args-unknown"))) int ')
            b.syn('__args', 0, r.node_start(kargs_node))
        s(') {\n  (void)&%s;\n' % kernel)
        if count is not None and kargs is not None and count == len(kargs) and \
                dims['grid'] is not None and dims['block'] is not None:
            def dim3(ds):
                s('dim3(')
                for k, d in enumerate(ds):
                    if k:
                        s(', ')
                    b.add(d)
                s(')')
            s('  %s<<<' % kernel)
            dim3(dims['grid'])
            s(', ')
            dim3(dims['block'])
            if shared is not None:
                t = self.translate(shared, params)
                s(', ')
                if t is not None:
                    b.add(t)
                else:
                    b.syn('0', 0, r.node_start(shared))
            s('>>>(')
            for i, (a, pname) in enumerate(arg_names):
                if i:
                    s(', ')
                src = r.segment(strip_int(r, a)) or ''
                if src in params:
                    b.add(params[src][1])
                else:
                    b.add(pname)
            # CuPy and PyCUDA raise when the launch fails.
            s(');\n  if (cudaGetLastError() != cudaSuccess) __builtin_trap();\n')
        s('}\n')


def is_int_expr(r, e):
    """Whether e is certainly an integer (never a tuple): an int literal,
    arithmetic of such, int(), len(), math.ceil()."""
    if isinstance(e, ast.Constant):
        return isinstance(e.value, int) and not isinstance(e.value, bool)
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.FloorDiv, ast.Add, ast.Sub, ast.Mod)):
        return not any(isinstance(x, (ast.Tuple, ast.List)) for x in (e.left, e.right)) and (
            is_int_expr(r, e.left) or is_int_expr(r, e.right) or isinstance(e.op, ast.FloorDiv))
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        return is_int_expr(r, e.operand)
    if isinstance(e, ast.Call):
        q = r.qualname(e.func) or (e.func.id if isinstance(e.func, ast.Name) else '')
        return q in ('int', 'len', 'math.ceil', 'math.floor')
    return False


def strip_int(r, a):
    """np.int32(n) -> n: the size passed is the size in the grid."""
    while isinstance(a, ast.Call) and len(a.args) == 1:
        q = r.qualname(a.func) or (a.func.id if isinstance(a.func, ast.Name) else '')
        if q == 'int' or q.split('.')[-1] in ('int32', 'int64', 'uint32', 'uint64', 'intp', 'uintp'):
            a = a.args[0]
        else:
            break
    return a


def strip_comments(text):
    """The text with comments blanked (line breaks kept), same length.
    String literals are skipped whole: a // inside one is not a comment."""
    out, done, i, n = [], 0, 0, len(text)
    while True:
        j = find_first(text, '/"', i, n)
        if j < 0:
            break
        if text[j] == '"':
            # A literal on one line, with escapes; unterminated: not one.
            k = j + 1
            while k < n and text[k] not in '"\n':
                k += 2 if text[k] == '\\' and k + 1 < n else 1
            i = k + 1 if k < n and text[k] == '"' else j + 1
            continue
        if text.startswith('//', j):
            end = text.find('\n', j)
            end = n if end < 0 else end
        elif text.startswith('/*', j) and text.find('*/', j + 2) >= 0:
            end = text.find('*/', j + 2) + 2
        else:
            i = j + 1
            continue
        out.append(text[done:j])
        out.append('\n'.join(' ' * len(part) for part in text[j:end].split('\n')))
        done = i = end
    out.append(text[done:])
    return ''.join(out)


def reopens_std(text):
    """Whether the source opens `namespace std` (each module is compiled
    inside a namespace of its own, where that would be a new namespace)."""
    if 'namespace' not in text:
        return False
    clean = strip_comments(text)
    at = clean.find('namespace')
    while at >= 0:
        before = clean[at - 1] if at else ' '
        rest = clean[at + len('namespace'):].lstrip()
        if not (before.isalnum() or before == '_') and rest.startswith('std') and \
                rest[3:4] in ('', ' ', '\t', '\n', '{'):
            return True
        at = clean.find('namespace', at + 1)
    return False


def find_first(text, chars, start, end):
    """The first index in text[start:end] of any of chars, or -1."""
    best = -1
    for c in chars:
        k = text.find(c, start, end)
        if k >= 0:
            best, end = k, k
    return best


def is_word(s):
    """Whether s is one or more word characters (letters, digits, _), as
    the C and Python identifiers the reader writes need."""
    if s.endswith('\n'):
        s = s[:-1]
    return s.replace('_', 'a').isalnum()


def directive_lines(text, word):
    """(line start, line end, offset after the word) of each line of text
    that starts with the preprocessor directive `# word`."""
    if '#' not in text:
        return
    pos = 0
    for line in text.split('\n'):
        head = line.lstrip(' \t')
        if head.startswith('#'):
            rest = head[1:].lstrip(' \t')
            if rest.startswith(word):
                yield pos, pos + len(line), pos + len(line) - len(rest) + len(word)
        pos += len(line) + 1


def defined_names(text):
    """The macro names that `#define` lines of text define."""
    names = []
    for _, line_end, after in directive_lines(text, 'define'):
        k = after
        while k < line_end and text[k] in ' \t':
            k += 1
        if k == after:
            continue
        e = k
        while e < line_end and (text[e].isalnum() or text[e] == '_'):
            e += 1
        if e > k:
            names.append(text[k:e])
    return names


def declarator_name(clean, at):
    """The name of the function declared after clean[at] (the word before
    the first '(' when no ';' or '{' comes first) and the offset of that
    '(', or None."""
    paren = find_first(clean, ';{(', at, len(clean))
    if paren < 0 or clean[paren] != '(':
        return None
    end = paren
    while end > at and clean[end - 1].isspace():
        end -= 1
    start = end
    while start > at and (clean[start - 1].isalnum() or clean[start - 1] == '_'):
        start -= 1
    return (clean[start:end], paren) if start < end else None


def in_extern_c_block(clean, pos):
    for _, ec_end in extern_c_spans(clean, 0, pos):
        rest = clean[ec_end:pos]
        if rest.lstrip().startswith('{'):
            depth = 0
            for ch in rest:
                depth += {'{': 1, '}': -1}.get(ch, 0)
            if depth > 0:
                return True
    return False


def count_params(params):
    p = params.strip()
    if not p or p == 'void':
        return 0
    if '...' in p or '#' in p:
        return None
    depth, count = 0, 1
    for ch in p:
        if ch in '(<[{':
            depth += 1
        elif ch in ')>]}':
            depth -= 1
        elif ch == ',' and depth == 0:
            count += 1
    return count if depth == 0 else None


def find_cupy_include():
    """The folder that holds CuPy's `cupy/*.cuh`: CUDA_TIDY_CUPY_INCLUDE
    (the driver's --cupy-include), else `_core/include` of the cupy package
    that the reader's Python would import (located, not imported)."""
    named = os.environ.get('CUDA_TIDY_CUPY_INCLUDE')
    if named:
        return named if os.path.isdir(os.path.join(named, 'cupy')) else None
    return find_package_folder('cupy', os.path.join('_core', 'include'))


_package_folders = {}


def find_package_folder(package, sub):
    """`sub` of the package that the reader's Python would import
    (located with importlib, not imported), or None; looked for once per
    reader process."""
    key = (package, sub)
    if key not in _package_folders:
        _package_folders[key] = locate_package_folder(package, sub)
    return _package_folders[key]


def locate_package_folder(package, sub):
    try:
        import importlib.util
        import site
        # Run with -S: the site folders are added only now, when needed.
        for d in site.getsitepackages() + [site.getusersitepackages()]:
            if d not in sys.path:
                sys.path.append(d)
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    for loc in (spec.submodule_search_locations or []) if spec else []:
        folder = os.path.join(loc, sub)
        if os.path.isdir(folder):
            return folder
    return None


def torch_include_known(args):
    extra = os.environ.get('CUDA_TIDY_TORCH_INCLUDE', '')
    dirs = [a[2:] for a in args if a.startswith('-I')] + [d for d in extra.split(os.pathsep) if d]
    for d in dirs:
        if os.path.exists(os.path.join(d, 'torch', 'types.h')):
            if '-I' + d not in args:
                args.append('-I' + d)
            return True
    return False


# --- NOLINT comments --------------------------------------------------------------

def nolint_comments(source):
    out = []
    if 'NOLINT' not in source:
        return out
    import re
    import tokenize
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type != tokenize.COMMENT:
                continue
            m = re.search(r'NOLINT(NEXTLINE)?(\(([^)]*)\))?', tok.string)
            if m:
                checks = m.group(3) if m.group(2) else '*'
                line = tok.start[0] + (1 if m.group(1) else 0)
                out.append([line, checks.strip()])
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return out


# --- Output ---------------------------------------------------------------------

def byte_offsets(text):
    """Character offset -> UTF-8 byte offset (list, one past the end too)."""
    if text.isascii():
        return range(len(text) + 1)
    out = [0] * (len(text) + 1)
    b = 0
    for i, ch in enumerate(text):
        out[i] = b
        b += 1 if ord(ch) < 0x80 else len(ch.encode('utf-8', 'surrogatepass'))
    out[len(text)] = b
    return out


class NumberRows(list):
    """Lists of integers and booleans, which to_json writes at once: Python
    writes them as JSON does, but for True and False."""


def compress(unit, files_text):
    """[unit byte start, byte length, file, file byte start, exact] runs:
    exact characters that follow each other in the unit and in the file,
    and characters anchored at the same place (NumberRows)."""
    ub = byte_offsets(unit.text)
    fb = {fid: byte_offsets(t) for fid, t in files_text.items()}
    runs, out = unit.runs, NumberRows()
    for k, (start, fid, off, exact) in enumerate(runs):
        end = runs[k + 1][0] if k + 1 < len(runs) else len(unit.text)
        offsets = fb[fid]
        out.append([ub[start], ub[end] - ub[start], fid,
                    offsets[min(off, len(offsets) - 1)], bool(exact)])
    return out


def error_result(path, data, line, col, message):
    """An error at a 1-based line and character column, as a byte offset."""
    starts = [0] + [k + 1 for k, b in enumerate(data) if b == 0x0a]
    start = starts[min(max(line, 1), len(starts)) - 1]
    end = data.find(b'\n', start)
    head = data[start:end if end >= 0 else len(data)]
    try:
        col_bytes = len(head.decode('utf-8')[:max(col, 1) - 1].encode('utf-8'))
    except UnicodeDecodeError:
        col_bytes = max(col, 1) - 1
    return {'version': 1, 'files': [os.path.abspath(path)], 'tu': '', 'map': [],
            'args': [], 'nolint': [], 'notes': [],
            'errors': [[start + col_bytes, message]],
            'stats': {'found': 0, 'analysed': 0, 'skipped': []}}


def source_encoding(data):
    """The file's encoding as Python reads it (PEP 263): UTF-8 unless a BOM
    or a coding comment in the first two lines says otherwise."""
    head = data.split(b'\n', 2)[:2]
    if not data.startswith(b'\xef\xbb\xbf') and not any(b'coding' in line for line in head):
        return 'utf-8'
    import tokenize  # costs as much as the rest of the reader's imports
    return tokenize.detect_encoding(io.BytesIO(data).readline)[0]


def analyse(path, data):
    try:
        encoding = source_encoding(data)
    except SyntaxError as e:
        return error_result(path, data, 1, 1, 'cannot read the file: %s' % e)
    try:
        source = data.decode(encoding if encoding != 'utf-8-sig' else 'utf-8-sig')
    except (UnicodeDecodeError, LookupError) as e:
        bad = getattr(e, 'start', 0)
        line = data.count(b'\n', 0, bad) + 1
        col = bad - (data.rfind(b'\n', 0, bad) + 1) + 1
        return error_result(path, data, line, col, 'the file is not valid %s (byte 0x%02x at offset %d); '
                            'Python cannot read it' % (encoding.upper(), data[bad] if bad < len(data) else 0, bad))
    source = source.replace('\r\n', '\n') if '\r\n' in source and False else source
    try:
        reader = Reader(path, source)
    except SyntaxError as e:
        line = e.lineno or 1
        return error_result(path, data, line, max(1, e.offset or 1),
                            'Python syntax error: %s' % e.msg)
    except (ValueError, RecursionError, MemoryError) as e:
        return error_result(path, data, 1, 1, 'cannot parse the file: %s' % e)
    facts = Facts(reader)
    em = Emitter(reader, facts)
    for node in reader.nodes:
        if isinstance(node, ast.Call):
            ctor = reader.ctor_of(node)
            if ctor:
                em.module(reader.module_of(node, ctor))
    em.launches()
    if em.stats['analysed'] == 0:
        tu = MStr('', [])
    else:
        unit = MStrBuilder()
        for inc in em.unit_includes():
            unit.add(inc)
        unit.syn(PRELUDE, 0, 0)
        unit.add(em.body.build())
        tu = unit.build()
    args = list(em.args) + ['-I' + reader.dir]
    # NVRTC and nvcc (EDG) warn about a narrowing conversion in braces
    # (`const bool odd { _ind.size() & 1 }`, cusignal), where clang stops.
    args.append('-Wno-error=c++11-narrowing')
    std = em.std or 'c++17'
    if em.uses_cupy_headers and std in ('c++11', 'c++14', 'c++03', 'c++98'):
        std = 'c++17'  # the CCCL that CuPy's complex.cuh includes needs it
    args.append('-std=' + std)
    return {
        'version': 1,
        'files': reader.files,
        'tu': tu.text,
        'map': compress(tu, reader.file_texts) if tu.text else [],
        'args': args,
        'nolint': nolint_comments(source),
        'notes': reader.notes,
        'errors': [],
        'stats': em.stats,
    }


def read_path(path):
    """The reader's answer for one file, or (None, why) on a defect of the
    reader: never a silent pass."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError as e:
        return error_result(path, b'', 1, 1, 'cannot read the file: %s' % e.strerror), None
    try:
        return analyse(path, data), None
    except Exception as e:
        import traceback
        where = traceback.extract_tb(e.__traceback__)[-1]
        return None, 'internal error: %s: %s (cuda_tidy_python.py:%d)' % (
            type(e).__name__, e, where.lineno)


try:
    # The json package compiles its decoder's expressions when imported:
    # the reader only writes JSON, with the encoder's C string quoting.
    from _json import encode_basestring_ascii as _json_string
except ImportError:
    _json_string = None


def to_json(value):
    """value (dicts, lists, strings, numbers, booleans, None) as ASCII JSON."""
    if _json_string is None:
        import json
        return to_json(value)
    out = []

    def put(v):
        if isinstance(v, str):
            out.append(_json_string(v))
        elif v is True or v is False:
            out.append('true' if v else 'false')
        elif v is None:
            out.append('null')
        elif isinstance(v, int):
            out.append(int.__repr__(v))
        elif isinstance(v, float):
            out.append(repr(v) if v == v and v not in (float('inf'), float('-inf')) else 'null')
        elif isinstance(v, dict):
            out.append('{')
            for k, (key, item) in enumerate(v.items()):
                if k:
                    out.append(', ')
                out.append(_json_string(str(key)))
                out.append(': ')
                put(item)
            out.append('}')
        elif type(v) is NumberRows:
            out.append(list.__repr__(v).replace('True', 'true').replace('False', 'false'))
        elif isinstance(v, (list, tuple)):
            out.append('[')
            for k, item in enumerate(v):
                if k:
                    out.append(', ')
                put(item)
            out.append(']')
        else:
            raise TypeError('cannot write %s as JSON' % type(v).__name__)
    put(value)
    return ''.join(out)


def fewer_collections():
    """The reader allocates many small objects (nodes, runs) and makes few
    cycles: the collector's default, a pass every 700 allocations, cost 15%
    of its time when mapped strings held a tuple per character, 1% since
    (bench/python_vs_cu.py's 20-kernel file)."""
    import gc
    gc.set_threshold(100000, 50, 100)


def serve(stdin, stdout):
    """One reader for a whole run (driver/PythonInput.cpp): first a line with
    the interpreter's own path (later readers of the run start it directly,
    past launchers such as pyenv's shims), then, for each line naming a
    file, one line of JSON: the answer, or {"internal": why}."""
    sys.setrecursionlimit(10000)
    fewer_collections()
    stdout.write(to_json({'python': sys.executable}).encode() + b'\n')
    stdout.flush()
    for line in stdin:
        path = os.fsdecode(line.rstrip(b'\n'))
        result, why = read_path(path)
        out = to_json(result if why is None else {'internal': why})
        stdout.write(out.encode('utf-8', 'surrogateescape') + b'\n')
        stdout.flush()
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == '--serve':
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    if len(argv) < 2:
        sys.stderr.write('usage: cuda_tidy_python.py FILE.py [--stats|--tu] | --serve\n')
        return 2
    path = argv[1]
    sys.setrecursionlimit(10000)
    fewer_collections()
    result, why = read_path(path)
    if why is not None:
        sys.stderr.write(why + '\n')
        return 2
    if '--stats' in argv[2:]:
        sys.stdout.write(to_json({'file': path, 'stats': result['stats'],
                                  'errors': result['errors'], 'notes': result['notes']}))
    elif '--tu' in argv[2:]:
        sys.stdout.write(result['tu'])
    else:
        sys.stdout.write(to_json(result))
    sys.stdout.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
