//===- ErrorCheckWrapper.h - The project's own error check ------*- C++ -*-===//
//
// Most CUDA projects check errors through one wrapper of their own, written
// around the call: cudaCheck(cudaMalloc(...)), CUDA_CHECK(...),
// checkCudaErrors(...), C10_CUDA_CHECK(...), or a function such as
// check(cudaFree(p)). This analysis learns that wrapper from the translation
// unit, so that a fix for an unchecked call can use it without any
// configuration: among the calls that return a checked error type and are
// the single argument of a macro or function, the wrapper used most often.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ERRORCHECKWRAPPER_H
#define CUDA_TIDY_ERRORCHECKWRAPPER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>

namespace clang::tidy::cuda {

/// A wrapper that takes one error-returning call as its only argument.
struct ErrorCheckWrapper {
  std::string Name;      ///< As written: a macro name or a function name.
  bool IsMacro = false;
  /// For a function, its first declaration (a fix may use it only after).
  const FunctionDecl *Function = nullptr;
  unsigned Calls = 0;    ///< How many calls of the unit it wraps.
};

/// Whether \p FD runs on the device only (__global__, or __device__
/// without __host__): a wrapper learned from host code may call host
/// functions, and one learned from device code device functions.
bool isDeviceOnlyCode(const FunctionDecl *FD);

/// The wrapper that wraps the most calls returning one of \p CheckedTypes
/// in the main file (a header's calls are not counted: a precompiled
/// prefix may hold it), in the functions that run where \p DeviceCode says
/// (isDeviceOnlyCode; template instantiations not counted twice); none
/// when no call is wrapped there or two wrappers tie.
std::optional<ErrorCheckWrapper>
learnErrorCheckWrapper(ASTContext &Ctx,
                       llvm::ArrayRef<llvm::StringRef> CheckedTypes,
                       bool DeviceCode);

} // namespace clang::tidy::cuda

#endif
