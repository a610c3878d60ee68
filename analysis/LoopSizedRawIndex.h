//===- LoopSizedRawIndex.h - Strided indexes into loop-sized arrays -*- C++ -*-===//
//
// A CuPy ElementwiseKernel runs its index 'i' once over every element of
// its loop (the broadcast shape of its non-raw arrays, or 'size='). The
// Python reader lowers the kernel as a grid-stride loop
// 'for (int i = ...; i < _ind.size(); ...)' and marks each 'raw' parameter
// that a call in the file sizes to that loop with
// annotate("cuda-tidy-python-loop-sized|<line of the call>")
// (driver/python/cuda_tidy_reader/elementwise_calls.py).
//
// Such an array has at most as many elements as the loop has iterations,
// so an index 'i * c + d' with a stride c >= 2 (a constant, or a template
// hole plus a positive constant such as 'N + 1') and d >= 0 runs past its
// end for the later iterations, and 'i + d' with d >= 1 for the last d. The access is reported only where no
// condition in the loop's body names 'i' (a guard, or an index bounded by
// 'i % n' or 'i < n', is not second-guessed).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LOOPSIZEDRAWINDEX_H
#define CUDA_TIDY_LOOPSIZEDRAWINDEX_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang::tidy::cuda {

/// An access of a loop-sized raw array at a stride of the loop index.
struct LoopSizedOverrun {
  const Expr *At = nullptr;           ///< The subscript.
  const ParmVarDecl *Array = nullptr; ///< The raw parameter.
  const Expr *Index = nullptr;
  /// The stride, or null for 'i + Offset'.
  const Expr *Stride = nullptr;
  /// How far past 'i' the index reads, when Stride is null.
  int64_t Offset = 0;
  const VarDecl *LoopIndex = nullptr; ///< 'i'.
  bool Write = false;
  unsigned CallLine = 0; ///< The Python line of the call that sizes it.
};

/// Whether \p Kernel has a raw parameter the reader marked loop-sized
/// (cheap: asked before a CFG is built).
bool hasLoopSizedRawParameter(const FunctionDecl &Kernel);

/// Calls \p Found for each such access in \p Kernel, in source order.
void loopSizedRawOverruns(const FunctionDecl &Kernel, ASTContext &Ctx,
                          llvm::function_ref<void(const LoopSizedOverrun &)>
                              Found);

} // namespace clang::tidy::cuda

#endif
