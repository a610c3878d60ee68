"""Kernel sources: each kernel module of a file (RawKernel, RawModule,
ElementwiseKernel, ReductionKernel, SourceModule, load_inline) written into
one CUDA translation unit, as its host library compiles it."""

import keyword

import os

import sys

# CPython's parser and node classes. The ast module adds only helpers, and
# importing it costs as much as all the reader's other imports: the three
# the reader needs are below.
try:
    import _ast as ast
except ImportError:  # an implementation without it
    import ast

from .library_model import CUPY_GENERATED_HEADERS, CUPY_HEADER_TYPES, DTYPES, FLOAT16_TYPEDEF, LIBRARY_INCLUDE, LOAD_INLINE_HEADERS, MAX_KERNEL_TEXT, PYCUDA_CTYPES, PYCUDA_REDUCTION_BLOCK, canonical_dtype
from .reader import Unknown
from .elementwise_calls import loop_sized_raw, pycuda_loop_sized, pycuda_parameters
from .source import MStr, MStrBuilder, find_first, is_word, join_mstr

# --- The translation unit ------------------------------------------------------

PRELUDE = r'''namespace cuda_tidy_python {
template <unsigned I, class... T> struct at_;
template <class H, class... T> struct at_<0, H, T...> { typedef H type; };
template <unsigned I, class H, class... T> struct at_<I, H, T...> : at_<I - 1, T...> {};
template <class F, unsigned I> struct param_;
template <class... P, unsigned I> struct param_<void (*)(P...), I> : at_<I, P...> {};
template <class F, unsigned I> using param_t = typename param_<F, I>::type;
struct indexer { long long n; int ndim; const long long *index_; __device__ long long size() const { return n; } __device__ const long long *get() const { return index_; } };
template <class T> struct raw { T *data_; long long n_; __device__ T &operator[](long long i) const { return data_[i]; } template <class I> __device__ T &operator[](I *index) const { return data_[index[0]]; } __device__ long long size() const { return n_; } __device__ const long long *shape() const { return shape_; } __device__ const long long *strides() const { return strides_; } __device__ T *data() const { return data_; } const long long *shape_, *strides_; int ndim; __device__ operator T &() const { return data_[0]; } };
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


def split_params(params):
    """A parameter list split at its top-level commas."""
    out, depth, cur = [], 0, []
    for ch in params:
        if ch in '(<[{':
            depth += 1
        elif ch in ')>]}':
            depth -= 1
        elif ch == ',' and depth == 0:
            out.append(''.join(cur))
            cur = []
            continue
        cur.append(ch)
    out.append(''.join(cur))
    return out


def template_dependent_params(head, params):
    """For a template kernel: per parameter, whether its declaration names
    one of the template's type parameters (`template <typename T, int N>`:
    T); None where the template head is not one simple list."""
    import re
    m = re.search(r'template\s*<([^<>]*)>\s*$', head.strip() + '\n'.strip()) if head else None
    if m is None:
        m = re.search(r'template\s*<([^<>]*)>', head or '')
    if m is None or count_params(params) is None:
        return None
    names = []
    for p in split_params(m.group(1)):
        words = re.findall(r'[A-Za-z_]\w*', p)
        if len(words) >= 2 and words[0] in ('typename', 'class'):
            names.append(words[-1])
        elif len(words) < 2:
            return None
    if not names:
        return None
    rx = re.compile(r'\b(%s)\b' % '|'.join(map(re.escape, names)))
    return [rx.search(p) is not None for p in split_params(params)] if params.strip() else []


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
        # Run with -S: the site folders are added only now, when needed,
        # those Python's own start-up would add.
        for d in site_folders(site):
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


def site_folders(site):
    """The site folders Python's own start-up would put on the path, which
    -S skips: in a virtual environment (pyvenv.cfg beside the interpreter or
    one folder up, as site.venv() finds it) its own, and the system's and
    the user's only with include-system-site-packages; elsewhere the
    system's and the user's."""
    exe_dir = os.path.dirname(os.path.abspath(sys.executable))
    venv_prefix = os.path.dirname(exe_dir)
    for folder in (exe_dir, venv_prefix):
        cfg_path = os.path.join(folder, 'pyvenv.cfg')
        if not os.path.isfile(cfg_path):
            continue
        system = False
        try:
            with open(cfg_path) as cfg:
                for line in cfg:
                    key, _, value = line.partition('=')
                    if key.strip().lower() == 'include-system-site-packages':
                        system = value.strip().lower() == 'true'
        except OSError:
            pass
        folders = site.getsitepackages([venv_prefix])
        if not system:
            return folders
        break
    else:
        folders = []
    folders += site.getsitepackages()
    if site.check_enableusersite():
        folders.append(site.getusersitepackages())
    return folders


def torch_include_known(args):
    extra = os.environ.get('CUDA_TIDY_TORCH_INCLUDE', '')
    dirs = [a[2:] for a in args if a.startswith('-I')] + [d for d in extra.split(os.pathsep) if d]
    for d in dirs:
        if os.path.exists(os.path.join(d, 'torch', 'types.h')):
            if '-I' + d not in args:
                args.append('-I' + d)
            return True
    return False


class KernelUnitWriter:
    """Writes the kernel modules of a file into one translation unit."""

    def __init__(self, reader, facts):
        self.r = reader
        self.facts = facts
        self.unit = MStrBuilder()
        self.body = MStrBuilder()
        # Kernel modules of other modules of the package (sibling_module).
        self.sibling_body = MStrBuilder()
        self.includes = []  # MStr lines
        self.include_keys = set()
        self.args = []
        self.std = None
        self.stats = {'found': 0, 'analysed': 0, 'skipped': []}
        self.launch_count = 0
        self.cupy_include = None  # looked for when a kernel includes <cupy/...>
        self.uses_cupy_headers = False
        self.pycuda_include = None  # looked for when a kernel includes <pycuda-...>

    def sibling_module(self, m):
        """Writes a kernel module that a module of the package constructs
        (a factory or a module-level kernel this file imports and
        launches) into this file's unit, read with that module's reader:
        its text keeps its place in that file, where its findings are
        reported. Once per module; its index, or None where it is skipped
        (that module's own unit reports why)."""
        sub = getattr(m, 'reader', None)
        if sub is None or sub is self.r or m.index is not None:
            return m.index
        done = self.__dict__.setdefault('sibling_modules', set())
        if id(m) in done:
            return m.index
        done.add(id(m))
        saved = self.r, self.body, len(self.includes), len(self.stats['skipped'])
        stats = dict(self.stats)
        keys, cupy_headers = set(self.include_keys), self.uses_cupy_headers
        notes = len(sub.notes)
        self.r, self.body = sub, MStrBuilder()
        try:
            self.module(m)
            body = self.body.build()
        finally:
            r, self.body, n_inc, n_skipped = saved
            self.r = r
        del sub.notes[notes:]
        self.stats['found'] -= 1  # not a constructor of this file
        if len(self.stats['skipped']) > n_skipped or getattr(m, 'has_holes', False):
            # Skipped there, or read with holes (a source the caller
            # passes in: this file's launch would meet a kernel the reader
            # made up): not written here.
            del self.stats['skipped'][n_skipped:]
            del self.includes[n_inc:]
            self.include_keys, self.uses_cupy_headers = keys, cupy_headers
            self.stats.clear()
            self.stats.update(stats)  # its skipped list, trimmed above
            m.index = None
            return None
        self.stats['sibling'] = self.stats.get('sibling', 0) + 1
        ids = r.adopt_files(sub)
        remap = lambda x: MStr(x.text, [(a, ids[f], o, e) for a, f, o, e in x.runs])
        self.includes[n_inc:] = [remap(x) for x in self.includes[n_inc:]]
        self.sibling_body.add(remap(body))
        return m.index

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
                m.name_expressions_node = ne
            opts = get('options')
            jit = get('jitify')
            if jit is not None and r.eval(jit) is True:
                return self.note(call, 'jitify=True preprocesses the source')
            return self.emit_source(m, code, opts, wrap_c=False, headers=[], code_node=code_node)
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
            return self.emit_source(m, code, get('options'), wrap_c=not no_extern_c, headers=[],
                                    code_node=get('source'))
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
            holes = {}
            return self.emit_source(m, self.pycuda_elementwise(m, holes), get('options'),
                                    wrap_c=False, headers=[], holes=holes)
        if m.kind == 'pycuda-reduction':
            holes = {}
            return self.emit_source(m, self.pycuda_reduction(m, holes), get('options'),
                                    wrap_c=False, headers=[], holes=holes)
        return None

    def pycuda_texts(self, m, keys, holes):
        """{key: MStr} of the C texts a PyCUDA generated kernel is given,
        or Unknown."""
        r = self.r
        vals = {}
        for key in keys:
            node = r.arg(m.call, m.arg_names, key)
            if node is None:
                continue
            v = r.eval(node)
            if isinstance(v, Unknown):
                v = r.eval_with_holes(node, holes)
            if isinstance(v, Unknown):
                return Unknown('its %s is not known: %s' % (key, v.why))
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                v = MStr.anchored(str(v), 0, r.node_start(node))  # "%(neutral)s"
            if not isinstance(v, MStr):
                return Unknown('%s is not a string' % key)
            vals[key] = v
        return vals

    def pycuda_reduction(self, m, holes):
        """The first stage PyCUDA's ReductionKernel compiles
        (pycuda/reduction.py, get_reduction_module): each thread maps
        `seq_count` elements i < n, a block of 512 apart, and folds them
        with reduce_expr; the first vector's size is n. Its shared-memory
        tree (PyCUDA's own code) is written as one barrier and thread 0's
        store; REDUCE(a, b) is a device function of out_type."""
        r = self.r
        at = r.node_start(m.call)
        dnode = r.arg(m.call, m.arg_names, 'dtype_out')
        facts = getattr(self, 'facts', None)
        dtype = facts.dtype_of_value(dnode) if dnode is not None and facts is not None else None
        syn = lambda text: MStr.anchored(text, 0, at)
        if dnode is None or dtype == 'float16':
            return Unknown('its dtype_out is not a dtype PyCUDA gives a C type')
        if dtype is None or dtype not in DTYPES:
            # A dtype the file does not hold (a parameter): out_type is an
            # opaque type, and the kernel a template over it.
            saved, r.hole_mode = r.hole_mode, holes
            try:
                out_decl = r.hole_value(dnode, 0, r.node_start(dnode), 'dtype_out')
            finally:
                r.hole_mode = saved
            out_type = ''
        else:
            out_type = PYCUDA_CTYPES.get(dtype, DTYPES[dtype])
            out_decl = syn(out_type)
        vals = self.pycuda_texts(m, ('neutral', 'reduce_expr', 'map_expr', 'arguments',
                                     'name', 'preamble'), holes)
        if isinstance(vals, Unknown):
            return vals
        if 'neutral' not in vals or 'reduce_expr' not in vals:
            return Unknown('no neutral or reduce_expr')
        empty = MStr('', [])
        name = (vals['name'].text if 'name' in vals else 'reduce_kernel') + '_stage1'
        if not is_word(name):
            return Unknown('kernel name')
        arguments = vals.get('arguments') or syn('const out_type *in')
        map_expr = vals.get('map_expr') or syn('in[i]')
        header = syn('#include <pycuda-complex.hpp>\n') if 'pycuda::' in out_type or any(
            'pycuda::' in v.text for v in vals.values()) else empty
        return join_mstr([
            header, syn('typedef '), out_decl, syn(' out_type;\n'), vals.get('preamble', empty),
            syn('\n__device__ out_type __ct_reduce(out_type a, out_type b) { return ('),
            vals['reduce_expr'],
            syn('); }\nextern "C" __global__ void %s(out_type *out, ' % name), arguments,
            syn(', unsigned int seq_count, unsigned int n) {\n'
                '__shared__ out_type sdata[%d];\nunsigned int tid = threadIdx.x;\n'
                'unsigned int i = blockIdx.x * %d * seq_count + tid;\nout_type acc = ' % (
                    PYCUDA_REDUCTION_BLOCK, PYCUDA_REDUCTION_BLOCK)),
            vals['neutral'],
            syn(';\nfor (unsigned s = 0; s < seq_count; ++s) {\nif (i >= n) break;\n'
                'acc = __ct_reduce(acc, ('),
            map_expr,
            syn('));\ni += %d;\n}\nsdata[tid] = acc;\n__syncthreads();\n'
                'if (tid == 0) out[blockIdx.x] = sdata[0];\n}\n' % PYCUDA_REDUCTION_BLOCK)])

    def pycuda_elementwise(self, m, holes):
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
                v = r.eval_with_holes(node, holes)
            if isinstance(v, Unknown):
                return Unknown('its %s is not known: %s' % (key, v.why))
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
        # A vector a call in the file sizes to n (elementwise_calls.py) is
        # marked as CuPy's loop-sized raw arrays are, and the loop's bound
        # is then n through the indexer analysis/LoopSizedRawIndex reads.
        arguments = vals['arguments']
        params = pycuda_parameters(arguments.text)
        sized = pycuda_loop_sized(r, m, params) if params else {}
        bound, ind = 'n', ''
        if sized:
            parts, last = [], 0
            # After the name: the type before it stays where a hole's kind
            # is read from (a type follows '(' or ',').
            for pname, _, start, end in params:
                if pname in sized:
                    parts += [arguments.slice(last, end), syn(
                        ' __attribute__((annotate("cuda-tidy-python-loop-sized|%d")))' % sized[pname])]
                    last = end
            arguments = join_mstr(parts + [arguments.slice(last, len(arguments.text))])
            bound = '_ind.size()'
            ind = 'const cuda_tidy_python::indexer _ind = {(long long)n, 1, 0};\n'
        return join_mstr([
            header, vals.get('preamble', empty),
            syn('\nextern "C" __global__ void %s(' % name), arguments,
            syn(', unsigned long n) {\n%ssize_t tid = threadIdx.x;\n'
                'size_t total_threads = gridDim.x * blockDim.x;\n'
                'size_t cta_start = blockDim.x * blockIdx.x;\nsize_t i;\n' % ind),
            vals.get('loop_prep', empty),
            syn(';\nfor (i = cta_start + tid; i < %s; i += total_threads) {\n' % bound),
            vals['operation'],
            syn(';\n}\n'), vals.get('after_loop', empty), syn(';\n}\n')])

    def hole_where(self, hole):
        fid, off = hole[0], hole[1]
        return self.r.where_offset(fid, off)

    def emit_source(self, m, code, opts, wrap_c, headers, namespace=True, code_node=None,
                    holes=None):
        r = self.r
        call = m.call
        if isinstance(code, Unknown) and code_node is not None and namespace:
            # Its text is not all known: read it again with each unknown
            # value of a format hole as an opaque name.
            holes = {}
            v = r.eval_with_holes(code_node, holes)
            if isinstance(v, MStr):
                code = v
        if isinstance(code, Unknown):
            return self.note(call, code.why)
        if not isinstance(code, MStr):
            return self.note(call, 'the source is not a string')
        if len(code.text) > MAX_KERNEL_TEXT:
            return self.note(call, 'the source is larger than %d bytes' % MAX_KERNEL_TEXT)
        values = ()
        if holes:
            code = typedefs_of_holes(code, holes)
            aliases = {}
            kinds = hole_kinds(code.text, holes, self.hole_where, aliases)
            if isinstance(kinds, Unknown):
                return self.note(call, kinds.why)
            types = sorted(n for n, k in kinds.items() if k in ('type', 'const'))
            values = sorted(n for n, k in kinds.items() if k in ('value', 'const'))
            if types:
                code = template_over_holes(code, kinds, aliases, holes[types[0]][:2])
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
        if holes:
            self.holes_note(m, holes, kinds)
        # A source with holes may have templates the reader made
        # (launches.py names only the user's own by their arguments).
        m.has_holes = bool(holes)
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
        if values:
            b.syn(opaque_declarations(values), 0, at)
        b.add(body)
        if namespace:
            b.syn('\n}\n', 0, at)
        for d in defines + defined_names(text):
            b.syn('#undef %s\n' % d.partition('=')[0], 0, at)
        return m

    def generic_preamble(self, preamble, names, at):
        """The preamble with each function that names a type placeholder
        made a template over it, or Unknown where that is not possible: the
        placeholder outside a function, or not in the parameters of one
        (a call could not deduce it)."""
        clean = strip_comments(preamble.text)
        layout = SourceLayout(clean)
        # Only its uses as a type count: a local variable may have the
        # placeholder's name (`double U, V, X, Y;`).
        typed = set()
        for name in names:
            for s, e in occurrences(clean, name):
                if hole_role(clean, s, e, layout) != 'type':
                    continue
                start = next((f[0] for f in layout.functions if f[0] <= s < f[2]), None)
                if start is None:
                    start = layout.head_of(s)
                if start is None:
                    return Unknown('the preamble uses generic type %r outside a function, '
                                   'which CuPy chooses at each call' % name)
                typed.add((start, name))
        for start, brace, end in layout.functions:
            head = clean[start:brace]
            params = head[head.find('('):]
            used = [n for st, n in typed if st == start]
            if used and not all(any(occurrences(params, n)) for n in used):
                return Unknown('a function of the preamble uses generic type %r only in its '
                               'result or body, which CuPy chooses at each call' % used[0])
        return template_over_holes(preamble, {n: 'type' for n in names}, {}, (0, at),
                                   only=typed)

    def holes_note(self, m, holes, kinds):
        self.stats['with_holes'] = self.stats.get('with_holes', 0) + 1
        values = sorted(n for n in holes if not n.startswith('#'))
        parts = []
        if values:
            parts.append('%d value%s the file does not hold: %s' % (
                len(values), '' if len(values) == 1 else 's', ', '.join(
                    '`%s` (%s) as %s' % (holes[n][2], self.hole_where(holes[n]), {
                        'type': 'an opaque type', 'const': 'a template parameter'}.get(
                            kinds.get(n), 'an opaque integer')) for n in values)))
        for n in sorted(n for n in holes if n.startswith('#default')):
            parts.append("the default '' of `%s` (%s)" % (holes[n][2], self.hole_where(holes[n])))
        for n in sorted(n for n in holes if n.startswith('#branch')):
            parts.append('the first binding of `%s` (%s), which its function binds in '
                         'branches' % (holes[n][2], self.hole_where(holes[n])))
        if '#name' in holes:
            parts.append('a name of its own for the kernel, whose name `%s` (%s) is not known'
                         % (holes['#name'][2], self.hole_where(holes['#name'])))
        self.r.notes.append('%s: kernel source analysed with %s'
                            % (self.r.where(m.call), '; '.join(parts)))

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
            if templated:
                # Its address needs template arguments (launches.py).
                m.templated = getattr(m, 'templated', set()) | {name}
                # Its parameter count, for a launch of one instantiation
                # (`get_function('f<float>')`; launches.py).
                counts = m.__dict__.setdefault('template_counts', {})
                counts[name] = count if prev == 'none' and name not in counts else None
                # Which parameters name a type parameter of the template
                # (launches.py: a launch whose instantiation is not known
                # checks only the others).
                deps = m.__dict__.setdefault('template_deps', {})
                deps[name] = template_dependent_params(head, params) \
                    if prev == 'none' and name not in deps else None
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
        holes = {}
        for key in ('in_params', 'out_params', 'operation', 'name', 'preamble',
                    'loop_prep', 'after_loop', 'map_expr', 'reduce_expr',
                    'post_map_expr', 'identity', 'reduce_type'):
            node = get(key)
            if node is None:
                continue
            v = r.eval(node)
            if isinstance(v, Unknown):
                v = r.eval_with_holes(node, holes)
            if key == 'name' and not (isinstance(v, MStr) and is_word(v.text)):
                # The kernel's name is not part of what is analysed.
                holes['#name'] = (0, r.node_start(node), r.segment(node) or 'name', 'name')
                v = MStr.anchored('kernel', 0, r.node_start(node))
            if isinstance(v, Unknown):
                return self.note(call, 'its %s is not known: %s' % (key, v.why))
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
        hole_values = hole_consts = ()
        if holes:
            # Where each hole sits: the parameter lists name types; the
            # code is read as the body of the generated kernel.
            spec_words = set(' '.join(vals[k].text for k in ('in_params', 'out_params')
                                      if k in vals).replace(',', ' ').split())
            text = '%s\n__global__ void k() {\n%s;\n%s;\n%s;\n%s;\n%s;\n%s;\n%s;\n}\n' % tuple(
                vals[k].text if k in vals else '' for k in (
                    'preamble', 'loop_prep', 'operation', 'map_expr', 'reduce_expr',
                    'post_map_expr', 'identity', 'after_loop'))
            kinds = hole_kinds(text, {n: h for n, h in holes.items() if n not in spec_words}
                               if any(n in text for n in holes) else {}, self.hole_where)
            if isinstance(kinds, Unknown):
                return self.note(call, kinds.why)
            for n in holes:
                if n in spec_words:
                    kinds[n] = 'type'
            if 'preamble' in vals:
                used = [n for n, k in kinds.items() if k == 'const' and any(
                    occurrences(strip_comments(vals['preamble'].text), n))]
                if used:
                    return self.note(call, 'the value of `%s` (%s) sizes an array in the '
                                           'preamble, which the file does not hold'
                                     % (holes[used[0]][2], self.hole_where(holes[used[0]])))
            generic.update(n for n, k in kinds.items() if k == 'type')
            hole_consts = sorted(n for n, k in kinds.items() if k == 'const')
            hole_values = sorted(n for n, k in kinds.items() if k == 'value')
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
                # CuPy writes the preamble after `typedef <dtype> T;`: each
                # of its functions that names T becomes a template over
                # it, where T is deduced from its parameters.
                pre = self.generic_preamble(vals['preamble'], sorted(named), at)
                if isinstance(pre, Unknown):
                    return self.note(call, pre.why)
                vals['preamble'] = pre
        needs_headers = 'thrust::' in code or 'cupy::' in code or '<cupy/' in code
        if needs_headers and self.cupy_include is None:
            self.cupy_include = find_cupy_include() or ''
        if needs_headers and not self.cupy_include:
            if '<cupy/' in code and 'thrust::' not in code and 'cupy::' not in code:
                return self.note(call, "its preamble includes one of CuPy's headers, which "
                                       "are not installed for this Python (--cupy-include "
                                       "names them)")
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
        if holes:
            self.holes_note(m, holes, kinds)
        # A source with holes may have templates the reader made
        # (launches.py names only the user's own by their arguments).
        m.has_holes = bool(holes)
        self.stats['analysed'] += 1
        self.implicit_headers(m, ' '.join(v.text for v in vals.values()) + ' '.join(
            p[0] for p in params), at, needs_headers)
        b = self.body
        b.syn('\n', 0, at)
        for d in defines:
            n, _, value = d.partition('=')
            b.syn('#define %s %s\n' % (n, value or '1'), 0, at)
        b.syn('namespace %s {\n' % m.namespace, 0, at)
        if hole_values:
            b.syn(opaque_declarations(hole_values), 0, at)
        if 'preamble' in vals:
            b.add(vals['preamble'])
            b.syn('\n', 0, at)
        sig = []
        # A raw array that a call sizes to the loop (elementwise_calls.py).
        loop_sized = loop_sized_raw(r, m, params) if m.kind == 'elementwise' else {}
        for ctype, pname, raw, out in params:
            if raw and pname in loop_sized:
                sig.append('__attribute__((annotate("cuda-tidy-python-loop-sized|%d"))) '
                           'cuda_tidy_python::raw<%s%s> %s' % (
                               loop_sized[pname], '' if out else 'const ', ctype, pname))
            elif raw:
                sig.append('cuda_tidy_python::raw<%s%s> %s' % ('' if out else 'const ', ctype, pname))
            else:
                sig.append('%s%s *_raw_%s' % ('' if out else 'const ', ctype, pname))
        if generic or hole_consts:
            b.syn('template <%s>\n' % ', '.join(['class ' + g for g in sorted(generic)] + [
                'long long ' + c for c in hole_consts]), 0, at)
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


# --- Holes ---------------------------------------------------------------------
#
# A kernel source built from values the file does not hold (a dtype's C
# name, a size) is read with each unknown value as an opaque name
# (Reader.eval_with_holes). What the name stands for is read from where it
# sits in the kernel text: a type (`{ctype} *x`), or an integer in an
# expression (`e[i * %d]`). An integer becomes an opaque constant
# (`extern __device__ const long long _py_n;`: no value, so no analysis
# relies on one); a type makes each function that names it a template
# over it, as CuPy's generic kernels are written (the checks read what does
# not depend on it, and no launch is checked against a guessed type).
# Anything else (code, a name, a constant expression clang needs: an array
# size, a template argument, `#if`) skips the source with the reason.

NOT_A_DECLARATOR = frozenset((
    'if', 'for', 'while', 'do', 'else', 'switch', 'case', 'return', 'break', 'continue',
    'goto', 'extern', 'template', 'struct', 'class', 'union', 'enum', 'typedef', 'static',
    'namespace', 'using', '__global__', '__device__', '__host__', '__forceinline__',
    'inline', '__shared__', '__constant__', '__CT_EXTC', '__CT_EXTB'))
NOT_AFTER_TYPE = frozenset(('return', 'case', 'else', 'do', 'sizeof', 'goto', 'new',
                            'delete', 'throw'))
TYPE_PREFIX_WORDS = frozenset(('const', 'volatile', 'unsigned', 'signed', 'static',
                               '__shared__', '__constant__', '__device__', 'typedef',
                               'register', 'inline', '__forceinline__', 'extern'))


class SourceLayout:
    """The top level of a kernel source: its function definitions and
    prototypes, their bodies, and struct bodies (comments blanked)."""

    def __init__(self, clean):
        self.functions = []   # (statement start, '{' of the body, end of the body)
        self.prototypes = []  # (statement start, ';')
        self.bodies = []      # (start, end) of function bodies
        self.structs = []     # (start, end) of struct, class, union, enum bodies
        n = len(clean)
        stack = []  # (kind, start, statement start of its head)
        stmt = 0
        i = 0
        line_start = True
        while i < n:
            c = clean[i]
            if line_start and c == '#':
                # A preprocessor line (with continuations) ends a statement.
                while i < n and clean[i] != '\n':
                    i += 2 if clean[i] == '\\' and i + 1 < n else 1
                if not any(k != 'ns' for k, _, _ in stack):
                    stmt = i
                continue
            if c == '\n':
                line_start = True
                i += 1
                continue
            if c in ' \t\r\f':
                i += 1
                continue
            line_start = False
            if c == '"' or c == "'":
                k = i + 1
                while k < n and clean[k] not in (c, '\n'):
                    k += 2 if clean[k] == '\\' else 1
                i = k + 1
                continue
            top = not any(k != 'ns' for k, _, _ in stack)
            if c == '{':
                head = clean[stmt:i] if top else ''
                words = head.split()
                if top and (words[:1] == ['namespace'] or head.rstrip().endswith('"C"')
                            or (words and words[-1] in ('__CT_EXTB',))):
                    kind = 'ns'
                elif top and '(' in head:
                    kind = 'body'
                elif top and any(w in ('struct', 'class', 'union', 'enum') for w in
                                 head.replace('{', ' ').split()):
                    kind = 'struct'
                else:
                    kind = 'block' if not top else 'init'
                stack.append((kind, i, stmt))
                if kind == 'ns':
                    stmt = i + 1
            elif c == '}':
                if stack:
                    kind, start, head_start = stack.pop()
                    if kind == 'body':
                        self.functions.append((head_start, start, i + 1))
                        self.bodies.append((start, i + 1))
                    elif kind == 'struct':
                        self.structs.append((start, i + 1))
                    if not any(k != 'ns' for k, _, _ in stack) and kind in ('body', 'ns'):
                        stmt = i + 1
            elif c == ';' and top:
                if '(' in clean[stmt:i]:
                    self.prototypes.append((stmt, i))
                stmt = i + 1
            i += 1

    def inside(self, spans, pos):
        return any(a <= pos < b for a, b in spans)

    def head_of(self, pos):
        """The function or prototype whose head holds pos, or None."""
        for start, brace, _ in self.functions:
            if start <= pos < brace:
                return start
        for start, end in self.prototypes:
            if start <= pos < end:
                return start
        return None


def word_before(text, i):
    """(char, word) before text[i] (blanks skipped)."""
    j = i
    while j > 0 and text[j - 1] in ' \t\r\n':
        j -= 1
    k = j
    while k > 0 and (text[k - 1].isalnum() or text[k - 1] == '_'):
        k -= 1
    return (text[j - 1] if j else ''), text[k:j]


def word_after(text, i):
    j = i
    while j < len(text) and text[j] in ' \t\r\n':
        j += 1
    k = j
    while k < len(text) and (text[k].isalnum() or text[k] == '_'):
        k += 1
    return (text[j] if j < len(text) else ''), text[j:k], j


def in_declared_array(clean, start):
    """Whether the position sits in the brackets of an array declarator
    (`float s[N]`, `__shared__ T s[2][N]`): a size clang needs constant."""
    line_start = clean.rfind('\n', 0, start) + 1
    depth, j = 0, start - 1
    while j >= line_start:
        if clean[j] == ']':
            depth += 1
        elif clean[j] == '[':
            if depth == 0:
                break
            depth -= 1
        j -= 1
    if j < line_start:
        return False
    if '__shared__' in clean[line_start:start]:
        return True
    # skip back over earlier dimensions: name[..][..][
    k = j
    while k > line_start and clean[k - 1] == ']':
        d, k = 1, k - 2
        while k >= line_start and d:
            d += {']': 1, '[': -1}.get(clean[k], 0)
            k -= 1
        k += 1
    prev, word = word_before(clean, k)
    if not word or not (word[0].isalpha() or word[0] == '_'):
        return False
    p = k - len(word)
    while p > 0 and clean[p - 1] in ' \t*&':
        p -= 1
    _, before = word_before(clean, p + 1) if p > 0 and (clean[p - 1].isalnum() or clean[p - 1] == '_') else ('', '')
    return bool(before) and before not in NOT_AFTER_TYPE and p > line_start


def hole_role(clean, start, end, layout):
    """What the text at clean[start:end] (an opaque name) stands for:
    'type', 'value', 'const' (a value clang needs constant) or None."""
    line_start = clean.rfind('\n', 0, start) + 1
    head = clean[line_start:start].lstrip()
    if head.startswith('#'):
        directive = head[1:].lstrip()
        if directive.startswith('pragma') and layout.inside(layout.bodies, start):
            return 'const'  # `#pragma unroll N`: a template parameter will do
        if directive.startswith(('if', 'elif', 'pragma', 'line')):
            return 'preprocessor'
        if not directive.startswith('define'):
            return None
    if layout.inside(layout.structs, start):
        return None
    prev, pword = word_before(clean, start)
    nxt, nword, nat = word_after(clean, end)
    after_star = word_after(clean, nat + 1)[0] if nxt in '*&' and nxt else ''
    if nword in NOT_A_DECLARATOR:
        return None  # code before a declaration or statement
    if nword:
        kind = 'type'
    elif nxt in ('*', '&') and (after_star in (')', ',', '*', '>') or (
            end < len(clean) and clean[end] in ' \t' and nat + 1 < len(clean) and
            clean[nat + 1] not in ' \t=' and after_star.isidentifier())):
        kind = 'type' if prev in ('', '(', ',', ';', '{', '}', '<') or pword in TYPE_PREFIX_WORDS \
            or prev.isalnum() or prev == '_' else 'value'
    elif nxt in ('*', '&') and prev in ('(', ',') and after_star.isidentifier() and \
            layout.head_of(start) is not None:
        kind = 'type'  # `T* x` in a function's parameters (PyCUDA's "{ctype}* x")
    elif prev == '<' and nxt == '>' and pword in ('static_cast', 'reinterpret_cast',
                                                  'const_cast', ''):
        _, cast_word = word_before(clean, start - 1 - (start - 1 - clean.rfind('<', 0, start)))
        kind = 'type' if pword or cast_word in ('static_cast', 'reinterpret_cast', 'const_cast') \
            else 'const'
        if kind == 'const':
            return 'const' if layout.inside(layout.bodies, start) else 'preprocessor'
    elif prev == '(' and nxt == ')':
        after = word_after(clean, nat + 1)
        kind = 'type' if after[1] or after[0] in ('(',) else 'value'
    elif pword in TYPE_PREFIX_WORDS and pword not in ('static',):
        kind = 'type'
    elif prev in ('', '{', ';', '}') and nxt in ('', ';', '}') and not pword:
        return None  # a statement of its own: code
    elif (prev and prev in '[(+-*/%<>=,?:&|^!~{' or pword in ('return', 'case')) and \
            (not nxt or nxt in '])+-*/%<>=,;?:&|^}'):
        kind = 'value'
        if pword == 'case' or prev == '<' and nxt == '>':
            kind = 'const'
    else:
        return None
    if kind == 'type':
        if layout.inside(layout.bodies, start) or layout.head_of(start) is not None:
            return 'type'
        return None
    if head.startswith('#'):
        return 'value'
    if not layout.inside(layout.bodies, start):
        if layout.head_of(start) is not None:
            return 'const' if in_declared_array(clean, start) else None
        return 'preprocessor'  # a global's size or initialiser
    if kind == 'const' or in_declared_array(clean, start):
        return 'const'
    return 'value'


def occurrences(clean, name):
    i = clean.find(name)
    while i >= 0:
        e = i + len(name)
        if (i == 0 or not (clean[i - 1].isalnum() or clean[i - 1] == '_')) and (
                e >= len(clean) or not (clean[e].isalnum() or clean[e] == '_')):
            yield i, e
        i = clean.find(name, e)


def hole_kinds(text, holes, where, aliases=None):
    """name -> 'type' or 'value' for each hole of text, or Unknown(why)
    for a hole the kernel needs as something else. Macros whose value
    names a hole (`#define N %d`) stand for it where they are used."""
    clean = strip_comments(text)
    layout = SourceLayout(clean)
    kinds = {}
    aliases = {} if aliases is None else aliases
    for name in sorted(holes):
        if name.startswith('#'):
            continue  # a name bound in branches (Reader.first_binding)
        roles = set()
        pending, seen = [name], set()
        while pending:
            word = pending.pop()
            if word in seen:
                continue
            seen.add(word)
            for s, e in occurrences(clean, word):
                line_start = clean.rfind('\n', 0, s) + 1
                head = clean[line_start:s].lstrip()
                if head.startswith('#') and head[1:].lstrip().startswith('define'):
                    rest = head[1:].lstrip()[6:].lstrip()
                    macro = ''
                    for ch in rest:
                        if not (ch.isalnum() or ch == '_'):
                            break
                        macro += ch
                    if not rest:
                        continue  # the macro's own name where it is defined
                    if macro and macro != word and not rest[len(macro):].startswith('('):
                        pending.append(macro)
                        continue
                if head.startswith('#') and head[1:].lstrip().startswith('include'):
                    roles.add(None)
                    continue
                roles.add(hole_role(clean, s, e, layout))
        _, _, what, why = holes[name]
        at = where(holes[name])
        if None in roles:
            return Unknown('the value of `%s` (%s) is written into the kernel where it is '
                           'not a type or a number (code, a name), which the file does not hold'
                           % (what, at))
        if 'preprocessor' in roles:
            return Unknown('the value of `%s` (%s) is a constant the kernel needs outside its '
                           'functions (#if, the size of a global array), which the file does '
                           'not hold' % (what, at))
        if 'const' in roles and 'type' not in roles:
            roles = {'const'}  # an array size: a template parameter where needed
        if len(roles) > 1:
            return Unknown('the value of `%s` (%s) is used both as a type and as a number'
                           % (what, at))
        kinds[name] = roles.pop() if roles else 'value'
        aliases[name] = seen
    return kinds


def typedefs_of_holes(code, holes):
    """`typedef {dtype} T;` at the top level of a source, the hole a type:
    the typedef's name stands for the hole (a template parameter of each
    function that names it), and the typedef is blanked (positions kept)."""
    text = code.text
    clean = strip_comments(text)
    layout = None
    blanks = []
    for name in [n for n in holes if not n.startswith('#')]:
        for s, e in occurrences(clean, name):
            _, before = word_before(clean, s)
            nxt, alias, at = word_after(clean, e)
            if before != 'typedef' or not alias or not is_word(alias):
                continue
            semi = at + len(alias)
            while semi < len(clean) and clean[semi] in ' \t':
                semi += 1
            if not clean.startswith(';', semi):
                continue
            if layout is None:
                layout = SourceLayout(clean)
            if layout.inside(layout.bodies, s) or layout.inside(layout.structs, s):
                continue
            start = clean.rfind('typedef', 0, s)
            blanks.append((start, semi + 1, name, alias))
    if not blanks:
        return code
    out, done = [], 0
    where = {name: holes[name] for _, _, name, _ in blanks}
    for start, end, name, alias in sorted(blanks):
        if start < done:
            continue  # two holes in one typedef: blanked once
        out.append(code.slice(done, start))
        out.append(MStr.anchored(' ' * (end - start), *code.at(start)[:2]))
        done = end
        holes.pop(name, None)
        holes.setdefault(alias, where[name])
    out.append(code.slice(done, len(text)))
    return join_mstr(out)


def template_over_holes(code, kinds, aliases, at, only=None):
    """code with `template <class H, long long N...>` before each function
    that names a type hole or a hole that must be a constant (the hole's
    name is the template parameter, which hides the opaque integer)."""
    text = code.text
    clean = strip_comments(text)
    layout = SourceLayout(clean)
    spans = [(s, b, e) for s, b, e in layout.functions] + [(s, e, e) for s, e in layout.prototypes]
    inserts = []
    wanted = sorted(n for n, k in kinds.items() if k in ('type', 'const'))
    for start, _, end in sorted(spans):
        piece = clean[start:end]
        named = [t for t in wanted if any(any(occurrences(piece, w)) for w in aliases.get(t, (t,)))
                 and (only is None or (start, t) in only)]
        if not named:
            continue
        p = start
        while p < end and clean[p] in ' \t\r\n;':
            p += 1
        if clean.startswith('template', p):
            # A template of its own over a parameter of that name: its own.
            own = clean[clean.find('<', p) + 1:clean.find('>', p)].replace(',', ' ').split()
            named = [t for t in named if t not in own]
            if not named:
                continue
        params = ', '.join(('class ' if kinds[t] == 'type' else 'long long ') + t for t in named)
        if clean.startswith('template', p):
            lt = clean.find('<', p)
            inserts.append((lt + 1, params + (', ' if clean[lt + 1:clean.find('>', lt)].strip() else '')))
        else:
            inserts.append((p, 'template <%s> ' % params))
    out, done = [], 0
    for pos, piece in inserts:
        out.append(code.slice(done, pos))
        out.append(MStr.anchored(piece, *at))
        done = pos
    out.append(code.slice(done, len(text)))
    return join_mstr(out)


def opaque_declarations(values):
    """The declarations of the opaque integers: no value, no constant."""
    return ''.join('extern __device__ const long long %s;\n' % v for v in sorted(values))
