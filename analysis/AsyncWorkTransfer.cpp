//===- AsyncWorkTransfer.cpp - The transfer over one host function --------===//
//
// How each statement of a host function changes the work that may still be
// queued: launches, copies and event records queue it; synchronizations,
// synchronous copies, event waits and calls that may wait retire it; and
// the fixpoint over the CFG, with states kept apart by branches on
// variables that never change.
//
//===----------------------------------------------------------------------===//

#include "AsyncWorkInternal.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::cuda::async_work {

const Expr *FunctionAsyncWork::aliasOf(const VarDecl *VD) {
  auto It = Aliases.find(VD);
  if (It != Aliases.end())
    return It->second;
  const Expr *Target = nullptr;
  if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit()) {
    if (VD->getType()->isReferenceType()) {
      Target = VD->getInit();
    } else if (!MemorySpaceAnalysis::get(Ctx, A.arch())
                    .isModified(Cfg.function(), VD)) {
      const Expr *Init = VD->getInit()->IgnoreParenImpCasts();
      // A call or construction makes a new value: the variable is its name.
      if (!isa<CallExpr>(Init) && !isa<CXXConstructExpr>(Init) &&
          !isa<CXXNewExpr>(Init))
        Target = VD->getInit();
    }
  }
  Aliases[VD] = Target;
  return Target;
}

std::optional<LocKey> FunctionAsyncWork::rangeElementOf(const VarDecl *VD) {
  if (!RangeVars) {
    RangeVars.emplace();
    struct Finder : RecursiveASTVisitor<Finder> {
      std::vector<const CXXForRangeStmt *> Loops;
      bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
        Loops.push_back(S);
        return true;
      }
    } F;
    F.TraverseStmt(const_cast<Stmt *>(Cfg.function()->getBody()));
    for (const CXXForRangeStmt *S : F.Loops) {
      // The range is an array or container; its elements are one location.
      std::optional<LocKey> Range = Keys.lvalue(S->getRangeInit());
      if (Range && Range->Path.size() < MaxPath) {
        Range->Path.push_back(nullptr);
        (*RangeVars)[S->getLoopVariable()] = *Range;
      }
    }
  }
  auto It = RangeVars->find(VD);
  if (It == RangeVars->end())
    return std::nullopt;
  return It->second;
}

unsigned FunctionAsyncWork::streamOf(const Expr *E) {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return intern(defaultStream());
  // Follow copies of the handle (`cudaStream_t s = 0;`).
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    const Expr *Init = VD && !VD->getType()->isReferenceType() &&
                               !rangeElementOf(VD)
                           ? aliasOf(VD)
                           : nullptr;
    if (!Init)
      break;
    E = Init;
  }
  const Expr *Bare = E->IgnoreParenCasts();
  Expr::EvalResult R;
  if (!Bare->isValueDependent() && Bare->EvaluateAsInt(R, Ctx)) {
    std::optional<SpecialStream> Special =
        CudaApiModel::specialStream(R.Val.getInt().getExtValue());
    StreamRef S;
    if (!Special)
      return intern(S);
    switch (*Special) {
    case SpecialStream::Default:
      return intern(defaultStream());
    case SpecialStream::Legacy:
      S.K = StreamRef::Legacy;
      return intern(S);
    case SpecialStream::PerThread:
      S.K = StreamRef::PerThread;
      return intern(S);
    }
  }
  if (!E->isValueDependent() &&
      E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return intern(defaultStream());
  std::optional<LocKey> K = Keys.handle(E);
  StreamRef S;
  if (!K)
    return intern(S);
  S.K = StreamRef::Named;
  S.Handle = *K;
  // A stream created elsewhere, or with flags not known here, is taken as
  // blocking: then every ordering that could hold, holds.
  S.NonBlocking =
      A.streamIsNonBlocking(*K, Cfg.function()).value_or(false);
  return intern(S);
}

std::optional<unsigned> FunctionAsyncWork::eventOf(const Expr *E) {
  std::optional<LocKey> K = E ? Keys.handle(E) : std::nullopt;
  if (!K)
    return std::nullopt;
  for (unsigned I = 0; I < EventKeys.size(); ++I)
    if (EventKeys[I] == *K)
      return I;
  EventKeys.push_back(*K);
  return EventKeys.size() - 1;
}

bool FunctionAsyncWork::orderedAnyway(const WorkState &St, const Stmt *Site,
                                      unsigned S) const {
  auto It = St.Pending.find(Site);
  if (It != St.Pending.end() && It->second.count(S))
    return true;
  const StreamRef &X = Streams[Works.at(Site).Stream], &Y = Streams[S];
  return X.K == StreamRef::Unknown || Y.K == StreamRef::Unknown || X == Y;
}

bool FunctionAsyncWork::orderedBeforeNewWork(const WorkState &St,
                                             const Stmt *Site,
                                             unsigned S) const {
  if (orderedAnyway(St, Site, S))
    return true;
  const StreamRef &X = Streams[Works.at(Site).Stream], &Y = Streams[S];
  // The legacy default stream waits for, and is waited for by, every
  // blocking stream.
  if (Y.K == StreamRef::Legacy && isBlocking(X))
    return true;
  return X.K == StreamRef::Legacy && isBlocking(Y);
}

bool FunctionAsyncWork::retiredBySync(const WorkState &St, const Stmt *Site,
                                      unsigned S) const {
  if (orderedAnyway(St, Site, S))
    return true;
  const StreamRef &X = Streams[Works.at(Site).Stream], &Y = Streams[S];
  // Synchronizing the legacy stream is taken to wait for the blocking
  // streams too (the documentation does not say; silence is the safe side).
  return Y.K == StreamRef::Legacy && isBlocking(X);
}

void FunctionAsyncWork::retireEvent(WorkState &St, std::optional<unsigned> Ev) {
  auto It = Ev ? St.Events.find(*Ev) : St.Events.end();
  if (It == St.Events.end()) {
    // An event not recorded in this function: it may follow everything.
    St.Pending.clear();
    return;
  }
  const SortedSet<const Stmt *> &Covered = It->second;
  retireIf(St, [&](const Stmt *Site) { return Covered.count(Site); });
}

void FunctionAsyncWork::enqueue(const WorkInfo &W, WorkState &St) {
  Works.try_emplace(W.Site, W);
  unsigned S = W.Stream;
  for (auto &[Site, Ordered] : St.Pending)
    if (Site != W.Site && orderedBeforeNewWork(St, Site, S))
      Ordered.insert(S);
  // A new instance of an operation queued before (in a loop) starts over.
  St.Pending[W.Site].clear();
  for (auto &[Ev, Covered] : St.Events)
    Covered.erase(W.Site);
  if (W.Kind != WorkKind::EventRecord || !W.Event)
    return;
  const LocKey &EvKey = EventKeys[*W.Event];
  bool OneOfMany = !EvKey.Path.empty() && !EvKey.Path.back();
  SortedSet<const Stmt *> Covered;
  if (OneOfMany) {
    if (auto It = St.Events.find(*W.Event); It != St.Events.end())
      Covered = It->second;
  } else {
    // Recording again replaces what the event stood for.
    retireIf(St, [&](const Stmt *Site) {
      const WorkInfo &Other = Works.at(Site);
      return Site != W.Site && Other.Kind == WorkKind::EventRecord &&
             Other.Event == W.Event;
    });
  }
  for (const auto &[Site, Ordered] : St.Pending)
    if (Site == W.Site || orderedBeforeNewWork(St, Site, S))
      Covered.insert(Site);
  St.Events[*W.Event] = std::move(Covered);
}

std::optional<WorkInfo::Buffer> FunctionAsyncWork::bufferOf(const Expr *Ptr) {
  if (!Ptr || !Ptr->getType()->isPointerType())
    return std::nullopt;
  PointerFact F = M.factOf(Ptr);
  bool HostVisible =
      (F.Registered && !F.Unknown) ||
      F.isOnly(MS_Pinned | MS_Mapped | MS_Managed);
  if (!HostVisible && !F.isOnly(MS_Device))
    return std::nullopt;
  return bufferAt(Ptr, F, HostVisible, /*Pageable=*/false);
}

std::optional<WorkInfo::Buffer>
FunctionAsyncWork::bufferAt(const Expr *Ptr, const PointerFact &F,
                            bool HostVisible, bool Pageable) {
  WorkInfo::Buffer B;
  if (std::optional<LocKey> K = Keys.pointee(Ptr))
    B.Key = *K;
  B.AllocSite = F.AllocSite;
  B.HostVisible = HostVisible;
  B.Pageable = Pageable;
  if (!B.Key.Root && !B.AllocSite)
    return std::nullopt;
  return B;
}

std::optional<WorkInfo::Buffer>
FunctionAsyncWork::pageableDestination(const CallExpr *C, const CopyInfo &CI) {
  if (!A.pageableCopies() || CI.isSet() || (CI.Flags & CF_Peer))
    return std::nullopt;
  std::optional<CopyDirection> D = CI.FixedDirection;
  if (D && *D == CopyDirection::None)
    D = CudaApiModel::copyKindOf(CudaApiModel::argument(C, CI.KindArg), Ctx);
  const Expr *Dst = CudaApiModel::argument(C, CI.DstArg);
  if (!D || *D != CopyDirection::DeviceToHost || !Dst ||
      !Dst->getType()->isPointerType())
    return std::nullopt;
  PointerFact F = M.factOf(Dst);
  if (F.Registered || !F.isOnly(MS_Host))
    return std::nullopt;
  return bufferAt(Dst, F, /*HostVisible=*/true, /*Pageable=*/true);
}

const FunctionAsyncWork::ApiTransfer FunctionAsyncWork::ApiTransfers[] = {
    // In this order: the first kind of fact the model gives a call decides.
    {[](const ApiFunction &F) { return F.Copy.has_value(); },
     &FunctionAsyncWork::transferCopy},
    {[](const ApiFunction &F) { return F.Sync.has_value(); },
     &FunctionAsyncWork::transferSync},
    {[](const ApiFunction &F) { return F.ImplicitSync; },
     &FunctionAsyncWork::transferImplicitSync},
    {[](const ApiFunction &F) { return F.Free.has_value(); },
     &FunctionAsyncWork::transferFree},
    {[](const ApiFunction &F) { return F.Event.has_value(); },
     &FunctionAsyncWork::transferEvent},
};

void FunctionAsyncWork::transferCall(const CallExpr *C, WorkState &St,
                                     bool Report) {
  // What a call queues does not change from one visit to the next.
  if (auto It = Works.find(C); It != Works.end() && isQueuingCall(C)) {
    enqueue(It->second, St);
    return;
  }
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(C)) {
    enqueue(kernelWork(K), St);
    return;
  }
  const FunctionDecl *Callee = C->getDirectCallee();
  const ApiFunction *Api = CudaApiModel::lookup(Callee);
  if (!Api) {
    transferUnmodelledCall(C, Callee, St, Report);
    return;
  }
  // A library that reads or writes the buffer itself (CUDA-aware MPI), in
  // no order with queued device work, and waits for none of it.
  if (Api->DirectReadArg >= 0 || Api->DirectWriteArg >= 0) {
    if (Report && !St.Pending.empty())
      checkReadThenWritten(C, CudaApiModel::argument(C, Api->DirectReadArg),
                           CudaApiModel::argument(C, Api->DirectWriteArg), St,
                           /*AnyMemory=*/true);
    return;
  }
  for (const ApiTransfer &T : ApiTransfers)
    if (T.Applies(*Api)) {
      (this->*T.Apply)(C, *Api, St, Report);
      return;
    }
}

WorkInfo FunctionAsyncWork::kernelWork(const CUDAKernelCallExpr *K) {
  WorkInfo W;
  W.Kind = WorkKind::Kernel;
  W.Site = K;
  W.Kernel = K->getDirectCallee();
  const CallExpr *Config = K->getConfig();
  setStream(W, Config && Config->getNumArgs() > 3 ? Config->getArg(3)
                                                  : nullptr);
  if (!W.Kernel)
    return W;
  for (unsigned I = 0; I < K->getNumArgs(); ++I) {
    std::optional<WorkInfo::Buffer> B = bufferOf(K->getArg(I));
    if (!B)
      continue;
    std::optional<AsyncWorkAnalysis::Access> Acc = A.deviceAccess(W.Kernel, I);
    // Memory the kernel shares with the host on purpose (volatile
    // polling, system-scope atomics) is not a missing synchronization.
    if (!Acc || Acc->Concurrent)
      continue;
    W.add(*B, *Acc);
  }
  if (const auto *Managed = A.managedAccess(W.Kernel))
    for (const auto &[VD, Acc] : *Managed)
      W.addManaged(VD, Acc);
  return W;
}

void FunctionAsyncWork::transferUnmodelledCall(const CallExpr *C,
                                               const FunctionDecl *Callee,
                                               WorkState &St, bool Report) {
  if (!Callee || (!isInSystemHeader(Callee, SM) && !Callee->hasBody())) {
    St.Pending.clear();
    return;
  }
  bool Waits = hostFunctionMayWait(Callee);
  if (Waits)
    St.Pending.clear();
  else if (Report && !St.Pending.empty())
    checkCallArguments(C, Callee, St);
  if (isInSystemHeader(Callee, SM))
    return;
  enqueueLeftRunning(C, Callee, St);
  if (AllWork && !Waits && !St.Pending.count(C) && A.queuesWork(Callee)) {
    // What the callee leaves running, on streams not known here.
    WorkInfo W;
    W.Site = C;
    W.Via = Callee;
    W.Stream = intern(StreamRef());
    enqueue(Works.try_emplace(C, W).first->second, St);
  }
}

void FunctionAsyncWork::transferCopy(const CallExpr *C, const ApiFunction &Api,
                                     WorkState &St, bool Report) {
  const CopyInfo &CI = *Api.Copy;
  auto Arg = [&](int I) { return CudaApiModel::argument(C, I); };
  if (Api.Library == ApiLibrary::CLib) {
    if (Report && !St.Pending.empty())
      checkReadThenWritten(C, Arg(CI.SrcArg), Arg(CI.DstArg), St);
    return;
  }
  if (CI.isAsync()) {
    WorkInfo W;
    W.Kind = CI.isSet() ? WorkKind::Memset : WorkKind::Copy;
    W.Site = C;
    setStream(W, Arg(CI.StreamArg));
    if (std::optional<WorkInfo::Buffer> B = bufferOf(Arg(CI.DstArg)))
      W.Writes.push_back(*B);
    else if (std::optional<WorkInfo::Buffer> P = pageableDestination(C, CI))
      W.Writes.push_back(*P);
    if (std::optional<WorkInfo::Buffer> B = bufferOf(Arg(CI.SrcArg)))
      W.Reads.push_back(*B);
    enqueue(W, St);
    return;
  }
  if (CI.isSet() || (CI.Flags & CF_Peer))
    return; // Do not wait for the device.
  std::optional<CopyDirection> D = CI.FixedDirection;
  if (*D == CopyDirection::None)
    D = CudaApiModel::copyKindOf(Arg(CI.KindArg), Ctx);
  if (D && *D == CopyDirection::DeviceToDevice)
    return; // No host-side synchronization.
  // A synchronous copy is queued on the default stream and waited for.
  if (syncCounts(C))
    retireOrderedBefore(St, intern(defaultStream()));
}

void FunctionAsyncWork::transferSync(const CallExpr *C, const ApiFunction &Api,
                                     WorkState &St, bool) {
  const SyncInfo &SI = *Api.Sync;
  if (SI.isQuery() && !isResultExamined(classifyResultUse(C, Cfg), Cfg))
    return; // A query whose answer is ignored orders nothing.
  if (!syncCounts(C))
    return;
  const Expr *Handle = CudaApiModel::argument(C, SI.HandleArg);
  switch (SI.Scope) {
  case SyncScope::Device:
    St.Pending.clear();
    return;
  case SyncScope::Stream:
  case SyncScope::StreamQuery: {
    unsigned S = streamOf(Handle);
    if (Streams[S].K == StreamRef::Legacy)
      retireOrderedBefore(St, S);
    else
      retireIf(St, [&](const Stmt *Site) {
        return retiredBySync(St, Site, S);
      });
    return;
  }
  case SyncScope::Event:
  case SyncScope::EventQuery:
    retireEvent(St, eventOf(Handle));
    return;
  }
}

void FunctionAsyncWork::transferImplicitSync(const CallExpr *C,
                                             const ApiFunction &,
                                             WorkState &St, bool) {
  if (syncCounts(C))
    St.Pending.clear();
}

void FunctionAsyncWork::transferFree(const CallExpr *C, const ApiFunction &Api,
                                     WorkState &St, bool Report) {
  if (!Report || St.Pending.empty())
    return;
  const Expr *Ptr = CudaApiModel::argument(C, Api.Free->PtrArg);
  if (Api.Library == ApiLibrary::CLib)
    checkFree(C, Ptr, std::nullopt, St);
  else if (Api.Free->StreamArg >= 0)
    checkFree(C, Ptr, streamOf(CudaApiModel::argument(C, Api.Free->StreamArg)),
              St);
}

void FunctionAsyncWork::transferEvent(const CallExpr *C,
                                      const ApiFunction &Api, WorkState &St,
                                      bool Report) {
  const EventInfo &EI = *Api.Event;
  auto Arg = [&](int I) { return CudaApiModel::argument(C, I); };
  switch (EI.Role) {
  case EventRole::Record: {
    WorkInfo W;
    W.Kind = WorkKind::EventRecord;
    W.Site = C;
    setStream(W, Arg(EI.StreamArg));
    W.Event = eventOf(Arg(EI.EventArg));
    enqueue(W, St);
    return;
  }
  case EventRole::Wait: {
    unsigned S = streamOf(Arg(EI.StreamArg));
    std::optional<unsigned> Ev = eventOf(Arg(EI.EventArg));
    auto It = Ev ? St.Events.find(*Ev) : St.Events.end();
    for (auto &[Site, Ordered] : St.Pending)
      if (It == St.Events.end() || It->second.count(Site))
        Ordered.insert(S);
    return;
  }
  case EventRole::Elapsed:
    if (Report)
      checkElapsed(C, EI, St);
    return;
  }
}

void FunctionAsyncWork::enqueueLeftRunning(const CallExpr *C,
                                           const FunctionDecl *Callee,
                                           WorkState &St) {
  if (auto It = Works.find(C); It != Works.end()) {
    enqueue(It->second, St);
    return;
  }
  const std::vector<AsyncWorkAnalysis::LeftRunning> *Left =
      A.leftRunning(Callee);
  if (!Left || Left->empty())
    return;
  unsigned Skip = objectArgumentCount(C, Callee);
  auto ArgOf = [&](unsigned Param) -> const Expr * {
    return Param + Skip < C->getNumArgs() ? C->getArg(Param + Skip) : nullptr;
  };
  WorkInfo W;
  W.Site = C;
  W.Via = Callee;
  const AsyncWorkAnalysis::LeftRunning &First = Left->front();
  W.Kind = First.Kind;
  W.Kernel = First.Kernel;
  // One operation for the call: its stream when every piece of work agrees.
  bool SameStream = llvm::all_of(*Left, [&](const auto &L) {
    return L.StreamParam == First.StreamParam &&
           L.StreamKind == First.StreamKind;
  });
  StreamRef Unknown;
  if (!SameStream) {
    W.Stream = intern(Unknown);
  } else if (First.StreamParam >= 0) {
    setStream(W, ArgOf(First.StreamParam));
  } else {
    StreamRef S;
    S.K = First.StreamKind;
    W.Stream = intern(S);
  }
  for (const AsyncWorkAnalysis::LeftRunning &L : *Left) {
    for (const auto &[Param, Acc] : L.Params) {
      std::optional<WorkInfo::Buffer> B = bufferOf(ArgOf(Param));
      if (B && B->HostVisible)
        W.add(*B, Acc);
    }
    for (const auto &[VD, Acc] : L.Managed)
      W.addManaged(VD, Acc);
  }
  if (!W.Writes.empty() || !W.Reads.empty())
    enqueue(W, St);
}

void FunctionAsyncWork::transfer(const CFGElement &E, WorkState &St,
                                 bool Report) {
  if (auto D = E.getAs<CFGImplicitDtor>()) {
    const CXXDestructorDecl *Dtor = D->getDestructorDecl(Ctx);
    if (Dtor && !Dtor->isTrivial() && !St.Pending.empty() &&
        hostFunctionMayWait(Dtor))
      St.Pending.clear();
    return;
  }
  const Stmt *S = FunctionCfg::stmtOf(E);
  if (!S)
    return;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    transferCall(C, St, Report);
    return;
  }
  if (St.Pending.empty())
    return;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor && !Ctor->isTrivial() && !isInSystemHeader(Ctor, SM) &&
        A.mayWait(Ctor))
      St.Pending.clear();
    return;
  }
  if (!Report)
    return;
  if (const auto *Del = dyn_cast<CXXDeleteExpr>(S)) {
    checkFree(Del, Del->getArgument(), std::nullopt, St);
    return;
  }
  if (const auto *Ex = dyn_cast<Expr>(S))
    checkElementAccess(Ex, St);
}

WorkState FunctionAsyncWork::processBlock(const CFGBlock *B, WorkState St,
                                          bool Report) {
  for (const CFGElement &E : *B)
    transfer(E, St, Report);
  return St;
}

bool FunctionAsyncWork::solve() {
  const CFG &G = Cfg.graph();
  unsigned N = G.getNumBlockIDs();

  // Reverse post-order from the entry.
  {
    std::vector<bool> Seen(N);
    std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>>
        Stack;
    const CFGBlock *Entry = &G.getEntry();
    Seen[Entry->getBlockID()] = true;
    Stack.push_back({Entry, Entry->succ_begin()});
    while (!Stack.empty()) {
      auto &[B, It] = Stack.back();
      if (It == B->succ_end()) {
        Order.push_back(B);
        Stack.pop_back();
        continue;
      }
      const CFGBlock *Next = It->getReachableBlock();
      ++It;
      if (Next && !Seen[Next->getBlockID()]) {
        Seen[Next->getBlockID()] = true;
        Stack.push_back({Next, Next->succ_begin()});
      }
    }
    std::reverse(Order.begin(), Order.end());
  }

  auto IsLoopHeader = [](const CFGBlock *B) {
    const Stmt *T = B->getTerminatorStmt();
    return T && (isa<ForStmt>(T) || isa<WhileStmt>(T) ||
                 isa<CXXForRangeStmt>(T));
  };
  In.assign(N, StateSet());
  std::vector<StateSet> Out(N), OutBack(N), InBackSeen(N);
  // Loops are taken to run at least once: the exit edge of a loop header
  // carries only what comes around the loop, when the body is reachable.
  auto EdgeOut = [&](const CFGBlock *P, const CFGBlock *B) {
    unsigned Id = P->getBlockID();
    bool ExitEdge = P->succ_size() == 2 &&
                    (P->succ_begin() + 1)->getReachableBlock() == B;
    const StateSet &From =
        IsLoopHeader(P) && ExitEdge && OutBack[Id].reached() ? OutBack[Id]
                                                             : Out[Id];
    StateSet Result;
    for (const WorkState &S : From.States)
      Result.add(alongEdge(P, B, S));
    return Result;
  };
  auto Process = [&](const CFGBlock *B, const StateSet &Set) {
    StateSet Result;
    for (const WorkState &S : Set.States)
      Result.add(processBlock(B, S, false));
    return Result;
  };

  // When each block's Out (or OutBack) last changed, and when each block's
  // input was last computed, on one clock: a block none of whose
  // predecessors changed since would compute the same input again, and
  // would skip its transfer as unchanged.
  unsigned Clock = 0;
  std::vector<unsigned> OutChanged(N, 0), InComputed(N, 0);
  auto UpstreamChanged = [&](const CFGBlock *B) {
    unsigned Since = InComputed[B->getBlockID()];
    if (!Since)
      return true;
    return llvm::any_of(B->preds(), [&](const CFGBlock::AdjacentBlock &P) {
      const CFGBlock *PB = P.getReachableBlock();
      return PB && OutChanged[PB->getBlockID()] > Since;
    });
  };

  constexpr unsigned MaxSweeps = 40;
  bool Stable = false;
  for (unsigned Sweep = 0; Sweep < MaxSweeps && !Stable; ++Sweep) {
    Stable = true;
    for (const CFGBlock *B : Order) {
      unsigned Id = B->getBlockID();
      if (Out[Id].reached() && !UpstreamChanged(B))
        continue;
      InComputed[Id] = ++Clock;
      StateSet InAll, InBack;
      if (B == &G.getEntry()) {
        WorkState Entry;
        Entry.Reached = true;
        InAll.add(Entry);
      }
      for (const CFGBlock::AdjacentBlock &P : B->preds()) {
        const CFGBlock *PB = P.getReachableBlock();
        if (!PB)
          continue;
        StateSet O = EdgeOut(PB, B);
        if (IsLoopHeader(B) && PB->getLoopTarget() == B->getTerminatorStmt())
          for (const WorkState &S : O.States)
            InBack.add(S);
        InAll.add(std::move(O));
      }
      if (!InAll.reached())
        continue;
      if (InAll == In[Id] && InBack == InBackSeen[Id] && Out[Id].reached())
        continue;
      Stable = false;
      Out[Id] = Process(B, InAll);
      if (IsLoopHeader(B) && InBack.reached())
        OutBack[Id] = Process(B, InBack);
      OutChanged[Id] = ++Clock;
      In[Id] = std::move(InAll);
      InBackSeen[Id] = std::move(InBack);
    }
  }
  return Stable;
}

const std::optional<EdgeFact> &
FunctionAsyncWork::edgeFactOf(const CFGBlock *From, const CFGBlock *To) {
  auto [It, New] =
      EdgeFacts.try_emplace({From->getBlockID(), To->getBlockID()});
  if (!New)
    return It->second;
  // The edge's index; a block reached by several edges of one branch
  // learns nothing.
  std::optional<unsigned> Index;
  unsigned I = 0;
  for (const CFGBlock::AdjacentBlock &Succ : From->succs()) {
    if (Succ.getReachableBlock() == To) {
      if (Index)
        return It->second;
      Index = I;
    }
    ++I;
  }
  if (!Index)
    return It->second;
  MemorySpaceAnalysis &MSA = MemorySpaceAnalysis::get(Ctx, A.arch());
  It->second = edgeFact(From, *Index, Ctx, [&](const VarDecl *VD) {
    return !MSA.isModified(Cfg.function(), VD);
  });
  return It->second;
}

WorkState FunctionAsyncWork::alongEdge(const CFGBlock *From,
                                       const CFGBlock *To,
                                       const WorkState &Out) {
  if (!Out.Reached)
    return Out;
  const std::optional<EdgeFact> &E = edgeFactOf(From, To);
  if (!E)
    return Out;
  WorkState Result = Out;
  if (!Result.Taken.add(*E))
    return WorkState(); // The other way was taken before: not a path.
  return Result;
}

} // namespace clang::tidy::cuda::async_work
