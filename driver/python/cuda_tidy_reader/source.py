"""Reading the source and the position map: CPython's parser, mapped strings
(MStr) whose every character knows the byte of the file it came from, and
the map the driver reads."""

import io

import os

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


#: Fields that never hold a node (names, strings, numbers, flags): the
#: grammar's identifier, string, constant and int fields; and the fields
#: that hold only a context or an operator (ctx, op, ops: Load, Store, Add,
#: Eq...), which CPython's parser shares as one node per class, have no
#: children and no position, and which no caller looks for among a walk's
#: nodes (every reader asks node.ctx, node.op or node.ops): they were 38%
#: of the nodes that each walk visited (bench/results/python-host-cost-2026-12-07d.md).
_SCALAR_FIELDS = frozenset(('id', 'attr', 'arg', 'name', 'asname', 'module', 'level', 'type_comment',
                            'is_async', 'simple', 'conversion', 'kind', 'tag', 'ctx', 'op', 'ops'))
_NODE_FIELDS = {}


def _node_fields(t):
    fields = _NODE_FIELDS[t] = () if t is ast.Constant else \
        tuple(f for f in t._fields if f not in _SCALAR_FIELDS)
    return fields


def iter_child_nodes(node, AST=ast.AST):
    """The child nodes of node, in ast.iter_child_nodes's order, as a list
    (a generator, reading every field, cost the reader a tenth of its time:
    every node is visited), less contexts and operators (_SCALAR_FIELDS)."""
    t = type(node)
    fields = _NODE_FIELDS.get(t)
    if fields is None:
        fields = _node_fields(t)
    out = []
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, AST):
            out.append(value)
        elif isinstance(value, list):
            out.extend([item for item in value if isinstance(item, AST)])
    return out


def walk(node):
    """Every node under node, breadth first (as ast.walk)."""
    nodes = [node]
    extend = nodes.extend
    for n in nodes:
        extend(iter_child_nodes(n))
    return nodes


def copy_location(new, old):
    for attr in ('lineno', 'col_offset', 'end_lineno', 'end_col_offset'):
        if hasattr(old, attr):
            setattr(new, attr, getattr(old, attr))
    return new


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


class MStrJoin(MStr):
    """The MStr of parts joined (texts the reader writes, anchored at
    anchor, and MStrs), made when its text or runs are first read. A
    builder that adds it pushes its parts instead (MStrBuilder.add): the
    host lowering joins each expression of its operands, about six levels
    deep, and joining each level at once copied every run of the levels
    below it again (bench/results/python-host-cost-2026-12-07d.md). The
    runs are those that joining each level at once makes: a builder merges
    a piece into the run before it by the piece's own place and the
    place that run continues at, which nesting does not change."""
    __slots__ = ('anchor', 'parts', '_made')

    def __init__(self, anchor, parts):
        self.anchor, self.parts, self._made = anchor, parts, None

    def made(self):
        if self._made is None:
            b = MStrBuilder()
            b.add(self)
            self._made = MStr(''.join(b.texts), b.runs)
        return self._made

    def _texts(self, out):
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
            elif type(p) is tuple:
                out.append(p[0])
            elif type(p) is MStrJoin and p._made is None:
                p._texts(out)
            else:
                out.append(p.text)

    @property
    def text(self):
        """The text alone (its runs are made when read, or when a builder
        adds it)."""
        if self._made is not None:
            return self._made.text
        out = []
        self._texts(out)
        return ''.join(out)

    @property
    def runs(self):
        return self.made().runs


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
        if type(m) is MStrJoin:
            if m._made is None:
                at = m.anchor
                for p in m.parts:
                    if isinstance(p, str):
                        self.push(p, 0, at, False)
                    elif type(p) is tuple:
                        self.push(*p)
                    else:
                        self.add(p)
                return
            m = m._made
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


class MStrLog:
    """An MStrBuilder that keeps what it is given and builds an MStrJoin of
    it: the host lowering writes each function into a builder, the
    functions into the unit's, and the unit into main's; building each at
    once copied every run of the unit three times more."""
    __slots__ = ('parts',)

    def __init__(self):
        self.parts = []

    def push(self, text, fid, off, exact):
        if text:
            self.parts.append((text, fid, off, exact))

    def syn(self, text, fid, off):
        if text:
            self.parts.append((text, fid, off, False))

    def add(self, m):
        self.parts.append(m)

    def build(self):
        return MStrJoin(0, tuple(self.parts))


def join_mstr(parts):
    b = MStrBuilder()
    for p in parts:
        b.add(p)
    return b.build()


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
    if type(ub) is range and all(type(offsets) is range for offsets in fb.values()):
        # ASCII throughout: a character offset is its byte offset
        last = {fid: len(offsets) - 1 for fid, offsets in fb.items()}
        ends = [run[0] for run in runs]
        ends.append(len(unit.text))
        out.extend([[start, end - start, fid, off if 0 <= off <= last[fid] else fb[fid][min(off, last[fid])],
                     True if exact else False]
                    for (start, fid, off, exact), end in zip(runs, ends[1:])])
        return out
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
