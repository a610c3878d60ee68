"""Calls of a CuPy ElementwiseKernel in the file, read for what they say
about the sizes of its `raw` arrays.

CuPy runs an ElementwiseKernel's `i` over every element of the loop: the
broadcast shape of its non-raw arrays, or `size=` when every array is raw
(cupy/_core/_kernel.pyx, _broadcast: `size=` with a non-raw array is an
error, and no non-raw array without `size=` is "Loop size is undecided").
A raw array has whatever size its caller gave it; it has as many elements
as the loop (or fewer) when a call passes

- the same array for a raw and a non-raw parameter, or an array made
  `*_like` one of the non-raw arrays (the loop is at least as long as each
  non-raw array, since they broadcast to it);
- `size=x.size` where x is the array passed for the raw parameter.

Such a parameter is lowered with an annotation naming the call's line
(analysis/LoopSizedRawIndex.h reads it): an index that grows faster than
`i` then runs past its end.
"""

try:
    import _ast as ast
except ImportError:  # an implementation without it
    import ast

LIKE = ('empty_like', 'zeros_like', 'ones_like', 'full_like')


def _like_of(r, name, depth=0):
    """The name x when `name` is bound to `cupy.*_like(x, ...)` or
    `x.copy()` in straight-line code, else None."""
    if not isinstance(name, ast.Name) or depth > 4:
        return None
    d = r.definition(name)
    if not d or not isinstance(d[1], ast.Call):
        return None
    call = d[1]
    f = call.func
    attr = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    if attr in LIKE and call.args and isinstance(call.args[0], ast.Name):
        return call.args[0].id
    if attr == 'copy' and isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
            and not call.args:
        return f.value.id
    return None


def _same_size(r, a, b):
    """Whether names a and b hold arrays of one size, as the file shows."""
    if not (isinstance(a, ast.Name) and isinstance(b, ast.Name)):
        return False
    return a.id == b.id or _like_of(r, a) == b.id or _like_of(r, b) == a.id


def loop_sized_raw(r, m, params):
    """{parameter name: line of the call} for each raw parameter of the
    ElementwiseKernel `m` that a call in the file passes an array with as
    many elements as the loop (see above). params: (ctype, name, raw, out)
    in CuPy's order, inputs then outputs."""
    if not any(p[2] for p in params):
        return {}
    found = {}
    for node in r.nodes:
        if not isinstance(node, ast.Call) or not isinstance(
                node.func, (ast.Name, ast.Attribute)):
            continue
        # A cheap filter before evaluating the callee.
        if isinstance(node.func, ast.Attribute) and node.func.attr in (
                'ElementwiseKernel', 'ReductionKernel', 'RawKernel'):
            continue
        try:
            callee = r.eval(node.func)
        except RecursionError:
            continue
        if callee is not m:
            continue
        args = node.args
        if any(isinstance(a, ast.Starred) for a in args) or any(
                k.arg is None for k in node.keywords):
            continue
        size = next((k.value for k in node.keywords if k.arg == 'size'), None)
        bound = list(zip(params, args))
        if size is not None:
            # size=x.size, x the array of a raw parameter.
            if isinstance(size, ast.Attribute) and size.attr == 'size' and \
                    isinstance(size.value, ast.Name):
                for (_, pname, raw, _), a in bound:
                    if raw and isinstance(a, ast.Name) and a.id == size.value.id:
                        found.setdefault(pname, node.lineno)
            continue
        nonraw = [a for (_, _, raw, _), a in bound if not raw]
        for (_, pname, raw, _), a in bound:
            if raw and any(_same_size(r, a, b) for b in nonraw):
                found.setdefault(pname, node.lineno)
    return found
