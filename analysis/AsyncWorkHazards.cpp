//===- AsyncWorkHazards.cpp - Host uses checked against pending work ------===//
//
// Where the host touches memory that pending work may still use (reads,
// writes, arguments of calls, frees), or reads the time of an event that
// may not have completed: the SyncHazards, one per queued operation, kind
// and buffer.
//
//===----------------------------------------------------------------------===//

#include "AsyncWorkInternal.h"
#include <set>
#include <tuple>

namespace clang::tidy::cuda::async_work {

void FunctionAsyncWork::checkElapsed(const CallExpr *C, const EventInfo &EI,
                                     const WorkState &St) {
  for (int I : {EI.Event2Arg, EI.EventArg}) {
    const Expr *EventArg = CudaApiModel::argument(C, I);
    std::optional<unsigned> Ev = eventOf(EventArg);
    if (!Ev)
      continue;
    llvm::SmallVector<const Stmt *, 2> Records;
    for (const auto &[Site, Ordered] : St.Pending) {
      const WorkInfo &W = Works.at(Site);
      if (W.Kind == WorkKind::EventRecord && W.Event == Ev)
        Records.push_back(Site);
    }
    if (!Records.empty()) {
      report(SyncHazard::ElapsedBeforeSync, C, EventArg, earliest(Records));
      return;
    }
  }
}

void FunctionAsyncWork::checkCallArguments(const CallExpr *C,
                                           const FunctionDecl *Callee,
                                           const WorkState &St) {
  bool Library = isInSystemHeader(Callee, SM);
  // An element of a host container that a copy may still write.
  if (Library)
    if (const Expr *Container = KeyBuilder::containerOfElement(C)) {
      auto [Reads, Writes] = accessKind(C);
      checkAccess(C, Container, Keys.lvalue(C), nullptr, Reads, Writes, St);
      return;
    }
  unsigned Skip = objectArgumentCount(C, Callee);
  for (unsigned I = Skip; I < C->getNumArgs(); ++I) {
    const Expr *Ptr = C->getArg(I);
    if (!Ptr->getType()->isPointerType())
      continue;
    unsigned ParamIndex = I - Skip;
    if (Library) {
      QualType T = ParamIndex < Callee->getNumParams()
                       ? Callee->getParamDecl(ParamIndex)->getType()
                       : Ptr->getType();
      if (checkPointerUse(C, Ptr, true, !pointeeIsConst(T), St))
        return; // One finding per call.
    } else if (std::optional<AsyncWorkAnalysis::Access> Acc =
                   A.hostAccess(Callee, ParamIndex)) {
      if ((Acc->Reads || Acc->Writes) &&
          checkPointerUse(C, Ptr, Acc->Reads, Acc->Writes, St))
        return;
    }
  }
  if (!Library)
    checkCalleeGlobals(C, Callee, St);
}

void FunctionAsyncWork::checkCalleeGlobals(const CallExpr *C,
                                           const FunctionDecl *Callee,
                                           const WorkState &St) {
  const auto *Globals = A.hostGlobalAccess(Callee);
  if (!Globals)
    return;
  for (const auto &[VD, Use] : *Globals) {
    if (!Use.Acc.Reads && !Use.Acc.Writes)
      continue;
    // A managed variable is the memory; a global pointer points to it.
    LocKey Key{VD, {}};
    if (!isManagedVariableDecl(VD))
      Key.Path.push_back(nullptr);
    CalleeUse = Use.FirstRef;
    CalleeUseIn = Use.In;
    bool Found = checkAccess(C, Use.FirstRef, Key, nullptr, Use.Acc.Reads,
                             Use.Acc.Writes, St);
    CalleeUse = nullptr;
    if (Found)
      return; // One finding per call.
  }
}

std::pair<bool, bool> FunctionAsyncWork::accessKind(const Expr *E) const {
  const ParentMap &PM = Cfg.parents();
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const Stmt *P = PM.getParentIgnoreParens(E);
    if (!P)
      return {true, false};
    if (const auto *C = dyn_cast<ImplicitCastExpr>(P)) {
      if (C->getCastKind() == CK_ArrayToPointerDecay)
        return {false, false};
      if (C->getCastKind() == CK_NoOp) {
        E = C;
        continue;
      }
      return {true, false};
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P)) {
      if (U->getOpcode() == UO_AddrOf)
        return {false, false};
      if (U->isIncrementDecrementOp())
        return {true, true};
      return {true, false};
    }
    if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      if (B->isAssignmentOp() && B->getLHS()->IgnoreParens() == E)
        return {B->isCompoundAssignmentOp(), true};
      return {true, false};
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      if (!ME->isArrow()) {
        E = ME;
        continue;
      }
      return {true, false};
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(P);
        MC && MC->getImplicitObjectArgument()->IgnoreParens() == E) {
      const CXXMethodDecl *Method = MC->getMethodDecl();
      return {true, !Method || !Method->isConst()};
    }
    // Passed by reference: read, and written unless the reference is const.
    const FunctionDecl *Callee = nullptr;
    llvm::ArrayRef<const Expr *> Args;
    if (const auto *C = dyn_cast<CallExpr>(P)) {
      Callee = C->getDirectCallee();
      Args = llvm::ArrayRef(C->getArgs(), C->getNumArgs());
    } else if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
      Callee = CE->getConstructor();
      Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
    } else {
      return {true, false};
    }
    if (!Callee)
      return {true, true};
    unsigned Offset = isa<CallExpr>(P)
                          ? objectArgumentCount(cast<CallExpr>(P), Callee)
                          : 0;
    for (unsigned I = 0; I < Args.size(); ++I)
      if (Args[I]->IgnoreParens() == E) {
        if (I < Offset)
          return {true, !cast<CXXMethodDecl>(Callee)->isConst()};
        if (I - Offset >= Callee->getNumParams())
          return {true, false}; // Variadic: passed by value.
        QualType T = Callee->getParamDecl(I - Offset)->getType();
        return {true, T->isReferenceType() &&
                          !T.getNonReferenceType().isConstQualified()};
      }
    return {true, false};
  }
  return {true, false};
}

void FunctionAsyncWork::checkElementAccess(const Expr *E, const WorkState &St) {
  const Expr *Base = accessedPointer(E);
  std::optional<LocKey> Key;
  const Stmt *AllocSite = nullptr;
  const Expr *Named = Base;
  if (Base) {
    if (!Base->getType()->isPointerType() && !Base->getType()->isArrayType())
      return;
    Key = Keys.lvalue(E);
    if (Base->getType()->isPointerType())
      AllocSite = knownAllocSite(Base);
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !isManagedVariableDecl(VD) || VD->getType()->isArrayType())
      return;
    Key = LocKey{VD, {}};
    Named = E;
  } else {
    return;
  }
  auto [Reads, Writes] = accessKind(E);
  if (Reads || Writes)
    checkAccess(E, Named, Key, AllocSite, Reads, Writes, St);
}

const Stmt *FunctionAsyncWork::knownAllocSite(const Expr *Ptr) const {
  PointerFact F = M.factOf(Ptr);
  return F.isKnown() ? F.AllocSite : nullptr;
}

bool FunctionAsyncWork::checkPointerUse(const Stmt *At, const Expr *Ptr,
                                        bool Reads, bool Writes,
                                        const WorkState &St, bool AnyMemory) {
  if (!Ptr->getType()->isPointerType())
    return false;
  const Stmt *AllocSite = knownAllocSite(Ptr);
  (void)At; // The finding points at the argument.
  return checkAccess(Ptr, Ptr, Keys.pointee(Ptr), AllocSite, Reads, Writes, St,
                     AnyMemory);
}

void FunctionAsyncWork::checkReadThenWritten(const CallExpr *C,
                                             const Expr *Read,
                                             const Expr *Written,
                                             const WorkState &St,
                                             bool AnyMemory) {
  if (!(Read && checkPointerUse(C, Read, true, false, St, AnyMemory)) &&
      Written)
    checkPointerUse(C, Written, false, true, St, AnyMemory);
}

static bool matches(const WorkInfo::Buffer &B, const std::optional<LocKey> &Key,
                    const Stmt *AllocSite) {
  return (Key && B.Key.Root && Key->hasPrefix(B.Key)) ||
         (AllocSite && AllocSite == B.AllocSite);
}

bool FunctionAsyncWork::checkAccess(const Stmt *At, const Expr *Named,
                                    const std::optional<LocKey> &Key,
                                    const Stmt *AllocSite, bool Reads,
                                    bool Writes, const WorkState &St,
                                    bool AnyMemory) {
  if (!Key && !AllocSite)
    return false;
  llvm::SmallVector<const Stmt *, 2> WrittenBy, UsedBy, PageableWrites;
  for (const auto &[Site, Ordered] : St.Pending) {
    const WorkInfo &W = Works.at(Site);
    for (const WorkInfo::Buffer &B : W.Writes)
      if ((B.HostVisible || AnyMemory) && matches(B, Key, AllocSite)) {
        (B.Pageable ? PageableWrites : WrittenBy).push_back(Site);
        break;
      }
    for (const WorkInfo::Buffer &B : W.Reads)
      if ((B.HostVisible || AnyMemory) && matches(B, Key, AllocSite)) {
        UsedBy.push_back(Site);
        break;
      }
  }
  if (Reads && !WrittenBy.empty()) {
    report(SyncHazard::ReadWhileWritten, At, Named, earliest(WrittenBy));
    return true;
  }
  // A copy into pageable memory is done when it returns: only reads count.
  if (Reads && !PageableWrites.empty()) {
    report(SyncHazard::ReadWhileWritten, At, Named, earliest(PageableWrites),
           /*Pageable=*/true);
    return true;
  }
  UsedBy.append(WrittenBy.begin(), WrittenBy.end());
  if (Writes && !UsedBy.empty()) {
    report(SyncHazard::WrittenWhileUsed, At, Named, earliest(UsedBy));
    return true;
  }
  return false;
}

void FunctionAsyncWork::checkFree(const Stmt *At, const Expr *Ptr,
                                  std::optional<unsigned> Stream,
                                  const WorkState &St) {
  if (!Ptr || !Ptr->getType()->isPointerType())
    return;
  std::optional<LocKey> Key = Keys.pointee(Ptr);
  const Stmt *AllocSite = knownAllocSite(Ptr);
  llvm::SmallVector<const Stmt *, 2> UsedBy;
  for (const auto &[Site, Ordered] : St.Pending) {
    const WorkInfo &W = Works.at(Site);
      if (Stream && orderedBeforeNewWork(St, Site, *Stream))
      continue;
    auto Uses = [&](const WorkInfo::Buffer &B) {
      return !B.Pageable && (Stream || B.HostVisible) &&
             matches(B, Key, AllocSite);
    };
    if (llvm::any_of(W.Writes, Uses) || llvm::any_of(W.Reads, Uses))
      UsedBy.push_back(Site);
  }
  if (!UsedBy.empty())
    report(Stream ? SyncHazard::FreedOnOtherStream : SyncHazard::FreedWhileUsed,
           At, Ptr, earliest(UsedBy));
}

const Stmt *FunctionAsyncWork::earliest(llvm::ArrayRef<const Stmt *> Sites) const {
  const Stmt *Best = nullptr;
  for (const Stmt *S : Sites)
    if (!Best || SM.isBeforeInTranslationUnit(S->getBeginLoc(),
                                              Best->getBeginLoc()))
      Best = S;
  return Best;
}

void FunctionAsyncWork::report(SyncHazard::Kind K, const Stmt *At,
                               const Expr *Named, const Stmt *Site,
                               bool Pageable) {
  if (!ReportedAt.insert(At).second)
    return;
  const WorkInfo &W = Works.at(Site);
  SyncHazard H;
  H.K = K;
  H.At = At;
  H.Named = Named;
  H.Work = Site;
  H.Work_ = W.Kind;
  H.Kernel = W.Kernel;
  H.Via = W.Via;
  H.CalleeUse = CalleeUse;
  H.CalleeUseIn = CalleeUseIn;
  H.StreamExpr = W.StreamExpr;
  H.Stream = Streams[W.Stream];
  H.Pageable = Pageable;
  Hazards.push_back(H);
}

std::vector<SyncHazard> FunctionAsyncWork::report() {
  for (const CFGBlock *B : Order)
    for (const WorkState &S : In[B->getBlockID()].States)
      processBlock(B, S, true);
  llvm::sort(Hazards, [&](const SyncHazard &L, const SyncHazard &R) {
    return SM.isBeforeInTranslationUnit(L.At->getBeginLoc(),
                                        R.At->getBeginLoc());
  });
  // One finding per queued operation, kind of hazard and buffer: the first
  // access in the source.
  std::set<std::tuple<const Stmt *, int, const ValueDecl *>> Seen;
  std::vector<SyncHazard> First;
  for (const SyncHazard &H : Hazards) {
    const ValueDecl *Root = nullptr;
    if (H.Named) {
      std::optional<LocKey> K = H.Named->getType()->isPointerType()
                                    ? Keys.pointee(H.Named)
                                    : Keys.lvalue(H.Named);
      Root = K ? K->Root : nullptr;
    }
    if (!Root || Seen.insert({H.Work, H.K, Root}).second)
      First.push_back(H);
  }
  return First;
}

} // namespace clang::tidy::cuda::async_work
