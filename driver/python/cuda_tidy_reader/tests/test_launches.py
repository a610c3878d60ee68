"""launches.py: what each launch argument is, and the synthetic host function
with a real <<<...>>> launch for each Python launch."""
import unittest

from common import ast, read, nodes
from cuda_tidy_reader.launches import Facts
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


if __name__ == '__main__':
    unittest.main()
