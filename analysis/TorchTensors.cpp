//===- TorchTensors.cpp ---------------------------------------------------===//

#include "TorchTensors.h"
#include "TensorCallers.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include <map>
#include <vector>

namespace clang::tidy::cuda {
namespace {

const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(Next))
      Next = C->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(Next);
             C && C->getNumArgs() >= 1 &&
             C->getConstructor()->isCopyOrMoveConstructor())
      Next = C->getArg(0);
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(Next))
      Next = F->getSubExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

/// The variable \p E names, if it is a plain reference to one.
const VarDecl *varOf(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(E)))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// Facts gathered from one function body (nested lambdas included).
struct FunctionFacts {
  /// Where each property of each variable is examined or established.
  std::map<std::pair<const VarDecl *, unsigned>, std::vector<SourceLocation>>
      Evidence;
  /// Variables assigned after their declaration (other than by evidence).
  llvm::DenseSet<const VarDecl *> Reassigned;
  /// Tensors whose dtypes are compared with each other (x.scalar_type() ==
  /// y.scalar_type()): equal, but neither is fixed by it.
  std::vector<std::pair<const VarDecl *, const VarDecl *>> SameDtype;
  /// Where a device guard is built or a device made current (or read):
  /// what follows runs on a device the code chose.
  std::vector<SourceLocation> DeviceSelected;
  /// Kernel launches, and the function (or lambda) each is written in.
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Launches;
};

} // namespace

struct TorchTensorAnalysis::Impl {
  ASTContext &Ctx;
  const SourceManager &SM;
  bool Scanned = false;
  /// Functions bound to Python, and the binding call of each.
  llvm::DenseMap<const FunctionDecl *, const CallExpr *> Entries;
  /// Same-TU calls of each function (canonical declaration).
  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> Callers;
  /// Pointer calls inside an AT_DISPATCH case, and the case's scalar_t.
  llvm::DenseMap<const CallExpr *, std::pair<const VarDecl *, QualType>>
      Dispatched;
  std::map<const FunctionDecl *, FunctionFacts> Facts;
  llvm::DenseSet<const void *> InProgress;
  /// Dispatches through a device registry (TORCH_DEVICE_REGISTRY) written
  /// here, with their keys.
  std::vector<std::pair<const CallExpr *, DeviceRegistryCall>> Dispatches;
  /// Functions registered for CUDA in a device registry here (canonical
  /// declarations), and the key each is registered under (canonical).
  llvm::DenseMap<const FunctionDecl *, const FunctionDecl *> Registered;

  explicit Impl(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  void scan();
  const FunctionFacts &factsOf(const FunctionDecl *FD);
  bool evidenceBefore(const VarDecl *VD, unsigned Property, const Stmt *At);
  bool deviceSelectedBefore(const FunctionDecl *FD, const Stmt *At);
  TensorVerdict verdict(const Expr *E, unsigned Property, const Stmt *At,
                        unsigned Depth);
  TensorVerdict paramVerdict(const ParmVarDecl *PVD, unsigned Property,
                             unsigned Depth);
  TensorVerdict externalVerdict(const ParmVarDecl *PVD, const std::string &Key,
                                unsigned Property);
  TensorVerdict callersVerdict(
      const ParmVarDecl *PVD,
      llvm::ArrayRef<std::pair<const Expr *, const CallExpr *>> Arguments,
      unsigned Property, unsigned Depth);
  TensorVerdict factoryVerdict(const CallExpr *Call,
                               const TensorFactoryInfo &Info, unsigned Property,
                               const Stmt *At, unsigned Depth);
  void pointerOrigins(const Expr *E, unsigned Depth,
                      llvm::SmallVectorImpl<const CallExpr *> &Out);
};

namespace {

bool mentionsCuda(const Stmt *S);

/// The whole-TU scan: bindings, callers, AT_DISPATCH cases.
class ScanVisitor : public RecursiveASTVisitor<ScanVisitor> {
public:
  explicit ScanVisitor(TorchTensorAnalysis::Impl &I) : I(I) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBodies() const { return true; }

  /// torch's and CUDA's headers bind nothing of the extension's.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        I.SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *FD = Call->getDirectCallee())
      if (!isa<CXXMethodDecl>(FD) || !cast<CXXMethodDecl>(FD)->isInstance())
        I.Callers[FD->getCanonicalDecl()].push_back(Call);
    if (Call->getBeginLoc().isMacroID())
      if (std::optional<DeviceRegistryCall> R =
              TorchApiModel::deviceRegistryCall(Call, I.Ctx)) {
        if (!R->Implementation)
          I.Dispatches.push_back({Call, *R});
        else if (R->ForCuda)
          I.Registered.try_emplace(R->Implementation->getCanonicalDecl(),
                                   R->Key->getCanonicalDecl());
      }
    if (TorchApiModel::isBindingCall(Call))
      for (const Expr *Arg : Call->arguments()) {
        const Expr *E = Arg->IgnoreParenImpCasts();
        if (const auto *U = dyn_cast<UnaryOperator>(E);
            U && U->getOpcode() == UO_AddrOf)
          E = U->getSubExpr()->IgnoreParenImpCasts();
        if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
          if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
            const FunctionDecl *Def = FD->getDefinition();
            I.Entries.try_emplace(Def ? Def : FD, Call);
          }
      }
    return true;
  }

  bool VisitSwitchStmt(SwitchStmt *S) {
    const VarDecl *Tensor = dispatchedTensor(S->getCond(), 0);
    if (!Tensor)
      return true;
    for (const SwitchCase *C = S->getSwitchCaseList(); C;
         C = C->getNextSwitchCase()) {
      const auto *Body = dyn_cast_or_null<CompoundStmt>(C->getSubStmt());
      if (!Body)
        continue;
      QualType Alias;
      for (const Stmt *Child : Body->body())
        if (const auto *DS = dyn_cast<DeclStmt>(Child))
          for (const Decl *D : DS->decls())
            if (const auto *TD = dyn_cast<TypedefNameDecl>(D);
                TD && TorchApiModel::isDispatchAlias(TD))
              Alias = TD->getUnderlyingType();
      if (Alias.isNull())
        continue;
      PointerCollector Collect(I, Tensor, Alias);
      Collect.TraverseStmt(const_cast<CompoundStmt *>(Body));
    }
    return true;
  }

private:
  /// The tensor a switch on `_st` dispatches on: `_st` is initialized,
  /// through variables and calls, from a dtype query of that tensor.
  const VarDecl *dispatchedTensor(const Expr *E, unsigned Depth) {
    if (!E || Depth > 4)
      return nullptr;
    E = strip(E);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (TorchApiModel::queriedProperties(Call) & TP_Dtype) {
        const Expr *Obj = TorchApiModel::tensorObject(Call);
        if (!Obj)
          if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
            if (const auto *Inner =
                    dyn_cast<CallExpr>(strip(MC->getImplicitObjectArgument())))
              Obj = TorchApiModel::tensorObject(Inner);
        const VarDecl *VD = varOf(Obj);
        return VD && TorchApiModel::isTensorType(VD->getType()) ? VD : nullptr;
      }
      for (const Expr *Arg : Call->arguments())
        if (const VarDecl *VD = dispatchedTensor(Arg, Depth + 1))
          return VD;
      return nullptr;
    }
    if (const VarDecl *VD = varOf(E))
      return VD->getInit() ? dispatchedTensor(VD->getInit(), Depth + 1)
                           : nullptr;
    return nullptr;
  }

  class PointerCollector : public RecursiveASTVisitor<PointerCollector> {
  public:
    PointerCollector(TorchTensorAnalysis::Impl &I, const VarDecl *Tensor,
                     QualType Alias)
        : I(I), Tensor(Tensor), Alias(Alias) {}
    bool shouldVisitLambdaBodies() const { return true; }
    bool VisitCallExpr(CallExpr *Call) {
      // Every pointer in the case: another tensor's dtype may be tied to
      // the dispatched one (dispatchedType).
      if (TorchApiModel::pointerCall(Call))
        I.Dispatched[Call] = {Tensor, Alias};
      return true;
    }

  private:
    TorchTensorAnalysis::Impl &I;
    const VarDecl *Tensor;
    QualType Alias;
  };

  TorchTensorAnalysis::Impl &I;
};

/// One function's evidence and launches.
class FactsVisitor : public RecursiveASTVisitor<FactsVisitor> {
public:
  FactsVisitor(FunctionFacts &F, const FunctionDecl *FD) : F(F) {
    Stack.push_back(FD);
  }
  bool shouldVisitLambdaBodies() const { return false; }
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    Stack.push_back(L->getCallOperator());
    TraverseStmt(L->getBody());
    Stack.pop_back();
    return true;
  }

  void note(const VarDecl *VD, unsigned Properties, SourceLocation Loc) {
    for (unsigned P : {TP_Contiguous, TP_Cuda, TP_Dtype, TP_CurrentDevice})
      if (Properties & P)
        F.Evidence[{VD, P}].push_back(Loc);
  }

  /// The tensor variable at the root of \p E (x in x, x.device(),
  /// x.options(), x.type()).
  static const VarDecl *rootTensor(const Expr *E) {
    for (int I = 0; E && I < 3; ++I) {
      if (const VarDecl *VD = varOf(E))
        return TorchApiModel::isTensorType(VD->getType()) ? VD : nullptr;
      const auto *C = dyn_cast<CallExpr>(strip(E));
      E = C ? TorchApiModel::tensorObject(C) : nullptr;
    }
    return nullptr;
  }

  /// The tensor whose dtype \p E queries (x in x.scalar_type()), or null.
  static const VarDecl *dtypeQueried(const Expr *E) {
    const auto *C = dyn_cast_or_null<CXXMemberCallExpr>(strip(E));
    if (!C || !(TorchApiModel::queriedProperties(C) & TP_Dtype))
      return nullptr;
    return rootTensor(C->getImplicitObjectArgument());
  }

  /// x.scalar_type() == y.scalar_type(): relates the two, fixes neither.
  void noteComparison(const Expr *L, const Expr *R) {
    const VarDecl *A = dtypeQueried(L), *B = dtypeQueried(R);
    if (!A || !B)
      return;
    F.SameDtype.push_back({A, B});
    Compared.insert(strip(L));
    Compared.insert(strip(R));
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isEqualityOp())
      noteComparison(B->getLHS(), B->getRHS());
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (isa<CUDAKernelCallExpr>(Call))
      F.Launches.push_back({Call, Stack.back()});
    if (TorchApiModel::isDeviceSelectCall(Call))
      F.DeviceSelected.push_back(Call->getBeginLoc());
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->getNumArgs() == 2 &&
        (Op->getOperator() == OO_EqualEqual ||
         Op->getOperator() == OO_ExclaimEqual))
      noteComparison(Op->getArg(0), Op->getArg(1));
    if (unsigned Q = TorchApiModel::queriedProperties(Call)) {
      if (Compared.count(Call))
        Q &= ~unsigned(TP_Dtype);
      const auto *MC = cast<CXXMemberCallExpr>(Call);
      if (const VarDecl *VD = rootTensor(MC->getImplicitObjectArgument()))
        note(VD, Q, Call->getBeginLoc());
    }
    // at::checkAllSameGPU(c, {x_arg, y_arg}), at::checkContiguous(c, x_arg).
    if (auto Check = TorchApiModel::tensorCheckCall(Call);
        Check && (!Check->NeedsCudaArgument || mentionsCuda(Call)))
      for (const Expr *Arg : Call->arguments())
        collectChecked(Arg, Check->Properties, Call->getBeginLoc());
    // x = x.contiguous(); x = y (a reassignment).
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      if (const VarDecl *VD = varOf(Op->getArg(0));
          VD && TorchApiModel::isTensorType(VD->getType())) {
        const auto *RHS = dyn_cast<CallExpr>(strip(Op->getArg(1)));
        unsigned Made = RHS ? TorchApiModel::establishedProperties(RHS) : 0;
        if (Made)
          note(VD, Made, Call->getBeginLoc());
        if (Made != (TP_Contiguous | TP_Cuda | TP_Dtype | TP_CurrentDevice))
          F.Reassigned.insert(VD);
      }
    return true;
  }

  /// A device guard built from x.device() or device_of(x) requires x to be
  /// on a CUDA device.
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (!TorchApiModel::isDeviceGuard(E->getConstructor()->getParent()))
      return true;
    F.DeviceSelected.push_back(E->getBeginLoc());
    for (const Expr *Arg : E->arguments())
      collectTensors(Arg, E->getBeginLoc());
    return true;
  }

  /// The tensors that \p S names, directly or through the at::TensorArg
  /// variables it names (at::TensorArg x_arg{x, "x", 1}), have \p Property.
  void collectChecked(const Stmt *S, unsigned Property, SourceLocation Loc) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S))
      if (const VarDecl *VD = varOf(E)) {
        if (TorchApiModel::isTensorType(VD->getType()))
          note(VD, Property, Loc);
        else if (TorchApiModel::isTensorArgType(VD->getType()) &&
                 VD->getInit() && !VD->getType()->isReferenceType())
          collectChecked(VD->getInit(), Property, Loc);
        return;
      }
    for (const Stmt *Child : S->children())
      collectChecked(Child, Property, Loc);
  }

  void collectTensors(const Stmt *S, SourceLocation Loc) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S))
      if (const VarDecl *VD = varOf(E);
          VD && TorchApiModel::isTensorType(VD->getType()))
        note(VD, TP_Cuda, Loc);
    for (const Stmt *Child : S->children())
      collectTensors(Child, Loc);
  }

private:
  FunctionFacts &F;
  std::vector<const FunctionDecl *> Stack;
  llvm::DenseSet<const Expr *> Compared;
};

/// Whether \p E mentions (anywhere inside) a reference to a CUDA device:
/// the DeviceType enumerator CUDA (at::kCUDA, torch::kCUDA) or a "cuda..."
/// string.
bool mentionsCuda(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const ValueDecl *D = DRE->getDecl();
    if (const auto *VD = dyn_cast<VarDecl>(D);
        VD && VD->isConstexpr() && VD->getInit() && mentionsCuda(VD->getInit()))
      return true;
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D))
      if (EC->getName() == "CUDA")
        if (const auto *ED = dyn_cast<EnumDecl>(EC->getDeclContext());
            ED && ED->getName() == "DeviceType")
          return true;
  }
  if (const auto *SL = dyn_cast<StringLiteral>(S))
    if (SL->isOrdinary() && SL->getString().starts_with("cuda"))
      return true;
  for (const Stmt *Child : S->children())
    if (mentionsCuda(Child))
      return true;
  return false;
}

/// Whether \p S mentions anything of a type named \p Names (TensorOptions,
/// Device, DeviceType, ScalarType...), an options argument.
bool mentionsType(const Stmt *S, std::initializer_list<llvm::StringRef> Names) {
  // A defaulted argument (options = {}) names nothing.
  if (!S || isa<CXXDefaultArgExpr>(S))
    return false;
  if (const auto *E = dyn_cast<Expr>(S)) {
    QualType T = E->getType().getNonReferenceType();
    if (const auto *RD = T->getAsCXXRecordDecl(); RD && RD->getIdentifier())
      for (llvm::StringRef N : Names)
        if (RD->getName() == N)
          return true;
    if (const auto *ET = T->getAs<EnumType>())
      for (llvm::StringRef N : Names)
        if (ET->getDecl()->getName() == N)
          return true;
  }
  for (const Stmt *Child : S->children())
    if (mentionsType(Child, Names))
      return true;
  return false;
}

/// The tensor whose options, device or dtype \p S passes on (x in
/// x.options(), x.device(), x.scalar_type()), if any.
const Expr *optionsSourceTensor(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *C = dyn_cast<CXXMemberCallExpr>(S))
    if (const Expr *Obj = TorchApiModel::tensorObject(C)) {
      const CXXMethodDecl *MD = C->getMethodDecl();
      if (MD->getIdentifier() &&
          llvm::is_contained({"options", "device", "dtype", "scalar_type"},
                             MD->getName()))
        return Obj;
    }
  for (const Stmt *Child : S->children())
    if (const Expr *E = optionsSourceTensor(Child))
      return E;
  return nullptr;
}

} // namespace

void TorchTensorAnalysis::Impl::scan() {
  if (Scanned)
    return;
  Scanned = true;
  ScanVisitor V(*this);
  V.TraverseAST(Ctx);
}

const FunctionFacts &
TorchTensorAnalysis::Impl::factsOf(const FunctionDecl *FD) {
  auto It = Facts.find(FD);
  if (It != Facts.end())
    return It->second;
  FunctionFacts &F = Facts[FD];
  if (FD && FD->hasBody()) {
    FactsVisitor V(F, FD);
    V.TraverseStmt(FD->getBody());
  }
  return F;
}

bool TorchTensorAnalysis::Impl::evidenceBefore(const VarDecl *VD,
                                               unsigned Property,
                                               const Stmt *At) {
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  // A lambda's parameter or local: the lambda's own body.
  if (!FD)
    return false;
  const FunctionFacts &F = factsOf(FD);
  auto It = F.Evidence.find({VD, Property});
  if (It == F.Evidence.end())
    return false;
  SourceLocation Use = SM.getExpansionLoc(At->getBeginLoc());
  for (SourceLocation L : It->second) {
    SourceLocation E = SM.getExpansionLoc(L);
    if (E == Use || SM.isBeforeInTranslationUnit(E, Use))
      return true;
  }
  return false;
}

bool TorchTensorAnalysis::Impl::deviceSelectedBefore(const FunctionDecl *FD,
                                                     const Stmt *At) {
  SourceLocation Use = SM.getExpansionLoc(At->getBeginLoc());
  // A lambda (an AT_DISPATCH case) runs where its enclosing function is.
  for (int Depth = 0; FD && Depth < 4; ++Depth) {
    for (SourceLocation L : factsOf(FD).DeviceSelected) {
      SourceLocation E = SM.getExpansionLoc(L);
      if (E == Use || SM.isBeforeInTranslationUnit(E, Use))
        return true;
    }
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (!MD || !MD->getParent()->isLambda())
      break;
    FD = dyn_cast_or_null<FunctionDecl>(
        MD->getParent()->getParentFunctionOrMethod());
  }
  return false;
}

TensorVerdict
TorchTensorAnalysis::Impl::externalVerdict(const ParmVarDecl *PVD,
                                           const std::string &Key,
                                           unsigned Property) {
  TensorVerdict V;
  const auto *FD = cast<FunctionDecl>(PVD->getDeclContext());
  std::optional<ExternalTensorArgument> A = TensorCallers::get().lookup(
      Key, PVD->getFunctionScopeIndex(), Property);
  if (!A)
    return V;
  if (!A->UncheckedCall.empty()) {
    V.Origin = TensorOrigin::FromPython;
    V.ExternalCall = A->UncheckedCall;
    // One cause per Python tensor: the first parameter that the same
    // call fills from the same Python parameter stands for it
    // (out = empty_like(x) beside x).
    V.PythonParam = PVD;
    for (unsigned J = 0; J < PVD->getFunctionScopeIndex(); ++J)
      if (std::optional<ExternalTensorArgument> B =
              TensorCallers::get().lookup(Key, J, Property);
          B && !A->UncheckedOrigin.empty() &&
          B->UncheckedCall == A->UncheckedCall &&
          B->UncheckedOrigin == A->UncheckedOrigin) {
        V.PythonParam = FD->getParamDecl(J);
        break;
      }
  } else if (A->AllGuaranteed) {
    V.Origin = TensorOrigin::Guaranteed;
  }
  return V;
}

TensorVerdict TorchTensorAnalysis::Impl::callersVerdict(
    const ParmVarDecl *PVD,
    llvm::ArrayRef<std::pair<const Expr *, const CallExpr *>> Arguments,
    unsigned Property, unsigned Depth) {
  TensorVerdict V;
  if (Depth > 4 || !InProgress.insert(PVD).second)
    return V;
  bool AllGuaranteed = true;
  TensorVerdict Bad;
  for (const auto &[Arg, Call] : Arguments) {
    if (!Arg) {
      AllGuaranteed = false;
      continue;
    }
    TensorVerdict A = verdict(Arg, Property, Call, Depth + 1);
    if (A.Origin == TensorOrigin::FromPython ||
        A.Origin == TensorOrigin::KnownCpu ||
        A.Origin == TensorOrigin::MaybeStrided) {
      if (Bad.Origin == TensorOrigin::Unknown)
        Bad = A;
    } else if (A.Origin != TensorOrigin::Guaranteed) {
      AllGuaranteed = false;
    }
  }
  InProgress.erase(PVD);
  if (Bad.Origin != TensorOrigin::Unknown)
    return Bad;
  if (AllGuaranteed)
    V.Origin = TensorOrigin::Guaranteed;
  return V;
}

TensorVerdict TorchTensorAnalysis::Impl::paramVerdict(const ParmVarDecl *PVD,
                                                      unsigned Property,
                                                      unsigned Depth) {
  TensorVerdict V;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(PVD->getDeclContext());
  if (!FD || (isa<CXXMethodDecl>(FD) &&
              cast<CXXMethodDecl>(FD)->getParent()->isLambda()))
    return V;
  const FunctionDecl *Def = FD->getDefinition() ? FD->getDefinition() : FD;
  if (auto It = Entries.find(Def); It != Entries.end()) {
    V.Origin = TensorOrigin::FromPython;
    V.PythonParam = PVD;
    V.Binding = It->second;
    return V;
  }
  unsigned Index = PVD->getFunctionScopeIndex();
  auto It = Callers.find(FD->getCanonicalDecl());
  bool Called = It != Callers.end() && !It->second.empty();
  if (auto R = Registered.find(FD->getCanonicalDecl());
      !Called && R != Registered.end()) {
    // Registered for CUDA in a device registry: every dispatch of its key
    // calls it with the key's arguments, CUDA tensors all on one device
    // (TORCH_DEVICE_REGISTRY), none made current. Only the device is
    // followed: the ops of such a library are called from its Python
    // wrappers, which make the outputs (new_zeros) and often the inputs
    // contiguous, and check nothing of the device (docs/torch.md).
    if (Property == TP_Cuda) {
      V.Origin = TensorOrigin::Guaranteed;
      return V;
    }
    if (Property != TP_CurrentDevice)
      return V;
    llvm::SmallVector<std::pair<const Expr *, const CallExpr *>, 2> Arguments;
    for (const auto &[Call, D] : Dispatches)
      if (D.Key->getCanonicalDecl() == R->second)
        Arguments.push_back(
            {D.FirstArgument + Index < Call->getNumArgs()
                 ? Call->getArg(D.FirstArgument + Index)
                 : nullptr,
             Call});
    if (!Arguments.empty())
      return callersVerdict(PVD, Arguments, Property, Depth);
    return externalVerdict(
        PVD, "registry " + TensorCallers::keyOf(*R->second), Property);
  }
  if (!Called && FD->isExternallyVisible())
    // Called only from other files: what the project's summary says of
    // those callers.
    return externalVerdict(PVD, TensorCallers::keyOf(*FD), Property);
  if (!Called)
    return V;
  llvm::SmallVector<std::pair<const Expr *, const CallExpr *>, 4> Arguments;
  for (const CallExpr *Call : It->second)
    Arguments.push_back(
        {Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr, Call});
  return callersVerdict(PVD, Arguments, Property, Depth);
}

TensorVerdict TorchTensorAnalysis::Impl::factoryVerdict(
    const CallExpr *Call, const TensorFactoryInfo &Info, unsigned Property,
    const Stmt *At, unsigned Depth) {
  TensorVerdict V;
  if (Property == TP_CurrentDevice) {
    // On the device of the tensor it copies or takes options from; a
    // device named in the options (kCUDA, "cuda:1") or none (the CPU) is
    // not followed.
    if (mentionsCuda(Call))
      return V;
    if (Info.LikeArg >= 0 && unsigned(Info.LikeArg) < Call->getNumArgs())
      return verdict(Call->getArg(Info.LikeArg), Property, At, Depth + 1);
    if (const Expr *From = optionsSourceTensor(Call))
      return verdict(From, Property, At, Depth + 1);
    return V;
  }
  if (Info.LikeArg >= 0 && unsigned(Info.LikeArg) < Call->getNumArgs()) {
    // *_like(x): x's device and dtype, and x's strides unless a memory
    // format is named.
    if (Property == TP_Contiguous && mentionsType(Call, {"MemoryFormat"}))
      V.Origin = TensorOrigin::Unknown;
    else if (Property == TP_Dtype &&
             mentionsType(Call, {"ScalarType", "TypeMeta"}))
      V.Origin = TensorOrigin::Guaranteed;
    else if (Property == TP_Cuda && mentionsCuda(Call))
      V.Origin = TensorOrigin::Guaranteed;
    else
      return verdict(Call->getArg(Info.LikeArg), Property, At, Depth + 1);
    return V;
  }
  if (Property == TP_Contiguous) {
    V.Origin = TensorOrigin::Guaranteed;
    return V;
  }
  if (Property == TP_Cuda) {
    if (mentionsCuda(Call)) {
      V.Origin = TensorOrigin::Guaranteed;
    } else if (const Expr *From = optionsSourceTensor(Call)) {
      return verdict(From, Property, At, Depth + 1); // x.options()
    } else if (!mentionsType(Call, {"TensorOptions", "Device", "DeviceType",
                                    "optional"})) {
      V.Origin = TensorOrigin::KnownCpu;
      V.Factory = Call;
    }
    return V;
  }
  // Dtype: fixed when the options name one, else the default dtype, which
  // Python code may change.
  if (mentionsType(Call, {"ScalarType", "TypeMeta"}))
    V.Origin = TensorOrigin::Guaranteed;
  else if (const Expr *From = optionsSourceTensor(Call))
    return verdict(From, Property, At, Depth + 1);
  return V;
}

/// The gradients parameter of a C++ autograd function's backward that
/// \p Call takes an element of (grad_outputs[0], grad_outputs.at(0)).
static const ParmVarDecl *autogradGradients(const CallExpr *Call) {
  const Expr *List = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      List = Op->getArg(0);
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && M->getIdentifier() && M->getName() == "at")
      List = MC->getImplicitObjectArgument();
  }
  if (!List || !TorchApiModel::isTensorType(Call->getType().getNonReferenceType()))
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(List->IgnoreParenImpCasts());
  const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return PVD && TorchApiModel::isAutogradGradients(PVD) ? PVD : nullptr;
}

TensorVerdict TorchTensorAnalysis::Impl::verdict(const Expr *E,
                                                 unsigned Property,
                                                 const Stmt *At,
                                                 unsigned Depth) {
  TensorVerdict V;
  E = strip(E);
  if (!E || Depth > 8)
    return V;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (TorchApiModel::establishedProperties(Call) & Property) {
      V.Origin = TensorOrigin::Guaranteed;
      return V;
    }
    if (Property == TP_Contiguous) {
      // A tensor with the strides it was given, or a gradient from
      // autograd (grad_outputs[i] in a C++ autograd function's backward).
      if (TorchApiModel::isStridedResult(Call)) {
        V.Origin = TensorOrigin::MaybeStrided;
        V.Factory = Call;
        return V;
      }
      if (const ParmVarDecl *G = autogradGradients(Call)) {
        V.Origin = TensorOrigin::MaybeStrided;
        V.Gradients = G;
        return V;
      }
    }
    if (auto Info = TorchApiModel::factoryCall(Call))
      return factoryVerdict(Call, *Info, Property, At, Depth);
    // Other tensor methods (views, slices, .contiguous() for the device)
    // keep the device and the dtype of their tensor; their layout is not
    // known. One whose arguments name a device (x.to(torch::kCUDA),
    // x.to(y.device())) moves the tensor there.
    if (const Expr *Obj = TorchApiModel::tensorObject(Call);
        Obj && Property != TP_Contiguous &&
        TorchApiModel::isTensorType(Call->getType())) {
      if (Property & (TP_Cuda | TP_CurrentDevice)) {
        bool NamesDevice = false;
        for (const Expr *Arg : Call->arguments())
          NamesDevice |= mentionsCuda(Arg) ||
                         mentionsType(Arg, {"Device", "DeviceType",
                                            "TensorOptions"});
        if (NamesDevice) {
          if (Property == TP_Cuda && llvm::any_of(Call->arguments(),
                                                  [](const Expr *A) {
                                                    return mentionsCuda(A);
                                                  }))
            V.Origin = TensorOrigin::Guaranteed;
          return V;
        }
      }
      return verdict(Obj, Property, At, Depth + 1);
    }
    return V;
  }
  const VarDecl *VD = varOf(E);
  if (!VD || !TorchApiModel::isTensorType(VD->getType()))
    return V;
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (evidenceBefore(VD, Property, At) ||
      (Property == TP_CurrentDevice && deviceSelectedBefore(FD, At))) {
    V.Origin = TensorOrigin::Guaranteed;
    return V;
  }
  if (FD && factsOf(FD).Reassigned.contains(VD))
    return V;
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD))
    return paramVerdict(PVD, Property, Depth);
  if (VD->getInit() && VD->hasLocalStorage())
    return verdict(VD->getInit(), Property, At, Depth + 1);
  return V;
}

void TorchTensorAnalysis::Impl::pointerOrigins(
    const Expr *E, unsigned Depth,
    llvm::SmallVectorImpl<const CallExpr *> &Out) {
  E = strip(E);
  if (!E || Depth > 4)
    return;
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return pointerOrigins(Cast->getSubExpr(), Depth, Out);
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAdditiveOp()) {
      if (B->getLHS()->getType()->isPointerType())
        pointerOrigins(B->getLHS(), Depth, Out);
      else if (B->getRHS()->getType()->isPointerType())
        pointerOrigins(B->getRHS(), Depth, Out);
    }
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (TorchApiModel::pointerCall(Call))
      Out.push_back(Call);
    return;
  }
  const VarDecl *VD = varOf(E);
  if (!VD)
    return;
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
    // A pointer parameter: what the same-TU callers pass.
    const auto *FD = dyn_cast_or_null<FunctionDecl>(PVD->getDeclContext());
    if (!FD || Entries.count(FD))
      return;
    auto It = Callers.find(FD->getCanonicalDecl());
    if (It == Callers.end() || !InProgress.insert(PVD).second)
      return;
    unsigned Index = PVD->getFunctionScopeIndex();
    for (const CallExpr *Call : It->second)
      if (Index < Call->getNumArgs())
        pointerOrigins(Call->getArg(Index), Depth + 1, Out);
    InProgress.erase(PVD);
    return;
  }
  if (VD->hasLocalStorage() && VD->getInit()) {
    const auto *FD =
        dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
    if (FD && factsOf(FD).Reassigned.contains(VD))
      return;
    pointerOrigins(VD->getInit(), Depth + 1, Out);
  }
}

TorchTensorAnalysis::TorchTensorAnalysis(ASTContext &Ctx)
    : P(std::make_unique<Impl>(Ctx)),
      Enabled(TorchApiModel::declaresTensor(Ctx)) {}

TorchTensorAnalysis::~TorchTensorAnalysis() = default;

bool TorchTensorAnalysis::isBoundToPython(const FunctionDecl *FD) {
  if (!Enabled || !FD)
    return false;
  P->scan();
  const FunctionDecl *Def = FD->getDefinition();
  return P->Entries.count(Def ? Def : FD);
}

void TorchTensorAnalysis::recordCallsToOtherFiles() {
  TensorCallers &Store = TensorCallers::get();
  if (!Enabled || Recorded || !Store.recording())
    return;
  Recorded = true;
  P->scan();
  const SourceManager &SM = P->SM;
  static const unsigned Properties[] = {TP_Contiguous, TP_Cuda, TP_Dtype,
                                        TP_CurrentDevice};
  auto WhereOf = [&](const Expr *E) -> std::string {
    SourceLocation Loc = SM.getExpansionLoc(E->getBeginLoc());
    PresumedLoc PL = SM.getPresumedLoc(Loc);
    if (PL.isInvalid() || SM.isInSystemHeader(Loc))
      return "";
    return std::string(PL.getFilename()) + ":" + std::to_string(PL.getLine());
  };
  // A function of another file bound here (m.def("f", &f)): Python passes
  // its tensors, unchecked.
  for (const auto &[FD, Binding] : P->Entries) {
    if (FD->isDefined() || !FD->isExternallyVisible())
      continue;
    std::string Where = WhereOf(Binding);
    if (Where.empty())
      continue;
    Where = "binding in " + Where;
    std::string Key = TensorCallers::keyOf(*FD);
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (TorchApiModel::isTensorType(FD->getParamDecl(I)->getType()))
        for (unsigned Property : Properties)
          Store.record(Key, I, Property, TensorCallers::Passed::FromPython,
                       Where, FD->getParamDecl(I)->getNameAsString());
  }
  auto Passed = [](const TensorVerdict &V) {
    return V.Origin == TensorOrigin::Guaranteed
               ? TensorCallers::Passed::Guaranteed
           : V.Origin == TensorOrigin::FromPython ||
                   V.Origin == TensorOrigin::KnownCpu
               ? TensorCallers::Passed::FromPython
               : TensorCallers::Passed::Unknown;
  };
  // A dispatch through a device registry (DISPATCH_DEVICE_IMPL(key, ...)):
  // what it passes reaches the implementation that another file registers
  // under key (paramVerdict).
  for (const auto &[Call, R] : P->Dispatches) {
    std::string Where = WhereOf(Call);
    if (Where.empty())
      continue;
    Where = "dispatch in " + Where;
    std::string Key = "registry " + TensorCallers::keyOf(*R.Key);
    for (unsigned I = 0; I < R.Key->getNumParams(); ++I) {
      if (!TorchApiModel::isTensorType(R.Key->getParamDecl(I)->getType()))
        continue;
      for (unsigned Property : Properties) {
        TensorVerdict V =
            P->verdict(Call->getArg(R.FirstArgument + I), Property, Call, 0);
        Store.record(Key, I, Property, Passed(V), Where,
                     V.PythonParam ? V.PythonParam->getNameAsString()
                                   : std::string());
      }
    }
  }
  for (const auto &[FD, Calls] : P->Callers) {
    if (FD->isDefined() || !FD->isExternallyVisible() ||
        SM.isInSystemHeader(FD->getLocation()))
      continue;
    std::string Key = TensorCallers::keyOf(*FD);
    for (const CallExpr *Call : Calls) {
      std::string Where = WhereOf(Call);
      if (Where.empty())
        continue;
      Where = "call in " + Where;
      for (unsigned I = 0; I < FD->getNumParams() && I < Call->getNumArgs();
           ++I) {
        if (!TorchApiModel::isTensorType(FD->getParamDecl(I)->getType()))
          continue;
        for (unsigned Property : Properties) {
          TensorVerdict V = P->verdict(Call->getArg(I), Property, Call, 0);
          Store.record(Key, I, Property, Passed(V), Where,
                       V.PythonParam ? V.PythonParam->getNameAsString()
                                     : std::string());
        }
      }
    }
  }
}

TensorVerdict TorchTensorAnalysis::verdict(const Expr *Tensor,
                                           TensorProperty Property,
                                           const Stmt *At) {
  if (!Enabled)
    return {};
  P->scan();
  return P->verdict(Tensor, Property, At, 0);
}

llvm::SmallVector<TensorPointerUse, 4>
TorchTensorAnalysis::pointersToKernels(const FunctionDecl &FD) {
  llvm::SmallVector<TensorPointerUse, 4> Uses;
  if (!Enabled || !FD.hasBody())
    return Uses;
  P->scan();
  // The launches of FD itself: a lambda is analysed as its own function.
  FunctionFacts Own;
  FactsVisitor V(Own, &FD);
  V.TraverseStmt(FD.getBody());
  for (const auto &[Launch, In] : Own.Launches) {
    if (In != &FD)
      continue;
    const auto *K = cast<CUDAKernelCallExpr>(Launch);
    for (const Expr *Arg : K->arguments()) {
      llvm::SmallVector<const CallExpr *, 2> Origins;
      P->pointerOrigins(Arg, 0, Origins);
      for (const CallExpr *PC : Origins)
        Uses.push_back({PC, TorchApiModel::tensorObject(PC), Launch,
                        K->getDirectCallee(), *TorchApiModel::pointerCall(PC)});
    }
  }
  return Uses;
}

QualType TorchTensorAnalysis::dispatchedType(const CallExpr *PointerCall) {
  if (!Enabled)
    return {};
  P->scan();
  auto It = P->Dispatched.find(PointerCall);
  if (It == P->Dispatched.end())
    return {};
  const VarDecl *Tensor = varOf(TorchApiModel::tensorObject(PointerCall));
  if (Tensor != It->second.first && !sameDtype(Tensor, It->second.first))
    return {};
  return It->second.second;
}

bool TorchTensorAnalysis::selectsDeviceBefore(const FunctionDecl &FD,
                                              const Stmt *At) {
  if (!Enabled)
    return false;
  return P->deviceSelectedBefore(&FD, At);
}

bool TorchTensorAnalysis::sameDtype(const VarDecl *A, const VarDecl *B) {
  if (!A || !B)
    return false;
  if (A == B)
    return true;
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(A->getParentFunctionOrMethod());
  if (!FD)
    return false;
  for (const auto &[X, Y] : P->factsOf(FD).SameDtype)
    if ((X == A && Y == B) || (X == B && Y == A))
      return true;
  return false;
}

llvm::StringRef TorchTensorAnalysis::convertedScalarType(const Expr *Tensor) {
  const auto *Call = dyn_cast_or_null<CallExpr>(strip(Tensor));
  if (const VarDecl *VD = varOf(Tensor))
    if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit()) {
      const auto *FD =
          dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
      if (FD && !P->factsOf(FD).Reassigned.contains(VD))
        Call = dyn_cast<CallExpr>(strip(VD->getInit()));
    }
  if (!Call)
    return "";
  bool Converts = TorchApiModel::establishedProperties(Call) & TP_Dtype;
  if (!Converts && !TorchApiModel::factoryCall(Call))
    return "";
  // x.float(), x.half(), x.double(): the method names the dtype.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
      MC && Converts && Call->getNumArgs() == 0) {
    llvm::StringRef M = MC->getMethodDecl()->getName();
    if (M == "float")
      return "Float";
    if (M == "half")
      return "Half";
    if (M == "double")
      return "Double";
    if (M == "bfloat16")
      return "BFloat16";
    return "";
  }
  llvm::StringRef Found;
  for (const Expr *Arg : Call->arguments()) {
    llvm::StringRef S = TorchApiModel::scalarTypeNamed(Arg);
    if (!S.empty()) {
      if (!Found.empty() && Found != S)
        return "";
      Found = S;
    }
  }
  return Found;
}

SourceLocation TorchTensorAnalysis::findingLocation(SourceLocation Loc,
                                                    const SourceManager &SM) {
  return SM.getFileLoc(Loc);
}

const VarDecl *TorchTensorAnalysis::variableOf(const Expr *E) {
  return varOf(E);
}

bool TorchTensorAnalysis::isElementTypeOf(QualType T,
                                          llvm::StringRef ScalarType) {
  llvm::StringRef Want = TorchApiModel::cppTypeOfScalarType(ScalarType);
  if (Want.empty() || T.isNull())
    return true; // unknown: never a mismatch
  std::string Have = T.getCanonicalType().getUnqualifiedType().getAsString();
  return Have == Want;
}

} // namespace clang::tidy::cuda
