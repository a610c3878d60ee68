"""Reading a Python file: its scopes, the names bound in them, and the
values the file holds (strings, constants, calls the reader evaluates)."""

import itertools

import os

# CPython's parser and node classes. The ast module adds only helpers, and
# importing it costs as much as all the reader's other imports: the three
# the reader needs are below.
try:
    import _ast as ast
except ImportError:  # an implementation without it
    import ast

from .library_model import CONSTRUCTORS, MAX_DEPTH, MAX_KERNEL_TEXT, RESOURCE_FILES, RESOURCE_READ_TEXT, TRIGGERS
from .source import MStr, MStrBuilder, decode_escape, dedent, find_first, is_word, iter_child_nodes, join_mstr, parse_python, walk

class Unknown:
    def __init__(self, why):
        self.why = why


def short(text, limit=40):
    text = ' '.join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + '...'


def hole_name(text):
    """A C identifier for the opaque value of a hole, named after the
    Python expression it stands for: 'N + 1' -> _py_N_plus_1."""
    words = {'+': '_plus_', '-': '_minus_', '*': '_times_', '/': '_div_', '%': '_mod_'}
    out = []
    for c in text.strip()[:48]:
        out.append(c if c.isalnum() or c == '_' else words.get(c, '_'))
    name = ''.join(out)
    while '__' in name:
        name = name.replace('__', '_')
    return '_py_' + name.strip('_') if name.strip('_') else '_py_value'


class StringTemplate:
    """string.Template(text): its text, until substitute() is called."""

    def __init__(self, text):
        self.text = text


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
#: (first, last) part of a constructor's name -> the first constructor of
#: CONSTRUCTORS with them (ctor_of: `cupy.cuda.RawModule` is cupy.RawModule).
_CONSTRUCTOR_ENDS = {}
for _full in CONSTRUCTORS:
    _CONSTRUCTOR_ENDS.setdefault((_full.split('.')[0], _full.split('.')[-1]), _full)
del _full

SCOPE_NODES = frozenset((ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module))


class Reader:
    def __init__(self, path, source, sibling=False):
        self.path = os.path.abspath(path)
        self.sibling_readers = {}  # path -> Reader of a sibling module, or None
        self.dir = os.path.dirname(self.path)
        self.source = source
        self.files = [self.path]
        self.file_texts = {0: source}
        self.lines_bytes = source.split('\n')
        self.line_starts = [0]
        self.line_starts.extend(itertools.accumulate(len(line) + 1 for line in self.lines_bytes[:-1]))
        self.tree = parse_python(source, path)
        # Every node once, in ast.walk's order, its children and its parent.
        self.nodes = nodes = [self.tree]
        self.parents = parents = {}
        self.children = children_of = {}
        fromkeys, set_parents = dict.fromkeys, parents.update
        for node in nodes:
            children = children_of[node] = iter_child_nodes(node)
            if children:
                set_parents(fromkeys(children, node))
                nodes.extend(children)
        self.aliases = {}
        self.relative = {}   # name -> (level, module, name) of `from ..m import x`
        # name -> (level, dotted module) of `from . import m` (and of
        # `from .p import m`, where m may be a module of package p)
        self.module_imports = {}
        self.reexports = {}  # name -> the library module it is, or None
        self.sibling_trees = {}  # path -> parsed module of the package, or None
        self.assigns = {}   # scope node -> name -> [(stmt, value expr, top)]
        self.functions = {}  # module-level function name -> FunctionDef
        self.modules = {}    # ctor call node -> KernelModule
        self.notes = []
        self.memo = {}
        # Holes: while a kernel source whose text is not all known is read
        # again (eval_with_holes), name -> (hole position, what it stands
        # for) of each unknown value written into it as an opaque name.
        self.hole_mode = None
        # Whether hole mode also reads a name bound in branches (the first
        # binding whose value is a string).
        self.branches = True
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

    def where_offset(self, fid, off):
        """'file:L:C' of a character offset in file fid."""
        text = self.file_texts.get(fid, '')
        line = text.count('\n', 0, off) + 1
        col = off - (text.rfind('\n', 0, off) + 1) + 1
        return '%s:%d:%d' % (os.path.basename(self.files[fid]), line, col)

    def where(self, node):
        return '%s:%d:%d' % (os.path.basename(self.path), node.lineno,
                             node.col_offset + 1)

    # scopes and names
    def _collect(self):
        imports = (ast.Import, ast.ImportFrom)
        for node in [n for n in self.nodes if type(n) in imports]:
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
                    self.module_imports[a.asname or a.name] = (node.level, node.module + '.' + a.name)
            elif isinstance(node, ast.ImportFrom) and node.level:
                for a in node.names:
                    self.module_imports[a.asname or a.name] = (node.level, a.name)
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

    def sibling_binding(self, name, needs=None):
        """The module of the package that `name` is imported from (`from
        ._kernels import SRC`, or the package's own absolute name), read
        once per file: (its Reader, the name bound there), or None where
        it is not a sibling module of this file's package."""
        if name in self.relative:
            level, module, orig = self.relative[name]
            base = self.dir
            for _ in range(level - 1):
                base = os.path.dirname(base)
            stems = [os.path.join(base, *module.split('.'))]
        elif name in self.aliases:
            module, _, orig = self.aliases[name].rpartition('.')
            parts = module.split('.')
            # The package's root: the folders above this file that hold an
            # __init__.py, the outermost named as the import's first part.
            stems, d = [], self.dir
            while os.path.isfile(os.path.join(d, '__init__.py')):
                if os.path.basename(d) == parts[0]:
                    stems.append(os.path.join(os.path.dirname(d), *parts))
                d = os.path.dirname(d)
        else:
            return None
        for stem in stems:
            for path in (stem + '.py', os.path.join(stem, '__init__.py')):
                if os.path.normpath(path) == self.path or not os.path.isfile(path):
                    continue
                if needs is not None and not self.file_names(path, needs):
                    return None
                sub = self.sibling_reader(path)
                return (sub, orig) if sub is not None else None
        return None

    def file_names(self, path, words):
        """Whether a module of the package names one of words (bytes): a
        module that names no kernel constructor makes none, and is not
        parsed to look for one."""
        memo = self.__dict__.setdefault('_file_words', {})
        key = (path, words)
        if key not in memo:
            try:
                with open(path, 'rb') as f:
                    data = f.read(MAX_KERNEL_TEXT)
            except OSError:
                data = b''
            memo[key] = any(w in data for w in words)
        return memo[key]

    def sibling_reader(self, path):
        """The Reader of a module of the package, read once per file."""
        sub = self.sibling_readers.get(path, False)
        if sub is False:
            sub = None
            try:
                with open(path, 'rb') as f:
                    data = f.read(MAX_KERNEL_TEXT)
                sub = Reader(path, data.decode('utf-8'), sibling=True)
            except (OSError, SyntaxError, ValueError, RecursionError):
                pass
            self.sibling_readers[path] = sub
        return sub

    def sibling_module(self, name, needs=None):
        """The Reader of the module of the package that `name` is bound
        to by a relative import (`from . import _kernels`), or None."""
        if name not in self.module_imports:
            return None
        level, module = self.module_imports[name]
        base = self.dir
        for _ in range(level - 1):
            base = os.path.dirname(base)
        stem = os.path.join(base, *module.split('.'))
        for path in (stem + '.py', os.path.join(stem, '__init__.py')):
            if os.path.normpath(path) != self.path and os.path.isfile(path):
                if needs is not None and not self.file_names(path, needs):
                    return None
                return self.sibling_reader(path)
        return None

    def adopt_files(self, sub):
        """{file id of sub: file id here}, sub's files made this reader's
        (the text of a sibling module that this file's unit holds)."""
        ids = {}
        for fid, fpath in enumerate(sub.files):
            if fpath not in self.files:
                self.files.append(fpath)
                self.file_texts[len(self.files) - 1] = sub.file_texts[fid]
            ids[fid] = self.files.index(fpath)
        return ids

    def imported_constant(self, name):
        """In hole mode, a string constant that a sibling module of the
        package defines (`from ._kernels import SRC`, or the package's own
        absolute name), read from that file (findings in it are reported
        there); None where it is not one."""
        found = self.sibling_binding(name)
        if found is None:
            return None
        sub, orig = found
        entries = sub.scope_assigns(sub.tree).get(orig) or []
        if len(entries) != 1 or not entries[0][2] or entries[0][1] is None:
            return None
        v = sub.eval(entries[0][1])
        if not isinstance(v, MStr):
            return None
        # Its files become this reader's.
        ids = self.adopt_files(sub)
        return MStr(v.text, [(a, ids[f], o, x) for a, f, o, x in v.runs])

    def first_binding(self, name_node):
        """In hole mode, a name bound in branches of its function (`if
        ...: op = 'a' else: op = 'b'`): the first binding before the read
        whose value is a string, each branch being a kernel the code can
        build; noted among the holes. None otherwise."""
        n = self.parents.get(name_node)
        while n is not None and not isinstance(n, (ast.ClassDef, ast.FunctionDef,
                                                   ast.AsyncFunctionDef, ast.Lambda)):
            n = self.parents.get(n)
        if isinstance(n, ast.ClassDef):
            # A class attribute read in the class body (straight-line code).
            found = [st for st in n.body if isinstance(st, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name_node.id for t in st.targets)]
            if len(found) == 1 and found[0].lineno < name_node.lineno:
                return (found[0], found[0].value, True)
        scope = self.scope_of(name_node)
        entries = self.scope_assigns(scope).get(name_node.id) or []
        if not entries and not isinstance(scope, ast.Module):
            # Read from a function, bound at the module's level under an
            # `if` (a feature test): its bindings there.
            scope = self.tree
            entries = self.scope_assigns(scope).get(name_node.id) or []
        # Only plain alternatives: a name extended (`+=`) or bound in a
        # loop holds code assembled piece by piece, which no one binding is.
        for stmt, value, _ in entries:
            if stmt is scope:
                continue
            if value is None or not isinstance(stmt, (ast.Assign, ast.AnnAssign)) \
                    or isinstance(value, ast.AugAssign) \
                    or any(isinstance(x, ast.Name) and x.id == name_node.id for x in walk(value)):
                return None
            n = self.parents.get(stmt)
            while n is not None and n is not scope:
                if isinstance(n, (ast.For, ast.AsyncFor, ast.While)):
                    return None
                n = self.parents.get(n)
        for e in entries:
            stmt, value, _ = e
            if stmt is scope or value is None or isinstance(value, (ast.AugAssign, ast.withitem)) \
                    or (stmt.lineno > name_node.lineno and scope is self.scope_of(name_node)) \
                    or self._encloses(stmt, name_node):
                continue
            if isinstance(self.eval(value), MStr):
                key = '#branch ' + name_node.id
                if key not in self.hole_mode:
                    self.hole_mode[key] = (0, self.node_start(stmt), name_node.id, 'branch')
                return e
        return None

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
        return _CONSTRUCTOR_ENDS.get((parts[0], parts[-1]))

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
        if isinstance(v, Unknown) and spec is None and self.hole_mode is not None:
            return self.hole_value(expr, 0, at, v.why)
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

    def eval_with_holes(self, node, holes):
        """node's value where each unknown value in a format hole (`%`,
        `.format`, an f-string, `str()`) is an opaque name (hole_value);
        holes collects them. Evaluated apart from the plain values (its own
        memo): sources whose text is known read as before."""
        saved, self.memo, self.hole_mode = self.memo, {}, holes
        try:
            return self.eval(node)
        finally:
            self.memo, self.hole_mode = saved, None

    def hole_value(self, expr, fid, off, why):
        """In hole mode, the opaque name written for an unknown value of a
        format hole at (fid, off), named after the expression it stands
        for (expr: its node, or a field name); else None."""
        if self.hole_mode is None:
            return None
        text = expr if isinstance(expr, str) else (self.segment(expr) or 'value')
        name = hole_name(text)
        if self.empty_default(expr):
            # A parameter whose default is '': the kernel built with the
            # default, which a call that omits it compiles.
            self.hole_mode.setdefault('#default ' + name, (fid, off, text, 'default'))
            return MStr('', [])
        if name not in self.hole_mode:
            self.hole_mode[name] = (fid, off, text, why)
        return MStr.anchored(name, fid, off)

    def empty_default(self, expr):
        """Whether expr is a parameter of its function whose default is
        the empty string (`int_type=""`: the hole may be nothing)."""
        if not isinstance(expr, ast.Name):
            return False
        scope = self.scope_of(expr)
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        a = scope.args
        pos = a.posonlyargs + a.args
        pairs = list(zip(pos[len(pos) - len(a.defaults):], a.defaults)) + [
            (k, d) for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
        return any(p.arg == expr.id and isinstance(d, ast.Constant) and d.value == ''
                   for p, d in pairs)

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
                if isinstance(v, Unknown) and self.hole_mode is None:
                    return v
                out.append(v)  # in hole mode, an element may be a hole
            return tuple(out)
        if isinstance(node, ast.Name):
            if node.id == '__file__':
                return self.path
            if node.id in ('True', 'False', 'None'):
                return {'True': True, 'False': False, 'None': None}[node.id]
            d = self.definition(node)
            if d is None and self.hole_mode is not None and (
                    node.id in self.relative or node.id in self.aliases):
                v = self.imported_constant(node.id)
                if v is not None:
                    return v
            if d is None and self.hole_mode is not None and self.branches:
                d = self.first_binding(node)
            if d is None:
                v = self.replace_loop(node, depth)
                if v is not None:
                    return v
                return Unknown("'%s' is not a constant of the module (bound in a branch, a loop, "
                               "or not at all)" % node.id)
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
                return Unknown("'%s' is a parameter, a loop variable or unpacked from a tuple, "
                               "whose value comes at run time" % node.id)
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

    def str_replace(self, s, old, new, call):
        """s.replace(old, new) with positions: the new text where the file
        holds it, else where the replaced text was."""
        new = new if isinstance(new, MStr) else (
            MStr.anchored(str(new), 0, self.node_start(call))
            if isinstance(new, (int, float)) and not isinstance(new, bool) else None)
        if new is None or not isinstance(old, MStr) or not old.text:
            return Unknown('replace')
        out, i = [], 0
        while True:
            j = s.text.find(old.text, i)
            if j < 0:
                break
            out.append(s.slice(i, j))
            out.append(new if new.text and new.at(0)[1] != self.node_start(call)
                       else MStr.anchored(new.text, *s.at(j)[:2]))
            i = j + len(old.text)
        out.append(s.slice(i, len(s.text)))
        return join_mstr(out)

    #: Iterations of a replacement loop read at most.
    MAX_REPLACE_ITERATIONS = 64

    def replace_loop(self, node, depth):
        """The value of a name last bound by a loop of `str.replace` over
        values the file holds, read where the loop has ended:

            for old, new in (("{0}", "float"), ("{1}", "int")):  # or d.items(),
                src = src.replace(old, new)                      # enumerate(...)

        The loop's body is that one assignment; `old` and `new` are made of
        the loop's variables, constants, `%` and subscripts. None where the
        binding is not such a loop."""
        scope = self.scope_of(node)
        entries = self.scope_assigns(scope).get(node.id) or []
        before = [e for e in entries if e[0] is not scope and e[0].lineno <= node.lineno]
        if not before:
            return None
        stmt = before[-1][0]
        loop = self.parents.get(stmt)
        if not isinstance(stmt, ast.Assign) or not isinstance(loop, ast.For) or \
                loop.body != [stmt] or loop.orelse or self._encloses(loop, node) or \
                self.scope_of(loop) is not scope:
            return None
        value = stmt.value
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) or \
                not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute) or \
                value.func.attr != 'replace' or len(value.args) != 2 or value.keywords or \
                not isinstance(value.func.value, ast.Name) or value.func.value.id != node.id:
            return None
        targets = [loop.target] if isinstance(loop.target, ast.Name) else \
            list(loop.target.elts) if isinstance(loop.target, ast.Tuple) else None
        if not targets or not all(isinstance(t, ast.Name) for t in targets):
            return None
        names = [t.id for t in targets]
        items = self.loop_items(loop.iter, depth)
        if items is None or len(items) > self.MAX_REPLACE_ITERATIONS:
            return None

        def sub(e, env):
            if isinstance(e, ast.Name) and e.id in env:
                return env[e.id]
            if not any(isinstance(x, ast.Name) and x.id in env for x in walk(e)):
                return self.eval(e, depth + 1)
            if isinstance(e, ast.BinOp):
                return self.binop(e.op, sub(e.left, env), sub(e.right, env), e)
            if isinstance(e, ast.Subscript) and not isinstance(e.slice, ast.Slice):
                base, key = sub(e.value, env), sub(e.slice, env)
                if isinstance(base, tuple) and isinstance(key, int) and not isinstance(key, bool) \
                        and -len(base) <= key < len(base):
                    return base[key]
                if isinstance(base, dict) and isinstance(key, MStr) and key.text in base:
                    return base[key.text]
            return Unknown('a loop variable in an expression the reader does not evaluate')

        text = self.eval_name_before(node.id, loop, depth)
        if not isinstance(text, MStr):
            return text if isinstance(text, Unknown) else Unknown('replace of a non-string')
        for item in items:
            if len(names) == 1:
                item = (item,)
            if not isinstance(item, tuple) or len(item) != len(names):
                return Unknown('replacement loop items do not unpack')
            env = dict(zip(names, item))
            old, new = sub(value.args[0], env), sub(value.args[1], env)
            for v in (old, new):
                if isinstance(v, Unknown):
                    return v
            text = self.str_replace(text, old, new, value)
            if isinstance(text, Unknown):
                return text
        return text

    def loop_items(self, it, depth):
        """The items a `for` over a value the file holds runs through: a
        tuple or list, `d.items()` of a dict (keys as strings),
        `enumerate(x)`, `zip(x, y)`; None otherwise."""
        if isinstance(it, ast.Call) and not it.keywords:
            f = it.func
            if isinstance(f, ast.Attribute) and f.attr == 'items' and not it.args:
                d = self.eval(f.value, depth + 1)
                if isinstance(d, dict):
                    at = self.node_start(it)
                    return tuple((MStr.anchored(k, 0, at), v) for k, v in d.items())
                return None
            if isinstance(f, ast.Name) and f.id in ('enumerate', 'zip') and \
                    self.definition(f) is None and it.args:
                seqs = [self.loop_items(a, depth) for a in it.args]
                if any(x is None for x in seqs):
                    return None
                if f.id == 'enumerate':
                    return tuple(enumerate(seqs[0])) if len(seqs) == 1 else None
                return tuple(zip(*seqs))
            return None
        v = self.eval(it, depth + 1)
        return v if isinstance(v, tuple) else None

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
            if isinstance(op, ast.Mod) and isinstance(left, MStr) and self.hole_mode is not None \
                    and isinstance(node, ast.BinOp) and not isinstance(node.right, (ast.Tuple, ast.Dict)):
                return self.percent(left, right, node)  # one hole: '... %d' % n
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
        return Unknown('the operator %s on these values, which the reader does not evaluate'
                       % type(op).__name__)

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
                    h = self.hole_value(self.percent_operand(node, m.group(1), k - 1),
                                        *fmt.at(j)[:2], v.why if isinstance(v, Unknown) else 'None') \
                        if isinstance(v, Unknown) else None
                    if h is None:
                        return Unknown('a %% hole (%s) is not a constant' % m.group(0))
                    out.append(h)
                    i = m.end()
                    continue
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

    def dollar_format(self, fmt, call, depth, safe):
        """string.Template(fmt).substitute(mapping, **kw): $name, ${name}
        and $$; an unknown value is a hole (in hole mode)."""
        values, nodes = {}, {}
        if len(call.args) > 1 or any(isinstance(a, ast.Starred) for a in call.args):
            return Unknown('substitute(...) with more than one mapping')
        if call.args:
            m = self.eval(call.args[0], depth + 1)
            if not isinstance(m, dict):
                return Unknown('the mapping given to substitute(...) is not known')
            values.update(m)
            if isinstance(call.args[0], ast.Dict):
                for k, v in zip(call.args[0].keys, call.args[0].values):
                    if isinstance(k, ast.Constant):
                        nodes[k.value] = v
        for kw in call.keywords:
            if kw.arg is None:
                return Unknown('substitute(**...) of a mapping the reader does not evaluate')
            values[kw.arg] = self.eval(kw.value, depth + 1)
            nodes[kw.arg] = kw.value
        text, out, i = fmt.text, [], 0
        while i < len(text):
            j = text.find('$', i)
            if j < 0:
                out.append(fmt.slice(i, len(text)))
                break
            out.append(fmt.slice(i, j))
            if text.startswith('$$', j):
                out.append(fmt.slice(j, j + 1))
                i = j + 2
                continue
            k = j + 1
            braced = text.startswith('{', k)
            if braced:
                k += 1
            e = k
            while e < len(text) and (text[e].isalnum() or text[e] == '_'):
                e += 1
            name = text[k:e]
            if not name or name[0].isdigit() or (braced and not text.startswith('}', e)):
                if safe:
                    out.append(fmt.slice(j, j + 1))
                    i = j + 1
                    continue
                return Unknown('a $ in the template that is not a placeholder')
            end = e + 1 if braced else e
            v = values.get(name, Unknown('no value for $%s' % name))
            if isinstance(v, Unknown) and safe and name not in values:
                out.append(fmt.slice(j, end))
            elif isinstance(v, MStr):
                out.append(v)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                out.append(MStr.anchored(str(v), *fmt.at(j)[:2]))
            else:
                h = self.hole_value(nodes.get(name, name), *fmt.at(j)[:2],
                                    v.why if isinstance(v, Unknown) else 'value') \
                    if name in values else None
                if h is None:
                    return Unknown('the value of $%s is not a constant' % name)
                out.append(h)
            i = end
        return join_mstr(out)

    def percent_operand(self, node, key, k):
        """The expression of the k-th (or key's) operand of `fmt % ...`,
        or a name for it."""
        right = getattr(node, 'right', None)
        if isinstance(right, ast.Tuple) and 0 <= k < len(right.elts) and not key:
            return right.elts[k]
        if isinstance(right, ast.Dict) and key:
            for kk, vv in zip(right.keys, right.values):
                if isinstance(kk, ast.Constant) and kk.value == key[1:-1]:
                    return vv
        if key:
            return key[1:-1]
        return right if right is not None and not isinstance(right, (ast.Tuple, ast.Dict)) else 'value'

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

    def brace_format(self, fmt, args, kwargs, call=None):
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
            if isinstance(v, Unknown) and self.hole_mode is not None:
                expr = field or 'value'
                if call is not None and isinstance(key, int) and key < len(call.args):
                    expr = call.args[key]
                elif call is not None:
                    expr = next((kw.value for kw in call.keywords if kw.arg == key), expr)
                out.append(self.hole_value(expr, *fmt.at(i)[:2], v.why))
                i = j + 1
                continue
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
        if q in ('string.Template',) and len(call.args) == 1 and not call.keywords:
            v = self.eval(call.args[0], depth + 1)
            return StringTemplate(v) if isinstance(v, MStr) else v if isinstance(
                v, Unknown) else Unknown('string.Template of a value that is not a string')
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
            if isinstance(base, StringTemplate) and name in ('substitute', 'safe_substitute'):
                return self.dollar_format(base.text, call, depth, name == 'safe_substitute')
            return Unknown('`%s(...)` is a call the reader does not evaluate'
                           % short(self.segment(func) or name))
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
                h = self.hole_value(call.args[0], 0, self.node_start(call), v.why) \
                    if isinstance(v, Unknown) else None
                return h if h is not None else Unknown('str() of an unknown value')
            if func.id in ('int', 'float') and len(call.args) == 1:
                v = self.eval(call.args[0], depth + 1)
                if isinstance(v, (int, float)):
                    return int(v) if func.id == 'int' else float(v)
                return Unknown('conversion')
            d = self.eval(func, depth + 1)
            if isinstance(d, tuple) and d and d[0] == 'function' and (
                    self.hole_mode is not None or not call.args and not call.keywords):
                # In hole mode, a helper that builds the source from its
                # parameters: they are unknown, and become holes.
                returns = [n for n in walk(d[1]) if isinstance(n, ast.Return)]
                if len(returns) == 1 and returns[0].value is not None:
                    return self.eval(returns[0].value, depth + 1)
        return Unknown('`%s(...)` is a call the reader does not evaluate'
                       % short(self.segment(func) or 'call'))

    def string_method(self, s, name, call, depth):
        args = [self.eval(a, depth + 1) for a in call.args]
        if name == 'format' and self.hole_mode is not None:
            kwargs = {k.arg: self.eval(k.value, depth + 1) for k in call.keywords if k.arg}
            if any(k.arg is None for k in call.keywords) or any(
                    isinstance(a, ast.Starred) for a in call.args):
                return Unknown('format(...) with * or ** arguments')
            return self.brace_format(s, args, kwargs, call)
        if any(isinstance(a, Unknown) for a in args):
            return next(a for a in args if isinstance(a, Unknown))
        if name == 'format':
            kwargs = {k.arg: self.eval(k.value, depth + 1) for k in call.keywords if k.arg}
            if any(k.arg is None for k in call.keywords):
                return Unknown('**kwargs in format')
            return self.brace_format(s, args, kwargs)
        if name == 'replace' and len(args) >= 2 and isinstance(args[0], MStr):
            return self.str_replace(s, args[0], args[1], call)
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
        m.reader = self
        m.arg_names = names
        self.modules[call] = m
        return m
