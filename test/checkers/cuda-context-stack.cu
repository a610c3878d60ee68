// RUN: %check_cuda_tidy_plugin %s cuda-context-stack %t
// RUN: %check_cuda_tidy_driver %s cuda-context-stack %t

#include <cuda.h>

CUresult fill(CUdeviceptr p, size_t n);
bool wants_primary(CUdevice dev);
void may_throw();

// ---------------------------------------------------------------------------
// Positive cases.
// ---------------------------------------------------------------------------

// An early return on an error leaves the context pushed; the path that gets
// through pops it.
CUresult early_return(CUcontext ctx, CUdeviceptr p, size_t n) {
  if (cuCtxPushCurrent(ctx) != CUDA_SUCCESS)
    return CUDA_ERROR_INVALID_CONTEXT;
  CUresult r = fill(p, n);
  if (r != CUDA_SUCCESS)
    return r;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the context pushed by 'cuCtxPushCurrent' is still current when 'early_return' returns here; other paths pop it [cuda-context-stack]
  cuCtxPopCurrent(nullptr);
  return CUDA_SUCCESS;
}

// Popped twice: the second pop takes the caller's context off the stack.
void popped_twice(CUcontext ctx, CUdeviceptr p, size_t n) {
  cuCtxPushCurrent(ctx);
  fill(p, n);
  cuCtxPopCurrent(nullptr);
  fill(p, n);
  cuCtxPopCurrent(nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuCtxPopCurrent' pops the context stack again after this function popped the context it pushed; it pops a context of the caller [cuda-context-stack]
}

// Pushed on one path only, popped on every path.
void pushed_on_some_paths(CUcontext ctx, CUcontext current, CUdeviceptr p,
                          size_t n) {
  if (ctx != current)
    cuCtxPushCurrent(ctx);
  fill(p, n);
  cuCtxPopCurrent(nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuCtxPopCurrent' pops the context stack on a path where this function pushed nothing; on other paths it pops the context 'cuCtxPushCurrent' pushes [cuda-context-stack]
}

// A primary context released on a path that did not retain it.
void released_unretained(CUdevice dev, CUdeviceptr p, size_t n) {
  CUcontext primary = nullptr;
  if (wants_primary(dev)) {
    cuDevicePrimaryCtxRetain(&primary, dev);
    cuCtxSetCurrent(primary);
  }
  fill(p, n);
  cuDevicePrimaryCtxRelease(dev);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuDevicePrimaryCtxRelease' releases the primary context on a path where this function did not retain it; on other paths it releases the reference 'cuDevicePrimaryCtxRetain' retains [cuda-context-stack]
}

// Released twice.
void released_twice(CUdevice dev, CUdeviceptr p, size_t n) {
  CUcontext primary;
  if (cuDevicePrimaryCtxRetain(&primary, dev) != CUDA_SUCCESS)
    return;
  cuCtxPushCurrent(primary);
  fill(p, n);
  cuCtxPopCurrent(nullptr);
  cuDevicePrimaryCtxRelease(dev);
  cuDevicePrimaryCtxRelease(dev);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuDevicePrimaryCtxRelease' releases the primary context again after this function released the reference it retained [cuda-context-stack]
}

// The first context is destroyed under the second: the driver pops a
// destroyed context only when it is current.
void destroyed_under_another(CUdevice dev) {
  CUcontext first, second;
  cuCtxCreate(&first, nullptr, 0, dev);
  cuCtxCreate(&second, nullptr, 0, dev);
  cuCtxDestroy(first);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuCtxDestroy' destroys context 'first' while it is on the context stack under another context: the driver pops only a destroyed context that is current, so 'first' stays on the stack, destroyed [cuda-context-stack]
  cuCtxDestroy(second);
}

// A helper that pops counts at its call: the early return skips it.
static void leave_context() { cuCtxPopCurrent(nullptr); }

int through_helper(CUcontext ctx, CUdeviceptr p, size_t n) {
  cuCtxPushCurrent(ctx);
  if (fill(p, n) != CUDA_SUCCESS)
    return -1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the context pushed by 'cuCtxPushCurrent' is still current when 'through_helper' returns here; other paths pop it [cuda-context-stack]
  leave_context();
  return 0;
}

// ---------------------------------------------------------------------------
// Negative cases: idiomatic code that balances.
// ---------------------------------------------------------------------------

// An RAII guard: pushed in the constructor, popped in the destructor, on
// every path out of the scope.
class ScopedContext {
public:
  explicit ScopedContext(CUcontext ctx) { cuCtxPushCurrent(ctx); }
  ~ScopedContext() { cuCtxPopCurrent(nullptr); }
};

CUresult guarded(CUcontext ctx, CUdeviceptr p, size_t n) {
  ScopedContext guard(ctx);
  CUresult r = fill(p, n);
  if (r != CUDA_SUCCESS)
    return r;
  return fill(p, n);
}

// A guard that retains the primary context and releases it.
class PrimaryContext {
public:
  explicit PrimaryContext(CUdevice dev) : dev_(dev) {
    cuDevicePrimaryCtxRetain(&ctx_, dev);
  }
  ~PrimaryContext() { cuDevicePrimaryCtxRelease(dev_); }
  CUcontext get() const { return ctx_; }

private:
  CUdevice dev_;
  CUcontext ctx_ = nullptr;
};

CUresult with_primary(CUdevice dev, CUdeviceptr p, size_t n) {
  PrimaryContext primary(dev);
  ScopedContext guard(primary.get());
  if (fill(p, n) != CUDA_SUCCESS)
    return CUDA_ERROR_UNKNOWN;
  return CUDA_SUCCESS;
}

// Early returns that pop first.
CUresult pops_before_returning(CUcontext ctx, CUdeviceptr p, size_t n) {
  CUresult r = cuCtxPushCurrent(ctx);
  if (r != CUDA_SUCCESS)
    return r;
  r = fill(p, n);
  if (r != CUDA_SUCCESS) {
    cuCtxPopCurrent(nullptr);
    return r;
  }
  cuCtxPopCurrent(nullptr);
  return CUDA_SUCCESS;
}

// C-style cleanup through a label.
int cleanup_label(CUcontext ctx, CUdeviceptr p, size_t n) {
  int status = -1;
  if (cuCtxPushCurrent(ctx))
    return -1;
  if (fill(p, n) != CUDA_SUCCESS)
    goto out;
  if (fill(p, n) != CUDA_SUCCESS)
    goto out;
  status = 0;
out:
  cuCtxPopCurrent(nullptr);
  return status;
}

// An error-checking macro that returns: when the push fails, nothing was
// pushed.
#define CU_TRY(call)                                                           \
  do {                                                                         \
    CUresult e_ = (call);                                                      \
    if (e_ != CUDA_SUCCESS)                                                    \
      return e_;                                                               \
  } while (0)

CUresult with_macro(CUcontext ctx, CUdeviceptr p, size_t n) {
  CU_TRY(cuCtxPushCurrent(ctx));
  CUresult r = fill(p, n);
  CU_TRY(cuCtxPopCurrent(nullptr));
  return r;
}

// A conditional push and a pop under the same condition.
void same_condition(CUcontext ctx, bool switch_context, CUdeviceptr p,
                    size_t n) {
  if (switch_context)
    cuCtxPushCurrent(ctx);
  fill(p, n);
  if (switch_context)
    cuCtxPopCurrent(nullptr);
}

// try/catch: the handler pops and rethrows.
void with_handler(CUcontext ctx) {
  cuCtxPushCurrent(ctx);
  try {
    may_throw();
  } catch (...) {
    cuCtxPopCurrent(nullptr);
    throw;
  }
  cuCtxPopCurrent(nullptr);
}

// "Make current and return" helpers: the caller owns what they push.
CUcontext make_context(int ordinal) {
  CUdevice dev;
  if (cuDeviceGet(&dev, ordinal) != CUDA_SUCCESS)
    return nullptr;
  CUcontext ctx = nullptr;
  if (cuCtxCreate(&ctx, nullptr, 0, dev) != CUDA_SUCCESS)
    return nullptr;
  return ctx;
}

void enter(CUcontext ctx) { cuCtxPushCurrent(ctx); }
void leave() { cuCtxPopCurrent(nullptr); }

// A floating context (PyCUDA's make_context then pop), pushed again later.
CUcontext floating_context(CUdevice dev) {
  CUcontext ctx;
  cuCtxCreate(&ctx, nullptr, 0, dev);
  cuCtxPopCurrent(nullptr);
  return ctx;
}

// A context created, used and destroyed while current.
int whole_life(CUdevice dev, size_t n) {
  CUcontext ctx;
  if (cuCtxCreate(&ctx, nullptr, 0, dev) != CUDA_SUCCESS)
    return 1;
  CUdeviceptr p;
  if (cuMemAlloc(&p, n) == CUDA_SUCCESS) {
    fill(p, n);
    cuMemFree(p);
  }
  cuCtxDestroy(ctx);
  return 0;
}

// One context per device, each pushed and popped in the loop.
void every_device(CUcontext *ctxs, int count, CUdeviceptr *bufs, size_t n) {
  for (int i = 0; i < count; ++i) {
    cuCtxPushCurrent(ctxs[i]);
    fill(bufs[i], n);
    cuCtxPopCurrent(nullptr);
  }
}

// Retained, made current, released.
void primary_current(CUdevice dev, CUdeviceptr p, size_t n) {
  CUcontext primary;
  if (cuDevicePrimaryCtxRetain(&primary, dev) != CUDA_SUCCESS)
    return;
  cuCtxSetCurrent(primary);
  fill(p, n);
  cuCtxSetCurrent(nullptr);
  cuDevicePrimaryCtxRelease(dev);
}

// A program that exits on an error: the path ends there.
[[noreturn]] void die(const char *what);
void exits_on_error(CUcontext ctx, CUdeviceptr p, size_t n) {
  cuCtxPushCurrent(ctx);
  if (fill(p, n) != CUDA_SUCCESS)
    die("fill");
  cuCtxPopCurrent(nullptr);
}

// Helpers that push and pop are balanced at the call.
void through_enter_leave(CUcontext ctx, CUdeviceptr p, size_t n) {
  enter(ctx);
  fill(p, n);
  leave();
}

// Destroying the current context pops it; the one below is current again.
void nested_destroy(CUdevice dev) {
  CUcontext outer, inner;
  cuCtxCreate(&outer, nullptr, 0, dev);
  cuCtxCreate(&inner, nullptr, 0, dev);
  cuCtxDestroy(inner);
  cuCtxDestroy(outer);
}

// A helper defined in another file whose name says it manages contexts:
// what the stack holds after it is unknown.
CUresult push_primary_context(CUdevice dev);
void external_push(CUcontext ctx, CUdevice dev, bool own, CUdeviceptr p,
                   size_t n) {
  if (own) {
    if (push_primary_context(dev) != CUDA_SUCCESS)
      return;
  } else {
    cuCtxPushCurrent(ctx);
  }
  fill(p, n);
  cuCtxPopCurrent(nullptr);
}

// Cleanup through a label that destroys the context only when one was
// created.
CUresult create_and_fill(CUdevice dev, CUdeviceptr p, size_t n,
                         CUcontext *out) {
  CUcontext ctx = nullptr;
  CUresult r = cuCtxCreate(&ctx, nullptr, 0, dev);
  if (r != CUDA_SUCCESS)
    goto fail;
  r = fill(p, n);
  if (r != CUDA_SUCCESS)
    goto fail;
  cuCtxPopCurrent(nullptr);
  *out = ctx;
  return CUDA_SUCCESS;
fail:
  if (ctx)
    cuCtxDestroy(ctx);
  return r;
}

// Several error returns that skip the pop: one finding, at the first.
CUresult several_returns(CUdevice dev, CUdeviceptr a, CUdeviceptr b,
                         size_t n, CUcontext *out) {
  CUcontext ctx;
  CUresult r = cuCtxCreate(&ctx, nullptr, 0, dev);
  if (r != CUDA_SUCCESS)
    return r;
  r = fill(a, n);
  if (r != CUDA_SUCCESS)
    return r;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the context pushed by 'cuCtxCreate' is still current when 'several_returns' returns here; other paths pop it [cuda-context-stack]
  r = fill(b, n);
  if (r != CUDA_SUCCESS)
    return r;
  cuCtxPopCurrent(out);
  return CUDA_SUCCESS;
}
