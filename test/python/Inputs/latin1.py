import cupy
# café
k = 1
