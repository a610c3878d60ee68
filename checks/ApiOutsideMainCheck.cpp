//===- ApiOutsideMainCheck.cpp --------------------------------------------===//

#include "ApiOutsideMainCheck.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "SourceLocations.h"
#include "TranslationUnitScan.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

ApiOutsideMainCheck::ApiOutsideMainCheck(StringRef Name,
                                         ClangTidyContext *Context)
    : CudaFunctionCheck(Name, Context,
                        {FunctionScope::All, CheckLanguages::CudaOrCxx,
                         /*NeedsWholeBody=*/false}),
      CheckInitializers(Options.get("CheckInitializers", true)),
      ReportOrderDependent(Options.get("ReportOrderDependent", true)) {}

void ApiOutsideMainCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CheckInitializers", CheckInitializers);
  Options.store(Opts, "ReportOrderDependent", ReportOrderDependent);
}

void ApiOutsideMainCheck::checkFunction(const FunctionDecl &, const FunctionCfg &,
                                        ASTContext &Ctx) {
  if (Scanned)
    return;
  Scanned = true;
  Main = nullptr;
  RuntimeInitVar = nullptr;
  RuntimeInitAt = nullptr;
  InitializedEarlier.clear();
  Reach = std::make_unique<CudaUseReachability>(Ctx);
  scanTranslationUnit(Ctx);
}

void ApiOutsideMainCheck::scanTranslationUnit(ASTContext &Ctx) {
  // Replays the walk with instantiations and without implicit code.
  struct Finder : ScanVisitor<Finder> {
    std::vector<const VarDecl *> Vars;
    std::vector<const FunctionDecl *> Attributed;
    std::vector<std::pair<const FunctionDecl *, const CallExpr *>> Handlers;
    /// What is stored into each static smart pointer after its
    /// initializer (assignments, reset calls), and those that main empties.
    llvm::DenseMap<const VarDecl *, std::vector<const Expr *>> Stores;
    llvm::DenseSet<const VarDecl *> EmptiedInMain;
    static const VarDecl *staticSmartPointer(const Expr *E) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      return VD && VD->getStorageDuration() != SD_Automatic &&
                     CudaUseReachability::isStdSmartPointer(VD->getType())
                 ? VD->getCanonicalDecl()
                 : nullptr;
    }
    void stored(const VarDecl *VD, const Expr *Value, bool Empties) {
      if (Empties) {
        if (Current && Current->isMain())
          EmptiedInMain.insert(VD);
        return;
      }
      Stores[VD].push_back(Value);
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
      if (C->getOperator() == OO_Equal && C->getNumArgs() == 2)
        if (const VarDecl *VD = staticSmartPointer(C->getArg(0)))
          stored(VD, C->getArg(1),
                 C->getArg(1)->IgnoreImpCasts()->isNullPointerConstant(
                     VD->getASTContext(), Expr::NPC_ValueDependentIsNotNull));
      return true;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) {
      const CXXMethodDecl *M = C->getMethodDecl();
      const VarDecl *VD = staticSmartPointer(C->getImplicitObjectArgument());
      if (!VD || !M || !M->getIdentifier())
        return true;
      // reset() (its argument defaulted or null) and release() empty it.
      if (M->getName() == "release")
        stored(VD, C, /*Empties=*/true);
      else if (M->getName() == "reset")
        stored(VD, C,
               C->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(C->getArg(0)) ||
                   C->getArg(0)->IgnoreImpCasts()->isNullPointerConstant(
                       VD->getASTContext(), Expr::NPC_ValueDependentIsNotNull));
      return true;
    }
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->getStorageDuration() == SD_Static ||
          VD->getStorageDuration() == SD_Thread)
        Vars.push_back(VD);
      return true;
    }
    const FunctionDecl *Main = nullptr;
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (FD->isMain() && FD->doesThisDeclarationHaveABody())
        Main = FD;
      if (FD->doesThisDeclarationHaveABody() &&
          (FD->hasAttr<ConstructorAttr>() || FD->hasAttr<DestructorAttr>()))
        Attributed.push_back(FD);
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      const ApiFunction *Api = CudaApiModel::lookup(C);
      if (Api && Api->ExitHandlerArg >= 0)
        if (const FunctionDecl *F = namedFunction(
                CudaApiModel::argument(C, Api->ExitHandlerArg)))
          Handlers.push_back({F, C});
      return true;
    }
  } F;
  F.replay(TranslationUnitAnalyses::get(Ctx).scan().nodes(
               /*ImplicitCode=*/false),
           /*Instantiations=*/true);

  Main = F.Main;
  // A constructor-attribute function that uses CUDA sets the runtime up
  // before main, in an order relative to the variables that is not known.
  CtorAttrUsesCuda = llvm::any_of(F.Attributed, [&](const FunctionDecl *FD) {
    return FD->hasAttr<ConstructorAttr>() &&
           llvm::any_of(Reach->reachableFrom(FD), [](const CudaUse &U) {
             return U.K != CudaUse::ManagedAccess;
           });
  });
  // Namespace-scope variables of one translation unit are initialized in
  // the order of their definitions (template instantiations excepted): the
  // first whose initializer uses CUDA sets the runtime up for those after.
  for (const VarDecl *VD : F.Vars) {
    if (VD->getStorageDuration() != SD_Static || VD->isStaticLocal() ||
        !VD->isThisDeclarationADefinition() || VD->isInline() ||
        VD->getTemplateSpecializationKind() != TSK_Undeclared ||
        VD->getType()->isDependentType() || VD->hasAttr<CUDADeviceAttr>() ||
        VD->hasAttr<CUDAConstantAttr>())
      continue;
    if (VD->getInit() && !VD->getInit()->isValueDependent()) {
      CudaUseReachability::FirstEvent E =
          Reach->firstEventIn(VD->getInit(), nullptr);
      if (E.K == CudaUseReachability::FirstEvent::Cuda) {
        RuntimeInitVar = VD->getCanonicalDecl();
        RuntimeInitAt = E.At;
        break;
      }
    }
    InitializedEarlier.insert(VD->getCanonicalDecl());
  }
  for (const VarDecl *VD : F.Vars) {
    const VarDecl *Canon = VD->getCanonicalDecl();
    if (F.EmptiedInMain.count(Canon))
      continue; // Released before main returns.
    auto It = F.Stores.find(Canon);
    checkVariable(VD,
                  It == F.Stores.end() ? llvm::ArrayRef<const Expr *>()
                                       : llvm::ArrayRef(It->second),
                  Ctx);
  }
  for (const FunctionDecl *FD : F.Attributed) {
    bool Before = FD->hasAttr<ConstructorAttr>();
    if (Before && !CheckInitializers)
      continue;
    report(Reach->reachableFrom(FD),
           {Before ? Root::CtorAttr : Root::DtorAttr, FD, FD->getLocation()},
           Ctx);
  }
  for (const auto &[FD, Call] : F.Handlers)
    report(Reach->reachableFrom(FD),
           {Root::ExitHandler, FD, Call->getBeginLoc()}, Ctx);
}

void ApiOutsideMainCheck::checkVariable(const VarDecl *VD,
                                        llvm::ArrayRef<const Expr *> Stores,
                                        ASTContext &Ctx) {
  if (!VD->isThisDeclarationADefinition() ||
      VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDAConstantAttr>() ||
      VD->hasAttr<CUDASharedAttr>() || VD->getType()->isDependentType())
    return;
  // A namespace-scope or static member initializer runs before main; a
  // static local's runs when its function first reaches it.
  bool InitBeforeMain = VD->getStorageDuration() == SD_Static &&
                        !VD->isStaticLocal() && !VD->isInline() &&
                        VD->getInit() && !VD->getInit()->isValueDependent();
  if (CheckInitializers && InitBeforeMain)
    report(Reach->reachableFromExpr(VD->getInit()),
           {Root::Initializer, VD, VD->getLocation()}, Ctx);
  // At exit: its destructor, what it owns through smart pointers, and the
  // deleters its initializer or later stores install.
  Root AtExit{Root::Destructor, VD, VD->getLocation()};
  bool OrderKnown = false;
  auto Report = [&](const std::vector<CudaUse> &Uses) {
    if (!OrderKnown && llvm::any_of(Uses, [](const CudaUse &U) {
          return U.K != CudaUse::ManagedAccess && !U.ExpectsShutdown;
        })) {
      constructionOrder(VD, AtExit);
      OrderKnown = true;
    }
    report(Uses, AtExit, Ctx);
  };
  for (const FunctionDecl *D :
       CudaUseReachability::destructionOf(VD->getType(), Ctx.getSourceManager()))
    Report(Reach->reachableFrom(D));
  if (!CudaUseReachability::isStdSmartPointer(VD->getType()))
    return;
  std::vector<const Expr *> Installers(Stores.begin(), Stores.end());
  if (VD->getInit())
    Installers.push_back(VD->getInit());
  for (const Expr *E : Installers) {
    const Expr *Deleter = CudaUseReachability::installedDeleter(E);
    const FunctionDecl *FD = namedFunction(Deleter);
    if (!FD)
      continue;
    if (CudaApiModel::isRuntimeOrDriverCall(FD))
      Report({CudaUse{CudaUse::ApiCall, Deleter, FD}});
    else
      Report(Reach->reachableFrom(FD));
  }
}

void ApiOutsideMainCheck::constructionOrder(const VarDecl *VD, Root &R) {
  using FE = CudaUseReachability::FirstEvent;
  if (VD->getStorageDuration() != SD_Static)
    return; // thread_local: destroyed at thread exit.
  const Expr *Init =
      VD->getInit() && !VD->getInit()->isValueDependent() ? VD->getInit()
                                                          : nullptr;
  // Its own construction sets the runtime up: the runtime registers its
  // teardown before the object's destructor is registered.
  if (Init) {
    FE Own = Reach->firstEventIn(Init, nullptr);
    if (Own.K == FE::Cuda) {
      R.When = Root::AfterRuntime;
      R.OrderAt = Own.At;
      return;
    }
  }
  const VarDecl *Canon = VD->getCanonicalDecl();
  if (!VD->isStaticLocal()) {
    if (CtorAttrUsesCuda)
      return;
    // Constructed before main: after the runtime only when an earlier
    // variable of this translation unit set it up.
    bool Ordered = VD->getTemplateSpecializationKind() == TSK_Undeclared &&
                   !VD->isInline();
    if (RuntimeInitVar && Ordered && !InitializedEarlier.count(Canon)) {
      R.When = Root::AfterRuntime;
      R.OrderAt = RuntimeInitAt;
      return;
    }
    if (!RuntimeInitVar || Ordered)
      R.When = Root::BeforeRuntime;
    return;
  }
  // A static local is constructed when main first reaches it: after the
  // runtime when a variable's initializer set it up before main.
  if (RuntimeInitVar) {
    R.When = Root::AfterRuntime;
    R.OrderAt = RuntimeInitAt;
    return;
  }
  if (!Main || CtorAttrUsesCuda)
    return;
  FE First = Reach->firstEvent(Main, VD);
  if (First.K == FE::Construction) {
    R.When = Root::BeforeRuntime;
    R.OrderAt = First.Through; // Null for a static local of main itself.
  } else if (First.K == FE::Cuda) {
    R.When = Root::AfterRuntime;
    R.OrderAt = First.At;
  }
}

void ApiOutsideMainCheck::report(const std::vector<CudaUse> &Uses,
                                 const Root &R, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  bool Before = R.K == Root::Initializer || R.K == Root::CtorAttr;
  for (const CudaUse &U : Uses) {
    if (U.K == CudaUse::ManagedAccess)
      continue;
    // Code that handles cudaErrorCudartUnloading expects to run at exit.
    if (!Before && U.ExpectsShutdown)
      continue;
    bool AtExit = R.K == Root::Destructor;
    if (AtExit && R.When == Root::AfterRuntime && !ReportOrderDependent)
      continue;
    SourceLocation Loc = reportOnce(U.At->getBeginLoc(), SM);
    if (Loc.isInvalid())
      continue;
    bool IsLaunch = U.K == CudaUse::Launch;
    if (AtExit && R.When == Root::BeforeRuntime)
      diag(Loc, "%select{%0 is called|kernel %0 is launched}1 after main "
                "returns, when the CUDA runtime is already shut down")
          << U.Callee->getDeclName() << IsLaunch;
    else if (AtExit && R.When == Root::AfterRuntime)
      diag(Loc, "%select{%0 is called|kernel %0 is launched}1 after main "
                "returns; it works only because %2 is constructed after the "
                "CUDA runtime is set up, and so destroyed before the "
                "runtime's teardown")
          << U.Callee->getDeclName() << IsLaunch << R.Named;
    else if (IsLaunch)
      diag(Loc, "kernel %0 is launched %select{after main returns|before main "
                "starts}1, when the CUDA runtime %select{may already be shut "
                "down|may not be set up}1")
          << U.Callee->getDeclName() << Before;
    else
      diag(Loc, "%0 is called %select{after main returns|before main "
                "starts}1, when the CUDA runtime %select{may already be shut "
                "down|may not be set up}1")
          << U.Callee->getDeclName() << Before;
    switch (R.K) {
    case Root::Initializer:
      diag(R.NoteAt, "%0 has static storage duration; its initializer runs "
                     "before main",
           DiagnosticIDs::Note)
          << R.Named;
      break;
    case Root::Destructor:
      if (R.When == Root::BeforeRuntime) {
        diag(R.NoteAt, "%0 is constructed before the first CUDA call, so it "
                       "is destroyed after the CUDA runtime's teardown",
             DiagnosticIDs::Note)
            << R.Named;
        if (R.OrderAt)
          diag(userVisibleLocation(R.OrderAt->getBeginLoc(), SM),
               "%0 is first constructed through this call, before main's "
               "first CUDA call",
               DiagnosticIDs::Note)
              << R.Named;
        break;
      }
      diag(R.NoteAt, "%0 has %select{static|thread}1 storage duration; its "
                     "destructor runs after main returns",
           DiagnosticIDs::Note)
          << R.Named
          << (cast<VarDecl>(R.Named)->getStorageDuration() == SD_Thread);
      if (R.When == Root::AfterRuntime && R.OrderAt)
        diag(userVisibleLocation(R.OrderAt->getBeginLoc(), SM),
             "the CUDA runtime is first used here, before %0 is constructed",
             DiagnosticIDs::Note)
            << R.Named;
      break;
    case Root::ExitHandler:
      diag(userVisibleLocation(R.NoteAt, SM),
           "%0 is registered here to run when the program exits",
           DiagnosticIDs::Note)
          << R.Named;
      break;
    case Root::CtorAttr:
    case Root::DtorAttr:
      diag(R.NoteAt, "%0 has the %select{destructor|constructor}1 attribute",
           DiagnosticIDs::Note)
          << R.Named << Before;
      break;
    }
    SourceLocation Through =
        U.Through ? userVisibleLocation(U.Through->getBeginLoc(), SM)
                  : SourceLocation();
    if (Through.isValid() && Through != userVisibleLocation(R.NoteAt, SM))
      diag(Through, "reached through this call", DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::cuda
