"""Launches: the facts of each launch argument (dtypes, memory spaces) and a
synthetic host function with a real <<<...>>> launch for each Python launch."""

# CPython's parser and node classes. The ast module adds only helpers, and
# importing it costs as much as all the reader's other imports: the three
# the reader needs are below.
try:
    import _ast as ast
except ImportError:  # an implementation without it
    import ast

from .kernel_sources import c_identifier
from .library_model import ARRAY_MAKERS, ARRAY_SPACE, PYTHON_SCALAR_DTYPE, canonical_dtype
from .reader import KernelModule, KernelRef, Prepared, Unknown
from .source import MStr, MStrBuilder, copy_location, is_word, walk

import os

# --- Argument facts ----------------------------------------------------------

class Facts:
    """What a launch argument is, as far as the file says."""

    #: How many modules deep a helper's value or a constant is followed
    #: (this file, then a sibling module of its package, then one of that).
    MAX_MODULE_DEPTH = 2
    #: Return statements of a helper that are read (all must agree).
    MAX_RETURNS = 4
    #: Kernels a name built at run time may name (one launch each).
    MAX_CHOICES = 8

    def __init__(self, reader, module_depth=0):
        self.r = reader
        self.module_depth = module_depth
        # The argument of a same-file call that the last fact came from
        # (the launching function's parameter), with that function's name.
        self.origin = None
        self.uses = None
        # While a helper's return value is read: its FunctionDef -> its
        # parameters' arguments at the call, {name: (Facts, expr)}.
        self.env = {}
        self.siblings = {}  # imported name -> (Facts, name there) or None
        # The function whose launch of a kernel it receives is being
        # written, its parameters bound to one call's arguments.
        self.passed_fn = None
        # While one path through a launching function's branches is
        # written: {id(if statement): the arm taken} (launch_paths).
        self.path = {}

    # --- helpers and sibling modules ----------------------------------------

    def sibling(self, name):
        """The Facts of the sibling module of the package that `name` is
        imported from, and the name bound there; None where it is not one
        or the modules are already MAX_MODULE_DEPTH deep."""
        if name in self.siblings:
            return self.siblings[name]
        self.siblings[name] = None
        if self.module_depth >= self.MAX_MODULE_DEPTH:
            return None
        found = self.r.sibling_binding(name)
        if found is not None:
            sub, orig = found
            cache = self.r.__dict__.setdefault('_sibling_facts', {})
            if sub.path not in cache:
                cache[sub.path] = Facts(sub, self.module_depth + 1)
            self.siblings[name] = (cache[sub.path], orig)
        return self.siblings[name]

    #: Words of a module that may make a kernel (a constructor, a lookup).
    KERNEL_WORDS = (b'RawKernel', b'RawModule', b'SourceModule', b'get_function')

    def module_facts(self, name):
        """The Facts of the module of the package that `name` is bound to
        by a relative import (`from . import _kernels`), where the file does
        not bind the name otherwise; None otherwise."""
        if self.module_depth >= self.MAX_MODULE_DEPTH or name not in self.r.module_imports or \
                len(self.r.scope_assigns(self.r.tree).get(name) or []) > 1:
            return None
        sub = self.r.sibling_module(name, self.KERNEL_WORDS)
        if sub is None:
            return None
        cache = self.r.__dict__.setdefault('_sibling_facts', {})
        if sub.path not in cache:
            cache[sub.path] = Facts(sub, self.module_depth + 1)
        return cache[sub.path]

    def locally_bound(self, node):
        """Whether a function around a name binds it (a parameter, an
        assignment): then it is not the module's import."""
        scope = self.r.scope_of(node)
        while scope is not None and not isinstance(scope, ast.Module):
            if node.id in self.r.scope_assigns(scope):
                return True
            scope = self.r.scope_of(scope)
        return False

    def imported_value(self, node):
        """(Facts, value expr or FunctionDef) of a name imported from a
        module of the package (`from ._kernels import _get_kernel`) or of
        an attribute of such a module (`_kernels._get_kernel`), bound once
        at that module's top level; None otherwise."""
        if isinstance(node, ast.Name):
            if self.locally_bound(node) or node.id in self.siblings and self.siblings[node.id] is None:
                return None
            if node.id not in self.siblings and self.module_depth < self.MAX_MODULE_DEPTH and \
                    (node.id in self.r.relative or node.id in self.r.aliases) and \
                    self.r.sibling_binding(node.id, self.KERNEL_WORDS) is None:
                return None  # no module of the package, or one that makes no kernel
            return self.imported(node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                not self.locally_bound(node.value):
            facts = self.module_facts(node.value.id)
            if facts is None:
                return None
            return facts.bound_value(node.attr)
        return None

    def bound_param(self, node):
        """(Facts, expr) of the argument a helper's parameter is given at
        the call being read, or None."""
        fn = self.r.scope_of(node)
        env = self.env.get(fn)
        if env is None or node.id not in env:
            return None
        entries = self.r.scope_assigns(fn).get(node.id) or []
        if len(entries) != 1 or entries[0][0] is not fn:
            return None
        return env[node.id]

    def top_binding(self, name):
        """The value of a name bound once at the module's top level."""
        entries = self.r.scope_assigns(self.r.tree).get(name) or []
        if len(entries) != 1 or not entries[0][2]:
            return None
        return entries[0]

    def bound_value(self, name):
        """(self, FunctionDef or value expr) of a name bound once at the
        module's top level, or None."""
        entry = self.top_binding(name)
        if entry is None:
            return None
        if isinstance(entry[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
            return self, entry[0]
        if entry[1] is None or isinstance(entry[1], (ast.AugAssign, ast.withitem)):
            return None
        return self, entry[1]

    def imported(self, node):
        """(Facts, value expr) of a name imported from a sibling module,
        where that module binds it once at its top level."""
        if not (node.id in self.r.relative or node.id in self.r.aliases):
            return None
        found = self.sibling(node.id)
        if found is None:
            return None
        facts, orig = found
        return facts.bound_value(orig)

    def helper(self, func):
        """(Facts, FunctionDef, positional parameter names as a call binds
        them) of the function a call names: a function of this file (at
        the module's level, nested in the calling function, or a method
        called on self, cls or its class) bound once, or one of a sibling
        module; its decorators, if any, only cache it (lru_cache, memoize)."""
        found = self.function_of(func)
        if found is not None:
            fn, positional = found
            return self, fn, positional
        if not isinstance(func, ast.Name) or func.id in self.r.functions:
            return None
        if self.r.definition(func) is None:
            found = self.imported(func)
            if found is not None and isinstance(found[1], (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and found[0].transparent(found[1]):
                fn = found[1]
                return found[0], fn, [p.arg for p in fn.args.posonlyargs + fn.args.args]
        return None

    # --- functions, methods and attributes of this file ---------------------

    #: Decorators that hand back what the function returns (caches of
    #: compiled kernels: functools.lru_cache, functools.cache,
    #: cupy.memoize / cupy._util.memoize), and the method kinds.
    TRANSPARENT_DECORATORS = frozenset(('lru_cache', 'cache', 'memoize',
                                        'staticmethod', 'classmethod'))

    @staticmethod
    def decorator_name(d):
        f = d.func if isinstance(d, ast.Call) else d
        return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None

    def transparent(self, fn):
        return all(self.decorator_name(d) in self.TRANSPARENT_DECORATORS
                   for d in fn.decorator_list)

    def is_static(self, fn):
        return any(self.decorator_name(d) == 'staticmethod' for d in fn.decorator_list)

    def class_of(self, fn):
        """The class of the module's top level whose method fn is, or None."""
        p = self.r.parents.get(fn)
        if isinstance(p, ast.ClassDef) and isinstance(self.r.parents.get(p), ast.Module):
            return p
        return None

    def function_kind(self, fn):
        """'module', 'method' (of a top-level class), 'nested' (in a
        function) or None."""
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        p = self.r.parents.get(fn)
        if isinstance(p, ast.Module):
            return 'module'
        if self.class_of(fn) is not None:
            return 'method'
        if isinstance(self.r.scope_of(fn), (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                not isinstance(p, ast.ClassDef):
            return 'nested'
        return None

    def display_name(self, fn):
        cls = self.class_of(fn)
        return '%s.%s' % (cls.name, fn.name) if cls is not None else fn.name

    def positional(self, fn, via_object=True):
        """The positional parameters a call binds: a method called on an
        object or a class binds its first (self, cls) itself."""
        names = [p.arg for p in fn.args.posonlyargs + fn.args.args]
        if self.function_kind(fn) == 'method' and via_object and not self.is_static(fn):
            return names[1:]
        return names

    def object_class(self, base):
        """The top-level class that `self`, `cls` (the first parameter of
        one of its methods, never rebound) or its own name stands for."""
        if not isinstance(base, ast.Name):
            return None
        r = self.r
        fn = r.scope_of(base)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            cls = self.class_of(fn)
            params = fn.args.posonlyargs + fn.args.args
            if cls is not None and not self.is_static(fn) and params and \
                    params[0].arg == base.id:
                entries = r.scope_assigns(fn).get(base.id) or []
                return cls if len(entries) == 1 else None
        d = r.definition(base)
        if d is not None and isinstance(d[0], ast.ClassDef) and \
                isinstance(r.parents.get(d[0]), ast.Module):
            return d[0]
        return None

    def attr_bindings(self):
        """Attribute name -> [(class or None, value expr, FunctionDef or
        None)] of every binding of it in the file: `<x>.name = v` anywhere
        (the class where <x> is self, cls or the class), a name bound in a
        class body (an assignment, a def). None for all when the file sets
        attributes by computed names (setattr)."""
        if hasattr(self, '_attr_bindings'):
            return self._attr_bindings
        table = {}
        r = self.r
        for x in r.nodes:
            if isinstance(x, ast.Assign):
                for t in x.targets:
                    if isinstance(t, ast.Attribute):
                        table.setdefault(t.attr, []).append((self.object_class(t.value), x.value))
                    elif isinstance(t, (ast.Tuple, ast.List)):
                        for e in walk(t):
                            if isinstance(e, ast.Attribute):
                                table.setdefault(e.attr, []).append((None, None))
            elif isinstance(x, (ast.AugAssign, ast.AnnAssign)) and isinstance(x.target, ast.Attribute):
                v = x.value if isinstance(x, ast.AnnAssign) else None
                table.setdefault(x.target.attr, []).append((self.object_class(x.target.value), v))
            elif isinstance(x, (ast.Delete, ast.For, ast.AsyncFor, ast.withitem, ast.NamedExpr)):
                for e in walk(x.targets[0] if isinstance(x, ast.Delete) else
                              x.target if not isinstance(x, ast.withitem) else
                              (x.optional_vars or ast.Tuple(elts=[], ctx=ast.Load()))):
                    if isinstance(e, ast.Attribute):
                        table.setdefault(e.attr, []).append((None, None))
            elif isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and \
                    x.func.id in ('setattr', 'delattr') and len(x.args) >= 2:
                if not (isinstance(x.args[1], ast.Constant) and isinstance(x.args[1].value, str)):
                    self._attr_bindings = None
                    return None
                table.setdefault(x.args[1].value, []).append((None, None))
            elif isinstance(x, ast.ClassDef):
                for st in x.body:
                    if isinstance(st, ast.Assign):
                        for t in st.targets:
                            for e in walk(t):
                                if isinstance(e, ast.Name):
                                    table.setdefault(e.id, []).append(
                                        (x, st.value if t is e else None))
                    elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                        table.setdefault(st.target.id, []).append((x, st.value))
                    elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        table.setdefault(st.name, []).append((x, st))
                    elif isinstance(st, ast.ClassDef):
                        table.setdefault(st.name, []).append((x, None))
        self._attr_bindings = table
        return table

    def member(self, node):
        """What `self.x`, `cls.x` or `Class.x` is bound to: a value expr
        or a FunctionDef, where the file binds attribute x once, in that
        class (its body, or a method of it); bindings to None (a kernel
        built on first use) do not count. None otherwise."""
        if not isinstance(node, ast.Attribute):
            return None
        cls = self.object_class(node.value)
        table = self.attr_bindings()
        if cls is None or table is None:
            return None
        # Bindings in other classes do not count, unless they derive from
        # this one; those on objects the file does not name do.
        found = [b for b in table.get(node.attr, ()) if not (
            isinstance(b[1], ast.Constant) and b[1].value is None) and (
            b[0] is None or b[0] is cls or self.derives(b[0], cls))]
        if len(found) != 1 or found[0][0] is not cls or found[0][1] is None:
            return None
        return found[0][1]

    def derives(self, sub, cls, depth=0):
        """Whether class sub names cls among its bases (through the file's
        classes); an unknown base might."""
        for b in sub.bases:
            if isinstance(b, ast.Name) and b.id == cls.name:
                return True
            d = self.r.definition(b) if isinstance(b, ast.Name) else None
            if d is not None and isinstance(d[0], ast.ClassDef) and depth < 8 and \
                    self.derives(d[0], cls, depth + 1):
                return True
        return False

    def function_of(self, func):
        """(FunctionDef, positional parameter names as the call binds them)
        of a call's function in this file: a name bound once to a def (at
        the module's level, or nested in the function), or a method on
        self, cls or its class; its decorators only cache (or are
        staticmethod, classmethod). None otherwise."""
        r = self.r
        fn = None
        if isinstance(func, ast.Name):
            d = r.definition(func)
            if d is not None and isinstance(d[0], (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    d[0].name == func.id:
                fn = d[0]
                via_object = False
        elif isinstance(func, ast.Attribute):
            m = self.member(func)
            if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                fn = m
                via_object = True
                if isinstance(func.value, ast.Name) and not self.is_static(fn) and \
                        not any(self.decorator_name(x) == 'classmethod' for x in fn.decorator_list):
                    # Class.method(x): x binds self, unless read on an object.
                    d = r.definition(func.value)
                    if d is not None and isinstance(d[0], ast.ClassDef):
                        return None
        if fn is None or not self.transparent(fn) or isinstance(fn, ast.AsyncFunctionDef):
            return None
        return fn, self.positional(fn, via_object)

    # --- kernels the file reaches through names, attributes and helpers -----

    def kernel_of(self, node, depth=0):
        """The kernel an expression stands for (a KernelModule, KernelRef or
        Prepared of this file), read through names, attributes bound once
        on self or a class, get_function and prepare, and functions,
        methods and cached factories that return one; None otherwise."""
        if depth > 10:
            return None
        r = self.r
        if isinstance(node, ast.Call) and r.ctor_of(node):
            v = r.eval(node)
            return v if isinstance(v, KernelModule) else None
        if isinstance(node, ast.Name):
            d = r.definition(node) or self.block_definition(node)
            if d is None:
                bound = self.bound_param(node)
                if bound is not None:
                    return bound[0].kernel_of(bound[1], depth + 1)
                reaching = self.reaching_bindings(node)
                if not isinstance(reaching, list):
                    # A kernel a module of the package binds once at its
                    # top level (`from ._kernels import _kernel`).
                    found = self.imported_value(node) if reaching is None else None
                    if found is None or isinstance(found[1], (ast.FunctionDef, ast.AsyncFunctionDef)):
                        return None
                    return found[0].kernel_of(found[1], depth + 1)
                return self.join_kernels([e[1] for e in reaching], depth)
            value = d[1]
            if value is None or isinstance(value, (ast.AugAssign, ast.withitem)):
                return None
            return self.kernel_of(value, depth + 1)
        if isinstance(node, ast.Attribute):
            v = self.member(node)
            if v is None:
                # `_kernels._kernel` of a module of the package
                found = self.imported_value(node)
                if found is None or isinstance(found[1], (ast.FunctionDef, ast.AsyncFunctionDef)):
                    return None
                return found[0].kernel_of(found[1], depth + 1)
            if isinstance(v, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return None
            return self.kernel_of(v, depth + 1)
        if isinstance(node, ast.Subscript):
            return self.table_kernel(node, depth)
        if isinstance(node, ast.IfExp):
            return self.join_kernels([node.body, node.orelse], depth)
        if not isinstance(node, ast.Call):
            return None
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == 'get' and isinstance(f.value, ast.Name):
            return self.cache_get(node, depth)
        if isinstance(f, ast.Attribute) and f.attr in ('get_function', 'get_kernel'):
            base = self.kernel_of(f.value, depth + 1)
            name = self.kernel_name(node.args[0]) if isinstance(base, KernelModule) and \
                len(node.args) == 1 else None
            generic = name.template_of() if isinstance(name, NamePattern) else None
            if generic is not None and generic in getattr(base, 'templated', ()):
                # f'{name}<{...}>' of arrays whose dtypes are not known: one
                # instantiation that the module's name_expressions list
                # (CuPy compiles each), its parameters that name a type
                # parameter of the template left unchecked.
                found = [x for x in self.instantiations(base)
                         if (instantiation(x) or ('',))[0] == generic]
                if not found:
                    return None
                ref = KernelRef(base, found[0], node.args[0])
                ref.generic = True
                return ref
            if isinstance(name, NamePattern):
                # A name built at run time: the module's kernels it can
                # name (get_function raises for any other).
                found = sorted(k for k in base.kernels if name.matches(k))
                if not found or len(found) > self.MAX_CHOICES:
                    return None
                # Even one match is a choice: the reader may not see every
                # kernel of the module (a declaration it does not parse).
                return KernelChoice([KernelRef(base, k, node.args[0]) for k in found])
            return KernelRef(base, name, node.args[0]) if name is not None else None
        if isinstance(f, ast.Attribute) and f.attr == 'prepare':
            base = self.kernel_of(f.value, depth + 1)
            fmt = r.eval(node.args[0]) if isinstance(base, KernelRef) and node.args else None
            return Prepared(base, fmt, node) if isinstance(fmt, (MStr, tuple)) else None
        return self.returned_kernel(node, depth)

    def block_definition(self, node):
        """A kernel name bound in a branch and read in the same branch
        (`if a.ndim == 1: k = M.get_function(...); k(...)`): the last
        assignment before the read, where it is a statement of a block
        that holds the read, and no other binding of the name can run
        between (none inside a loop around the read); None otherwise."""
        r = self.r
        fn = r.scope_of(node)
        entries = r.scope_assigns(fn).get(node.id) or []
        before = [e for e in entries if e[0] is not fn and e[0].lineno < node.lineno]
        if not before or not all(isinstance(e[0], ast.Assign) for e in entries if e[0] is not fn):
            return None
        last = before[-1]
        if any(e[0] is fn for e in entries) or len(last[0].targets) != 1 or \
                not isinstance(last[0].targets[0], ast.Name):
            return None
        block = r.parents.get(last[0])
        # The read is inside the statement list that holds the assignment,
        # after it.
        p = node
        while p is not None and r.parents.get(p) is not block:
            p = r.parents.get(p)
        if p is None or p is last[0]:
            return None
        fields = [f for f in ('body', 'orelse', 'finalbody') if isinstance(getattr(block, f, None), list)]
        stmts = next((getattr(block, f) for f in fields if p in getattr(block, f) and
                      last[0] in getattr(block, f)), None)
        if stmts is None or stmts.index(last[0]) > stmts.index(p):
            return None
        loops = []
        q = r.parents.get(node)
        while q is not None and q is not fn:
            if isinstance(q, (ast.For, ast.AsyncFor, ast.While)):
                loops.append(q)
            q = r.parents.get(q)
        for e in entries:
            if e is last or e[0] is fn:
                continue
            if e[0].lineno > last[0].lineno and (
                    e[0].lineno < node.lineno or any(r._encloses(l, e[0]) for l in loops)):
                return None
        return last

    def binding(self, node):
        """The one assignment of a name that reaches a read of it:
        straight-line code's (Reader.definition), the same branch's, or
        the only one that reaches through the branches on the path being
        written; None otherwise."""
        d = self.r.definition(node) or self.block_definition(node)
        if d is not None:
            return d
        reaching = self.reaching_bindings(node)
        return reaching[0] if isinstance(reaching, list) and len(reaching) == 1 else None

    def only_binding(self, node):
        """The one assignment of a name that reaches a read of it whatever
        the arms of the branches before it; None otherwise."""
        d = self.block_definition(node)
        if d is not None:
            return d
        path, self.path = self.path, {}
        try:
            reaching = self.reaching_bindings(node)
        finally:
            self.path = path
        return reaching[0] if isinstance(reaching, list) and len(reaching) == 1 else None

    def reaching_bindings(self, node, name=None):
        """The assignments of a name of a function that may reach a read of
        it, where the name is bound in branches (`if c: k = A else: k = B`,
        then `k(...)`): the statements from the function's start to the
        read, an `if` joining the bindings of its two arms, an arm that
        ends in return, raise, break or continue joining none. Every
        binding must be a plain assignment of the name alone. A loop that
        holds a binding may run its body any number of times (zero
        unless it is a `for` over a written non-empty tuple or list): the
        bindings before it join those of its body; one with `break` is
        not followed. A `try` body's bindings hold after it where each
        handler ends in raise or return (a handler that goes on joins
        the bindings it may start from: those before the `try` and each
        of its body's). A `match` that holds a binding, a `finally` that
        does, a parameter or a global of that name, gives None (not
        followed)."""
        r = self.r
        fn = r.scope_of(node)
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        entries = r.scope_assigns(fn).get(name or node.id) or []
        if not entries:
            return None
        for stmt, value, _ in entries:
            if stmt is fn or not isinstance(stmt, ast.Assign) or value is None or \
                    len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
                return None
        binds = {id(e[0]): e for e in entries}
        around = set()  # the statements that hold a binding
        for e in entries:
            q = e[0]
            while q is not None and q is not fn and id(q) not in around:
                around.add(id(q))
                q = r.parents.get(q)
        holds = lambda st: id(st) in around
        pins = self.enclosing_tests(node, fn)
        DEAD = 'dead'  # control does not reach here
        FAIL = None

        def join(*states):
            if any(x is FAIL for x in states):
                return FAIL
            live = [x for x in states if x is not DEAD]
            return tuple(dict.fromkeys(e for x in live for e in x)) if live else DEAD

        def breaks(loop):
            """Whether a loop's own body (not a nested loop's or
            function's) holds a break."""
            todo = list(loop.body)
            while todo:
                x = todo.pop()
                if isinstance(x, ast.Break):
                    return True
                if isinstance(x, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef,
                                  ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                    todo.extend(x.orelse if hasattr(x, 'orelse') and not isinstance(x, ast.Lambda) else ())
                    continue
                todo.extend(c for c in r.children.get(x, ()) if isinstance(c, ast.stmt) or
                            isinstance(c, ast.excepthandler) or type(c).__name__ == 'match_case')
            return False

        def runs_once(loop):
            return isinstance(loop, (ast.For, ast.AsyncFor)) and \
                isinstance(loop.iter, (ast.Tuple, ast.List)) and loop.iter.elts and \
                not any(isinstance(x, ast.Starred) for x in loop.iter.elts)

        def loop_entry(loop, state):
            """The bindings that may hold where a loop's body starts: those
            before it, then those an earlier run of the body leaves."""
            if breaks(loop):
                return FAIL
            entry = state
            for _ in range(2):
                out = through(loop.body, entry)
                if out is FAIL:
                    return FAIL
                entry = join(state, out)
            return entry

        def after_loop(loop, state):
            entry = loop_entry(loop, state)
            if entry is FAIL:
                return FAIL
            out = through(loop.body, entry)
            if out is FAIL:
                return FAIL
            # The loop ends after one run of the body or more (or none).
            state = out if runs_once(loop) else join(state, out)
            return through(loop.orelse, state) if loop.orelse else state

        def body_states(stmts, state):
            """The bindings at each point of a statement list (where a
            handler may start)."""
            seen = [state]
            for st in stmts:
                state = through([st], state)
                if state is FAIL:
                    return FAIL
                if state is DEAD:
                    break
                seen.append(state)
            return join(*seen)

        def handler_entry(st, state):
            return body_states(st.body, state)

        def through(stmts, state):
            """The bindings that may hold after stmts run from state
            (a tuple of entries; DEAD where control does not reach the
            end; FAIL where the reader does not follow it)."""
            for st in stmts:
                if state is DEAD:
                    return DEAD
                if id(st) in binds:
                    state = (binds[id(st)],)
                elif isinstance(st, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
                    return DEAD
                elif isinstance(st, ast.If):
                    arm = self.pinned_arm(st.test, pins) or self.path.get(id(st))
                    a = through(st.body, state) if arm != 'orelse' else DEAD
                    b = through(st.orelse, state) if arm != 'body' else DEAD
                    if a is FAIL or b is FAIL:
                        return FAIL
                    state = DEAD if a is DEAD and b is DEAD else tuple(dict.fromkeys(
                        (() if a is DEAD else a) + (() if b is DEAD else b)))
                elif isinstance(st, (ast.With, ast.AsyncWith)):
                    state = through(st.body, state)
                    if state is FAIL:
                        return FAIL
                elif not holds(st):
                    pass
                elif isinstance(st, (ast.For, ast.AsyncFor, ast.While)):
                    state = after_loop(st, state)
                    if state is FAIL:
                        return FAIL
                elif isinstance(st, ast.Try) and not st.finalbody:
                    entry = handler_entry(st, state)
                    if entry is FAIL:
                        return FAIL
                    done = through(st.body, state)
                    if done is not FAIL and done is not DEAD and st.orelse:
                        done = through(st.orelse, done)
                    state = join(done, *[through(h.body, entry) for h in st.handlers])
                    if state is FAIL:
                        return FAIL
                else:
                    return FAIL  # a match, or a try with a finally, that binds it
            return state

        def reach(stmts, state):
            """The bindings that may hold at the read, which is inside one
            of stmts."""
            for st in stmts:
                if r._encloses(st, node):
                    if isinstance(st, ast.If) and not r._encloses(st.test, node):
                        return reach(st.body if any(r._encloses(x, node) for x in st.body)
                                     else st.orelse, state)
                    if isinstance(st, (ast.With, ast.AsyncWith)) and \
                            any(r._encloses(x, node) for x in st.body):
                        return reach(st.body, state)
                    if isinstance(st, (ast.For, ast.AsyncFor, ast.While)) and holds(st) and \
                            any(r._encloses(x, node) for x in st.body):
                        entry = loop_entry(st, state)
                        return FAIL if entry is FAIL else reach(st.body, entry)
                    if isinstance(st, ast.Try) and holds(st) and not st.finalbody:
                        if any(r._encloses(x, node) for x in st.body):
                            return reach(st.body, state)
                        for h in st.handlers:
                            if any(r._encloses(x, node) for x in h.body):
                                entry = handler_entry(st, state)
                                return FAIL if entry is FAIL else reach(h.body, entry)
                        return FAIL
                    if isinstance(st, (ast.For, ast.AsyncFor, ast.While, ast.Try)) and holds(st):
                        return FAIL
                    return state
                state = through([st], state)
                if state is FAIL or state is DEAD:
                    return state  # not followed, or not reached
            return FAIL

        state = reach(fn.body, ())
        if state is DEAD:
            return 'dead'  # on the path being written, the read is not reached
        if not state:
            return None
        return sorted(state, key=lambda e: (e[0].lineno, e[0].col_offset))

    def equality_test(self, test, fn):
        """(name, constant) of a test `x == c` whose name the function does
        not rebind (a parameter, or a name of the module, declared `global`
        or not); None otherwise."""
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and
                isinstance(test.ops[0], ast.Eq) and isinstance(test.left, ast.Name) and
                isinstance(test.comparators[0], ast.Constant)):
            return None
        entries = self.r.scope_assigns(fn).get(test.left.id) or []
        if any(e[0] is not fn and not isinstance(e[0], ast.Global) for e in entries):
            return None
        return test.left.id, test.comparators[0].value

    def enclosing_tests(self, node, fn):
        """What the `if`s around a read say of names compared with
        constants: {name: (constant, True)} where the read is in the body
        of `name == constant`, (constant, False) for each where it is in
        the else arm, as a list."""
        pins = {}
        r = self.r
        child, p = node, r.parents.get(node)
        while p is not None and p is not fn:
            if isinstance(p, ast.If) and child is not p.test:
                eq = self.equality_test(p.test, fn)
                if eq is not None:
                    pins.setdefault(eq[0], []).append((eq[1], child in p.body))
            child, p = p, r.parents.get(p)
        return pins

    @staticmethod
    def pinned_arm(test, pins):
        """The arm an `if x == d` takes where the read's own `if`s say
        what x is (x == c there: body where d is c, else arm otherwise; x
        != c: else arm where d is c); None where they do not say."""
        if not pins or not (isinstance(test, ast.Compare) and len(test.ops) == 1 and
                            isinstance(test.ops[0], ast.Eq) and isinstance(test.left, ast.Name) and
                            isinstance(test.comparators[0], ast.Constant)):
            return None
        d = test.comparators[0].value
        for c, equal in pins.get(test.left.id, ()):
            if equal:
                return 'body' if c == d and type(c) is type(d) else 'orelse'
            if c == d and type(c) is type(d):
                return 'orelse'
        return None

    def join_kernels(self, values, depth):
        """The kernel any of `values` can be (the bindings that reach a
        read, the arms of a conditional): that kernel where all give the
        same one, otherwise each of them (a KernelChoice: which one runs
        follows the condition, as the arguments' dtypes may); None where
        one of them is no known kernel."""
        refs, choice = [], False
        for v in values:
            k = raw_kernel_ref(self.kernel_of(v, depth + 1))
            if isinstance(k, KernelChoice):
                refs.extend(k.refs)
                choice = True
            elif isinstance(k, KernelRef):
                refs.append(k)
            else:
                return None
        # Two constructor calls written alike compile one kernel.
        unique = list({self.same_kernel_key(k): k for k in refs}.values())
        if not unique or len(unique) > self.MAX_CHOICES:
            return None
        if len(unique) == 1 and not choice:
            return unique[0]
        return KernelChoice(unique)

    def cache_get(self, node, depth):
        """`_cache.get(key)` of a private dict of the module that the file
        fills with kernels (`kern = _cache.get(key)`, then `if kern is None:
        kern = cupy.RawKernel(...); _cache[key] = kern`): each kernel the
        cache can hold, as for another lookup of cache_kernel; None where
        the dict is not such a cache."""
        base = node.func.value
        if len(node.args) not in (1, 2) or node.keywords or \
                (len(node.args) == 2 and not (isinstance(node.args[1], ast.Constant)
                                              and node.args[1].value is None)):
            return None
        r = self.r
        entry = self.top_binding(base.id)
        d = r.definition(base)
        if entry is None or d is None or d[0] is not entry[0] or \
                not isinstance(entry[1], ast.Dict) or entry[1].keys:
            return None
        stored = []
        for x in self.stores():
            if isinstance(x, ast.Name) and x.id == base.id and x is not entry[0] and \
                    not (isinstance(entry[0], ast.Assign) and x in entry[0].targets):
                return None  # the name is bound again somewhere
            if isinstance(x, ast.Subscript) and isinstance(x.value, ast.Name) and x.value.id == base.id:
                stored.append(x)
        if not stored or not base.id.startswith('_') or not self.cache_uses_only(base.id):
            return None
        values = []
        for x in stored:
            a = r.parents.get(x)
            if not (isinstance(a, ast.Assign) and len(a.targets) == 1 and a.targets[0] is x):
                return None  # del, augmented or tuple assignment
            values.append(a.value)
        # Whatever the lookup finds was stored by one of the stores: their
        # kernel where every store gives the same one, else each of them.
        keys = {self.same_kernel_key(self.kernel_of(v, depth + 1)) for v in values}
        if len(keys) == 1 and None not in keys:
            k = raw_kernel_ref(self.kernel_of(values[0], depth + 1))
            if isinstance(k, (KernelRef, KernelChoice)):
                return k
        refs = self.kernel_refs(values, depth)
        if not refs or len(refs) > self.MAX_CHOICES:
            return None
        return KernelChoice(refs)

    def table_kernel(self, node, depth):
        """`table[key]` of a dict, list or tuple of kernels that a name of
        the module binds once and the file never stores into: the entry
        where the key is a constant, else each of them (a KernelChoice)."""
        r = self.r
        base = node.value
        if not isinstance(base, ast.Name):
            return None
        entry = self.top_binding(base.id)
        d = r.definition(base)
        if entry is None or d is None or d[0] is not entry[0]:
            return None
        table = entry[1]
        if isinstance(table, ast.Dict):
            if any(k is None for k in table.keys):
                return None  # {**other}
            keys, values = table.keys, table.values
        elif isinstance(table, (ast.List, ast.Tuple)):
            keys, values = None, table.elts
        else:
            return None
        stored = []
        for x in self.stores():
            if isinstance(x, ast.Name) and x.id == base.id and x is not entry[0] and \
                    r.parents.get(x) is not None and \
                    not (isinstance(entry[0], ast.Assign) and x in entry[0].targets):
                return None  # the name is bound again somewhere
            if isinstance(x, ast.Subscript) and isinstance(x.value, ast.Name) and x.value.id == base.id:
                stored.append(x)
        if stored:
            return self.cache_kernel(node, base, table, stored, depth)
        if any(isinstance(v, ast.Starred) for v in values) or not values or \
                len(values) > self.MAX_CHOICES:
            return None
        key = node.slice
        if isinstance(key, ast.Constant):
            if keys is None and isinstance(key.value, int) and -len(values) <= key.value < len(values):
                return self.kernel_of(values[key.value], depth + 1)
            if keys is not None:
                hit = [v for k, v in zip(keys, values) if isinstance(k, ast.Constant) and
                       k.value == key.value]
                if len(hit) == 1:
                    return self.kernel_of(hit[0], depth + 1)
        refs = self.kernel_refs(values, depth)
        return KernelChoice(refs) if refs is not None else None

    def kernel_refs(self, values, depth):
        """The kernels that any of `values` can be (a table's entries, a
        cache's stores), or None where one of them is no known kernel."""
        refs = []
        for v in values:
            k = raw_kernel_ref(self.kernel_of(v, depth + 1))
            if isinstance(k, KernelChoice):
                refs.extend(k.refs)
            elif isinstance(k, KernelRef):
                refs.append(k)
            else:
                return None
        return refs

    def cache_kernel(self, node, base, table, stored, depth):
        """`cache[key]` of a dict of the module that the file fills while it
        runs (`_cache[key] = cupy.RawKernel(src, name)`, the usual cache of
        compiled kernels): a private name, bound once to a dict, read only
        as `cache[key]` and `key in cache`, every entry stored a kernel of
        the file. The lookup after a store under the same key in the same
        function (`if key not in _cache: _cache[key] = K; k = _cache[key]`)
        is that store's kernel; any other lookup is each kernel the cache
        can hold (a KernelChoice), as for a table of constants."""
        r = self.r
        if not isinstance(table, ast.Dict) or not base.id.startswith('_') or \
                not self.cache_uses_only(base.id):
            return None
        stores = []
        for x in stored:
            a = r.parents.get(x)
            if not (isinstance(a, ast.Assign) and len(a.targets) == 1 and a.targets[0] is x):
                return None  # del, augmented or tuple assignment
            stores.append((x, a))
        # The store under the lookup's key in the lookup's function, before it.
        fn = r.scope_of(node)
        key = r.segment(node.slice)
        same = [(x, a) for x, a in stores if r.scope_of(x) is fn and
                r.segment(x.slice) == key and a.lineno < node.lineno]
        if len(same) == 1 and key and self.key_unchanged(node.slice, fn, same[0][1], node):
            # Another store (another function's) may have filled the entry
            # under the same key first: exact only where every store of
            # the file gives the same kernel; otherwise each of them.
            k = self.kernel_of(same[0][1].value, depth + 1)
            want = self.same_kernel_key(k)
            mine = self.key_patterns(node.slice, fn)
            if want is not None and not table.values and all(
                    self.same_kernel_key(self.kernel_of(a.value, depth + 1)) == want or
                    self.keys_disjoint(mine, self.key_patterns(x.slice, r.scope_of(x)))
                    for x, a in stores):
                return k
        refs = self.kernel_refs(list(table.values) + [a.value for _, a in stores], depth)
        if not refs or len(refs) > self.MAX_CHOICES:
            return None
        return KernelChoice(refs)

    def same_kernel_key(self, k):
        """kernel_key, where two constructor calls written alike over names
        of the module's top level (`cupy.RawKernel(_SRC, 'fill')` in two
        functions) compile the same kernel and have one key."""
        k = raw_kernel_ref(k)
        m = k.refs[0].module if isinstance(k, KernelChoice) and len(k.refs) == 1 else \
            k.module if isinstance(k, KernelRef) else None
        if m is None or m.call is None:
            return kernel_key(k)
        for x in walk(m.call):
            if isinstance(x, ast.Name):
                d = self.r.definition(x)
                top = self.top_binding(x.id)
                if top is None and d is None and x.id in self.r.aliases:
                    continue  # the library's own name (cupy)
                if d is None or top is None or d[0] is not top[0]:
                    return kernel_key(k)
        from ast import dump  # only here: importing ast costs the reader's start
        name = k.refs[0].name if isinstance(k, KernelChoice) else k.name
        return ('call', dump(m.call), name, isinstance(k, KernelChoice))

    def key_patterns(self, key, fn):
        """[(constant prefix, constant suffix)] of the strings a cache key
        can be: a string constant, an f-string, or a name of the function
        bound only to those (in branches too); None where not known."""
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return [(key.value, key.value)]
        if isinstance(key, ast.JoinedStr):
            vals = key.values
            lead = [v.value for v in vals if isinstance(v, ast.Constant)]
            if not vals or len(lead) == len(vals):
                return [(''.join(lead), ''.join(lead))]
            head = vals[0].value if isinstance(vals[0], ast.Constant) else ''
            tail = vals[-1].value if isinstance(vals[-1], ast.Constant) else ''
            return [(head, tail)]
        if isinstance(key, ast.Name) and fn is not None:
            entries = self.r.scope_assigns(fn).get(key.id) or []
            if not entries or any(e[0] is fn or not isinstance(e[0], ast.Assign) for e in entries):
                return None
            out = []
            for e in entries:
                got = self.key_patterns(e[1], None) if e[1] is not None else None
                if got is None:
                    return None
                out.extend(got)
            return out
        return None

    @staticmethod
    def keys_disjoint(a, b):
        """Whether no string matches a pattern of a and one of b: their
        constant prefixes or suffixes disagree."""
        if a is None or b is None:
            return False
        for pa, sa in a:
            for pb, sb in b:
                if (pa.startswith(pb) or pb.startswith(pa)) and \
                        (sa.endswith(sb) or sb.endswith(sa)):
                    return False
        return True

    def cache_uses_only(self, name):
        """Whether every read of a module-level name is `name[key]` or the
        right side of `in`/`not in`: the cache never escapes (no .get,
        .update, .setdefault, no call that receives it)."""
        r = self.r
        for x in walk(r.tree):
            if not (isinstance(x, ast.Name) and x.id == name) or \
                    isinstance(getattr(x, 'ctx', None), ast.Store):
                continue
            p = r.parents.get(x)
            if isinstance(p, ast.Subscript) and p.value is x:
                continue
            if isinstance(p, ast.Attribute) and p.attr == 'get' and \
                    isinstance(r.parents.get(p), ast.Call) and r.parents[p].func is p:
                continue  # a lookup, _cache.get(key)
            if isinstance(p, ast.Compare) and len(p.ops) == 1 and \
                    isinstance(p.ops[0], (ast.In, ast.NotIn)) and p.comparators[0] is x:
                continue
            return False
        return True

    def key_unchanged(self, key, fn, store, lookup):
        """A key that is a constant, or names bound once in the function
        (or its parameters) and not rebound between the store and the
        lookup."""
        r = self.r
        for x in walk(key):
            if isinstance(x, ast.Name):
                entries = r.scope_assigns(fn).get(x.id) or [] if fn is not None else []
                if any(e[0] is not fn and store.lineno <= e[0].lineno <= lookup.lineno
                       for e in entries):
                    return False
                if any(isinstance(e[0], (ast.For, ast.AsyncFor, ast.While)) for e in entries):
                    return False
            elif isinstance(x, (ast.Call, ast.Attribute, ast.Subscript)):
                return False  # a value that may differ from one read to the next
        return True

    def instantiations(self, m):
        """Names that a module's name_expressions list, as far as the file
        says (a list of strings, `+` of lists, comprehensions of f-strings
        over lists of strings or of dtypes named with a typename helper);
        a part the reader cannot evaluate adds none."""
        cached = getattr(m, '_instantiations', None)
        if cached is not None:
            return cached
        out = []
        if isinstance(m.name_expressions, (tuple, list)):
            out = [e.text for e in m.name_expressions if isinstance(e, MStr)]
        elif getattr(m, 'name_expressions_node', None) is not None:
            out = [x for x in self.list_items(m.name_expressions_node) if isinstance(x, str)]
        m._instantiations = out
        return out

    def list_items(self, node, depth=0):
        """The items of a Python list expression: str for a string (or a
        dtype named by a typename helper), an ast node otherwise; items the
        reader cannot evaluate are left out."""
        r = self.r
        if depth > 8:
            return []
        if isinstance(node, ast.Name):
            d = r.definition(node)
            if d is None or d[1] is None or isinstance(d[1], (ast.AugAssign, ast.withitem)):
                return []
            return self.list_items(d[1], depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.list_items(node.left, depth + 1) + self.list_items(node.right, depth + 1)
        if isinstance(node, (ast.List, ast.Tuple)):
            out = []
            for e in node.elts:
                v = r.eval(e)
                out.append(v.text if isinstance(v, MStr) else e)
            return out
        if isinstance(node, ast.ListComp) and len(node.generators) == 1:
            g = node.generators[0]
            if g.ifs or not isinstance(g.target, ast.Name):
                return []
            t = g.target.id
            out = []
            for item in self.list_items(g.iter, depth + 1):
                v = self.comp_value(node.elt, t, item)
                if v is not None:
                    out.append(v)
            return out
        return []

    def comp_value(self, elt, target, item):
        """A comprehension's element with its target bound to item."""
        if isinstance(elt, ast.Name) and elt.id == target:
            return item
        if isinstance(elt, ast.JoinedStr):
            parts = []
            for v in elt.values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    parts.append(v.value)
                elif isinstance(v, ast.FormattedValue) and v.format_spec is None and \
                        v.conversion in (-1, None):
                    x = self.comp_value(v.value, target, item)
                    if not isinstance(x, str):
                        return None
                    parts.append(x)
                else:
                    return None
            return ''.join(parts)
        if isinstance(elt, ast.Call) and len(elt.args) == 1 and not elt.keywords and \
                isinstance(elt.args[0], ast.Name) and elt.args[0].id == target and \
                not isinstance(item, str) and self.typename_function(elt.func):
            return CUPY_TYPENAMES.get(self.dtype_of_value(item))
        return None

    def stores(self):
        """Every Name and Subscript the file stores to or deletes."""
        if getattr(self, '_stores', None) is None:
            self._stores = [x for x in walk(self.r.tree)
                            if isinstance(x, (ast.Name, ast.Subscript)) and
                            isinstance(getattr(x, 'ctx', None), (ast.Store, ast.Del))]
        return self._stores

    def kernel_name(self, node, depth=0):
        """The kernel name a get_function argument gives: a constant
        string, also through a helper's parameters; a conditional on
        whether the helper's `*args` is empty; and an f-string
        `f'{name}<{targs}>'` whose template arguments are the CuPy type
        names of arrays of known dtypes (template_args). None otherwise."""
        s = self.string_of(node)
        if s is not None:
            return s.text
        if depth > 8:
            return None
        if isinstance(node, ast.Name):
            d = self.binding(node)
            if d is None:
                bound = self.bound_param(node)
                if bound is not None:
                    return bound[0].kernel_name(bound[1], depth + 1)
                return None
            if d[1] is None or isinstance(d[1], (ast.AugAssign, ast.withitem)):
                return None
            return self.kernel_name(d[1], depth + 1)
        dt = self.dtype_name_of(node)
        if dt is not None:
            return dt
        if isinstance(node, ast.IfExp):
            t = self.vararg_of(node.test)
            if t is None:
                return None
            return self.kernel_name(node.body if t.elts else node.orelse, depth + 1)
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    parts.append(v.value)
                    continue
                if not isinstance(v, ast.FormattedValue) or v.conversion not in (-1, None) or \
                        v.format_spec is not None:
                    return None
                text = ''.join(p if isinstance(p, str) else
                               ''.join(x for x in p.pieces if isinstance(x, str))
                               if isinstance(p, NamePattern) else '' for p in parts)
                if text.count('<') > text.count('>'):
                    got = self.template_args(v.value, depth + 1)
                else:
                    got = self.kernel_name(v.value, depth + 1)
                parts.append(got if got is not None else NamePattern.HOLE)
            return NamePattern.join(parts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a = self.kernel_name(node.left, depth + 1)
            b = self.kernel_name(node.right, depth + 1)
            if a is None and b is None:
                return None
            return NamePattern.join([a if a is not None else NamePattern.HOLE,
                                     b if b is not None else NamePattern.HOLE])
        return None

    def dtype_name_of(self, node):
        """`x.dtype.name` or `str(x.dtype)` of an array whose dtype is
        known: its name ('float32')."""
        if isinstance(node, ast.Attribute) and node.attr == 'name':
            base = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == 'str' and len(node.args) == 1 and not node.keywords and \
                self.r.definition(node.func) is None:
            base = node.args[0]
        else:
            return None
        if not (isinstance(base, ast.Attribute) and base.attr == 'dtype'):
            return None
        f = self.fact(base.value, 'cupy')
        dt = f.split(':')[2] if f.startswith('array:') else None
        return dt if dt and dt != '?' else None

    def vararg_of(self, node):
        """The VarargTuple a name stands for: a helper's `*args` at the
        call being read."""
        if not isinstance(node, ast.Name) or self.r.definition(node) is not None:
            return None
        bound = self.bound_param(node)
        if bound is None or bound[0] is not self or not isinstance(bound[1], VarargTuple):
            return None
        return bound[1]

    def template_args(self, node, depth=0):
        """The template argument list `', '.join([get_typename(a.dtype) for
        a in args])` names, where args is a helper's `*args` at the call
        and each array's dtype is known: CuPy's type names (CUPY_TYPENAMES),
        joined. None otherwise."""
        r = self.r
        for _ in range(4):
            if not isinstance(node, ast.Name):
                break
            d = r.definition(node)
            if d is None or d[1] is None or isinstance(d[1], (ast.AugAssign, ast.withitem)):
                return None
            node = d[1]
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and
                node.func.attr == 'join' and isinstance(node.func.value, ast.Constant) and
                isinstance(node.func.value.value, str) and len(node.args) == 1 and
                not node.keywords):
            return None
        sep = node.func.value.value
        comp = node.args[0]
        if isinstance(comp, ast.Name):
            d = r.definition(comp)
            comp = d[1] if d is not None else None
        if not (isinstance(comp, ast.ListComp) and len(comp.generators) == 1):
            return None
        g = comp.generators[0]
        e = comp.elt
        if g.ifs or g.is_async or not isinstance(g.target, ast.Name) or \
                not (isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords and
                     isinstance(e.args[0], ast.Attribute) and e.args[0].attr == 'dtype' and
                     isinstance(e.args[0].value, ast.Name) and
                     e.args[0].value.id == g.target.id and self.typename_function(e.func)):
            return None
        tup = self.vararg_of(g.iter)
        if tup is None or not tup.elts:
            return None
        names = []
        for a in tup.elts:
            f = self.fact(a, 'cupy', depth + 1)
            dt = f.split(':')[2] if f.startswith('array:') else None
            if dt not in CUPY_TYPENAMES:
                return None
            names.append(CUPY_TYPENAMES[dt])
        return sep.join(names)

    def typename_function(self, func):
        """CuPy's `get_typename` (cupy._core._scalar), or a function of the
        file named like it that calls it on its first parameter (cupyx's
        `_get_typename`, which renames only float16)."""
        q = self.r.qualname(func) or ''
        if q.split('.')[-1] == 'get_typename' and q.split('.')[0] in ('cupy', 'cupyx'):
            return True
        found = self.function_of(func)
        if found is None or 'typename' not in found[0].name:
            return False
        fn = found[0]
        params = [p.arg for p in fn.args.posonlyargs + fn.args.args]
        return bool(params) and any(
            isinstance(x, ast.Call) and (self.r.qualname(x.func) or '').split('.')[-1] ==
            'get_typename' and (self.r.qualname(x.func) or '').split('.')[0] in ('cupy', 'cupyx') and
            len(x.args) == 1 and isinstance(x.args[0], ast.Name) and x.args[0].id == params[0]
            for x in walk(fn))

    def string_of(self, node):
        """A constant string, also a helper's parameter bound to one."""
        if isinstance(node, ast.Name) and self.r.definition(node) is None:
            bound = self.bound_param(node)
            if bound is not None:
                v = bound[0].r.eval(bound[1])
                return v if isinstance(v, MStr) and bound[0] is self else None
        v = self.r.eval(node)
        return v if isinstance(v, MStr) else None

    def bind(self, call, fn, positional, facts, varargs=False):
        """{parameter: (Facts, expr)} of a call of fn, or None where the
        arguments are not known one by one. With varargs, a `*args`
        parameter is bound to a tuple of the call's remaining arguments
        (VarargTuple)."""
        a = fn.args
        if fn in facts.env or any(isinstance(x, ast.Starred) for x in call.args) or \
                any(k.arg is None for k in call.keywords) or a.kwarg or \
                (a.vararg and not varargs):
            return None
        names = [p.arg for p in a.posonlyargs + a.args]
        defaults = dict(zip(names[len(names) - len(a.defaults):], a.defaults))
        env = {}
        if a.vararg:
            if len(call.args) < len(positional):
                return None  # a default before *args: rare, not read
            rest = VarargTuple(elts=list(call.args[len(positional):]), ctx=ast.Load())
            env[a.vararg.arg] = (self, copy_location(rest, call))
        elif len(call.args) > len(positional):
            return None
        for k, p in enumerate(positional):
            if k < len(call.args):
                env[p] = (self, call.args[k])
            elif p in defaults:
                env[p] = (facts, defaults[p])
        for p, d in zip(a.kwonlyargs, a.kw_defaults):
            if d is not None:
                env[p.arg] = (facts, d)
        for kw in call.keywords:
            if kw.arg not in positional and kw.arg not in [p.arg for p in a.kwonlyargs]:
                return None
            env[kw.arg] = (self, kw.value)
        return env

    def returns_of(self, fn, facts=None):
        facts = facts or self
        returns = [x for x in walk(fn) if isinstance(x, ast.Return)
                   and facts.r.scope_of(x) is fn]
        if not returns or len(returns) > self.MAX_RETURNS or \
                any(x.value is None for x in returns):
            return None
        return returns

    def returned_kernel(self, call, depth):
        """The kernel every return of the function a call names gives
        (a factory, cached or not), or None."""
        found = self.function_of(call.func)
        facts = self
        if found is None:
            # A factory of a module of the package (`from ._kernels import
            # _get_kernel`, or `_kernels._get_kernel`): read there, its
            # parameters bound to this call's arguments.
            imp = self.imported_value(call.func) if not (
                isinstance(call.func, ast.Name) and call.func.id in self.r.functions) else None
            if imp is None or not isinstance(imp[1], ast.FunctionDef) or \
                    not imp[0].transparent(imp[1]):
                return None
            facts, fn = imp
            found = fn, [p.arg for p in fn.args.posonlyargs + fn.args.args]
        fn, positional = found
        env = self.bind(call, fn, positional, facts, varargs=True)
        returns = self.returns_of(fn, facts)
        if env is None or returns is None:
            return None
        got = None
        facts.env[fn] = env
        try:
            for ret in returns:
                k = facts.kernel_of(ret.value, depth + 1)
                key = kernel_key(k)
                if key is None or (got is not None and kernel_key(got) != key):
                    return None
                got = got or k
        finally:
            del facts.env[fn]
        return got

    def helper_fact(self, call, lib, depth):
        """The fact of a helper's return value at this call: every return
        of the helper read with its parameters bound to this call's
        arguments (or their defaults); 'unknown' unless all agree."""
        found = self.helper(call.func)
        if found is None or depth > 8:
            return 'unknown'
        facts, fn, positional = found
        env = self.bind(call, fn, positional, facts)
        returns = self.returns_of(fn, facts)
        if env is None or returns is None:
            return 'unknown'  # recursion, or arguments not known one by one
        got = set()
        facts.env[fn] = env
        try:
            for ret in returns:
                got.add(facts.fact(ret.value, lib, depth + 1))
                if len(got) > 1:
                    return 'unknown'
        finally:
            del facts.env[fn]
        f = got.pop()
        # A parameter the helper hands back is the caller's argument; a
        # parameter of the helper is not one of the launching function.
        return 'unknown' if f.startswith('received') else f

    def callers(self, fn):
        """The calls of a function of this file, each with the positional
        parameters it binds, or None where the function is used otherwise
        (passed on, rebound, shadowed): then its callers are not all known
        here. A module-level function: calls of its name; a nested one:
        calls of its name in the function around it; a method of a
        top-level class: calls of the attribute on any object (no other
        class of the file defines the name), `Class(...)` for __init__;
        another special method (`__call__`) has none, and is called
        otherwise where the file names its class."""
        if self.uses is None:
            self.uses = {}
            for x in walk(self.r.tree):
                if isinstance(x, ast.Name):
                    self.uses.setdefault(x.id, []).append(x)
                elif isinstance(x, ast.Attribute):
                    self.uses.setdefault('.' + x.attr, []).append(x)
        r = self.r
        kind = self.function_kind(fn)
        calls = []
        if kind in ('module', 'nested'):
            outer = r.scope_of(fn) if kind == 'nested' else None
            positional = self.positional(fn)
            for x in self.uses.get(fn.name, ()):
                if outer is not None and not r._encloses(outer, x):
                    continue
                p = r.parents.get(x)
                if not (isinstance(p, ast.Call) and p.func is x and
                        r.scope_of(x) is not fn):
                    return None
                calls.append((p, positional))
            return calls
        if kind != 'method':
            return None
        cls = self.class_of(fn)
        table = self.attr_bindings()
        if table is None:
            return None
        if any(x is not fn and r.scope_of(x) is not fn for x in self.uses.get(fn.name, ())
               if r._encloses(cls, x)):
            return None  # read by name in the class body (an alias)
        dunder = fn.name.startswith('__') and fn.name.endswith('__')
        if dunder:
            named = [x for x in self.uses.get(cls.name, ())]
            if fn.name != '__init__':
                return None if named else []
            for x in named:
                p = r.parents.get(x)
                if not (isinstance(p, ast.Call) and p.func is x):
                    return None
                calls.append((p, self.positional(fn)))
            return calls
        uses = self.uses.get('.' + fn.name, ())
        if uses and len(table.get(fn.name, ())) != 1:
            return None  # another class, or an object, binds the name too
        for x in uses:
            p = r.parents.get(x)
            if not (isinstance(p, ast.Call) and p.func is x) or r.scope_of(x) is fn:
                return None
            found = self.function_of(x)
            if found is not None and found[0] is not fn:
                return None
            calls.append((p, found[1] if found is not None else self.positional(fn)))
        return calls

    #: Attributes whose reading shows that a function looks at an array's
    #: layout (it checks or handles the strides).
    LAYOUT_ATTRS = frozenset(('flags', 'strides', 'c_contiguous', 'f_contiguous',
                              '_c_contiguous', '_f_contiguous', 'is_contiguous',
                              'iscontiguous', 'is_c_contiguous'))
    #: How a call that may check or convert an array starts (lower case).
    CHECKER_PREFIXES = ('check', '_check', 'assert', '_assert', 'validate',
                        '_validate', 'ensure', '_ensure', 'require', '_require')

    def received(self, node, depth=0):
        """Where a launch argument is an array that the launching function
        received from its caller and never made contiguous: (the
        parameter's ast.arg, its function's name, 'array' or 'ptr'), else
        None. The argument is the parameter itself, or its `.data.ptr`.
        The function is one of the module's, a method of one of its
        classes (not self or cls), or a function nested in another. A
        parameter that the function rebinds, reads the layout of
        (`x.flags`, `x.strides`), or passes to a checker (`check_*`,
        `*contig*`) is not one; nor one of a private function or method
        with no caller in the file (its callers are elsewhere in the
        package), of a private class, of a private module that its
        package does not export, or of a nested function with no caller.
        With callers in the file, it is one only where a caller passes a
        parameter of its own that is one (same-file summary); arrays that
        the callers make are contiguous."""
        kind = 'array'
        if isinstance(node, ast.Attribute) and node.attr == 'ptr' and \
                isinstance(node.value, ast.Attribute) and node.value.attr == 'data':
            node, kind = node.value.value, 'ptr'
        if not isinstance(node, ast.Name) or depth > 3:
            return None
        r = self.r
        if r.definition(node) is not None:
            return None
        fn = r.scope_of(node)
        where = self.function_kind(fn)
        if where is None:
            return None
        entries = r.scope_assigns(fn).get(node.id) or []
        if len(entries) != 1 or entries[0][0] is not fn:
            return None
        a = fn.args
        params = a.posonlyargs + a.args + a.kwonlyargs
        param = next((p for p in params if p.arg == node.id), None)
        if param is None or self.checked(fn, node.id):
            return None
        if where == 'method' and not self.is_static(fn) and \
                node.id not in self.positional(fn) + [p.arg for p in a.kwonlyargs]:
            return None  # self or cls
        calls = self.callers(fn)
        if calls is None:
            return None
        if not calls:
            if where == 'nested' or self.private_function(fn):
                return None
            return param, self.display_name(fn), kind
        for call, positional in calls:
            if any(isinstance(x, ast.Starred) for x in call.args) or \
                    any(k.arg is None for k in call.keywords):
                return None
            k = positional.index(node.id) if node.id in positional else None
            arg = call.args[k] if k is not None and k < len(call.args) else next(
                (kw.value for kw in call.keywords if kw.arg == node.id), None)
            if isinstance(arg, ast.Name):
                outer = self.received(arg, depth + 1)
                if outer is not None:
                    return outer[0], outer[1], kind
        return None

    def private_function(self, fn):
        """Whether a function or method is private to its package: its
        name starts with '_' (a special method's does not), its class's
        does, or its module is private and not exported."""
        cls = self.class_of(fn)
        if cls is None:
            return self.private(fn.name)
        if fn.name.startswith('_') and not fn.name.endswith('__'):
            return True
        return self.private(cls.name)

    def private(self, name):
        """Whether a module-level function is private to its package: its
        name starts with '_', or its module's does (`_kernels.py`) and the
        package's __init__.py does not name it (its callers are the
        package's other modules, which make the arrays)."""
        if name.startswith('_'):
            return True
        base = os.path.basename(self.r.path)
        if not base.startswith('_') or base.startswith('__'):
            return False
        init = os.path.join(self.r.dir, '__init__.py')
        try:
            with open(init, 'rb') as f:
                text = f.read(1 << 20).decode('utf-8', 'replace')
        except OSError:
            return True
        at = text.find(name)
        while at >= 0:
            end = at + len(name)
            if (at == 0 or not (text[at - 1].isalnum() or text[at - 1] == '_')) and (
                    end == len(text) or not (text[end].isalnum() or text[end] == '_')):
                return False
            at = text.find(name, end)
        return True

    def checked(self, fn, name):
        """Whether function fn reads the layout of its name `name` or
        passes it to a call that may check or convert it."""
        for x in walk(fn):
            if isinstance(x, ast.Attribute) and x.attr in self.LAYOUT_ATTRS and \
                    isinstance(x.value, ast.Name) and x.value.id == name:
                return True
            if isinstance(x, ast.Call) and any(
                    isinstance(v, ast.Name) and v.id == name
                    for v in list(x.args) + [k.value for k in x.keywords]):
                f = x.func
                called = (f.attr if isinstance(f, ast.Attribute) else
                          f.id if isinstance(f, ast.Name) else '').lower()
                if 'contig' in called or called.startswith(self.CHECKER_PREFIXES):
                    return True
        return False

    def param_fact(self, node, lib, depth):
        """The fact of a parameter of a function or method of this file
        from its calls in this file (a same-file summary): every call
        passes an argument with the same fact, else 'unknown'."""
        r = self.r
        fn = r.scope_of(node)
        if self.function_kind(fn) is None:
            return 'unknown'
        entries = r.scope_assigns(fn).get(node.id) or []
        if len(entries) != 1 or entries[0][0] is not fn:
            return 'unknown'
        a = fn.args
        if node.id not in [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]:
            return 'unknown'
        calls = self.callers(fn)
        if not calls:
            return 'unknown'
        facts = set()
        first = None
        for call, positional in calls:
            if any(isinstance(x, ast.Starred) for x in call.args) or \
                    any(k.arg is None for k in call.keywords):
                return 'unknown'
            arg = None
            k = positional.index(node.id) if node.id in positional else None
            if k is not None and k < len(call.args):
                arg = call.args[k]
            else:
                arg = next((kw.value for kw in call.keywords if kw.arg == node.id), None)
            if arg is None:
                return 'unknown'
            facts.add(self.fact(arg, lib, depth + 1))
            first = first or arg
            if len(facts) > 1:
                return 'unknown'
        f = facts.pop()
        if f != 'unknown':
            self.origin = (first, self.display_name(fn))
        return f

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
        if depth >= 8:
            return None
        if isinstance(node, ast.Attribute) and node.attr == 'dtype':
            # x.dtype: the dtype of an array whose dtype is known.
            f = self.fact(node.value, 'cupy', depth + 1)
            if f.startswith('array:') and f.split(':')[2] != '?':
                return f.split(':')[2]
            return None
        if isinstance(node, ast.Name):
            d = self.r.definition(node)
            if d and d[1] is not None and not isinstance(d[1], (ast.AugAssign, ast.withitem)):
                return self.dtype_of_value(d[1], depth + 1)
            if d is None:
                bound = self.bound_param(node)
                if bound is not None:
                    return bound[0].dtype_of_value(bound[1], depth + 1)
                found = self.imported(node)
                if found is not None and not isinstance(found[1], (ast.FunctionDef,
                                                                   ast.AsyncFunctionDef)):
                    return found[0].dtype_of_value(found[1], depth + 1)
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
            # Straight-line code's binding, or the one binding that reaches
            # the read through branches, loops and try blocks on every path
            # (the paths a launch is written for are told apart by its
            # kernel and geometry, not by its arrays).
            d = r.definition(node) or self.only_binding(node)
            if not d:
                bound = self.bound_param(node)
                if bound is not None:
                    f = bound[0].fact(bound[1], lib, depth + 1)
                    fn = r.scope_of(node)
                    if fn is self.passed_fn and f != 'unknown' and self.origin is None:
                        # A launch of a kernel its function receives: the
                        # argument of the call it is written for.
                        self.origin = (bound[1], self.display_name(fn))
                    return f
                found = self.imported(node)
                if found is not None:
                    if isinstance(found[1], (ast.FunctionDef, ast.AsyncFunctionDef)):
                        return 'unknown'
                    return found[0].fact(found[1], lib, depth + 1)
                return self.param_fact(node, lib, depth)
            if d[1] is None or isinstance(d[1], (ast.AugAssign, ast.withitem)):
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
            return self.helper_fact(node, lib, depth)
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
            return self.helper_fact(node, lib, depth) if root not in (
                'numpy', 'cupy', 'cupyx', 'pycuda') else 'unknown'
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


#: The words a template argument of an instantiation may hold: built-in
#: types and numbers, which mean the same outside the module's namespace.
TEMPLATE_ARG_WORDS = frozenset((
    'float', 'double', 'int', 'unsigned', 'signed', 'long', 'short', 'char', 'bool',
    'true', 'false', 'size_t', 'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t',
    'uint16_t', 'uint32_t', 'uint64_t', 'const'))


class NamePattern:
    """A kernel name built at run time: known pieces around holes, each
    hole one or more characters of an identifier (a dtype's name, a
    suffix); it names those of a module's kernels it matches."""
    HOLE = object()

    def __init__(self, pieces):
        self.pieces = pieces  # str or HOLE

    @classmethod
    def join(cls, parts):
        """A str where every part is known; a NamePattern where a hole
        is; None where nothing is known (a name that is all holes)."""
        pieces = []
        for p in parts:
            for x in (p.pieces if isinstance(p, NamePattern) else [p]):
                if isinstance(x, str) and pieces and isinstance(pieces[-1], str):
                    pieces[-1] += x
                else:
                    pieces.append(x)
        if all(isinstance(p, str) for p in pieces):
            return ''.join(pieces)
        if not any(isinstance(p, str) and p for p in pieces):
            return None
        return cls(pieces)

    def template_of(self):
        """'f' where the pattern is `f<` hole `>` (a template's
        instantiation whose arguments are not known)."""
        p = self.pieces
        if len(p) == 3 and isinstance(p[0], str) and p[0].endswith('<') and \
                p[1] is self.HOLE and p[2] == '>' and is_word(p[0][:-1]):
            return p[0][:-1]
        return None

    def matches(self, name):
        import re
        rx = ''.join(re.escape(p) if isinstance(p, str) else r'\w+' for p in self.pieces)
        return re.fullmatch(rx, name) is not None


class KernelChoice:
    """The kernels of one module that a name built at run time may name:
    each launch through it is written once for each."""
    def __init__(self, refs):
        self.refs = refs


class VarargTuple(ast.Tuple):
    """A helper's `*args` at one call: the call's remaining arguments."""
    _fields = ast.Tuple._fields


#: CuPy's C++ names of dtypes (cupy._core._scalar.get_typename), for the
#: template arguments of a kernel name built from arrays' dtypes; float16
#: and complex are left out (helpers rename float16, and complex names are
#: not built-in types).
CUPY_TYPENAMES = {
    'float64': 'double', 'float32': 'float', 'int64': 'long long', 'int32': 'int',
    'int16': 'short', 'int8': 'signed char', 'uint64': 'unsigned long long',
    'uint32': 'unsigned int', 'uint16': 'unsigned short', 'uint8': 'unsigned char',
    'bool': 'bool',
}


def instantiation(name):
    """'f<float, 4>' -> ('f', 'float, 4') where the arguments are built-in
    types and numbers; None otherwise."""
    import re
    m = re.match(r'^\s*([A-Za-z_]\w*)\s*<(.*)>\s*$', name)
    if not m:
        return None
    args = m.group(2)
    for tok in re.findall(r'[A-Za-z_]\w*|\d+[uUlL]*|[^\s]', args):
        if not (tok in TEMPLATE_ARG_WORDS or tok[0].isdigit() or tok in (',', '*', '-')):
            return None
    return m.group(1), ' '.join(args.split())


def raw_kernel_ref(k):
    """The kernel a RawKernel module launches: its name where the file
    gives it; where the name is built at run time (`f'vec{n}_norm'`) and
    the source defines one kernel, that one, as a choice (the name must
    match it, but the reader may not see every kernel of the source), so
    that no argument's dtype is checked against it."""
    if not isinstance(k, KernelModule) or k.kind != 'raw-kernel':
        return k
    if k.single_name:
        return KernelRef(k, k.single_name[0], k.single_name[1])
    if len(k.kernels) == 1 and k.call is not None:
        name = next(iter(k.kernels))
        return KernelChoice([KernelRef(k, name, k.call)])
    return k


def kernel_key(k):
    """What identifies a kernel value: its module, name and prepare format."""
    if isinstance(k, KernelModule):
        return ('module', id(k))
    if isinstance(k, KernelRef):
        return ('ref', id(k.module), k.name)
    if isinstance(k, KernelChoice):
        return ('choice',) + tuple(kernel_key(x) for x in k.refs)
    if isinstance(k, Prepared):
        fmt = k.fmt.text if isinstance(k.fmt, MStr) else repr(k.fmt)
        return ('prepared', id(k.ref.module), k.ref.name, fmt)
    return None


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


class LaunchWriter:
    """Writes a synthetic host function for each Python launch (a mixin of
    main.Emitter, over the state KernelUnitWriter keeps)."""

    # launches
    def launches(self):
        r = self.r
        for node in r.nodes:
            if not isinstance(node, ast.Call) or r.expects_failure(node):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ('prepared_call', 'prepared_timed_call',
                                                                 'prepared_async_call'):
                p = self.facts.kernel_of(func.value)
                if isinstance(p, KernelRef):
                    p = self.prepared_for(func.value)
                if isinstance(p, Prepared) and p.ref.module.index is not None:
                    self.emit_prepared(node, p, func.attr)
                continue
            paths = self.launch_paths(node)
            if paths:
                # Names of the launch bound in branches: once for each
                # path through them (the kernel, grid, block and
                # arguments that one run binds together).
                refs = []
                for path in paths:
                    self.facts.path = path
                    try:
                        refs.append(self.facts.kernel_of(func))
                    finally:
                        self.facts.path = {}
                # Where the paths launch different kernels (or one that
                # is not known), which one runs follows the conditions,
                # as the arguments' dtypes may: none is checked against
                # the arguments' dtypes, as for a KernelChoice.
                keys = {self.facts.same_kernel_key(k) for k in refs}
                self.paths_differ = len(keys) > 1 or None in keys
                # Two decisions or more may be tied by conditions the
                # reader does not compare (`x.ndim == 1`, `x.ndim > 1`):
                # a path may pair one arm's kernel with another's
                # arguments, so their count is not checked.
                self.paths_unpaired = self.paths_differ and self.path_decisions > 1
                written = set()
                try:
                    for path, ref in zip(paths, refs):
                        once = (self.facts.same_kernel_key(ref), path['#geometry'])
                        if ref is None or once in written:
                            continue
                        written.add(once)
                        self.facts.path = path
                        try:
                            self.emit_kernel_launch(node, ref)
                        finally:
                            self.facts.path = {}
                finally:
                    self.paths_differ = self.paths_unpaired = False
                continue
            ref = self.facts.kernel_of(func)
            if ref is None:
                passed = self.passed_kernels(func)
                for call, fn, env, k in passed or ():
                    # A kernel the helper receives: launched once for each
                    # call of the helper, its parameters bound to that
                    # call's arguments.
                    self.facts.env[fn] = env
                    self.facts.passed_fn = fn
                    try:
                        self.emit_kernel_launch(node, k)
                    finally:
                        del self.facts.env[fn]
                        self.facts.passed_fn = None
                continue
            self.emit_kernel_launch(node, ref)
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
                ref = self.facts.kernel_of(node)
                if isinstance(ref, KernelRef) and ref.module.index is not None:
                    self.emit_lookup(ref.module, ref.name, ref.name_node)

    #: Branches of a launching function whose paths are written apart.
    MAX_PATH_BRANCHES = 3

    def launch_paths(self, node):
        """Where the names a launch reads (its kernel, grid, block,
        arguments, and the names their bindings read) are bound in the
        arms of `if` statements before it in its function: one path
        {id(if): arm} for each distinct set of bindings that can reach
        the launch together (at most 2 ** MAX_PATH_BRANCHES paths; a path
        on which the launch is not reached is left out). None where no
        such name is bound in branches, or they are too many."""
        r, facts = self.r, self.facts
        if len(node.args) < 3 and not any(k.arg in ('grid', 'block', 'args') for k in node.keywords):
            return None  # not a launch of either library
        fn = r.scope_of(node)
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        cache = self.__dict__.setdefault('_branch_names', {})
        if fn not in cache:
            # The names the function binds inside an `if` (most functions
            # bind none: their calls need no paths).
            cache[fn] = {t.id for x in walk(fn) if isinstance(x, ast.If) and r.scope_of(x) is fn
                         for arm in (x.body, x.orelse) for st in arm for a in walk(st)
                         if isinstance(a, ast.Assign) for t in a.targets if isinstance(t, ast.Name)}
        if not cache[fn]:
            return None
        table = r.scope_assigns(fn)
        names, todo = set(), [x.id for x in walk(node) if isinstance(x, ast.Name)]
        while todo and len(names) < 64:
            n = todo.pop()
            if n in names or n not in table:
                continue
            names.add(n)
            for stmt, value, _ in table[n]:
                if value is not None and not isinstance(value, (ast.AugAssign, ast.withitem)):
                    todo.extend(x.id for x in walk(value) if isinstance(x, ast.Name))
        if not names & cache[fn]:
            return None
        ifs = []
        for x in walk(fn):
            if isinstance(x, ast.If) and r.scope_of(x) is fn and x.lineno < node.lineno and \
                    not r._encloses(x, node) and any(
                        isinstance(a, ast.Assign) and any(
                            isinstance(t, ast.Name) and t.id in names for t in a.targets)
                        for arm in (x.body, x.orelse) for st in arm for a in walk(st)):
                ifs.append(x)
        # `if`s that test the same text take the same arm (a decision
        # written twice: `if x.ndim == 1:` before the kernel and again
        # before its arguments).
        groups = {}
        for x in ifs:
            groups.setdefault(r.segment(x.test) or id(x), []).append(x)
        groups = list(groups.values())
        if not ifs or len(groups) > self.MAX_PATH_BRANCHES:
            return None
        self.path_decisions = len(groups)
        # What tells paths apart: the bindings that reach the launch's own
        # names (its kernel, grid, block and argument tuple, where they
        # are names) and the names those bindings read. The arrays written
        # inside an argument tuple do not: their facts are not read per
        # path, so a path that differs only there would be the same launch.
        direct = [x for x in [node.func] + list(node.args) + [k.value for k in node.keywords]
                  if isinstance(x, ast.Name) and x.id in names]
        out, seen = [], set()
        for k in range(1 << len(groups)):
            path = {id(x): 'orelse' if k >> i & 1 else 'body'
                    for i, g in enumerate(groups) for x in g}
            facts.path = path
            try:
                sig, dead = [], False
                # The kernel's names first, then (after '|') the geometry's
                # and the argument tuple's.
                for part in ([x for x in direct if x is node.func],
                             [x for x in direct if x is not node.func]):
                    todo = list(part)
                    while todo and len(sig) < 64:
                        x = todo.pop(0)
                        got = facts.reaching_bindings(x)
                        if got == 'dead':
                            dead = True
                            break
                        sig.append(tuple(id(e[0]) for e in got) if isinstance(got, list) else None)
                        if x in part and isinstance(got, list) and len(got) == 1:
                            todo.extend(y for y in walk(got[0][1])
                                        if isinstance(y, ast.Name) and y.id in names)
                    if part and part[0] is node.func:
                        sig.append('|')
            finally:
                facts.path = {}
            if dead or tuple(sig) in seen:
                continue
            seen.add(tuple(sig))
            # The part of the signature past the kernel's: two paths that
            # reach one kernel with the same geometry and arguments are one
            # launch (launches()).
            path['#geometry'] = tuple(sig[sig.index('|') + 1:]) if '|' in sig else tuple(sig)
            out.append(path)
        return out or None

    def emit_kernel_launch(self, node, ref):
        # A kernel of another module of the package: its module is written
        # into this unit first.
        for x in (ref.refs if isinstance(ref, KernelChoice) else [ref]):
            x = x.ref if isinstance(x, Prepared) else x
            m = x.module if isinstance(x, KernelRef) else x
            if isinstance(m, KernelModule) and m.index is None:
                self.sibling_module(m)
        ref = raw_kernel_ref(ref)
        refs = ref.refs if isinstance(ref, KernelChoice) else [ref]
        # One of several kernels: which one follows the data (a dtype's
        # name, a dict keyed by dtype), so an argument's dtype or kind is
        # not checked against any of them; the geometry and the
        # received-array rule hold for each.
        self.choice_launch = isinstance(ref, KernelChoice) or getattr(self, 'paths_differ', False)
        try:
            for ref in refs:
                if isinstance(ref, KernelRef) and ref.module.index is not None:
                    if ref.module.lib == 'cupy':
                        self.emit_cupy_launch(node, ref)
                    elif ref.module.lib == 'pycuda':
                        self.emit_pycuda_launch(node, ref)
        finally:
            self.choice_launch = False

    #: Calls of a helper whose kernel parameter is followed.
    MAX_PASSED_CALLS = 8

    def passed_kernels(self, func):
        """Where a launch's kernel is a parameter of the function around
        it (`def launch(kern, x): kern(...)`): [(call, function, {param:
        (Facts, arg)}, kernel)] for every call of that function in the file,
        each passing a kernel the file makes; None where a call passes
        something else or the function's calls are not all known."""
        facts = self.facts
        r = self.r
        if not isinstance(func, ast.Name) or r.definition(func) is not None:
            return None
        fn = r.scope_of(func)
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn in facts.env:
            return None
        a = fn.args
        if func.id not in [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]:
            return None
        entries = r.scope_assigns(fn).get(func.id) or []
        if len(entries) != 1 or entries[0][0] is not fn:
            return None  # rebound in the function
        calls = facts.callers(fn)
        if not calls or len(calls) > self.MAX_PASSED_CALLS:
            return None
        out = []
        for call, positional in calls:
            env = facts.bind(call, fn, positional, facts)
            if env is None or func.id not in env or env[func.id][0] is not facts:
                return None
            k = facts.kernel_of(env[func.id][1])
            if not isinstance(k, (KernelRef, KernelModule, KernelChoice)):
                return None
            out.append((call, fn, env, k))
        return out

    def prepared_for(self, func_value):
        """f.prepare(fmt) earlier in the same scope, f a name; or the one
        `self.f.prepare(fmt)` of a class whose attribute f is the kernel."""
        if isinstance(func_value, ast.Attribute) and self.facts.member(func_value) is not None:
            cls = self.facts.object_class(func_value.value)
            found = [n for n in walk(cls) if isinstance(n, ast.Call) and
                     isinstance(n.func, ast.Attribute) and n.func.attr == 'prepare' and
                     isinstance(n.func.value, ast.Attribute) and
                     n.func.value.attr == func_value.attr and
                     self.facts.object_class(n.func.value.value) is cls]
            v = self.facts.kernel_of(found[0]) if len(found) == 1 else None
            return v if isinstance(v, Prepared) else None
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
                d = self.facts.binding(v)
                if d and isinstance(d[1], (ast.Tuple, ast.List)):
                    v = d[1]
                    continue
            break
        if isinstance(v, (ast.Tuple, ast.List)):
            return [e for e in v.elts], False
        if is_int_expr(self.r, v):
            return [node], True
        return None, False

    def resolve(self, e, depth=0):
        """A name followed to the expression bound to it in straight-line
        code (up to 6 names)."""
        while isinstance(e, ast.Name) and depth < 6:
            d = self.facts.binding(e)
            if not d or d[1] is None or isinstance(d[1], (ast.AugAssign, ast.withitem)):
                break
            e, depth = d[1], depth + 1
        return e

    def swapped(self, grid, block, lib):
        """The block's first dimension where a grid and a block were
        passed in swapped order: the block is a count of blocks (a size
        divided by a constant: `(n + 255) // 256`, `math.ceil(n / 256)`,
        `-(-n // 256)`) and the grid that constant; the launch has more
        than 1,024 threads per block as soon as n passes 1,024 times it."""
        if grid is None or block is None:
            return None
        g, _ = self.dims(grid, lib)
        gx = self.resolve(g[0]) if g else None
        if not (isinstance(gx, ast.Constant) and isinstance(gx.value, int) and
                not isinstance(gx.value, bool) and 32 <= gx.value <= 1024):
            return None
        b, _ = self.dims(block, lib)
        if not b:
            return None
        bx = self.resolve(b[0])
        den = self.divisor(bx)
        return b[0] if den is not None and den == gx.value else None

    def data_size(self, e, depth=0):
        """The data size a block dimension grows with (`x.shape[k]`,
        `len(x)`, `x.size`, directly, through names bound to it in
        straight-line code, or in a sum or product), or None: a constant,
        a division, a min() cap or any other call."""
        if depth > 6:
            return None
        if isinstance(e, ast.Name):
            d = self.r.definition(e)
            if not d or d[1] is None or isinstance(d[1], (ast.AugAssign, ast.withitem)):
                return None
            return self.data_size(d[1], depth + 1)
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub, ast.Mult)):
            for side, other in ((e.left, e.right), (e.right, e.left)):
                found = self.data_size(side, depth + 1)
                if found is not None and (isinstance(e.op, (ast.Add, ast.Mult)) or side is e.left):
                    return found
            return None
        if isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords:
            q = self.r.qualname(e.func) or (e.func.id if isinstance(e.func, ast.Name) else '')
            if q == 'len' and self.array_like(e.args[0]):
                return e
            if q == 'int':
                return self.data_size(e.args[0], depth + 1)
            return None
        if isinstance(e, ast.Attribute) and e.attr == 'size' and self.array_like(e.value):
            return e
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Attribute) and \
                e.value.attr == 'shape' and self.array_like(e.value.value):
            k = e.slice
            if isinstance(k, ast.Constant) and isinstance(k.value, int) and \
                    self.known_extent(e.value.value, k.value):
                return None
            return e
        return None

    def array_like(self, e):
        """A name or attribute that is not a module (x, self.x, x[0])."""
        if isinstance(e, ast.Subscript):
            return self.array_like(e.value)
        if not isinstance(e, (ast.Name, ast.Attribute)):
            return False
        return self.r.qualname(e) is None

    def known_extent(self, arr, k):
        """Whether dimension k of the array bound to a name is a constant
        where it is made (`cp.zeros((n, 3))`)."""
        if not isinstance(arr, ast.Name):
            return False
        d = self.r.definition(arr)
        v = d[1] if d else None
        if isinstance(v, ast.Call) and v.args and isinstance(v.args[0], (ast.Tuple, ast.List)):
            elts = v.args[0].elts
            return -len(elts) <= k < len(elts) and isinstance(elts[k], ast.Constant)
        return False

    def capped(self, node, e):
        """Whether the function of a launch compares the block dimension
        (or a name it is read through) with anything: a check or a cap the
        reader does not follow."""
        names = set()
        for x in walk(e):
            if isinstance(x, ast.Name):
                names.add(x.id)
        v = e
        for _ in range(6):
            if not isinstance(v, ast.Name):
                break
            d = self.r.definition(v)
            if not d or d[1] is None or isinstance(d[1], (ast.AugAssign, ast.withitem)):
                break
            v = d[1]
            for x in walk(v):
                if isinstance(x, ast.Name):
                    names.add(x.id)
        scope = self.r.scope_of(node)
        for x in walk(scope):
            if isinstance(x, ast.Compare) and any(
                    isinstance(y, ast.Name) and y.id in names for y in walk(x)):
                return True
        return False

    def divisor(self, e):
        """The constant a ceil or floor division of a non-constant divides
        by, or None."""
        e = self.resolve(e)
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.FloorDiv):
            num, den = e.left, self.resolve(e.right)
            if isinstance(num, ast.UnaryOp) and isinstance(num.op, ast.USub):
                num = num.operand
            if isinstance(e.left, ast.UnaryOp) and isinstance(num, ast.BinOp) and \
                    isinstance(num.op, ast.FloorDiv):
                num, den = num.left, self.resolve(num.right)
            if isinstance(den, ast.Constant) and isinstance(den.value, int) and \
                    not isinstance(num, ast.Constant):
                return den.value
            return None
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
            return self.divisor(e.operand)
        if isinstance(e, ast.Call) and len(e.args) == 1:
            q = self.r.qualname(e.func) or ''
            inner = self.resolve(e.args[0])
            if q in ('math.ceil', 'int', 'math.floor') and isinstance(inner, ast.BinOp) and \
                    isinstance(inner.op, ast.Div):
                den = self.resolve(inner.right)
                if isinstance(den, ast.Constant) and isinstance(den.value, int) and \
                        not isinstance(inner.left, ast.Constant):
                    return den.value
        return None

    def true_division(self, e, depth=0):
        """Whether a grid or block dimension is the result of a true
        division (`n / 256`, a float in Python 3, also of numpy integers),
        directly or through names bound to it in straight-line code; not
        under int(), math.ceil() or any other call."""
        if depth > 6:
            return False
        if isinstance(e, ast.Name):
            d = self.r.definition(e)
            return bool(d and d[1] is not None and not isinstance(d[1], (ast.AugAssign, ast.withitem))
                        and self.true_division(d[1], depth + 1))
        if isinstance(e, ast.BinOp):
            if isinstance(e.op, ast.Div):
                return True
            if isinstance(e.op, (ast.Add, ast.Sub, ast.Mult)):
                return self.true_division(e.left, depth + 1) or self.true_division(e.right, depth + 1)
        if isinstance(e, ast.Constant):
            return isinstance(e.value, float)
        return False

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
            d = self.facts.binding(e)
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
                d = self.facts.binding(v)
                if d and isinstance(d[1], (ast.Tuple, ast.List)):
                    v = d[1]
                    continue
            break
        if isinstance(v, (ast.Tuple, ast.List)) and not getattr(self, 'paths_unpaired', False):
            karg_list = self.spread(v.elts)
        self.emit_launch(node, ref, grid, block, shared, karg_list, 'cupy', kargs)

    def spread(self, elts):
        """Arguments with `*xs` spread where xs is a tuple or list that its
        name is bound to once (`args = (x, n); k(*args, block=...)`,
        `(*common, n)`); None where a spread value is not known."""
        out = []
        for e in elts:
            if not isinstance(e, ast.Starred):
                out.append(e)
                continue
            v = e.value
            for _ in range(8):
                if not isinstance(v, ast.Name):
                    break
                d = self.facts.binding(v)
                if not d or d[1] is None or isinstance(d[1], (ast.AugAssign, ast.withitem)):
                    return None
                v = d[1]
            if not isinstance(v, (ast.Tuple, ast.List)) or \
                    any(isinstance(x, ast.Starred) for x in v.elts):
                return None
            out.extend(v.elts)
        return out

    def emit_pycuda_launch(self, node, ref):
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if getattr(self, 'paths_unpaired', False) and any(isinstance(a, ast.Starred) for a in node.args):
            return  # a spread tuple of another arm (launch_paths)
        args = self.spread(node.args)
        if args is None:
            return
        block = kw.get('block')
        grid = kw.get('grid', ast.Tuple(elts=[ast.Constant(1)], ctx=ast.Load()))
        if block is None:
            return
        if not hasattr(grid, 'lineno'):
            copy_location(grid, node)
            copy_location(grid.elts[0], node)
        self.emit_launch(node, ref, grid, block, kw.get('shared'), args, 'pycuda', node)

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
        templated = ref.name in getattr(m, 'templated', ())
        inst = instantiation(ref.name)
        if inst is not None and inst[0] in getattr(m, 'templated', ()) and \
                not getattr(m, 'has_holes', True):
            # One instantiation of a template kernel (`name_expressions`,
            # `get_function('f<float>')`): its parameters have types.
            kernel = '%s::%s<%s>' % (m.namespace, inst[0], inst[1])
            count = getattr(m, 'template_counts', {}).get(inst[0])
            templated = False
        elif ref.name not in m.kernels or not is_word(ref.name):
            return
        # An instantiation chosen for a launch whose template arguments
        # follow arrays of unknown dtypes: which parameters name them.
        generic = False
        if getattr(ref, 'generic', False) and inst is not None:
            generic = getattr(m, 'template_deps', {}).get(inst[0])
        self.launch_count += 1
        params = {}
        dims = {}
        facts = []
        swapped = self.swapped(grid, block, lib.split('-')[0])
        if swapped is not None:
            facts.append(('block-swapped', swapped))
        elif block is not None:
            b_elts, _ = self.dims(block, lib.split('-')[0])
            for e in (b_elts or [])[:3]:
                if self.data_size(e) is not None and not self.capped(node, e):
                    facts.append(('block-datasize', e))
                    break
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
            for e in (elts or [])[:3]:
                if self.true_division(e):
                    facts.append((what + '-float', e))
                    break
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
                self.facts.origin = None
                fact = self.facts.fact(a, lib)
                if getattr(self, 'choice_launch', False) or (
                        generic is not False and (generic is None or i >= len(generic) or generic[i])):
                    fact, self.facts.origin = 'unknown', None
                rec = self.facts.received(a) if lib == 'cupy' and fact in (
                    'unknown', 'devptr') else None
                if lib == 'pycuda' and isinstance(a, ast.Call) and len(a.args) == 1 and \
                        (r.qualname(a.func) or '').startswith('pycuda.driver.') and \
                        r.qualname(a.func).split('.')[-1] in ('In', 'Out', 'InOut'):
                    # PyCUDA copies a host array through drv.In/Out/InOut
                    # in its memory order (a transposed array is accepted,
                    # being Fortran-contiguous).
                    rec = self.facts.received(a.args[0])
                    rec = (rec[0], rec[1], 'host') if rec and rec[2] == 'array' else None
                if rec is not None:
                    # An array the launching function received and never
                    # made contiguous (KernelArgumentsCheck reports it where
                    # the kernel indexes the parameter densely).
                    fact = 'received:' + rec[2]
                    sep()
                    s('__attribute__((annotate("cuda-tidy-python-argrecv|%d|%s|%s"))) int '
                      % (i, rec[1], rec[0].arg))
                    b.syn('__recv%d' % i, 0, r.node_start(rec[0]))
                if self.facts.origin is not None and fact != 'unknown' and rec is None:
                    # Where the fact comes from: the argument of the call
                    # of the launching function (a note of the finding).
                    sep()
                    s('__attribute__((annotate("cuda-tidy-python-argfrom|%d|%s"))) int '
                      % (i, self.facts.origin[1]))
                    b.syn('__from%d' % i, 0, r.node_start(self.facts.origin[0]))
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
        if templated:
            # A template (a type hole of the source, or the user's own): its
            # address needs arguments, so it is named in a call a generic
            # lambda never instantiates (KernelArgumentsCheck's launchedKernel
            # reads the lookup).
            s(') {\n  (void)[](auto... __t) { %s(__t...); };\n' % kernel)
        else:
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
