# Kernel text that another module of the package formats and compiles.
SWAP = '''
extern "C" __global__ void swap_{name}({ctype} *p) {{
    __shared__ {ctype} t[32];
    t[threadIdx.x] = p[threadIdx.x];
    p[threadIdx.x] = t[31 - threadIdx.x];
}}
'''
