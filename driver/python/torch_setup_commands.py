#!/usr/bin/env python3
"""Prints the compile commands of a PyTorch extension's setup.py, as a
compile_commands.json array, without running it.

The file is read with Python's own parser (ast) and executed by a small
interpreter of its own: statements run in order (assignments, `+=`,
`append`/`extend`, item and attribute stores, `for` loops over lists the
interpreter knows, `while` loops with known tests, calls of the project's
functions, imports of the project's modules), over values it knows:
literals, strings, lists, tuples, dicts, the os.path helpers over the
project's real tree (`os.path.curdir` is '.', `__file__` is setup.py's
path), glob.glob and os.listdir of the real tree, itertools.product and
chain, the environment (os.getenv, os.environ), and what a CUDA build of
the installed torch sees (below). Nothing is run: no subprocess, no import
of a module outside the project, no file written. Every
`CUDAExtension(...)`/`CppExtension(...)` call that executes (directly, or
through a name that holds the class: `extension = CUDAExtension if
use_cuda else CppExtension`) gives its sources' commands.

Branches: the test of each `if`, `elif`, `while` and conditional expression
is evaluated with three values (true, false, unknown) from what a CUDA
build of the installed torch sees: the environment as it is,
`torch.cuda.is_available()` true, `CUDA_HOME` set, `torch.version.hip`
None, the MPS and other vendor back-ends absent, `platform.system()`,
`sys.platform`, `os.name` as they are, and torch's version (read from its
metadata, never by importing it). A branch whose test is known false runs
not; where a test is unknown, both branches run on copies of the names and
their results are joined (the union of lists and dicts; a value that
differs is unknown). A loop over a value that is not known runs its body
once with its variable unknown.

Other files: a module of the project that setup.py imports by name, or
loads by path with importlib.util.spec_from_file_location, is executed the
same way. The `torch.utils.cpp_extension.load(name, sources, ...)` calls in
the project's Python files (those that mention cpp_extension) give the
commands of the sources that no setup.py extension names. A function of
the project that makes an extension or load() call and is never called is
called once with its parameters unknown.

What cannot be evaluated is left out, never guessed. When an argument of an
extension (its name, sources, include folders, defines or compile flags)
holds something unknown, one warning on stderr names the construct, its
file and line, and what is missing:
  warning: setup.py:49: cannot evaluate 'parallel_info()' (...): -D/-I flags ...

Usage: torch_setup_commands.py path/to/setup.py
       torch_setup_commands.py path/to/project   (load() calls only)
       --lines: one command a line, `file: arguments`, instead of JSON
       --torch-install: also where torch is, one line on stderr
         (`torch-install: {json}`), so that the driver needs no second
         Python process to find it
       torch_setup_commands.py --find-torch: where torch is, as JSON
"""
import ast
import glob
import itertools
import json
import os
import sys

# How deep calls of the project's functions are followed, how many modules
# are parsed, how many iterations a loop runs and how many statements a run
# executes in all.
MAX_CALL_DEPTH = 12
MAX_MODULES = 64
MAX_ITERATIONS = 20000
MAX_STEPS = 2000000


class Unknown:
    """A value the interpreter could not compute, with the construct that
    made it unknown (file, line, text) for the warning. `truth` is set
    where only the value's truth is known (`x and False`)."""
    __slots__ = ("cause", "truth")

    def __init__(self, cause=None, truth=None):
        self.cause = cause
        self.truth = truth

    def __repr__(self):
        return "<unknown>"


def unknown(value):
    return isinstance(value, Unknown)


def known(value):
    """Whether a value (and each item of a list, tuple or dict) is known."""
    if isinstance(value, Unknown):
        return False
    if isinstance(value, (list, tuple)):
        return all(known(v) for v in value)
    if isinstance(value, dict):
        return all(known(v) for v in value.values())
    return True


def first_unknown(value):
    """The first unknown part of a value, for its cause."""
    if isinstance(value, Unknown):
        return value
    items = value.values() if isinstance(value, dict) else (
        value if isinstance(value, (list, tuple)) else ())
    for v in items:
        u = first_unknown(v)
        if u is not None:
            return u
    return None


class External:
    """A name outside the project ('os.path', 'torch.cuda.is_available'),
    by the dotted name it is imported as."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, External) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "<%s>" % self.name


class PathValue(str):
    """A pathlib.Path: its text, with `/` joining."""
    def __truediv__(self, other):
        return PathValue(os.path.join(self, str(other)))

    def __rtruediv__(self, other):
        return PathValue(os.path.join(str(other), self))


class Namespace(dict):
    """A types.SimpleNamespace(...) value: its attributes are its items."""


class ModuleValue:
    """A Python file of the project, executed by the interpreter."""
    def __init__(self, ev):
        self.ev = ev


class FunctionValue:
    def __init__(self, scope, node):
        self.scope = scope  # where it was defined (its closure)
        self.node = node


class BoundMethod:
    def __init__(self, obj, name):
        self.obj = obj
        self.name = name


class SpecValue:
    """importlib.util.spec_from_file_location(name, path)'s spec."""
    def __init__(self, path):
        self.path = path


class ExtensionClass:
    """torch.utils.cpp_extension.CUDAExtension or CppExtension."""
    def __init__(self, kind):
        self.kind = kind

    def __eq__(self, other):
        return isinstance(other, ExtensionClass) and other.kind == self.kind

    def __hash__(self):
        return hash(self.kind)


class Flow(Exception):
    """return, break, continue or raise, leaving a block."""
    def __init__(self, kind):
        super().__init__(kind)
        self.kind = kind


class Budget(Exception):
    """The run executed MAX_STEPS statements."""


def find_torch():
    """Where torch's package is, without importing it (importlib's finder
    reads sys.path only), its version from torch/version.py's text (the
    package metadata when that has none: importing importlib.metadata
    costs more than the rest), and Python's include folder."""
    import importlib.util
    import re
    import sysconfig
    out = {"python": sys.version.split()[0]}
    spec = importlib.util.find_spec("torch")
    if spec is not None and spec.submodule_search_locations:
        out["torch"] = list(spec.submodule_search_locations)[0]
        try:
            with open(os.path.join(out["torch"], "version.py")) as f:
                m = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", f.read(), re.M)
            if m:
                out["version"] = m.group(1)
        except OSError:
            pass
        if "version" not in out:
            try:
                from importlib import metadata
                out["version"] = metadata.version("torch")
            except Exception:
                pass
    try:
        out["include"] = sysconfig.get_path("include", scheme="posix_prefix")
    except Exception:
        out["include"] = sysconfig.get_path("include")
    return out


def torch_version():
    found = find_torch().get("version")
    if found:
        return found.split("+")[0]
    # No torch, or no version: unknown.
    return Unknown(("", 0, "torch.__version__ (no torch package metadata)"))


def version_tuple(text):
    """'2.11.0' as (2, 11, 0), for parse_version(...) comparisons."""
    parts = []
    for p in str(text).split("+")[0].split("."):
        digits = "".join(c for c in p if c.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts) if parts else Unknown()


def cuda_home():
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            return os.environ[var]
    return "/usr/local/cuda"


# Whether os.getenv and os.environ read the environment. When setup.py
# builds no extension with the environment as it is (mamba builds its CUDA
# kernels only under MAMBA_KEEP_CUDA_BUILD=TRUE), it is read again with the
# environment unknown: the user sets it to build.
ENVIRONMENT = {"known": True}


def external_value(name):
    """The value of an attribute outside the project that a CUDA build of
    the installed torch sees, or External(name)."""
    if name == "torch.__version__":
        return torch_version()
    if name == "torch.version.hip":
        return None
    if name == "torch.__path__":
        # The package's folder, found as cuda-tidy finds torch: by
        # importlib's search of sys.path, without importing it.
        try:
            import importlib.util
            spec = importlib.util.find_spec("torch")
            if spec and spec.submodule_search_locations:
                return list(spec.submodule_search_locations)
        except (ImportError, ValueError):
            pass
        return Unknown(("", 0, "torch.__path__ (no torch package)"))
    if name in ("torch.utils.cpp_extension.CUDA_HOME",):
        return cuda_home()
    if name in ("torch.utils.cpp_extension.ROCM_HOME",):
        return None
    if name in ("os.path.curdir", "os.curdir"):
        return os.curdir
    if name in ("os.path.sep", "os.sep"):
        return os.sep
    if name in ("os.path.pardir", "os.pardir"):
        return os.pardir
    if name == "os.pathsep":
        return os.pathsep
    if name == "sys.platform":
        return sys.platform
    if name == "os.name":
        return os.name
    if name == "sys.argv":
        return Unknown(("", 0, "sys.argv"))
    if name == "sys.version_info":
        return tuple(sys.version_info[:3])
    if name in ("torch.utils.cpp_extension.CUDAExtension",
                "torch.utils.cpp_extension.CppExtension"):
        return ExtensionClass(name.rsplit(".", 1)[1])
    return External(name)


BUILTINS = {"list", "tuple", "sorted", "set", "frozenset", "len", "str", "int",
            "bool", "range", "enumerate", "zip", "reversed", "any", "all", "min",
            "max", "filter", "map", "print", "open", "isinstance", "dict", "sum",
            "float", "repr", "hasattr", "getattr", "abs", "type", "Exception",
            "RuntimeError", "ValueError", "OSError", "ImportError",
            "EnvironmentError", "TypeError", "KeyError", "AttributeError",
            "NotImplementedError", "FileNotFoundError", "Warning", "object",
            "super", "iter", "next", "exit", "quit"}


def copy_value(v, memo):
    """A copy of a value for one branch: lists, dicts and namespaces are
    copied (the branch may change them), the rest is shared."""
    if isinstance(v, (list, dict)):
        if id(v) in memo:
            return memo[id(v)]
        if isinstance(v, list):
            out = []
            memo[id(v)] = out
            out.extend(copy_value(x, memo) for x in v)
        else:
            out = type(v)()
            memo[id(v)] = out
            for k, x in v.items():
                out[k] = copy_value(x, memo)
        return out
    return v


def join(a, b, cause):
    """A value after a branch of unknown test: a on one side, b on the
    other."""
    if a is b:
        return a
    if isinstance(a, ExtensionClass) and isinstance(b, ExtensionClass):
        # The class a CUDA build uses.
        return a if a.kind == "CUDAExtension" else b
    if isinstance(a, list) and isinstance(b, list):
        out = list(a)
        for x in b:
            if not any(x is y or type(x) is type(y) and x == y for y in out):
                out.append(x)
        return out
    if isinstance(a, dict) and isinstance(b, dict) and type(a) is type(b):
        out = type(a)()
        for k in list(a) + [k for k in b if k not in a]:
            out[k] = join(a[k], b[k], cause) if k in a and k in b else (
                a[k] if k in a else b[k])
        return out
    try:
        if type(a) is type(b) and a == b:
            return a
    except Exception:
        pass
    if isinstance(a, Unknown):
        return a
    if isinstance(b, Unknown):
        return b
    return Unknown(cause)


class Run:
    """What one reading of setup.py shares: the modules parsed, the
    extensions and load() calls seen, the statements executed."""
    def __init__(self, root):
        self.root = root
        self.modules = {}
        self.extensions = []   # (scope, call node, values)
        self.loads = []
        self.called = set()    # function nodes called at least once
        self.steps = 0
        self.loop_causes = []
        self.raises = []       # the raise statements reached
        self.stopped = []      # those that stopped a module


class Evaluator:
    """The names of one scope: a file (setup.py or a helper module), or one
    call of a function of the project (with `parent`, its closure)."""
    def __init__(self, path, run, parent=None, depth=0):
        self.path = os.path.abspath(path)
        self.run = run
        self.root = run.root
        self.parent = parent
        self.depth = depth
        self.env = {}
        self.globals_ = set()
        self.returns = []
        if parent is None:
            self.env["__file__"] = self.path
            self.env["__name__"] = "__main__" if os.path.basename(
                self.path) == "setup.py" else os.path.splitext(
                os.path.basename(self.path))[0]

    # ------------------------------------------------------------------
    # names

    def file_scope(self):
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def lookup(self, ident):
        scope = self
        while scope is not None:
            if ident in scope.env:
                return scope.env[ident]
            scope = scope.parent
        if ident in BUILTINS:
            return External(ident)
        if ident in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[ident]
        return None

    def name(self, node):
        scope = self
        while scope is not None:
            if node.id in scope.env:
                return scope.env[node.id]
            scope = scope.parent
        if node.id in BUILTINS:
            return External(node.id)
        return self.unknown(node, "the name '%s' is not bound" % node.id)

    def store(self, ident, value):
        if ident in self.globals_:
            self.file_scope().env[ident] = value
        else:
            self.env[ident] = value

    def cause(self, node, text=None):
        """Where and what made a value unknown, as the warning says it."""
        line = getattr(node, "lineno", 0)
        if text is None:
            try:
                text = "'%s'" % ast.unparse(node)
            except Exception:
                text = type(node).__name__
            if len(text) > 72:
                text = text[:68] + "...'"
        return (self.path, line, "cannot evaluate " + text)

    def unknown(self, node, text=None):
        return Unknown(self.cause(node, text))

    # ------------------------------------------------------------------
    # modules

    def module_file(self, dotted, level):
        """The project file of module `dotted` (relative to this file's
        folder for `from . import`), or None for a module outside it."""
        here = os.path.dirname(self.path)
        bases = []
        if level:
            base = here
            for _ in range(level - 1):
                base = os.path.dirname(base)
            bases.append(base)
        else:
            bases.extend([here, self.root])
        rel = dotted.split(".") if dotted else []
        if not rel and not level:
            return None
        for base in bases:
            for candidate in (os.path.join(base, *rel) + ".py",
                              os.path.join(base, *rel, "__init__.py")):
                if os.path.isfile(candidate):
                    return candidate
        return None

    def load_module(self, path):
        """The scope of a project file, executed once per run."""
        if not isinstance(path, str):
            return None
        path = os.path.abspath(path if os.path.isabs(path)
                               else os.path.join(self.root, path))
        inside = os.path.commonpath([path, self.root]) == self.root
        if not inside or not path.endswith(".py") or not os.path.isfile(path):
            return None
        modules = self.run.modules
        if path not in modules:
            if len(modules) >= MAX_MODULES:
                return None
            modules[path] = None  # guards against an import cycle
            try:
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read(), filename=path)
            except (OSError, SyntaxError, ValueError):
                return None
            ev = Evaluator(path, self.run)
            ev.tree = tree
            modules[path] = ev
            ev.execute_module(tree)
        ev = modules[path]
        return ModuleValue(ev) if ev is not None else None

    def execute_module(self, tree):
        try:
            self.block(tree.body)
        except Flow as f:
            if f.kind == "raise" and self.run.raises:
                self.run.stopped.append(self.run.raises[-1])
        except RecursionError:
            pass
        self.call_uncalled(tree)

    def call_uncalled(self, tree):
        """Calls each function of the file that makes an extension or
        load() call and was not called, its parameters unknown."""
        methods = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
                   for f in ast.walk(c)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    or id(node) in methods:
                continue
            if id(node) in self.run.called or not self.makes_extension(node):
                continue
            fv = FunctionValue(self, node)
            self.call_function(fv, [], {}, node, unknown_args=True)

    def makes_extension(self, fn):
        for n in ast.walk(fn):
            if isinstance(n, ast.Call):
                f = n.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in ("CUDAExtension", "CppExtension", "load") \
                        or name and name[0].isupper() and "xtension" in name:
                    return True
        return False

    # ------------------------------------------------------------------
    # statements

    def block(self, stmts):
        for s in stmts:
            self.statement(s)

    def statement(self, s):
        self.run.steps += 1
        if self.run.steps > MAX_STEPS:
            raise Budget()
        if isinstance(s, ast.Expr):
            self.eval(s.value)
        elif isinstance(s, ast.Assign):
            value = self.eval(s.value)
            for t in s.targets:
                self.assign(t, value)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.assign(s.target, self.eval(s.value))
        elif isinstance(s, ast.AugAssign):
            self.aug_assign(s)
        elif isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.store(s.name, FunctionValue(self, s))
        elif isinstance(s, ast.ClassDef):
            self.store(s.name, self.unknown(s, "the class '%s'" % s.name))
        elif isinstance(s, ast.Import):
            for a in s.names:
                self.import_name(a)
        elif isinstance(s, ast.ImportFrom):
            self.import_from(s)
        elif isinstance(s, ast.If):
            self.branch(s.test, s.body, s.orelse, s)
        elif isinstance(s, ast.For):
            self.for_loop(s)
        elif isinstance(s, ast.While):
            self.while_loop(s)
        elif isinstance(s, ast.With):
            for item in s.items:
                v = self.eval(item.context_expr)
                if item.optional_vars is not None:
                    self.assign(item.optional_vars,
                                self.unknown(item.context_expr) if not unknown(v) else v)
            self.block(s.body)
        elif isinstance(s, ast.Try) or type(s).__name__ == "TryStar":
            try:
                self.block(s.body)
                self.block(s.orelse)
            finally:
                self.block(s.finalbody)
        elif isinstance(s, ast.Return):
            self.returns.append(self.eval(s.value) if s.value is not None else None)
            raise Flow("return")
        elif isinstance(s, ast.Break):
            raise Flow("break")
        elif isinstance(s, ast.Continue):
            raise Flow("continue")
        elif isinstance(s, ast.Raise):
            self.run.raises.append((self.path, s.lineno, "'%s'" % ast.unparse(s)[:70]))
            raise Flow("raise")
        elif isinstance(s, ast.Global):
            self.globals_.update(s.names)
        # pass, del, assert, nonlocal, match: nothing the commands need

    def import_name(self, a):
        path = self.module_file(a.name, 0)
        module = self.load_module(path) if path else None
        if a.asname:
            self.store(a.asname, module if module else External(a.name))
        else:
            top = a.name.split(".")[0]
            if module and "." not in a.name:
                self.store(top, module)
            else:
                self.store(top, External(top))

    def import_from(self, s):
        if s.module == "__future__":
            return
        dotted = s.module or ""
        for a in s.names:
            if a.name == "*":
                path = self.module_file(dotted, s.level)
                module = self.load_module(path) if path else None
                if module:
                    for k, v in module.ev.env.items():
                        if not k.startswith("_"):
                            self.store(k, v)
                continue
            target = a.asname or a.name
            sub = self.module_file((dotted + "." if dotted else "") + a.name, s.level)
            if sub:
                module = self.load_module(sub)
                if module:
                    self.store(target, module)
                    continue
            path = self.module_file(dotted, s.level) if (dotted or s.level) else None
            module = self.load_module(path) if path else None
            if module:
                self.store(target, module.ev.env.get(
                    a.name, self.unknown(s, "'%s' of %s" % (a.name, dotted or "."))))
            elif s.level:
                self.store(target, self.unknown(s))
            else:
                self.store(target, external_value(dotted + "." + a.name))

    def assign(self, target, value):
        if isinstance(target, ast.Name):
            self.store(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            n = len(target.elts)
            starred = [i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)]
            if isinstance(value, (list, tuple)) and (
                    len(value) == n or starred and len(value) >= n - 1):
                if starred:
                    i = starred[0]
                    rest = n - i - 1
                    parts = list(value[:i]) + [list(value[i:len(value) - rest])] + \
                        list(value[len(value) - rest:])
                else:
                    parts = list(value)
                for e, v in zip(target.elts, parts):
                    self.assign(e.value if isinstance(e, ast.Starred) else e, v)
            else:
                u = value if unknown(value) else self.unknown(target, "the unpacking '%s'" % ast.unparse(target))
                for e in target.elts:
                    self.assign(e.value if isinstance(e, ast.Starred) else e, u)
        elif isinstance(target, ast.Subscript):
            base = self.eval(target.value)
            key = self.eval(target.slice)
            if isinstance(base, dict) and not unknown(key):
                try:
                    base[key] = value
                except TypeError:
                    pass
            elif isinstance(base, list) and isinstance(key, int) \
                    and -len(base) <= key < len(base):
                base[key] = value
        elif isinstance(target, ast.Attribute):
            base = self.eval(target.value)
            if isinstance(base, Namespace):
                base[target.attr] = value
            elif isinstance(base, ModuleValue):
                base.ev.env[target.attr] = value

    def aug_assign(self, s):
        current = self.eval(s.target)
        value = self.eval(s.value)
        if isinstance(s.op, ast.Add) and isinstance(current, list):
            # Python extends the list in place (an alias sees it).
            if isinstance(value, (list, tuple)):
                current.extend(value)
            else:
                current.append(self.unknown(s.value) if not unknown(value) else value)
            return
        self.assign(s.target, self.binop(s.op, current, value, s))

    def branch(self, test, body, orelse, node):
        t = self.truth(self.eval(test))
        if t is True:
            self.block(body)
            return
        if t is False:
            self.block(orelse)
            return
        # Unknown: both branches, on copies of the names, then joined.
        self.both(lambda: self.block(body), lambda: self.block(orelse), node)

    def scopes_env(self):
        """The scopes whose names a branch may change."""
        scopes = []
        scope = self
        while scope is not None:
            scopes.append(scope)
            scope = scope.parent
        return scopes

    def both(self, first, second, node):
        scopes = self.scopes_env()
        saved = [s.env for s in scopes]
        memo = {}
        copies = [[{k: copy_value(v, memo) for k, v in env.items()} for env in saved]
                  for _ in range(2)]
        results = []
        for run, envs in zip((first, second), copies):
            for s, env in zip(scopes, envs):
                s.env = env
            flow = None
            try:
                run()
            except Flow as f:
                flow = f.kind
            results.append((flow, envs))
        cause = self.cause(node, "the branches of the test '%s'" % (
            ast.unparse(node.test)[:60] if hasattr(node, "test") else "?"))
        live = [envs for flow, envs in results if flow is None]
        if not live:
            # Both branches left the block (return, break, raise): the
            # block ends as the first did.
            for s, env in zip(scopes, results[0][1]):
                s.env = env
            raise Flow(results[0][0])
        if len(live) == 1:
            for s, env in zip(scopes, live[0]):
                s.env = env
            return
        for i, s in enumerate(scopes):
            a, b = live[0][i], live[1][i]
            out = {}
            for k in list(a) + [k for k in b if k not in a]:
                out[k] = join(a[k], b[k], cause) if k in a and k in b else (
                    a[k] if k in a else b[k])
            s.env = out

    def iterate(self, value, node):
        """The items of a value that a loop or comprehension runs over."""
        if isinstance(value, (list, tuple)):
            return list(value)
        if isinstance(value, dict):
            return list(value.keys())
        if isinstance(value, str):
            return list(value)
        return None

    def for_loop(self, s):
        seq = self.iterate(self.eval(s.iter), s.iter)
        if seq is None or len(seq) > MAX_ITERATIONS:
            # Not known: the body once, its variable unknown, joined with
            # the loop not run.
            cause = self.cause(s.iter, "the loop over '%s'" % ast.unparse(s.iter)[:60])
            self.run.loop_causes.append(cause)

            def once():
                self.assign(s.target, Unknown(cause))
                try:
                    self.block(s.body)
                except Flow as f:
                    if f.kind not in ("break", "continue"):
                        raise
            self.both(once, lambda: None, s)
            return
        for item in seq:
            self.assign(s.target, item)
            try:
                self.block(s.body)
            except Flow as f:
                if f.kind == "break":
                    return
                if f.kind == "continue":
                    continue
                raise
        self.block(s.orelse)

    def while_loop(self, s):
        for _ in range(MAX_ITERATIONS):
            t = self.truth(self.eval(s.test))
            if t is False:
                self.block(s.orelse)
                return
            if t is None:
                def once():
                    try:
                        self.block(s.body)
                    except Flow as f:
                        if f.kind not in ("break", "continue"):
                            raise
                self.both(once, lambda: None, s)
                return
            try:
                self.block(s.body)
            except Flow as f:
                if f.kind == "break":
                    return
                if f.kind != "continue":
                    raise

    # ------------------------------------------------------------------
    # expressions

    def truth(self, v):
        """A value's truth: True, False, or None when it is not known."""
        if isinstance(v, Unknown):
            return v.truth
        if isinstance(v, (External, BoundMethod)):
            return None
        if isinstance(v, (list, tuple, dict)) and not known(v):
            return True if len(v) else False
        try:
            return bool(v)
        except Exception:
            return None

    def eval(self, node):
        try:
            return self._eval(node)
        except (Flow, Budget):
            raise
        except RecursionError:
            raise
        except Exception:  # a value of a type the operation does not take
            return self.unknown(node)

    def _eval(self, node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Attribute):
            base = self.eval(node.value)
            return self.attribute(base, node.attr, node)
        if isinstance(node, ast.IfExp):
            t = self.truth(self.eval(node.test))
            if t is None:
                a, b = self.eval(node.body), self.eval(node.orelse)
                return join(a, b, self.cause(node.test, "the test '%s'" % ast.unparse(node.test)[:60]))
            return self.eval(node.body if t else node.orelse)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            out = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    v = self.eval(e.value)
                    items = self.iterate(v, e.value)
                    if items is None:
                        out.append(v if unknown(v) else self.unknown(e))
                    else:
                        out.extend(items)
                else:
                    out.append(self.eval(e))
            return tuple(out) if isinstance(node, ast.Tuple) else out
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    d = self.eval(v)
                    if isinstance(d, dict):
                        out.update(d)
                    continue
                key = self.eval(k)
                if not unknown(key):
                    try:
                        out[key] = self.eval(v)
                    except TypeError:
                        pass
            return out
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.eval(node.left), self.eval(node.right), node)
        if isinstance(node, ast.UnaryOp):
            v = self.eval(node.operand)
            if isinstance(node.op, ast.Not):
                t = self.truth(v)
                return Unknown(v.cause if unknown(v) else self.cause(node)) \
                    if t is None else not t
            if unknown(v):
                return v
            if isinstance(node.op, ast.USub):
                return -v
            if isinstance(node.op, ast.UAdd):
                return +v
            return self.unknown(node)
        if isinstance(node, ast.BoolOp):
            return self.boolop(node)
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    parts.append(str(v.value))
                else:
                    x = self.eval(v.value)
                    if unknown(x):
                        return x
                    if not isinstance(x, (str, int, float)):
                        return self.unknown(v.value)
                    spec = self.eval(v.format_spec) if v.format_spec else ""
                    parts.append(format(x, spec if isinstance(spec, str) else ""))
            return "".join(parts)
        if isinstance(node, ast.FormattedValue):
            return self.eval(node.value)
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Slice):
            parts = [self.eval(p) if p is not None else None
                     for p in (node.lower, node.upper, node.step)]
            if any(unknown(p) for p in parts):
                return self.unknown(node)
            return slice(*parts)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return self.comprehension(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Lambda):
            return FunctionValue(self, node)
        if isinstance(node, ast.NamedExpr):
            v = self.eval(node.value)
            self.assign(node.target, v)
            return v
        return self.unknown(node)

    def attribute(self, base, attr, node):
        if isinstance(base, External):
            return external_value(base.name + "." + attr)
        if isinstance(base, Namespace):
            return base.get(attr, self.unknown(node))
        if isinstance(base, ModuleValue):
            if attr in base.ev.env:
                return base.ev.env[attr]
            sub = base.ev.module_file(
                os.path.splitext(os.path.relpath(base.ev.path, self.root))[0]
                .replace(os.sep, ".").replace(".__init__", "") + "." + attr, 0)
            module = self.load_module(sub) if sub else None
            return module if module else self.unknown(node)
        if isinstance(base, SpecValue) and attr == "loader":
            return base
        if isinstance(base, PathValue) and attr in ("parent", "name", "stem", "suffix"):
            if attr == "parent":
                return PathValue(os.path.dirname(base) or ".")
            if attr == "name":
                return os.path.basename(base)
            stem, suffix = os.path.splitext(os.path.basename(base))
            return stem if attr == "stem" else suffix
        if isinstance(base, (str, list, dict, tuple)):
            return BoundMethod(base, attr)
        if unknown(base):
            return base
        return self.unknown(node)

    def subscript(self, node):
        base, key = self.eval(node.value), self.eval(node.slice)
        if isinstance(base, External) and base.name == "os.environ":
            if not ENVIRONMENT["known"] or not isinstance(key, str):
                return self.unknown(node, "the environment variable '%s'" % key)
            if key in os.environ:
                return os.environ[key]
            return self.unknown(node, "the environment variable '%s' (not set)" % key)
        if unknown(base):
            return base
        if unknown(key):
            return key
        if isinstance(base, dict):
            try:
                if key in base:
                    return base[key]
            except TypeError:
                pass
            return self.unknown(node)
        if isinstance(base, (list, tuple, str)):
            if isinstance(key, slice) or isinstance(key, int) and -len(base) <= key < len(base):
                return base[key]
        return self.unknown(node)

    def boolop(self, node):
        is_or = isinstance(node.op, ast.Or)
        pending = None  # an unknown operand before the deciding one
        value = None
        for v in node.values:
            x = self.eval(v)
            t = self.truth(x)
            if t is None:
                if pending is None:
                    pending = x if unknown(x) else self.unknown(v)
                value = x
                continue
            value = x
            if t == is_or:
                # This operand decides: Python's value when nothing before
                # was unknown; else only the truth is known.
                if pending is None:
                    return x
                return Unknown(pending.cause, truth=is_or)
        if pending is not None:
            return Unknown(pending.cause, truth=None)
        return value

    def compare(self, node):
        left = self.eval(node.left)
        result = True
        for op, right_node in zip(node.ops, node.comparators):
            right = self.eval(right_node)
            r = self.compare_one(op, left, right, node)
            if unknown(r):
                return r
            if not r:
                return False
            left = right
        return result

    def compare_one(self, op, a, b, node):
        if isinstance(op, (ast.Is, ast.IsNot)):
            if unknown(a) or unknown(b):
                return a if unknown(a) else b
            same = a is b if (a is None or b is None or isinstance(a, bool)) else a == b
            return same if isinstance(op, ast.Is) else not same
        for v in (a, b):
            if unknown(v):
                return v
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(b, External) \
                and b.name == "os.environ" and isinstance(a, str) and ENVIRONMENT["known"]:
            return (a in os.environ) == isinstance(op, ast.In)
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(b, (list, tuple, dict)) \
                and not known(b):
            if a in b:
                return isinstance(op, ast.In)
            return first_unknown(b) if not isinstance(b, dict) else self.unknown(node)
        for v in (a, b):
            if isinstance(v, (External, BoundMethod, FunctionValue, ModuleValue)):
                return self.unknown(node)
        if isinstance(a, tuple) and isinstance(b, str):
            b = version_tuple(b)
        elif isinstance(b, tuple) and isinstance(a, str):
            a = version_tuple(a)
        if unknown(a) or unknown(b):
            return self.unknown(node)
        ops = {ast.Eq: lambda: a == b, ast.NotEq: lambda: a != b,
               ast.Lt: lambda: a < b, ast.LtE: lambda: a <= b,
               ast.Gt: lambda: a > b, ast.GtE: lambda: a >= b,
               ast.In: lambda: a in b, ast.NotIn: lambda: a not in b}
        f = ops.get(type(op))
        if f is None:
            return self.unknown(node)
        try:
            return f()
        except TypeError:
            return self.unknown(node)

    def binop(self, op, a, b, node):
        # A list and something unknown: the list's items stay known (the
        # flags of `["-O3"] + flags_from_a_file()`).
        if isinstance(op, ast.Add) and isinstance(a, list) and unknown(b):
            return a + [b]
        if isinstance(op, ast.Add) and unknown(a) and isinstance(b, list):
            return [a] + b
        if unknown(a):
            return a
        if unknown(b):
            return b
        for v in (a, b):
            if isinstance(v, (External, BoundMethod, FunctionValue, ModuleValue,
                              ExtensionClass, SpecValue)):
                return self.unknown(node)
        if isinstance(op, ast.Div) and (isinstance(a, PathValue) or isinstance(b, PathValue)) \
                and isinstance(a, str) and isinstance(b, str):
            return PathValue(os.path.join(a, b))
        try:
            if isinstance(op, ast.Add):
                if isinstance(a, list) and isinstance(b, tuple):
                    b = list(b)
                return a + b
            if isinstance(op, ast.Sub):
                if isinstance(a, list) and isinstance(b, list):
                    return [x for x in a if x not in b]  # sets are lists here
                return a - b
            if isinstance(op, ast.Mult):
                return a * b
            if isinstance(op, ast.Mod):
                if isinstance(a, str) and isinstance(b, list):
                    b = tuple(b)
                return a % b
            if isinstance(op, ast.Div):
                return a / b
            if isinstance(op, ast.FloorDiv):
                return a // b
            if isinstance(op, ast.BitOr):
                if isinstance(a, dict) and isinstance(b, dict):
                    out = type(a)(a)
                    out.update(b)
                    return out
                if isinstance(a, list) and isinstance(b, list):
                    return a + [x for x in b if x not in a]
                return a | b
            if isinstance(op, ast.BitAnd):
                if isinstance(a, list) and isinstance(b, list):
                    return [x for x in a if x in b]
                return a & b
        except Exception:
            pass
        return self.unknown(node)

    def comprehension(self, node):
        out = [] if not isinstance(node, ast.DictComp) else {}
        scope = Evaluator(self.path, self.run, parent=self, depth=self.depth)

        def gen(i):
            if i == len(node.generators):
                if isinstance(node, ast.DictComp):
                    k = scope.eval(node.key)
                    if not unknown(k):
                        out[k] = scope.eval(node.value)
                else:
                    out.append(scope.eval(node.elt))
                return True
            g = node.generators[i]
            seq = scope.iterate(scope.eval(g.iter), g.iter)
            if seq is None:
                return False
            for item in seq:
                scope.assign(g.target, item)
                kept = [scope.truth(scope.eval(t)) for t in g.ifs]
                if None in kept:
                    return False
                if all(kept):
                    if not gen(i + 1):
                        return False
            return True
        if not gen(0):
            return self.unknown(node)
        if isinstance(node, ast.SetComp):
            dedup = []
            for x in out:
                if x not in dedup:
                    dedup.append(x)
            return dedup
        return out

    # ------------------------------------------------------------------
    # calls

    def call(self, node):
        func = self.eval(node.func)
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                v = self.eval(a.value)
                items = self.iterate(v, a.value)
                if items is None:
                    return v if unknown(v) else self.unknown(a)
                args.extend(items)
            else:
                args.append(self.eval(a))
        kwargs = {}
        for k in node.keywords:
            v = self.eval(k.value)
            if k.arg is None:
                if isinstance(v, dict):
                    kwargs.update(v)
                else:
                    return v if unknown(v) else self.unknown(k.value)
            else:
                kwargs[k.arg] = v
        if isinstance(func, FunctionValue):
            return self.call_function(func, args, kwargs, node)
        if isinstance(func, ExtensionClass):
            self.run.extensions.append((self, node, func.kind, args, kwargs))
            return Namespace(extension=func.kind)
        if isinstance(func, BoundMethod):
            return self.method(func, args, kwargs, node)
        if isinstance(func, External):
            return self.external_call(func.name, args, kwargs, node)
        if unknown(func):
            return func
        return self.unknown(node)

    def call_function(self, fv, args, kwargs, node, unknown_args=False):
        """A project function's value, from its return statement(s), with
        its parameters bound to the arguments."""
        fn = fv.node
        self.run.called.add(id(fn))
        if self.depth >= MAX_CALL_DEPTH:
            return self.unknown(node, "'%s' (calls nested too deep)" % ast.unparse(node)[:60])
        scope = Evaluator(fv.scope.path, self.run, parent=fv.scope, depth=self.depth + 1)
        a = fn.args
        params = a.posonlyargs + a.args
        cause = self.cause(node, "a parameter of '%s'" % getattr(fn, "name", "lambda"))
        for p in params + a.kwonlyargs:
            scope.env[p.arg] = Unknown(cause)
        if not unknown_args:
            defaults = a.defaults
            for p, d in zip(params[len(params) - len(defaults):], defaults):
                scope.env[p.arg] = fv.scope.eval(d)
            for p, d in zip(a.kwonlyargs, a.kw_defaults):
                if d is not None:
                    scope.env[p.arg] = fv.scope.eval(d)
            for p, v in zip(params, args):
                scope.env[p.arg] = v
            if a.vararg:
                scope.env[a.vararg.arg] = list(args[len(params):])
            extra = {}
            for k, v in kwargs.items():
                if any(p.arg == k for p in params + a.kwonlyargs):
                    scope.env[k] = v
                else:
                    extra[k] = v
            if a.kwarg:
                scope.env[a.kwarg.arg] = extra
        else:
            if a.vararg:
                scope.env[a.vararg.arg] = Unknown(cause)
            if a.kwarg:
                scope.env[a.kwarg.arg] = Unknown(cause)
        if isinstance(fn, ast.Lambda):
            return scope.eval(fn.body)
        try:
            scope.block(fn.body)
        except Flow as f:
            if f.kind == "raise" and not scope.returns:
                return self.unknown(node, "'%s' (it raises)" % ast.unparse(node)[:60])
        if not scope.returns:
            return None
        value = scope.returns[0]
        for r in scope.returns[1:]:
            value = join(value, r, self.cause(node))
        return value

    def method(self, bm, args, kwargs, node):
        obj, name = bm.obj, bm.name
        if isinstance(obj, list):
            if name == "append" and len(args) == 1:
                obj.append(args[0])
                return None
            if name == "extend" and len(args) == 1:
                items = self.iterate(args[0], node)
                if items is None:
                    obj.append(args[0] if unknown(args[0]) else self.unknown(node))
                else:
                    obj.extend(items)
                return None
            if name == "insert" and len(args) == 2 and isinstance(args[0], int):
                obj.insert(args[0], args[1])
                return None
            if name == "remove" and len(args) == 1:
                if args[0] in obj:
                    obj.remove(args[0])
                return None
            if name == "pop":
                if obj and (not args or isinstance(args[0], int)):
                    return obj.pop(*args)
                return self.unknown(node)
            if name == "copy":
                return list(obj)
            if name in ("index", "count") and args:
                try:
                    return getattr(obj, name)(*args)
                except ValueError:
                    return self.unknown(node)
            if name == "sort":
                if known(obj) and not kwargs:
                    obj.sort()
                return None
            return self.unknown(node)
        if isinstance(obj, dict):
            if name == "get" and 1 <= len(args) <= 2:
                if unknown(args[0]):
                    return args[0]
                return obj.get(args[0], args[1] if len(args) > 1 else None)
            if name == "setdefault" and 1 <= len(args) <= 2 and not unknown(args[0]):
                return obj.setdefault(args[0], args[1] if len(args) > 1 else None)
            if name == "update":
                for a in args:
                    if isinstance(a, dict):
                        obj.update(a)
                obj.update(kwargs)
                return None
            if name == "keys":
                return list(obj.keys())
            if name == "values":
                return list(obj.values())
            if name == "items":
                return [(k, v) for k, v in obj.items()]
            if name == "copy":
                return type(obj)(obj)
            if name == "pop" and args and not unknown(args[0]):
                if args[0] in obj:
                    return obj.pop(args[0])
                return args[1] if len(args) > 1 else self.unknown(node)
            return self.unknown(node)
        if isinstance(obj, PathValue):
            if any(unknown(a) for a in args):
                return next(a for a in args if unknown(a))
            if name in ("resolve", "absolute"):
                return PathValue(os.path.normpath(self.real_path(obj)))
            if name in ("exists", "is_dir", "is_file"):
                test = {"exists": os.path.exists, "is_dir": os.path.isdir,
                        "is_file": os.path.isfile}[name]
                return test(self.real_path(obj))
            if name == "joinpath" and all(isinstance(a, str) for a in args):
                return PathValue(os.path.join(obj, *args))
            if name in ("as_posix", "__str__", "__fspath__"):
                return str(obj)
            if name == "with_suffix" and len(args) == 1 and isinstance(args[0], str):
                return PathValue(os.path.splitext(obj)[0] + args[0])
            if name in ("glob", "rglob") and len(args) == 1 and isinstance(args[0], str):
                pattern = os.path.join(self.real_path(obj), "**" if name == "rglob"
                                       else "", args[0])
                found = sorted(glob.glob(pattern, recursive=name == "rglob"))
                if not os.path.isabs(obj):
                    found = [os.path.relpath(f, self.root) for f in found]
                return [PathValue(f) for f in found]
        if isinstance(obj, (str, tuple)):
            if any(unknown(a) for a in args):
                return next(a for a in args if unknown(a))
            if isinstance(obj, str) and name == "join" and len(args) == 1:
                items = self.iterate(args[0], node)
                if items is None or not all(isinstance(x, str) for x in items):
                    return first_unknown(items) if items else self.unknown(node)
                return obj.join(items)
            if isinstance(obj, str) and name in (
                    "format", "split", "rsplit", "strip", "lstrip", "rstrip",
                    "replace", "startswith", "endswith", "lower", "upper",
                    "splitlines", "partition", "rpartition", "find", "rfind",
                    "count", "zfill", "isdigit", "removeprefix", "removesuffix"):
                try:
                    v = getattr(obj, name)(*args, **kwargs)
                    return list(v) if isinstance(v, tuple) else v
                except (IndexError, KeyError, TypeError, ValueError, AttributeError):
                    return self.unknown(node)
            if isinstance(obj, tuple) and name in ("index", "count"):
                try:
                    return getattr(obj, name)(*args)
                except ValueError:
                    return self.unknown(node)
        return self.unknown(node)

    def real_path(self, p):
        return p if os.path.isabs(p) else os.path.join(self.root, p)

    def external_call(self, name, args, kwargs, node):
        short = name.rsplit(".", 1)[-1]
        # What a CUDA build of the installed torch sees.
        if name == "torch.cuda.is_available":
            return True
        if name in ("torch.backends.mps.is_available", "torch.backends.mps.is_built",
                    "torch.xpu.is_available", "torch.npu.is_available",
                    "torch.mlu.is_available"):
            return False
        if name == "platform.system":
            import platform
            return platform.system()
        if name == "platform.machine":
            import platform
            return platform.machine()
        if name in ("print", "warnings.warn", "logging.info", "logging.warning",
                    "os.makedirs", "os.mkdir"):
            return None
        if name in ("os.getenv", "os.environ.get"):
            if not args or not isinstance(args[0], str):
                return self.unknown(node)
            default = args[1] if len(args) > 1 else kwargs.get("default")
            if not ENVIRONMENT["known"]:
                return self.unknown(node, "the environment variable '%s'" % args[0])
            return os.environ.get(args[0], default)
        if short in ("parse_version", "parse", "LooseVersion", "StrictVersion",
                     "Version") and len(args) == 1:
            if unknown(args[0]):
                return args[0]
            return version_tuple(args[0])
        if short == "SimpleNamespace" and not args:
            return Namespace(kwargs)
        if name == "dict":
            out = {}
            if args and isinstance(args[0], dict):
                out.update(args[0])
            elif args and isinstance(args[0], list):
                for kv in args[0]:
                    if isinstance(kv, (list, tuple)) and len(kv) == 2:
                        out[kv[0]] = kv[1]
            out.update(kwargs)
            return out
        if name.endswith("spec_from_file_location") and len(args) >= 2 \
                and isinstance(args[1], str):
            return SpecValue(args[1])
        if name.endswith("module_from_spec") and len(args) == 1 \
                and isinstance(args[0], SpecValue):
            m = self.load_module(args[0].path)
            return m if m else self.unknown(node)
        if name.endswith("exec_module"):
            return None
        if name == "torch.utils.cpp_extension.load" or name.endswith(
                "cpp_extension.load"):
            self.run.loads.append((self, node, args, kwargs))
            return self.unknown(node, "the module that load() builds")
        for a in args:
            if unknown(a):
                return a
        for v in kwargs.values():
            if unknown(v):
                return v
        if name in ("pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath") \
                and all(isinstance(a, str) for a in args):
            return PathValue(os.path.join(*args) if args else ".")
        if name in ("os.path.join", "posixpath.join"):
            if args and all(isinstance(a, str) for a in args):
                return os.path.join(*args)
            return self.unknown(node)
        if name.startswith(("os.path.", "posixpath.")) and args and isinstance(args[0], str):
            fn = short
            if fn in ("dirname", "basename", "normpath", "splitext", "split"):
                v = getattr(os.path, fn)(args[0])
                return list(v) if isinstance(v, tuple) else v
            if fn in ("abspath", "realpath"):
                return os.path.normpath(self.real_path(args[0]))
            if fn == "expanduser":
                return os.path.expanduser(args[0])
            if fn in ("isdir", "isfile", "exists", "islink"):
                return getattr(os.path, fn)(self.real_path(args[0]))
            if fn == "relpath" and 1 <= len(args) <= 2 and all(isinstance(a, str) for a in args):
                start = self.real_path(args[1]) if len(args) == 2 else self.root
                return os.path.relpath(self.real_path(args[0]), start)
            if fn == "isabs":
                return os.path.isabs(args[0])
        if name in ("glob.glob", "glob.iglob") and args and isinstance(args[0], str):
            pattern = self.real_path(args[0])
            found = sorted(glob.glob(pattern, recursive=bool(kwargs.get("recursive"))))
            if not os.path.isabs(args[0]):
                found = [os.path.relpath(f, self.root) for f in found]
            return found
        if name == "os.listdir":
            folder = self.real_path(args[0]) if args else self.root
            try:
                return sorted(os.listdir(folder))
            except OSError:
                return self.unknown(node)
        if name == "os.walk" and args and isinstance(args[0], str):
            out = []
            for folder, dirs, files in os.walk(self.real_path(args[0])):
                dirs.sort()
                if not os.path.isabs(args[0]):
                    folder = os.path.relpath(folder, self.root)
                out.append((folder, list(dirs), sorted(files)))
            return out
        if name == "itertools.product":
            seqs = [self.iterate(a, node) for a in args]
            if any(s is None for s in seqs):
                return self.unknown(node)
            repeat = kwargs.get("repeat", 1)
            return [tuple(p) for p in itertools.product(*seqs, repeat=repeat)]
        if name in ("itertools.chain", "itertools.chain.from_iterable"):
            seqs = [self.iterate(a, node) for a in (
                args if name == "itertools.chain" else (args[0] if args else []))]
            if any(s is None for s in seqs):
                return self.unknown(node)
            return [x for s in seqs for x in s]
        if name in ("list", "tuple", "sorted", "set", "frozenset", "reversed"):
            if not args:
                return [] if name != "tuple" else ()
            items = self.iterate(args[0], node)
            if items is None:
                return self.unknown(node)
            if name == "sorted":
                if "key" in kwargs or not all(isinstance(x, (str, int)) for x in items):
                    return items if "key" not in kwargs else self.unknown(node)
                return sorted(items, reverse=bool(kwargs.get("reverse")))
            if name in ("set", "frozenset"):
                out = []
                for x in items:
                    if x not in out:
                        out.append(x)
                return out
            if name == "reversed":
                return items[::-1]
            return tuple(items) if name == "tuple" else items
        if name == "len" and len(args) == 1 and isinstance(args[0], (list, tuple, str, dict)):
            return len(args[0])
        if name in ("os.fspath",) and len(args) == 1 and isinstance(args[0], str):
            return str(args[0])
        if name in ("str", "repr") and len(args) == 1 and isinstance(args[0], (str, int, float, bool)):
            return str(args[0]) if name == "str" else repr(args[0])
        if name in ("int", "float") and args and isinstance(args[0], (str, int, float)):
            try:
                return int(*args) if name == "int" else float(args[0])
            except ValueError:
                return self.unknown(node)
        if name == "bool" and len(args) == 1:
            t = self.truth(args[0])
            return self.unknown(node) if t is None else t
        if name == "range" and args and all(isinstance(a, int) for a in args):
            r = range(*args)
            return list(r) if len(r) <= MAX_ITERATIONS else self.unknown(node)
        if name == "enumerate" and args:
            items = self.iterate(args[0], node)
            start = args[1] if len(args) > 1 else kwargs.get("start", 0)
            return None if items is None else [(i + start, x) for i, x in enumerate(items)]
        if name == "zip":
            seqs = [self.iterate(a, node) for a in args]
            if any(s is None for s in seqs):
                return self.unknown(node)
            return [tuple(t) for t in zip(*seqs)]
        if name in ("any", "all") and len(args) == 1:
            items = self.iterate(args[0], node)
            if items is None:
                return self.unknown(node)
            truths = [self.truth(x) for x in items]
            if name == "any":
                return True if True in truths else (False if None not in truths else self.unknown(node))
            return False if False in truths else (True if None not in truths else self.unknown(node))
        if name in ("min", "max") and args:
            items = self.iterate(args[0], node) if len(args) == 1 else args
            try:
                return (min if name == "min" else max)(items)
            except (TypeError, ValueError):
                return self.unknown(node)
        if name == "filter" and len(args) == 2 and args[0] is None:
            items = self.iterate(args[1], node)
            return self.unknown(node) if items is None else [x for x in items if x]
        if name == "map" and len(args) == 2 and isinstance(args[0], (FunctionValue, External)):
            items = self.iterate(args[1], node)
            if items is None:
                return self.unknown(node)
            out = []
            for x in items:
                if isinstance(args[0], FunctionValue):
                    out.append(self.call_function(args[0], [x], {}, node))
                else:
                    out.append(self.external_call(args[0].name, [x], {}, node))
            return out
        if name == "sum" and args:
            items = self.iterate(args[0], node)
            start = args[1] if len(args) > 1 else 0
            try:
                total = start
                for x in items:
                    total = total + x
                return total
            except TypeError:
                return self.unknown(node)
        if name == "shlex.split" and len(args) == 1 and isinstance(args[0], str):
            import shlex
            try:
                return shlex.split(args[0])
            except ValueError:
                return self.unknown(node)
        if name == "os.cpu_count":
            return os.cpu_count()
        if name == "shutil.which":
            return self.unknown(node, "'%s' (a program on PATH)" % ast.unparse(node)[:60])
        return self.unknown(node)


def strings(value):
    """The strings of a list that could be evaluated."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, (list, tuple)):
        return []
    return [v for v in value if isinstance(v, str)]


class Warnings:
    """One warning per construct: what could not be evaluated, where, and
    what the commands miss for it."""
    def __init__(self):
        self.seen = {}

    def add(self, unknown_value, consequence, fallback_node=None, scope=None):
        cause = unknown_value.cause if unknown_value is not None else None
        if not cause or not cause[0]:
            if fallback_node is None or scope is None:
                return
            cause = scope.cause(fallback_node)
        path, line, text = cause
        key = (path, line, text)
        self.seen.setdefault(key, [])
        if consequence not in self.seen[key]:
            self.seen[key].append(consequence)

    def print(self, root):
        for (path, line, text), consequences in self.seen.items():
            rel = os.path.relpath(path, root) if path else "setup.py"
            print("warning: %s:%d: %s: %s" % (
                rel, line, text, "; ".join(consequences)), file=sys.stderr)


def extension_commands(scope, node, kind, args, kwargs, warnings):
    is_cuda = kind == "CUDAExtension"
    name = kwargs["name"] if "name" in kwargs else (args[0] if args else None)
    sources = kwargs["sources"] if "sources" in kwargs else (
        args[1] if len(args) > 1 else [])
    includes = kwargs.get("include_dirs", [])
    macros = kwargs.get("define_macros", [])
    extra = kwargs.get("extra_compile_args", {})
    if isinstance(extra, list):
        extra = {"cxx": extra, "nvcc": []}
    if unknown(name):
        warnings.add(name, "the extension's name is not known (TORCH_EXTENSION_NAME "
                     "is the source folder's name)", node, scope)
    if not known(sources):
        warnings.add(first_unknown(sources),
                     "sources of the extension at %s:%d are missing" % (
                         os.path.relpath(scope.path, scope.root), node.lineno), node, scope)
    if not known(includes):
        warnings.add(first_unknown(includes), "-I folders from setup.py are missing",
                     node, scope)
    if not known(macros):
        missing = [m for m in macros if not known(m)] if isinstance(macros, list) else []
        for m in missing or [macros]:
            named = isinstance(m, (list, tuple)) and len(m) == 2 and isinstance(m[0], str)
            warnings.add(first_unknown(m), "-D%s from setup.py is missing" % m[0] if named
                         else "-D defines from setup.py are missing", node, scope)
    if not known(extra):
        if isinstance(extra, dict):
            for key, flags in extra.items():
                if not known(flags):
                    warnings.add(first_unknown(flags), "'%s' flags of extra_compile_args "
                                 "are missing" % key, node, scope)
        else:
            warnings.add(first_unknown(extra), "flags of extra_compile_args are missing",
                         node, scope)
    if not isinstance(extra, dict):
        extra = {}
    defines = []
    for m in macros if isinstance(macros, (list, tuple)) else []:
        if isinstance(m, (list, tuple)) and len(m) == 2 and isinstance(m[0], str) \
                and (m[1] is None or isinstance(m[1], (str, int))):
            defines.append("-D%s" % m[0] if m[1] is None else "-D%s=%s" % (m[0], m[1]))
    return source_commands(scope, name, sources, strings(includes), defines,
                           strings(extra.get("cxx", [])),
                           strings(extra.get("nvcc", [])), is_cuda)


def source_commands(scope, name, sources, includes, defines, cxx, nvcc, is_cuda):
    root = scope.root
    common = ["-I" + (i if os.path.isabs(i) else os.path.join(root, i))
              for i in includes] + defines
    if isinstance(name, str):
        common.append("-DTORCH_EXTENSION_NAME=%s" % name.split(".")[-1])
    out = []
    for src in strings(sources):
        path = src if os.path.isabs(src) else os.path.join(root, src)
        if not os.path.exists(path):
            continue
        cuda = path.endswith((".cu", ".cuh"))
        if cuda and is_cuda:
            args = ["nvcc"] + common + nvcc + ["-c", path]
        else:
            args = ["c++"] + common + cxx + ["-c", path]
        out.append({"directory": root, "file": os.path.normpath(path),
                    "arguments": args})
    return out


# torch.utils.cpp_extension.load's parameters, in order.
LOAD_PARAMETERS = ("name", "sources", "extra_cflags", "extra_cuda_cflags",
                   "extra_ldflags", "extra_include_paths")


def load_commands(scope, node, args, kwargs, warnings):
    given = dict(zip(LOAD_PARAMETERS, args))
    given.update({k: v for k, v in kwargs.items() if k in LOAD_PARAMETERS})
    sources = given.get("sources", [])
    if not strings(sources) and not known(sources):
        return []  # not a load() of sources the interpreter knows
    return source_commands(scope, given.get("name"), sources,
                           strings(given.get("extra_include_paths", [])), [],
                           strings(given.get("extra_cflags", [])),
                           strings(given.get("extra_cuda_cflags", [])), True)


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
            if os.path.basename(path) == "setup.py" and folder == root:
                continue
            try:
                with open(path, encoding="utf-8", errors="replace") as h:
                    text = h.read()
            except OSError:
                continue
            if "cpp_extension" in text and "load(" in text:
                yield path


def read_setup(setup_py, warnings):
    """The extensions and load() calls of setup.py, executed; None when it
    does not parse."""
    try:
        with open(setup_py, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=setup_py)
    except (OSError, SyntaxError, ValueError) as e:
        print("cannot parse %s: %s" % (setup_py, e), file=sys.stderr)
        return None
    run = None
    for env_known in (True, False):
        ENVIRONMENT["known"] = env_known
        run = Run(os.path.dirname(os.path.abspath(setup_py)))
        ev = Evaluator(setup_py, run)
        run.modules[ev.path] = ev
        try:
            ev.execute_module(tree)
        except Budget:
            print("warning: setup.py: stopped after %d statements: extensions "
                  "after that point are missing" % MAX_STEPS, file=sys.stderr)
        if run.extensions:
            break
    return run


def main():
    argv = sys.argv[1:]
    if argv == ["--find-torch"]:
        print(json.dumps(find_torch()))
        return 0
    lines = "--lines" in argv
    if "--torch-install" in argv:
        print("torch-install: " + json.dumps(find_torch()), file=sys.stderr)
    argv = [a for a in argv if a not in ("--lines", "--torch-install")]
    if len(argv) != 1:
        print("usage: torch_setup_commands.py [--lines] setup.py|folder", file=sys.stderr)
        return 2
    setup_py = argv[0]
    commands = []
    warnings = Warnings()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    if os.path.isdir(setup_py):
        run = Run(os.path.abspath(setup_py))
    else:
        run = read_setup(setup_py, warnings)
        if run is None:
            return 1
        # A file that a CUDA and a C++ extension both build (torch_scatter
        # builds each binding twice, with and without -DWITH_CUDA) keeps the
        # CUDA build's command: the one whose device code is analysed.
        ordered = [e for e in run.extensions if e[2] == "CUDAExtension"] + \
            [e for e in run.extensions if e[2] != "CUDAExtension"]
        for scope, node, kind, args, kwargs in ordered:
            commands.extend(extension_commands(scope, node, kind, args, kwargs, warnings))
        if not commands and run.extensions:
            pass
        elif not run.extensions:
            # Why no extension was made: the build stops (a missing
            # submodule), or a loop the interpreter could not run.
            for cause in (run.stopped or run.loop_causes)[:1]:
                path, line, text = cause
                if run.stopped:
                    cause = (path, line, "the build stops at " + text)
                warnings.add(Unknown(cause), "no CUDAExtension or CppExtension call "
                             "was reached: using torch's default flags; -D and -I "
                             "flags from setup.py are missing")
    # The load() calls of setup.py, and of the project's other files
    # (setup.py's extensions come first: a source they name keeps their
    # command).
    loads = list(run.loads)
    for path in project_python_files(run.root):
        anchor = Evaluator(os.path.join(run.root, "setup.py"), run)
        anchor.load_module(path)
    loads += [l for l in run.loads if l not in loads]
    for scope, node, args, kwargs in loads:
        commands.extend(load_commands(scope, node, args, kwargs, warnings))
    warnings.print(run.root)
    seen, unique = set(), []
    for c in commands:
        if c["file"] not in seen:
            seen.add(c["file"])
            unique.append(c)
    try:
        if lines:
            # One command a line, paths relative to the project's folder.
            for c in unique:
                print(os.path.relpath(c["file"], run.root) + ": " + " ".join(
                    a.replace(run.root + os.sep, "") for a in c["arguments"][:-2]))
            return 0
        json.dump(unique, sys.stdout, indent=1)
        print()
    except BrokenPipeError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
