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
- `size=x.size` where x is the array passed for the raw parameter, or the
  product of the dimensions x was made with (`cupy.zeros((n, n))`,
  `size=n * n`); `cupy.empty(y.shape)` counts as made like y.

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
    # cupy.empty(x.shape, ...), zeros, ones, full: the size of x.
    if attr in ('empty', 'zeros', 'ones', 'full') and call.args and \
            isinstance(call.args[0], ast.Attribute) and call.args[0].attr == 'shape' and \
            isinstance(call.args[0].value, ast.Name):
        return call.args[0].value.id
    if attr == 'copy' and isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
            and not call.args:
        return f.value.id
    return None


def _shape_product(r, name):
    """The dimensions of `name = cupy.zeros((n, n), ...)` (empty, ones,
    full) as source texts, when the file shows them; else None."""
    if not isinstance(name, ast.Name):
        return None
    d = r.definition(name)
    if not d or not isinstance(d[1], ast.Call) or not d[1].args:
        return None
    f = d[1].func
    attr = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    shape = d[1].args[0]
    if attr not in ('empty', 'zeros', 'ones', 'full'):
        return None
    if isinstance(shape, ast.Tuple) and shape.elts:
        dims = [r.segment(e) for e in shape.elts]
    else:
        dims = [r.segment(shape)]
    return None if any(t is None for t in dims) else sorted(''.join(t.split()) for t in dims)


def _size_is(r, size, a):
    """Whether `size=` is the number of elements of the array named a:
    `a.size`, or the product of the dimensions a was made with."""
    if not isinstance(a, ast.Name):
        return False
    if isinstance(size, ast.Attribute) and size.attr == 'size' and \
            isinstance(size.value, ast.Name):
        return size.value.id == a.id
    dims = _shape_product(r, a)
    if dims is None:
        return False
    factors = []
    e = size
    while isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult):
        factors.append(e.right)
        e = e.left
    factors.append(e)
    texts = [r.segment(x) for x in factors]
    return None not in texts and sorted(''.join(t.split()) for t in texts) == dims


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
            # size=x.size (or the product of x's dimensions), x the array of
            # a raw parameter.
            for (_, pname, raw, _), a in bound:
                if raw and _size_is(r, size, a):
                    found.setdefault(pname, node.lineno)
            continue
        nonraw = [a for (_, _, raw, _), a in bound if not raw]
        for (_, pname, raw, _), a in bound:
            if raw and any(_same_size(r, a, b) for b in nonraw):
                found.setdefault(pname, node.lineno)
    return found


def pycuda_parameters(text):
    """[(name, is_pointer, start, end)] of PyCUDA's argument string
    ("float *x, float a": split at commas, the name the last word, a vector
    where the declaration has '*'), with each declaration's span; None
    where it does not read so (a template, a function pointer)."""
    out = []
    start = 0
    for part in text.split(','):
        end = start + len(part)
        decl = part.strip()
        k = len(decl)
        while k and (decl[k - 1].isalnum() or decl[k - 1] == '_'):
            k -= 1
        name = decl[k:]
        if not name or name[0].isdigit() or '<' in decl or '(' in decl:
            return None
        out.append((name, '*' in decl[:k], start + len(part) - len(part.lstrip()), end))
        start = end + 1
    return out


def pycuda_loop_sized(r, m, params):
    """{parameter name: line of the call} for each vector parameter of the
    PyCUDA ElementwiseKernel `m` that a call in the file passes an array of
    the loop's size. PyCUDA's n is the size of the first vector argument
    (pycuda/elementwise.py, ElementwiseKernel.__call__: repr_vec.mem_size);
    a vector passed the same array, or one made `*_like` it, `x.copy()` or
    `empty(x.shape)`, has n elements. Calls with range= or slice= run
    another kernel and are skipped. params: pycuda_parameters()."""
    vectors = [k for k, p in enumerate(params) if p[1]]
    if not vectors:
        return {}
    found = {}
    for node in r.nodes:
        if not isinstance(node, ast.Call) or not isinstance(
                node.func, (ast.Name, ast.Attribute)):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr in (
                'ElementwiseKernel', 'ReductionKernel', 'SourceModule'):
            continue
        try:
            callee = r.eval(node.func)
        except RecursionError:
            continue
        if callee is not m:
            continue
        args = node.args
        if any(isinstance(a, ast.Starred) for a in args) or any(
                k.arg in (None, 'range', 'slice') for k in node.keywords) or \
                len(args) != len(params):
            continue
        first = args[vectors[0]]
        for k in vectors:
            if k == vectors[0] or _same_size(r, args[k], first):
                found.setdefault(params[k][0], node.lineno)
    return found
