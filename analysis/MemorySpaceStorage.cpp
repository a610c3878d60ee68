//===- MemorySpaceStorage.cpp ---------------------------------------------===//
//
// Storage that outlives a function (members read through `this`, file-scope
// pointers): one scan of the translation unit gives the space of each, when
// every store into it agrees, and the sized allocations stored into it.
//
//===----------------------------------------------------------------------===//

#include "MemorySpaceInternal.h"
#include "StorageScan.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {

//===----------------------------------------------------------------------===//
// Storage that outlives a function: members read through `this`, globals
//===----------------------------------------------------------------------===//

/// A variable of the host that outlives every function: of static storage,
/// not a static local, not a `__device__`, `__constant__` or `__managed__`
/// variable.
static bool isOutlivingVariable(const VarDecl *VD) {
  return VD->hasGlobalStorage() && !VD->isStaticLocal() &&
         !isDeviceVariable(VD) && !isManagedVariable(VD);
}

/// The member (through `this`) or file-scope pointer variable that the
/// lvalue \p E names, or null.
const ValueDecl *outlivingStorage(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParens();
  if (!E->getType()->isPointerType())
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && isOutlivingVariable(VD))
      return VD->getCanonicalDecl();
    return nullptr;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

namespace {
/// Every store into outliving storage in the translation unit.
/// (Replays the walk with implicit code and without instantiations.)
class SpaceScan : public StorageScan<SpaceScan> {
public:
  explicit SpaceScan(ASTContext &Ctx) : StorageScan(Ctx) {}

  bool VisitCallExpr(CallExpr *C) {
    const ApiFunction *Api = CudaApiModel::lookup(C);
    int Out = Api && Api->Alloc ? Api->Alloc->PtrOutArg : -1;
    const FunctionDecl *Callee = C->getDirectCallee();
    for (unsigned I = 0, N = C->getNumArgs(); I != N; ++I) {
      const Expr *Arg = C->getArg(I)->IgnoreParenCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(Arg);
          U && U->getOpcode() == UO_AddrOf && static_cast<int>(I) == Out)
        if (const ValueDecl *S = storageOf(U->getSubExpr())) {
          addressHandled(S);
          PointerFact F = PointerFact::inSpace(Api->Alloc->Space);
          F.AllocSite = C;
          F.Allocator = Callee;
          const int BytesArg = Api->Alloc->BytesArg;
          bool Sized = BytesArg >= 0 && Api->Alloc->Bytes2Arg < 0 &&
                       BytesArg < static_cast<int>(N) && Current;
          storeDirect(S, F, Sized);
          if (Sized)
            Allocations[S].push_back({C, Current, C->getArg(BytesArg)});
          continue;
        }
      // Bound to a non-const reference parameter: the callee may store.
      if (Callee && I < Callee->getNumParams() &&
          Callee->getParamDecl(I)->getType()->isReferenceType() &&
          !Callee->getParamDecl(I)
               ->getType()
               .getNonReferenceType()
               .isConstQualified())
        if (const ValueDecl *S = storageOf(C->getArg(I)))
          Unknown.insert(S);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (const ValueDecl *S = storageOf(U->getSubExpr())) {
      if (U->getOpcode() == UO_AddrOf)
        addressTaken(S);
      else if (U->isIncrementDecrementOp())
        Unknown.insert(S);
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    if (const ValueDecl *S = storageOf(BO->getLHS())) {
      if (BO->getOpcode() != BO_Assign)
        Unknown.insert(S);
      else
        store(S, valueOf(BO->getRHS()), BO->getLHS());
    }
    return true;
  }
  bool VisitCXXCtorInitializer(CXXCtorInitializer *Init) {
    if (const FieldDecl *F = Init->getMember();
        F && F->getType()->isPointerType() && Init->getInit())
      storeDirect(F, valueOf(Init->getInit()));
    return true;
  }
  bool VisitFieldDecl(FieldDecl *F) {
    if (F->getType()->isPointerType() && F->hasInClassInitializer() &&
        F->getInClassInitializer())
      storeDirect(F, valueOf(F->getInClassInitializer()));
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isPointerType() && VD->getInit() &&
        isOutlivingVariable(VD))
      storeDirect(VD->getCanonicalDecl(), valueOf(VD->getInit()));
    return true;
  }

  /// The sized allocations into each storage whose stores are all sized
  /// allocations or null, and the functions that store into it.
  llvm::DenseMap<const ValueDecl *, StorageAllocations>
  allocations(const llvm::DenseMap<const ValueDecl *, PointerFact> &Known)
      const {
    llvm::DenseMap<const ValueDecl *, StorageAllocations> Result;
    for (const auto &[S, Sites] : Allocations) {
      if (Unsized.count(S) || !Known.count(S))
        continue;
      StorageAllocations &R = Result[S];
      R.Sites.assign(Sites.begin(), Sites.end());
      auto It = Storers.find(S);
      if (It != Storers.end())
        R.StoredIn.insert(It->second.begin(), It->second.end());
    }
    return Result;
  }

  llvm::DenseMap<const ValueDecl *, PointerFact> facts() const {
    llvm::DenseMap<const ValueDecl *, PointerFact> Result;
    for (const auto &[S, F] : Facts) {
      if (Unknown.count(S) || addressEscapes(S) ||
          !F.isKnown() || !eligible(S))
        continue;
      Result[S] = F;
    }
    return Result;
  }

private:
  /// The storage \p E names, marking a member reached other than through
  /// `this` in its own class's method as unknown.
  const ValueDecl *storageOf(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!F || !F->getType()->isPointerType())
        return nullptr;
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(Current);
      if (!isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) || !M ||
          M->getParent() != F->getParent())
        Unknown.insert(F);
      return F;
    }
    return outlivingStorage(E);
  }
  /// The space a stored value points into, as far as a store alone says.
  PointerFact valueOf(const Expr *E) const {
    E = E->IgnoreParenCasts();
    if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
        Expr::NPCK_NotNull)
      return PointerFact::null();
    if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
      if (New->getNumPlacementArgs() > 0)
        return PointerFact::unknown();
      PointerFact F = PointerFact::inSpace(MS_Host);
      F.AllocSite = New;
      return F;
    }
    if (const auto *C = dyn_cast<CallExpr>(E))
      if (const ApiFunction *Api = CudaApiModel::lookup(C);
          Api && Api->Alloc && Api->Alloc->PtrOutArg < 0) {
        PointerFact F = PointerFact::inSpace(Api->Alloc->Space);
        F.AllocSite = C;
        F.Allocator = C->getDirectCallee();
        return F;
      }
    return PointerFact::unknown();
  }
  void store(const ValueDecl *S, const PointerFact &F, const Expr *) {
    storeDirect(S, F);
  }
  /// \p SizedAllocation: the store is an allocation of one byte count,
  /// recorded in Allocations. A null store leaves the sizes alone.
  void storeDirect(const ValueDecl *S, const PointerFact &F,
                   bool SizedAllocation = false) {
    if (Current)
      Storers[S].insert(Current);
    bool IsNull = !F.Unknown && F.MaybeNull && F.Spaces == MS_None;
    if (!Current || (!SizedAllocation && !IsNull))
      Unsized.insert(S);
    auto [It, New] = Facts.try_emplace(S, F);
    if (New)
      return;
    PointerFact &Old = It->second;
    if (F.Unknown || Old.Unknown) {
      Unknown.insert(S);
      return;
    }
    const Stmt *Site = Old.AllocSite ? Old.AllocSite : F.AllocSite;
    const FunctionDecl *Allocator = Old.AllocSite ? Old.Allocator : F.Allocator;
    Old = PointerFact::join(Old, F);
    Old.AllocSite = Site;
    Old.Allocator = Allocator;
  }
  bool eligible(const ValueDecl *S) const {
    if (const auto *VD = dyn_cast<VarDecl>(S))
      return declaredOnlyInMainFile(VD, SM);
    // A class none of whose methods is defined elsewhere.
    const auto *RD = dyn_cast<CXXRecordDecl>(S->getDeclContext());
    if (!RD || RD->isDependentContext() || RD->isUnion() ||
        isa<ClassTemplateSpecializationDecl>(RD))
      return false;
    return methodsAllDefinedHere(RD);
  }

  llvm::DenseMap<const ValueDecl *, PointerFact> Facts;
  llvm::DenseSet<const ValueDecl *> Unknown;
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<StorageAllocation, 1>>
      Allocations;
  llvm::DenseMap<const ValueDecl *, llvm::SmallPtrSet<const FunctionDecl *, 2>>
      Storers;
  llvm::DenseSet<const ValueDecl *> Unsized;
};
} // namespace

void MemorySpaceAnalysis::scanStorage() {
  if (StorageFacts)
    return;
  SpaceScan Scan(Ctx);
  Scan.scanUnit(/*ImplicitCode=*/true);
  StorageFacts = Scan.facts();
  StorageAllocs = Scan.allocations(*StorageFacts);
}

const StorageAllocations *
MemorySpaceAnalysis::storageAllocations(const ValueDecl *Storage) {
  scanStorage();
  auto It = StorageAllocs->find(Storage);
  return It == StorageAllocs->end() ? nullptr : &It->second;
}

PointerFact MemorySpaceAnalysis::storageFact(const ValueDecl *Storage) {
  scanStorage();
  auto It = StorageFacts->find(Storage);
  if (It == StorageFacts->end())
    return PointerFact::unknown();
  PointerFact F = It->second;
  F.MaybeNull = true; // Before its first store, or after a reset.
  F.Size = AllocSize();
  if (const auto *PT = Storage->getType()->getAs<PointerType>())
    if (!PT->getPointeeType()->isVoidType())
      F.ElemType = PT->getPointeeType().getUnqualifiedType();
  return F;
}

} // namespace clang::tidy::cuda
