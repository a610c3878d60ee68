//===- PythonLaunches.h - The Python reader's synthetic launches -*- C++ -*-===//
//
// The Python reader (driver/python/cuda_tidy_reader/launches.py) writes each
// CuPy or PyCUDA launch as a host function annotated
// "cuda-tidy-python-launch|<library>", whose parameters carry the facts of
// the launch's arguments as annotations ("cuda-tidy-python-arg|<lib>|<fact>",
// one per kernel argument in order, and others that anchor notes). The
// checks that read them (cuda-kernel-arguments, cuda-tensor-contiguity) ask
// here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_PYTHONLAUNCHES_H
#define CUDA_TIDY_PYTHONLAUNCHES_H

#include "clang/AST/Decl.h"
#include <optional>

namespace clang::tidy::cuda {

/// The text after \p Prefix of \p D's annotation that starts with it.
std::optional<StringRef> pythonAnnotation(const Decl &D, StringRef Prefix);

/// The kernel that a synthetic launch function names ('(void)&ns::kernel;',
/// or a template kernel named in a call that a generic lambda never
/// instantiates); null when none.
const FunctionDecl *pythonLaunchedKernel(const FunctionDecl &Launch);

} // namespace clang::tidy::cuda

#endif
