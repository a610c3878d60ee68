# Test code that asks for a failure (a lookup or launch inside
# `with pytest.raises(...)` or `self.assertRaises(...)`) is not reported by
# cuda-kernel-arguments: the failure is what its author tests
# (docs/precision.md, issue #29 section). The same call outside is.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error:
import unittest

import cupy
import numpy
import pytest

MOD = cupy.RawModule(code='extern "C" __global__ void k(float *x) {}')


def lookup_missing():
    return MOD.get_function('no_such_kernel')
# CHECK: expected-failure.py:[[@LINE-1]]:29: warning: kernel 'no_such_kernel' is not defined in the source given to the module{{.*}}[cuda-kernel-arguments]


def test_missing_kernel_raises():
    with pytest.raises(cupy.cuda.driver.CUDADriverError):
        MOD.get_function('no_such_kernel')


def test_mangled_kernel_raises():
    mod = cupy.RawModule(code='__global__ void mangled(float *x) {}')
    with pytest.raises(Exception):
        mod.get_function('mangled')


class TestLaunch(unittest.TestCase):
    def test_float_scalar_raises(self):
        k = cupy.RawKernel(r'extern "C" __global__ void f(float a) {}', 'f')
        with self.assertRaises(TypeError):
            k((1,), (1,), (1.5,))
        with numpy.testing.assert_raises(TypeError):
            k((1,), (1,), (2.5,))

# CHECK: exit=1
