//===- MemorySpaceTransfer.cpp --------------------------------------------===//
//
// The transfer functions of the memory-space analysis: what one statement
// of the CFG does to the state. Declarations and assignments (pointers and
// records), pointer steps, delete, calls of the CUDA API model (allocation,
// free, host registration, mapped memory), and calls of other functions:
// a same-TU callee's summary applied to what the caller passes, or an
// unknown callee clobbering what it may write through.
//
//===----------------------------------------------------------------------===//

#include "MemorySpaceInternal.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda {

std::optional<Referent> referentOf(const ParmVarDecl *P, const Expr *Arg,
                                   const FunctionAnalyzer &Caller) {
  QualType T = P->getType();
  LocKey Callee{P, {}};
  const Expr *A = Arg->IgnoreParenImpCasts();
  if (T->isReferenceType()) {
    if (auto L = Caller.locOf(A))
      return Referent{*L, Callee};
    return std::nullopt;
  }
  if (T->isRecordType()) {
    if (const auto *C = dyn_cast<CXXConstructExpr>(A))
      if (C->getNumArgs() == 1)
        A = C->getArg(0)->IgnoreParenImpCasts();
    if (auto L = Caller.locOf(A))
      return Referent{*L, Callee, true};
    return std::nullopt;
  }
  const auto *PT = T->getAs<PointerType>();
  if (!PT)
    return std::nullopt;
  QualType Pointee = PT->getPointeeType();
  bool IsRecord = Pointee->isRecordType();
  if (!IsRecord && !Pointee->isPointerType())
    return std::nullopt;
  A = Arg->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(A);
      U && U->getOpcode() == UO_AddrOf) {
    auto L = Caller.locOf(U->getSubExpr());
    if (!L)
      return std::nullopt;
    if (!IsRecord)
      Callee.Path.push_back(nullptr);
    return Referent{*L, Callee};
  }
  auto K = Caller.locOf(A);
  if (!K || K->Path.size() >= 3)
    return std::nullopt;
  if (!IsRecord) {
    K->Path.push_back(nullptr);
    Callee.Path.push_back(nullptr);
  }
  return Referent{*K, Callee};
}

void FunctionAnalyzer::copyRecord(const LocKey &To, const Expr *From,
                                  MemoryState &St) const {
  From = From->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<CXXConstructExpr>(From)) {
    if (C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor())
      From = C->getArg(0)->IgnoreParenImpCasts();
  }
  // Drop what was known under To.
  {
    auto [First, Last] = St.withPrefix(To);
    if (First != Last && First->first == To)
      ++First;
    St.erase(First, Last);
  }
  if (const auto *IL = dyn_cast<InitListExpr>(From)) {
    const RecordDecl *RD = IL->getType()->getAsRecordDecl();
    if (!RD || IL->getNumInits() == 0 || To.Path.size() >= 3)
      return;
    unsigned I = 0;
    for (const FieldDecl *F : RD->fields()) {
      if (I >= IL->getNumInits())
        break;
      const Expr *Init = IL->getInit(I++);
      LocKey K = To;
      K.Path.push_back(F);
      if (F->getType()->isPointerType())
        St[K] = eval(Init, St);
    }
    return;
  }
  auto L = locOf(From);
  if (!L)
    return;
  MemoryState Add;
  auto [First, Last] = St.withPrefix(*L);
  for (auto It = First; It != Last; ++It)
    if (It->first.Path.size() > L->Path.size())
      Add[It->first.withSuffixOf(*L, To)] = It->second;
  for (auto &[K, F] : Add)
    St[K] = F;
}

void FunctionAnalyzer::freeThrough(const Expr *Ptr, const Stmt *At,
                                   MemoryState &St) const {
  auto L = locOf(Ptr->IgnoreParenCasts());
  if (!L)
    return;
  PointerFact F = read(*L, St);
  // Releasing null does nothing.
  if (!F.Unknown && !F.Bottom && F.MaybeNull && F.Spaces == MS_None)
    return;
  // A pointer of unknown origin is still freed: what it points to stays
  // unknown, but a second release or a later use is not.
  if (F.Unknown) {
    F = PointerFact();
    F.Unknown = false;
  }
  F.Freed = true;
  F.FreedAt = At;
  write(*L, F, St, isWeak(*L));
}

const FunctionAnalyzer::ApiTransfer FunctionAnalyzer::ApiTransfers[] = {
    // In this order: the first kind of fact the model gives a call decides.
    {[](const ApiFunction &F) { return F.Alloc && F.Alloc->PtrOutArg >= 0; },
     &FunctionAnalyzer::transferAllocation},
    {[](const ApiFunction &F) { return F.Free.has_value(); },
     &FunctionAnalyzer::transferFree},
    // A handle's destroy (cublasDestroy, cufftDestroy, cudaStreamDestroy)
    // releases it as a free releases memory: a second destroy, or a use,
    // is cuda-invalid-free's.
    {[](const ApiFunction &F) {
       return F.Resource && F.Resource->Role == ResourceRole::Destroy;
     },
     &FunctionAnalyzer::transferDestroy},
    {[](const ApiFunction &F) { return F.HostRegister.has_value(); },
     &FunctionAnalyzer::transferHostRegister},
    {[](const ApiFunction &F) { return F.MapHost.has_value(); },
     &FunctionAnalyzer::transferMapHost},
    // Copies change memory, not pointers.
    {[](const ApiFunction &F) { return F.Copy.has_value(); }, nullptr},
};

void FunctionAnalyzer::transferCall(const CallExpr *Call,
                                    MemoryState &St) const {
  const ApiFunction *Api = CudaApiModel::lookup(Call);
  if (Api)
    for (const ApiTransfer &T : ApiTransfers)
      if (T.Applies(*Api)) {
        if (T.Apply)
          (this->*T.Apply)(Call, *Api, St);
        return;
      }
  // Other API calls may store through any pointer they are given.
  transferOtherCall(Call, Api != nullptr, St);
}

std::optional<LocKey> FunctionAnalyzer::outLoc(const Expr *A) const {
  if (!A)
    return std::nullopt;
  A = A->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(A);
      U && U->getOpcode() == UO_AddrOf)
    return locOf(U->getSubExpr());
  if (auto K = locOf(A); K && K->Path.size() < 3) {
    K->Path.push_back(nullptr);
    return K;
  }
  return std::nullopt;
}

void FunctionAnalyzer::transferAllocation(const CallExpr *Call,
                                          const ApiFunction &Api,
                                          MemoryState &St) const {
  const Expr *Out = CudaApiModel::argument(Call, Api.Alloc->PtrOutArg);
  auto L = outLoc(Out);
  if (!L)
    return;
  QualType T = Out->IgnoreParenCasts()->getType();
  bool Linear = Api.Alloc->BytesArg >= 0 || Api.Alloc->PitchOutArg >= 0;
  QualType Stored;
  if (const auto *PT = T->getAs<PointerType>())
    Stored = PT->getPointeeType();
  if (Linear && !Stored.isNull() && Stored->isPointerType()) {
    PointerFact F = allocation(Call, Api, St);
    QualType Elem = Stored->getPointeeType().getUnqualifiedType();
    if (!Elem->isVoidType())
      F.ElemType = Elem;
    write(*L, F, St, isWeak(*L));
  } else if (!Linear && !Stored.isNull() && Stored->isRecordType() &&
             L->Path.size() < 3) {
    // cudaMalloc3D fills a struct whose pointer member is the allocation
    // (cudaPitchedPtr::ptr); the size is unknown.
    clobber(*L, false, St);
    const RecordDecl *RD = Stored->getAsRecordDecl();
    for (const FieldDecl *FDecl : RD->fields())
      if (FDecl->getType()->isPointerType()) {
        LocKey K = *L;
        K.Path.push_back(FDecl);
        PointerFact F = PointerFact::inSpace(Api.Alloc->Space);
        F.AllocSite = Call;
        F.Allocator = Call->getDirectCallee();
        write(K, F, St, isWeak(K));
        break;
      }
  } else {
    clobber(*L, true, St);
  }
}

void FunctionAnalyzer::transferFree(const CallExpr *Call,
                                    const ApiFunction &Api,
                                    MemoryState &St) const {
  if (const Expr *P = CudaApiModel::argument(Call, Api.Free->PtrArg))
    freeThrough(P, Call, St);
}

void FunctionAnalyzer::transferDestroy(const CallExpr *Call,
                                       const ApiFunction &Api,
                                       MemoryState &St) const {
  const Expr *H = CudaApiModel::argument(Call, Api.Resource->HandleArg);
  // A destroy through the handle's address (nvrtcDestroyProgram(&prog))
  // sets the handle to null: a second one fails with a status and frees
  // nothing twice (a destroy of null), but a call of the library given it
  // fails as a use of the destroyed handle does.
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(
          H ? H->IgnoreParenCasts() : nullptr);
      UO && UO->getOpcode() == UO_AddrOf) {
    if (auto L = locOf(UO->getSubExpr()->IgnoreParenCasts())) {
      PointerFact F = PointerFact::null();
      F.Freed = true;
      F.FreedAt = Call;
      write(*L, F, St, isWeak(*L));
    }
    return;
  }
  if (H)
    freeThrough(H, Call, St);
}

void FunctionAnalyzer::transferHostRegister(const CallExpr *Call,
                                            const ApiFunction &Api,
                                            MemoryState &St) const {
  const Expr *P = CudaApiModel::argument(Call, Api.HostRegister->PtrArg);
  auto L = locOf(P ? P->IgnoreParenCasts() : nullptr);
  if (!L)
    return;
  PointerFact F = read(*L, St);
  if (Api.HostRegister->Registers && F.isOnly(MS_Host)) {
    F.Spaces = MS_Pinned;
    F.Registered = true;
  } else if (!Api.HostRegister->Registers && F.Registered) {
    F.Spaces = MS_Host;
    F.Registered = false;
  } else {
    F = PointerFact::unknown();
  }
  write(*L, F, St, isWeak(*L));
}

void FunctionAnalyzer::transferMapHost(const CallExpr *Call,
                                       const ApiFunction &Api,
                                       MemoryState &St) const {
  auto L = outLoc(CudaApiModel::argument(Call, Api.MapHost->DevicePtrOutArg));
  if (!L)
    return;
  PointerFact H =
      eval(CudaApiModel::argument(Call, Api.MapHost->HostPtrArg), St);
  PointerFact F = PointerFact::inSpace(MS_Mapped);
  if (H.isKnown()) {
    F.AllocSite = H.AllocSite;
    F.Allocator = H.Allocator;
    F.Size = H.Size;
  }
  write(*L, F, St, isWeak(*L));
}

void FunctionAnalyzer::transferOtherCall(const CallExpr *Call, bool Modelled,
                                         MemoryState &St) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionMemorySpaces *Sum =
      (!Modelled && Callee && !Callee->isVariadic()) ? MSA.summary(Callee)
                                                     : nullptr;
  const FunctionDecl *Def = Sum ? Sum->function() : nullptr;

  unsigned FirstArg = 0;
  if (isa<CXXOperatorCallExpr>(Call))
    if (isa_and_nonnull<CXXMethodDecl>(Callee))
      FirstArg = 1; // The object.
  for (unsigned I = FirstArg, N = Call->getNumArgs(); I < N; ++I) {
    const Expr *A = Call->getArg(I);
    unsigned PI = I - FirstArg;
    const ParmVarDecl *P =
        Callee && PI < Callee->getNumParams() ? Callee->getParamDecl(PI) : nullptr;
    const ParmVarDecl *DefP =
        Def && PI < Def->getNumParams() ? Def->getParamDecl(PI) : nullptr;
    if (Sum && DefP)
      applyParamSummary(Call, *Sum, DefP, A, St);
    else
      clobberThroughArgument(A, P, St);
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && !M->isConst())
      if (auto L = locOf(MC->getImplicitObjectArgument()))
        clobber(*L, false, St);
  }
}

void FunctionAnalyzer::applyParamSummary(const CallExpr *Call,
                                         const FunctionMemorySpaces &Sum,
                                         const ParmVarDecl *DefP,
                                         const Expr *Arg,
                                         MemoryState &St) const {
  std::optional<Referent> Ref = referentOf(DefP, Arg, *this);
  if (!Ref || Ref->OutOnly)
    return;
  if (Sum.ClobberedParams.count(DefP) || Sum.Failed) {
    clobber(Ref->CallerBase, DefP->getType()->isReferenceType(), St);
    return;
  }
  // Apply what the callee leaves under its parameter. A key it does not
  // mention was not written.
  auto [First, Last] = Sum.ExitState.withPrefix(Ref->CalleeBase);
  for (auto It = First; It != Last; ++It) {
    const auto &[K, F] = *It;
    if ((K.Path.size() == Ref->CalleeBase.Path.size() &&
         !DefP->getType()->isReferenceType() && Ref->CalleeBase.Path.empty()))
      continue;
    PointerFact G = F;
    if (G.Size.ViaCall)
      G.Size = AllocSize();
    else if (G.Size.Known && !G.Size.Factors.empty())
      G.Size.ViaCall = Call;
    LocKey CK = K.withSuffixOf(Ref->CalleeBase, Ref->CallerBase);
    if (G.Freed && G.Spaces == MS_None) {
      // The callee freed what the caller passed: keep the caller's facts
      // about it.
      PointerFact C = read(CK, St);
      if (!C.Unknown && !C.Bottom) {
        C.Freed = true;
        C.FreedAt = G.FreedAt;
        G = C;
      }
    }
    write(CK, G, St, isWeak(CK));
  }
}

void FunctionAnalyzer::clobberThroughArgument(const Expr *A,
                                              const ParmVarDecl *P,
                                              MemoryState &St) const {
  const Expr *Stripped = A->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Stripped);
      U && U->getOpcode() == UO_AddrOf) {
    if (auto L = locOf(U->getSubExpr()))
      clobber(*L, true, St);
    return;
  }
  if (P && P->getType()->isReferenceType() &&
      !P->getType().getNonReferenceType().isConstQualified()) {
    if (auto L = locOf(A))
      clobber(*L, true, St);
    return;
  }
  if (A->getType()->isPointerType() &&
      isOutParamType(P ? P->getType() : A->getType())) {
    if (auto L = locOf(Stripped))
      clobber(*L, false, St);
  }
}

void FunctionAnalyzer::markOffset(const Expr *Ptr, MemoryState &St) const {
  if (auto L = locOf(Ptr)) {
    PointerFact F = read(*L, St);
    if (!F.Unknown)
      F.Offset = true;
    write(*L, F, St, isWeak(*L));
  }
}

void FunctionAnalyzer::transfer(const Stmt *S, MemoryState &St) const {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->hasLocalStorage())
        continue;
      QualType T = VD->getType();
      LocKey K{VD, {}};
      const Expr *Init = VD->getInit();
      if (T->isPointerType()) {
        write(K, Init ? eval(Init, St) : PointerFact::unknown(), St);
      } else if (const auto *AT = Ctx.getAsArrayType(T);
                 AT && AT->getElementType()->isPointerType()) {
        LocKey E = K;
        E.Path.push_back(nullptr);
        PointerFact F = PointerFact::bottom();
        if (const auto *IL = dyn_cast_or_null<InitListExpr>(
                Init ? Init->IgnoreParenImpCasts() : nullptr)) {
          for (const Expr *I : IL->inits())
            F = PointerFact::join(F, eval(I, St));
          if (IL->hasArrayFiller() || IL->getNumInits() == 0)
            F = PointerFact::join(F, PointerFact::null());
        } else if (Init) {
          F = PointerFact::unknown();
        }
        St[E] = F;
      } else if (T->isRecordType()) {
        if (Init)
          copyRecord(K, Init, St);
      }
    }
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->getOpcode() == BO_Assign) {
      auto L = locOf(B->getLHS());
      if (!L)
        return;
      QualType T = B->getLHS()->getType();
      if (T->isPointerType())
        write(*L, eval(B->getRHS(), St), St, isWeak(*L));
      else if (T->isRecordType())
        copyRecord(*L, B->getRHS(), St);
      return;
    }
    if ((B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign) &&
        B->getLHS()->getType()->isPointerType())
      markOffset(B->getLHS(), St);
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp() &&
        U->getSubExpr()->getType()->isPointerType())
      markOffset(U->getSubExpr(), St);
    return;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    // Assignment of a struct with a user-visible operator=.
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
        OC->getArg(0)->getType()->isRecordType()) {
      if (auto L = locOf(OC->getArg(0))) {
        const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
        if (MD && MD->isTrivial())
          copyRecord(*L, OC->getArg(1), St);
        else
          clobber(*L, false, St);
      }
      return;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    transferCall(Call, St);
    return;
  }
  if (const auto *Del = dyn_cast<CXXDeleteExpr>(S)) {
    freeThrough(Del->getArgument(), Del, St);
    return;
  }
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(S)) {
    // A constructor taking references may store through them.
    for (const Expr *A : Ctor->arguments())
      if (const auto *U = dyn_cast<UnaryOperator>(A->IgnoreParenCasts());
          U && U->getOpcode() == UO_AddrOf)
        if (auto L = locOf(U->getSubExpr()))
          clobber(*L, true, St);
  }
}

} // namespace clang::tidy::cuda
