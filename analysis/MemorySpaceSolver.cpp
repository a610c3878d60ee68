//===- MemorySpaceSolver.cpp ----------------------------------------------===//
//
// One function solved: what its body shows before the fixpoint (escaping
// variables, clobbered parameters, modified variables: BodyFacts), the
// worklist fixpoint over its CFG (with the callers' constant arguments
// pruning edges), what it returns (caching allocators included), and the
// results the checks read: the state before any CFG element, replayed from
// a block's entry with a cursor and checkpoints.
//
//===----------------------------------------------------------------------===//

#include "MemorySpaceInternal.h"
#include "BranchCorrelation.h"
#include "VariableStores.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda {

/// Finds the variables whose value the analysis cannot follow: their
/// address is stored or passed somewhere it cannot see, or a lambda captures
/// them by reference; and the variables written after their declaration.
class EscapeScanner : public RecursiveASTVisitor<EscapeScanner> {
public:
  EscapeScanner(BodyFacts &R, const ParentMap &PM) : R(R), PM(PM) {}

  bool VisitUnaryOperator(UnaryOperator *U) {
    const Expr *Sub = U->getSubExpr()->IgnoreParens();
    if (U->isIncrementDecrementOp())
      markModified(Sub);
    if (U->getOpcode() != UO_AddrOf)
      return true;
    markModified(Sub);
    // Passing &x to a call is modelled there; anything else escapes.
    const Stmt *P = PM.getParentIgnoreParenCasts(U);
    if (P && (isa<CallExpr>(P) || isa<CXXConstructExpr>(P)))
      return true;
    if (const auto *Root = rootOf(Sub))
      R.Escaped.insert(Root);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      markModified(B->getLHS()->IgnoreParens());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->isAssignmentOp() && C->getNumArgs() > 0)
      markModified(C->getArg(0)->IgnoreParens());
    return true;
  }
  // A host container whose size may change: a non-const method other than
  // element access, or passed where it can be changed or moved from.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) {
    const CXXMethodDecl *M = C->getMethodDecl();
    if (!M || M->isConst())
      return true;
    if (M->getIdentifier() &&
        llvm::is_contained({"data", "begin", "end", "at", "front", "back"},
                           M->getName()))
      return true;
    markModified(C->getImplicitObjectArgument());
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      markIfMayChange(C->getArg(I), Callee && I < Callee->getNumParams()
                                        ? Callee->getParamDecl(I)->getType()
                                        : QualType());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    const CXXConstructorDecl *Ctor = C->getConstructor();
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      markIfMayChange(C->getArg(I), I < Ctor->getNumParams()
                                        ? Ctor->getParamDecl(I)->getType()
                                        : QualType());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // A pointer or reference parameter copied elsewhere: writes through the
    // copy are not seen under the parameter.
    const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
    if (P && isOutParamType(P->getType())) {
      const Stmt *Parent = PM.getParentIgnoreParenCasts(DRE);
      bool Followed = false;
      if (Parent) {
        if (isa<MemberExpr, ArraySubscriptExpr, CallExpr>(Parent))
          Followed = true;
        else if (const auto *U = dyn_cast<UnaryOperator>(Parent))
          Followed = U->getOpcode() == UO_Deref ||
                     (U->getOpcode() == UO_AddrOf &&
                      isa_and_nonnull<CallExpr>(PM.getParentIgnoreParenCasts(U)));
        else if (const auto *B = dyn_cast<BinaryOperator>(Parent))
          Followed = B->isComparisonOp() || B->isLogicalOp();
      }
      if (!Followed)
        R.ClobberedParams.insert(P);
    }
    // A reference bound to a variable aliases it.
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() &&
        !VD->getType().getNonReferenceType().isConstQualified())
      if (const Expr *Init = VD->getInit())
        if (const auto *Root = rootOf(Init->IgnoreParenImpCasts()))
          R.Escaped.insert(Root), R.Modified.insert(cast<VarDecl>(Root));
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          R.Escaped.insert(VD), R.Modified.insert(VD);
    return true;
  }

private:
  const ValueDecl *rootOf(const Expr *E) {
    while (true) {
      E = E->IgnoreParenImpCasts();
      if (const auto *ME = dyn_cast<MemberExpr>(E)) {
        if (ME->isArrow())
          return nullptr; // Through a pointer: the root is not changed.
        E = ME->getBase();
        continue;
      }
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
        if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
          return nullptr;
        E = AS->getBase();
        continue;
      }
      break;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->hasLocalStorage())
          return VD;
    return nullptr;
  }
  void markIfMayChange(const Expr *Arg, QualType Param) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
    if (!DRE || !DRE->getType()->isRecordType())
      return;
    if (!Param.isNull() && (!Param->isReferenceType() ||
                            (Param->isLValueReferenceType() &&
                             Param.getNonReferenceType().isConstQualified())))
      return;
    markModified(DRE);
  }
  void markModified(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        R.Modified.insert(VD);
    if (const auto *Root = rootOf(E))
      R.Modified.insert(cast<VarDecl>(Root));
  }

  BodyFacts &R;
  const ParentMap &PM;
};

void FunctionAnalyzer::prescan() {
  const BodyFacts &Body = MSA.bodyFacts(FD, R.cfg());
  R.Escaped = Body.Escaped;
  R.ClobberedParams = Body.ClobberedParams;
  R.Modified = Body.Modified;
}

const BodyFacts &MemorySpaceAnalysis::bodyFacts(const FunctionDecl *Def,
                                                const FunctionCfg &Cfg) {
  auto [It, New] = BodyFactsOf.try_emplace(Def);
  if (New) {
    EscapeScanner Scanner(It->second, Cfg.parents());
    Scanner.TraverseStmt(Def->getBody());
  }
  return It->second;
}

bool FunctionAnalyzer::feasible(const CFGBlock *From,
                                const CFGBlock *To) const {
  if (R.ConstantParams.empty())
    return true;
  std::optional<unsigned> Index;
  unsigned I = 0;
  for (const CFGBlock::AdjacentBlock &Succ : From->succs()) {
    if (Succ.getReachableBlock() == To) {
      if (Index)
        return true; // Several edges to one block: no fact.
      Index = I;
    }
    ++I;
  }
  if (!Index)
    return true;
  std::optional<EdgeFact> E =
      edgeFact(From, *Index, Ctx, [&](const VarDecl *VD) {
        return R.ConstantParams.count(VD) && !R.Modified.count(VD);
      });
  if (!E)
    return true;
  BranchHistory Callers;
  ValueFact Passed;
  Passed.HasOneOf = true;
  Passed.OneOf.push_back(R.ConstantParams.lookup(E->Var));
  Callers.add(EdgeFact{E->Var, Passed});
  return Callers.add(*E);
}

namespace {

/// Whether \p E reads an element of a standard-library container:
/// `blocks.back()`, `c.front()`, `c.top()`, `c.at(i)`, `c[i]`, `*it`,
/// `it->second`.
bool readsContainerElement(const Expr *E) {
  E = E->IgnoreParenCasts();
  auto IsStd = [](QualType T) {
    const CXXRecordDecl *RD = T.isNull() ? nullptr
                                         : T.getNonReferenceType()
                                               ->getPointeeOrArrayElementType()
                                               ->getAsCXXRecordDecl();
    if (!RD)
      RD = T.isNull() ? nullptr : T.getNonReferenceType()->getAsCXXRecordDecl();
    return RD && RD->isInStdNamespace();
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (!M || !M->getIdentifier() ||
        !IsStd(MC->getImplicitObjectArgument()->getType()))
      return false;
    return llvm::is_contained({"back", "front", "top", "at"}, M->getName());
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return (Op->getOperator() == OO_Subscript ||
            Op->getOperator() == OO_Star) &&
           Op->getNumArgs() >= 1 && IsStd(Op->getArg(0)->getType());
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Base);
    return Op && (Op->getOperator() == OO_Arrow ||
                  Op->getOperator() == OO_Star) &&
           IsStd(Op->getArg(0)->getType());
  }
  return false;
}

/// The spaces that allocations through `&VD` in \p Body produce (an API
/// that allocates into its out-argument).
unsigned spacesAllocatedInto(const Stmt *Body, const VarDecl *VD) {
  unsigned Spaces = MS_None;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const ApiFunction *Api = CudaApiModel::lookup(Call);
          Api && Api->Alloc && Api->Alloc->PtrOutArg >= 0 &&
          static_cast<unsigned>(Api->Alloc->PtrOutArg) < Call->getNumArgs())
        if (const auto *UO = dyn_cast<UnaryOperator>(
                Call->getArg(Api->Alloc->PtrOutArg)->IgnoreParenCasts());
            UO && UO->getOpcode() == UO_AddrOf)
          if (const auto *DRE =
                  dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenCasts());
              DRE && DRE->getDecl() == VD)
            Spaces |= Api->Alloc->Space;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Spaces;
}

} // namespace

/// A caching allocator: every pointer it returns is either a fresh
/// allocation of one space or a block recycled from a standard container
/// (a free list), and at least one is fresh. The recycled blocks are taken
/// to be of the fresh ones' space: the container holds what earlier calls
/// returned. Nothing else (size, site) carries over.
static PointerFact recycledOrFresh(const FunctionDecl *FD,
                            const FunctionMemorySpaces &R, ASTContext &Ctx) {
  PointerFact Fresh = PointerFact::bottom();
  bool Recycled = false, AnyFresh = false, Fits = true;
  std::optional<VariableStores> Stores;
  auto IsNull = [&](const Expr *E) {
    return E->IgnoreParenImpCasts()->isNullPointerConstant(
               Ctx, Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
  };
  for (const CFGBlock *B : R.cfg().graph())
    for (const CFGElement &E : *B) {
      const auto *RS = dyn_cast_or_null<ReturnStmt>(FunctionCfg::stmtOf(E));
      const Expr *V = RS ? RS->getRetValue() : nullptr;
      if (!V || !Fits || IsNull(V))
        continue;
      if (readsContainerElement(V)) {
        Recycled = true;
        continue;
      }
      PointerFact F = R.factOf(V);
      if (F.isKnown() && !F.Freed) {
        Fresh = PointerFact::join(Fresh, F);
        AnyFresh = true;
        continue;
      }
      // `void *p; if (hit) p = list.back(); else cudaMalloc(&p, n);
      // return p;`
      const auto *DRE = dyn_cast<DeclRefExpr>(V->IgnoreParenCasts());
      const auto *Var = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
          Var->getType()->isReferenceType()) {
        Fits = false;
        continue;
      }
      if (!Stores)
        Stores = VariableStores::of(FD->getBody());
      for (const StoredValue &SV : Stores->valuesOf(Var)) {
        if (SV.IsCompound) {
          Fits = false;
        } else if (readsContainerElement(SV.Value)) {
          Recycled = true;
        } else if (!IsNull(SV.Value)) {
          PointerFact SF = R.factOf(SV.Value);
          if (!SF.isKnown())
            Fits = false;
          else {
            Fresh = PointerFact::join(Fresh, PointerFact::inSpace(SF.Spaces));
            AnyFresh = true;
          }
        }
      }
      if (unsigned Spaces = spacesAllocatedInto(FD->getBody(), Var)) {
        Fresh = PointerFact::join(Fresh, PointerFact::inSpace(Spaces));
        AnyFresh = true;
      }
    }
  if (!Fits || !Recycled || !AnyFresh || !Fresh.isKnown() ||
      (Fresh.Spaces & MS_Host))
    return PointerFact::unknown();
  PointerFact Out = PointerFact::inSpace(Fresh.Spaces);
  Out.MaybeNull = Fresh.MaybeNull;
  return Out;
}

void FunctionAnalyzer::solve(const MemoryState &Entry) {
  const CFG &G = R.cfg().graph();
  llvm::DenseMap<const CFGBlock *, MemoryState> Out;
  llvm::DenseSet<const CFGBlock *> Visited;
  llvm::SmallVector<const CFGBlock *, 32> Work;
  llvm::DenseMap<const CFGBlock *, unsigned> Visits;
  R.BlockEntry[&G.getEntry()] = Entry;
  Work.push_back(&G.getEntry());
  llvm::DenseSet<const CFGBlock *> Queued;
  Queued.insert(&G.getEntry());
  while (!Work.empty()) {
    const CFGBlock *B = Work.front();
    Work.erase(Work.begin());
    Queued.erase(B);
    if (++Visits[B] > 40) {
      R.Failed = true;
      return;
    }
    // Join what the visited predecessors give.
    MemoryState In;
    if (B == &G.getEntry()) {
      In = Entry;
    } else {
      bool First = true;
      for (const CFGBlock *P : B->preds()) {
        if (!P || !Visited.count(P) || !feasible(P, B))
          continue;
        const MemoryState &PO = Out[P];
        if (First) {
          In = PO;
          First = false;
          continue;
        }
        In.intersectJoin(PO);
      }
    }
    R.BlockEntry[B] = In;
    for (const CFGElement &E : *B)
      if (const Stmt *S = FunctionCfg::stmtOf(E))
        transfer(S, In);
    // A path through exit() or abort() never reaches what follows.
    if (B->hasNoReturnElement())
      continue;
    bool Changed = !Visited.count(B) || Out[B] != In;
    Visited.insert(B);
    if (!Changed)
      continue;
    Out[B] = std::move(In);
    for (const CFGBlock *S : B->succs())
      if (S && feasible(B, S) && Queued.insert(S).second)
        Work.push_back(S);
  }
  R.ExitState = R.BlockEntry.lookup(&G.getExit());
  // What the function returns.
  bool Any = false;
  PointerFact Ret = PointerFact::bottom();
  for (const CFGBlock *B : G)
    for (const CFGElement &E : *B)
      if (const auto *RS = dyn_cast_or_null<ReturnStmt>(FunctionCfg::stmtOf(E)))
        if (const Expr *V = RS->getRetValue()) {
          Ret = PointerFact::join(Ret, R.factOf(V));
          Any = true;
        }
  R.Returned = Any ? Ret : PointerFact::unknown();
  if (Any && R.Returned.Unknown) {
    R.Returned = recycledOrFresh(FD, R, Ctx);
    R.RecycledOrFresh = !R.Returned.Unknown;
  }
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

const MemoryState *FunctionMemorySpaces::stateBefore(CfgPoint P) const {
  auto It = BlockEntry.find(P.Block);
  if (It == BlockEntry.end() || P.Index > P.Block->size())
    return nullptr;
  FunctionAnalyzer A(*MSA, const_cast<FunctionMemorySpaces &>(*this));
  if (CursorBlock == P.Block && CursorIndex > P.Index) {
    // Back in a block already walked: restart from the nearest checkpoint
    // at or before the element (a copy of a state every CheckpointEvery
    // elements, not one per element).
    auto Found = Checkpoints.find(P.Block);
    if (Found == Checkpoints.end()) {
      std::vector<MemoryState> Saved;
      MemoryState St = It->second;
      for (unsigned I = 0, N = P.Block->size();; ++I) {
        if (I % CheckpointEvery == 0)
          Saved.push_back(St);
        if (I == N)
          break;
        if (const Stmt *S = FunctionCfg::stmtOf((*P.Block)[I]))
          A.transfer(S, St);
      }
      Found = Checkpoints.try_emplace(P.Block, std::move(Saved)).first;
    }
    unsigned C = P.Index / CheckpointEvery;
    CursorState = Found->second[C];
    CursorIndex = C * CheckpointEvery;
  }
  if (CursorBlock != P.Block) {
    CursorBlock = P.Block;
    CursorIndex = 0;
    CursorState = It->second;
  }
  for (; CursorIndex < P.Index; ++CursorIndex)
    if (const Stmt *S = FunctionCfg::stmtOf((*P.Block)[CursorIndex]))
      A.transfer(S, CursorState);
  return &CursorState;
}

PointerFact FunctionMemorySpaces::factOf(const Expr *E) const {
  if (Failed || !E)
    return PointerFact::unknown();
  // While a function is being solved, a summary it needs may be missing
  // (recursion): only answers given outside any solve are kept.
  if (!MSA->InProgress.empty())
    return computeFactOf(E);
  if (auto It = Facts.find(E); It != Facts.end())
    return It->second;
  PointerFact F = computeFactOf(E);
  Facts.try_emplace(E, F);
  return F;
}

PointerFact FunctionMemorySpaces::computeFactOf(const Expr *E) const {
  const Stmt *S = E;
  std::optional<CfgPoint> P;
  while (S && !(P = Cfg->pointOf(S)))
    S = Cfg->parents().getParent(S);
  if (!P)
    return PointerFact::unknown();
  const MemoryState *St = stateBefore(*P);
  if (!St)
    return PointerFact::unknown();
  FunctionAnalyzer A(*MSA, const_cast<FunctionMemorySpaces &>(*this));
  return A.eval(E, *St);
}

std::optional<LocKey> FunctionMemorySpaces::locationOf(const Expr *E) const {
  FunctionAnalyzer A(*MSA, const_cast<FunctionMemorySpaces &>(*this));
  return A.locOf(E);
}

bool MemorySpaceAnalysis::isModified(const FunctionDecl *FD,
                                     const VarDecl *VD) {
  if (VD->getType().isConstQualified())
    return false;
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def))
    return true;
  if (auto It = BodyFactsOf.find(Def); It != BodyFactsOf.end())
    return It->second.Modified.count(VD);
  std::shared_ptr<const FunctionCfg> Cfg =
      TranslationUnitAnalyses::get(Ctx).sharedCfgOf(Def);
  return !Cfg || bodyFacts(Def, *Cfg).Modified.count(VD);
}

} // namespace clang::tidy::cuda
