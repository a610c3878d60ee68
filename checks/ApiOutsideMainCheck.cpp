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
      CheckInitializers(Options.get("CheckInitializers", true)) {}

void ApiOutsideMainCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CheckInitializers", CheckInitializers);
}

void ApiOutsideMainCheck::checkFunction(const FunctionDecl &, const FunctionCfg &,
                                        ASTContext &Ctx) {
  if (Scanned)
    return;
  Scanned = true;
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
    bool VisitFunctionDecl(FunctionDecl *FD) {
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
  const Root AtExit{Root::Destructor, VD, VD->getLocation()};
  for (const FunctionDecl *D :
       CudaUseReachability::destructionOf(VD->getType(), Ctx.getSourceManager()))
    report(Reach->reachableFrom(D), AtExit, Ctx);
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
      report({CudaUse{CudaUse::ApiCall, Deleter, FD}}, AtExit, Ctx);
    else
      report(Reach->reachableFrom(FD), AtExit, Ctx);
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
    SourceLocation Loc = reportOnce(U.At->getBeginLoc(), SM);
    if (Loc.isInvalid())
      continue;
    if (U.K == CudaUse::Launch)
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
      diag(R.NoteAt, "%0 has %select{static|thread}1 storage duration; its "
                     "destructor runs after main returns",
           DiagnosticIDs::Note)
          << R.Named
          << (cast<VarDecl>(R.Named)->getStorageDuration() == SD_Thread);
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
