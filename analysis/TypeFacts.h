//===- TypeFacts.h - What copies and casts of a type do ---------*- C++ -*-===//
//
// Facts about C++ types that checks ask: whether copying or destroying an
// object of a class does more than a bitwise copy would (a kernel launch
// copies its arguments bitwise and destroys the host's copy), and what
// elements a buffer holds behind a pointer cast to another type.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TYPEFACTS_H
#define CUDA_TIDY_TYPEFACTS_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::cuda {

/// The user-provided special member of \p RD whose work a bitwise copy
/// skips: a destructor that does anything (frees, releases a count, logs),
/// or a copy or move constructor that does more than copy each member from
/// the same member of its source. Null when every such member is empty,
/// defaulted or memberwise, or when no body is visible, its own or its
/// template pattern's (unknown), or when \p RD is one of CUDA's value
/// types whose written copies copy its bits (the API model's list). Bases
/// and members are not looked into.
const FunctionDecl *copyWithEffects(const CXXRecordDecl *RD);

/// The element type of the buffer \p Ptr points into: the pointee of the
/// expression under any explicit pointer casts ('(float4 *)d' views the
/// buffer of 'float *d' without changing what it holds), or of an array.
/// Void when the buffer is only seen as 'void *'; null when \p Ptr is not
/// a pointer or array.
QualType bufferElementTypeOf(const Expr *Ptr);

} // namespace clang::tidy::cuda

#endif
