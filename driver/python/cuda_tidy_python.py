#!/usr/bin/env python3
"""cuda-tidy's reader of Python files (docs/python.md).

Reads a .py file with CPython's own parser (ast), finds the CUDA source given
to CuPy, PyCUDA and torch.utils.cpp_extension.load_inline, and writes, as
JSON on stdout, one CUDA translation unit holding every kernel module of the
file, the synthetic host functions that launch them as the Python code does,
and a map from each byte of that unit back to the Python file (or to the file
a kernel was read from). The driver analyses the unit and reports every
finding through the map (driver/PythonInput.cpp).

Nothing is guessed: a source whose text is not known in the file (a hole
that is not a constant of the module, a function parameter) is skipped and
named in "notes".

Usage: cuda_tidy_python.py FILE.py [--stats|--tu]   one file, JSON on stdout
       cuda_tidy_python.py --serve   files named on stdin, one per line;
                                     one line of JSON each (see serve())
Exit codes: 0 (JSON written, possibly with "errors"), 2 internal error.

The reader is the package cuda_tidy_reader beside this file, one module per
concern (docs/design.md, "Python files"): source (the position map), reader
(scopes and values), kernel_sources, launches, library_model, main.
"""

import sys

from cuda_tidy_reader.main import analyse, main, read_path, serve, to_json  # noqa: F401

if __name__ == '__main__':
    sys.exit(main(sys.argv))
