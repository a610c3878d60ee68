//===- CudaApiModel.h - Facts about CUDA API functions ----------*- C++ -*-===//
//
// The one place that knows which CUDA runtime, driver and C library calls
// allocate, free, copy, synchronize, launch or report errors. The facts come
// from CudaApiModel.def; every check asks here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CUDAAPIMODEL_H
#define CUDA_TIDY_CUDAAPIMODEL_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::cuda {

/// Where memory lives. A bit set, so that an analysis can hold "one of".
enum MemorySpace : unsigned {
  MS_None = 0,
  MS_Host = 1u << 0,
  MS_Device = 1u << 1,
  MS_Pinned = 1u << 2,
  MS_Mapped = 1u << 3,
  MS_Managed = 1u << 4,
  MS_Symbol = 1u << 5,
};

enum class ApiLibrary { Runtime, Driver, CLib, Mpi };

enum class CopyDirection {
  None,
  HostToHost,
  HostToDevice,
  DeviceToHost,
  DeviceToDevice,
  Default
};

enum CopyFlags : unsigned {
  CF_Async = 1u << 0,
  CF_Set = 1u << 1,
  CF_ToSymbol = 1u << 2,
  CF_FromSymbol = 1u << 3,
  CF_Peer = 1u << 4,
  CF_Pitched = 1u << 5,
  CF_Params3D = 1u << 6,
};

enum class SyncScope { Device, Stream, Event, StreamQuery, EventQuery };
enum class EventRole { Record, Wait, Elapsed };
enum class ResourceKind {
  Stream,
  Event,
  Graph,
  GraphExec,
  Array,
  TextureObject,
  SurfaceObject,
  BlasHandle,
  SparseHandle,
  SparseDescriptor,
  FftPlan,
  RandGenerator
};
enum class ResourceRole { Create, Destroy };

struct AllocInfo {
  MemorySpace Space;
  int PtrOutArg; ///< -1: the pointer is the return value.
  int BytesArg;
  int Bytes2Arg;
  int PitchOutArg;
  int StreamArg;
};

struct FreeInfo {
  unsigned AcceptedSpaces; ///< MemorySpace bits.
  int PtrArg;
  int StreamArg;
};

struct HostRegisterInfo {
  int PtrArg;
  int BytesArg;
  bool Registers;
};

struct MapHostInfo {
  int DevicePtrOutArg;
  int HostPtrArg;
};

struct CopyInfo {
  int DstArg, SrcArg, BytesArg, KindArg, StreamArg;
  CopyDirection FixedDirection;
  unsigned Flags; ///< CopyFlags bits.
  // Pitched copies only.
  int DstPitchArg = -1, SrcPitchArg = -1, WidthArg = -1, HeightArg = -1;
  bool isAsync() const { return Flags & CF_Async; }
  bool isSet() const { return Flags & CF_Set; }
};

struct SyncInfo {
  SyncScope Scope;
  int HandleArg;
  bool isQuery() const {
    return Scope == SyncScope::StreamQuery || Scope == SyncScope::EventQuery;
  }
};

struct EventInfo {
  EventRole Role;
  int EventArg, Event2Arg, StreamArg;
};

struct LaunchInfo {
  int KernelArg;
  int StreamArg;
  /// CUDA_LAUNCH_SHAPE: the grid, block and dynamic shared-memory
  /// arguments, or the launch-configuration struct's (-1: none).
  int GridArg = -1;
  int BlockArg = -1;
  int SharedMemArg = -1;
  int ConfigArg = -1;
};

/// CUDA_FUNC_SET_ATTRIBUTE: sets an attribute of a kernel.
struct FuncAttributeInfo {
  int KernelArg, AttributeArg, ValueArg;
  /// The attribute enumerator that raises the dynamic shared-memory limit.
  llvm::StringRef MaxDynamicSharedAttribute;
};

/// CUDA_LAUNCH_LIMIT: what every device rejects in a launch configuration.
struct LaunchLimits {
  int64_t MaxThreadsPerBlock = 0;
  int64_t MaxBlockDimX = 0, MaxBlockDimY = 0, MaxBlockDimZ = 0;
  int64_t MaxGridDimX = 0, MaxGridDimY = 0, MaxGridDimZ = 0;
  int64_t DynamicSharedMemoryWithoutOptIn = 0;

  int64_t maxBlockDim(unsigned Dim) const {
    return Dim == 0 ? MaxBlockDimX : Dim == 1 ? MaxBlockDimY : MaxBlockDimZ;
  }
  int64_t maxGridDim(unsigned Dim) const {
    return Dim == 0 ? MaxGridDimX : Dim == 1 ? MaxGridDimY : MaxGridDimZ;
  }
};

struct ErrorQueryInfo {
  bool ClearsError;
};

struct ResourceInfo {
  ResourceKind Kind;
  ResourceRole Role;
  int HandleArg;
};

/// A stream handle with a fixed value (CUDA_SPECIAL_STREAM rows).
enum class SpecialStream { Default, Legacy, PerThread };

/// The threads that must all arrive at a barrier.
/// Tile: the threads of one cooperative_groups tile (thread_block_tile<N>,
/// coalesced_group), at most a warp.
enum class BarrierScope { Block, Warp, Tile };

/// A barrier call: its scope, and the cooperative_groups class it belongs
/// to ("" for __syncthreads and the like).
struct BarrierInfo {
  BarrierScope Scope;
  llvm::StringRef GroupClass;
  /// The threads of the group, when its type says (thread_block_tile<32>).
  std::optional<int64_t> GroupSize;
};

/// A warp collective (CUDA_WARP_COLLECTIVE rows): the lane-mask,
/// source-lane and width arguments (-1: none).
struct WarpCollectiveInfo {
  int MaskArg;
  int SrcLaneArg;
  int WidthArg;
};

/// Everything the table says about one function name.
struct ApiFunction {
  llvm::StringRef Name;
  ApiLibrary Library = ApiLibrary::Runtime;
  std::optional<AllocInfo> Alloc;
  std::optional<FreeInfo> Free;
  std::optional<HostRegisterInfo> HostRegister;
  std::optional<MapHostInfo> MapHost;
  std::optional<CopyInfo> Copy;
  std::optional<SyncInfo> Sync;
  std::optional<EventInfo> Event;
  std::optional<LaunchInfo> Launch;
  std::optional<FuncAttributeInfo> SetAttribute;
  std::optional<ErrorQueryInfo> ErrorQuery;
  std::optional<ResourceInfo> Resource;
  /// Host printf-like functions: the index of the format argument.
  int FormatArg = -1;
  bool ImplicitSync = false;
  bool ResetsDevice = false;  ///< Releases every allocation and handle.
  int HostCallbackDataArg = -1; ///< Kept by the runtime until a callback runs.
  /// The host function a stream callback call enqueues (-1: not one).
  int HostCallbackFunctionArg = -1;
  /// exit() and the like: the status argument (-1: not one).
  int ExitStatusArg = -1;
  /// atexit() and the like: the function it registers (-1: not one).
  int ExitHandlerArg = -1;
  /// A host library call that reads (writes) the buffer at this argument
  /// itself, device memory included, without waiting for device work
  /// queued on any stream (CUDA-aware MPI); -1: none.
  int DirectReadArg = -1;
  int DirectWriteArg = -1;
  bool endsProgram() const { return ExitStatusArg >= 0; }
  /// Stream creation: the flags argument, and the flag bit that makes the
  /// stream non-blocking (-1 and 0 when the call takes no flags).
  int StreamFlagsArg = -1;
  unsigned NonBlockingBit = 0;

  /// Blocks the host until earlier device work is done, and so returns the
  /// errors of earlier asynchronous work: explicit synchronization (not the
  /// non-blocking queries), synchronous copies, and implicitly synchronizing
  /// calls.
  bool synchronizesHost() const;
  bool releasesSomething() const {
    return Free || (Resource && Resource->Role == ResourceRole::Destroy) ||
           (HostRegister && !HostRegister->Registers);
  }
};

/// Looks up CUDA API facts for declarations.
class CudaApiModel {
public:
  /// The entry for \p FD, or null when \p FD is not a modelled function
  /// (a global-namespace or extern "C" function, or a C library function in
  /// namespace std).
  /// Answers are kept per function until forgetLookups().
  static const ApiFunction *lookup(const FunctionDecl *FD);
  static const ApiFunction *lookup(const CallExpr *Call);
  /// Forgets this thread's kept answers (a translation unit starts).
  static void forgetLookups();
  /// The function \p Call calls: its direct callee, or, for a call that a
  /// template pattern leaves unresolved (a dependent argument), the runtime,
  /// driver, C library or warp intrinsic function that every candidate of
  /// its name lookup is (overloads of one API name, such as cudaMalloc and
  /// its template, or __shfl_sync for each element type).
  /// Null when the callee is not known.
  static const FunctionDecl *calleeOf(const CallExpr *Call);
  /// The entry for a name, for tests and docs.
  static const ApiFunction *lookupName(llvm::StringRef Name);

  /// The argument of \p Call that a row's argument index names: null for
  /// -1 ("none") and for an index past the call's arguments.
  static const Expr *argument(const CallExpr *Call, int Index) {
    return Index >= 0 && static_cast<unsigned>(Index) < Call->getNumArgs()
               ? Call->getArg(Index)
               : nullptr;
  }

  /// Whether \p T names one of \p TypeNames, through any typedef on the way
  /// to its canonical type (so 'cudaError_t' matches the typedef and
  /// 'cudaError' the enum).
  static bool isTypeNamed(QualType T, llvm::ArrayRef<llvm::StringRef> TypeNames);

  /// A status type of a CUDA API (CUDA_STATUS_TYPE rows).
  struct StatusType {
    llvm::StringRef Library;  ///< Runtime, Driver, cuBLAS, cuFFT...
    llvm::StringRef TypeName; ///< cudaError_t, cublasStatus_t...
    llvm::StringRef Success;  ///< cudaSuccess, CUBLAS_STATUS_SUCCESS...
  };
  static llvm::ArrayRef<StatusType> statusTypes();
  /// The library whose status \p T is (through any typedef): "Runtime",
  /// "Driver", "cuBLAS"...; empty when it is none of the model's.
  static llvm::StringRef statusLibrary(QualType T);

  /// Whether \p FD is a CUDA runtime or driver function that needs the
  /// runtime set up (CUDA_API_PREFIX rows, less CUDA_STATELESS_CALL).
  static bool isRuntimeOrDriverCall(const FunctionDecl *FD);

  /// Whether \p EC is a status the runtime or driver returns while it
  /// unloads at exit (CUDA_SHUTDOWN_STATUS rows).
  static bool isShutdownStatus(const EnumConstantDecl *EC);

  /// Whether \p E is a kernel launch: a '<<<...>>>' call or a modelled
  /// launch function. Returns the launch call.
  static bool isKernelLaunch(const CallExpr *Call);

  /// Whether \p FD belongs to a library that reports CUDA errors itself by
  /// throwing (Thrust throws thrust::system_error), so that a launch error
  /// pending when it is called does not go unnoticed.
  static bool reportsErrorsByThrowing(const FunctionDecl *FD);

  /// Whether \p RD is a host container (std::vector, std::array...) whose
  /// elements live in pageable host memory.
  static bool isHostContainer(const CXXRecordDecl *RD);

  /// Whether \p RD is one of CUDA's value types whose written copy
  /// constructors copy exactly its bits (__half2, __nv_bfloat162).
  static bool isBitwiseValueType(const CXXRecordDecl *RD);

  /// Whether \p VD is declared `__device__` (\p Kind "device") or
  /// `__constant__` ("constant") in the source. clang's device compilation
  /// marks namespace-scope const variables __constant__ implicitly; those
  /// are host variables and do not count.
  static bool isDeclaredDeviceVariable(const VarDecl *VD);
  static bool isDeclaredConstantVariable(const VarDecl *VD);

  /// The barrier \p Call waits at (CUDA_BARRIER rows), if it is one.
  static std::optional<BarrierInfo> barrierOf(const CallExpr *Call);
  /// The type of the object a member function is called on (through a
  /// pointer), static members called through an object included
  /// (`tile.thread_rank()` is a static member); null otherwise.
  static QualType objectTypeOf(const CallExpr *Call);
  /// N for a cooperative_groups::thread_block_tile<N> (through references).
  static std::optional<int64_t> tileSizeOf(QualType T);
  /// The warp collective \p Call is (CUDA_WARP_COLLECTIVE rows), if it is
  /// one: a function of the global namespace.
  static std::optional<WarpCollectiveInfo>
  warpCollectiveOf(const CallExpr *Call);
  /// The CUDA_WARP_COLLECTIVE row of \p FD, if it is one.
  static std::optional<WarpCollectiveInfo>
  warpCollectiveRow(const FunctionDecl *FD);
  /// The predicate argument of a warp vote that returns the lanes whose
  /// predicate holds (CUDA_WARP_VOTE rows).
  static std::optional<unsigned> warpVotePredicateOf(const CallExpr *Call);
  /// Whether \p Call returns a value that differs between threads whatever
  /// its arguments (CUDA_PER_THREAD_RESULT rows).
  static bool returnsPerThreadValue(const CallExpr *Call);
  /// Whether \p Call is an atomic that hands each old value to one thread
  /// (CUDA_TICKET_ATOMIC rows).
  static bool returnsTicket(const CallExpr *Call);
  /// Whether \p Call is a memory fence (CUDA_DEVICE_FENCE rows), in any
  /// namespace ('cuda::atomic_thread_fence').
  static bool isDeviceFence(const CallExpr *Call);

  /// The direction a cudaMemcpyKind argument names (Default included), when
  /// it is a constant.
  static std::optional<CopyDirection> copyKindOf(const Expr *Kind,
                                                 const ASTContext &Ctx);
  /// The direction a cudaMemcpyKind value gives, for a value known
  /// otherwise than as a constant expression.
  static std::optional<CopyDirection> copyKindOfValue(int64_t Value);

  /// The stream a constant handle value names (0, cudaStreamLegacy,
  /// cudaStreamPerThread).
  static std::optional<SpecialStream> specialStream(int64_t Value);

  /// Whether a call of \p FD, a library function the table does not
  /// describe, may wait for device work queued earlier (CUDA_MAY_WAIT_LIBRARY
  /// rows, and runtime or driver calls named "...Synchronize...").
  static bool libraryCallMayWait(const FunctionDecl *FD);

  /// The kernel a launch starts, when it is known.
  static const FunctionDecl *launchedKernel(const CallExpr *Call);

  /// The launch limits every device enforces (CUDA_LAUNCH_LIMIT rows).
  static const LaunchLimits &launchLimits();
  /// The most shared memory one block may use on sm_\p SmVersion
  /// (CUDA_ARCH_SHARED_MEMORY rows), or the largest of all architectures
  /// when the table does not list it.
  static int64_t maxSharedMemoryPerBlock(std::optional<unsigned> SmVersion);

  /// The kind of a value a Python-launched kernel is given
  /// (CUDA_PYTHON_* rows).
  enum class PythonValueKind { Bool, Signed, Unsigned, Float, Complex, Pointer };
  struct PythonValue {
    PythonValueKind Kind;
    unsigned Bytes;
  };
  /// A numpy/CuPy dtype by name (CUDA_PYTHON_DTYPE rows).
  static std::optional<PythonValue> pythonDtype(llvm::StringRef Name);
  /// The dtype a library converts a Python scalar ("pyfloat", "pyint",
  /// "pybool") to, and whether it raises instead (CUDA_PYTHON_SCALAR rows).
  static std::optional<llvm::StringRef>
  pythonScalarDtype(llvm::StringRef Library, llvm::StringRef PythonType,
                    bool &Raises);
  /// Whether a library raises for a host numpy array given to a raw kernel
  /// (else it packs the array's bytes; CUDA_PYTHON_HOST_ARRAY rows).
  static bool pythonHostArrayRaises(llvm::StringRef Library);
  /// A PyCUDA prepare() format character (CUDA_PYTHON_STRUCT_FORMAT rows).
  static std::optional<PythonValue> pythonStructFormat(char C);

private:
  static const ApiFunction *lookupUncached(const FunctionDecl *FD);
};

} // namespace clang::tidy::cuda

#endif
