//===- ResultUse.h - How the value of an expression is used -----*- C++ -*-===//
//
// Answers "is the error code a call returns ever looked at?", for the
// unchecked-call and unchecked-launch checks: whether the value is thrown
// away, cast to void, stored in a local variable, or consumed, and whether a
// stored value is read on some path before it is overwritten or dies.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_RESULTUSE_H
#define CUDA_TIDY_RESULTUSE_H

#include "FunctionCfg.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::cuda {

struct ResultUse {
  enum Kind {
    Discarded,  ///< The value is thrown away: `f();`, `f(), g();`.
    CastToVoid, ///< `(void)f();`, `static_cast<void>(f())`.
    Stored,     ///< `err = f();` or `T err = f();` into a local variable.
    Consumed,   ///< Compared, returned, passed on, or anything else.
  };
  Kind K = Consumed;
  const VarDecl *Var = nullptr;     ///< For Stored: the variable.
  const Stmt *StoreStmt = nullptr;  ///< For Stored: the `=` or the DeclStmt.
  const Stmt *Statement = nullptr;  ///< For Discarded: the statement.
};

/// Classifies the use of the value of \p E inside the body of \p Cfg's
/// function.
ResultUse classifyResultUse(const Expr *E, const FunctionCfg &Cfg);

/// The outcome of following a value stored into a local variable.
struct StoredValueFate {
  bool MayBeRead = true;              ///< Read on some path (or unknown).
  const Stmt *OverwrittenAt = nullptr; ///< First overwrite found, if any.
};

/// Follows the value that \p Use stored into its variable along every path
/// and tells whether any path reads it before it is overwritten or goes out
/// of scope. Variables whose address is taken or that are bound to a
/// reference count as read.
StoredValueFate followStoredValue(const ResultUse &Use,
                                  const FunctionCfg &Cfg);

/// Whether \p Use means the value is looked at.
bool isResultExamined(const ResultUse &Use, const FunctionCfg &Cfg);

/// Whether \p Call is a CUDA runtime call (it returns cudaError_t), whose
/// failure the runtime records as the thread's last error.
bool recordsLastError(const CallExpr *Call);

/// Whether every path from the runtime call \p Call examines the last
/// error (cudaGetLastError or cudaPeekAtLastError whose value is looked at,
/// here or in a same-TU function called here) before any other runtime
/// call: that check sees the failure of \p Call.
bool lastErrorExaminedAfter(const CallExpr *Call, const FunctionCfg &Cfg,
                            ASTContext &Ctx);

/// Whether \p A and \p B are two expansions of one macro argument (the
/// macro evaluates that argument twice), in one expansion of the macro.
bool sameMacroArgument(const Expr *A, const Expr *B, const SourceManager &SM);

/// When \p Call is the first evaluation of a macro argument that the macro
/// evaluates again in a branch taken on its result
/// (`if ((x) != cudaSuccess) report(x)`), that second evaluation.
const CallExpr *reevaluatedOnFailure(const CallExpr *Call,
                                     const FunctionCfg &Cfg);

} // namespace clang::tidy::cuda

#endif
