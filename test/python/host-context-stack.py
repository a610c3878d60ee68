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
# CHECK: exit=1
