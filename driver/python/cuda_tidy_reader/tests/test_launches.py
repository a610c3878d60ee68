"""launches.py: what each launch argument is, and the synthetic host function
with a real <<<...>>> launch for each Python launch."""
import unittest

from common import ast, read, nodes
from cuda_tidy_reader.launches import Facts, instantiation
from cuda_tidy_reader.reader import KernelModule, KernelRef
from cuda_tidy_reader.main import analyse

SRC = '''import cupy as cp
k = cp.RawKernel('extern "C" __global__ void k(float *x, int n) { }', 'k')
def f(n):
    x = cp.zeros(n, dtype=cp.float32)
    y = x.T
    h = 3.5
    k(((n + 255) // 256,), (256,), (x, cp.int32(n)))
'''


class ArgumentFacts(unittest.TestCase):
    def setUp(self):
        self.r = read(SRC)
        self.facts = Facts(self.r)

    def fact(self, name):
        return self.facts.fact(nodes(self.r, ast.Name, id=name)[-1], 'cupy')

    def test_device_array_with_dtype(self):
        self.assertEqual(self.fact('x'), 'array:device:float32')

    def test_numpy_scalar_keeps_its_dtype(self):
        call = [c for c in nodes(self.r, ast.Call) if self.r.segment(c) == 'cp.int32(n)'][0]
        self.assertEqual(self.facts.fact(call, 'cupy'), 'scalar:int32')

    def test_a_value_the_file_does_not_know(self):
        self.assertEqual(self.fact('n'), 'unknown')


class LaunchFunctions(unittest.TestCase):
    def test_rounded_up_grid_becomes_a_launch(self):
        tu = analyse('t.py', SRC.encode())['tu']
        self.assertIn('cuda-tidy-python-launch|cupy', tu)
        self.assertIn('<<<', tu)
        self.assertIn(' / (256)', tu)
        self.assertIn('array:device:float32', tu)


OBJECTS = '''import functools
import cupy as cp
SRC = 'extern "C" __global__ void k(float *x, int n) { }'
class A:
    kern = cp.RawKernel(SRC, 'k')
    def __init__(self):
        self.mod = cp.RawModule(code=SRC)
        self.f = self.mod.get_function('k')
        self.lazy = None
    def build(self):
        self.lazy = cp.RawKernel(SRC, 'k')
    def _buf(self, n):
        return cp.zeros(n, dtype=cp.float16)
    def run(self, x, n):
        self.kern((1,), (1,), (x, n))
        self.f((1,), (1,), (self._buf(n), n))
        self.lazy((1,), (1,), (x, n))
class B:
    def __init__(self):
        self.g = cp.RawKernel(SRC, 'k')
    def twice(self):
        self.g = cp.RawKernel(SRC, 'k')
    def run(self, x, n):
        self.g((1,), (1,), (x, n))
@functools.lru_cache()
def cached():
    return cp.RawKernel(SRC, 'k')
def timed(f):
    return f
@timed
def wrapped():
    return cp.RawKernel(SRC, 'k')
def use(n):
    cached()((1,), (1,), (1, n))
    wrapped()((1,), (1,), (1, n))
'''


class KernelsOnObjects(unittest.TestCase):
    def setUp(self):
        self.r = read(OBJECTS)
        self.facts = Facts(self.r)

    def callee(self, text):
        call = [c for c in nodes(self.r, ast.Call) if self.r.segment(c.func) == text][0]
        return self.facts.kernel_of(call.func)

    def test_class_attribute_and_self_attribute(self):
        self.assertIsInstance(self.callee('self.kern'), KernelModule)
        ref = self.callee('self.f')
        self.assertIsInstance(ref, KernelRef)
        self.assertEqual(ref.name, 'k')

    def test_a_binding_to_none_does_not_count(self):
        self.assertIsInstance(self.callee('self.lazy'), KernelModule)

    def test_two_bindings_are_not_known(self):
        self.assertIsNone(self.callee('self.g'))

    def test_cached_factory_is_followed_other_decorators_not(self):
        self.assertIsInstance(self.callee('cached()'), KernelModule)
        self.assertIsNone(self.callee('wrapped()'))

    def test_method_helper_returns_an_array(self):
        call = [c for c in nodes(self.r, ast.Call) if self.r.segment(c) == 'self._buf(n)'][0]
        self.assertEqual(self.facts.fact(call, 'cupy'), 'array:device:float16')

    def test_public_method_receives_its_parameter(self):
        run = [f for f in nodes(self.r, ast.FunctionDef, name='run')][0]
        x = [n for n in nodes(self.r, ast.Name, id='x') if self.r.scope_of(n) is run][0]
        rec = self.facts.received(x)
        self.assertEqual((rec[1], rec[2]), ('A.run', 'array'))
        self_name = [n for n in nodes(self.r, ast.Name, id='self') if self.r.scope_of(n) is run][0]
        self.assertIsNone(self.facts.received(self_name))


class Instantiations(unittest.TestCase):
    def test_builtin_arguments(self):
        self.assertEqual(instantiation('scale<float>'), ('scale', 'float'))
        self.assertEqual(instantiation('f<unsigned int, 4>'), ('f', 'unsigned int, 4'))

    def test_types_of_the_source_are_not_written(self):
        self.assertIsNone(instantiation('f<pair2>'))
        self.assertIsNone(instantiation('plain'))


if __name__ == '__main__':
    unittest.main()


CHOSEN = '''import cupy
from cupy._core._scalar import get_typename
SRC = r"""
template <typename T> __global__ void s(const T *x, T *y, const int *i, int n) { }
extern "C" __global__ void f_float32(float *y, int n) { }
extern "C" __global__ void f_float64(double *y, int n) { }
"""
TYPES = [cupy.float16, cupy.float32] + [cupy.float64]
M = cupy.RawModule(code=SRC, name_expressions=[f's<{get_typename(t)}>' for t in TYPES])
TABLE = {'a': M.get_function('f_float32'), 'b': M.get_function('f_float64')}
CACHE = {}
def get(module, name, *arrays):
    t = ', '.join([get_typename(a.dtype) for a in arrays])
    kname = f'{name}<{t}>' if arrays else name
    return module.get_function(kname)
def launch(kern, y):
    kern((1,), (1,), (y, 1))
def g(x, n):
    y = cupy.zeros(n, dtype=cupy.float32)
    k1 = get(M, 's', y)
    k2 = get(M, 's', x)
    k3 = get(M, 'f_float32')
    k4 = M.get_function(f'f_{x.dtype.name}')
    k5 = M.get_function(f'f_{y.dtype.name}')
    k6 = TABLE['b']
    k7 = TABLE[n]
    k8 = CACHE[n]
    launch(M.get_function('f_float64'), y)
    launch(M.get_function('f_float32'), y)
'''


class KernelsChosenAtRunTime(unittest.TestCase):
    def setUp(self):
        from cuda_tidy_reader.main import Emitter
        self.r = read(CHOSEN)
        self.facts = Facts(self.r)
        em = Emitter(self.r, self.facts)
        for node in self.r.nodes:
            if isinstance(node, ast.Call) and self.r.ctor_of(node):
                em.module(self.r.module_of(node, self.r.ctor_of(node)))
        self.em = em

    def kernel(self, name):
        value = [a.value for a in nodes(self.r, ast.Assign) if a.targets[0].id == name][0]
        return self.facts.kernel_of(value)

    def names(self, name):
        from cuda_tidy_reader.launches import KernelChoice
        k = self.kernel(name)
        if isinstance(k, KernelChoice):
            return sorted(x.name for x in k.refs)
        return k.name if isinstance(k, KernelRef) else None

    def test_helper_names_the_instantiation_of_a_known_dtype(self):
        self.assertEqual(self.names('k1'), 's<float>')
        self.assertFalse(getattr(self.kernel('k1'), 'generic', False))

    def test_unknown_dtype_takes_a_listed_instantiation_marked_generic(self):
        # float16 has no built-in name: the first listed one is float.
        self.assertEqual(self.names('k2'), 's<float>')
        self.assertTrue(self.kernel('k2').generic)

    def test_helper_without_arrays_gives_the_plain_name(self):
        self.assertEqual(self.names('k3'), 'f_float32')

    def test_name_with_a_hole_is_each_kernel_it_matches(self):
        self.assertEqual(self.names('k4'), ['f_float32', 'f_float64'])
        self.assertEqual(self.names('k5'), 'f_float32')

    def test_tables(self):
        self.assertEqual(self.names('k6'), 'f_float64')
        self.assertEqual(self.names('k7'), ['f_float32', 'f_float64'])
        self.assertIsNone(self.kernel('k8'))

    def test_template_dependent_parameters(self):
        m = [m for m in self.r.modules.values()][0]
        self.assertEqual(m.template_deps['s'], [True, True, False, False])

    def test_passed_kernel_is_launched_once_per_call(self):
        kern = [n for n in nodes(self.r, ast.Name, id='kern')
                if isinstance(self.r.parents.get(n), ast.Call)][0]
        passed = self.em.passed_kernels(kern)
        self.assertEqual([k.name for _, _, _, k in passed], ['f_float64', 'f_float32'])


BRANCHES = '''import cupy
def f(c, d, p=None):
    k = 1
    if c:
        k = 2
    a = k
    if c:
        b = 1
    else:
        if d:
            return
        b = 2
    e = b
    for i in range(3):
        g = 1
    h = g
    if c:
        p = 1
    q = p
    for j in range(3):
        m = 1
        if d:
            break
    n = m
    s = 1
    try:
        s = 2
    except ValueError:
        raise
    t = s
    u = 1
    try:
        u = 2
    except ValueError:
        pass
    v = u
'''


class ReachingBindings(unittest.TestCase):
    """Facts.reaching_bindings: the assignments of a name that may reach a
    read where it is bound in branches."""

    def setUp(self):
        self.r = read(BRANCHES)
        self.facts = Facts(self.r)

    def values(self, target, path=None):
        st = [n for n in nodes(self.r, ast.Assign) if n.targets[0].id == target][0]
        self.facts.path = path or {}
        try:
            got = self.facts.reaching_bindings(st.value)
        finally:
            self.facts.path = {}
        return got if not isinstance(got, list) else [e[1].value for e in got]

    def if_at(self, line):
        return [n for n in nodes(self.r, ast.If) if n.lineno == line][0]

    def test_an_if_joins_its_arms(self):
        self.assertEqual(self.values('a'), [1, 2])

    def test_an_arm_that_returns_joins_nothing(self):
        self.assertEqual(self.values('e'), [1, 2])
        inner = self.if_at(10)
        self.assertEqual(self.values('e', {id(inner): 'body'}), [1])

    def test_a_path_takes_one_arm(self):
        first = self.if_at(4)
        self.assertEqual(self.values('a', {id(first): 'orelse'}), [1])
        second, inner = self.if_at(7), self.if_at(10)
        self.assertEqual(self.values('e', {id(second): 'orelse', id(inner): 'body'}), 'dead')

    def test_loops_and_try_blocks(self):
        # The loop's binding (Python raises where it never ran); one with
        # a break is not followed.
        self.assertEqual(self.values('h'), [1])
        self.assertIsNone(self.values('n'))
        # A handler that raises joins nothing; one that goes on joins the
        # binding before the try and the body's.
        self.assertEqual(self.values('t'), [2])
        self.assertEqual(self.values('v'), [1, 2])

    def test_parameters_are_not_followed(self):
        self.assertIsNone(self.values('q'))
