"""Shared by the module tests: the package on the path, and a Reader of a
source given as text."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.setrecursionlimit(10000)

try:
    import _ast as ast
except ImportError:
    import ast

from cuda_tidy_reader.reader import Reader  # noqa: E402


def read(source):
    return Reader('t.py', source)


def nodes(reader, kind, **attrs):
    return [n for n in reader.nodes if isinstance(n, kind)
            and all(getattr(n, k, None) == v for k, v in attrs.items())]


__all__ = ['ast', 'read', 'nodes']
