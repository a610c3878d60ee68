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

/// The enumerator's name: "cudaMemcpyHostToDevice".
const char *copyKindName(CopyDirection D);

/// Where the analysis reports: the user-visible location of \p Loc, or an
/// invalid location when this location was reported already.
SourceLocation reportOnce(SourceLocation Loc, const SourceManager &SM,
                          llvm::DenseSet<unsigned> &Reported);

/// The memory checks run on host functions of the main file and the user's
/// headers.
const FunctionMemorySpaces *
analyseForCheck(const FunctionDecl *FD, ASTContext &Ctx,
                const ArchConditionals &Arch);

} // namespace clang::tidy::cuda

#endif
