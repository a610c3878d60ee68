"""source.py: the position map. Every character of a mapped string knows
the byte of the file it came from."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from cuda_tidy_reader.source import (MStr, MStrBuilder, compress, byte_offsets,  # noqa: E402
                                     nolint_comments, source_encoding, join_mstr, find_first, is_word)


class PositionMap(unittest.TestCase):
    def test_exact_runs_map_each_character(self):
        m = MStr.exact('abc', 0, 10)
        self.assertEqual(m.at(0), (0, 10, True))
        self.assertEqual(m.at(2), (0, 12, True))

    def test_anchored_text_maps_to_its_anchor(self):
        m = MStr.anchored('xyz', 0, 5)
        self.assertEqual([m.at(i) for i in range(3)], [(0, 5, False)] * 3)

    def test_join_and_slice_keep_positions(self):
        m = join_mstr([MStr.exact('ab', 0, 0), MStr.anchored('--', 0, 9), MStr.exact('cd', 0, 2)])
        self.assertEqual(m.text, 'ab--cd')
        self.assertEqual(m.at(4), (0, 2, True))
        s = m.slice(1, 5)
        self.assertEqual(s.text, 'b--c')
        self.assertEqual(s.at(0), (0, 1, True))
        self.assertEqual(s.at(1), (0, 9, False))

    def test_builder_extends_a_continuing_run(self):
        b = MStrBuilder()
        b.push('a', 0, 3, True)
        b.push('b', 0, 4, True)
        self.assertEqual(b.build().runs, [(0, 0, 3, True)])

    def test_compress_writes_byte_offsets(self):
        text = 'é = "k"\n'
        unit = MStr.exact('k', 0, text.index('k'))
        rows = compress(unit, {0: text})
        self.assertEqual(rows, [[0, 1, 0, len('é = "'.encode()), True]])
        self.assertEqual(byte_offsets('é')[-1], 2)


class Reading(unittest.TestCase):
    def test_coding_cookie(self):
        self.assertEqual(source_encoding(b'# -*- coding: latin-1 -*-\nx = 1\n'), 'iso-8859-1')
        self.assertEqual(source_encoding(b'x = 1\n'), 'utf-8')

    def test_nolint_comments(self):
        src = 'a = 1  # NOLINT(cuda-foo)\n# NOLINTNEXTLINE\nb = 2\n'
        self.assertEqual(nolint_comments(src), [[1, 'cuda-foo'], [3, '*']])

    def test_scanners(self):
        self.assertEqual(find_first('ab"c/', '/"', 0, 5), 2)
        self.assertTrue(is_word('blockDim_x'))
        self.assertFalse(is_word('a+b'))


if __name__ == '__main__':
    unittest.main()
