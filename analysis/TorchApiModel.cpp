//===- TorchApiModel.cpp --------------------------------------------------===//

#include "TorchApiModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <vector>

namespace clang::tidy::cuda {
namespace {

struct Tables {
  llvm::StringSet<> TensorClasses, CurrentStream, DispatchAliases,
      DeviceSelect;
  llvm::StringMap<TensorPointerInfo> Pointers;
  llvm::StringMap<unsigned> Queries, Conversions;
  llvm::StringMap<TensorFactoryInfo> Factories;
  llvm::StringSet<> StridedResults;
  llvm::StringSet<> SizeQueries;
  llvm::StringSet<> AutogradFunctions;
  llvm::StringMap<TensorCheckInfo> Checks;
  llvm::StringMap<llvm::StringRef> ScalarTypes;
  llvm::StringMap<bool> Guards;
  llvm::StringSet<> Bindings; ///< "Class::Method"
  llvm::StringSet<> RegistryDispatch, RegistryRegister;
  std::vector<llvm::StringRef> RegistryRegisterNames;
  llvm::StringMap<std::pair<bool, int>> Allocator;
  /// By handle type; and each create, set-stream and destroy function.
  llvm::StringMap<LibraryHandleInfo> Handles;
  llvm::StringMap<LibraryHandleRole> HandleFunctions;

  Tables() {
    constexpr unsigned Contiguous = TP_Contiguous, Cuda = TP_Cuda,
                       Dtype = TP_Dtype, CurrentDevice = TP_CurrentDevice;
    constexpr bool Alloc = true, Free = false;
#define TORCH_TENSOR_CLASS(Q) TensorClasses.insert(#Q);
#define TORCH_TENSOR_POINTER(M, Typed, Strided)                                \
  Pointers[#M] = TensorPointerInfo{Typed != 0, Strided != 0};
#define TORCH_TENSOR_QUERY(M, P) Queries[#M] |= P;
#define TORCH_TENSOR_CONVERSION(M, P) Conversions[#M] |= P;
#define TORCH_TENSOR_FACTORY(N, Like) Factories[#N] = TensorFactoryInfo{Like};
#define TORCH_STRIDED_RESULT(N) StridedResults.insert(#N);
#define TORCH_SIZE_QUERY(M) SizeQueries.insert(#M);
#define TORCH_AUTOGRAD_FUNCTION(C) AutogradFunctions.insert(#C);
#define TORCH_TENSOR_CHECK(N, P, NeedsCuda)                                    \
  Checks[#N] = TensorCheckInfo{P, NeedsCuda != 0};
#define TORCH_SCALAR_TYPE(E, T) ScalarTypes[#E] = #T;
#define TORCH_DISPATCH_ALIAS(N) DispatchAliases.insert(#N);
#define TORCH_CURRENT_STREAM(Q) CurrentStream.insert(#Q);
#define TORCH_DEVICE_GUARD(Q, SetsStream) Guards[#Q] = SetsStream != 0;
#define TORCH_DEVICE_SELECT(Q) DeviceSelect.insert(#Q);
#define TORCH_BINDING(C, M) Bindings.insert(#C "::" #M);
#define TORCH_DEVICE_REGISTRY(D, R)                                            \
  RegistryDispatch.insert(#D);                                                 \
  RegistryRegister.insert(#R);                                                 \
  RegistryRegisterNames.push_back(#R);
#define TORCH_CUDA_ALLOCATOR(Q, Role, Arg) Allocator[#Q] = {Role, Arg};
#define CUDA_LIBRARY_HANDLE(Lib, Type, MakeFn, StreamFn, EndFn)               \
  Handles[#Type] = LibraryHandleInfo{#Lib, #StreamFn, ""};                     \
  HandleFunctions[#MakeFn] = LibraryHandleRole::Create;                        \
  HandleFunctions[#StreamFn] = LibraryHandleRole::SetStream;                   \
  HandleFunctions[#EndFn] = LibraryHandleRole::Destroy;
#include "CudaApiModel.def"
#define TORCH_LIBRARY_HANDLE(Lib, Q)                                           \
  for (auto &H : Handles)                                                      \
    if (H.second.Library == #Lib)                                              \
      H.second.TorchHandle = #Q;
#include "CudaApiModel.def"
    (void)Contiguous, (void)Cuda, (void)Dtype, (void)CurrentDevice,
        (void)Alloc, (void)Free;
  }
};

const Tables &tables() {
  static const Tables T;
  return T;
}

const CXXRecordDecl *recordOf(QualType T) {
  T = T.getNonReferenceType();
  return T->getAsCXXRecordDecl();
}

/// The method \p Call calls on an object, and that object.
const CXXMethodDecl *methodOf(const CallExpr *Call, const Expr *&Object) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Call);
  if (!MC)
    return nullptr;
  Object = MC->getImplicitObjectArgument();
  return MC->getMethodDecl();
}

bool isTensorRecord(const CXXRecordDecl *RD) {
  if (!RD)
    return false;
  return tables().TensorClasses.contains(RD->getQualifiedNameAsString());
}

} // namespace

bool TorchApiModel::isTensorType(QualType T) {
  return !T.isNull() && isTensorRecord(recordOf(T));
}

const Expr *TorchApiModel::tensorObject(const CallExpr *Call) {
  const Expr *Object = nullptr;
  const CXXMethodDecl *MD = methodOf(Call, Object);
  if (!MD || !Object || !isTensorRecord(MD->getParent()))
    return nullptr;
  return Object;
}

std::optional<TensorPointerInfo>
TorchApiModel::pointerCall(const CallExpr *Call) {
  const Expr *Object = tensorObject(Call);
  if (!Object)
    return std::nullopt;
  const auto *MD = cast<CXXMemberCallExpr>(Call)->getMethodDecl();
  if (!MD->getIdentifier())
    return std::nullopt;
  auto It = tables().Pointers.find(MD->getName());
  if (It == tables().Pointers.end())
    return std::nullopt;
  TensorPointerInfo Info = It->second;
  // data_ptr() without a template argument returns void*.
  if (!MD->getTemplateSpecializationArgs() && !MD->getPrimaryTemplate())
    Info.Typed = false;
  return Info;
}

llvm::StringRef TorchApiModel::sizeQuery(const CallExpr *Call) {
  // 'x.sizes()[0]': an element of the extents.
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Call))
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
      if (const auto *Inner = dyn_cast<CallExpr>(
              OC->getArg(0)->IgnoreParenImpCasts()->IgnoreImplicit()))
        return sizeQuery(Inner);
  const Expr *Object = tensorObject(Call);
  if (!Object)
    return "";
  const auto *MD = cast<CXXMemberCallExpr>(Call)->getMethodDecl();
  if (!MD->getIdentifier())
    return "";
  auto It = tables().SizeQueries.find(MD->getName());
  return It == tables().SizeQueries.end() ? llvm::StringRef() : It->getKey();
}

unsigned TorchApiModel::queriedProperties(const CallExpr *Call) {
  const Expr *Object = nullptr;
  const CXXMethodDecl *MD = methodOf(Call, Object);
  if (!MD || !MD->getIdentifier() || !Object)
    return TP_None;
  auto It = tables().Queries.find(MD->getName());
  if (It == tables().Queries.end())
    return TP_None;
  // x.is_cuda(), or x.device().is_cuda(), x.options().dtype(),
  // x.type().is_cuda() (what a tensor method returns, asked in turn).
  if (isTensorRecord(MD->getParent()))
    return It->second;
  const auto *Inner =
      dyn_cast<CallExpr>(Object->IgnoreParenImpCasts()->IgnoreImplicit());
  if (Inner && tensorObject(Inner))
    return It->second;
  return TP_None;
}

unsigned TorchApiModel::establishedProperties(const CallExpr *Call) {
  const Expr *Object = nullptr;
  const CXXMethodDecl *MD = methodOf(Call, Object);
  if (!MD || !MD->getIdentifier() || !isTensorRecord(MD->getParent()))
    return TP_None;
  auto It = tables().Conversions.find(MD->getName());
  return It == tables().Conversions.end() ? TP_None : It->second;
}

std::optional<TensorFactoryInfo>
TorchApiModel::factoryCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || isa<CXXMethodDecl>(FD))
    return std::nullopt;
  auto It = tables().Factories.find(FD->getName());
  if (It == tables().Factories.end() || !isTensorType(FD->getReturnType()))
    return std::nullopt;
  return It->second;
}

bool TorchApiModel::isStridedResult(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && isTensorType(FD->getReturnType()) &&
         tables().StridedResults.contains(FD->getName());
}

bool TorchApiModel::isAutogradGradients(const ParmVarDecl *PVD) {
  const auto *MD =
      PVD ? dyn_cast_or_null<CXXMethodDecl>(PVD->getDeclContext()) : nullptr;
  if (!MD || !MD->isStatic() || !MD->getIdentifier() ||
      MD->getName() != "backward" ||
      PVD->getFunctionScopeIndex() + 1 != MD->getNumParams())
    return false;
  const CXXRecordDecl *RD = MD->getParent();
  if (!RD || !RD->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &B : RD->bases()) {
    const auto *TST = B.getType()->getAs<TemplateSpecializationType>();
    const TemplateDecl *TD =
        TST ? TST->getTemplateName().getAsTemplateDecl() : nullptr;
    if (!TD) {
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
        if (const auto *Spec =
                dyn_cast<ClassTemplateSpecializationDecl>(Base))
          TD = Spec->getSpecializedTemplate();
    }
    if (TD && tables().AutogradFunctions.contains(
                  TD->getQualifiedNameAsString()))
      return true;
  }
  return false;
}

std::optional<TensorCheckInfo>
TorchApiModel::tensorCheckCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || isa<CXXMethodDecl>(FD))
    return std::nullopt;
  const auto *NS = dyn_cast<NamespaceDecl>(FD->getDeclContext());
  if (!NS || NS->getName() != "at" ||
      !isa<TranslationUnitDecl>(NS->getDeclContext()->getRedeclContext()))
    return std::nullopt;
  auto It = tables().Checks.find(FD->getName());
  if (It == tables().Checks.end())
    return std::nullopt;
  return It->second;
}

bool TorchApiModel::isTensorArgType(QualType T) {
  const CXXRecordDecl *RD = T.isNull() ? nullptr : recordOf(T);
  return RD && RD->getQualifiedNameAsString() == "at::TensorArg";
}

llvm::StringRef TorchApiModel::cppTypeOfScalarType(llvm::StringRef E) {
  auto It = tables().ScalarTypes.find(E);
  return It == tables().ScalarTypes.end() ? "" : It->second;
}

llvm::StringRef TorchApiModel::scalarTypeNamed(const Expr *E) {
  for (int Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CXXConstructExpr>(E))
      E = C->getNumArgs() == 1 ? C->getArg(0) : nullptr;
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl())) {
        const auto *ED = dyn_cast<EnumDecl>(EC->getDeclContext());
        if (ED && ED->getName() == "ScalarType" &&
            !cppTypeOfScalarType(EC->getName()).empty())
          return EC->getName();
        return "";
      }
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      E = VD && VD->isConstexpr() ? VD->getInit() : nullptr;
    } else if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MTE->getSubExpr();
    } else {
      return "";
    }
  }
  return "";
}

bool TorchApiModel::isDispatchAlias(const NamedDecl *D) {
  return D && D->getIdentifier() &&
         tables().DispatchAliases.contains(D->getName());
}

bool TorchApiModel::isCurrentStreamFunction(const FunctionDecl *FD) {
  return FD && tables().CurrentStream.contains(FD->getQualifiedNameAsString());
}

bool TorchApiModel::isDeviceGuard(const CXXRecordDecl *RD) {
  return RD && tables().Guards.count(RD->getQualifiedNameAsString());
}

std::optional<LibraryHandleInfo> TorchApiModel::libraryHandle(QualType T) {
  if (T.isNull())
    return std::nullopt;
  T = T.getNonReferenceType().getUnqualifiedType();
  const auto *TT = T->getAs<TypedefType>();
  if (!TT)
    return std::nullopt;
  auto It = tables().Handles.find(TT->getDecl()->getName());
  if (It == tables().Handles.end())
    return std::nullopt;
  return It->second;
}

LibraryHandleRole TorchApiModel::libraryHandleRole(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getNumParams() == 0)
    return LibraryHandleRole::None;
  auto It = tables().HandleFunctions.find(FD->getName());
  if (It != tables().HandleFunctions.end())
    return It->second;
  // The library's own functions (cublasSgemm_v2, cufftExecC2C), not a
  // project's function that takes a handle.
  std::optional<LibraryHandleInfo> Info =
      libraryHandle(FD->getParamDecl(0)->getType());
  return Info && FD->getName().starts_with_insensitive(Info->Library)
             ? LibraryHandleRole::Use
             : LibraryHandleRole::None;
}

bool TorchApiModel::isDeviceSelectCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD &&
         tables().DeviceSelect.contains(FD->getQualifiedNameAsString());
}

bool TorchApiModel::isBindingCall(const CallExpr *Call) {
  const Expr *Object = nullptr;
  const CXXMethodDecl *MD = methodOf(Call, Object);
  if (!MD || !MD->getIdentifier())
    return false;
  return tables().Bindings.contains(
      MD->getParent()->getQualifiedNameAsString() + "::" + MD->getName().str());
}

namespace {

/// The function a device registry is keyed by: the function template
/// argument of the registry class's specialization (DeviceRegistry<F, key>).
const FunctionDecl *registryKeyOf(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec)
    return nullptr;
  for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
    if (A.getKind() == TemplateArgument::Declaration)
      if (const auto *FD = dyn_cast<FunctionDecl>(A.getAsDecl()))
        return FD;
  return nullptr;
}

/// The function \p E names (f, &f), or null.
const FunctionDecl *functionNamed(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
}

/// Whether \p E names the CUDA device type (at::kCUDA, DeviceType::CUDA).
bool namesCudaDeviceType(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!DRE || !DRE->getDecl()->getIdentifier())
    return false;
  llvm::StringRef Name = DRE->getDecl()->getName();
  return Name == "kCUDA" || (Name == "CUDA" && isa<EnumConstantDecl>(DRE->getDecl()));
}

} // namespace

std::optional<DeviceRegistryCall>
TorchApiModel::deviceRegistryCall(const CallExpr *Call, const ASTContext &Ctx) {
  if (!Call || !Call->getBeginLoc().isMacroID())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  const Tables &T = tables();
  std::optional<bool> Dispatch;
  SourceLocation Loc = Call->getBeginLoc();
  for (int I = 0; I < 16 && Loc.isMacroID() && !Dispatch; ++I) {
    llvm::StringRef Name =
        Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts());
    if (T.RegistryDispatch.contains(Name))
      Dispatch = true;
    else if (T.RegistryRegister.contains(Name))
      Dispatch = false;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  if (!Dispatch)
    return std::nullopt;
  DeviceRegistryCall R;
  if (*Dispatch) {
    // Dispatch(registry, "name", args...): the key's arguments are the last.
    for (const Expr *Arg : Call->arguments())
      if ((R.Key = registryKeyOf(Arg->getType())))
        break;
    if (!R.Key || Call->getNumArgs() < R.Key->getNumParams() + 1)
      return std::nullopt;
    R.FirstArgument = Call->getNumArgs() - R.Key->getNumParams();
    return R;
  }
  // registry.Register(device, fn)
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  if (!MC || !MC->getImplicitObjectArgument())
    return std::nullopt;
  R.Key = registryKeyOf(MC->getImplicitObjectArgument()->getType());
  if (!R.Key)
    return std::nullopt;
  for (const Expr *Arg : Call->arguments()) {
    if (const FunctionDecl *FD = functionNamed(Arg))
      R.Implementation = FD;
    else if (namesCudaDeviceType(Arg))
      R.ForCuda = true;
  }
  if (!R.Implementation)
    return std::nullopt;
  return R;
}

llvm::ArrayRef<llvm::StringRef> TorchApiModel::deviceRegistrationMacros() {
  return tables().RegistryRegisterNames;
}

std::optional<bool> TorchApiModel::allocatorCall(const FunctionDecl *FD,
                                                 int &Arg) {
  if (!FD)
    return std::nullopt;
  auto It = tables().Allocator.find(FD->getQualifiedNameAsString());
  if (It == tables().Allocator.end())
    return std::nullopt;
  Arg = It->second.second;
  return It->second.first;
}

bool TorchApiModel::declaresTensor(const ASTContext &Ctx) {
  // The translation unit's lookup of "at": a namespace holding TensorBase.
  const TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  for (const NamedDecl *ND : TU->lookup(&Ctx.Idents.get("at")))
    if (const auto *NS = dyn_cast<NamespaceDecl>(ND))
      for (const NamedDecl *Inner : NS->lookup(&Ctx.Idents.get("TensorBase")))
        if (isa<CXXRecordDecl>(Inner))
          return true;
  return false;
}

} // namespace clang::tidy::cuda
