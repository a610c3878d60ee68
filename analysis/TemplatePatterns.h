//===- TemplatePatterns.h - Analysing templates nobody instantiates -*- C++ -*-===//
//
// Code in headers is often a template that the linted file never
// instantiates: a class template's member that no one calls, a function
// template used only by other files. Its pattern is then the only code there
// is to analyse. This file says which patterns are analysed that way and
// which facts a check may read from them.
//
// Safe to read from a pattern: calls whose callee does not depend on the
// template arguments (a CUDA API function, a non-template helper), how their
// results are used, and anything whose type and value are not dependent.
// A check stays silent about dependent expressions, dependent types and
// callees that only instantiation resolves (member calls on a dependent
// object, overloads chosen by argument-dependent lookup).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TEMPLATEPATTERNS_H
#define CUDA_TIDY_TEMPLATEPATTERNS_H

#include "clang/AST/Expr.h"
#include <optional>

namespace clang::tidy::cuda {

/// Whether \p FD is the definition of a template (a function template, a
/// member of a class template, a lambda or local class inside one) for which
/// the translation unit holds no instantiation with a body. Its pattern is
/// then analysed in place of its instantiations.
bool isUninstantiatedPattern(const FunctionDecl *FD);

/// Whether \p FD's body is a template pattern (dependent context), whether
/// or not it is instantiated.
inline bool isTemplatePattern(const FunctionDecl *FD) {
  return FD && FD->isDependentContext();
}

/// Whether the type or value of \p E depends on template arguments: nothing
/// about it is known in a pattern.
bool dependsOnTemplateArguments(const Expr *E);

/// Whether the value of \p E may differ between instantiations: it reads a
/// non-type template parameter, a member of a dependent type or object
/// ('Policy::Threads', 'params.n'), the size of a dependent type, or calls
/// a function that only instantiation resolves. A load of dependent type
/// ('keys[tid]' with 'Key *keys') is not: which element it reads is known.
bool readsTemplateArgumentValue(const Expr *E);

/// The function \p Call calls whatever the template arguments are: its
/// direct callee when the call is resolved; for a call that a pattern leaves
/// unresolved because an argument is dependent, the CUDA runtime or driver
/// function that every candidate names (argument-dependent lookup cannot
/// add another one of a C API's names). Null when the callee is unknown.
const FunctionDecl *independentCallee(const CallExpr *Call);

/// sizeof(\p T) in bytes, or nothing when it is not known here (dependent,
/// incomplete or of variable size).
std::optional<int64_t> knownTypeSize(QualType T, const ASTContext &Ctx);

} // namespace clang::tidy::cuda

#endif
