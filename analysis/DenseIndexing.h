//===- DenseIndexing.h - Kernel parameters indexed as dense arrays -*- C++ -*-===//
//
// Whether a kernel reads or writes a pointer parameter as a dense array: a
// subscript 'p[e]' (or '*(p + e)') whose index has a thread-derived term of
// stride one, the flat thread index itself ('p[i]', 'p[i + 1]'), or the
// fastest coordinate of a row-major index ('p[row * cols + col]'). Such a
// kernel assumes that consecutive elements are adjacent in memory: given
// the pointer of a transposed or sliced array it reads the wrong elements.
// An index that multiplies every thread-derived term by something other
// than 1 ('p[i * incx]', 'p[col * ld + row]' read per column) handles a
// stride of its own and is not dense. A local variable is followed to its
// initializer while it is never modified ('int k = i * incx; p[k]'); a
// modified one (a grid-stride loop's 'i') is read by the thread-index
// analysis as a whole.
//
// The Python reader asks it (through cuda-kernel-arguments) of a CuPy
// kernel given an array that its launching function received and never
// made contiguous.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_DENSEINDEXING_H
#define CUDA_TIDY_DENSEINDEXING_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::cuda {

class ThreadIndexAnalysis;

/// The first access in \p Kernel's body (source order) that indexes its
/// parameter \p P densely; null when there is none.
const Expr *denseAccessOf(const ParmVarDecl &P, const FunctionDecl &Kernel,
                          ThreadIndexAnalysis &Threads);

/// The first access that indexes \p P as a row-major two-dimensional array
/// ('m[r * cols + c]', 'm[row * width + col]'): one whose elements in a
/// transposed order are the wrong ones even where every array of an
/// elementwise kernel shares that order; null when there is none.
const Expr *rowMajorAccessOf(const ParmVarDecl &P, const FunctionDecl &Kernel,
                             ThreadIndexAnalysis &Threads);

} // namespace clang::tidy::cuda

#endif
