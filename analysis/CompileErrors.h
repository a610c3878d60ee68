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
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class ASTContext;
class FunctionDecl;
class Stmt;
class VarDecl;
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
/// compile error was reported inside it, or \p FD's own declaration did not
/// compile. Facts about such a body are unknown.
bool bodyDidNotCompile(const FunctionDecl *FD, const SourceManager &SM);

/// Whether \p FD is an invalid declaration only because types in its
/// signature did not compile (`void render(const glm::vec3 *pts, float *out)`
/// with glm's header missing): every error reported in its declaration lies
/// in a parameter that is invalid, or in its return type. Its body is read
/// as code with errors: each use of such a parameter is a recovery node.
bool onlySignatureDidNotCompile(const FunctionDecl *FD,
                                const SourceManager &SM);

/// Whether \p FD's body cannot be read even in part: a syntax error inside
/// it (the parser may have dropped tokens with no node for them), an
/// invalid declaration (`ns::undeclared(p);` leaves no node for `p`), or a
/// semantic error that no expression covers. A body with errors that is
/// not unreadable holds only recovery nodes where it did not compile:
/// checks whose Traits read code with errors analyse it, and treat each
/// erroneous action (isErroneousAction) as unknown.
bool bodyIsUnreadable(const FunctionDecl *FD, const SourceManager &SM);

/// While alive, TranslationUnitAnalyses::cfgOf builds the CFG of \p FD even
/// though its body did not compile (when it is not unreadable): the check
/// that analyses \p FD reads code with errors. Every other question about
/// \p FD (a caller's summary) still gets no CFG.
class ReadingBodyWithErrors {
public:
  explicit ReadingBodyWithErrors(const FunctionDecl *FD);
  ~ReadingBodyWithErrors();
  ReadingBodyWithErrors(const ReadingBodyWithErrors &) = delete;
  ReadingBodyWithErrors &operator=(const ReadingBodyWithErrors &) = delete;
  /// The function being read, or null.
  static const FunctionDecl *current();

private:
  const FunctionDecl *Previous;
};

/// Whether \p S is an action that did not compile: a RecoveryExpr (a call
/// of an undeclared function, a call no overload accepts), a call or
/// construction an argument of which did not compile, or a call that typo
/// correction completed (an error was reported inside it). What it does is
/// unknown: it may synchronize, examine the last error, free, keep or
/// reset anything it can reach; no finding is reported on it.
bool isErroneousAction(const Stmt *S, const ASTContext &Ctx);

/// Whether erroneous action \p S is a launch whose kernel or arguments did
/// not compile (`k<<<g, b>>>(pts, out)` with `pts` of a type whose header
/// is missing). It is still a launch: it may write what it is passed, but
/// it examines no error, frees nothing and resets nothing.
bool isErroneousLaunch(const Stmt *S, const ASTContext &Ctx);

/// Whether erroneous action \p S may act on a variable \p Watched accepts:
/// it passes one (other than to a call inside it that compiled, whose
/// effect is known), or it takes no argument at all (`cudaThreadExit()`:
/// an action on the whole program). False when \p S is not erroneous.
bool erroneousActionMayTouch(const Stmt *S, const ASTContext &Ctx,
                             llvm::function_ref<bool(const VarDecl *)> Watched);

/// Whether a finding at \p Loc inside the body of \p FD, a function read
/// with errors, may depend on code that did not compile: the statement
/// around \p Loc holds a recovery node or an erroneous action, or it names
/// a variable whose value may come from one (an erroneous action may act
/// on it, or its initializer or an assignment to it reads a recovery node
/// or such a variable), or a file-scope variable while \p FD holds an
/// erroneous action. With \p Paths the finding is a fact about what runs
/// before or after it, and any erroneous action other than a wrapper
/// around calls that compiled (`CHECK(cudaFree(p))`) or a call that typo
/// correction completed may change it.
bool findingMayDependOnErrors(const FunctionDecl *FD, SourceLocation Loc,
                              bool Paths);

/// Whether a kernel-side finding at \p Loc (an access at a thread-derived
/// index, a barrier, a collective) inside \p FD, a function read with
/// errors, may depend on code that did not compile: the access at \p Loc
/// holds a recovery node or names a variable whose value may come from
/// one, a condition of \p FD holds a recovery node (a guard or a branch is
/// unknown), or \p FD holds an erroneous action (it may be a barrier, a
/// check that traps, a collective). Data read through a name whose type
/// did not compile (`pts[i].x`, `pts` a parameter of a missing type)
/// changes none of these.
bool accessFindingMayDependOnErrors(const FunctionDecl *FD, SourceLocation Loc);

/// Whether \p Loc lies inside the body of \p FD.
bool isInBodyOf(const FunctionDecl *FD, SourceLocation Loc);

} // namespace clang::tidy::cuda

#endif
