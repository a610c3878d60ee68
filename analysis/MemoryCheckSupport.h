//===- MemoryCheckSupport.h - Shared by the memory checks -------*- C++ -*-===//
//
// What the four memory-space checks share: naming a pointer in a message,
// the note at the allocation that decided a finding, and the cudaMemcpyKind
// of a copy.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MEMORYCHECKSUPPORT_H
#define CUDA_TIDY_MEMORYCHECKSUPPORT_H

#include "CudaApiModel.h"
#include "MemorySpaceAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <optional>
#include <string>

namespace clang::tidy::cuda {

/// The source text of \p E without casts, quoted, for a message; "the
/// pointer" when it is long or comes from a macro body.
std::string pointerName(const Expr *E, const ASTContext &Ctx);

/// The source text of \p E, unquoted (empty when it cannot be read).
std::string sourceText(const Expr *E, const ASTContext &Ctx);

/// Adds a note at the allocation behind \p F, when there is one.
void noteAllocation(ClangTidyCheck &Check, const PointerFact &F,
                    const SourceManager &SM);

/// The pointer whose memory \p S reads or writes (`*p`, `p[i]`, `p->f`),
/// or null when \p S only computes an address (`&p[i]`, `&p->f`).
const Expr *dereferencedPointer(const Stmt *S, const ParentMap &PM);

/// Whether \p S sits in a branch that cannot run in this function (or
/// template instantiation): its condition folds to the other value, as
/// `if constexpr`, `sizeof(T) == 8` and `typeid(T) == typeid(double)` do.
bool isInDeadBranch(const Stmt *S, const ParentMap &PM, ASTContext &Ctx);

/// The enumerator's name: "cudaMemcpyHostToDevice".
const char *copyKindName(CopyDirection D);

} // namespace clang::tidy::cuda

#endif
