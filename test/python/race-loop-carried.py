# A shared tile written at the top of a grid-stride loop and read at its
# end by other threads, with no barrier after the read: the next
# iteration's write may overwrite what a slower thread still reads (the
# race of cusignal 1167804, its Kalman predict kernel; written anew here).
# The fixed form ends the loop with __syncthreads().
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-missing-syncthreads' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import cupy

_SRC = r'''
extern "C" __global__ void batched_transform(const float *mats, const float *vecs, float *out, int count) {
    __shared__ float tile[4][4];
    const int r = threadIdx.y;
    const int c = threadIdx.x;
    for (int b = blockIdx.x; b < count; b += gridDim.x) {
        tile[r][c] = mats[b * 16 + r * 4 + c];
        __syncthreads();
        float acc = 0.0f;
        for (int j = 0; j < 4; ++j)
            acc += tile[c][j] * vecs[b * 4 + j];
        if (c == 0)
            out[b * 4 + r] = acc;
    }
}

extern "C" __global__ void batched_transform_fixed(const float *mats, const float *vecs, float *out, int count) {
    __shared__ float tile[4][4];
    const int r = threadIdx.y;
    const int c = threadIdx.x;
    for (int b = blockIdx.x; b < count; b += gridDim.x) {
        tile[r][c] = mats[b * 16 + r * 4 + c];
        __syncthreads();
        float acc = 0.0f;
        for (int j = 0; j < 4; ++j)
            acc += tile[c][j] * vecs[b * 4 + j];
        __syncthreads();
        if (c == 0)
            out[b * 4 + r] = acc;
    }
}
'''
# CHECK: race-loop-carried.py:16:9: warning: write to shared 'tile' at '[r][c]' may overwrite the value another thread reads: no barrier between them on this path [cuda-missing-syncthreads]
# CHECK: race-loop-carried.py:20:20: note: read here at '[c][j]'

_MOD = cupy.RawModule(code=_SRC)


def transform(mats, vecs):
    count = vecs.shape[0]
    out = cupy.empty_like(vecs)
    k = _MOD.get_function('batched_transform_fixed')
    k((min(count, 1024),), (4, 4), (mats, vecs, out, cupy.int32(count)))

# CHECK: exit=1
