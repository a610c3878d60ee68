//===- GlobalMemoryRaces.cpp - Lost updates of global memory --------------===//

#include "GlobalMemoryRaces.h"
#include "BarrierIntervals.h"
#include "CudaApiModel.h"
#include "IndexOverruns.h"
#include "LaunchConfiguration.h"
#include "ThreadDivergence.h"
#include "VariableStores.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include <optional>

namespace clang::tidy::cuda {

namespace {

/// The 'v' of a ticket atomic written 'atomicAdd(&v, ...)', or null.
const DeclRefExpr *tickedReference(const CallExpr *Ticket) {
  if (Ticket->getNumArgs() < 1)
    return nullptr;
  if (const auto *AO =
          dyn_cast<UnaryOperator>(Ticket->getArg(0)->IgnoreParenImpCasts());
      AO && AO->getOpcode() == UO_AddrOf)
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(AO->getSubExpr()->IgnoreParenImpCasts()))
      return DRE;
  return nullptr;
}

const Expr *strip(const Expr *E) { return ThreadIndexAnalysis::strip(E); }

/// The element an lvalue names.
struct Element {
  const Expr *Target = nullptr;
  const ValueDecl *Base = nullptr;
  const Expr *Index = nullptr;
};

/// Whether \p VD is a variable of global memory: '__device__' or
/// '__managed__', not '__shared__' or '__constant__'.
bool isGlobalVariable(const ValueDecl *D) {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  return VD && VD->hasGlobalStorage() && !VD->isLocalVarDecl() &&
         VD->hasAttr<CUDADeviceAttr>() && !VD->hasAttr<CUDASharedAttr>() &&
         !VD->hasAttr<CUDAConstantAttr>();
}

/// How the old value and the new one are compared for a structural match:
/// the expression without parentheses and implicit casts.
bool sameExpr(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  if (!A || !B)
    return A == B;
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// The atomic that performs compound operator \p Op.
const char *atomicOfCompound(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_AddAssign:
  case BO_SubAssign:
    return "atomicAdd";
  case BO_OrAssign:
    return "atomicOr";
  case BO_AndAssign:
    return "atomicAnd";
  case BO_XorAssign:
    return "atomicXor";
  default:
    return "";
  }
}

/// What a kernel is given to read: its stores, divergence and evidence of
/// how many threads run it.
class KernelRaces {
public:
  KernelRaces(const FunctionDecl &FD, const FunctionCfg &Cfg,
              ThreadIndexAnalysis &TI)
      : FD(FD), Cfg(Cfg), TI(TI), Ctx(FD.getASTContext()), TD(FD, TI),
        Stores(VariableStores::of(FD.getBody())),
        Helper(!FD.hasAttr<CUDAGlobalAttr>()) {}

  void run(std::vector<LostUpdate> &Out);
  void runLastBlock(std::vector<LastBlockHazard> &Out);

private:
  std::optional<Element> elementOf(const Expr *E);
  /// The pointer parameter or global array \p Ptr names, if it is global
  /// memory whose pointer the kernel does not change.
  const ValueDecl *bufferOf(const Expr *Ptr);
  bool sameElement(const Element &A, const Element &B) {
    return A.Base == B.Base && sameExpr(A.Index, B.Index, Ctx);
  }
  /// A read of \p T in \p E, directly or through the values stored into
  /// the local variables \p E reads.
  const Expr *readOf(const Expr *E, const Element &T, unsigned Depth);
  /// Whether \p E reads a local variable that is updated from its own
  /// value (a loop counter: 'e++', 'e += s', 'e = e + 1').
  bool readsCounter(const Expr *E);
  /// Whether every variable \p E reads has values the analysis sees (no
  /// address taken, not passed by reference), through the locals it reads.
  bool allValuesKnown(const Expr *E, unsigned Depth);
  /// Whether \p E mentions the block index (blockIdx, a grid rank),
  /// through the locals it reads.
  bool mentionsBlock(const Expr *E, unsigned Depth);
  /// Whether \p E is one thread's rank: a sum of thread coordinates times
  /// uniform strides (no '/', '%', '&'); sets \p Sources.
  bool isRank(const Expr *E, unsigned &Sources, unsigned Depth);
  /// The conditions that hold on the way to \p S inside its function,
  /// each with whether it is true there.
  void conditionsOver(const Stmt *S,
                      llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &Out);
  /// Whether \p E reads the result of a ticket atomic: 1 this thread's
  /// own (directly or through a local), 2 one a '__shared__' variable holds
  /// for the block, 0 neither.
  unsigned readsTicket(const Expr *E, unsigned Depth,
                       bool ThroughLoads = true);
  /// \p Conds split into the conditions that hold each way, '!' removed.
  static void
  splitConditions(llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &Conds,
                  llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &Atoms);
  /// Who may run \p S: bit 1 one thread of each block, bit 2 one block of
  /// the grid (from 'tid == c', 'blockIdx.x == c', 'gid == c', and the
  /// bucket search of bracketsOneBucket).
  unsigned writersOf(const Stmt *S);
  /// Whether \p Atoms hold 'a[r] <= k' and 'k < a[r + 1]' (either
  /// strictness) for one array 'a', a rank 'r' of the thread and a 'k'
  /// uniform in the block: a search of sorted bucket bounds, which at most
  /// thread of a block passes. Returns the rank's ThreadSource bits, or 0.
  unsigned bracketsOneBucket(
      llvm::ArrayRef<std::pair<const Expr *, bool>> Atoms);
  void scanKernel();
  /// Whether \p E provably differs between the threads of a block: it
  /// depends on the thread index or on per-thread data, through the
  /// values of the locals it reads, and on nothing that may hand every
  /// thread the same value (a call of a helper, a shuffle that broadcasts,
  /// a read of '__shared__' memory).
  bool differsByThread(const Expr *E);
  bool mayBroadcast(const Expr *E, unsigned Depth);
  llvm::DenseSet<const VarDecl *> Visiting;
  /// Whether every thread of a block reaches \p S: no condition on the
  /// way there differs between the threads.
  bool reachedByWholeBlock(const Stmt *S);
  void consider(const Expr *Store, const Expr *LHS, std::vector<LostUpdate> &Out);
  /// Whether \p S lies where only the block that drew the last ticket
  /// runs: under a test of a ticket's value ('ticket == gridDim.x - 1',
  /// a '__shared__' flag that holds such a test).
  bool inLastBlock(const Stmt *S);
  /// Whether \p S may order this thread's stores for other blocks: a
  /// fence, inline assembly, a member call ('grid.sync()', an atomic
  /// object's operation), a callee the unit does not define, or a same-TU
  /// helper that holds one of these.
  bool mayFence(const Stmt *S, unsigned Depth);
  /// Whether \p Def, or a same-TU helper it passes the pointer on to,
  /// stores through its parameter \p P.
  bool storesThrough(const FunctionDecl *Def, const ParmVarDecl *P,
                     unsigned Depth);
  /// Whether \p Call is an atomic whose result is dropped, on an element
  /// of a buffer ('atomicAdd(&hist[b], n)', 'atomicAdd(hist + b, n)'):
  /// sets \p Base and \p Index.
  bool contributionOf(const CallExpr *Call, const ValueDecl *&Base,
                      const Expr *&Index);

  const FunctionDecl &FD;
  const FunctionCfg &Cfg;
  ThreadIndexAnalysis &TI;
  ASTContext &Ctx;
  ThreadDivergence TD;
  VariableStores Stores;
  llvm::DenseSet<const VarDecl *> Counters;
  /// What the body reads of the thread coordinates (ThreadSource bits).
  unsigned Mentions = 0;
  /// From the launches: one thread per block, one block per grid.
  bool OneThreadPerBlock = false, OneBlock = false;
  /// A __device__ function that no function of the unit calls: its
  /// parameters are whatever a caller passes (a thread's index, a leader's
  /// flag, a pointer to shared or local memory).
  bool Helper = false;
  /// Whether \p E reads a parameter of the helper other than through a
  /// load ('keys[i]' is data whatever 'i' is), or at all (\p ThroughLoads).
  bool readsParameter(const Expr *E, unsigned Depth,
                      bool ThroughLoads = false);
  /// Whether the guard \p Atom of a helper may let only the threads its
  /// caller picks through: it reads a parameter ('if (leader)', 'if (lane
  /// == 0)', 'threadIdx.x == first'), other than as a bound on the
  /// thread's own rank ('i < n') or a value compared with loaded data
  /// ('keys[i] == key').
  bool callerDecides(const Expr *Atom);
};

bool KernelRaces::callerDecides(const Expr *Atom) {
  if (!readsParameter(Atom, 0))
    return false;
  const auto *Cmp = dyn_cast<BinaryOperator>(strip(Atom));
  if (!Cmp || !Cmp->isComparisonOp())
    return true;
  for (const Expr *Own : {Cmp->getLHS(), Cmp->getRHS()}) {
    if (readsParameter(Own, 0))
      continue;
    Divergence D = TD.of(Own);
    if ((Cmp->isRelationalOp() && D == Divergence::ThreadIndex) ||
        D == Divergence::PerThreadData)
      return false;
  }
  return true;
}

bool KernelRaces::readsParameter(const Expr *E, unsigned Depth,
                                 bool ThroughLoads) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E)
    return false;
  if (Depth > 6)
    return true;
  if (!ThroughLoads && isa<ArraySubscriptExpr>(E))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      !ThroughLoads && UO && UO->getOpcode() == UO_Deref)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    if (isa<ParmVarDecl>(VD))
      return true;
    if (!VD->isLocalVarDecl())
      return false;
    if (Stores.isAddressTaken(VD) || VD->getType()->isReferenceType())
      return true;
    if (!Visiting.insert(VD).second)
      return false;
    bool Reads = llvm::any_of(Stores.valuesOf(VD), [&](const StoredValue &V) {
      return readsParameter(V.Value, Depth + 1, ThroughLoads);
    });
    Visiting.erase(VD);
    return Reads;
  }
  for (const Stmt *Child : E->children())
    if (readsParameter(dyn_cast_or_null<Expr>(Child), Depth, ThroughLoads))
      return true;
  return false;
}

std::optional<Element> KernelRaces::elementOf(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E)
    return std::nullopt;
  Element El;
  El.Target = E;
  const Expr *BaseExpr = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    BaseExpr = AS->getBase();
    El.Index = AS->getIdx();
    if (!BaseExpr->IgnoreParenImpCasts()->getType()->isPointerType() &&
        !BaseExpr->IgnoreParenImpCasts()->getType()->isArrayType())
      std::swap(BaseExpr, El.Index);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_Deref)
      return std::nullopt;
    BaseExpr = UO->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Add = dyn_cast<BinaryOperator>(BaseExpr);
        Add && Add->getOpcode() == BO_Add) {
      BaseExpr = Add->getLHS();
      El.Index = Add->getRHS();
      if (!BaseExpr->getType()->isPointerType())
        std::swap(BaseExpr, El.Index);
    }
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (!isGlobalVariable(DRE->getDecl()) ||
        !DRE->getType()->isArithmeticType())
      return std::nullopt;
    El.Base = DRE->getDecl();
    return El;
  } else {
    return std::nullopt;
  }
  if (!E->getType()->isArithmeticType())
    return std::nullopt;
  El.Base = bufferOf(BaseExpr);
  if (!El.Base)
    return std::nullopt;
  return El;
}

const ValueDecl *KernelRaces::bufferOf(const Expr *Ptr) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Ptr->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  const ValueDecl *D = DRE->getDecl();
  if (const auto *P = dyn_cast<ParmVarDecl>(D)) {
    if (Helper || !P->getType()->isPointerType() || P->getDeclContext() != &FD ||
        TI.isModified(P, &FD))
      return nullptr;
  } else if (!isGlobalVariable(D) ||
             !(D->getType()->isArrayType() || D->getType()->isPointerType())) {
    return nullptr;
  }
  return D;
}

const Expr *KernelRaces::readOf(const Expr *E, const Element &T,
                                unsigned Depth) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E || Depth > 3)
    return nullptr;
  if (std::optional<Element> El = elementOf(E); El && sameElement(*El, T))
    return E;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl() || isa<ParmVarDecl>(VD))
      return nullptr;
    for (const StoredValue &V : Stores.valuesOf(VD))
      if (const Expr *R = readOf(V.Value, T, Depth + 1))
        return R;
    return nullptr;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (const Expr *R = readOf(CE, T, Depth))
        return R;
  return nullptr;
}

bool KernelRaces::readsCounter(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return Counters.count(VD);
  // A counter inside a load ('keys[i] & 63') picks the value read, not the
  // element written.
  if (isa<ArraySubscriptExpr>(E))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return false;
  for (const Stmt *Child : E->children())
    if (readsCounter(dyn_cast_or_null<Expr>(Child)))
      return true;
  return false;
}

bool KernelRaces::allValuesKnown(const Expr *E, unsigned Depth) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E)
    return true;
  if (Depth > 6)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return true; // An enumerator, a function.
    if (isa<ParmVarDecl>(VD))
      return !TI.isModified(VD, &FD);
    if (!VD->isLocalVarDecl() || VD->getType()->isArrayType())
      return true; // A global, or an array whose elements are loads.
    if (Stores.isAddressTaken(VD) || Stores.mayBeWrittenByCallee(VD) ||
        VD->getType()->isReferenceType() || Cfg.hasIndirectUse(VD))
      return false;
    if (Counters.count(VD))
      return true; // Its other values derive from its own.
    for (const StoredValue &V : Stores.valuesOf(VD))
      if (!allValuesKnown(V.Value, Depth + 1))
        return false;
    return true;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    ThreadSource Src;
    unsigned Dim;
    if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim) ||
        ThreadIndexAnalysis::integerConstant(E, Ctx))
      return true;
    (void)Call;
    return false; // What a call returns is not known here.
  }
  for (const Stmt *Child : E->children())
    if (!allValuesKnown(dyn_cast_or_null<Expr>(Child), Depth))
      return false;
  return true;
}

bool KernelRaces::mentionsBlock(const Expr *E, unsigned Depth) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E || Depth > 6)
    return false;
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
    return Src & (TS_BlockInGrid | TS_GridRank);
  if (E->getType()->isIntegralOrEnumerationType() && !E->isValueDependent() &&
      (TI.valueOf(E, &FD).Sources & (TS_BlockInGrid | TS_GridRank)))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl() || Counters.count(VD))
      return false;
    for (const StoredValue &V : Stores.valuesOf(VD))
      if (mentionsBlock(V.Value, Depth + 1))
        return true;
    return false;
  }
  for (const Stmt *Child : E->children())
    if (mentionsBlock(dyn_cast_or_null<Expr>(Child), Depth))
      return true;
  return false;
}

bool KernelRaces::isRank(const Expr *E, unsigned &Sources, unsigned Depth) {
  E = strip(E);
  if (!E || Depth > 6 || !E->getType()->isIntegralOrEnumerationType())
    return false;
  ThreadSource Src;
  unsigned Dim;
  if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim)) {
    Sources |= Src;
    return true;
  }
  if (ThreadIndexAnalysis::integerConstant(E, Ctx))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    if (isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl())
      return TD.of(E) == Divergence::None;
    if (TI.isModified(VD, &FD) || !VD->getInit())
      return false;
    return isRank(VD->getInit(), Sources, Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_Sub:
      return isRank(BO->getLHS(), Sources, Depth + 1) &&
             isRank(BO->getRHS(), Sources, Depth + 1);
    case BO_Mul: {
      // A coordinate times a uniform stride: one factor must not be the
      // thread's.
      unsigned L = 0, R = 0;
      if (!isRank(BO->getLHS(), L, Depth + 1) ||
          !isRank(BO->getRHS(), R, Depth + 1))
        return false;
      constexpr unsigned PerThread = TS_ThreadInBlock | TS_GridRank;
      if ((L & PerThread) && (R & PerThread))
        return false;
      Sources |= L | R;
      return true;
    }
    default:
      return false;
    }
  }
  return TD.of(E) == Divergence::None && !E->HasSideEffects(Ctx);
}

void KernelRaces::conditionsOver(
    const Stmt *S, llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &Out) {
  const ParentMap &PM = Cfg.parents();
  auto isExit = [](const Stmt *Then) {
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Then))
      Then = CS->body_empty() ? nullptr : CS->body_back();
    return isa_and_nonnull<ReturnStmt, ContinueStmt, BreakStmt>(Then);
  };
  const Stmt *Child = S;
  for (const Stmt *P = PM.getParent(Child); P;
       Child = P, P = PM.getParent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child == If->getThen())
        Out.push_back({If->getCond(), true});
      else if (Child == If->getElse())
        Out.push_back({If->getCond(), false});
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (Child == CO->getTrueExpr())
        Out.push_back({CO->getCond(), true});
      else if (Child == CO->getFalseExpr())
        Out.push_back({CO->getCond(), false});
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->getOpcode() == BO_LAnd && Child == BO->getRHS())
        Out.push_back({BO->getLHS(), true});
      else if (BO->getOpcode() == BO_LOr && Child == BO->getRHS())
        Out.push_back({BO->getLHS(), false});
    } else if (const auto *W = dyn_cast<WhileStmt>(P)) {
      if (Child == W->getBody())
        Out.push_back({W->getCond(), true});
    } else if (const auto *F = dyn_cast<ForStmt>(P)) {
      if (Child == F->getBody() && F->getCond())
        Out.push_back({F->getCond(), true});
    } else if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      // 'if (tid != 0) return;' before the statement.
      for (const Stmt *Before : CS->body()) {
        if (Before == Child)
          break;
        if (const auto *If = dyn_cast<IfStmt>(Before);
            If && !If->getElse() && isExit(If->getThen()))
          Out.push_back({If->getCond(), false});
      }
    }
  }
}

unsigned KernelRaces::readsTicket(const Expr *E, unsigned Depth,
                                  bool ThroughLoads) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E || Depth > 4)
    return 0;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (CudaApiModel::returnsTicket(Call))
      return 1;
  // A value loaded at an index derived from a ticket is not the ticket,
  // nor is what a call returns, except a barrier that ORs a predicate over
  // the block ('__syncthreads_or(isLast)').
  if (!ThroughLoads) {
    if (isa<ArraySubscriptExpr>(E) ||
        (isa<UnaryOperator>(E) &&
         cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
      return 0;
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !Callee->getIdentifier() ||
          !Callee->getName().starts_with("__syncthreads_"))
        return 0;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl() || Counters.count(VD))
      return 0;
    unsigned Found = 0;
    for (const StoredValue &V : Stores.valuesOf(VD))
      Found = std::max(Found, readsTicket(V.Value, Depth + 1, ThroughLoads));
    return Found && VD->hasAttr<CUDASharedAttr>() ? 2 : Found;
  }
  unsigned Found = 0;
  for (const Stmt *Child : E->children())
    Found = std::max(Found, readsTicket(dyn_cast_or_null<Expr>(Child), Depth,
                                        ThroughLoads));
  return Found;
}

void KernelRaces::splitConditions(
    llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &Conds,
    llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &Atoms) {
  // Atoms that hold: 'a && b' true, 'a || b' false, '!a'.
  while (!Conds.empty()) {
    auto [C, Holds] = Conds.pop_back_val();
    C = strip(C);
    if (const auto *UO = dyn_cast<UnaryOperator>(C);
        UO && UO->getOpcode() == UO_LNot) {
      Conds.push_back({UO->getSubExpr(), !Holds});
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(C)) {
      if ((BO->getOpcode() == BO_LAnd && Holds) ||
          (BO->getOpcode() == BO_LOr && !Holds)) {
        Conds.push_back({BO->getLHS(), Holds});
        Conds.push_back({BO->getRHS(), Holds});
        continue;
      }
    }
    Atoms.push_back({C, Holds});
  }
}

unsigned KernelRaces::bracketsOneBucket(
    llvm::ArrayRef<std::pair<const Expr *, bool>> Atoms) {
  // Each atom as 'Low < High' or 'Low <= High' that holds.
  struct Order {
    const Expr *Low, *High;
  };
  llvm::SmallVector<Order, 4> Orders;
  for (auto [C, Holds] : Atoms) {
    const auto *BO = dyn_cast<BinaryOperator>(C);
    if (!BO || !BO->isRelationalOp())
      continue;
    bool LeftLow = BO->getOpcode() == BO_LT || BO->getOpcode() == BO_LE;
    if (!Holds)
      LeftLow = !LeftLow;
    Orders.push_back(LeftLow ? Order{BO->getLHS(), BO->getRHS()}
                             : Order{BO->getRHS(), BO->getLHS()});
  }
  auto element = [&](const Expr *E) {
    return dyn_cast<ArraySubscriptExpr>(strip(E));
  };
  for (const Order &Lower : Orders) {
    const auto *At = element(Lower.Low);
    if (!At || TD.of(Lower.High) != Divergence::None)
      continue;
    unsigned Sources = 0;
    if (!isRank(At->getIdx(), Sources, 0) ||
        !(Sources & (TS_ThreadInBlock | TS_GridRank)))
      continue;
    for (const Order &Upper : Orders) {
      const auto *Next = element(Upper.High);
      if (!Next || !sameExpr(Upper.Low, Lower.High, Ctx) ||
          !sameExpr(Next->getBase(), At->getBase(), Ctx))
        continue;
      const auto *Plus = dyn_cast<BinaryOperator>(strip(Next->getIdx()));
      if (!Plus || Plus->getOpcode() != BO_Add)
        continue;
      auto One = ThreadIndexAnalysis::integerConstant(Plus->getRHS(), Ctx);
      if (One && *One == 1 && sameExpr(Plus->getLHS(), At->getIdx(), Ctx))
        return Sources;
    }
  }
  return 0;
}

unsigned KernelRaces::writersOf(const Stmt *S) {
  llvm::SmallVector<std::pair<const Expr *, bool>, 8> Conds, Atoms;
  conditionsOver(S, Conds);
  splitConditions(Conds, Atoms);
  unsigned One = 0;
  for (auto [C, Holds] : Atoms) {
    const Expr *Who = nullptr;
    const auto *BO = dyn_cast<BinaryOperator>(C);
    if (BO && ((BO->getOpcode() == BO_EQ && Holds) ||
               (BO->getOpcode() == BO_NE && !Holds))) {
      for (auto [A, B] : {std::pair{BO->getLHS(), BO->getRHS()},
                          std::pair{BO->getRHS(), BO->getLHS()}}) {
        unsigned Ignored = 0;
        if (TD.of(B) == Divergence::None && isRank(B, Ignored, 0) &&
            !(Ignored & (TS_ThreadInBlock | TS_GridRank))) {
          Who = A;
          break;
        }
      }
    } else if (BO && BO->getOpcode() == BO_LT && Holds) {
      // 'tid < 1'.
      if (auto V = ThreadIndexAnalysis::integerConstant(BO->getRHS(), Ctx);
          V && *V == 1)
        Who = BO->getLHS();
    } else if (BO && BO->getOpcode() == BO_GT && !Holds) {
      // 'if (tid > 0) return;'.
      if (auto V = ThreadIndexAnalysis::integerConstant(BO->getRHS(), Ctx);
          V && *V == 0)
        Who = BO->getLHS();
    } else if (!BO && !Holds && C->getType()->isIntegralOrEnumerationType()) {
      // 'if (tid) return;'.
      Who = C;
    }
    // 'if (atomicInc(&done, n) == n)': the one thread that drew the ticket
    // (the last block's, in the threadfence reduction); through a
    // '__shared__' flag, the threads of its block.
    if ((BO && BO->getOpcode() == BO_EQ && Holds) ||
        (!BO && Holds && C->getType()->isScalarType())) {
      unsigned Ticket = readsTicket(C, 0);
      One |= Ticket == 1 ? 3 : Ticket == 2 ? 2 : 0;
    }
    unsigned Sources = 0;
    if (!Who || !isRank(Who, Sources, 0))
      continue;
    bool Thread = Sources & TS_ThreadInBlock,
         Block = Sources & TS_BlockInGrid;
    if (Sources & TS_GridRank)
      Thread = Block = true;
    if (Thread)
      One |= 1;
    if (Block)
      One |= 2;
  }
  if (bracketsOneBucket(Atoms))
    One |= 1;
  return One;
}

void KernelRaces::scanKernel() {
  struct Scanner : RecursiveASTVisitor<Scanner> {
    KernelRaces &K;
    explicit Scanner(KernelRaces &K) : K(K) {}
    const VarDecl *localOf(const Expr *E) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      return VD && VD->isLocalVarDecl() ? VD : nullptr;
    }
    bool mentions(const Expr *E, const VarDecl *VD) {
      E = E->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
        return DRE->getDecl() == VD;
      for (const Stmt *Child : E->children())
        if (const auto *CE = dyn_cast_or_null<Expr>(Child);
            CE && mentions(CE, VD))
          return true;
      return false;
    }
    bool VisitExpr(Expr *E) {
      ThreadSource Src;
      unsigned Dim;
      if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
        K.Mentions |= Src;
      if (const auto *UO = dyn_cast<UnaryOperator>(E);
          UO && UO->isIncrementDecrementOp())
        if (const VarDecl *VD = localOf(UO->getSubExpr()))
          K.Counters.insert(VD);
      if (const auto *BO = dyn_cast<BinaryOperator>(E);
          BO && BO->isAssignmentOp())
        if (const VarDecl *VD = localOf(BO->getLHS()))
          if (BO->isCompoundAssignmentOp() || mentions(BO->getRHS(), VD))
            K.Counters.insert(VD);
      return true;
    }
  } Scan(*this);
  Scan.TraverseStmt(const_cast<Stmt *>(FD.getBody()));

  const KernelLaunches &L =
      TranslationUnitAnalyses::get(Ctx).launches().launchesOf(&FD);
  if (!L.known())
    return;
  bool GridOne = true, BlockOne = true;
  for (const LaunchSite &Site : L.Sites)
    for (const LaunchDimension &D : Site.Dims) {
      if (D.Grid && (!D.GridConst || *D.GridConst != 1))
        GridOne = false;
      if (D.Block && (!D.BlockConst || *D.BlockConst != 1))
        BlockOne = false;
    }
  OneBlock = GridOne;
  OneThreadPerBlock = BlockOne;
}

bool KernelRaces::mayBroadcast(const Expr *E, unsigned Depth) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E)
    return false;
  if (Depth > 6)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    if (VD->hasAttr<CUDASharedAttr>())
      return true;
    if (isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl())
      return false;
    if (Stores.isAddressTaken(VD) || Stores.mayBeWrittenByCallee(VD) ||
        VD->getType()->isReferenceType() || Cfg.hasIndirectUse(VD))
      return true;
    // Its own earlier values ('v += __shfl_down_sync(m, v, o)') add
    // nothing new.
    if (!Visiting.insert(VD).second)
      return false;
    bool May = llvm::any_of(Stores.valuesOf(VD), [&](const StoredValue &V) {
      return mayBroadcast(V.Value, Depth + 1);
    });
    Visiting.erase(VD);
    return May;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    ThreadSource Src;
    unsigned Dim;
    if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
      return false;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return true;
    StringRef Name = Callee->getName();
    // A shuffle down or up leaves each lane a different partial value; a
    // butterfly or an indexed shuffle may give every lane the same one.
    bool Differs = Name.starts_with("__shfl_down") ||
                   Name.starts_with("__shfl_up");
    // The math library: its value differs where its arguments do.
    bool Math = Ctx.getSourceManager().isInSystemHeader(
                    Callee->getLocation()) &&
                !Name.starts_with("__shfl") && !Name.starts_with("__reduce") &&
                !Name.starts_with("atomic") && !Name.starts_with("__ldg") &&
                !Name.contains("sync") && !Name.starts_with("__ballot") &&
                !Name.starts_with("__any") && !Name.starts_with("__all");
    if (!Differs && !Math)
      return true;
    for (const Expr *Arg : Call->arguments())
      if (mayBroadcast(Arg, Depth))
        return true;
    return false;
  }
  if (isa<CXXMemberCallExpr, CXXOperatorCallExpr>(E))
    return true;
  if (std::optional<Element> El = elementOf(E); !El) {
    // A subscript or dereference of something other than global memory
    // (a '__shared__' array, a local array filled by a helper).
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *Base =
          dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
      const auto *VD = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
      if (!VD || VD->hasAttr<CUDASharedAttr>() ||
          (VD->isLocalVarDecl() && VD->getType()->isArrayType()))
        return true;
    }
  }
  for (const Stmt *Child : E->children())
    if (mayBroadcast(dyn_cast_or_null<Expr>(Child), Depth))
      return true;
  return false;
}

bool KernelRaces::differsByThread(const Expr *E) {
  return E && TD.of(E) != Divergence::None &&
         !mayBroadcast(E, 0);
}

bool KernelRaces::reachedByWholeBlock(const Stmt *S) {
  llvm::SmallVector<std::pair<const Expr *, bool>, 8> Conds;
  conditionsOver(S, Conds);
  for (auto [C, Holds] : Conds)
    if (TD.of(C) != Divergence::None)
      return false;
  // A loop or a switch on the way may run a different number of times, or
  // not at all, in different threads; only plain blocks and uniform
  // branches are read.
  const ParentMap &PM = Cfg.parents();
  for (const Stmt *P = PM.getParent(S); P; P = PM.getParent(P))
    if (isa<SwitchStmt, DoStmt, CXXForRangeStmt>(P))
      return false;
  return true;
}

void KernelRaces::consider(const Expr *Store, const Expr *LHS,
                           std::vector<LostUpdate> &Out) {
  std::optional<Element> El = elementOf(LHS);
  if (!El)
    return;
  LostUpdate U;
  U.Store = Store;
  U.Target = El->Target;
  U.Base = El->Base;
  U.Index = El->Index;
  // How the new value depends on the old one.
  if (const auto *UO = dyn_cast<UnaryOperator>(Store)) {
    U.How = LostUpdate::Compound;
    U.Atomic = UO->isIncrementOp() ? "atomicAdd" : "atomicSub";
  } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Store)) {
    BinaryOperatorKind Op = CA->getOpcode();
    // 'flags[v] |= MASK' by every writer leaves the same value.
    if ((Op == BO_OrAssign || Op == BO_AndAssign) &&
        TD.of(CA->getRHS()) == Divergence::None)
      return;
    U.How = LostUpdate::Compound;
    U.Atomic = atomicOfCompound(Op);
  } else {
    const auto *BO = cast<BinaryOperator>(Store);
    if (const Expr *R = readOf(BO->getRHS(), *El, 0)) {
      U.How = LostUpdate::ReadModify;
      U.OldRead = R;
      const Expr *RHS = strip(BO->getRHS());
      if (const auto *Op = dyn_cast<BinaryOperator>(RHS);
          Op && Op->isAdditiveOp())
        U.Atomic = "atomicAdd";
      else if (const auto *Call = dyn_cast<CallExpr>(RHS))
        if (const FunctionDecl *Callee = Call->getDirectCallee()) {
          StringRef Name = Callee->getName();
          if (Name.contains("max"))
            U.Atomic = "atomicMax";
          else if (Name.contains("min"))
            U.Atomic = "atomicMin";
        }
    } else {
      // A compare-and-store: the old value decides whether to store a
      // value that differs between the threads.
      if (TD.of(BO->getRHS()) == Divergence::None)
        return;
      llvm::SmallVector<std::pair<const Expr *, bool>, 8> Conds, Atoms;
      conditionsOver(Store, Conds);
      splitConditions(Conds, Atoms);
      for (auto [C, Holds] : Atoms)
        if (const Expr *R = readOf(C, *El, 0)) {
          U.How = LostUpdate::CompareStore;
          U.OldRead = R;
          // 'x < a[k]' keeps the smaller value.
          if (const auto *Cmp = dyn_cast<BinaryOperator>(strip(C));
              Cmp && Cmp->isRelationalOp()) {
            bool OldOnRight = readOf(Cmp->getRHS(), *El, 0) != nullptr;
            bool Less =
                Cmp->getOpcode() == BO_LT || Cmp->getOpcode() == BO_LE;
            U.Atomic = (Less == OldOnRight) == Holds ? "atomicMin"
                                                      : "atomicMax";
          }
          break;
        }
      if (!U.OldRead) {
        // A plain store of a value that differs between the threads, by
        // every thread of the block, to an element they share.
        // A value derived from this thread's ticket ('n = atomicAdd(c, 1);
        // out[0] = n + 1'): distinct in every thread that stores it, under
        // any condition, so the element keeps the last store, not the
        // largest.
        bool Ticket = readsTicket(BO->getRHS(), 0) == 1;
        if (BO->getOpcode() != BO_Assign || (!U.Index && !Ticket) ||
            !(Ticket || (differsByThread(BO->getRHS()) &&
                         reachedByWholeBlock(Store))))
          return;
        U.How = LostUpdate::WriteWrite;
      }
    }
  }
  // In a helper no kernel calls, an index or a guard that reads a
  // parameter is the caller's: 'tid' passed in is one-to-one, and a flag
  // passed in may pick one writer.
  if (Helper) {
    if (readsParameter(U.Index, 0))
      return;
    llvm::SmallVector<std::pair<const Expr *, bool>, 8> Guards, Atoms;
    conditionsOver(Store, Guards);
    splitConditions(Guards, Atoms);
    for (auto [C, Holds] : Atoms)
      if (callerDecides(C))
        return;
  }
  // Who shares the element.
  if (U.Index) {
    switch (TD.of(U.Index)) {
    case Divergence::ThreadIndex:
      return; // One-to-one, or not read here.
    case Divergence::PerThreadData:
      if (U.How == LostUpdate::WriteWrite)
        return;
      // A loop counter that starts at a per-thread value walks the
      // thread's own segment ('for (e = row[i]; e < row[i + 1]; ++e)').
      if (readsCounter(U.Index) || !allValuesKnown(U.Index, 0))
        return;
      U.Shared = LostUpdate::Data;
      break;
    case Divergence::None:
      if (!allValuesKnown(U.Index, 0))
        return;
      U.Shared = mentionsBlock(U.Index, 0) ? LostUpdate::Block
                                           : LostUpdate::Grid;
      // A load at an index the caller passes: data, which threads may
      // share.
      if (Helper && readsParameter(U.Index, 0, /*ThroughLoads=*/true))
        U.Shared = LostUpdate::Data;
      break;
    }
  }
  constexpr unsigned InBlock = TS_ThreadInBlock | TS_BlockDim | TS_GridRank;
  constexpr unsigned InGrid = TS_BlockInGrid | TS_GridDim | TS_GridRank;
  bool ManyInBlock = !OneThreadPerBlock && (Mentions & InBlock);
  bool ManyBlocks = !OneBlock && (Mentions & InGrid);
  unsigned One = writersOf(Store);
  bool OneInBlock = (One & 1) || !ManyInBlock;
  bool OneOfBlocks = (One & 2) || !ManyBlocks;
  switch (U.Shared) {
  case LostUpdate::Block:
    if (OneInBlock)
      return;
    break;
  case LostUpdate::Grid:
  case LostUpdate::Data:
    if (OneInBlock && OneOfBlocks)
      return;
    break;
  }
  Out.push_back(U);
}

bool KernelRaces::inLastBlock(const Stmt *S) {
  llvm::SmallVector<std::pair<const Expr *, bool>, 8> Conds, Atoms;
  conditionsOver(S, Conds);
  splitConditions(Conds, Atoms);
  for (auto [C, Holds] : Atoms) {
    const auto *BO = dyn_cast<BinaryOperator>(C);
    bool Picks = BO ? (BO->getOpcode() == BO_EQ && Holds) ||
                          (BO->getOpcode() == BO_NE && !Holds)
                    : Holds && C->getType()->isScalarType();
    if (Picks && readsTicket(C, 0, /*ThroughLoads=*/false))
      return true;
  }
  return false;
}

bool KernelRaces::mayFence(const Stmt *S, unsigned Depth) {
  if (isa_and_nonnull<AsmStmt>(S))
    return true;
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  if (!Call)
    return false;
  if (CudaApiModel::isDeviceFence(Call))
    return true;
  ThreadSource Src;
  unsigned Dim;
  if (CudaApiModel::returnsTicket(Call) ||
      ThreadIndexAnalysis::isThreadQuery(Call, Src, Dim))
    return false;
  if (isa<CXXMemberCallExpr>(Call))
    return true;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return !isa<CXXOperatorCallExpr>(Call);
  if (unsigned Builtin = Callee->getBuiltinID()) {
    std::string Spelled = Ctx.BuiltinInfo.getName(Builtin);
    StringRef Name = Spelled;
    return Name.contains("membar") || Name.contains("fence");
  }
  if (Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
    return false; // The math library, atomics, intrinsics.
  const FunctionDecl *Def = deviceHelperDefinition(Call);
  if (!Def)
    return !isa<CXXOperatorCallExpr>(Call);
  if (Depth >= 4)
    return true;
  struct Finder : RecursiveASTVisitor<Finder> {
    KernelRaces &K;
    unsigned Depth;
    bool Found = false;
    Finder(KernelRaces &K, unsigned Depth) : K(K), Depth(Depth) {}
    bool VisitStmt(Stmt *S) {
      Found |= K.mayFence(S, Depth + 1);
      return !Found;
    }
  } F(*this, Depth);
  F.TraverseStmt(Def->getBody());
  return F.Found;
}

bool KernelRaces::storesThrough(const FunctionDecl *Def, const ParmVarDecl *P,
                                unsigned Depth) {
  struct Finder : RecursiveASTVisitor<Finder> {
    KernelRaces &K;
    const ParmVarDecl *P;
    unsigned Depth;
    bool Found = false;
    Finder(KernelRaces &K, const ParmVarDecl *P, unsigned Depth)
        : K(K), P(P), Depth(Depth) {}
    bool namesP(const Expr *E) {
      const auto *DRE =
          dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : E);
      return DRE && DRE->getDecl() == P;
    }
    bool writesThroughP(const Expr *LHS) {
      LHS = LHS->IgnoreParenImpCasts();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS))
        return namesP(AS->getBase());
      if (const auto *UO = dyn_cast<UnaryOperator>(LHS);
          UO && UO->getOpcode() == UO_Deref) {
        const Expr *Ptr = UO->getSubExpr()->IgnoreParenImpCasts();
        if (const auto *Add = dyn_cast<BinaryOperator>(Ptr);
            Add && Add->isAdditiveOp())
          return namesP(Add->getLHS()) || namesP(Add->getRHS());
        return namesP(Ptr);
      }
      return false;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp() && writesThroughP(BO->getLHS()))
        Found = true;
      return !Found;
    }
    bool VisitCallExpr(CallExpr *Call) {
      // An atomic on an element of P.
      if (const FunctionDecl *Callee = Call->getDirectCallee();
          Callee && Callee->getIdentifier() &&
          Callee->getName().starts_with("atomic") && Call->getNumArgs() >= 2) {
        const Expr *Ptr = Call->getArg(0)->IgnoreParenImpCasts();
        if (const auto *AO = dyn_cast<UnaryOperator>(Ptr);
            AO && AO->getOpcode() == UO_AddrOf)
          Found |= writesThroughP(AO->getSubExpr());
        else if (const auto *Add = dyn_cast<BinaryOperator>(Ptr);
                 Add && Add->getOpcode() == BO_Add)
          Found |= namesP(Add->getLHS()) || namesP(Add->getRHS());
        else
          Found |= namesP(Ptr);
        return !Found;
      }
      const FunctionDecl *Def = deviceHelperDefinition(Call);
      if (!Def || Depth >= 3)
        return true;
      for (unsigned I = 0; I < Call->getNumArgs() && I < Def->getNumParams();
           ++I)
        if (namesP(Call->getArg(I)) &&
            K.storesThrough(Def, Def->getParamDecl(I), Depth + 1))
          Found = true;
      return !Found;
    }
  } F(*this, P, Depth);
  F.TraverseStmt(Def->getBody());
  return F.Found;
}

bool KernelRaces::contributionOf(const CallExpr *Call, const ValueDecl *&Base,
                                 const Expr *&Index) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      !Callee->getName().starts_with("atomic") || Call->getNumArgs() < 2 ||
      !Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()) ||
      !isa_and_nonnull<CompoundStmt>(Cfg.parents().getParent(Call)))
    return false;
  const Expr *Ptr = Call->getArg(0)->IgnoreParenImpCasts();
  if (const auto *AO = dyn_cast<UnaryOperator>(Ptr);
      AO && AO->getOpcode() == UO_AddrOf) {
    if (std::optional<Element> El = elementOf(AO->getSubExpr())) {
      Base = El->Base;
      Index = El->Index;
      return Base != nullptr;
    }
    return false;
  }
  if (const auto *Add = dyn_cast<BinaryOperator>(Ptr);
      Add && Add->getOpcode() == BO_Add) {
    for (auto [B, I] : {std::pair{Add->getLHS(), Add->getRHS()},
                        std::pair{Add->getRHS(), Add->getLHS()}})
      if (const ValueDecl *D = bufferOf(B)) {
        Base = D;
        Index = I;
        return true;
      }
    return false;
  }
  Base = bufferOf(Ptr);
  return Base != nullptr;
}

void KernelRaces::runLastBlock(std::vector<LastBlockHazard> &Out) {
  // The tickets whose value is used, and the reads of each buffer in the
  // last block's branch.
  llvm::SmallVector<const CallExpr *, 2> Tickets;
  llvm::DenseMap<const ValueDecl *, const Expr *> LastReads;
  const ParentMap &PM = Cfg.parents();
  struct Collector : RecursiveASTVisitor<Collector> {
    KernelRaces &K;
    const ParentMap &PM;
    llvm::SmallVectorImpl<const CallExpr *> &Tickets;
    llvm::DenseMap<const ValueDecl *, const Expr *> &LastReads;
    Collector(KernelRaces &K, const ParentMap &PM,
              llvm::SmallVectorImpl<const CallExpr *> &Tickets,
              llvm::DenseMap<const ValueDecl *, const Expr *> &LastReads)
        : K(K), PM(PM), Tickets(Tickets), LastReads(LastReads) {}
    void noteRead(const ValueDecl *Base, const Expr *E) {
      if (Base && !LastReads.count(Base) && K.inLastBlock(E))
        LastReads[Base] = E;
    }
    bool VisitExpr(Expr *E) {
      if (const auto *Call = dyn_cast<CallExpr>(E)) {
        if (CudaApiModel::returnsTicket(Call)) {
          if (!isa_and_nonnull<CompoundStmt>(PM.getParent(Call)))
            Tickets.push_back(Call);
          return true;
        }
        // The buffer handed to a helper in the last block's branch.
        if (deviceHelperDefinition(Call))
          for (const Expr *Arg : Call->arguments())
            noteRead(K.bufferOf(Arg), Call);
        return true;
      }
      if (!isa<ArraySubscriptExpr>(E) &&
          !(isa<UnaryOperator>(E) &&
            cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
        return true;
      std::optional<Element> El = K.elementOf(E);
      if (!El)
        return true;
      // The target of a plain store is no read.
      const Stmt *P = PM.getParent(E);
      while (P && isa<ParenExpr, ImplicitCastExpr>(P))
        P = PM.getParent(P);
      if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
          BO && BO->getOpcode() == BO_Assign &&
          BO->getLHS()->IgnoreParenImpCasts() == E)
        return true;
      noteRead(El->Base, E);
      return true;
    }
  } Collect(*this, PM, Tickets, LastReads);
  Collect.TraverseStmt(const_cast<Stmt *>(FD.getBody()));
  if (Tickets.empty() || LastReads.empty())
    return;
  scanKernel();

  // The one ticket of the kernel counts up on a '__device__' counter that
  // does not wrap at the last ticket: unless something resets it (which
  // lastBlockHazardsIn asks of the whole translation unit), the next
  // launch starts where this one ended.
  if (Tickets.size() == 1) {
    const CallExpr *Ticket = Tickets.front();
    StringRef Name = Ticket->getDirectCallee()->getName();
    const DeclRefExpr *Ticked = tickedReference(Ticket);
    const VarDecl *Counter =
        Ticked ? dyn_cast<VarDecl>(Ticked->getDecl()) : nullptr;
    bool Counts = false;
    if (Ticket->getNumArgs() == 2) {
      const Expr *Step = Ticket->getArg(1);
      if (Name == "atomicAdd")
        Counts = TI.integerConstant(Step, Ctx) == std::optional<int64_t>(1);
      else if (Name == "atomicInc") {
        // 'atomicInc(&c, gridDim.x - 1)' wraps to 0 with the last ticket.
        const auto *Sub = dyn_cast<BinaryOperator>(Step->IgnoreParenImpCasts());
        Counts = !(Sub && Sub->getOpcode() == BO_Sub);
      }
    }
    // A counter declared 'extern' anywhere, or outside the main file, may
    // be reset by another unit (separate compilation).
    auto SeenWhole = [&](const VarDecl *V) {
      const SourceManager &SM = Ctx.getSourceManager();
      for (const VarDecl *R : V->redecls())
        if (R->hasExternalStorage() ||
            !SM.isInMainFile(SM.getExpansionLoc(R->getLocation())))
          return false;
      return true;
    };
    if (Counts && Counter && Counter->hasGlobalStorage() &&
        !Counter->isStaticLocal() && Counter->hasAttr<CUDADeviceAttr>() &&
        SeenWhole(Counter) &&
        !Counter->hasAttr<HIPManagedAttr>() &&
        Counter->getType()->isIntegerType() &&
        !Counter->getType().isVolatileQualified() &&
        inLastBlock(LastReads.begin()->second)) {
      LastBlockHazard H;
      H.What = LastBlockHazard::NoReset;
      H.Ticket = Ticket;
      H.Read = LastReads.begin()->second;
      H.Base = Counter;
      Out.push_back(H);
    }
  }

  llvm::DenseSet<const Stmt *> TicketSet(Tickets.begin(), Tickets.end());
  llvm::DenseSet<std::pair<const CallExpr *, int>> Reported;
  BarrierIntervals Barriers(Cfg);
  llvm::DenseSet<const Stmt *> Seen;
  for (const CFGBlock *B : Cfg.graph()) {
    if (!Cfg.isReachable(B))
      continue;
    for (const CFGElement &CE : *B) {
      const auto *S = dyn_cast_or_null<Expr>(FunctionCfg::stmtOf(CE));
      if (!S || !Seen.insert(S).second)
        continue;
      // A partial store: to an element of a buffer the last block reads,
      // or a helper call that stores through that buffer.
      const ValueDecl *Base = nullptr;
      const Expr *Index = nullptr;
      bool Helper = false;
      if (const auto *BO = dyn_cast<BinaryOperator>(S);
          BO && BO->isAssignmentOp()) {
        if (std::optional<Element> El = elementOf(BO->getLHS())) {
          Base = El->Base;
          Index = El->Index;
        }
      } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        if (contributionOf(Call, Base, Index)) {
          // An atomic contribution ('atomicAdd(&hist[b], n)'): relaxed,
          // as unordered for other blocks as a plain store.
        } else if (const FunctionDecl *Def = deviceHelperDefinition(Call))
          for (unsigned I = 0;
               I < Call->getNumArgs() && I < Def->getNumParams() && !Base; ++I)
            if (const auto *DRE = dyn_cast<DeclRefExpr>(
                    Call->getArg(I)->IgnoreParenImpCasts()))
              if (LastReads.count(DRE->getDecl()) &&
                  storesThrough(Def, Def->getParamDecl(I), 0)) {
                Base = DRE->getDecl();
                Helper = true;
              }
      }
      if (!Base || !LastReads.count(Base) || inLastBlock(S))
        continue;
      auto Point = Cfg.pointOf(S);
      if (!Point)
        continue;
      // Many threads of the block store (their index differs), and one
      // takes the ticket: a barrier must come between.
      bool ManyStore = !Helper && Index && !OneThreadPerBlock &&
                       (TD.of(Index) == Divergence::ThreadIndex ||
                        isa<CallExpr>(S)) &&
                       !(writersOf(S) & 1);
      for (int Kind : {int(LastBlockHazard::NoFence),
                       int(LastBlockHazard::NoBarrier)}) {
        if (Kind == LastBlockHazard::NoBarrier && !ManyStore)
          continue;
        llvm::SmallVector<const CallExpr *, 2> Reached;
        Cfg.walkForward(
            *Point,
            [&](const Stmt *Next, CfgPoint) {
              if (TicketSet.count(Next)) {
                Reached.push_back(cast<CallExpr>(Next));
                return true;
              }
              return Kind == LastBlockHazard::NoFence
                         ? mayFence(Next, 0)
                         : Barriers.endsInterval(Next);
            },
            [](const Stmt *) { return false; });
        for (const CallExpr *Ticket : Reached) {
          if (Kind == LastBlockHazard::NoBarrier && !(writersOf(Ticket) & 1))
            continue;
          // The counter is not the buffer of partials.
          const Expr *Counter = Ticket->getArg(0)->IgnoreParenImpCasts();
          if (const auto *AO = dyn_cast<UnaryOperator>(Counter);
              AO && AO->getOpcode() == UO_AddrOf)
            if (std::optional<Element> C = elementOf(AO->getSubExpr());
                C && C->Base == Base)
              continue;
          if (bufferOf(Counter) == Base)
            continue;
          if (!Reported.insert({Ticket, Kind}).second)
            continue;
          LastBlockHazard H;
          H.What = LastBlockHazard::Kind(Kind);
          H.Ticket = Ticket;
          H.Store = S;
          H.Read = LastReads.lookup(Base);
          H.Base = Base;
          Out.push_back(H);
        }
      }
    }
  }
}

void KernelRaces::run(std::vector<LostUpdate> &Out) {
  bool Scanned = false;
  llvm::DenseSet<const Stmt *> Seen;
  for (const CFGBlock *B : Cfg.graph()) {
    if (!Cfg.isReachable(B))
      continue;
    for (const CFGElement &E : *B) {
      const auto *S = dyn_cast_or_null<Expr>(FunctionCfg::stmtOf(E));
      if (!S || !Seen.insert(S).second)
        continue;
      const Expr *LHS = nullptr;
      if (const auto *UO = dyn_cast<UnaryOperator>(S);
          UO && UO->isIncrementDecrementOp())
        LHS = UO->getSubExpr();
      else if (const auto *BO = dyn_cast<BinaryOperator>(S);
               BO && BO->isAssignmentOp())
        LHS = BO->getLHS();
      if (!LHS || !elementOf(LHS))
        continue;
      if (!Scanned) {
        scanKernel();
        Scanned = true;
        if (OneBlock && OneThreadPerBlock)
          return;
      }
      consider(S, LHS, Out);
    }
  }
}

} // namespace

bool GlobalMemoryRaces::isUncalledHelper(const FunctionDecl &FD) {
  return FD.hasAttr<CUDADeviceAttr>() && !FD.hasAttr<CUDAGlobalAttr>() &&
         !FD.isDependentContext() &&
         !TranslationUnitAnalyses::get(FD.getASTContext())
              .hasKnownCallers(&FD);
}

bool GlobalMemoryRaces::usedBesideTickets(const VarDecl *VD) {
  if (!UsedBesideTickets) {
    // Every reference of a '__device__' variable, less those that are the
    // '&v' of a ticket atomic. A reset by a kernel, a helper, the host
    // ('cudaMemcpyToSymbol(v, ...)', 'cudaGetSymbolAddress(&p, v)') or any
    // other read or write is such a use.
    struct Uses : RecursiveASTVisitor<Uses> {
      llvm::DenseSet<const DeclRefExpr *> Tickets;
      llvm::SmallVector<const DeclRefExpr *, 16> All;
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool VisitCallExpr(CallExpr *Call) {
        if (CudaApiModel::returnsTicket(Call))
          if (const DeclRefExpr *DRE = tickedReference(Call))
            Tickets.insert(DRE);
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
            V && V->hasGlobalStorage() && V->hasAttr<CUDADeviceAttr>())
          All.push_back(DRE);
        return true;
      }
    } U;
    U.TraverseDecl(VD->getASTContext().getTranslationUnitDecl());
    UsedBesideTickets.emplace();
    for (const DeclRefExpr *DRE : U.All)
      if (!U.Tickets.count(DRE))
        UsedBesideTickets->insert(
            cast<VarDecl>(DRE->getDecl())->getCanonicalDecl());
  }
  return UsedBesideTickets->count(VD->getCanonicalDecl());
}

std::vector<LastBlockHazard>
GlobalMemoryRaces::lastBlockHazardsIn(const FunctionDecl &Kernel,
                                      const FunctionCfg &Cfg) {
  std::vector<LastBlockHazard> Out;
  if (!Kernel.hasAttr<CUDAGlobalAttr>() || !Kernel.getBody())
    return Out;
  KernelRaces(Kernel, Cfg, TI).runLastBlock(Out);
  llvm::erase_if(Out, [&](const LastBlockHazard &H) {
    return H.What == LastBlockHazard::NoReset &&
           usedBesideTickets(cast<VarDecl>(H.Base));
  });
  const SourceManager &SM = Kernel.getASTContext().getSourceManager();
  llvm::stable_sort(Out, [&](const LastBlockHazard &A,
                             const LastBlockHazard &B) {
    return SM.isBeforeInTranslationUnit(A.Ticket->getBeginLoc(),
                                        B.Ticket->getBeginLoc());
  });
  return Out;
}

std::vector<LostUpdate>
GlobalMemoryRaces::lostUpdatesIn(const FunctionDecl &Kernel,
                                 const FunctionCfg &Cfg) {
  std::vector<LostUpdate> Out;
  // A kernel, or a __device__ helper that nothing in the unit calls (a
  // header's): what it does whatever its caller passes.
  if (!Kernel.getBody() ||
      !(Kernel.hasAttr<CUDAGlobalAttr>() || isUncalledHelper(Kernel)))
    return Out;
  KernelRaces(Kernel, Cfg, TI).run(Out);
  // CFG order is by block; show the findings in source order.
  llvm::stable_sort(Out, [&](const LostUpdate &A, const LostUpdate &B) {
    return Kernel.getASTContext().getSourceManager().isBeforeInTranslationUnit(
        A.Target->getBeginLoc(), B.Target->getBeginLoc());
  });
  return Out;
}

} // namespace clang::tidy::cuda
