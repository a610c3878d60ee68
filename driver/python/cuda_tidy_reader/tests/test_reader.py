"""reader.py: scopes, the names bound in them, and the values a file holds."""
import unittest

from common import ast, read, nodes


class Values(unittest.TestCase):
    def test_percent_format_of_module_constants(self):
        r = read("T = 'float'\nSRC = 'void k(%s *x) {}' % T\nuse(SRC)\n")
        name = nodes(r, ast.Name, id='SRC')[-1]
        self.assertEqual(r.eval(name).text, 'void k(float *x) {}')

    def test_value_keeps_its_position_in_the_file(self):
        src = "SRC = 'abc'\nuse(SRC)\n"
        r = read(src)
        value = r.eval(nodes(r, ast.Name, id='SRC')[-1])
        self.assertEqual(value.at(0), (0, src.index('abc'), True))

    def test_a_parameter_is_not_a_known_value(self):
        r = read("def f(t):\n    s = 'x' + t\n    return s\n")
        self.assertNotIsInstance(r.eval(nodes(r, ast.Name, id='s')[-1]), str)
        self.assertFalse(hasattr(r.eval(nodes(r, ast.Name, id='s')[-1]), 'text'))


class Constructors(unittest.TestCase):
    def test_import_alias(self):
        r = read("import cupy as cp\nk = cp.RawKernel('', 'k')\n")
        call = nodes(r, ast.Call)[0]
        self.assertEqual(r.ctor_of(call), 'cupy.RawKernel')

    def test_from_import_alias(self):
        r = read("from pycuda.compiler import SourceModule as SM\nm = SM('')\n")
        self.assertEqual(r.ctor_of(nodes(r, ast.Call)[0]), 'pycuda.compiler.SourceModule')

    def test_unrelated_call(self):
        r = read("import numpy as np\na = np.zeros(3)\n")
        self.assertIsNone(r.ctor_of(nodes(r, ast.Call)[0]))


if __name__ == '__main__':
    unittest.main()
