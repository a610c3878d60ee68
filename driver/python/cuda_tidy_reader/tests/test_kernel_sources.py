"""kernel_sources.py: the text scanners, and each kernel module written into
the unit as its host library compiles it."""
import unittest

import common  # noqa: F401
from cuda_tidy_reader.kernel_sources import (strip_comments, extern_c_spans, defined_names,
                                             count_params, c_identifier)
from cuda_tidy_reader.main import analyse


class Scanners(unittest.TestCase):
    def test_strip_comments_keeps_length_and_strings(self):
        text = 'a // c\n"//x" /* y */ b'
        out = strip_comments(text)
        self.assertEqual(len(out), len(text))
        self.assertIn('"//x"', out)
        self.assertNotIn('c', out.split('\n')[0][1:])
        self.assertNotIn('y', out)

    def test_extern_c(self):
        self.assertEqual(list(extern_c_spans('extern  "C" __global__')), [(0, 11)])
        self.assertEqual(list(extern_c_spans('extern int x;')), [])

    def test_defined_names(self):
        self.assertEqual(defined_names('#define N 4\n# define  M(x) x\nint N;\n'), ['N', 'M'])

    def test_count_params(self):
        self.assertEqual(count_params('const float *x, int n'), 2)
        self.assertEqual(count_params('void'), 0)
        self.assertEqual(count_params('Pair<int, int> p'), 1)
        self.assertIsNone(count_params('T... xs'))

    def test_c_identifier(self):
        self.assertEqual(c_identifier('my-kernel'), 'my_kernel')
        self.assertEqual(c_identifier('class'), 'py_class')


class Modules(unittest.TestCase):
    def test_pycuda_source_module_gets_extern_c(self):
        src = ("from pycuda.compiler import SourceModule\n"
               "m = SourceModule('__global__ void k(float *x) { x[0] = 1; }')\n")
        res = analyse('t.py', src.encode())
        self.assertEqual(res['stats']['analysed'], 1)
        self.assertIn('__global__ void k(float *x)', res['tu'])
        self.assertIn('cuda-tidy-python-extern-c', res['tu'])

    def test_unknown_hole_is_skipped_with_a_reason(self):
        src = ("import cupy\n"
               "def make(t):\n"
               "    return cupy.RawKernel('__global__ void k(%s *x) {}' % t, 'k')\n")
        res = analyse('t.py', src.encode())
        self.assertEqual(res['stats']['found'], 1)
        self.assertEqual(len(res['stats']['skipped']) + res['stats']['analysed'], 1)

    def test_every_byte_of_the_kernel_maps_to_the_file(self):
        body = '__global__ void k(float *x) { x[threadIdx.x] = 1; }'
        src = "import cupy\nk = cupy.RawKernel('extern \"C\" %s', 'k')\n" % body
        res = analyse('t.py', src.encode())
        at = res['tu'].index(body)
        rows = [r for r in res['map'] if r[0] <= at < r[0] + r[1] and r[4]]
        self.assertEqual(len(rows), 1)
        unit_start, _, _, file_start, _ = rows[0]
        self.assertEqual(file_start + at - unit_start, src.encode().index(body.encode()))


if __name__ == '__main__':
    unittest.main()
