// Stand-in for CuPy's atomics.cuh.
#pragma once
