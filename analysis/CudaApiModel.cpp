//===- CudaApiModel.cpp ---------------------------------------------------===//

#include "CudaApiModel.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>

namespace clang::tidy::cuda {
namespace {

constexpr unsigned Host = MS_Host, Device = MS_Device, Pinned = MS_Pinned,
                   Managed = MS_Managed;
constexpr unsigned Async = CF_Async, Set = CF_Set, ToSymbol = CF_ToSymbol,
                   FromSymbol = CF_FromSymbol, Peer = CF_Peer,
                   Pitched = CF_Pitched, Params3D = CF_Params3D;

class Table {
public:
  Table() {
#define CUDA_ALLOC(N, L, S, Ptr, Bytes, Bytes2, PitchOut, Stream)              \
  entry(#N, ApiLibrary::L).Alloc =                                             \
      AllocInfo{MS_##S, Ptr, Bytes, Bytes2, PitchOut, Stream};
#define CUDA_FREE(N, L, Spaces, Ptr, Stream)                                   \
  entry(#N, ApiLibrary::L).Free = FreeInfo{Spaces, Ptr, Stream};
#define CUDA_HOST_REGISTER(N, L, Ptr, Bytes, Reg)                              \
  entry(#N, ApiLibrary::L).HostRegister = HostRegisterInfo{Ptr, Bytes, Reg};
#define CUDA_MAP_HOST(N, L, DevOut, HostPtr)                                   \
  entry(#N, ApiLibrary::L).MapHost = MapHostInfo{DevOut, HostPtr};
#define CUDA_COPY(N, L, Dst, Src, Bytes, Kind, Stream, Fixed, Flags)           \
  entry(#N, ApiLibrary::L).Copy =                                              \
      CopyInfo{Dst, Src, Bytes, Kind, Stream, CopyDirection::Fixed, Flags};
#define CUDA_SYNC(N, L, Scope, Handle)                                         \
  entry(#N, ApiLibrary::L).Sync = SyncInfo{SyncScope::Scope, Handle};
#define CUDA_EVENT(N, L, Role, Ev, Ev2, Stream)                                \
  entry(#N, ApiLibrary::L).Event = EventInfo{EventRole::Role, Ev, Ev2, Stream};
#define CUDA_LAUNCH(N, L, Kernel, Stream)                                      \
  entry(#N, ApiLibrary::L).Launch = LaunchInfo{Kernel, Stream};
#define CUDA_ERROR_QUERY(N, L, Clears)                                         \
  entry(#N, ApiLibrary::L).ErrorQuery = ErrorQueryInfo{Clears != 0};
#define CUDA_RESOURCE(N, L, Kind, Role, Handle)                                \
  entry(#N, ApiLibrary::L).Resource =                                          \
      ResourceInfo{ResourceKind::Kind, ResourceRole::Role, Handle};
#include "CudaApiModel.def"
    // Second pass: facts that refine entries made above.
#define CUDA_COPY_PITCH(N, DstPitch, SrcPitch, Width, Height)                  \
  {                                                                            \
    CopyInfo &C = *Entries[#N].Copy;                                           \
    C.DstPitchArg = DstPitch;                                                  \
    C.SrcPitchArg = SrcPitch;                                                  \
    C.WidthArg = Width;                                                        \
    C.HeightArg = Height;                                                      \
  }
#define CUDA_LAUNCH_SHAPE(N, Grid, Block, Shared, Config)                      \
  {                                                                            \
    LaunchInfo &L = *Entries[#N].Launch;                                       \
    L.GridArg = Grid;                                                          \
    L.BlockArg = Block;                                                        \
    L.SharedMemArg = Shared;                                                   \
    L.ConfigArg = Config;                                                      \
  }
#define CUDA_IMPLICIT_SYNC(N) Entries[#N].ImplicitSync = true;
#define CUDA_DEVICE_RESET(N) Entries[#N].ResetsDevice = true;
#define CUDA_HOST_CALLBACK(N, L, Fn, Data)                                     \
  {                                                                            \
    ApiFunction &F = entry(#N, ApiLibrary::L);                                 \
    F.HostCallbackFunctionArg = Fn;                                            \
    F.HostCallbackDataArg = Data;                                              \
  }
#define CUDA_PROGRAM_EXIT(N, Status)                                           \
  entry(#N, ApiLibrary::CLib).ExitStatusArg = Status;
#define CUDA_EXIT_HANDLER(N, Fn)                                               \
  entry(#N, ApiLibrary::CLib).ExitHandlerArg = Fn;
#define CUDA_DIRECT_ACCESS(N, L, Read, Write)                                  \
  {                                                                            \
    ApiFunction &F = entry(#N, ApiLibrary::L);                                 \
    F.DirectReadArg = Read;                                                    \
    F.DirectWriteArg = Write;                                                  \
  }

#define CUDA_STREAM_FLAGS(N, Flags, NonBlocking)                               \
  {                                                                            \
    ApiFunction &F = Entries[#N];                                              \
    F.StreamFlagsArg = Flags;                                                  \
    F.NonBlockingBit = NonBlocking;                                            \
  }
#define CUDA_HOST_FORMAT(N, Format)                                            \
  entry(#N, ApiLibrary::CLib).FormatArg = Format;
#define CUDA_FUNC_SET_ATTRIBUTE(N, L, Kernel, Attribute, Value, MaxDynamic)    \
  entry(#N, ApiLibrary::L).SetAttribute =                                      \
      FuncAttributeInfo{Kernel, Attribute, Value, #MaxDynamic};
#include "CudaApiModel.def"
    for (auto &E : Entries)
      E.second.Name = E.first();
    // Functions named with their namespaces: PyTorch's caching allocator.
    constexpr bool Alloc = true, Free = false;
#define TORCH_CUDA_ALLOCATOR(Q, Role, Arg) qualifiedAllocator(#Q, Role, Arg);
#include "CudaApiModel.def"
  }

  const ApiFunction *find(llvm::StringRef Name) const {
    auto It = Entries.find(Name);
    return It == Entries.end() ? nullptr : &It->second;
  }
  /// \p FD's entry among the functions named with their namespaces.
  const ApiFunction *findQualified(const FunctionDecl *FD) const {
    if (!QualifiedLastNames.contains(FD->getName()))
      return nullptr;
    auto It = Qualified.find(FD->getQualifiedNameAsString());
    return It == Qualified.end() ? nullptr : &It->second;
  }

private:
  ApiFunction &entry(llvm::StringRef Name, ApiLibrary Lib) {
    ApiFunction &F = Entries[Name];
    F.Library = Lib;
    return F;
  }
  /// raw_alloc returns device memory of Arg bytes; raw_delete frees Arg.
  void qualifiedAllocator(llvm::StringRef Name, bool Allocates, int Arg) {
    ApiFunction &F = Qualified[Name];
    F.Name = Name;
    QualifiedLastNames.insert(Name.rsplit("::").second);
    if (Allocates)
      F.Alloc = AllocInfo{MS_Device, -1, Arg, -1, -1, -1};
    else
      F.Free = FreeInfo{MS_Device, Arg, -1};
  }
  llvm::StringMap<ApiFunction> Entries;
  llvm::StringMap<ApiFunction> Qualified;
  llvm::StringSet<> QualifiedLastNames;
};

const Table &table() {
  static const Table T;
  return T;
}

bool isInStdNamespace(const DeclContext *DC) {
  const auto *NS = dyn_cast<NamespaceDecl>(DC);
  return NS && NS->isStdNamespace();
}

} // namespace

bool ApiFunction::synchronizesHost() const {
  if (Sync)
    return !Sync->isQuery();
  if (Copy)
    return !Copy->isAsync() && !Copy->isSet() &&
           Library != ApiLibrary::CLib;
  return ImplicitSync;
}

const ApiFunction *CudaApiModel::lookupName(llvm::StringRef Name) {
  return table().find(Name);
}

namespace {
/// lookup()'s answers for one translation unit's functions, on this thread.
/// TranslationUnitAnalyses::reset() forgets them when a unit starts; a
/// function of another ASTContext forgets them too.
struct LookupCache {
  const ASTContext *Ctx = nullptr;
  llvm::DenseMap<const FunctionDecl *, const ApiFunction *> Answers;
};
thread_local LookupCache Cache;
} // namespace

void CudaApiModel::forgetLookups() {
  Cache.Ctx = nullptr;
  Cache.Answers.clear();
}

const ApiFunction *CudaApiModel::lookup(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return nullptr;
  const ASTContext &Ctx = FD->getASTContext();
  if (Cache.Ctx != &Ctx) {
    forgetLookups();
    Cache.Ctx = &Ctx;
  }
  if (auto It = Cache.Answers.find(FD); It != Cache.Answers.end())
    return It->second;
  const ApiFunction *F = lookupUncached(FD);
  Cache.Answers[FD] = F;
  return F;
}

const ApiFunction *CudaApiModel::lookupUncached(const FunctionDecl *FD) {
  llvm::StringRef Name = FD->getIdentifier()->getName();
  const ApiFunction *F = table().find(Name);
  // Built with --default-stream per-thread, the runtime headers rename the
  // stream-ordered calls (cudaMemcpy_ptds, cudaMemcpyAsync_ptsz).
  if (!F && (Name.ends_with("_ptds") || Name.ends_with("_ptsz")))
    F = table().find(Name.drop_back(5));
  if (!F && !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return table().findQualified(FD);
  if (!F)
    return nullptr;
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  if (DC->isTranslationUnit() || FD->isExternC())
    return F;
  if (F->Library == ApiLibrary::CLib && isInStdNamespace(DC))
    return F;
  return nullptr;
}

const ApiFunction *CudaApiModel::lookup(const CallExpr *Call) {
  return lookup(calleeOf(Call));
}

const FunctionDecl *CudaApiModel::calleeOf(const CallExpr *Call) {
  if (!Call)
    return nullptr;
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD;
  const auto *Lookup =
      dyn_cast_or_null<UnresolvedLookupExpr>(Call->getCallee()->IgnoreParens());
  if (!Lookup || Lookup->getNumDecls() == 0)
    return nullptr;
  const FunctionDecl *Found = nullptr;
  for (const NamedDecl *D : Lookup->decls()) {
    const FunctionDecl *FD = D->getUnderlyingDecl()->getAsFunction();
    if (!FD || !FD->getIdentifier() ||
        (!isRuntimeOrDriverCall(FD) && !lookup(FD) && !warpCollectiveRow(FD)) ||
        (Found && Found->getName() != FD->getName()))
      return nullptr;
    // The C function rather than a C++ template overload of it.
    if (!Found || (Found->getDescribedFunctionTemplate() &&
                   !FD->getDescribedFunctionTemplate()))
      Found = FD;
  }
  return Found;
}

bool CudaApiModel::isTypeNamed(QualType T,
                               llvm::ArrayRef<llvm::StringRef> TypeNames) {
  auto Listed = [&](llvm::StringRef Name) {
    Name.consume_front("::");
    for (llvm::StringRef N : TypeNames) {
      N.consume_front("::");
      if (N == Name)
        return true;
    }
    return false;
  };
  while (!T.isNull()) {
    if (const auto *TT = T->getAs<TypedefType>()) {
      if (Listed(TT->getDecl()->getQualifiedNameAsString()))
        return true;
      T = TT->getDecl()->getUnderlyingType();
      continue;
    }
    break;
  }
  if (T.isNull())
    return false;
  if (const auto *TD = T.getCanonicalType()->getAsTagDecl()) {
    if (Listed(TD->getQualifiedNameAsString()))
      return true;
    if (const TypedefNameDecl *Anon = TD->getTypedefNameForAnonDecl())
      return Listed(Anon->getQualifiedNameAsString());
  }
  return false;
}

bool CudaApiModel::isKernelLaunch(const CallExpr *Call) {
  if (isa<CUDAKernelCallExpr>(Call))
    return true;
  const ApiFunction *F = lookup(Call);
  return F && F->Launch;
}

bool CudaApiModel::reportsErrorsByThrowing(const FunctionDecl *FD) {
  for (const DeclContext *DC = FD->getDeclContext(); DC;
       DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getParent()->getRedeclContext()->isTranslationUnit())
        return NS->getName() == "thrust";
  return false;
}

bool CudaApiModel::isHostContainer(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier())
    return false;
  const auto *NS =
      dyn_cast<NamespaceDecl>(RD->getDeclContext()->getEnclosingNamespaceContext());
  // Look through inline namespaces (std::__1, std::__cxx11).
  while (NS && NS->isInline())
    NS = dyn_cast<NamespaceDecl>(NS->getParent());
  if (!NS || !NS->getParent()->getRedeclContext()->isTranslationUnit())
    return false;
  llvm::StringRef Namespace = NS->getName(), Name = RD->getName();
#define CUDA_HOST_CONTAINER(N, C)                                              \
  if (Namespace == #N && Name == #C)                                           \
    return true;
#include "CudaApiModel.def"
  return false;
}

bool CudaApiModel::isBitwiseValueType(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier() ||
      !RD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  llvm::StringRef Name = RD->getName();
#define CUDA_BITWISE_VALUE_TYPE(N)                                             \
  if (Name == #N)                                                              \
    return true;
#include "CudaApiModel.def"
  return false;
}

template <typename AttrT> static bool hasExplicitAttr(const VarDecl *VD) {
  const auto *A = VD ? VD->getAttr<AttrT>() : nullptr;
  return A && !A->isImplicit();
}

bool CudaApiModel::isDeclaredDeviceVariable(const VarDecl *VD) {
  return hasExplicitAttr<CUDADeviceAttr>(VD);
}

bool CudaApiModel::isDeclaredConstantVariable(const VarDecl *VD) {
  return hasExplicitAttr<CUDAConstantAttr>(VD);
}

const FunctionDecl *CudaApiModel::launchedKernel(const CallExpr *Call) {
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(Call))
    return K->getDirectCallee();
  const ApiFunction *F = lookup(Call);
  if (!F || !F->Launch || F->Launch->KernelArg < 0 ||
      (unsigned)F->Launch->KernelArg >= Call->getNumArgs())
    return nullptr;
  const Expr *Arg = Call->getArg(F->Launch->KernelArg)->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Arg))
    if (U->getOpcode() == UO_AddrOf)
      Arg = U->getSubExpr()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg))
    return dyn_cast<FunctionDecl>(DRE->getDecl());
  return nullptr;
}

const LaunchLimits &CudaApiModel::launchLimits() {
  static const LaunchLimits Limits = [] {
    LaunchLimits L;
#define CUDA_LAUNCH_LIMIT(Field, Value) L.Field = Value;
#include "CudaApiModel.def"
    return L;
  }();
  return Limits;
}

int64_t CudaApiModel::maxSharedMemoryPerBlock(
    std::optional<unsigned> SmVersion) {
  int64_t Largest = 0;
#define CUDA_ARCH_SHARED_MEMORY(Sm, Bytes)                                     \
  if (SmVersion && *SmVersion == Sm)                                           \
    return Bytes;                                                              \
  Largest = std::max<int64_t>(Largest, Bytes);
#include "CudaApiModel.def"
  return Largest;
}

std::optional<CopyDirection>
CudaApiModel::copyKindOf(const Expr *Kind, const ASTContext &Ctx) {
  if (!Kind)
    return std::nullopt;
  Expr::EvalResult R;
  if (Kind->isValueDependent() || !Kind->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return copyKindOfValue(R.Val.getInt().getExtValue());
}

std::optional<CopyDirection> CudaApiModel::copyKindOfValue(int64_t Value) {
  switch (Value) {
  case 0:
    return CopyDirection::HostToHost;
  case 1:
    return CopyDirection::HostToDevice;
  case 2:
    return CopyDirection::DeviceToHost;
  case 3:
    return CopyDirection::DeviceToDevice;
  case 4:
    return CopyDirection::Default;
  default:
    return std::nullopt;
  }
}

std::optional<SpecialStream> CudaApiModel::specialStream(int64_t Value) {
  constexpr SpecialStream Default = SpecialStream::Default,
                          Legacy = SpecialStream::Legacy,
                          PerThread = SpecialStream::PerThread;
#define CUDA_SPECIAL_STREAM(V, Kind)                                           \
  if (Value == V)                                                              \
    return Kind;
#include "CudaApiModel.def"
  (void)Default, (void)Legacy, (void)PerThread;
  return std::nullopt;
}

bool CudaApiModel::libraryCallMayWait(const FunctionDecl *FD) {
  if (!FD)
    return true;
  std::string Qualified = FD->getQualifiedNameAsString();
  llvm::StringRef Name = Qualified;
#define CUDA_MAY_WAIT_LIBRARY(Prefix)                                          \
  if (Name.starts_with(#Prefix))                                               \
    return true;
#include "CudaApiModel.def"
  bool RuntimeOrDriver =
      FD->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
      Name.starts_with("cu");
  return RuntimeOrDriver && Name.contains("Synchronize");
}

namespace {

struct BarrierRow {
  BarrierScope Scope;
  llvm::StringRef GroupClass, Name;
};

const llvm::SmallVector<BarrierRow, 8> &barrierRows() {
  static const llvm::SmallVector<BarrierRow, 8> Rows = [] {
    constexpr BarrierScope Block = BarrierScope::Block,
                           Warp = BarrierScope::Warp, Tile = BarrierScope::Tile;
    llvm::SmallVector<BarrierRow, 8> R;
#define CUDA_BARRIER(Scope, GroupClass, Name)                                  \
  R.push_back({Scope, #GroupClass, #Name});
#include "CudaApiModel.def"
    (void)Block, (void)Warp, (void)Tile;
    return R;
  }();
  return Rows;
}

bool isInCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

/// The cooperative_groups class of \p T (through references), or "".
llvm::StringRef groupClassOf(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier() || !isInCooperativeGroups(RD))
    return "";
  return RD->getName();
}

} // namespace

QualType CudaApiModel::objectTypeOf(const CallExpr *Call) {
  if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Call))
    return MC->getObjectType();
  const auto *ME =
      Call ? dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts())
           : nullptr;
  if (!ME)
    return QualType();
  QualType T = ME->getBase()->getType();
  return ME->isArrow() ? T->getPointeeType() : T;
}

std::optional<int64_t> CudaApiModel::tileSizeOf(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "thread_block_tile" ||
      !isInCooperativeGroups(Spec) || Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return Spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
}

std::optional<BarrierInfo> CudaApiModel::barrierOf(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  llvm::StringRef Name = FD->getName();
  llvm::StringRef Group;
  QualType GroupType;
  bool Global = FD->getDeclContext()->getRedeclContext()->isTranslationUnit();
  if (isa<CXXMethodDecl>(FD)) {
    // block.sync() calls a static member: the class is the object's.
    GroupType = objectTypeOf(Call);
  } else if (!Global && isInCooperativeGroups(FD) && Call->getNumArgs() >= 1) {
    GroupType = Call->getArg(0)->getType();
  } else if (!Global) {
    return std::nullopt;
  }
  if (!GroupType.isNull())
    Group = groupClassOf(GroupType);
  for (const BarrierRow &R : barrierRows())
    if (R.Name == Name && R.GroupClass == Group)
      return BarrierInfo{R.Scope, R.GroupClass,
                         GroupType.isNull() ? std::nullopt
                                            : tileSizeOf(GroupType)};
  return std::nullopt;
}

bool CudaApiModel::returnsPerThreadValue(const CallExpr *Call) {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> S;
#define CUDA_PER_THREAD_RESULT(Name) S.insert(#Name);
#include "CudaApiModel.def"
    return S;
  }();
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() &&
         FD->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
         Names.contains(FD->getName());
}

bool CudaApiModel::returnsTicket(const CallExpr *Call) {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> S;
#define CUDA_TICKET_ATOMIC(Name) S.insert(#Name);
#include "CudaApiModel.def"
    return S;
  }();
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() &&
         FD->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
         Names.contains(FD->getName());
}

bool CudaApiModel::isDeviceFence(const CallExpr *Call) {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> S;
#define CUDA_DEVICE_FENCE(Name) S.insert(#Name);
#include "CudaApiModel.def"
    return S;
  }();
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && Names.contains(FD->getName());
}

std::optional<WarpCollectiveInfo>
CudaApiModel::warpCollectiveRow(const FunctionDecl *FD) {
  static const llvm::StringMap<WarpCollectiveInfo> Rows = [] {
    llvm::StringMap<WarpCollectiveInfo> M;
#define CUDA_WARP_COLLECTIVE(Name, MaskArg, SrcLaneArg, WidthArg)              \
  M[#Name] = {MaskArg, SrcLaneArg, WidthArg};
#include "CudaApiModel.def"
    return M;
  }();
  if (!FD || !FD->getIdentifier() ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return std::nullopt;
  auto It = Rows.find(FD->getName());
  if (It == Rows.end())
    return std::nullopt;
  return It->second;
}

std::optional<WarpCollectiveInfo>
CudaApiModel::warpCollectiveOf(const CallExpr *Call) {
  // calleeOf: in a template pattern, '__shfl_sync(m, v, 0)' on a value of
  // dependent type is resolved only at instantiation, among overloads that
  // all name the one intrinsic.
  return warpCollectiveRow(calleeOf(Call));
}

llvm::ArrayRef<CudaApiModel::StatusType> CudaApiModel::statusTypes() {
  static const StatusType Rows[] = {
#define CUDA_STATUS_TYPE(Library, TypeName, Success)                           \
  {#Library, #TypeName, #Success},
#include "CudaApiModel.def"
  };
  return Rows;
}

llvm::StringRef CudaApiModel::statusLibrary(QualType T) {
  for (const StatusType &S : statusTypes())
    if (isTypeNamed(T, {S.TypeName}))
      return S.Library;
  return {};
}

bool CudaApiModel::isShutdownStatus(const EnumConstantDecl *EC) {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> S;
#define CUDA_SHUTDOWN_STATUS(Enumerator) S.insert(#Enumerator);
#include "CudaApiModel.def"
    return S;
  }();
  return EC && EC->getIdentifier() && Names.contains(EC->getName());
}

std::optional<unsigned>
CudaApiModel::warpVotePredicateOf(const CallExpr *Call) {
  static const llvm::StringMap<unsigned> Rows = [] {
    llvm::StringMap<unsigned> M;
#define CUDA_WARP_VOTE(Name, PredicateArg) M[#Name] = PredicateArg;
#include "CudaApiModel.def"
    return M;
  }();
  const FunctionDecl *FD = calleeOf(Call);
  if (!FD || !FD->getIdentifier() ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return std::nullopt;
  auto It = Rows.find(FD->getName());
  if (It == Rows.end() || It->second >= Call->getNumArgs())
    return std::nullopt;
  return It->second;
}

bool CudaApiModel::isRuntimeOrDriverCall(const FunctionDecl *FD) {
  static const llvm::StringSet<> Stateless = [] {
    llvm::StringSet<> S;
#define CUDA_STATELESS_CALL(Name) S.insert(#Name);
#include "CudaApiModel.def"
    return S;
  }();
  if (!FD || !FD->getIdentifier() ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  if (!SM.isInSystemHeader(FD->getLocation()))
    return false;
  llvm::StringRef Name = FD->getName();
  if (Stateless.contains(Name))
    return false;
  auto HasPrefix = [&](llvm::StringRef Prefix) {
    return Name.size() > Prefix.size() && Name.starts_with(Prefix) &&
           llvm::isUpper(Name[Prefix.size()]);
  };
#define CUDA_API_PREFIX(Prefix, Library)                                       \
  if (HasPrefix(#Prefix))                                                      \
    return true;
#include "CudaApiModel.def"
  return false;
}

std::optional<CudaApiModel::PythonValue>
CudaApiModel::pythonDtype(llvm::StringRef Name) {
#define CUDA_PYTHON_DTYPE(N, Kind, Bytes)                                      \
  if (Name == #N)                                                              \
    return PythonValue{PythonValueKind::Kind, Bytes};
#include "CudaApiModel.def"
  return std::nullopt;
}

std::optional<llvm::StringRef>
CudaApiModel::pythonScalarDtype(llvm::StringRef Library,
                                llvm::StringRef PythonType, bool &Raises) {
#define CUDA_PYTHON_SCALAR(L, T, Dtype, Passing)                               \
  if (Library == #L && PythonType == #T) {                                     \
    Raises = llvm::StringRef(#Passing) == "Raises";                            \
    return llvm::StringRef(#Dtype);                                            \
  }
#include "CudaApiModel.def"
  return std::nullopt;
}

bool CudaApiModel::pythonHostArrayRaises(llvm::StringRef Library) {
#define CUDA_PYTHON_HOST_ARRAY(L, Passing)                                     \
  if (Library == #L)                                                           \
    return llvm::StringRef(#Passing) == "Raises";
#include "CudaApiModel.def"
  return false;
}

std::optional<CudaApiModel::PythonValue>
CudaApiModel::pythonStructFormat(char C) {
#define CUDA_PYTHON_STRUCT_FORMAT(Ch, Kind, Bytes)                             \
  if (C == Ch)                                                                 \
    return PythonValue{PythonValueKind::Kind, Bytes};
#include "CudaApiModel.def"
  return std::nullopt;
}

} // namespace clang::tidy::cuda
