#!/usr/bin/env python3
"""Prints the compile commands of a PyTorch extension's setup.py, as a
compile_commands.json array, without running it: the file is read with
Python's own parser (ast) and the arguments of each CUDAExtension(...) or
CppExtension(...) call are evaluated by a small interpreter that knows only
literals, names assigned once at module level, string and list arithmetic,
f-strings, os.path helpers and glob.glob. What it cannot evaluate is left
out (an unknown include folder, a computed source list), never guessed.

Branches: a setup.py often picks its sources, include folders and defines
by platform (`if torch.cuda.is_available(): ... elif FORCE_MLU: ...`). The
test of each `if`, `elif` and conditional expression is evaluated with
three values (true, false, unknown) from what a CUDA build of the installed
torch sees: the environment as it is (`os.getenv('FORCE_MLU', '0')`),
`torch.cuda.is_available()` true, `torch.version.hip` None, the MPS and
other vendor back-ends absent, `platform.system()` and torch's version
(read from its metadata, never by importing it) as they are. A branch whose
test is known false contributes nothing; where a test is unknown, every
branch contributes (the union of their include folders, sources and
defines).

Other files: a setup.py often takes its sources and flags from a helper
module of the project (`import build`, `from pkg.build import params`, or a
module loaded by path with `importlib.util.spec_from_file_location`, as
gsplat's setup.py loads `gsplat/cuda/build.py`). Such modules are parsed
the same way (never imported), and a call of a function of the project
(in setup.py or a helper module) is evaluated from its `return` statement,
its parameters bound to the arguments; `types.SimpleNamespace(...)` and
`dict(...)` give objects whose attributes and items are read. The
`torch.utils.cpp_extension.load(name, sources, extra_include_paths=...,
extra_cflags=..., extra_cuda_cflags=...)` calls in the project's Python
files (those that mention cpp_extension) give the commands of the sources
that no setup.py extension names.

Usage: torch_setup_commands.py path/to/setup.py
       torch_setup_commands.py path/to/project   (load() calls only)
"""
import ast
import glob
import json
import os
import shlex
import sys

UNKNOWN = object()

# str methods evaluated on known strings.
STR_METHODS = ("format", "split", "rsplit", "strip", "lstrip", "rstrip",
               "replace", "startswith", "endswith", "lower", "upper", "join")

# What a CUDA build of the installed torch sees, for the tests of branches.
TORCH_CALL_RESULTS = {
    "torch.cuda.is_available": True,
    "torch.backends.mps.is_available": False,
    "torch.backends.mps.is_built": False,
}
try:
    import platform
    TORCH_CALL_RESULTS["platform.system"] = platform.system()
except Exception:
    pass
try:
    import platform
    TORCH_CALL_RESULTS["platform.machine"] = platform.machine()
except Exception:
    pass
TORCH_ATTRIBUTES = {
    "torch.version.hip": None,
    "sys.platform": sys.platform,
    "os.name": os.name,
}

# Whether os.getenv and os.environ read the environment. When setup.py
# builds no extension with the environment as it is (mamba builds its CUDA
# kernels only under MAMBA_KEEP_CUDA_BUILD=TRUE), it is read again with the
# environment unknown: the user sets it to build.
ENVIRONMENT = {"known": True}

# How deep calls of the project's functions are followed, and how many of
# its modules are parsed.
MAX_CALL_DEPTH = 8
MAX_MODULES = 64


class Namespace(dict):
    """A types.SimpleNamespace(...) value: its attributes are its items."""


class ModuleValue:
    """A Python file of the project, parsed, never run."""
    def __init__(self, ev):
        self.ev = ev


class FunctionValue:
    def __init__(self, ev, node):
        self.ev = ev
        self.node = node


class SpecValue:
    """importlib.util.spec_from_file_location(name, path)'s spec."""
    def __init__(self, path):
        self.path = path


class Given(ast.expr):
    """An argument's value bound to a parameter."""
    _fields = ()

    def __init__(self, value):
        super().__init__()
        self.value = value


def known(value):
    """Whether a value (or each item of a list) was evaluated."""
    if value is UNKNOWN:
        return False
    if isinstance(value, list):
        return all(known(v) for v in value)
    return True


def torch_version():
    try:
        import importlib.metadata
        return importlib.metadata.version("torch").split("+")[0]
    except Exception:  # no torch, or no metadata: unknown
        return UNKNOWN


def version_tuple(text):
    """'2.11.0' as (2, 11, 0), for parse_version(...) comparisons."""
    parts = []
    for p in str(text).split("+")[0].split("."):
        digits = "".join(c for c in p if c.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts) if parts else UNKNOWN


class Evaluator:
    """The names of one scope: a file (setup.py or a helper module), or one
    call of a function of the project (with `parent`, the file's scope)."""
    def __init__(self, setup_py, root=None, parent=None, modules=None, depth=0):
        self.setup_py = os.path.abspath(setup_py)
        self.root = root or os.path.dirname(self.setup_py)
        self.parent = parent
        self.modules = modules if modules is not None else {}
        self.depth = depth
        self.names = {} if parent else {"__file__": self.setup_py}
        self.assigned = {}
        self.added = {}
        self.functions = {}
        self.imports = {}
        self.call_cache = {}

    # What each name may hold: every value assigned to it anywhere in the
    # file (the branches of a setup.py assign a name in several places),
    # and what is appended, extended or added to it.
    # Each node is recorded with the tests of the `if`s around it (the
    # test and the branch it is in), so that branches known not taken are
    # left out (reachable).
    def collect(self, tree):
        self.guards = {}
        self.calls = []
        self._collect(tree, ())

    def _collect(self, node, guards):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.functions.setdefault(node.name, node)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    self.imports.setdefault(a.asname, ("module", a.name, 0))
                elif "." not in a.name:
                    self.imports.setdefault(a.name, ("module", a.name, 0))
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            for a in node.names:
                self.imports.setdefault(a.asname or a.name,
                                        ("from", node.module or "", node.level, a.name))
        if isinstance(node, ast.If):
            self._collect(node.test, guards)
            for child in node.body:
                self._collect(child, guards + ((node.test, True),))
            for child in node.orelse:
                self._collect(child, guards + ((node.test, False),))
            return
        if isinstance(node, ast.AnnAssign) and node.value is not None \
                and isinstance(node.target, ast.Name):
            self.assigned.setdefault(node.target.id, []).append(node.value)
            self.guards[id(node.value)] = guards
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    self.assigned.setdefault(t.id, []).append(node.value)
                    self.guards[id(node.value)] = guards
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) \
                and isinstance(node.op, ast.Add):
            self.added.setdefault(node.target.id, []).append(("extend", node.value))
            self.guards[id(node.value)] = guards
        elif isinstance(node, ast.Call):
            self.calls.append((node, guards))
            if isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) \
                    and node.func.attr in ("append", "extend") and len(node.args) == 1:
                self.added.setdefault(node.func.value.id, []).append(
                    (node.func.attr, node.args[0]))
                self.guards[id(node.args[0])] = guards
        for child in ast.iter_child_nodes(node):
            self._collect(child, guards)

    def reachable(self, guards):
        """No test around the node is known to send control elsewhere."""
        for test, branch in guards:
            t = self.truth(test)
            if t is not None and t != branch:
                return False
        return True

    def reachable_node(self, node):
        return self.reachable(self.guards.get(id(node), ()))

    def truth(self, node):
        """A test's value: True, False, or None when it is not known."""
        if isinstance(node, ast.BoolOp):
            values = [self.truth(v) for v in node.values]
            if isinstance(node.op, ast.And):
                if False in values:
                    return False
                return True if all(v is True for v in values) else None
            if True in values:
                return True
            return False if all(v is False for v in values) else None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            t = self.truth(node.operand)
            return None if t is None else not t
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            a = self.eval(node.left)
            b = self.eval(node.comparators[0])
            op = node.ops[0]
            if isinstance(op, (ast.Is, ast.IsNot)):
                if a is UNKNOWN or b is UNKNOWN:
                    return None
                same = a is b if (a is None or b is None) else a == b
                return same if isinstance(op, ast.Is) else not same
            if a is UNKNOWN or b is UNKNOWN:
                return None
            try:
                if isinstance(op, ast.Eq):
                    return a == b
                if isinstance(op, ast.NotEq):
                    return a != b
                if isinstance(op, ast.Lt):
                    return a < b
                if isinstance(op, ast.LtE):
                    return a <= b
                if isinstance(op, ast.Gt):
                    return a > b
                if isinstance(op, ast.GtE):
                    return a >= b
                if isinstance(op, ast.In):
                    return a in b
                if isinstance(op, ast.NotIn):
                    return a not in b
            except TypeError:
                return None
            return None
        v = self.eval(node)
        if v is UNKNOWN or isinstance(v, (list, dict)) and any(
                x is UNKNOWN for x in (v if isinstance(v, list) else v.values())):
            return None
        return bool(v)

    def name(self, ident):
        if ident in self.names:
            return self.names[ident]
        self.names[ident] = UNKNOWN  # guards against a cycle
        nodes = [n for n in self.assigned.get(ident, []) if self.reachable_node(n)]
        if not nodes:
            del self.names[ident]
            if ident in self.assigned:
                return UNKNOWN
            if ident in self.functions:
                return FunctionValue(self, self.functions[ident])
            if ident in self.imports:
                return self.imported(ident)
            if self.parent is not None:
                return self.parent.name(ident)
            return UNKNOWN
        if len(nodes) > 1 and len({self.guards.get(id(n), ()) for n in nodes}) == 1:
            # Assignments one after another in one block: the last holds,
            # and a use of the name in it reads the one before
            # (`sources = [s for s in sources if ...]`).
            value = UNKNOWN
            for n in nodes:
                self.names[ident] = value
                value = self.eval(n)
            nodes = nodes[-1:]
            values = [value]
        else:
            values = [self.eval(n) for n in nodes]
        known = [v for v in values if v is not UNKNOWN]
        if len(nodes) == 1 and known and not isinstance(known[0], list):
            value = known[0]
        elif known and all(isinstance(v, list) for v in known):
            # A list assigned in several branches: the union, plus what is
            # added to it (extra include folders and sources are harmless).
            value = []
            for v in known:
                value.extend(x for x in v if x not in value)
            for how, arg in self.added.get(ident, []):
                if not self.reachable_node(arg):
                    continue
                # Flags come in pairs (-gencode arch=...): what is added
                # is kept as often as it is added.
                x = self.eval(arg)
                if how == "append" and x is not UNKNOWN:
                    value.append(x)
                elif how == "extend" and isinstance(x, list):
                    value.extend(x)
        elif known and len(known) == len(nodes) and all(v == known[0] for v in known):
            value = known[0]  # the same value on every branch taken
        else:
            value = UNKNOWN
        self.names[ident] = value
        return value

    def module_file(self, dotted, level):
        """The project file of module `dotted` (relative to this file's
        folder for `from . import`), or None for a module outside it."""
        here = os.path.dirname(self.setup_py)
        bases = []
        if level:
            base = here
            for _ in range(level - 1):
                base = os.path.dirname(base)
            bases.append(base)
        else:
            bases.extend([here, self.root])
        rel = dotted.split(".") if dotted else []
        for base in bases:
            for candidate in (os.path.join(base, *rel) + ".py",
                              os.path.join(base, *rel, "__init__.py")):
                if rel or level:
                    if os.path.isfile(candidate):
                        return candidate
        return None

    def load_module(self, path):
        """The scope of a project file, parsed once per run."""
        if not isinstance(path, str):
            return UNKNOWN
        path = os.path.abspath(path if os.path.isabs(path)
                               else os.path.join(self.root, path))
        inside = os.path.commonpath([path, self.root]) == self.root
        if not inside or not path.endswith(".py") or not os.path.isfile(path):
            return UNKNOWN
        if path not in self.modules:
            if len(self.modules) >= MAX_MODULES:
                return UNKNOWN
            self.modules[path] = None  # guards against an import cycle
            try:
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read(), filename=path)
            except (OSError, SyntaxError, ValueError):
                return UNKNOWN
            ev = Evaluator(path, root=self.root, modules=self.modules)
            ev.collect(tree)
            self.modules[path] = ev
        ev = self.modules[path]
        return ModuleValue(ev) if ev is not None else UNKNOWN

    def imported(self, ident):
        entry = self.imports[ident]
        if entry[0] == "module":
            return self.load_module(self.module_file(entry[1], entry[2]))
        _, dotted, level, attr = entry
        sub = self.module_file((dotted + "." if dotted else "") + attr, level)
        if sub:
            return self.load_module(sub)
        module = self.load_module(self.module_file(dotted, level))
        return module.ev.member(attr) if isinstance(module, ModuleValue) else UNKNOWN

    def member(self, attr):
        """A module's attribute: a function, or a name at its top level."""
        if attr in self.functions and attr not in self.assigned:
            return FunctionValue(self, self.functions[attr])
        return self.name(attr)

    def file_scope(self):
        return self.parent if self.parent is not None else self

    def call_function(self, function, node):
        """A project function's value, from its return statement(s), with
        its parameters bound to the arguments that could be evaluated."""
        if self.depth >= MAX_CALL_DEPTH:
            return UNKNOWN
        fn = function.node
        params = fn.args.posonlyargs + fn.args.args
        bound = {}
        for p, a in zip(params, node.args):
            if isinstance(a, ast.Starred):
                return UNKNOWN
            bound[p.arg] = self.eval(a)
        for k in node.keywords:
            if k.arg is None:
                return UNKNOWN
            bound[k.arg] = self.eval(k.value)
        defaults = fn.args.defaults
        for p, d in zip(params[len(params) - len(defaults):], defaults):
            if p.arg not in bound:
                bound[p.arg] = function.ev.eval(d)
        for p, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
            if p.arg not in bound and d is not None:
                bound[p.arg] = function.ev.eval(d)
        key = (id(fn), repr(sorted(bound.items(), key=lambda kv: kv[0])))
        cache = function.ev.file_scope().call_cache
        if key in cache:
            return cache[key]
        cache[key] = UNKNOWN  # guards against recursion
        scope = function.ev.function_scope(fn, bound, self.depth + 1)
        returns = scope.returns(fn)
        values = [scope.eval(r.value) for r in returns if r.value is not None]
        value = UNKNOWN
        if len(values) == 1 or values and all(v == values[0] for v in values):
            value = values[0]
        cache[key] = value
        return value

    def function_scope(self, fn, bound, depth):
        """A scope for one call of `fn`, a function of this file."""
        outer = self.file_scope()
        scope = Evaluator(outer.setup_py, root=self.root, parent=outer,
                          modules=self.modules, depth=depth)
        scope.guards = {}
        scope.calls = []
        for name, value in bound.items():
            if value is not UNKNOWN:
                scope.names[name] = value
        for stmt in fn.body:
            scope._collect(stmt, ())
        for name in bound:
            # An argument not evaluated is unknown, whatever the default.
            if bound[name] is UNKNOWN and name not in scope.assigned:
                scope.assigned[name] = []
        return scope

    def returns(self, fn):
        """The reachable return statements of fn's body (not of the
        functions defined in it)."""
        found = []

        def walk(node):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                 ast.Lambda, ast.ClassDef)):
                return
            if isinstance(node, ast.Return):
                found.append(node)
            for child in ast.iter_child_nodes(node):
                walk(child)
        for stmt in fn.body:
            walk(stmt)
        # The guards of each return: recollect them with the if-tests.
        guards = {}

        def walk_guards(node, g):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                 ast.Lambda, ast.ClassDef)):
                return
            if isinstance(node, ast.Return):
                guards[id(node)] = g
            if isinstance(node, ast.If):
                for c in node.body:
                    walk_guards(c, g + ((node.test, True),))
                for c in node.orelse:
                    walk_guards(c, g + ((node.test, False),))
                return
            for child in ast.iter_child_nodes(node):
                walk_guards(child, g)
        for stmt in fn.body:
            walk_guards(stmt, ())
        return [r for r in found if self.reachable(guards.get(id(r), ()))]

    def extension_kind(self, func):
        """CUDAExtension or CppExtension, called directly or through a name
        that holds one (extension = CUDAExtension)."""
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in ("CUDAExtension", "CppExtension"):
            return name
        kinds = set()
        for n in self.assigned.get(name, []) if name else []:
            if not self.reachable_node(n):
                continue
            k = n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", None)
            if k in ("CUDAExtension", "CppExtension"):
                kinds.add(k)
        return "CUDAExtension" if "CUDAExtension" in kinds else (
            kinds.pop() if kinds else None)

    @staticmethod
    def dotted(node):
        """'torch.version.hip' for that attribute chain, else ''."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.insert(0, node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return ""
        parts.insert(0, node.id)
        return ".".join(parts)

    def call(self, node):
        f = node.func
        dotted = []
        while isinstance(f, ast.Attribute):
            dotted.insert(0, f.attr)
            f = f.value
        if isinstance(f, ast.Name):
            dotted.insert(0, f.id)
        fname = ".".join(dotted)
        if fname in TORCH_CALL_RESULTS and not node.args:
            return TORCH_CALL_RESULTS[fname]
        callee = UNKNOWN
        if isinstance(node.func, ast.Name):
            callee = self.name(node.func.id) if node.func.id in self.names or \
                self.defines(node.func.id) else UNKNOWN
        elif isinstance(node.func, ast.Attribute):
            base = self.eval(node.func.value)
            if isinstance(base, ModuleValue):
                callee = base.ev.member(node.func.attr)
            elif isinstance(base, str) and node.func.attr in STR_METHODS:
                args = [self.eval(a) for a in node.args]
                if node.keywords or not all(isinstance(a, (str, int)) for a in args):
                    return UNKNOWN
                try:
                    return getattr(base, node.func.attr)(*args)
                except (IndexError, KeyError, TypeError, ValueError):
                    return UNKNOWN
        if isinstance(callee, FunctionValue):
            return self.call_function(callee, node)
        if fname.split(".")[-1] in ("SimpleNamespace", "dict") and not node.args:
            out = Namespace() if fname.endswith("SimpleNamespace") else {}
            for k in node.keywords:
                if k.arg is None:
                    return UNKNOWN
                out[k.arg] = self.eval(k.value)
            return out
        args = [self.eval(a) for a in node.args]
        if fname.endswith("spec_from_file_location") and len(args) >= 2 \
                and isinstance(args[1], str):
            return SpecValue(args[1])
        if fname.endswith("module_from_spec") and len(args) == 1 \
                and isinstance(args[0], SpecValue):
            return self.load_module(args[0].path)
        if fname in ("os.getenv", "os.environ.get", "getenv", "environ.get") \
                and args and isinstance(args[0], str) and not node.keywords:
            if not ENVIRONMENT["known"]:
                return UNKNOWN
            default = args[1] if len(args) > 1 else None
            return os.environ.get(args[0], default)
        if any(a is UNKNOWN for a in args) or node.keywords and fname not in (
                "glob.glob", "glob"):
            return UNKNOWN
        if fname.split(".")[-1] in ("parse_version", "parse", "LooseVersion",
                                     "StrictVersion", "Version") and len(args) == 1:
            return version_tuple(args[0])
        if fname == "bool" and len(args) == 1:
            return bool(args[0])
        if fname in ("os.path.join", "osp.join", "path.join", "join"):
            return os.path.join(*args) if all(isinstance(a, str) for a in args) else UNKNOWN
        if not all(isinstance(a, (str, int, list, tuple, bool, type(None)))
                   for a in args):
            return UNKNOWN
        if fname in ("os.path.dirname", "osp.dirname", "dirname"):
            return os.path.dirname(args[0])
        if fname in ("os.path.normpath", "osp.normpath", "normpath") \
                and isinstance(args[0], str):
            return os.path.normpath(args[0])
        if fname in ("os.path.basename", "osp.basename", "basename") \
                and isinstance(args[0], str):
            return os.path.basename(args[0])
        if fname in ("os.path.relpath", "osp.relpath", "relpath") \
                and all(isinstance(a, str) for a in args) and 1 <= len(args) <= 2:
            absolute = [a if os.path.isabs(a) else os.path.join(self.root, a)
                        for a in args]
            return os.path.relpath(absolute[0], absolute[1] if len(args) == 2
                                   else self.root)
        if fname in ("os.path.isdir", "osp.isdir", "os.path.isfile",
                     "osp.isfile", "os.path.exists", "osp.exists") \
                and len(args) == 1 and isinstance(args[0], str):
            path = args[0] if os.path.isabs(args[0]) else os.path.join(self.root, args[0])
            test = fname.split(".")[-1]
            return getattr(os.path, test)(path)
        if fname in ("os.path.abspath", "osp.abspath", "os.path.realpath",
                     "osp.realpath", "abspath", "realpath"):
            return os.path.abspath(os.path.join(self.root, args[0]))
        if fname in ("glob.glob", "glob"):
            if not args or not isinstance(args[0], str):
                return UNKNOWN
            rec = any(k.arg == "recursive" and isinstance(k.value, ast.Constant)
                      and k.value.value for k in node.keywords)
            pattern = args[0] if os.path.isabs(args[0]) else os.path.join(self.root, args[0])
            return sorted(glob.glob(pattern, recursive=rec))
        if fname in ("str",) and len(args) == 1:
            return str(args[0])
        if fname in ("list", "sorted") and len(args) == 1 and isinstance(args[0], list):
            return sorted(args[0]) if fname == "sorted" else list(args[0])
        return UNKNOWN

    def defines(self, ident):
        """Whether a name is bound in this scope or the file's."""
        scope = self
        while scope is not None:
            if ident in scope.assigned or ident in scope.functions \
                    or ident in scope.imports or ident in scope.names:
                return True
            scope = scope.parent
        return False

    def eval(self, node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.Attribute):
            dotted = self.dotted(node)
            if dotted == "torch.__version__":
                return torch_version()
            if dotted in TORCH_ATTRIBUTES:
                return TORCH_ATTRIBUTES[dotted]
            base = self.eval(node.value)
            if isinstance(base, Namespace):
                return base.get(node.attr, UNKNOWN)
            if isinstance(base, ModuleValue):
                return base.ev.member(node.attr)
            return UNKNOWN
        if isinstance(node, ast.Subscript) and self.dotted(node.value) == "os.environ":
            key = self.eval(node.slice)
            if not ENVIRONMENT["known"] or not isinstance(key, str):
                return UNKNOWN
            return os.environ.get(key, UNKNOWN)
        if isinstance(node, ast.IfExp):
            t = self.truth(node.test)
            return UNKNOWN if t is None else self.eval(node.body if t else node.orelse)
        if isinstance(node, (ast.List, ast.Tuple)):
            out = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    v = self.eval(e.value)
                    if not isinstance(v, list):
                        return UNKNOWN
                    out.extend(v)
                else:
                    out.append(self.eval(e))
            return out
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                key = self.eval(k) if k is not None else UNKNOWN
                if isinstance(key, str):
                    out[key] = self.eval(v)
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.eval(node.left), self.eval(node.right)
            if isinstance(a, str) and isinstance(b, str):
                return a + b
            if isinstance(a, list) and isinstance(b, list):
                return a + b
            return UNKNOWN
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    parts.append(str(v.value))
                else:
                    x = self.eval(v.value)
                    if not isinstance(x, (str, int)):
                        return UNKNOWN
                    parts.append(str(x))
            return "".join(parts)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, Given):
            return node.value
        if isinstance(node, ast.Compare) or isinstance(node, ast.UnaryOp) \
                and isinstance(node.op, ast.Not):
            t = self.truth(node)
            return UNKNOWN if t is None else t
        if isinstance(node, ast.BoolOp):
            # Python's value: the first operand that decides.
            for v in node.values[:-1]:
                x = self.eval(v)
                if x is UNKNOWN or isinstance(x, list) and not known(x):
                    return UNKNOWN
                if bool(x) == isinstance(node.op, ast.Or):
                    return x
            return self.eval(node.values[-1])
        if isinstance(node, ast.Subscript):
            base, key = self.eval(node.value), self.eval(node.slice)
            if isinstance(base, dict) and isinstance(key, str):
                return base.get(key, UNKNOWN)
            if isinstance(base, list) and isinstance(key, int) \
                    and -len(base) <= key < len(base):
                return base[key]
            return UNKNOWN
        if isinstance(node, ast.ListComp) and len(node.generators) == 1:
            g = node.generators[0]
            seq = self.eval(g.iter)
            if not isinstance(seq, list) or not isinstance(g.target, ast.Name):
                return UNKNOWN
            out = []
            saved = self.names.get(g.target.id, None)
            for item in seq:
                self.names[g.target.id] = item
                kept = [self.truth(t) for t in g.ifs]
                if None in kept:
                    out = UNKNOWN
                    break
                if all(kept):
                    out.append(self.eval(node.elt))
            if saved is None:
                self.names.pop(g.target.id, None)
            else:
                self.names[g.target.id] = saved
            return out
        return UNKNOWN


def strings(value):
    """The strings of a list that could be evaluated."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str)]


def extension_commands(ev, call):
    is_cuda = ev.extension_kind(call.func) == "CUDAExtension"
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    name = ev.eval(kw["name"]) if "name" in kw else (
        ev.eval(call.args[0]) if call.args else UNKNOWN)
    sources = ev.eval(kw["sources"]) if "sources" in kw else (
        ev.eval(call.args[1]) if len(call.args) > 1 else UNKNOWN)
    includes = strings(ev.eval(kw["include_dirs"])) if "include_dirs" in kw else []
    macros = ev.eval(kw["define_macros"]) if "define_macros" in kw else []
    extra = ev.eval(kw["extra_compile_args"]) if "extra_compile_args" in kw else {}
    if isinstance(extra, list):
        extra = {"cxx": extra, "nvcc": []}
    if not isinstance(extra, dict):
        extra = {}
    defines = []
    for m in macros if isinstance(macros, list) else []:
        if isinstance(m, (list, tuple)) and len(m) == 2 and isinstance(m[0], str) \
                and (m[1] is None or isinstance(m[1], (str, int))):
            defines.append("-D%s" % m[0] if m[1] is None else "-D%s=%s" % (m[0], m[1]))
    return source_commands(ev, name, sources, includes, defines,
                           strings(extra.get("cxx", [])),
                           strings(extra.get("nvcc", [])), is_cuda)


def source_commands(ev, name, sources, includes, defines, cxx, nvcc, is_cuda):
    common = ["-I" + (i if os.path.isabs(i) else os.path.join(ev.root, i))
              for i in includes] + defines
    if isinstance(name, str):
        common.append("-DTORCH_EXTENSION_NAME=%s" % name.split(".")[-1])
    out = []
    for src in strings(sources):
        path = src if os.path.isabs(src) else os.path.join(ev.root, src)
        if not os.path.exists(path):
            continue
        cuda = path.endswith((".cu", ".cuh"))
        if cuda and is_cuda:
            args = ["nvcc"] + common + nvcc + ["-c", path]
        else:
            args = ["c++"] + common + cxx + ["-c", path]
        out.append({"directory": ev.root, "file": os.path.normpath(path),
                    "arguments": args})
    return out


# torch.utils.cpp_extension.load's parameters, in order.
LOAD_PARAMETERS = ("name", "sources", "extra_cflags", "extra_cuda_cflags",
                   "extra_ldflags", "extra_include_paths")


def is_load_call(node):
    """A call of cpp_extension's load(name, sources, ...): named load, with
    sources given (json.load(f) and pickle.load(f) have neither)."""
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
    if name != "load":
        return False
    keywords = {k.arg for k in node.keywords}
    return "sources" in keywords or len(node.args) >= 2 and "name" not in keywords \
        or "name" in keywords and len(node.args) >= 1


def load_commands(ev, call):
    given = {}
    for p, a in zip(LOAD_PARAMETERS, call.args):
        given[p] = a
    for k in call.keywords:
        if k.arg in LOAD_PARAMETERS:
            given[k.arg] = k.value

    def value(p, default):
        return ev.eval(given[p]) if p in given else default
    return source_commands(ev, value("name", UNKNOWN), value("sources", UNKNOWN),
                           strings(value("extra_include_paths", [])), [],
                           strings(value("extra_cflags", [])),
                           strings(value("extra_cuda_cflags", [])), True)


def module_load_commands(ev, tree):
    """The commands of the load() calls of a parsed file: each evaluated in
    the scope of the function that makes it, its parameters unknown."""
    out = []

    def walk(node, fn):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for child in node.body:
                walk(child, node)
            return
        if isinstance(node, ast.Call) and is_load_call(node):
            if fn is None:
                scope = ev
            else:
                params = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
                scope = ev.function_scope(fn, {p.arg: UNKNOWN for p in params}, 1)
            out.extend(load_commands(scope, node))
        for child in ast.iter_child_nodes(node):
            walk(child, fn)
    walk(tree, None)
    return out


# The project's Python files read for load() calls: those that mention
# cpp_extension, at most this many files looked at.
MAX_SCANNED_FILES = 4000
SKIPPED_FOLDERS = ("build", "dist", "node_modules", "site-packages", "__pycache__")


def project_python_files(root):
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                         and d not in SKIPPED_FOLDERS)
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            seen += 1
            if seen > MAX_SCANNED_FILES:
                return
            path = os.path.join(folder, f)
            try:
                with open(path, encoding="utf-8", errors="replace") as h:
                    text = h.read()
            except OSError:
                continue
            if "cpp_extension" in text and "load(" in text:
                yield path


def main():
    if len(sys.argv) != 2:
        print("usage: torch_setup_commands.py setup.py", file=sys.stderr)
        return 2
    setup_py = sys.argv[1]
    commands = []
    if os.path.isdir(setup_py):
        root = os.path.abspath(setup_py)
        modules = {}
    else:
        try:
            with open(setup_py, encoding="utf-8") as f:
                tree = ast.parse(f.read(), filename=setup_py)
        except (OSError, SyntaxError, ValueError) as e:
            print("cannot parse %s: %s" % (setup_py, e), file=sys.stderr)
            return 1
        for known in (True, False):
            ENVIRONMENT["known"] = known
            ev = Evaluator(setup_py)
            ev.collect(tree)
            for node, guards in ev.calls:
                if ev.extension_kind(node.func) and ev.reachable(guards):
                    commands.extend(extension_commands(ev, node))
            if commands:
                break
        root, modules = ev.root, ev.modules
        commands.extend(module_load_commands(ev, tree))
    # The load() calls of the project's other files (setup.py's extensions
    # come first: a source they name keeps their command).
    anchor = Evaluator(os.path.join(root, "setup.py"), root=root, modules=modules)
    for path in project_python_files(root):
        module = anchor.load_module(path)
        if not isinstance(module, ModuleValue):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), filename=path)
        except (OSError, SyntaxError, ValueError):
            continue
        commands.extend(module_load_commands(module.ev, tree))
    seen, unique = set(), []
    for c in commands:
        if c["file"] not in seen:
            seen.add(c["file"])
            unique.append(c)
    try:
        json.dump(unique, sys.stdout, indent=1)
        print()
    except BrokenPipeError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
