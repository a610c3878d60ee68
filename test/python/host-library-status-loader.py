# A library loaded by a loop over candidate names, as scikit-cuda loads
# libcublas: the handle is the library the loader's variable is named for
# (`_libcublas_libname`). A status stored and never tested is reported,
# one passed to the module's check function is not (reduced from the fix
# of scikit-cuda 0c8c374: batched inversion whose statuses were dropped).
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-unchecked-api-call' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes
import sys

if sys.platform == 'linux':
    _libcublas_libname_list = ['libcublas.so', 'libcublas.so.12']
else:
    _libcublas_libname_list = ['cublas64_12.dll']

_libcublas = None
for _libcublas_libname in _libcublas_libname_list:
    try:
        _libcublas = ctypes.cdll.LoadLibrary(_libcublas_libname)
    except OSError:
        pass
    else:
        break
if _libcublas is None:
    raise OSError('cublas library not found')


class BlasError(Exception):
    pass


def check_status(status):
    if status != 0:
        raise BlasError(status)


def invert_batched(handle, n, a, lda, pivots, c, ldc, info, batch):
    status = _libcublas.cublasDgetriBatched(handle, n, int(a), lda, int(pivots),
    # CHECK: host-library-status-loader.py:[[@LINE-1]]:25: warning: the error code returned by 'cublasDgetriBatched' is stored in 'status' but never read [cuda-unchecked-api-call]
                                            int(c), ldc, int(info), batch)


def invert_batched_checked(handle, n, a, lda, pivots, c, ldc, info, batch):
    status = _libcublas.cublasZgetriBatched(handle, n, int(a), lda, int(pivots),
                                            int(c), ldc, int(info), batch)
    check_status(status)


def factor_batched(handle, n, a, lda, pivots, info, batch):
    status = _libcublas.cublasSgetrfBatched(handle, n, int(a), lda, int(pivots),
                                            int(info), batch)
    check_status(status)
# CHECK: exit=1
