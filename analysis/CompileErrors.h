//===- CompileErrors.h - What did not compile -------------------*- C++ -*-===//
//
// A file with a compile error (a missing header, a typo) is still analysed:
// every function whose body compiled gets every check. Clang marks where its
// AST is incomplete with recovery nodes (RecoveryExpr, expressions that
// containsErrors(), invalid declarations), and a syntax error may drop
// tokens with no node at all; a function whose body holds either is not
// seen whole, and the analyses read it as unknown (isAnalysableFunction).
//
// A missing #include is a fatal error in clang, after which it skips every
// later #include and stops instantiating templates: `cudaMalloc(&p, n)`
// (the runtime's template overload) no longer resolves anywhere in the
// file. CompileErrors makes that one diagnostic an ordinary error, as
// libclang's KeepGoing mode does for every fatal one.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_COMPILEERRORS_H
#define CUDA_TIDY_COMPILEERRORS_H

#include "clang/Basic/SourceLocation.h"

namespace clang {
class FunctionDecl;
class Preprocessor;
class SourceManager;
} // namespace clang

namespace clang::tidy::cuda {

/// Makes a missing #include an ordinary error in \p PP's compilation and
/// starts recording where errors are reported (once per compilation: every
/// check's registerPPCallbacks calls it).
void attachCompileErrors(Preprocessor &PP);

/// Whether \p FD's body did not compile whole: it holds a recovery node
/// (an expression that containsErrors(), an invalid declaration), or a
/// compile error was reported inside it. Facts about such a body are
/// unknown.
bool bodyDidNotCompile(const FunctionDecl *FD, const SourceManager &SM);

} // namespace clang::tidy::cuda

#endif
