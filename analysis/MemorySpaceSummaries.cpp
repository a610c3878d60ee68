//===- MemorySpaceSummaries.cpp -------------------------------------------===//
//
// The translation unit of the memory-space analysis: each function analysed
// once in context (its parameters bound to the join of what every call in
// the unit passes) and once as a summary (parameters unknown), the call
// sites that give the context and the constant arguments, and which kernel
// parameters a kernel dereferences.
//
//===----------------------------------------------------------------------===//

#include "MemorySpaceInternal.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {

//===----------------------------------------------------------------------===//
// The translation unit
//===----------------------------------------------------------------------===//

MemorySpaceAnalysis &MemorySpaceAnalysis::get(ASTContext &Ctx,
                                              const ArchConditionals &Arch) {
  return TranslationUnitAnalyses::get(Ctx).memorySpaces(Arch);
}

static bool isHostFunction(const FunctionDecl *FD) {
  return !FD->hasAttr<CUDAGlobalAttr>() && !FD->hasAttr<CUDADeviceAttr>();
}

const FunctionMemorySpaces *
MemorySpaceAnalysis::run(const FunctionDecl *FD, bool Contextual) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!isAnalysableFunction(Def, SM) || !isSeenWhole(Def, SM, *Arch) ||
      !isHostFunction(Def))
    return nullptr;
  if (Contextual && !ContextIsSummary.count(Def) && !callersMayTell(Def))
    ContextIsSummary.insert(Def);
  if (Contextual && ContextIsSummary.count(Def))
    Contextual = false;
  auto Key = std::make_pair(Def, Contextual);
  if (auto It = Results.find(Key); It != Results.end())
    return It->second.get();
  if (!InProgress.insert(Key).second)
    return nullptr; // Recursion: unknown.
  std::shared_ptr<const FunctionCfg> Cfg =
      TranslationUnitAnalyses::get(Ctx).sharedCfgOf(Def);
  std::unique_ptr<FunctionMemorySpaces> R;
  if (Cfg) {
    MemoryState Entry;
    bool Ok = true;
    if (Contextual && Def->getNumParams() > 0) {
      std::optional<MemoryState> FromCallers = entryFromCallers(Def);
      if (FromCallers)
        Entry = std::move(*FromCallers);
      else
        Ok = false;
    }
    if (Contextual && !Ok) {
      InProgress.erase(Key);
      ContextIsSummary.insert(Def);
      return run(Def, false);
    }
    R.reset(new FunctionMemorySpaces(*this, Cfg));
    if (Contextual)
      R->ConstantParams = constantArguments(Def);
    FunctionAnalyzer A(*this, *R);
    A.prescan();
    A.solve(Entry);
  }
  InProgress.erase(Key);
  auto &Slot = Results[Key];
  Slot = std::move(R);
  return Slot.get();
}

const FunctionMemorySpaces *
MemorySpaceAnalysis::analyse(const FunctionDecl *FD) {
  return run(FD, true);
}

const FunctionMemorySpaces *
MemorySpaceAnalysis::summary(const FunctionDecl *FD) {
  return run(FD, false);
}

namespace {
class CallSiteCollector : public RecursiveASTVisitor<CallSiteCollector> {
public:
  explicit CallSiteCollector(
      llvm::DenseMap<const FunctionDecl *,
                     llvm::SmallVector<std::pair<const CallExpr *,
                                                 const FunctionDecl *>, 4>>
          &Sites,
      llvm::DenseSet<const FunctionDecl *> &Unknown, const SourceManager &SM)
      : Sites(Sites), Unknown(Unknown), SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    // Code in a system header can only name a function of the program
    // through a template instantiated with the program's types: skip the
    // other functions and variables declared there outside any function,
    // most of the translation unit.
    if (D && (isa<FunctionDecl>(D) || isa<VarDecl>(D)) &&
        !D->getParentFunctionOrMethod() && !isInstantiation(D) &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

#define TRAVERSE_FN(T)                                                         \
  bool Traverse##T(T *FD) {                                                    \
    const FunctionDecl *Saved = Current;                                       \
    Current = FD->isThisDeclarationADefinition() && !FD->isDependentContext()  \
                  ? FD                                                         \
                  : nullptr;                                                   \
    Dependent = FD->isDependentContext();                                      \
    RecursiveASTVisitor::Traverse##T(FD);                                      \
    Current = Saved;                                                           \
    Dependent = false;                                                         \
    return true;                                                               \
  }
  TRAVERSE_FN(FunctionDecl)
  TRAVERSE_FN(CXXMethodDecl)
  TRAVERSE_FN(CXXConstructorDecl)
  TRAVERSE_FN(CXXDestructorDecl)
  TRAVERSE_FN(CXXConversionDecl)
#undef TRAVERSE_FN
  bool TraverseLambdaExpr(LambdaExpr *L) {
    const FunctionDecl *Saved = Current;
    Current = L->getCallOperator();
    bool Ok = RecursiveASTVisitor::TraverseLambdaExpr(L);
    Current = Saved;
    return Ok;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *Callee = C->getDirectCallee()) {
      const FunctionDecl *Canon = Callee->getCanonicalDecl();
      if (Current)
        Sites[Canon].push_back({C, Current});
      else if (!Dependent) // Template patterns: their instantiations count.
        Unknown.insert(Canon);
    }
    return true;
  }

private:
  static bool isInstantiation(const Decl *D) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      return FD->getTemplateInstantiationPattern() != nullptr;
    return cast<VarDecl>(D)->getTemplateInstantiationPattern() != nullptr;
  }

  bool Dependent = false;
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<std::pair<const CallExpr *,
                                             const FunctionDecl *>, 4>> &Sites;
  llvm::DenseSet<const FunctionDecl *> &Unknown;
  const FunctionDecl *Current = nullptr;
  const SourceManager &SM;
};
} // namespace

void MemorySpaceAnalysis::collectCallSites() {
  if (CallSitesCollected)
    return;
  CallSitesCollected = true;
  CallSiteCollector C(CallSites, UnknownCallers, Ctx.getSourceManager());
  // The traversal scope: with a precompiled header, the declarations parsed
  // in this run and its own outside system headers (driver/PrefixCache.h);
  // otherwise the translation unit.
  std::vector<Decl *> Scope = Ctx.getTraversalScope();
  if (Scope.size() == 1 && isa<TranslationUnitDecl>(Scope.front())) {
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      C.TraverseDecl(D);
    return;
  }
  for (Decl *D : Scope)
    C.TraverseDecl(D);
}

bool MemorySpaceAnalysis::callersMayTell(const FunctionDecl *FD) {
  // The entry from the callers has facts only under pointer, reference and
  // record parameters (entryFromCallers).
  if (llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
        QualType T = P->getType();
        return T->isPointerType() || T->isReferenceType() ||
               T->isRecordType();
      }))
    return true;
  return !constantArguments(FD).empty();
}

llvm::DenseMap<const VarDecl *, int64_t>
MemorySpaceAnalysis::constantArguments(const FunctionDecl *FD) {
  llvm::DenseMap<const VarDecl *, int64_t> Result;
  TranslationUnitAnalyses &TU = TranslationUnitAnalyses::get(Ctx);
  if (FD->getNumParams() == 0 || FD->hasAttr<CUDAGlobalAttr>() ||
      !TU.hasKnownCallers(FD) || TU.isAddressTaken(FD) || FD->isVariadic() ||
      FD->isMain())
    return Result;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual())
    return Result;
  collectCallSites();
  const FunctionDecl *Canon = FD->getCanonicalDecl();
  auto It = CallSites.find(Canon);
  if (UnknownCallers.count(Canon) || It == CallSites.end() ||
      It->second.empty())
    return Result;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    if (!P->getType()->isIntegralOrEnumerationType())
      continue;
    std::optional<int64_t> Common;
    bool Same = true;
    for (auto [Call, Caller] : It->second) {
      std::optional<int64_t> V =
          I < Call->getNumArgs() && !isa<CXXOperatorCallExpr>(Call)
              ? TU.integerConstant(Call->getArg(I))
              : std::nullopt;
      if (!V || (Common && *Common != *V)) {
        Same = false;
        break;
      }
      Common = V;
    }
    if (Same && Common)
      Result[P] = *Common;
  }
  return Result;
}

std::optional<MemoryState>
MemorySpaceAnalysis::entryFromCallers(const FunctionDecl *FD) {
  TranslationUnitAnalyses &TU = TranslationUnitAnalyses::get(Ctx);
  if (FD->hasAttr<CUDAGlobalAttr>() || !TU.hasKnownCallers(FD) ||
      TU.isAddressTaken(FD) || FD->isVariadic() || FD->isMain())
    return std::nullopt;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual())
    return std::nullopt;
  // A function with external linkage could also be called from another
  // translation unit; like the rest of cuda-tidy, the analysis takes the
  // translation unit as the program: its callers are the ones it sees.
  collectCallSites();
  const FunctionDecl *Canon = FD->getCanonicalDecl();
  if (UnknownCallers.count(Canon))
    return std::nullopt;
  auto It = CallSites.find(Canon);
  if (It == CallSites.end() || It->second.empty())
    return std::nullopt;
  std::optional<MemoryState> Joined;
  for (auto [Call, Caller] : It->second) {
    if (Call->getNumArgs() != FD->getNumParams() ||
        isa<CXXOperatorCallExpr>(Call))
      return std::nullopt;
    const FunctionMemorySpaces *CR = analyse(Caller);
    if (!CR || CR->Failed)
      return std::nullopt;
    FunctionAnalyzer CA(*this, const_cast<FunctionMemorySpaces &>(*CR));
    std::optional<CfgPoint> P = CR->cfg().pointOf(Call);
    if (!P)
      return std::nullopt;
    const MemoryState *Before = CR->stateBefore(*P);
    if (!Before)
      return std::nullopt;
    // Evaluating the arguments may analyse other functions: keep a copy.
    const MemoryState State = *Before;
    const MemoryState *St = &State;
    MemoryState Site;
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      const ParmVarDecl *Param = FD->getParamDecl(I);
      const Expr *Arg = Call->getArg(I);
      if (Param->getType()->isPointerType())
        Site[LocKey{Param, {}}] = CA.eval(Arg, *St);
      if (std::optional<Referent> Ref = referentOf(Param, Arg, CA))
        for (auto [First, Last] = St->withPrefix(Ref->CallerBase);
             First != Last; ++First)
          if (const auto &[K, F] = *First;
              (K.Path.size() > Ref->CallerBase.Path.size() ||
               Param->getType()->isReferenceType()))
            Site[K.withSuffixOf(Ref->CallerBase, Ref->CalleeBase)] = F;
    }
    // Sizes written in the caller mean nothing in the callee.
    for (auto &[K, F] : Site)
      F.Size = AllocSize();
    if (!Joined) {
      Joined = std::move(Site);
      continue;
    }
    Joined->intersectJoin(Site);
  }
  return Joined;
}

namespace {
/// Finds whether a device function dereferences a pointer parameter, or a
/// local pointer derived from it.
class DerefFinder : public RecursiveASTVisitor<DerefFinder> {
public:
  DerefFinder(MemorySpaceAnalysis &MSA, const ParmVarDecl *P, unsigned Depth)
      : MSA(MSA), Depth(Depth) {
    Derived.insert(P);
  }
  bool Found = false;

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getInit() && mentionsDerived(VD->getInit()))
      Grew |= Derived.insert(VD).second;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign && mentionsDerived(B->getRHS()))
      if (const auto *DRE = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Grew |= Derived.insert(VD).second;
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_Deref && mentionsDerived(U->getSubExpr()))
      Found = true;
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
    if (mentionsDerived(A->getBase()))
      Found = true;
    return true;
  }
  bool VisitMemberExpr(MemberExpr *M) {
    if (M->isArrow() && mentionsDerived(M->getBase()))
      Found = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      if (!mentionsDerived(C->getArg(I)))
        continue;
      const FunctionDecl *Def = nullptr;
      if (!Callee)
        continue; // Through a function pointer: unknown.
      if (!Callee->hasBody(Def) || I >= Def->getNumParams() || Depth > 3) {
        // Atomics and intrinsics come from the CUDA headers and access the
        // memory; a function of the program whose body is elsewhere is
        // unknown.
        const SourceManager &SM = MSA.context().getSourceManager();
        if (SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())) ||
            Callee->getBuiltinID())
          Found = true;
        continue;
      }
      if (MSA.kernelDereferences(Def, I))
        Found = true;
    }
    return true;
  }
  bool Grew = false;

private:
  bool mentionsDerived(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return Derived.count(DRE->getDecl());
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return B->isAdditiveOp() &&
             (mentionsDerived(B->getLHS()) || mentionsDerived(B->getRHS()));
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(E))
      return mentionsDerived(C->getTrueExpr()) ||
             mentionsDerived(C->getFalseExpr());
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return U->getOpcode() == UO_AddrOf && mentionsDerived(U->getSubExpr());
    return false;
  }
  MemorySpaceAnalysis &MSA;
  unsigned Depth;
  llvm::DenseSet<const Decl *> Derived;
};
} // namespace

bool MemorySpaceAnalysis::kernelDereferences(const FunctionDecl *Kernel,
                                             unsigned Index) {
  const FunctionDecl *Def = nullptr;
  if (!Kernel || !Kernel->hasBody(Def) || !Def || Index >= Def->getNumParams())
    return false; // Unknown: never a reason to report.
  auto Key = std::make_pair(Def, Index);
  if (auto It = KernelDerefs.find(Key); It != KernelDerefs.end())
    return It->second;
  KernelDerefs[Key] = false; // Recursion: what is found so far.
  DerefFinder F(*this, Def->getParamDecl(Index), 0);
  do {
    F.Grew = false;
    F.TraverseStmt(Def->getBody());
  } while (F.Grew && !F.Found);
  return KernelDerefs[Key] = F.Found;
}

} // namespace clang::tidy::cuda
