//===- AllocationTracking.cpp ---------------------------------------------===//

#include "AllocationTracking.h"
#include "VariableStores.h"
#include "BranchCorrelation.h"
#include "CompileErrors.h"
#include "CudaUseReachability.h"
#include "MemorySpaceAnalysis.h"
#include "ResultUse.h"
#include "StorageScan.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>

namespace clang::tidy::cuda {

std::string AllocationKind::describe() const {
  if (Resource) {
    switch (*Resource) {
    case ResourceKind::Stream:
      return "stream";
    case ResourceKind::Event:
      return "event";
    case ResourceKind::Graph:
      return "graph";
    case ResourceKind::GraphExec:
      return "executable graph";
    case ResourceKind::Array:
      return "CUDA array";
    case ResourceKind::TextureObject:
      return "texture object";
    case ResourceKind::SurfaceObject:
      return "surface object";
    case ResourceKind::BlasHandle:
      return "cuBLAS handle";
    case ResourceKind::SparseHandle:
      return "cuSPARSE handle";
    case ResourceKind::SparseDescriptor:
      return "cuSPARSE descriptor";
    case ResourceKind::FftPlan:
      return "cuFFT plan";
    case ResourceKind::RandGenerator:
      return "cuRAND generator";
    }
  }
  switch (Space) {
  case MS_Pinned:
    return "pinned host memory";
  case MS_Managed:
    return "managed memory";
  default:
    return "device memory";
  }
}

namespace {

/// A local variable that can hold an allocation: not static, not a
/// reference (a reference parameter outlives the function).
const VarDecl *asLocalVar(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return nullptr;
  return VD;
}

/// The variable whose address \p Arg is (`&p`, `(void **)&p`).
const VarDecl *addressedVar(const Expr *Arg) {
  const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  return asLocalVar(UO->getSubExpr());
}

/// The variable a pointer expression is based on: `p`, `(void *)p`,
/// `p + k`.
const VarDecl *pointerBase(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->isAdditiveOp() && BO->getType()->isPointerType())
      return pointerBase(BO->getLHS()->getType()->isPointerType()
                             ? BO->getLHS()
                             : BO->getRHS());
  return asLocalVar(E);
}

/// Whether the value of \p E carries one of \p Vars: the pointer itself
/// (through casts and arithmetic), its address, or an aggregate or
/// conditional that holds it. Calls and constructions are judged on their
/// own as CFG elements.
bool carriesValueOf(const Expr *E, llvm::ArrayRef<const VarDecl *> Vars) {
  if (!E)
    return false;
  E = E->IgnoreParenCasts();
  if (const VarDecl *V = pointerBase(E))
    return llvm::is_contained(Vars, V);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_AddrOf &&
           llvm::is_contained(Vars, asLocalVar(UO->getSubExpr()));
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return llvm::any_of(IL->inits(), [&](const Expr *I) {
      return carriesValueOf(I, Vars);
    });
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return carriesValueOf(CO->getTrueExpr(), Vars) ||
           carriesValueOf(CO->getFalseExpr(), Vars);
  return false;
}

/// Every variable \p S names: declares, refers to or captures, anywhere
/// inside it (through the sources of opaque values).
void collectNamedVariables(const Stmt *S,
                           llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  auto Add = [&](const ValueDecl *D) {
    const auto *VD = dyn_cast_or_null<VarDecl>(D);
    if (VD && !llvm::is_contained(Out, VD))
      Out.push_back(VD);
  };
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    Add(DRE->getDecl());
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      Add(dyn_cast<ValueDecl>(D));
  } else if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable())
        Add(C.getCapturedVar());
  } else if (const auto *OVE = dyn_cast<OpaqueValueExpr>(S)) {
    collectNamedVariables(OVE->getSourceExpr(), Out);
  }
  for (const Stmt *Child : S->children())
    collectNamedVariables(Child, Out);
}

/// `std::swap(a, b)` on two local variables.
bool isStdSwapOfLocals(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || Call->getNumArgs() != 2 || !FD->getIdentifier() ||
      FD->getName() != "swap" || !FD->isInStdNamespace())
    return false;
  return asLocalVar(Call->getArg(0)) && asLocalVar(Call->getArg(1));
}

bool isSuccessConstant(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return EC->getInitVal() == 0;
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IL->getValue() == 0;
  return false;
}

bool isNullConstant(const Expr *E, ASTContext &Ctx) {
  const Expr *S = E->IgnoreParenImpCasts();
  // `(void *)0`: a null constant cast to a pointer type, C's NULL and what
  // the Python host lowering writes for ctypes.c_void_p().
  while (const auto *C = dyn_cast<ExplicitCastExpr>(S)) {
    if (!C->getType()->isPointerType())
      break;
    S = C->getSubExpr()->IgnoreParenImpCasts();
  }
  // `void *p{};`, `T *p = T();`: a value-initialized pointer is null.
  if (S->getType()->isPointerType()) {
    if (const auto *IL = dyn_cast<InitListExpr>(S); IL && IL->getNumInits() == 0)
      return true;
    if (isa<ImplicitValueInitExpr, CXXScalarValueInitExpr>(S))
      return true;
  }
  return S->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
         Expr::NPCK_NotNull;
}

/// The path state for one allocation: the locals that hold it, and whether
/// the variable that received its status still holds that status.
struct PathState {
  llvm::SmallVector<const VarDecl *, 2> Holders;
  bool StatusValid = false;
  /// The branches taken on variables that never change.
  BranchHistory Branches;
  unsigned hash(const CFGBlock *B) const {
    llvm::SmallVector<const VarDecl *, 2> Sorted(Holders);
    llvm::sort(Sorted);
    llvm::hash_code H = llvm::hash_combine(B, StatusValid, Branches.hash());
    for (const VarDecl *V : Sorted)
      H = llvm::hash_combine(H, V);
    return static_cast<unsigned>(H);
  }
  bool holds(const VarDecl *V) const {
    return V && llvm::is_contained(Holders, V);
  }
  void drop(const VarDecl *V) { llvm::erase(Holders, V); }
};

} // namespace

bool AllocationTracker::isTracked(ResourceKind K) const {
  return llvm::is_contained(Resources, K);
}

std::optional<std::pair<AllocationKind, int>>
AllocationTracker::allocationMadeBy(const CallExpr *Call) {
  if (auto It = MadeBy.find(Call); It != MadeBy.end())
    return It->second;
  auto Made = computeAllocationMadeBy(Call);
  // While a summary is being computed, a recursive callee's is not known
  // yet: that answer holds only for now.
  if (InProgress.empty())
    MadeBy.try_emplace(Call, Made);
  return Made;
}

std::optional<std::pair<AllocationKind, int>>
AllocationTracker::computeAllocationMadeBy(const CallExpr *Call) {
  const FunctionDecl *Callee = CudaApiModel::calleeOf(Call);
  if (!Callee)
    return std::nullopt;
  if (const ApiFunction *Api = CudaApiModel::lookup(Callee)) {
    // Through an out-parameter (cudaMalloc), or as the result (-1: the
    // caching allocator's raw_alloc, TORCH_CUDA_ALLOCATOR rows).
    if (Api->Alloc &&
        (Api->Alloc->Space & (MS_Device | MS_Pinned | MS_Managed))) {
      AllocationKind K;
      K.Space = Api->Alloc->Space;
      return std::make_pair(K, Api->Alloc->PtrOutArg);
    }
    if (Api->Resource && Api->Resource->Role == ResourceRole::Create &&
        isTracked(Api->Resource->Kind)) {
      AllocationKind K;
      K.Resource = Api->Resource->Kind;
      return std::make_pair(K, Api->Resource->HandleArg);
    }
    return std::nullopt;
  }
  if (const Summary *S = summaryOf(Callee)) {
    if (S->ReturnsAllocation)
      return std::make_pair(*S->ReturnsAllocation, -1);
    if (S->AllocatesInto)
      return S->AllocatesInto;
  }
  return std::nullopt;
}

bool AllocationTracker::releases(const CallExpr *Call, unsigned Arg) {
  const FunctionDecl *Callee = CudaApiModel::calleeOf(Call);
  if (!Callee)
    return false;
  if (const ApiFunction *Api = CudaApiModel::lookup(Callee)) {
    if (Api->Free && Api->Library != ApiLibrary::CLib &&
        Api->Free->PtrArg == static_cast<int>(Arg))
      return true;
    return Api->Resource && Api->Resource->Role == ResourceRole::Destroy &&
           Api->Resource->HandleArg == static_cast<int>(Arg);
  }
  if (std::optional<ParamUse> U = summarizedUse(Call, Arg))
    return *U == ParamUse::Frees;
  return false;
}

/// Whether \p Call destroys the handle whose address is its argument \p Arg:
/// a destroy row's handle argument written `&h` is a destroy that takes the
/// handle's address (nvrtcDestroyProgram(&prog): CUDA_RESOURCE_BY_ADDRESS).
static bool releasesThroughAddress(const CallExpr *Call, unsigned Arg) {
  const ApiFunction *Api = CudaApiModel::lookup(Call);
  return Api && Api->Resource && Api->Resource->Role == ResourceRole::Destroy &&
         Api->Resource->HandleArg == static_cast<int>(Arg);
}

bool AllocationTracker::mayKeep(const CallExpr *Call, unsigned Arg) {
  if (isa<CUDAKernelCallExpr>(Call))
    return false; // The kernel gets a copy for the launch.
  const FunctionDecl *Callee = CudaApiModel::calleeOf(Call);
  if (!Callee)
    return true;
  if (const ApiFunction *Api = CudaApiModel::lookup(Callee))
    return Api->HostCallbackDataArg == static_cast<int>(Arg) ||
           (Api->Library == ApiLibrary::CLib && Api->Alloc); // realloc
  if (std::optional<ParamUse> U = summarizedUse(Call, Arg))
    return *U == ParamUse::MayKeep;
  // Other CUDA runtime, driver and library calls (cuBLAS, cuSPARSE, ...,
  // NVRTC: whatever returns a CUDA_STATUS_TYPE) use pointers for the call's
  // length or keep them in a descriptor; none frees them.
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())) &&
      (!CudaApiModel::statusLibrary(Callee->getReturnType()).empty() ||
       CudaApiModel::isRuntimeOrDriverCall(Callee)))
    return false;
  return true;
}

std::optional<AllocationTracker::ParamUse>
AllocationTracker::summarizedUse(const CallExpr *Call, unsigned Arg) {
  const FunctionDecl *Callee = CudaApiModel::calleeOf(Call);
  const Summary *S = summaryOf(Callee);
  if (!S)
    return std::nullopt;
  // A member operator's arguments start with the object (`f(p)` on a
  // lambda or a functor): its parameters are one further on.
  unsigned Shift = 0;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee);
      M && isa<CXXOperatorCallExpr>(Call) && !M->isStatic()) {
    if (Arg == 0)
      return ParamUse::MayKeep;
    Shift = 1;
  }
  unsigned P = Arg - Shift;
  if (P >= S->Params.size())
    return ParamUse::MayKeep; // A variadic argument.
  ParamUse U = S->Params[P];
  if (U == ParamUse::MayKeep || P >= S->Forwards.size())
    return U;
  // Handed to the function the caller passes for a function-pointer
  // parameter: that function decides.
  for (const Forward &F : S->Forwards[P]) {
    const FunctionDecl *Fn = F.Param + Shift < Call->getNumArgs()
                                 ? namedFunction(Call->getArg(F.Param + Shift))
                                 : nullptr;
    ParamUse V = Fn ? useByPassedFunction(Fn, F.Arg) : ParamUse::MayKeep;
    if (V == ParamUse::MayKeep)
      return V;
    if (V == ParamUse::Frees)
      U = V;
  }
  return U;
}

AllocationTracker::ParamUse
AllocationTracker::useByPassedFunction(const FunctionDecl *F, unsigned Param) {
  if (F->hasAttr<CUDAGlobalAttr>())
    return ParamUse::ReadsOnly; // A kernel gets a copy for the launch.
  if (const ApiFunction *Api = CudaApiModel::lookup(F)) {
    if (Api->Library == ApiLibrary::CLib ||
        Api->HostCallbackDataArg == static_cast<int>(Param))
      return ParamUse::MayKeep;
    if ((Api->Free && Api->Free->PtrArg == static_cast<int>(Param)) ||
        (Api->Resource && Api->Resource->Role == ResourceRole::Destroy &&
         Api->Resource->HandleArg == static_cast<int>(Param)))
      return ParamUse::Frees;
    return ParamUse::ReadsOnly;
  }
  const Summary *S = summaryOf(F);
  if (!S || Param >= S->Params.size() ||
      (Param < S->Forwards.size() && !S->Forwards[Param].empty()))
    return ParamUse::MayKeep;
  return S->Params[Param];
}

const AllocationTracker::Summary *
AllocationTracker::summaryOf(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!isAnalysableFunction(Def, SM) || !isSeenWhole(Def, SM, Arch))
    return nullptr;
  auto It = Summaries.find(Def);
  if (It != Summaries.end())
    return &It->second;
  if (!InProgress.insert(Def).second)
    return nullptr; // Recursion: unknown.
  const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).cfgOf(Def);
  Summary S;
  if (Cfg)
    S = computeSummary(Def, *Cfg);
  else
    S.Params.assign(Def->getNumParams(), ParamUse::MayKeep);
  S.Forwards.resize(S.Params.size());
  InProgress.erase(Def);
  return &(Summaries[Def] = std::move(S));
}

namespace {
/// `std::forward<T>(x)` or `std::move(x)`: the same object.
bool isForwardOrMove(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && Call->getNumArgs() == 1 && FD->getIdentifier() &&
         FD->isInStdNamespace() &&
         (FD->getName() == "forward" || FD->getName() == "move");
}
/// The function-pointer parameter of \p FD that \p Callee (a call's
/// callee expression) calls through: `fn`, `(*fn)`.
const ParmVarDecl *calledParameter(const Expr *Callee, const FunctionDecl *FD) {
  const Expr *E = Callee->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != FD)
    return nullptr;
  QualType T = P->getType().getNonReferenceType();
  return T->isFunctionPointerType() || T->isFunctionType() ? P : nullptr;
}
} // namespace

llvm::SmallVector<AllocationTracker::ParamUse, 4>
AllocationTracker::paramUses(
    const FunctionDecl *FD, const FunctionCfg &Cfg,
    llvm::SmallVectorImpl<llvm::SmallVector<Forward, 1>> &Forwards) {
  unsigned N = FD->getNumParams();
  llvm::SmallVector<bool, 4> Frees(N, false), Keeps(N, false),
      NullsRef(N, false);
  Forwards.assign(N, {});
  llvm::SmallDenseMap<const ParmVarDecl *, unsigned, 4> Index;
  for (unsigned I = 0; I != N; ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    QualType T = P->getType();
    // A reference (`float *&p`, a forwarding `T &&p`) is followed like a
    // copy, but storing into it changes the caller's pointer.
    if (T->isReferenceType() &&
        !T.getNonReferenceType()->isPointerType())
      Keeps[I] = true;
    else
      Index[P] = I;
  }
  const ParentMap &PM = Cfg.parents();
  // Looks at every use of a parameter in the body.
  llvm::SmallVector<const Stmt *, 64> Work;
  if (!Index.empty())
    Work.push_back(FD->getBody());
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    auto Found = P ? Index.find(P) : Index.end();
    if (Found != Index.end() && !Keeps[Found->second]) {
      unsigned PI = Found->second;
      bool IsRef = P->getType()->isReferenceType();
      // Climb through casts, pointer arithmetic and std::forward to the
      // real use.
      const Stmt *Cur = DRE;
      const Stmt *Parent = PM.getParent(Cur);
      while (Parent &&
             (isa<ParenExpr, ImplicitCastExpr, ExplicitCastExpr>(Parent) ||
              (isa<BinaryOperator>(Parent) &&
               cast<BinaryOperator>(Parent)->isAdditiveOp()) ||
              isForwardOrMove(dyn_cast<CallExpr>(Parent)))) {
        Cur = Parent;
        Parent = PM.getParent(Cur);
      }
      if (const auto *Call = dyn_cast_or_null<CallExpr>(Parent)) {
        const ParmVarDecl *Through = calledParameter(Call->getCallee(), FD);
        for (unsigned I = 0, NA = Call->getNumArgs(); I != NA; ++I) {
          if (Call->getArg(I) != Cur)
            continue;
          if (Through && Index.count(Through))
            Forwards[PI].push_back({Index.lookup(Through), I});
          else if (Through)
            Keeps[PI] = true;
          else if (releases(Call, I))
            Frees[PI] = true;
          else if (mayKeep(Call, I))
            Keeps[PI] = true;
        }
        if (Call->getCallee() == Cur)
          Keeps[PI] = true;
      } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent)) {
        if (BO->isAssignmentOp() && BO->getRHS() == Cur)
          Keeps[PI] = true;
        // `p = nullptr` after freeing it through the reference is the
        // usual safe free; any other store changes the caller's pointer.
        else if (IsRef && BO->getLHS() == Cur) {
          if (BO->getOpcode() == BO_Assign &&
              BO->getRHS()->IgnoreParenImpCasts()->isNullPointerConstant(
                  Ctx, Expr::NPC_ValueDependentIsNotNull))
            NullsRef[PI] = true;
          else
            Keeps[PI] = true;
        }
      } else if (!Parent || isa<ReturnStmt, DeclStmt, CXXConstructExpr,
                                InitListExpr, LambdaExpr>(Parent)) {
        Keeps[PI] = true;
      } else if (const auto *UO = dyn_cast<UnaryOperator>(Parent)) {
        if (UO->getOpcode() == UO_AddrOf ||
            (IsRef && UO->isIncrementDecrementOp()))
          Keeps[PI] = true;
      }
    }
    // Children in reverse, so that they are visited in source order.
    size_t First = Work.size();
    for (const Stmt *Child : S->children())
      if (Child)
        Work.push_back(Child);
    std::reverse(Work.begin() + First, Work.end());
  }
  llvm::SmallVector<ParamUse, 4> Uses;
  for (unsigned I = 0; I != N; ++I)
    Uses.push_back(Keeps[I] || (NullsRef[I] && !Frees[I]) ? ParamUse::MayKeep
                   : Frees[I] ? ParamUse::Frees
                              : ParamUse::ReadsOnly);
  return Uses;
}

AllocationTracker::Summary
AllocationTracker::computeSummary(const FunctionDecl *FD,
                                  const FunctionCfg &Cfg) {
  Summary S;
  S.Params = paramUses(FD, Cfg, S.Forwards);
  S.AllocatesInto = outParamAllocation(FD, Cfg);

  // Returns a fresh allocation: every return gives an allocated local or
  // null, and at least one gives the allocation.
  llvm::SmallVector<TrackedAllocation, 4> Allocs = allocationsIn(Cfg);
  if (Allocs.empty() || !FD->getReturnType()->isPointerType())
    return S;
  std::optional<AllocationKind> Kind;
  bool AllReturnsFit = true, AnyAllocation = false;
  llvm::SmallPtrSet<const VarDecl *, 2> Returned;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *St) {
    if (!St || !AllReturnsFit)
      return;
    if (isa<LambdaExpr>(St))
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(St)) {
      const Expr *V = R->getRetValue();
      if (!V || isNullConstant(V, Ctx))
        return;
      const VarDecl *Var = asLocalVar(V);
      auto It = llvm::find_if(Allocs, [&](const TrackedAllocation &A) {
        return A.Var == Var;
      });
      if (!Var || It == Allocs.end() ||
          (Kind && (Kind->Space != It->Kind.Space ||
                    Kind->Resource != It->Kind.Resource))) {
        AllReturnsFit = false;
        return;
      }
      Kind = It->Kind;
      AnyAllocation = true;
      Returned.insert(Var);
      return;
    }
    for (const Stmt *Child : St->children())
      Visit(Child);
  };
  Visit(FD->getBody());
  // Every value stored into a returned local is the allocation or null: a
  // local that may hold other memory ('if (onDevice) cudaMalloc(&p, ...);
  // else p = malloc(...);') does not make the function an allocator.
  if (AllReturnsFit && AnyAllocation) {
    VariableStores Stores = VariableStores::of(FD->getBody());
    for (const VarDecl *Var : Returned)
      for (const StoredValue &V : Stores.valuesOf(Var)) {
        const Expr *Value = V.Value->IgnoreParenCasts();
        bool IsAllocation = llvm::any_of(Allocs, [&](const TrackedAllocation &A) {
          return A.Var == Var && A.Site == Value;
        });
        if (V.IsCompound || !(isNullConstant(V.Value, Ctx) || IsAllocation))
          AllReturnsFit = false;
      }
  }
  if (AllReturnsFit && AnyAllocation)
    S.ReturnsAllocation = Kind;
  return S;
}

std::optional<std::pair<AllocationKind, int>>
AllocationTracker::outParamAllocation(const FunctionDecl *FD,
                                      const FunctionCfg &Cfg) {
  // A status or nothing is returned: a wrapper returning something else
  // (a bool of success) would invert the caller's status tests.
  if (!FD->getReturnType()->isVoidType() &&
      !CudaApiModel::isTypeNamed(FD->getReturnType(),
                                 {"cudaError_t", "CUresult"}))
    return std::nullopt;
  for (unsigned I = 0, N = FD->getNumParams(); I != N; ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    QualType T = P->getType();
    if (!T->isPointerType() || !T->getPointeeType()->isPointerType())
      continue;
    // Every use of P is the out-argument of an allocation.
    std::optional<AllocationKind> Kind;
    bool OnlyAllocates = true;
    std::function<void(const Stmt *)> Visit = [&](const Stmt *St) {
      if (!St || !OnlyAllocates)
        return;
      const auto *DRE = dyn_cast<DeclRefExpr>(St);
      if (DRE && DRE->getDecl() == P) {
        const Stmt *Cur = DRE;
        const Stmt *Parent = Cfg.parents().getParent(Cur);
        while (isa_and_nonnull<ParenExpr, ImplicitCastExpr, ExplicitCastExpr>(
            Parent)) {
          Cur = Parent;
          Parent = Cfg.parents().getParent(Cur);
        }
        const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
        auto Made = Call ? allocationMadeBy(Call) : std::nullopt;
        if (!Made || Made->second < 0 ||
            static_cast<unsigned>(Made->second) >= Call->getNumArgs() ||
            Call->getArg(Made->second) != Cur ||
            (Kind && (Kind->Space != Made->first.Space ||
                      Kind->Resource != Made->first.Resource))) {
          OnlyAllocates = false;
          return;
        }
        Kind = Made->first;
        return;
      }
      for (const Stmt *Child : St->children())
        Visit(Child);
    };
    Visit(FD->getBody());
    if (OnlyAllocates && Kind)
      return std::make_pair(*Kind, static_cast<int>(I));
  }
  return std::nullopt;
}

llvm::SmallVector<TrackedAllocation, 4>
AllocationTracker::allocationsIn(const FunctionCfg &Cfg) {
  llvm::SmallVector<TrackedAllocation, 4> Result;
  for (const CFGBlock *B : Cfg.graph()) {
    for (const CFGElement &E : *B) {
      const auto *Call = dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(E));
      // A call that did not compile whole allocates what is unknown.
      if (!Call || isErroneousAction(Call, Ctx))
        continue;
      auto Made = allocationMadeBy(Call);
      if (!Made)
        continue;
      TrackedAllocation A;
      A.Site = Call;
      A.Kind = Made->first;
      if (Made->second >= 0) {
        if (static_cast<unsigned>(Made->second) >= Call->getNumArgs())
          continue;
        A.Var = addressedVar(Call->getArg(Made->second));
        A.StartStmt = Call;
      } else {
        ResultUse Use = classifyResultUse(Call, Cfg);
        if (Use.K != ResultUse::Stored)
          continue;
        A.Var = Use.Var;
        A.StartStmt = Use.StoreStmt;
      }
      if (A.Var)
        Result.push_back(A);
    }
  }
  return Result;
}

/// The walk behind findLoss: every path from the allocation, each with its
/// PathState, until one loses the allocation.
class AllocationTracker::LossWalk {
public:
  LossWalk(AllocationTracker &T, const TrackedAllocation &A,
           const FunctionCfg &Cfg);
  std::optional<AllocationLoss> run();

private:
  /// Done: the path ends (freed, escaped or lost).
  enum Outcome { Continue, Done };
  struct Item {
    const CFGBlock *Block;
    unsigned Index;
    PathState State;
    const Stmt *Last;
  };

  /// Applies the elements of \p It's block from its index on to \p S.
  Outcome walkBlock(const Item &It, PathState &S, const Stmt *&Last);
  /// Queues the successors of \p B that a path with \p S can take.
  void followSuccessors(const CFGBlock *B, const PathState &S,
                        const Stmt *Last);
  /// Which successor of a two-way branch cannot be taken while the
  /// allocation is live: 0 (true), 1 (false), or -1.
  int infeasibleSuccessor(const Expr *Cond, const PathState &S) const;
  bool isStatus(const Expr *E, const PathState &S) const;
  bool isHolder(const Expr *E, const PathState &S) const {
    return S.holds(pointerBase(E));
  }
  /// A variable that only plain stores change: a store ends its branch
  /// facts on the path (BranchHistory::forget), so a flag set before the
  /// allocation still correlates its branch with the free.
  bool isUnchanging(const VarDecl *VD) const {
    return !Cfg.hasIndirectUse(VD);
  }
  /// The facts of the function's blocks and elements, shared by the walks
  /// of all its allocations.
  const WalkedFunction &walked();
  /// Whether the element can change \p S: step() acts on its kind, and it
  /// resets the device or names a holder or the allocation's status.
  /// \p Watched: the nameBits of the path's holders and of the status
  /// variable.
  bool mayChange(const ElementFacts &F, const PathState &S,
                 uint64_t Watched) const {
    if (!F.Steps)
      return false;
    if (F.ResetsDevice || F.St == StatusUse.StoreStmt)
      return true;
    if (!(F.NameBits & Watched))
      return false;
    return llvm::any_of(F.Names, [&](const VarDecl *V) {
      return V == StatusVar || S.holds(V);
    });
  }
  uint64_t watchedBits(const PathState &S) const {
    uint64_t Bits = StatusVar ? nameBit(StatusVar) : 0;
    for (const VarDecl *V : S.Holders)
      Bits |= nameBit(V);
    return Bits;
  }

  // What one element does to the holders, by the kind of statement.
  /// The kinds of statement step() acts on; it leaves every other alone.
  static bool stepActsOn(const Stmt *St);
  Outcome step(const Stmt *St, PathState &S);
  Outcome stepCall(const CallExpr *Call, PathState &S);
  Outcome stepAssign(const BinaryOperator *BO, PathState &S);
  Outcome stepDecl(const DeclStmt *DS, PathState &S);
  Outcome stepAddressOf(const UnaryOperator *UO, const PathState &S) const;
  /// \p V, a holder, stops holding the allocation: a loss of kind \p How at
  /// \p Where when it was the last.
  Outcome dropHolder(PathState &S, const VarDecl *V,
                     AllocationLoss::LossKind How, const Stmt *Where);

  AllocationTracker &T;
  const TrackedAllocation &A;
  const FunctionCfg &Cfg;
  /// The variable that receives the allocation's own status, if any (an
  /// allocation through an out-parameter returns its status).
  bool ReturnsStatus;
  ResultUse StatusUse;
  const VarDecl *StatusVar;
  llvm::SmallVector<Item, 16> Work;
  llvm::DenseSet<unsigned> Seen;
  std::optional<AllocationLoss> Loss;
};

AllocationTracker::LossWalk::LossWalk(AllocationTracker &T,
                                      const TrackedAllocation &A,
                                      const FunctionCfg &Cfg)
    : T(T), A(A), Cfg(Cfg), ReturnsStatus(A.StartStmt == A.Site),
      StatusUse(classifyResultUse(A.Site, Cfg)),
      StatusVar(ReturnsStatus && StatusUse.K == ResultUse::Stored
                    ? StatusUse.Var
                    : nullptr) {}

std::optional<AllocationLoss> AllocationTracker::LossWalk::run() {
  std::optional<CfgPoint> Start =
      isa<DeclStmt>(A.StartStmt) ? Cfg.declarationPointOf(A.Var)
                                 : Cfg.pointOf(A.StartStmt);
  if (!Start)
    return std::nullopt;
  PathState Initial;
  Initial.Holders.push_back(A.Var);
  // A status stored before the start point (a DeclStmt start) is valid.
  Initial.StatusValid = StatusVar && isa<DeclStmt>(A.StartStmt) &&
                        StatusUse.StoreStmt == A.StartStmt;
  // The branches every path to the allocation took.
  const WalkedFunction &W = walked();
  unsigned StartID = Start->Block->getBlockID();
  if (const std::optional<BranchHistory> &H = W.Histories[StartID]) {
    Initial.Branches = *H;
    for (const ElementFacts &F : W.Blocks[StartID].Elements)
      if (F.Index <= Start->Index && F.Stored)
        Initial.Branches.forget(F.Stored);
  }
  Work.push_back({Start->Block, Start->Index + 1, Initial, nullptr});
  unsigned Budget = 20000;
  while (!Work.empty() && !Loss && Budget--) {
    Item It = Work.pop_back_val();
    const CFGBlock *B = It.Block;
    PathState S = std::move(It.State);
    if (B == &Cfg.graph().getExit()) {
      Loss = AllocationLoss{AllocationLoss::StillLiveAtExit,
                            It.Last && isa<ReturnStmt>(It.Last) ? It.Last
                                                                : nullptr,
                            S.Holders.front()};
      break;
    }
    const Stmt *Last = It.Last;
    if (walkBlock(It, S, Last) == Done || Loss) {
      // A block that ends the program loses nothing (an error macro that
      // calls the allocation again for its message, then exits).
      if (Loss && B->hasNoReturnElement())
        Loss.reset();
      continue;
    }
    followSuccessors(B, S, Last);
  }
  return Loss;
}

AllocationTracker::LossWalk::Outcome
AllocationTracker::LossWalk::walkBlock(const Item &It, PathState &S,
                                       const Stmt *&Last) {
  const WalkedFunction::Block &Facts =
      T.Walked.Blocks[It.Block->getBlockID()];
  uint64_t Watched = watchedBits(S);
  for (const ElementFacts &F : Facts.Elements) {
    if (F.Index < It.Index)
      continue;
    if (mayChange(F, S, Watched)) {
      if (step(F.St, S) == Done) {
        Last = F.St;
        return Done;
      }
      Watched = watchedBits(S);
    }
    if (F.Stored)
      S.Branches.forget(F.Stored);
  }
  if (Facts.LastIndex >= static_cast<int>(It.Index))
    Last = Facts.LastStmt;
  return Continue;
}

const AllocationTracker::WalkedFunction &
AllocationTracker::LossWalk::walked() {
  WalkedFunction &W = T.Walked;
  if (W.FD == Cfg.function())
    return W;
  W.FD = Cfg.function();
  W.Histories = historiesAtEntry(
      Cfg, T.Ctx, [&](const VarDecl *VD) { return isUnchanging(VD); });
  W.Blocks.assign(Cfg.graph().getNumBlockIDs(), {});
  for (const CFGBlock *B : Cfg.graph()) {
    WalkedFunction::Block &Facts = W.Blocks[B->getBlockID()];
    bool Throws = isa_and_nonnull<CXXThrowExpr>(B->getTerminatorStmt());
    for (unsigned I = 0, N = B->size(); I != N; ++I) {
      ElementFacts F;
      F.Index = I;
      F.St = FunctionCfg::stmtOf((*B)[I]);
      if (!F.St)
        continue;
      Facts.LastStmt = F.St;
      Facts.LastIndex = I;
      Throws |= isa<CXXThrowExpr>(F.St);
      F.Stored = variableStoredBy(F.St);
      F.Steps = stepActsOn(F.St);
      // An action that did not compile may free or keep what it is
        // passed, or reset the device: step() decides, whatever it names.
      if (isErroneousAction(F.St, T.Ctx)) {
        F.Steps = true;
        F.ResetsDevice = !isErroneousLaunch(F.St, T.Ctx);
      }
      if (F.Steps) {
        if (const auto *Call = dyn_cast<CallExpr>(F.St))
          if (const ApiFunction *Api = CudaApiModel::lookup(Call))
            F.ResetsDevice = Api->ResetsDevice;
        collectNamedVariables(F.St, F.Names);
        for (const VarDecl *V : F.Names)
          F.NameBits |= nameBit(V);
      }
      if (F.Steps || F.Stored)
        Facts.Elements.push_back(std::move(F));
    }
    Facts.EndsPaths = B->hasNoReturnElement() || Throws;
  }
  return W;
}

void AllocationTracker::LossWalk::followSuccessors(const CFGBlock *B,
                                                   const PathState &S,
                                                   const Stmt *Last) {
  // A path that ends the program, or throws, loses nothing we report. The
  // CFG keeps a throw as an element of its block, not as the terminator.
  if (T.Walked.Blocks[B->getBlockID()].EndsPaths)
    return;
  if (const Stmt *Term = B->getTerminatorStmt())
    Last = Term;
  int Skip = -1;
  if (B->succ_size() == 2)
    if (const auto *Cond = dyn_cast_or_null<Expr>(B->getTerminatorCondition()))
      Skip = infeasibleSuccessor(Cond, S);
  unsigned SuccIndex = 0;
  for (const CFGBlock *Succ : B->succs()) {
    int Index = SuccIndex++;
    if (!Succ || Index == Skip)
      continue;
    PathState Next = S;
    if (std::optional<EdgeFact> E =
            edgeFact(B, Index, T.Ctx, [&](const VarDecl *VD) {
              return isUnchanging(VD);
            }))
      if (!Next.Branches.add(*E))
        continue; // Contradicts a branch taken before.
    if (!Seen.insert(Next.hash(Succ)).second)
      continue;
    Work.push_back({Succ, 0, std::move(Next), Last});
  }
}

bool AllocationTracker::LossWalk::isStatus(const Expr *E,
                                           const PathState &S) const {
  E = E->IgnoreParenImpCasts();
  if (E == A.Site)
    return ReturnsStatus;
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE && S.StatusValid && DRE->getDecl() == StatusVar;
}

int AllocationTracker::LossWalk::infeasibleSuccessor(
    const Expr *Cond, const PathState &S) const {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    if (BO->getOpcode() == BO_NE || BO->getOpcode() == BO_EQ) {
      const Expr *L = BO->getLHS(), *R = BO->getRHS();
      bool Ne = BO->getOpcode() == BO_NE;
      // status != cudaSuccess: the true branch is the failure.
      if ((isStatus(L, S) && isSuccessConstant(R)) ||
          (isStatus(R, S) && isSuccessConstant(L)))
        return Ne ? 0 : 1;
      // p != nullptr: the false branch has a null pointer.
      if ((isHolder(L, S) && isNullConstant(R, T.Ctx)) ||
          (isHolder(R, S) && isNullConstant(L, T.Ctx)))
        return Ne ? 1 : 0;
    }
    return -1;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot) {
    const Expr *Sub = UO->getSubExpr()->IgnoreParenImpCasts();
    if (isStatus(Sub, S))
      return 1;
    if (isHolder(Sub, S))
      return 0;
    return -1;
  }
  if (isStatus(Cond, S))
    return 0;
  if (isHolder(Cond, S))
    return 1;
  return -1;
}

AllocationTracker::LossWalk::Outcome
AllocationTracker::LossWalk::dropHolder(PathState &S, const VarDecl *V,
                                        AllocationLoss::LossKind How,
                                        const Stmt *Where) {
  S.drop(V);
  if (!S.Holders.empty())
    return Continue;
  Loss = AllocationLoss{How, Where, V};
  return Done;
}

bool AllocationTracker::LossWalk::stepActsOn(const Stmt *St) {
  if (isa<CallExpr, CXXConstructExpr, DeclStmt, ReturnStmt, LambdaExpr>(St))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(St))
    return BO->getOpcode() == BO_Assign;
  if (const auto *UO = dyn_cast<UnaryOperator>(St))
    return UO->getOpcode() == UO_AddrOf;
  return false;
}

AllocationTracker::LossWalk::Outcome
AllocationTracker::LossWalk::step(const Stmt *St, PathState &S) {
  // Code that did not compile (CompileErrors.h): an unknown action on what
  // it is passed, or on everything when it takes nothing.
  if (isErroneousAction(St, T.Ctx))
    return erroneousActionMayTouch(
               St, T.Ctx, [&](const VarDecl *V) { return S.holds(V); })
               ? Done
               : Continue;
  if (const auto *Call = dyn_cast<CallExpr>(St))
    return stepCall(Call, S);
  // Constructing an object from a holder, returning it, or capturing it
  // lets it escape.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(St))
    return llvm::any_of(Construct->arguments(),
                        [&](const Expr *Arg) {
                          return carriesValueOf(Arg, S.Holders);
                        })
               ? Done
               : Continue;
  if (const auto *BO = dyn_cast<BinaryOperator>(St);
      BO && BO->getOpcode() == BO_Assign)
    return stepAssign(BO, S);
  if (const auto *DS = dyn_cast<DeclStmt>(St))
    return stepDecl(DS, S);
  if (const auto *R = dyn_cast<ReturnStmt>(St))
    return carriesValueOf(R->getRetValue(), S.Holders) ? Done : Continue;
  if (const auto *UO = dyn_cast<UnaryOperator>(St);
      UO && UO->getOpcode() == UO_AddrOf)
    return stepAddressOf(UO, S);
  if (const auto *L = dyn_cast<LambdaExpr>(St))
    return llvm::any_of(L->captures(),
                        [&](const LambdaCapture &C) {
                          return C.capturesVariable() &&
                                 S.holds(dyn_cast<VarDecl>(C.getCapturedVar()));
                        })
               ? Done
               : Continue;
  return Continue;
}

AllocationTracker::LossWalk::Outcome
AllocationTracker::LossWalk::stepCall(const CallExpr *Call, PathState &S) {
  if (const ApiFunction *Api = CudaApiModel::lookup(Call);
      Api && Api->ResetsDevice)
    return Done; // Everything is released.
  // std::swap(a, b) exchanges what two locals hold.
  if (isStdSwapOfLocals(Call)) {
    const VarDecl *L = asLocalVar(Call->getArg(0));
    const VarDecl *R = asLocalVar(Call->getArg(1));
    bool HoldsL = S.holds(L), HoldsR = S.holds(R);
    if (HoldsL != HoldsR) {
      S.drop(HoldsL ? L : R);
      S.Holders.push_back(HoldsL ? R : L);
    }
    return Continue;
  }
  // An allocation into a holder's address overwrites the holder.
  auto Made = T.allocationMadeBy(Call);
  if (Made && Made->second >= 0 &&
      static_cast<unsigned>(Made->second) < Call->getNumArgs()) {
    const VarDecl *Target = addressedVar(Call->getArg(Made->second));
    if (S.holds(Target) &&
        dropHolder(S, Target, AllocationLoss::Overwritten, Call) == Done)
      return Done;
  }
  for (unsigned ArgI = 0, N = Call->getNumArgs(); ArgI != N; ++ArgI) {
    const Expr *Arg = Call->getArg(ArgI);
    bool Direct = isHolder(Arg, S);
    bool Address = S.holds(addressedVar(Arg));
    if (!Direct && !Address)
      continue;
    if ((Direct && T.releases(Call, ArgI)) ||
        (Address && releasesThroughAddress(Call, ArgI)))
      return Done; // Freed.
    bool IsOutParam = Address && Made && Made->second == (int)ArgI;
    if (!IsOutParam && T.mayKeep(Call, ArgI))
      return Done; // Escaped.
  }
  return Continue;
}

AllocationTracker::LossWalk::Outcome
AllocationTracker::LossWalk::stepAssign(const BinaryOperator *BO,
                                        PathState &S) {
  const VarDecl *Target = asLocalVar(BO->getLHS());
  bool FromHolder = carriesValueOf(BO->getRHS(), S.Holders);
  if (Target && Target == StatusVar && BO != StatusUse.StoreStmt)
    S.StatusValid = false;
  if (Target && BO == StatusUse.StoreStmt)
    S.StatusValid = true;
  if (!Target) // Stored somewhere that may outlive us.
    return FromHolder ? Done : Continue;
  if (S.holds(Target) && !FromHolder)
    return dropHolder(S, Target, AllocationLoss::Overwritten, BO);
  if (!S.holds(Target) && FromHolder) {
    if (!isHolder(BO->getRHS(), S))
      return Done; // Mixed into something else: stop following.
    S.Holders.push_back(Target);
  }
  return Continue;
}

AllocationTracker::LossWalk::Outcome
AllocationTracker::LossWalk::stepDecl(const DeclStmt *DS, PathState &S) {
  // An escape ends the path, but the later declarations still count: one
  // of them may redeclare the last holder.
  Outcome Result = Continue;
  for (const Decl *D : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      continue;
    if (VD == StatusVar && DS == StatusUse.StoreStmt)
      S.StatusValid = true;
    if (S.holds(VD) &&
        dropHolder(S, VD, AllocationLoss::Redeclared, DS) == Done)
      return Done;
    if (carriesValueOf(VD->getInit(), S.Holders)) {
      if (VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
          isHolder(VD->getInit(), S))
        S.Holders.push_back(VD);
      else
        Result = Done;
    }
  }
  return Result;
}

AllocationTracker::LossWalk::Outcome
AllocationTracker::LossWalk::stepAddressOf(const UnaryOperator *UO,
                                           const PathState &S) const {
  if (!S.holds(asLocalVar(UO->getSubExpr())))
    return Continue;
  // Taken as a call argument: the call decides. Anywhere else the address
  // escapes.
  const Stmt *P = Cfg.parents().getParentIgnoreParenCasts(UO);
  return isa_and_nonnull<CallExpr>(P) ? Continue : Done;
}

std::optional<AllocationLoss>
AllocationTracker::findLoss(const TrackedAllocation &A,
                            const FunctionCfg &Cfg) {
  return LossWalk(*this, A, Cfg).run();
}

} // namespace clang::tidy::cuda

//===----------------------------------------------------------------------===//
// File-scope variables and class members
//===----------------------------------------------------------------------===//

namespace clang::tidy::cuda {

namespace {

/// The file-scope pointer or member that \p E names: `g`, `this->m`, `o.m`,
/// through parens, casts and pointer arithmetic.
const ValueDecl *storageOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->isAdditiveOp() && BO->getType()->isPointerType())
      return storageOf(BO->getLHS()->getType()->isPointerType()
                           ? BO->getLHS()
                           : BO->getRHS());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasGlobalStorage() && !VD->isStaticLocal() &&
        VD->getType()->isPointerType())
      return VD;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
        FD && FD->getType()->isPointerType())
      return FD;
  return nullptr;
}

/// `&X` of a storage.
const ValueDecl *addressedStorage(const Expr *E) {
  const auto *UO = dyn_cast<UnaryOperator>(E->IgnoreParenCasts());
  return UO && UO->getOpcode() == UO_AddrOf ? storageOf(UO->getSubExpr())
                                             : nullptr;
}

bool isOnThis(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenCasts());
  return ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
}

} // namespace

/// One pass over the translation unit: per storage, its first allocation,
/// and whether some use frees it or lets it escape.
/// (Replays the walk without instantiations or implicit code.)
class AllocationTracker::LeakScan : public StorageScan<LeakScan> {
public:
  LeakScan(AllocationTracker &T) : StorageScan(T.Ctx), T(T) {}

  bool VisitCallExpr(CallExpr *C) {
    if (const ApiFunction *Api = CudaApiModel::lookup(C);
        Api && Api->ResetsDevice)
      DeviceReset = true;
    // What the call allocates, asked only when a storage's address is
    // passed: the callee's summary is then needed.
    std::optional<std::optional<std::pair<AllocationKind, int>>> Made;
    for (unsigned I = 0, N = C->getNumArgs(); I != N; ++I) {
      const Expr *Arg = C->getArg(I);
      if (const ValueDecl *S = addressedStorage(Arg)) {
        addressHandled(S);
        if (!Made)
          Made = T.allocationMadeBy(C);
        bool IsOut = *Made && (*Made)->second == static_cast<int>(I);
        if (IsOut && (isa<VarDecl>(S) || isOnThis(cast<UnaryOperator>(
                                             Arg->IgnoreParenCasts())
                                             ->getSubExpr())))
          noteAllocation(S, C, (*Made)->first);
        else
          Escaped.insert(S);
        continue;
      }
      // Whether the callee frees or keeps it is asked in leaks(), only for
      // storages that receive an allocation: it may need the callee's
      // summary.
      if (const ValueDecl *S = storage(Arg))
        PassedTo[S].push_back({C, I});
    }
    if (C->getCallee() && storage(C->getCallee()))
      Escaped.insert(storage(C->getCallee()));
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const ValueDecl *S = storage(UO->getSubExpr()))
        addressTaken(S);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    // `view = g + k` into a local: a view, followed by its uses.
    if (BO->getOpcode() == BO_Assign)
      if (const VarDecl *Local = aliasCandidate(BO->getLHS()))
        if (const ValueDecl *S = storage(BO->getRHS())) {
          Aliases[Local] = S;
          return true;
        }
    escapeIn(BO->getRHS());
    // `m = allocate(n)` with a same-TU allocator.
    const auto *Call = dyn_cast<CallExpr>(BO->getRHS()->IgnoreParenCasts());
    const ValueDecl *S = storageOf(BO->getLHS());
    if (Call && S && (isa<VarDecl>(S) || isOnThis(BO->getLHS())))
      if (auto Made = T.allocationMadeBy(Call); Made && Made->second < 0)
        noteAllocation(S, Call, Made->first);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *R) {
    escapeIn(R->getRetValue());
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    // `float *view = g + n;`: a local copy or offset view of the storage
    // is not an escape by itself; its uses count as uses of the storage.
    if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
        VD->getType()->isPointerType())
      if (const ValueDecl *S = storage(VD->getInit())) {
        Aliases[VD] = S;
        return true;
      }
    escapeIn(VD->getInit());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    for (const Expr *A : CE->arguments())
      escapeIn(A);
    return true;
  }
  bool VisitInitListExpr(InitListExpr *IL) {
    for (const Expr *I : IL->inits())
      escapeIn(I);
    return true;
  }
  bool VisitCXXCtorInitializer(CXXCtorInitializer *Init) {
    escapeIn(Init->getInit());
    return true;
  }

  std::vector<StorageLeak> leaks() const;

private:
  void escapeIn(const Expr *E) {
    if (!E)
      return;
    E = E->IgnoreParenCasts();
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      escapeIn(CO->getTrueExpr());
      escapeIn(CO->getFalseExpr());
      return;
    }
    if (const ValueDecl *S = storage(E))
      Escaped.insert(S);
  }
  /// The storage \p E names, directly or through a local alias of it.
  const ValueDecl *storage(const Expr *E) const {
    if (!E)
      return nullptr;
    if (const ValueDecl *S = storageOf(E))
      return S;
    if (const VarDecl *Local = pointerBase(E))
      return Aliases.lookup(Local);
    return nullptr;
  }
  /// A local pointer (not a reference, not static) that \p E names.
  static const VarDecl *aliasCandidate(const Expr *E) {
    const VarDecl *VD = asLocalVar(E);
    return VD && !isa<ParmVarDecl>(VD) && VD->getType()->isPointerType()
               ? VD
               : nullptr;
  }
  void noteAllocation(const ValueDecl *S, const CallExpr *C,
                      const AllocationKind &K) {
    if (!Current || First.count(S))
      return;
    StorageLeak L;
    L.Site = C;
    L.In = Current;
    L.Storage = S;
    L.Kind = K;
    First[S] = L;
    Order.push_back(S);
  }
  bool eligible(const StorageLeak &L) const;

  AllocationTracker &T;
  bool DeviceReset = false;
  llvm::DenseMap<const ValueDecl *, StorageLeak> First;
  std::vector<const ValueDecl *> Order;
  llvm::DenseSet<const ValueDecl *> Escaped;
  /// Local pointers that hold a storage or a view into it.
  llvm::DenseMap<const VarDecl *, const ValueDecl *> Aliases;
  /// The calls each storage's value is passed to, and the argument index.
  llvm::DenseMap<const ValueDecl *,
                 llvm::SmallVector<std::pair<const CallExpr *, unsigned>, 2>>
      PassedTo;
};

bool AllocationTracker::LeakScan::eligible(const StorageLeak &L) const {
  if (const auto *VD = dyn_cast<VarDecl>(L.Storage))
    return declaredOnlyInMainFile(VD, SM);
  // A member of a class defined in the main file, not a template, whose
  // methods are all defined here, allocated by one of its methods.
  const auto *RD = dyn_cast<CXXRecordDecl>(L.Storage->getDeclContext());
  const auto *M = dyn_cast<CXXMethodDecl>(L.In);
  if (!RD || !M || M->getParent() != RD ||
      !SM.isInMainFile(SM.getExpansionLoc(RD->getLocation())) ||
      RD->isDependentContext() || isa<ClassTemplateSpecializationDecl>(RD) ||
      RD->getDescribedClassTemplate())
    return false;
  return methodsAllDefinedHere(RD);
}

std::vector<StorageLeak> AllocationTracker::LeakScan::leaks() const {
  std::vector<StorageLeak> Result;
  if (DeviceReset)
    return Result;
  for (const ValueDecl *S : Order) {
    if (Escaped.count(S) || addressEscapes(S))
      continue;
    // A call that frees it, or may keep it.
    auto Passed = PassedTo.find(S);
    if (Passed != PassedTo.end() &&
        llvm::any_of(Passed->second, [&](auto CallArg) {
          return T.releases(CallArg.first, CallArg.second) ||
                 T.mayKeep(CallArg.first, CallArg.second);
        }))
      continue;
    const StorageLeak &L = First.find(S)->second;
    if (eligible(L))
      Result.push_back(L);
  }
  return Result;
}

llvm::SmallVector<StorageLeak, 2>
AllocationTracker::unreleasedStorageIn(const FunctionDecl *FD) {
  if (!StorageLeaks) {
    LeakScan Scan(*this);
    Scan.scanUnit(/*ImplicitCode=*/false);
    StorageLeaks = Scan.leaks();
  }
  llvm::SmallVector<StorageLeak, 2> Result;
  for (const StorageLeak &L : *StorageLeaks)
    if (L.In == FD)
      Result.push_back(L);
  return Result;
}

} // namespace clang::tidy::cuda
