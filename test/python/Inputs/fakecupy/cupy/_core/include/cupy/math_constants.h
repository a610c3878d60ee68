// Stand-in for CuPy's math_constants.h.
#pragma once
#define CUDART_PI_F 3.141592654f
