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
