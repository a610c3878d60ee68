//===- KernelArgumentsCheck.h -----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_KERNELARGUMENTSCHECK_H
#define CUDA_TIDY_KERNELARGUMENTSCHECK_H

#include "CudaFunctionCheck.h"

namespace clang::tidy::cuda {

/// Checks the arguments of kernels launched from Python (CuPy RawKernel and
/// RawModule, PyCUDA SourceModule) against the kernel's parameters: the
/// count, Python and numpy scalars of another size or kind, arrays of
/// another dtype, host arrays and non-contiguous views given to pointers,
/// grids and blocks that are not tuples, prepare() formats, and kernel
/// names the library cannot find. It reads the synthetic launch functions
/// the Python reader writes (docs/python.md); what the libraries do with
/// each argument is in the API model (CUDA_PYTHON_* rows).
///
/// For the user-facing documentation see:
/// docs/checks/cuda-kernel-arguments.md
class KernelArgumentsCheck : public CudaFunctionCheck {
public:
  KernelArgumentsCheck(StringRef Name, ClangTidyContext *Context);

private:
  bool mayReportIn(const FunctionDecl &FD, ASTContext &Ctx) override;
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void checkLaunch(const FunctionDecl &Launch, StringRef Spec,
                   ASTContext &Ctx);
  void checkLookup(const FunctionDecl &Lookup, StringRef Spec,
                   ASTContext &Ctx);
  /// The argument of the call of the launching function that the
  /// current argument's fact comes from (a same-file summary), and that
  /// function's name: a note of each finding on the argument.
  const ParmVarDecl *From = nullptr;
  StringRef FromFunction;
  void checkScalarForTypeParameter(const ParmVarDecl &Arg, StringRef Library,
                                   StringRef Fact, const ParmVarDecl &Param,
                                   const FunctionDecl &Kernel);
  void checkArgument(const ParmVarDecl &Arg, StringRef Library,
                     StringRef Fact, const ParmVarDecl &Param,
                     const FunctionDecl &Kernel, ASTContext &Ctx);
  void checkFormat(const FunctionDecl &Launch, StringRef Format,
                   const FunctionDecl &Kernel, ASTContext &Ctx);
};

} // namespace clang::tidy::cuda

#endif
