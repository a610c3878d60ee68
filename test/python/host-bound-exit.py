# atexit.register(self.close) in __init__ of a class whose object a module
# global holds: Python calls that object's close at exit, in its finalization
# (before the C-level exit), as a module-level handler: the context that
# __init__ pushed is popped there, not left current when the program ends.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-context-stack,cuda-api-outside-main' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
# CHECK: exit=0
import atexit

import pycuda.driver as drv


class Sampler:
    def __init__(self):
        drv.init()
        self.context = drv.Device(0).make_context()
        atexit.register(self.close)

    def close(self):
        self.context.pop()
        self.context.detach()


sampler = Sampler()
