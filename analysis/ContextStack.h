//===- ContextStack.h - The driver API's stack of current contexts -*- C++ -*-===//
//
// Each host thread has a stack of current CUDA driver contexts:
// cuCtxPushCurrent and cuCtxCreate push, cuCtxPopCurrent pops, and
// cuCtxDestroy pops the context it destroys when that context is on top.
// Primary contexts are counted apart: cuDevicePrimaryCtxRetain and
// cuDevicePrimaryCtxRelease. ContextStackAnalysis follows, path by path
// over a function's CFG, what the function itself pushes and retains, and
// finds where that does not balance. The facts about each call are the
// CUDA_CONTEXT_STACK rows of CudaApiModel.def; a same-TU function (an RAII
// guard's constructor and destructor included) acts at its call by its
// summary: its net effect, when every path through it agrees.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CONTEXTSTACK_H
#define CUDA_TIDY_CONTEXTSTACK_H

#include "ArchConditionals.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda {

class FunctionCfg;

/// What a call does to the thread's stack of current driver contexts (the
/// CUDA_CONTEXT_STACK rows of CudaApiModel.def).
enum class ContextAction {
  Push,
  Pop,
  Create,
  Destroy,
  Retain,
  Release,
  SetCurrent
};

/// A CUDA_CONTEXT_STACK row: the action, the context argument (pushed,
/// destroyed or made current, or the out-parameter a pop or create fills)
/// and the device argument (-1: none).
struct ContextStackInfo {
  ContextAction Action;
  int ContextArg;
  int DeviceArg;
};

/// The row of the driver function \p Call calls, or null.
const ContextStackInfo *contextStackRow(const CallExpr *Call);

/// One place where a function's context stack does not balance.
struct ContextStackFinding {
  enum Kind {
    /// A context this function pushed is still on the stack where it
    /// returns, though another path from the push pops it.
    LeftPushed,
    /// A pop after this function popped everything it pushed.
    PoppedTwice,
    /// A pop reached on one path with this function's push on the stack,
    /// and on another with nothing it pushed.
    PoppedUnpushed,
    /// A primary-context release after this function released what it
    /// retained.
    ReleasedTwice,
    /// A release reached on one path after this function's retain, and on
    /// another with no retain.
    ReleasedUnretained,
    /// A context destroyed while this function's stack holds it below
    /// another context: it stays on the stack, destroyed.
    DestroyedOnStack,
  } K;
  /// The call reported, or for LeftPushed the statement the path leaves by
  /// (a return; null for the end of the body).
  const Stmt *Where;
  /// The push, create or retain the finding is about.
  const Expr *Origin;
  /// The context or device variable, when the call names one.
  const VarDecl *Var;
};

class ContextStackAnalysis {
public:
  ContextStackAnalysis(ASTContext &Ctx, const ArchConditionals &Arch)
      : Ctx(Ctx), Arch(Arch) {}

  /// The findings of \p FD (whose CFG is \p Cfg), in source order; none
  /// when a path holds something unknown (an unknown summary, too many
  /// states).
  std::vector<ContextStackFinding> analyse(const FunctionDecl &FD,
                                           const FunctionCfg &Cfg);

  /// The net effect of a same-TU function on the context stack and on the
  /// primary-context references, when every path through it agrees (or
  /// every path that returns 0 does, and the others do nothing).
  struct Summary {
    int Pushes = 0;
    int Retains = 0;
    /// The effect happens only when the function returns 0 (a status
    /// such as CUDA_SUCCESS): the paths that return anything else push and
    /// retain nothing. At the call, a test of its result that fails undoes
    /// it, as for a push that failed.
    bool OnSuccess = false;
  };
  std::optional<Summary> summary(const FunctionDecl *FD);
  /// Whether \p FD touches the context stack, directly or through the
  /// same-TU functions it calls.
  bool touchesContexts(const FunctionDecl *FD);

private:
  struct Walk;
  ASTContext &Ctx;
  const ArchConditionals &Arch;
  llvm::DenseMap<const FunctionDecl *, std::optional<Summary>> Summaries;
  llvm::DenseMap<const FunctionDecl *, bool> Touches;
};

} // namespace clang::tidy::cuda

#endif
