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

Usage: torch_setup_commands.py path/to/setup.py
"""
import ast
import glob
import json
import os
import shlex
import sys

UNKNOWN = object()

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
TORCH_ATTRIBUTES = {
    "torch.version.hip": None,
}


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
    def __init__(self, setup_py):
        self.setup_py = os.path.abspath(setup_py)
        self.root = os.path.dirname(self.setup_py)
        self.names = {"__file__": self.setup_py}
        self.assigned = {}
        self.added = {}

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
        if isinstance(node, ast.If):
            self._collect(node.test, guards)
            for child in node.body:
                self._collect(child, guards + ((node.test, True),))
            for child in node.orelse:
                self._collect(child, guards + ((node.test, False),))
            return
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
            return UNKNOWN
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
                x = self.eval(arg)
                if how == "append" and x is not UNKNOWN and x not in value:
                    value.append(x)
                elif how == "extend" and isinstance(x, list):
                    value.extend(y for y in x if y not in value)
        elif known and len(known) == len(nodes) and all(v == known[0] for v in known):
            value = known[0]  # the same value on every branch taken
        else:
            value = UNKNOWN
        self.names[ident] = value
        return value

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
        args = [self.eval(a) for a in node.args]
        if fname in ("os.getenv", "os.environ.get", "getenv", "environ.get") \
                and args and isinstance(args[0], str) and not node.keywords:
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
        if fname in ("os.path.dirname", "osp.dirname", "dirname"):
            return os.path.dirname(args[0])
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
        if len(dotted) >= 2 and dotted[-1] == "format":
            base = self.eval(node.func.value)
            if isinstance(base, str) and all(isinstance(a, (str, int)) for a in args):
                try:
                    return base.format(*args)
                except (IndexError, KeyError):
                    return UNKNOWN
        return UNKNOWN

    def eval(self, node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.Attribute):
            dotted = self.dotted(node)
            if dotted == "torch.__version__":
                return torch_version()
            return TORCH_ATTRIBUTES.get(dotted, UNKNOWN)
        if isinstance(node, ast.Subscript) and self.dotted(node.value) == "os.environ":
            key = self.eval(node.slice)
            return os.environ.get(key, UNKNOWN) if isinstance(key, str) else UNKNOWN
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
        if isinstance(node, ast.ListComp) and len(node.generators) == 1:
            g = node.generators[0]
            seq = self.eval(g.iter)
            if not isinstance(seq, list) or not isinstance(g.target, ast.Name) or g.ifs:
                return UNKNOWN
            out = []
            saved = self.names.get(g.target.id, None)
            for item in seq:
                self.names[g.target.id] = item
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
            args = ["nvcc"] + common + strings(extra.get("nvcc", [])) + ["-c", path]
        else:
            args = ["c++"] + common + strings(extra.get("cxx", [])) + ["-c", path]
        out.append({"directory": ev.root, "file": path, "arguments": args})
    return out


def main():
    if len(sys.argv) != 2:
        print("usage: torch_setup_commands.py setup.py", file=sys.stderr)
        return 2
    setup_py = sys.argv[1]
    try:
        with open(setup_py, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=setup_py)
    except (OSError, SyntaxError, ValueError) as e:
        print("cannot parse %s: %s" % (setup_py, e), file=sys.stderr)
        return 1
    ev = Evaluator(setup_py)
    ev.collect(tree)
    commands = []
    for node, guards in ev.calls:
        if ev.extension_kind(node.func) and ev.reachable(guards):
            commands.extend(extension_commands(ev, node))
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
