# PyCUDA's context calls lowered to the driver calls they are
# (make_context: cuCtxCreate, push: cuCtxPushCurrent, pop and
# Context.pop(): cuCtxPopCurrent, detach: cuCtxDestroy, and for a retained
# primary context cuDevicePrimaryCtxRelease), read by cuda-context-stack.
# This test runs where that check is part of the build (the lit feature
# cuda-context-stack, test/python/lit.local.cfg); host-context-lowering.test
# checks the lowering itself.
# REQUIRES: cuda-context-stack
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-context-stack' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import pycuda.driver as cuda


def early_return(ctx, ready):
    ctx.push()
    if not ready:
        return None
        # CHECK: host-context-stack.py:[[@LINE-1]]:9: warning: the context pushed by 'cuCtxPushCurrent' is still current when 'early_return' returns here; other paths pop it [cuda-context-stack]
    cuda.Context.pop()
    return ctx


def popped_twice(dev):
    ctx = dev.make_context()
    ctx.pop()
    ctx.pop()
    # CHECK: host-context-stack.py:[[@LINE-1]]:9: warning: 'cuCtxPopCurrent' pops the context stack again after this function popped the context it pushed; it pops a context of the caller [cuda-context-stack]
    ctx.detach()


def primary_released_twice(dev):
    ctx = dev.retain_primary_context()
    ctx.push()
    cuda.Context.pop()
    ctx.detach()
    ctx.detach()
    # CHECK: host-context-stack.py:[[@LINE-1]]:9: warning: 'cuDevicePrimaryCtxRelease' releases the primary context again after this function released the reference it retained [cuda-context-stack]


# Balanced on every path: nothing to report.
def balanced(ctx, work):
    ctx.push()
    try:
        work()
    finally:
        cuda.Context.pop()


def primary_balanced(dev):
    ctx = dev.retain_primary_context()
    ctx.push()
    try:
        return 1
    finally:
        ctx.pop()
        ctx.detach()


# A context made by pycuda.tools.make_default_context() (or by a device, on
# the other branch) kept in a member; a method pushes it for its work and
# pops it at the end, but one early return skips the pop.
class Sampler:
    def __init__(self, device=None):
        from pycuda.tools import make_default_context

        cuda.init()
        if device is not None:
            self._ctx = cuda.Device(device).make_context()
        else:
            self._ctx = make_default_context()

    def step(self, trials):
        self._ctx.push()
        accepted = []
        for t in trials:
            if t < 0:
                return accepted
                # CHECK: host-context-stack.py:[[@LINE-1]]:17: warning: the context pushed by 'cuCtxPushCurrent' is still current when 'step' returns here; other paths pop it [cuda-context-stack]
            accepted.append(t)
        self._ctx.pop()
        return accepted

    def step_guarded(self, trials):
        self._ctx.push()
        try:
            return [t for t in trials if t >= 0]
        finally:
            self._ctx.pop()

    def close(self):
        self._ctx.detach()
        self._ctx = None
# CHECK: exit=1
