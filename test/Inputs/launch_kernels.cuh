// Kernels declared in a header: code in other translation units may name
// them, and so may set their attributes.
#pragma once
__global__ void shared_in_header(float *v);
