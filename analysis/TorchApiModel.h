//===- TorchApiModel.h - Facts about PyTorch's C++ API ----------*- C++ -*-===//
//
// Lookups over the torch rows of CudaApiModel.def (TORCH_*): tensor
// classes, the methods that take a raw pointer or accessor from a tensor,
// that examine or establish its layout, device and dtype, the factories,
// the dtype enumerators, the current stream, device guards and the calls
// that bind a function to Python. Checks ask here; none names a torch API.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TORCHAPIMODEL_H
#define CUDA_TIDY_TORCHAPIMODEL_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace clang::tidy::cuda {

/// What a tensor may or may not be: bits of a set.
enum TensorProperty : unsigned {
  TP_None = 0,
  TP_Contiguous = 1u << 0, ///< Laid out densely in row-major order.
  TP_Cuda = 1u << 1,       ///< On a GPU.
  TP_Dtype = 1u << 2,      ///< Of one known scalar type.
  /// On the device that is current where the tensor is used (a launch
  /// there reaches it without a peer access).
  TP_CurrentDevice = 1u << 3,
};

/// A method that takes the address of a tensor's elements
/// (TORCH_TENSOR_POINTER rows).
struct TensorPointerInfo {
  bool Typed;   ///< data_ptr<T>(): checked against the dtype at run time.
  bool Strided; ///< An accessor that carries the strides.
};

/// A function that throws unless its tensors have properties
/// (TORCH_TENSOR_CHECK rows).
struct TensorCheckInfo {
  unsigned Properties;
  bool NeedsCudaArgument; ///< Checked only when an argument names CUDA.
};

/// A factory (TORCH_TENSOR_FACTORY rows).
struct TensorFactoryInfo {
  int LikeArg; ///< The tensor a *_like factory copies (-1: none).
};

/// A CUDA library's handle (CUDA_LIBRARY_HANDLE rows) and PyTorch's
/// handle of that library (TORCH_LIBRARY_HANDLE rows).
struct LibraryHandleInfo {
  llvm::StringRef Library;     ///< "cuBLAS"
  llvm::StringRef SetStream;   ///< "cublasSetStream_v2"
  llvm::StringRef TorchHandle; ///< "at::cuda::getCurrentCUDABlasHandle", or ""
};

/// A call written in a device registry's macros (TORCH_DEVICE_REGISTRY
/// rows): a dispatch of the function Key to the implementation registered
/// for its tensors' device type, or the registration of Implementation.
struct DeviceRegistryCall {
  const FunctionDecl *Key = nullptr;
  /// Dispatch: the call's argument that is Key's first argument.
  unsigned FirstArgument = 0;
  /// Register: the registered function (null for a dispatch), and whether
  /// it is registered for CUDA.
  const FunctionDecl *Implementation = nullptr;
  bool ForCuda = false;
};

/// What a call does to a library handle.
enum class LibraryHandleRole { None, Create, SetStream, Destroy, Use };

class TorchApiModel {
public:
  /// The library whose handle type \p T is (through references and
  /// qualifiers, by its typedef's name: cublasHandle_t, cufftHandle).
  static std::optional<LibraryHandleInfo> libraryHandle(QualType T);
  /// What \p Call does to the library handle of its first argument (a
  /// pointer to one for Create), or None when it takes no handle.
  static LibraryHandleRole libraryHandleRole(const CallExpr *Call);
  /// Whether \p T (through references, const and typedefs) is a tensor.
  static bool isTensorType(QualType T);
  /// The tensor whose method \p Call calls (its object expression), or null.
  static const Expr *tensorObject(const CallExpr *Call);
  /// \p Call takes a pointer or accessor from a tensor.
  static std::optional<TensorPointerInfo> pointerCall(const CallExpr *Call);
  /// The properties \p Call examines: a query on a tensor, or on what its
  /// device(), options() or type() return (TORCH_TENSOR_QUERY rows).
  static unsigned queriedProperties(const CallExpr *Call);
  /// The properties \p Call's result has whatever its object was
  /// (TORCH_TENSOR_CONVERSION rows); TP_None when it is not a conversion.
  static unsigned establishedProperties(const CallExpr *Call);
  /// \p Call is a check of at:: that throws unless its tensors have some
  /// properties (checkAllSameGPU, checkContiguous, ...).
  static std::optional<TensorCheckInfo> tensorCheckCall(const CallExpr *Call);
  /// Whether \p T (through references, const and typedefs) is at::TensorArg.
  static bool isTensorArgType(QualType T);
  /// \p Call is a factory of at:: or torch::.
  static std::optional<TensorFactoryInfo> factoryCall(const CallExpr *Call);
  /// Whether \p Call's result has strides it is given (empty_strided,
  /// as_strided: TORCH_STRIDED_RESULT rows), so is not known contiguous.
  static bool isStridedResult(const CallExpr *Call);
  /// Whether \p PVD is the gradients parameter of the static backward of a
  /// C++ autograd function (TORCH_AUTOGRAD_FUNCTION rows).
  static bool isAutogradGradients(const ParmVarDecl *PVD);
  /// The element type of a scalar-type enumerator (c10::ScalarType::Float
  /// gives "float"), or "" (TORCH_SCALAR_TYPE rows).
  static llvm::StringRef cppTypeOfScalarType(llvm::StringRef Enumerator);
  /// The scalar-type enumerator \p E names (at::kFloat, torch::kFloat32,
  /// ScalarType::Float), or "".
  static llvm::StringRef scalarTypeNamed(const Expr *E);
  /// The name of the alias an AT_DISPATCH case declares (TORCH_DISPATCH_ALIAS).
  static bool isDispatchAlias(const NamedDecl *D);
  /// \p FD returns PyTorch's current stream (TORCH_CURRENT_STREAM rows).
  static bool isCurrentStreamFunction(const FunctionDecl *FD);
  /// \p RD is a device or stream guard (TORCH_DEVICE_GUARD rows).
  static bool isDeviceGuard(const CXXRecordDecl *RD);
  /// \p Call makes a device current or reads which one is
  /// (TORCH_DEVICE_SELECT rows).
  static bool isDeviceSelectCall(const CallExpr *Call);
  /// \p Call binds a C++ function to Python (TORCH_BINDING rows).
  static bool isBindingCall(const CallExpr *Call);
  /// \p Call dispatches through, or registers in, a device registry.
  static std::optional<DeviceRegistryCall>
  deviceRegistryCall(const CallExpr *Call, const ASTContext &Ctx);
  /// The registration macros of device registries (REGISTER_DEVICE_IMPL):
  /// the driver orders the files that use one after the dispatch files.
  static llvm::ArrayRef<llvm::StringRef> deviceRegistrationMacros();
  /// The tensor method \p Call asks for an extent with (TORCH_SIZE_QUERY
  /// rows: "numel", "size", "sizes"...), or "" when it asks none; an
  /// element of 'x.sizes()' names "sizes".
  static llvm::StringRef sizeQuery(const CallExpr *Call);
  /// The caching allocator's raw_alloc (true) or raw_delete (false)
  /// (TORCH_CUDA_ALLOCATOR rows), with its size or pointer argument.
  static std::optional<bool> allocatorCall(const FunctionDecl *FD, int &Arg);
  /// Whether the translation unit declares torch's tensor class.
  static bool declaresTensor(const ASTContext &Ctx);
};

} // namespace clang::tidy::cuda

#endif
