//===- AsyncWorkSummaries.cpp - What same-TU functions do -----------------===//
//
// Summaries across functions, computed once per translation unit: how a
// kernel or host function uses what its pointer parameters (and globals)
// point to, whether calling it may wait for device work, whether it queues
// work, and the work a launcher leaves running when it returns.
//
//===----------------------------------------------------------------------===//

#include "AsyncWorkInternal.h"
#include "TranslationUnitScan.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda {

using namespace async_work;

//===----------------------------------------------------------------------===//
// Summaries: what device and host functions do with their pointer
// parameters.
//===----------------------------------------------------------------------===//

AsyncWorkAnalysis::AsyncWorkAnalysis(ASTContext &Ctx,
                                     const ArchConditionals &Arch)
    : Ctx(Ctx), Arch(Arch) {}
AsyncWorkAnalysis::~AsyncWorkAnalysis() = default;

namespace {

/// A host pointer kept at namespace scope (or in a static member): the
/// host code of any function may reach what it points to.
bool isGlobalHostPointer(const VarDecl *VD) {
  return VD->getType()->isPointerType() && VD->hasGlobalStorage() &&
         !VD->isStaticLocal() && !VD->hasAttr<CUDADeviceAttr>() &&
         !VD->hasAttr<CUDAConstantAttr>() && !VD->hasAttr<CUDASharedAttr>() &&
         !isManagedVariableDecl(VD);
}

/// Finds how a function body uses the memory its pointer parameters (and,
/// on the device, __managed__ variables) point to, following local copies
/// of those pointers and calls of functions with visible bodies.
class AccessScanner {
public:
  using Access = AsyncWorkAnalysis::Access;
  AccessScanner(AsyncWorkAnalysis &A, const FunctionDecl *FD, bool Device)
      : A(A), FD(FD), Device(Device),
        SM(A.context().getSourceManager()) {
    for (const ParmVarDecl *P : FD->parameters())
      if (P->getType()->isPointerType() || P->getType()->isReferenceType()) {
        Root[P] = P;
        if (Device && P->getType()->getPointeeType().isVolatileQualified())
          Found[P].Concurrent = true;
      }
  }

  std::map<const VarDecl *, Access> Found;
  /// Host: the first reference to each global root (isGlobalHostPointer,
  /// __managed__), from this body or a callee's.
  std::map<const VarDecl *, std::pair<const Expr *, const FunctionDecl *>>
      FirstRef;
  bool MayWait = false;

  void run() {
    // The body is walked once; the rounds replay the nodes that can matter.
    std::vector<BodyNode> Nodes;
    BodyRecorder(Nodes).TraverseStmt(FD->getBody());
    // Local copies of the pointers first, until no new one is found.
    for (unsigned Round = 0; Round < 4; ++Round) {
      size_t Before = Root.size();
      Collecting = true;
      replay(Nodes);
      if (Root.size() == Before)
        break;
    }
    Collecting = false;
    replay(Nodes);
  }

  /// The use of each parameter's pointee, in the order of the parameters.
  std::vector<Access> parameterAccesses() const {
    std::vector<Access> Params;
    for (const ParmVarDecl *P : FD->parameters()) {
      auto F = Found.find(P);
      Params.push_back(F == Found.end() ? Access() : F->second);
    }
    return Params;
  }

private:
  /// A node of the body that a round may look at, in the order of a
  /// RecursiveASTVisitor's walk.
  struct BodyNode {
    enum NodeKind : uint8_t {
      Var, Assign, Unary, Subscript, Arrow, ManagedRef, Construct, Call
    } Kind;
    void *Node;
  };
  class BodyRecorder : public RecursiveASTVisitor<BodyRecorder> {
  public:
    explicit BodyRecorder(std::vector<BodyNode> &Out) : Out(Out) {}
    bool VisitVarDecl(VarDecl *VD) {
      return record(BodyNode::Var, VD,
                    VD->getType()->isPointerType() && VD->getInit());
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      return record(BodyNode::Assign, B, B->isAssignmentOp());
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      return record(BodyNode::Unary, U,
                    U->isIncrementDecrementOp() || U->getOpcode() == UO_Deref);
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
      return record(BodyNode::Subscript, E);
    }
    bool VisitMemberExpr(MemberExpr *E) {
      return record(BodyNode::Arrow, E, E->isArrow());
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *VD = dyn_cast<VarDecl>(E->getDecl());
      return record(BodyNode::ManagedRef, E,
                    VD && isManagedVariableDecl(VD) &&
                        !VD->getType()->isArrayType());
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      return record(BodyNode::Construct, E);
    }
    bool VisitCallExpr(CallExpr *C) { return record(BodyNode::Call, C); }

  private:
    /// Keeps \p Node, of kind \p K, when \p Matters; walks on.
    bool record(BodyNode::NodeKind K, void *Node, bool Matters = true) {
      if (Matters)
        Out.push_back({K, Node});
      return true;
    }
    std::vector<BodyNode> &Out;
  };

  /// One round over the recorded nodes, which BodyRecorder has already
  /// narrowed to the kinds that matter (pointer variables with an
  /// initializer, assignments, dereferences and increments, arrows, managed
  /// variables that are not arrays).
  void replay(const std::vector<BodyNode> &Nodes) {
    for (const BodyNode &N : Nodes) {
      if (Collecting) {
        if (N.Kind == BodyNode::Var)
          collectCopy(static_cast<VarDecl *>(N.Node));
        else if (N.Kind == BodyNode::Assign)
          collectCopy(static_cast<BinaryOperator *>(N.Node));
        continue;
      }
      switch (N.Kind) {
      case BodyNode::Var:
        break;
      case BodyNode::Assign: {
        const auto *B = static_cast<BinaryOperator *>(N.Node);
        noteWrite(B->getLHS(), B->isCompoundAssignmentOp());
        break;
      }
      case BodyNode::Unary: {
        const auto *U = static_cast<UnaryOperator *>(N.Node);
        if (U->isIncrementDecrementOp())
          noteWrite(U->getSubExpr(), true);
        else
          readAccess(U);
        break;
      }
      case BodyNode::Subscript:
        readAccess(static_cast<ArraySubscriptExpr *>(N.Node));
        break;
      case BodyNode::Arrow:
        readAccess(static_cast<MemberExpr *>(N.Node));
        break;
      case BodyNode::ManagedRef:
        readAccess(static_cast<DeclRefExpr *>(N.Node));
        break;
      case BodyNode::Construct:
        if (!Device)
          if (const CXXConstructorDecl *C =
                  static_cast<CXXConstructExpr *>(N.Node)->getConstructor())
            if (!isInSystemHeader(C, SM) && !C->isTrivial() && A.mayWait(C))
              MayWait = true;
        break;
      case BodyNode::Call:
        visitCall(static_cast<CallExpr *>(N.Node));
        break;
      }
    }
  }

  /// A local pointer initialized from a tracked one.
  void collectCopy(const VarDecl *VD) {
    if (const VarDecl *R = rootOf(VD->getInit()))
      Root.try_emplace(VD, R);
  }
  /// A local pointer assigned a tracked one.
  void collectCopy(const BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign && B->getType()->isPointerType())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (const VarDecl *R = rootOf(B->getRHS()))
            Root.try_emplace(VD, R);
  }

  /// The lvalue \p LHS is written (and read first, when \p Reads).
  void noteWrite(const Expr *LHS, bool Reads) {
    if (const VarDecl *R = rootOfAccess(LHS)) {
      note(R, Reads, true);
      WriteOnly.insert(LHS->IgnoreParens());
    }
  }

  void visitCall(const CallExpr *C) {
    if (isa<CUDAKernelCallExpr>(C))
      return;
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Device)
      noteWait(C, Callee);
    const ApiFunction *Api = CudaApiModel::lookup(Callee);
    if (Device && Callee)
      if (const auto *M = A.managedAccess(Callee))
        for (const auto &[VD, Acc] : *M)
          note(VD, Acc.Reads, Acc.Writes);
    if (!Device && Callee && !isInSystemHeader(Callee, SM))
      if (const auto *G = A.hostGlobalAccess(Callee))
        for (const auto &[VD, Use] : *G) {
          FirstRef.try_emplace(VD, Use.FirstRef, Use.In);
          note(VD, Use.Acc.Reads, Use.Acc.Writes);
        }
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      const Expr *Arg = C->getArg(I);
      const VarDecl *R = rootOf(Arg);
      if (!R)
        continue;
      if (Api && Api->Copy && Api->Library == ApiLibrary::CLib) {
        note(R, (int)I == Api->Copy->SrcArg, (int)I == Api->Copy->DstArg);
        continue;
      }
      if (Api)
        continue; // The CUDA API: copies and launches are the caller's work.
      const FunctionDecl *Def = nullptr;
      if (!Callee) {
        note(R, true, !pointeeIsConst(Arg->getType()));
        continue;
      }
      if (Callee->hasBody(Def) && !isInSystemHeader(Def, SM) &&
          I < Def->getNumParams()) {
        std::optional<Access> Acc =
            Device ? A.deviceAccess(Def, I) : A.hostAccess(Def, I);
        if (Acc) {
          note(R, Acc->Reads, Acc->Writes);
          Found[R].Concurrent |= Acc->Concurrent;
        } else {
          note(R, true, true);
        }
        continue;
      }
      if (Device && Callee->getIdentifier() &&
          Callee->getName().ends_with("_system"))
        Found[R].Concurrent = true; // atomicAdd_system and the like.
      // Library functions and intrinsics (atomics) read what they are given
      // and write it unless it is const.
      QualType ParamTy = I < Callee->getNumParams()
                             ? Callee->getParamDecl(I)->getType()
                             : Arg->getType();
      note(R, true,
           !pointeeIsConst(ParamTy) &&
               !(ParamTy->isReferenceType() &&
                 ParamTy.getNonReferenceType().isConstQualified()));
    }
  }

private:
  void noteWait(const CallExpr *C, const FunctionDecl *Callee) {
    if (MayWait)
      return;
    if (!Callee) {
      MayWait = true;
      return;
    }
    if (const ApiFunction *Api = CudaApiModel::lookup(Callee)) {
      if (Api->synchronizesHost() || (Api->Sync && Api->Sync->isQuery()))
        MayWait = true;
      return;
    }
    if (isInSystemHeader(Callee, SM)) {
      if (CudaApiModel::libraryCallMayWait(Callee))
        MayWait = true;
      return;
    }
    if (A.mayWait(Callee))
      MayWait = true;
  }

  void readAccess(const Expr *E) {
    if (WriteOnly.count(E))
      return;
    if (const VarDecl *R = rootOfAccess(E))
      note(R, true, false);
  }

  void note(const VarDecl *R, bool Reads, bool Writes) {
    Access &Acc = Found[R];
    Acc.Reads |= Reads;
    Acc.Writes |= Writes;
  }

  /// The tracked pointer a pointer value derives from.
  const VarDecl *rootOf(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 8)
      return nullptr;
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return nullptr;
      if (auto It = Root.find(VD); It != Root.end())
        return It->second;
      if (isManagedVariableDecl(VD) && VD->getType()->isArrayType())
        return global(VD, DRE);
      if (!Device && isGlobalHostPointer(VD))
        return global(VD, DRE);
      return nullptr;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      if (B->isAdditiveOp())
        return B->getLHS()->getType()->isPointerType()
                   ? rootOf(B->getLHS(), Depth + 1)
                   : rootOf(B->getRHS(), Depth + 1);
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf)
        return rootOfAccess(U->getSubExpr(), Depth + 1);
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      const VarDecl *T = rootOf(CO->getTrueExpr(), Depth + 1);
      return T == rootOf(CO->getFalseExpr(), Depth + 1) ? T : nullptr;
    }
    return nullptr;
  }

  /// The tracked pointer whose memory the lvalue \p E is in.
  const VarDecl *rootOfAccess(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 8)
      return nullptr;
    E = E->IgnoreParens();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return rootOf(AS->getBase(), Depth + 1);
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return U->getOpcode() == UO_Deref ? rootOf(U->getSubExpr(), Depth + 1)
                                        : nullptr;
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->isArrow() ? rootOf(ME->getBase(), Depth + 1)
                           : rootOfAccess(ME->getBase(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        if (isManagedVariableDecl(VD))
          return global(VD, DRE);
        // A reference parameter names its referent.
        if (VD->getType()->isReferenceType())
          if (auto It = Root.find(VD); It != Root.end())
            return It->second;
      }
    return nullptr;
  }

  /// A root that is not a parameter: remembered with its first reference.
  const VarDecl *global(const VarDecl *VD, const DeclRefExpr *Ref) {
    if (!Device && !Collecting)
      FirstRef.try_emplace(VD, Ref, FD);
    return VD;
  }

  AsyncWorkAnalysis &A;
  const FunctionDecl *FD;
  bool Device;
  const SourceManager &SM;
  bool Collecting = false;
  llvm::DenseMap<const VarDecl *, const VarDecl *> Root;
  llvm::SmallPtrSet<const Expr *, 8> WriteOnly;
};

/// What summary \p S says of parameter \p Index; nullopt when unknown.
template <typename Summary>
std::optional<AsyncWorkAnalysis::Access> parameterAccess(const Summary *S,
                                                         unsigned Index) {
  if (!S || Index >= S->Params.size())
    return std::nullopt;
  return S->Params[Index];
}

} // namespace

const AsyncWorkAnalysis::DeviceSummary *
AsyncWorkAnalysis::deviceSummary(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  auto [It, New] = Device.try_emplace(Def);
  if (!New)
    return It->second.get(); // Null while in progress: unknown.
  AccessScanner S(*this, Def, /*Device=*/true);
  S.run();
  auto Sum = std::make_unique<DeviceSummary>();
  Sum->Params = S.parameterAccesses();
  for (const auto &[VD, Acc] : S.Found)
    if (!isa<ParmVarDecl>(VD))
      Sum->Managed[VD] = Acc;
  Device[Def] = std::move(Sum);
  return Device[Def].get();
}

std::optional<AsyncWorkAnalysis::Access>
AsyncWorkAnalysis::deviceAccess(const FunctionDecl *FD, unsigned Index) {
  return parameterAccess(deviceSummary(FD), Index);
}

const std::map<const VarDecl *, AsyncWorkAnalysis::Access> *
AsyncWorkAnalysis::managedAccess(const FunctionDecl *FD) {
  const DeviceSummary *S = deviceSummary(FD);
  return S ? &S->Managed : nullptr;
}

const AsyncWorkAnalysis::HostSummary *
AsyncWorkAnalysis::hostSummary(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def ||
      isInSystemHeader(Def, Ctx.getSourceManager()) ||
      !isSeenWhole(Def, Ctx.getSourceManager(), Arch))
    return nullptr;
  auto [It, New] = Host.try_emplace(Def);
  if (!New)
    return It->second.get();
  AccessScanner S(*this, Def, /*Device=*/false);
  S.run();
  auto Sum = std::make_unique<HostSummary>();
  Sum->MayWait = S.MayWait;
  Sum->Params = S.parameterAccesses();
  for (const auto &[VD, Acc] : S.Found)
    if (!isa<ParmVarDecl>(VD) && S.FirstRef.count(VD))
      Sum->Globals[VD] = GlobalUse{Acc, S.FirstRef[VD].first,
                                   S.FirstRef[VD].second};
  Host[Def] = std::move(Sum);
  return Host[Def].get();
}

const std::map<const VarDecl *, AsyncWorkAnalysis::GlobalUse> *
AsyncWorkAnalysis::hostGlobalAccess(const FunctionDecl *FD) {
  const HostSummary *S = hostSummary(FD);
  return S ? &S->Globals : nullptr;
}

std::optional<AsyncWorkAnalysis::Access>
AsyncWorkAnalysis::hostAccess(const FunctionDecl *FD, unsigned Index) {
  return parameterAccess(hostSummary(FD), Index);
}

bool AsyncWorkAnalysis::mayWait(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (FD && FD->hasBody(Def) && Def && Host.count(Def) && !Host[Def])
    return true; // Recursion: assume the worst.
  const HostSummary *S = hostSummary(FD);
  return !S || S->MayWait;
}

bool AsyncWorkAnalysis::queuesWork(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->hasAttr<CUDAGlobalAttr>() ||
      isInSystemHeader(Def, Ctx.getSourceManager()))
    return false;
  auto [It, New] = Queues.try_emplace(Def, false);
  if (!New)
    return It->second; // False while in progress.
  struct Finder : RecursiveASTVisitor<Finder> {
    AsyncWorkAnalysis &A;
    bool Found = false;
    explicit Finder(AsyncWorkAnalysis &A) : A(A) {}
    bool shouldVisitLambdaExpr(LambdaExpr *) { return false; }
    bool VisitCallExpr(CallExpr *C) {
      Found = isQueuingCall(C) || A.queuesWork(C->getDirectCallee());
      return !Found;
    }
  } F(*this);
  F.TraverseStmt(Def->getBody());
  Queues[Def] = F.Found;
  return F.Found;
}

const std::vector<AsyncWorkAnalysis::LeftRunning> *
AsyncWorkAnalysis::leftRunning(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!FD || !FD->hasBody(Def) || !Def || Def->hasAttr<CUDAGlobalAttr>() ||
      !isAnalysableFunction(Def, SM) || !isSeenWhole(Def, SM, Arch))
    return nullptr;
  auto [It, New] = Left.try_emplace(Def);
  if (!New)
    return It->second.get(); // Null while in progress: unknown.
  auto Result = std::make_unique<std::vector<LeftRunning>>();
  std::shared_ptr<const FunctionCfg> Cfg =
      TranslationUnitAnalyses::get(Ctx).sharedCfgOf(Def);
  collectTranslationUnitFacts();
  if (Cfg && HostVisibleMemory && worthAnalysing(*Cfg, *this, true))
    if (const FunctionMemorySpaces *M =
            MemorySpaceAnalysis::get(Ctx, Arch).analyse(Def)) {
      FunctionAsyncWork W(*this, *M, PerThread);
      if (W.solve())
        *Result = W.leftRunning();
    }
  Left[Def] = std::move(Result);
  return Left[Def].get();
}

namespace async_work {

std::vector<AsyncWorkAnalysis::LeftRunning>
FunctionAsyncWork::leftRunning() const {
  std::vector<AsyncWorkAnalysis::LeftRunning> Result;
  WorkState Exit;
  for (const WorkState &S : In[Cfg.graph().getExit().getBlockID()].States)
    Exit.join(S);
  const FunctionDecl *FD = Cfg.function();
  auto ParamIndex = [&](const ValueDecl *D) -> int {
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (FD->getParamDecl(I) == D)
        return I;
    return -1;
  };
  for (const auto &[Site, Ordered] : Exit.Pending) {
    const WorkInfo &W = Works.at(Site);
    if (W.Kind == WorkKind::EventRecord)
      continue;
    AsyncWorkAnalysis::LeftRunning L;
    L.Kind = W.Kind;
    L.Kernel = W.Kernel;
    const StreamRef &S = Streams[W.Stream];
    L.StreamKind = S.K;
    if (S.K == StreamRef::Named) {
      L.StreamKind = StreamRef::Unknown;
      if (S.Handle.Path.empty())
        L.StreamParam = ParamIndex(S.Handle.Root);
    }
    auto Add = [&](const WorkInfo::Buffer &B, bool Writes) {
      if (!B.HostVisible || B.Pageable || !B.Key.Root)
        return;
      AsyncWorkAnalysis::Access Acc;
      (Writes ? Acc.Writes : Acc.Reads) = true;
      int P = ParamIndex(B.Key.Root);
      if (P >= 0 && B.Key.Path.size() == 1 && !B.Key.Path[0])
        L.Params.push_back({(unsigned)P, Acc});
      else if (const auto *VD = dyn_cast<VarDecl>(B.Key.Root);
               VD && B.Key.Path.empty() && isManagedVariableDecl(VD))
        L.Managed.push_back({VD, Acc});
    };
    for (const WorkInfo::Buffer &B : W.Writes)
      Add(B, true);
    for (const WorkInfo::Buffer &B : W.Reads)
      Add(B, false);
    if (!L.Params.empty() || !L.Managed.empty())
      Result.push_back(std::move(L));
  }
  return Result;
}

} // namespace async_work

} // namespace clang::tidy::cuda
