//===- ContextStack.cpp ---------------------------------------------------===//

#include "ContextStack.h"
#include "BranchCorrelation.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

namespace clang::tidy::cuda {

namespace {

/// The variable an argument names: `ctx`, or `&ctx` for an out-parameter.
const VarDecl *variableOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

bool isNullPointer(const Expr *E, ASTContext &Ctx) {
  return E && E->IgnoreParenImpCasts()->isNullPointerConstant(
                  Ctx, Expr::NPC_ValueDependentIsNotNull);
}

/// The CUDA_CONTEXT_STACK rows, by function name.
const llvm::StringMap<ContextStackInfo> &contextRows() {
  static const llvm::StringMap<ContextStackInfo> Rows = [] {
    llvm::StringMap<ContextStackInfo> R;
#define CUDA_CONTEXT_STACK(N, L, Action, Ctx, Dev)                             \
  R[#N] = ContextStackInfo{ContextAction::Action, Ctx, Dev};
#include "CudaApiModel.def"
    return R;
  }();
  return Rows;
}

const ContextStackInfo *contextRow(const CallExpr *Call) {
  return contextStackRow(Call);
}

/// The same-TU function a call, construction or destructor runs, when its
/// body can be read.
const FunctionDecl *readableBody(const FunctionDecl *Callee,
                                 const ArchConditionals &Arch) {
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def)
    return nullptr;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (!isAnalysableFunction(Def, SM) || !isSeenWhole(Def, SM, Arch))
    return nullptr;
  return Def;
}

/// Whether \p Callee, a function of the program whose body this
/// translation unit does not have, may push or pop contexts: its name says
/// it manages them (`ctx_primary_push`, `make_context_current`,
/// `pop_device`). Library functions (system headers) do not.
bool mayManageContexts(const FunctionDecl *Callee) {
  if (!Callee || !Callee->getIdentifier())
    return false;
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    return false;
  std::string Name = Callee->getName().lower();
  for (const char *Word : {"ctx", "context", "push", "pop", "current"})
    if (Name.find(Word) != std::string::npos)
      return true;
  return false;
}

/// One push (or create) or retain that this function made.
struct Entry {
  const Expr *Call = nullptr;
  const VarDecl *Var = nullptr;    ///< The context (device, for a retain).
  const VarDecl *Status = nullptr; ///< The local holding the call's result.
  bool operator==(const Entry &O) const {
    return Call == O.Call && Var == O.Var && Status == O.Status;
  }
};

struct State {
  llvm::SmallVector<Entry, 4> Stack;
  llvm::SmallVector<Entry, 4> Retained;
  /// The pushes and retains undone on this path, in order.
  llvm::SmallVector<const Expr *, 4> Popped, Released;
  /// Pops and releases past what this function pushed or retained (a
  /// helper undoing its caller's work).
  int PopsBelow = 0, ReleasesBelow = 0;
  /// The path called a function of the program whose body is elsewhere and
  /// whose name says it may manage contexts: what the stack holds is
  /// unknown from there.
  bool Opaque = false;
  BranchHistory History;
  /// Locals known to be zero (true) or not (false) on this path, from the
  /// branches taken since their last store: what a function returns.
  llvm::SmallVector<std::pair<const VarDecl *, bool>, 2> Zero;

  bool operator==(const State &O) const {
    return Stack == O.Stack && Retained == O.Retained && Popped == O.Popped &&
           Released == O.Released && PopsBelow == O.PopsBelow &&
           ReleasesBelow == O.ReleasesBelow && Opaque == O.Opaque &&
           History == O.History &&
           Zero == O.Zero;
  }
  size_t hash() const {
    llvm::hash_code H = llvm::hash_combine(PopsBelow, ReleasesBelow, Opaque,
                                           History.hash());
    for (const Entry &E : Stack)
      H = llvm::hash_combine(H, E.Call, E.Var, E.Status);
    H = llvm::hash_combine(H, 7);
    for (const Entry &E : Retained)
      H = llvm::hash_combine(H, E.Call, E.Var, E.Status);
    for (const Expr *E : Popped)
      H = llvm::hash_combine(H, E);
    H = llvm::hash_combine(H, 11);
    for (const Expr *E : Released)
      H = llvm::hash_combine(H, E);
    for (const auto &[V, Z] : Zero)
      H = llvm::hash_combine(H, V, Z);
    return H;
  }
};

} // namespace

const ContextStackInfo *contextStackRow(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return nullptr;
  // The driver's own functions: extern "C", or declared at global scope.
  if (!FD->isExternC() &&
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return nullptr;
  const auto &Rows = contextRows();
  auto It = Rows.find(FD->getName());
  return It == Rows.end() ? nullptr : &It->second;
}

/// One walk of one function's paths (the findings, or a summary).
struct ContextStackAnalysis::Walk {
  ContextStackAnalysis &A;
  const FunctionCfg &Cfg;
  ASTContext &Ctx;
  bool Unknown = false;

  // What the paths say, per call.
  struct Arrivals {
    const Expr *WithOwn = nullptr; ///< A push or retain on the stack there.
    bool WithoutOwn = false;
  };
  llvm::DenseMap<const Expr *, Arrivals> PopArrivals, ReleaseArrivals;
  llvm::DenseSet<const Expr *> UndoneAtExit;
  llvm::SmallVector<std::pair<const Expr *, const Stmt *>, 4> PushedAtExit;
  std::vector<ContextStackFinding> Found;
  llvm::DenseSet<const Stmt *> Reported;
  /// The net effect at each exit, and whether the exit returns zero (1),
  /// something else (0), or an unknown value (-1).
  llvm::SmallVector<std::pair<Summary, int>, 4> Nets;

  Walk(ContextStackAnalysis &A, const FunctionCfg &Cfg)
      : A(A), Cfg(Cfg), Ctx(A.Ctx) {}

  void report(ContextStackFinding::Kind K, const Stmt *Where,
              const Expr *Origin, const VarDecl *Var) {
    if (Reported.insert(Where).second)
      Found.push_back({K, Where, Origin, Var});
  }

  void pop(State &S, const Expr *Call, bool Direct) {
    if (!S.Stack.empty()) {
      if (Direct && !PopArrivals[Call].WithOwn)
        PopArrivals[Call].WithOwn = S.Stack.back().Call;
      S.Popped.push_back(S.Stack.back().Call);
      S.Stack.pop_back();
      return;
    }
    if (Direct && !S.Opaque) {
      // Everything this function pushed on this path is gone already.
      if (!S.Popped.empty())
        report(ContextStackFinding::PoppedTwice, Call, S.Popped.back(),
               nullptr);
      else
        PopArrivals[Call].WithoutOwn = true;
    }
    ++S.PopsBelow;
  }

  void release(State &S, const Expr *Call, const VarDecl *Device,
               bool Direct) {
    for (size_t I = S.Retained.size(); I-- > 0;) {
      const Entry &E = S.Retained[I];
      if (E.Var && Device && E.Var != Device)
        continue;
      if (Direct && !ReleaseArrivals[Call].WithOwn)
        ReleaseArrivals[Call].WithOwn = E.Call;
      S.Released.push_back(E.Call);
      S.Retained.erase(S.Retained.begin() + I);
      return;
    }
    if (Direct && !S.Opaque) {
      const Expr *Before = nullptr;
      for (const Expr *R : S.Released)
        Before = R;
      if (Before)
        report(ContextStackFinding::ReleasedTwice, Call, Before, Device);
      else
        ReleaseArrivals[Call].WithoutOwn = true;
    }
    ++S.ReleasesBelow;
  }

  /// Applies the net effect of a same-TU function run at \p Site.
  void applySummary(State &S, const FunctionDecl *Callee, const Expr *Site) {
    const FunctionDecl *Def = readableBody(Callee, A.Arch);
    if (!Def) {
      if (mayManageContexts(Callee))
        S.Opaque = true;
      return;
    }
    if (!A.touchesContexts(Def))
      return;
    std::optional<Summary> Sum = A.summary(Def);
    if (!Sum || !Site) {
      Unknown = true;
      return;
    }
    // The effect of a summary that holds only on success is undone, as a
    // failed push's, on the branch that tests its result for failure.
    for (int I = 0; I < Sum->Pushes; ++I)
      S.Stack.push_back({Site, nullptr, nullptr});
    for (int I = 0; I > Sum->Pushes; --I)
      pop(S, Site, /*Direct=*/false);
    for (int I = 0; I < Sum->Retains; ++I)
      S.Retained.push_back({Site, nullptr, nullptr});
    for (int I = 0; I > Sum->Retains; --I)
      release(S, Site, nullptr, /*Direct=*/false);
  }

  void apiCall(State &S, const CallExpr *Call, const ContextStackInfo &Row) {
    const Expr *CtxArg = CudaApiModel::argument(Call, Row.ContextArg);
    const VarDecl *Device =
        variableOf(CudaApiModel::argument(Call, Row.DeviceArg));
    switch (Row.Action) {
    case ContextAction::Push:
      S.Stack.push_back({Call, variableOf(CtxArg), nullptr});
      return;
    case ContextAction::Create:
      S.Stack.push_back({Call, variableOf(CtxArg), nullptr});
      return;
    case ContextAction::Pop:
      pop(S, Call, /*Direct=*/true);
      return;
    case ContextAction::SetCurrent:
      // NULL pops the top; a context replaces it. Beneath this function's
      // own pushes, it acts on the caller's stack: nothing to follow.
      if (S.Stack.empty())
        return;
      if (isNullPointer(CtxArg, Ctx))
        pop(S, Call, /*Direct=*/false);
      else
        S.Stack.back().Var = variableOf(CtxArg);
      return;
    case ContextAction::Destroy: {
      const VarDecl *V = variableOf(CtxArg);
      if (!V || S.Stack.empty())
        return;
      // The driver pops a destroyed context that is current.
      if (S.Stack.back().Var == V) {
        S.Popped.push_back(S.Stack.back().Call);
        S.Stack.pop_back();
        return;
      }
      for (size_t I = 0; I + 1 < S.Stack.size(); ++I)
        if (S.Stack[I].Var == V) {
          report(ContextStackFinding::DestroyedOnStack, Call,
                 S.Stack[I].Call, V);
          S.Stack.erase(S.Stack.begin() + I);
          return;
        }
      return;
    }
    case ContextAction::Retain:
      S.Retained.push_back({Call, Device, nullptr});
      return;
    case ContextAction::Release:
      release(S, Call, Device, /*Direct=*/true);
      return;
    }
  }

  /// The local that \p S stores a tracked call's result into becomes its
  /// status; another store to a status variable ends it.
  void noteStores(State &St, const Stmt *S) {
    const VarDecl *Target = variableStoredBy(S);
    if (!Target)
      return;
    const Expr *Value = nullptr;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      if (DS->isSingleDecl())
        if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()))
          Value = VD->getInit();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
               BO && BO->getOpcode() == BO_Assign) {
      Value = BO->getRHS();
    }
    if (Value)
      Value = Value->IgnoreParenImpCasts();
    St.History.forget(Target);
    llvm::erase_if(St.Zero, [&](const auto &E) { return E.first == Target; });
    for (llvm::SmallVector<Entry, 4> *List : {&St.Stack, &St.Retained})
      for (Entry &E : *List) {
        if (E.Status == Target)
          E.Status = nullptr;
        if (Value && holds(Value, E.Call))
          E.Status = Target;
      }
  }

  /// Whether \p E is the status of \p En: the call itself, a wrapper of
  /// its result (`check(cuCtxPushCurrent(c))`, a macro's statement
  /// expression), or the variable that holds either.
  static bool isStatusOf(const Expr *E, const Entry &En) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return En.Status && DRE->getDecl() == En.Status;
    return holds(E, En.Call);
  }

  /// Whether \p Call is \p S or one of its sub-expressions.
  static bool holds(const Stmt *S, const Expr *Call) {
    if (!S)
      return false;
    if (S == Call)
      return true;
    for (const Stmt *Child : S->children())
      if (holds(Child, Call))
        return true;
    return false;
  }

  bool isZero(const Expr *E) {
    if (E->isValueDependent())
      return false;
    Expr::EvalResult R;
    return E->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
  }

  /// The successor index of \p Cond's branch on which \p En failed (and so
  /// pushed or retained nothing), or -1.
  int failureSuccessor(const Expr *Cond, const Entry &En) {
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
      if (BO->getOpcode() != BO_NE && BO->getOpcode() != BO_EQ)
        return -1;
      bool Tested = (isStatusOf(BO->getLHS(), En) && isZero(BO->getRHS())) ||
                    (isStatusOf(BO->getRHS(), En) && isZero(BO->getLHS()));
      if (!Tested)
        return -1;
      return BO->getOpcode() == BO_NE ? 0 : 1;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
        UO && UO->getOpcode() == UO_LNot)
      return isStatusOf(UO->getSubExpr(), En) ? 1 : -1;
    return isStatusOf(Cond, En) ? 0 : -1;
  }

  /// The pointer variable that edge \p Succ of a branch on \p Cond finds
  /// null (`if (ctx)`, `if (!ctx)`, `ctx == NULL`, `ctx != nullptr`).
  const VarDecl *nullTestedOn(const Expr *Cond, unsigned Succ) {
    Cond = Cond->IgnoreParenImpCasts();
    const Expr *Tested = Cond;
    bool NullOnTrue = false;
    if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
        UO && UO->getOpcode() == UO_LNot) {
      Tested = UO->getSubExpr();
      NullOnTrue = true;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
               BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
      if (isNullPointer(BO->getRHS(), Ctx))
        Tested = BO->getLHS();
      else if (isNullPointer(BO->getLHS(), Ctx))
        Tested = BO->getRHS();
      else
        return nullptr;
      NullOnTrue = BO->getOpcode() == BO_EQ;
    }
    Tested = Tested->IgnoreParenImpCasts();
    if (!Tested->getType()->isPointerType())
      return nullptr;
    const auto *DRE = dyn_cast<DeclRefExpr>(Tested);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || (Succ == 0) != NullOnTrue)
      return nullptr;
    return VD;
  }

  /// Drops the pushes and retains that failed on edge \p Succ of \p B.
  void pruneFailures(State &S, const CFGBlock *B, unsigned Succ) {
    const Stmt *T = B->getTerminatorStmt();
    if (!T || B->succ_size() != 2)
      return;
    const Expr *Cond = B->getLastCondition();
    if (!Cond)
      return;
    for (llvm::SmallVector<Entry, 4> *List : {&S.Stack, &S.Retained})
      for (size_t I = List->size(); I-- > 0;)
        if (failureSuccessor(Cond, (*List)[I]) == int(Succ))
          List->erase(List->begin() + I);
    // A context variable tested for null: on the null edge, nothing was
    // created or pushed into it.
    if (const VarDecl *Null = nullTestedOn(Cond, Succ))
      for (llvm::SmallVector<Entry, 4> *List : {&S.Stack, &S.Retained})
        llvm::erase_if(*List, [&](const Entry &E) { return E.Var == Null; });
    // What the edge says about a local being zero.
    const Expr *C = Cond->IgnoreParenImpCasts();
    bool ZeroOnTrue = false;
    const Expr *Tested = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(C);
        BO && (BO->getOpcode() == BO_NE || BO->getOpcode() == BO_EQ)) {
      if (isZero(BO->getRHS()))
        Tested = BO->getLHS();
      else if (isZero(BO->getLHS()))
        Tested = BO->getRHS();
      ZeroOnTrue = BO->getOpcode() == BO_EQ;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(C);
               UO && UO->getOpcode() == UO_LNot) {
      Tested = UO->getSubExpr();
      ZeroOnTrue = true;
    } else {
      Tested = C;
    }
    const auto *DRE =
        Tested ? dyn_cast<DeclRefExpr>(Tested->IgnoreParenImpCasts()) : nullptr;
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage())
      return;
    bool IsZero = (Succ == 0) == ZeroOnTrue;
    for (auto &[V, Z] : S.Zero)
      if (V == VD) {
        Z = IsZero;
        return;
      }
    S.Zero.push_back({VD, IsZero});
  }

  /// Applies one CFG element; false ends the path (noreturn, throw).
  bool step(State &S, const CFGElement &E, const Stmt *&LastReturn) {
    if (auto D = E.getAs<CFGAutomaticObjDtor>()) {
      applySummary(S, D->getDestructorDecl(Ctx), nullptr);
      return true;
    }
    if (auto D = E.getAs<CFGTemporaryDtor>()) {
      applySummary(S, D->getDestructorDecl(Ctx), nullptr);
      return true;
    }
    const Stmt *St = FunctionCfg::stmtOf(E);
    if (!St)
      return true;
    if (isa<CXXThrowExpr>(St))
      return false;
    if (const auto *RS = dyn_cast<ReturnStmt>(St))
      LastReturn = RS;
    if (const auto *Call = dyn_cast<CallExpr>(St)) {
      if (const ContextStackInfo *Row = contextRow(Call))
        apiCall(S, Call, *Row);
      else if (!isa<CUDAKernelCallExpr>(Call))
        applySummary(S, Call->getDirectCallee(), Call);
    } else if (const auto *CE = dyn_cast<CXXConstructExpr>(St)) {
      applySummary(S, CE->getConstructor(), CE);
    }
    noteStores(S, St);
    return true;
  }

  void atExit(const State &S, const Stmt *LastReturn) {
    for (const Expr *P : S.Popped)
      UndoneAtExit.insert(P);
    if (!S.Opaque)
      for (const Entry &E : S.Stack)
        PushedAtExit.push_back({E.Call, LastReturn});
    Summary N{int(S.Stack.size()) - S.PopsBelow,
              int(S.Retained.size()) - S.ReleasesBelow};
    int Returns = -1;
    if (const auto *RS = dyn_cast_or_null<ReturnStmt>(LastReturn))
      if (const Expr *V = RS->getRetValue()) {
        V = V->IgnoreParenImpCasts();
        if (!V->isValueDependent()) {
          Expr::EvalResult R;
          if (V->EvaluateAsInt(R, Ctx))
            Returns = R.Val.getInt() == 0;
        }
        if (const auto *DRE = dyn_cast<DeclRefExpr>(V))
          for (const auto &[Var, Z] : S.Zero)
            if (Var == DRE->getDecl())
              Returns = Z;
      }
    Nets.push_back({N, Returns});
  }

  /// The summary the exits give, if any (see Summary).
  std::optional<Summary> summaryOfExits() const {
    auto Same = [](const Summary &A, const Summary &B) {
      return A.Pushes == B.Pushes && A.Retains == B.Retains;
    };
    if (Nets.empty())
      return Summary();
    if (llvm::all_of(Nets, [&](const auto &E) {
          return Same(E.first, Nets.front().first);
        }))
      return Nets.front().first;
    // Every exit that returns 0 does the same, and every other exit
    // returns something else and does nothing.
    std::optional<Summary> OnZero;
    for (const auto &[N, Returns] : Nets) {
      if (Returns == 1) {
        if (N.Pushes < 0 || N.Retains < 0 || (OnZero && !Same(*OnZero, N)))
          return std::nullopt;
        OnZero = N;
      } else if (Returns != 0 || N.Pushes != 0 || N.Retains != 0) {
        return std::nullopt;
      }
    }
    if (!OnZero)
      return std::nullopt;
    OnZero->OnSuccess = true;
    return OnZero;
  }

  void run() {
    struct Item {
      const CFGBlock *Block;
      State S;
      const Stmt *LastReturn;
    };
    const CFG &G = Cfg.graph();
    auto IsUnchanging = [&](const VarDecl *V) {
      return !Cfg.hasIndirectUse(V);
    };
    llvm::DenseMap<const CFGBlock *, llvm::DenseSet<size_t>> Seen;
    std::vector<Item> Work;
    Work.push_back({&G.getEntry(), State(), nullptr});
    unsigned Steps = 0;
    while (!Work.empty()) {
      if (++Steps > 20000) {
        Unknown = true;
        return;
      }
      Item It = std::move(Work.back());
      Work.pop_back();
      const CFGBlock *B = It.Block;
      if (B == &G.getExit()) {
        atExit(It.S, It.LastReturn);
        continue;
      }
      if (B->hasNoReturnElement())
        continue;
      bool Alive = true;
      for (const CFGElement &E : *B)
        if (!(Alive = step(It.S, E, It.LastReturn)) || Unknown)
          break;
      if (Unknown)
        return;
      if (!Alive)
        continue;
      if (It.S.Stack.size() > 8 || It.S.Retained.size() > 8) {
        Unknown = true; // Pushes in a loop: not followed.
        return;
      }
      unsigned Index = 0;
      for (const CFGBlock *Succ : B->succs()) {
        unsigned SuccIndex = Index++;
        if (!Succ)
          continue;
        State Next = It.S;
        pruneFailures(Next, B, SuccIndex);
        if (auto EF = edgeFact(B, SuccIndex, Ctx, IsUnchanging))
          if (!Next.History.add(*EF))
            continue; // Contradicts a branch taken before.
        // Paths into the exit differ by where they leave, too.
        size_t Key = Next.hash();
        if (Succ == &G.getExit())
          Key = llvm::hash_combine(Key, It.LastReturn);
        auto &States = Seen[Succ];
        if (!States.insert(Key).second)
          continue;
        if (States.size() > 64) {
          Unknown = true;
          return;
        }
        Work.push_back({Succ, std::move(Next), It.LastReturn});
      }
    }
  }

  void collect() {
    for (const auto &[Call, Arr] : PopArrivals)
      if (Arr.WithOwn && Arr.WithoutOwn)
        report(ContextStackFinding::PoppedUnpushed, Call, Arr.WithOwn,
               nullptr);
    for (const auto &[Call, Arr] : ReleaseArrivals)
      if (Arr.WithOwn && Arr.WithoutOwn)
        report(ContextStackFinding::ReleasedUnretained, Call, Arr.WithOwn,
               nullptr);
    // One finding per push, at the first exit in the source that leaves it
    // on the stack (the end of the body is its closing brace).
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::DenseMap<const Expr *, const Stmt *> FirstExit;
    for (const auto &[Push, Exit] : PushedAtExit) {
      if (!UndoneAtExit.contains(Push))
        continue;
      const Stmt *Where = Exit ? Exit : Cfg.function()->getBody();
      auto [It, New] = FirstExit.try_emplace(Push, Where);
      if (!New && isa<ReturnStmt>(Where) &&
          (!isa<ReturnStmt>(It->second) ||
           SM.isBeforeInTranslationUnit(Where->getBeginLoc(),
                                        It->second->getBeginLoc())))
        It->second = Where;
    }
    for (const auto &[Push, Where] : FirstExit)
      report(ContextStackFinding::LeftPushed, Where, Push, nullptr);
  }
};

bool ContextStackAnalysis::touchesContexts(const FunctionDecl *FD) {
  if (auto It = Touches.find(FD); It != Touches.end())
    return It->second;
  Touches[FD] = false; // Recursion: no.
  struct Finder : RecursiveASTVisitor<Finder> {
    ContextStackAnalysis &A;
    bool Found = false;
    explicit Finder(ContextStackAnalysis &A) : A(A) {}
    bool follow(const FunctionDecl *Callee) {
      if (const FunctionDecl *Def = readableBody(Callee, A.Arch))
        Found |= A.touchesContexts(Def);
      return !Found;
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (contextRow(Call)) {
        Found = true;
        return false;
      }
      return follow(Call->getDirectCallee());
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
      if (!follow(CE->getConstructor()))
        return false;
      if (const CXXRecordDecl *RD = CE->getType()->getAsCXXRecordDecl())
        return follow(RD->getDestructor());
      return true;
    }
  } F(*this);
  F.TraverseStmt(FD->getBody());
  Touches[FD] = F.Found;
  return F.Found;
}

std::optional<ContextStackAnalysis::Summary>
ContextStackAnalysis::summary(const FunctionDecl *FD) {
  if (auto It = Summaries.find(FD); It != Summaries.end())
    return It->second;
  Summaries[FD] = std::nullopt; // Recursion: unknown.
  std::optional<Summary> Result;
  if (std::shared_ptr<const FunctionCfg> Cfg =
          TranslationUnitAnalyses::get(Ctx).sharedCfgOf(FD)) {
    Walk W(*this, *Cfg);
    W.run();
    if (!W.Unknown)
      Result = W.summaryOfExits();
  }
  Summaries[FD] = Result;
  return Result;
}

std::vector<ContextStackFinding>
ContextStackAnalysis::analyse(const FunctionDecl &FD, const FunctionCfg &Cfg) {
  if (!touchesContexts(&FD))
    return {};
  Walk W(*this, Cfg);
  W.run();
  if (W.Unknown)
    return {};
  W.collect();
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(W.Found, [&](const ContextStackFinding &L,
                          const ContextStackFinding &R) {
    return SM.isBeforeInTranslationUnit(L.Where->getBeginLoc(),
                                        R.Where->getBeginLoc());
  });
  return std::move(W.Found);
}

} // namespace clang::tidy::cuda
