//===- CudaUseReachability.cpp --------------------------------------------===//

#include "CudaUseReachability.h"
#include "CudaApiModel.h"
#include "MemorySpaceAnalysis.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include <deque>

namespace clang::tidy::cuda {

bool isUserFunction(const FunctionDecl *FD, const SourceManager &SM) {
  const FunctionDecl *Def = nullptr;
  return FD && FD->hasBody(Def) && Def &&
         !SM.isInSystemHeader(Def->getLocation()) &&
         !Def->hasAttr<CUDAGlobalAttr>() &&
         !(Def->hasAttr<CUDADeviceAttr>() && !Def->hasAttr<CUDAHostAttr>());
}

const FunctionDecl *namedFunction(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 6; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      E = U->getSubExpr(); // &f, or +[] {}
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<FunctionDecl>(DRE->getDecl());
    if (const auto *ME = dyn_cast<MemberExpr>(E)) // this->staticMember
      return dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
    if (const auto *L = dyn_cast<LambdaExpr>(E))
      return L->getCallOperator();
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MT->getSubExpr();
      continue;
    }
    // A lambda converted to a function pointer: its conversion operator.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
        MC && isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl())) {
      E = MC->getImplicitObjectArgument();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

namespace {

/// The destructor that destroying an object of type \p T runs, when it is
/// user code.
const CXXDestructorDecl *userDestructor(QualType T, const SourceManager &SM) {
  if (T.isNull() || T->isDependentType())
    return nullptr;
  const CXXRecordDecl *RD =
      T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return nullptr;
  const CXXDestructorDecl *D = RD->getDestructor();
  return D && !D->isTrivial() && isUserFunction(D, SM) ? D : nullptr;
}

/// The call operator of a deleter class (a struct or a lambda's closure).
const FunctionDecl *callOperatorOf(const CXXRecordDecl *RD,
                                   const SourceManager &SM) {
  if (!RD || !RD->hasDefinition())
    return nullptr;
  if (RD->isLambda())
    return RD->getLambdaCallOperator();
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getOverloadedOperator() == OO_Call && isUserFunction(M, SM))
      return M;
  return nullptr;
}

bool isInStd(const Decl *D) { return D->isInStdNamespace(); }

/// The call operator of a lambda written as an argument of \p C, a call of
/// a standard-library function, which runs it.
const FunctionDecl *lambdaRunBy(const CallExpr *C) {
  const FunctionDecl *Callee = C->getDirectCallee();
  if (!Callee || !isInStd(Callee))
    return nullptr;
  for (const Expr *Arg : C->arguments()) {
    const Expr *E = Arg->IgnoreImplicit();
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MT->getSubExpr()->IgnoreImplicit();
    if (const auto *L = dyn_cast<LambdaExpr>(E))
      return L->getCallOperator();
  }
  return nullptr;
}

bool isStdSmartPointerClass(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier() || !isInStd(RD))
    return false;
  return RD->getName() == "unique_ptr" || RD->getName() == "shared_ptr";
}

void collectDestruction(QualType T, const SourceManager &SM, unsigned Depth,
                        std::vector<const FunctionDecl *> &Out) {
  if (T.isNull() || T->isDependentType() || Depth > 4)
    return;
  T = T.getNonReferenceType();
  if (const CXXDestructorDecl *D = userDestructor(T, SM)) {
    Out.push_back(D);
    return;
  }
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl());
  if (!Spec || !isInStd(Spec))
    return;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (isStdSmartPointerClass(Spec)) {
    // unique_ptr<T, Deleter>: a deleter of user code, else `delete`.
    if (Args.size() > 1 && Args[1].getKind() == TemplateArgument::Type) {
      const CXXRecordDecl *Deleter = Args[1].getAsType()->getAsCXXRecordDecl();
      if (Deleter && !isInStd(Deleter)) {
        if (const FunctionDecl *Op = callOperatorOf(Deleter, SM))
          Out.push_back(Op);
        return;
      }
      if (!Deleter) // A function pointer: installed at construction.
        return;
    }
    if (Args.size() > 0 && Args[0].getKind() == TemplateArgument::Type)
      collectDestruction(Args[0].getAsType(), SM, Depth + 1, Out);
    return;
  }
  // Containers, pairs, tuples, optionals: their elements are destroyed.
  // (weak_ptr, span, reference_wrapper own nothing.)
  static const llvm::StringSet<> Owning = {
      "vector", "deque",    "list",          "forward_list",       "array",
      "map",    "multimap", "unordered_map", "unordered_multimap", "set",
      "multiset", "unordered_set", "unordered_multiset", "pair", "tuple",
      "optional", "variant", "stack", "queue", "priority_queue"};
  if (!Spec->getIdentifier() || !Owning.contains(Spec->getName()))
    return;
  for (const TemplateArgument &A : Args.asArray()) {
    if (A.getKind() == TemplateArgument::Type)
      collectDestruction(A.getAsType(), SM, Depth + 1, Out);
    else if (A.getKind() == TemplateArgument::Pack)
      for (const TemplateArgument &P : A.pack_elements())
        if (P.getKind() == TemplateArgument::Type)
          collectDestruction(P.getAsType(), SM, Depth + 1, Out);
  }
}

/// Whether \p FD compares something with an enumerator that says the
/// runtime is unloading (the API model's CUDA_SHUTDOWN_STATUS rows).
bool examinesShutdownStatus(const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (const auto *EC = dyn_cast<EnumConstantDecl>(E->getDecl());
          EC && CudaApiModel::isShutdownStatus(EC))
        Found = true;
      return !Found;
    }
  } F;
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

class BodyScanner : public RecursiveASTVisitor<BodyScanner> {
public:
  BodyScanner(const SourceManager &SM, std::vector<CudaUse> &Uses,
              std::vector<std::pair<const FunctionDecl *, const Expr *>> &Callees)
      : SM(SM), Uses(Uses), Callees(Callees) {}

  bool shouldVisitImplicitCode() const { return true; }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitCallExpr(CallExpr *C) {
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(C)) {
      Uses.push_back({CudaUse::Launch, C, K->getDirectCallee()});
      return true;
    }
    const FunctionDecl *Callee = CudaApiModel::calleeOf(C);
    if (CudaApiModel::isRuntimeOrDriverCall(Callee))
      Uses.push_back({CudaUse::ApiCall, C, Callee});
    else
      addCallee(Callee, C);
    // A lambda handed to a standard algorithm (`std::for_each(b, e,
    // [](void *p) { cudaFree(p); })`) runs during the call.
    if (const FunctionDecl *L = lambdaRunBy(C))
      addCallee(L, C);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    addCallee(E->getConstructor(), E);
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    addCallee(userDestructor(E->getDestroyedType(), SM), E);
    return true;
  }
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *E) {
    addCallee(userDestructor(E->getType(), SM), E);
    return true;
  }
  bool VisitDeclStmt(DeclStmt *S) {
    for (const Decl *D : S->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D);
          VD && VD->hasLocalStorage() && VD->getInit())
        addCallee(userDestructor(VD->getType(), SM), VD->getInit());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *VD = dyn_cast<VarDecl>(E->getDecl());
        VD && isManagedVariableDecl(VD)) {
      CudaUse U{CudaUse::ManagedAccess, E};
      U.Managed = VD;
      Uses.push_back(U);
    }
    return true;
  }

private:
  void addCallee(const FunctionDecl *FD, const Expr *By) {
    if (isUserFunction(FD, SM))
      Callees.push_back({FD, By});
  }
  const SourceManager &SM;
  std::vector<CudaUse> &Uses;
  std::vector<std::pair<const FunctionDecl *, const Expr *>> &Callees;
};

} // namespace

const CudaUseReachability::Body &
CudaUseReachability::bodyOf(const FunctionDecl *FD) {
  auto [It, New] = Bodies.try_emplace(FD);
  if (!New)
    return *It->second;
  auto B = std::make_unique<Body>();
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Def = nullptr;
  if (isUserFunction(FD, SM) && FD->hasBody(Def)) {
    BodyScanner Scan(SM, B->Uses, B->Callees);
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        Scan.TraverseStmt(Init->getInit());
    Scan.TraverseStmt(Def->getBody());
    if (examinesShutdownStatus(Def))
      for (CudaUse &U : B->Uses)
        U.ExpectsShutdown = U.K == CudaUse::ApiCall;
    // A destructor then destroys the members (and what their smart pointers
    // own) and bases.
    if (const auto *Dtor = dyn_cast<CXXDestructorDecl>(Def)) {
      const CXXRecordDecl *RD = Dtor->getParent();
      for (const FieldDecl *F : RD->fields())
        for (const FunctionDecl *D : destructionOf(F->getType(), SM))
          B->Callees.push_back({D, nullptr});
      for (const CXXBaseSpecifier &Base : RD->bases())
        if (const CXXDestructorDecl *D = userDestructor(Base.getType(), SM))
          B->Callees.push_back({D, nullptr});
    }
  }
  It = Bodies.find(FD);
  It->second = std::move(B);
  return *It->second;
}

std::vector<const FunctionDecl *>
CudaUseReachability::destructionOf(QualType T, const SourceManager &SM) {
  std::vector<const FunctionDecl *> Out;
  collectDestruction(T, SM, 0, Out);
  return Out;
}

bool CudaUseReachability::isStdSmartPointer(QualType T) {
  return !T.isNull() && isStdSmartPointerClass(T->getAsCXXRecordDecl());
}

const Expr *CudaUseReachability::installedDeleter(const Expr *E) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const Expr *Found = nullptr;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      if (C->getNumArgs() >= 2 && isStdSmartPointer(C->getType()))
        Found = C->getArg(1);
      return !Found;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) {
      const CXXMethodDecl *M = C->getMethodDecl();
      if (M && M->getIdentifier() && M->getName() == "reset" &&
          C->getNumArgs() >= 2 &&
          isStdSmartPointer(C->getImplicitObjectArgument()->getType()))
        Found = C->getArg(1);
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

std::vector<CudaUse>
CudaUseReachability::reachableFrom(const FunctionDecl *Root) {
  return reachableFromBody(bodyOf(Root->getCanonicalDecl()),
                           Root->getCanonicalDecl());
}

std::vector<CudaUse> CudaUseReachability::reachableFromExpr(const Expr *E) {
  // `T x = T(...)` constructs x itself (the temporary is elided), though
  // the AST binds a temporary.
  for (;;) {
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr();
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      E = Bind->getSubExpr();
    else
      break;
  }
  Body Start;
  BodyScanner Scan(Ctx.getSourceManager(), Start.Uses, Start.Callees);
  Scan.TraverseStmt(const_cast<Expr *>(E));
  return reachableFromBody(Start, nullptr);
}

std::vector<CudaUse>
CudaUseReachability::reachableFromBody(const Body &Start,
                                       const FunctionDecl *Root) {
  std::vector<CudaUse> Result;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  llvm::SmallPtrSet<const Expr *, 16> SeenUses;
  if (Root)
    Seen.insert(Root);
  // Each body to visit, with the start's call that leads to it.
  std::deque<std::tuple<const Body *, const FunctionDecl *, const Expr *>>
      Work;
  Work.push_back({&Start, Root, nullptr});
  while (!Work.empty()) {
    auto [B, FD, Through] = Work.front();
    Work.pop_front();
    for (CudaUse U : B->Uses) {
      if (!SeenUses.insert(U.At).second)
        continue;
      U.In = FD;
      U.Through = Through;
      Result.push_back(U);
    }
    for (const auto &[Callee, By] : B->Callees) {
      const FunctionDecl *C = Callee->getCanonicalDecl();
      if (Seen.insert(C).second)
        Work.push_back({&bodyOf(C), C, Through ? Through : By});
    }
  }
  return Result;
}

namespace {

/// The events of a body, in post-order (operands before the call that uses
/// them, an initializer before its declaration).
class EventScanner : public RecursiveASTVisitor<EventScanner> {
public:
  using Event = std::tuple<const Stmt *, const FunctionDecl *, const VarDecl *>;
  EventScanner(const SourceManager &SM, std::vector<Event> &Out)
      : SM(SM), Out(Out) {}
  bool shouldTraversePostOrder() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitCallExpr(CallExpr *C) {
    if (isa<CUDAKernelCallExpr>(C)) {
      Out.push_back({C, nullptr, nullptr});
      return true;
    }
    const FunctionDecl *Callee = CudaApiModel::calleeOf(C);
    if (CudaApiModel::isRuntimeOrDriverCall(Callee)) {
      Out.push_back({C, nullptr, nullptr});
      return true;
    }
    if (isUserFunction(Callee, SM))
      Out.push_back({C, Callee, nullptr});
    else
      constructedByFactory(C);
    if (const FunctionDecl *L = lambdaRunBy(C))
      Out.push_back({C, L, nullptr});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (isUserFunction(E->getConstructor(), SM))
      Out.push_back({E, E->getConstructor(), nullptr});
    return true;
  }
  bool VisitDeclStmt(DeclStmt *S) {
    for (const Decl *D : S->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->isStaticLocal())
        Out.push_back({S, nullptr, VD});
    return true;
  }

private:
  /// std::make_unique<T>(...) and std::make_shared<T>(...) construct a T
  /// inside the library: every constructor of T that this translation unit
  /// defines counts as run.
  void constructedByFactory(const CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier() ||
        !(FD->getName() == "make_unique" || FD->getName() == "make_shared" ||
          FD->getName() == "allocate_shared"))
      return;
    const CXXRecordDecl *RD = nullptr;
    if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
        Args && Args->size() > 0 && Args->get(0).getKind() == TemplateArgument::Type)
      RD = Args->get(0).getAsType()->getAsCXXRecordDecl();
    if (!RD || !RD->hasDefinition())
      return;
    for (const CXXConstructorDecl *Ctor : RD->ctors())
      if (!Ctor->isCopyOrMoveConstructor() && isUserFunction(Ctor, SM))
        Out.push_back({C, Ctor, nullptr});
  }
  const SourceManager &SM;
  std::vector<Event> &Out;
};

} // namespace

const std::vector<CudaUseReachability::Event> &
CudaUseReachability::eventsOf(const FunctionDecl *FD) {
  auto [It, New] = Events.try_emplace(FD);
  if (!New)
    return It->second;
  std::vector<EventScanner::Event> Raw;
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Def = nullptr;
  if (isUserFunction(FD, SM) && FD->hasBody(Def)) {
    EventScanner Scan(SM, Raw);
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        Scan.TraverseStmt(Init->getInit());
    Scan.TraverseStmt(Def->getBody());
  }
  std::vector<Event> Result;
  for (const auto &[At, Callee, Var] : Raw)
    Result.push_back({At, Callee, Var});
  It = Events.find(FD);
  It->second = std::move(Result);
  return It->second;
}

CudaUseReachability::FirstEvent CudaUseReachability::firstInEvents(
    const std::vector<Event> &Evs, const VarDecl *Target,
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen, unsigned Depth) {
  for (const Event &E : Evs) {
    if (E.Var) {
      if (E.Var->getCanonicalDecl() == Target)
        return {FirstEvent::Construction, E.At, nullptr};
      continue;
    }
    if (!E.Callee)
      return {FirstEvent::Cuda, E.At, nullptr};
    const FunctionDecl *C = E.Callee->getCanonicalDecl();
    if (Depth > 12 || !Seen.insert(C).second)
      continue;
    FirstEvent F = firstInEvents(eventsOf(C), Target, Seen, Depth + 1);
    if (F.K != FirstEvent::None) {
      F.Through = dyn_cast<Expr>(E.At);
      return F;
    }
  }
  return {};
}

CudaUseReachability::FirstEvent
CudaUseReachability::firstEvent(const FunctionDecl *Root,
                                const VarDecl *Target) {
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  Seen.insert(Root->getCanonicalDecl());
  const VarDecl *T = Target ? Target->getCanonicalDecl() : nullptr;
  FirstEvent F = firstInEvents(eventsOf(Root->getCanonicalDecl()), T, Seen, 0);
  // CUDA first counts only when the root goes on to construct the target.
  if (F.K == FirstEvent::Cuda && T) {
    llvm::SmallPtrSet<const FunctionDecl *, 16> Visited;
    if (!constructs(Root->getCanonicalDecl(), T, Visited, 0))
      return {};
  }
  return F;
}

bool CudaUseReachability::constructs(
    const FunctionDecl *FD, const VarDecl *Target,
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Visited, unsigned Depth) {
  if (Depth > 12 || !Visited.insert(FD).second)
    return false;
  for (const Event &E : eventsOf(FD)) {
    if (E.Var && E.Var->getCanonicalDecl() == Target)
      return true;
    if (E.Callee &&
        constructs(E.Callee->getCanonicalDecl(), Target, Visited, Depth + 1))
      return true;
  }
  return false;
}

CudaUseReachability::FirstEvent
CudaUseReachability::firstEventIn(const Expr *E, const VarDecl *Target) {
  std::vector<EventScanner::Event> Raw;
  EventScanner Scan(Ctx.getSourceManager(), Raw);
  Scan.TraverseStmt(const_cast<Expr *>(E));
  std::vector<Event> Evs;
  for (const auto &[At, Callee, Var] : Raw)
    Evs.push_back({At, Callee, Var});
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  return firstInEvents(Evs, Target ? Target->getCanonicalDecl() : nullptr,
                       Seen, 0);
}

} // namespace clang::tidy::cuda
