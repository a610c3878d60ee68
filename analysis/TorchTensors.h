//===- TorchTensors.h - What extensions know of their tensors ---*- C++ -*-===//
//
// In a PyTorch extension, a tensor that comes from Python may have any
// layout, device and dtype; the extension must check or convert it before
// it hands a raw pointer to a kernel. This analysis answers, for a tensor
// expression at a point of a function, whether a property (TensorProperty:
// contiguous, on a GPU, of one dtype) is
//
// - guaranteed: a query of it (x.is_contiguous(), x.is_cuda(),
//   x.scalar_type(), a CHECK_INPUT-style macro, a device guard built from
//   x.device()) comes before the point in the function that declares x, or
//   x was made by a conversion (x.contiguous(), x.cuda(), x.to(...)) or by
//   a factory whose options fix it;
// - from Python: x is a parameter of a function bound to Python in this
//   translation unit (PYBIND11_MODULE's m.def, TORCH_LIBRARY), or is passed
//   down to x from one through same-TU calls, with no such evidence on the
//   way;
// - known to be CPU: x was made by a factory whose options name no device;
// - for a function with no caller here, what its callers in other files
//   pass, when the driver keeps the project's summary (TensorCallers.h):
//   guaranteed when every one guarantees the property, from Python when
//   one passes an unchecked tensor from Python;
// - unknown otherwise (no caller known, a tensor returned by an unknown
//   function): the checks stay silent.
//
// It also finds the raw pointers and accessors that reach a kernel launch
// (directly, through local pointer variables, pointer arithmetic and
// same-TU calls), and the dtype an AT_DISPATCH_* case fixes for the tensor
// it switches on. Facts are gathered once per function that declares a
// tensor and memoized per translation unit. Docs: docs/torch.md.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TORCHTENSORS_H
#define CUDA_TIDY_TORCHTENSORS_H

#include "TorchApiModel.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <string>

namespace clang::tidy::cuda {

/// MaybeStrided (contiguity only): a gradient that autograd hands to a C++
/// autograd function's backward, a tensor of empty_strided/as_strided, or a
/// *_like copy of one: its layout is whatever made it.
enum class TensorOrigin {
  Guaranteed,
  FromPython,
  KnownCpu,
  MaybeStrided,
  Unknown
};

struct TensorVerdict {
  TensorOrigin Origin = TensorOrigin::Unknown;
  /// FromPython: the bound function's parameter the tensor comes from.
  const ParmVarDecl *PythonParam = nullptr;
  /// FromPython: the binding call (m.def) that exposes that function.
  const CallExpr *Binding = nullptr;
  /// KnownCpu: the factory call that made the tensor; MaybeStrided: the
  /// strided factory (empty_strided, as_strided), if that is the cause.
  const CallExpr *Factory = nullptr;
  /// MaybeStrided: the backward's gradients parameter, if that is the cause.
  const ParmVarDecl *Gradients = nullptr;
  /// FromPython through another file (TensorCallers.h): "call in
  /// file:line" or "binding in file:line"; Binding is then null.
  std::string ExternalCall;
};

/// A raw pointer or accessor taken from a tensor that reaches a kernel.
struct TensorPointerUse {
  /// x.data_ptr<float>(), x.packed_accessor32<...>()
  const CallExpr *PointerCall;
  const Expr *Tensor;         ///< x
  const CallExpr *Launch;     ///< the kernel launch it reaches
  const FunctionDecl *Kernel; ///< the launched kernel (may be null)
  TensorPointerInfo Info;
};

class TorchTensorAnalysis {
public:
  explicit TorchTensorAnalysis(ASTContext &Ctx);
  ~TorchTensorAnalysis();

  /// Whether the translation unit includes torch at all.
  bool enabled() const { return Enabled; }

  /// Whether \p FD is bound to Python in this translation unit: its caller
  /// is Python code, which examines no CUDA error itself.
  bool isBoundToPython(const FunctionDecl *FD);

  /// Records, in the project's summary (TensorCallers.h, when active),
  /// what each call of a function that this translation unit declares but
  /// does not define passes for its tensor parameters. Once per analysis.
  void recordCallsToOtherFiles();

  /// What is known of \p Property of \p Tensor where \p At is evaluated.
  TensorVerdict verdict(const Expr *Tensor, TensorProperty Property,
                        const Stmt *At);

  /// The pointers and accessors taken from tensors that reach each kernel
  /// launch written in \p FD's body (not in nested lambdas, which are
  /// functions of their own).
  llvm::SmallVector<TensorPointerUse, 4>
  pointersToKernels(const FunctionDecl &FD);

  /// The element type an AT_DISPATCH_* case fixes for the tensor of
  /// \p PointerCall (its scalar_t), when the case dispatches on that tensor
  /// or on one whose dtype is compared equal to it; or a null type.
  QualType dispatchedType(const CallExpr *PointerCall);

  /// Whether a device guard is built, or a device made current (or read,
  /// to compare), before \p At in \p FD or, for a lambda, in the
  /// functions around it (TORCH_DEVICE_GUARD, TORCH_DEVICE_SELECT rows).
  bool selectsDeviceBefore(const FunctionDecl &FD, const Stmt *At);

  /// Whether the function that declares \p A compares its dtype with
  /// \p B's (TORCH_CHECK(a.scalar_type() == b.scalar_type())).
  bool sameDtype(const VarDecl *A, const VarDecl *B);

  /// The dtype a conversion or factory fixes for \p Tensor ("Float"), or "".
  llvm::StringRef convertedScalarType(const Expr *Tensor);

  /// Where a finding at \p Loc is shown: code in an AT_DISPATCH_* lambda is
  /// expanded once per case, each a different macro location of one line.
  static SourceLocation findingLocation(SourceLocation Loc,
                                        const SourceManager &SM);

  /// The variable \p E names (through parentheses, casts and copies).
  static const VarDecl *variableOf(const Expr *E);

  /// Whether \p T (a pointee type) is the element type of \p ScalarType.
  static bool isElementTypeOf(QualType T, llvm::StringRef ScalarType);

  struct Impl; ///< The state, defined in TorchTensors.cpp.

private:
  std::unique_ptr<Impl> P;
  bool Enabled;
  bool Recorded = false;
};

} // namespace clang::tidy::cuda

#endif
