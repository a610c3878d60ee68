"""The reader's entry points: analyse() one file, and serve() the driver
(driver/PythonInput.cpp), one line of JSON a file."""

import os

import sys

# CPython's parser and node classes. The ast module adds only helpers, and
# importing it costs as much as all the reader's other imports: the three
# the reader needs are below.
try:
    import _ast as ast
except ImportError:  # an implementation without it
    import ast

from .host_lowering import HOST_TRIGGERS, HostLowering, generated_call
from .host_model import host_model
from .kernel_sources import KernelUnitWriter, PRELUDE
from .launches import Facts, LaunchWriter
from .reader import Reader
from .source import MStr, MStrBuilder, NumberRows, compress, error_result, nolint_comments, source_encoding

#: What CUDA mode's wrapper includes, for a unit of host code alone.
RUNTIME_INCLUDE = '#include <cuda_runtime.h>\n'


class Emitter(LaunchWriter, KernelUnitWriter):
    """The unit of one file: its kernel modules, then their launches."""


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
    host_file = any(w in data for w in HOST_TRIGGERS) or generated_call(data)
    # A file that names a host binding and constructs no kernel module has
    # no launch to write: its calls need not be evaluated for one.
    if reader.modules or not host_file or reader.module_imports:
        em.launches()
    host = lowering = None
    if host_file:
        lowering = HostLowering(reader, host_model())
        host = lowering.lower()
    # Host code alone (no kernel, no launch) needs no CUDA wrapper: the
    # unit includes the runtime's header itself and says -nocudainc
    # (driver/PythonInput.cpp, withoutCudaWrapper). A library header
    # (cuBLAS, cuFFT...) reaches cuda_bf16.hpp, which needs the wrapper.
    host_only = host is not None and em.stats['analysed'] == 0 and not lowering.launched and \
        not getattr(lowering, 'library_headers', None)
    if em.stats['analysed'] == 0 and host is None:
        tu = MStr('', [])
    else:
        unit = MStrBuilder()
        if em.stats['analysed']:
            for inc in em.unit_includes():
                unit.add(inc)
            unit.syn(PRELUDE, 0, 0)
            unit.add(em.sibling_body.build())
            unit.add(em.body.build())
        if host is not None:
            if host_only:
                unit.syn(RUNTIME_INCLUDE, 0, 0)
            unit.add(host)
        tu = unit.build()
    args = list(em.args) + ['-I' + reader.dir]
    if host_only:
        args.append('-nocudainc')
    # NVRTC and nvcc (EDG) warn about a narrowing conversion in braces
    # (`const bool odd { _ind.size() & 1 }`, cusignal), where clang stops.
    args.append('-Wno-error=c++11-narrowing')
    std = em.std or 'c++17'
    if em.uses_cupy_headers and std in ('c++11', 'c++14', 'c++03', 'c++98'):
        std = 'c++17'  # the CCCL that CuPy's complex.cuh includes needs it
    args.append('-std=' + std)
    stats = em.stats
    if host is not None or stats.get('sibling'):
        stats = dict(stats)
    if stats.get('sibling'):
        # Modules of other files of the package written into this unit
        # are counted in theirs.
        stats['analysed'] -= stats['sibling']
    if host is not None:
        stats['host'] = lowering.calls
    # serve() frees these before the next file, or leaves them to the exit
    _last_file[:] = [reader, facts, em, lowering, host, tu]
    return {
        'version': 1,
        'files': reader.files,
        'tu': tu.text,
        'map': compress(tu, reader.file_texts) if tu.text else [],
        'args': args,
        'nolint': nolint_comments(source),
        'names': python_names(lowering, source) if host is not None else [],
        'notes': reader.notes,
        'errors': [],
        'stats': stats,
    }


#: The structures of the last file analysed (its tree, scopes, lowering):
#: serve() drops them before it reads the next file, and leaves the last
#: file's to the process's exit, as clang's -disable-free does: freeing
#: them object by object, then the interpreter's own clean-up, cost the
#: one-file run of the bench's 50-function file 13% of its instructions
#: (bench/results/python-host-cost-2026-12-07d.md).
_last_file = []


def python_names(lowering, source):
    """[Python file byte offset, C name, Python name] of the names the
    lowering wrote for a Python call (HostLowering.python_name)."""
    if not lowering.names:
        return []
    if source.isascii():
        return [[at, c, py] for at, c, py in lowering.names]
    return [[len(source[:at].encode('utf-8', 'surrogatepass')), c, py] for at, c, py in lowering.names]


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
        return None, 'internal error: %s: %s (cuda_tidy_reader/%s:%d)' % (
            type(e).__name__, e, os.path.basename(where.filename), where.lineno)


try:
    # The json package compiles its decoder's expressions when imported:
    # the reader only writes JSON, with the encoder's C string quoting.
    from _json import encode_basestring_ascii as _json_string
except ImportError:
    _json_string = None
try:
    # lists of integers and booleans (NumberRows: the position map) written
    # by the encoder's C loop: list.__repr__ took 6% of the 50-function
    # file's run (bench/results/python-host-cost-2026-12-07d.md)
    from _json import make_encoder as _make_encoder
    _number_rows = _make_encoder(None, None, _json_string, None, ': ', ', ', False, False, True)
except (ImportError, TypeError):
    _number_rows = None


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
            if _number_rows is not None:
                out.append(''.join(_number_rows(v, 0)))
            else:
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
    result = out = None
    for line in stdin:
        path = os.fsdecode(line.rstrip(b'\n'))
        # the previous file's structures go before this file's are made
        result = out = None
        del _last_file[:]
        result, why = read_path(path)
        out = to_json(result if why is None else {'internal': why})
        stdout.write(out.encode('utf-8', 'surrogateescape') + b'\n')
        stdout.flush()
    # The driver has closed the pipe: every answer is written. The exit
    # skips freeing the last file's structures and the interpreter's
    # clean-up (_last_file).
    stdout.flush()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


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
