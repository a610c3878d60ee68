"""cuda-tidy's reader of Python files; cuda_tidy_python.py is its entry
point (docs/python.md)."""
