//===- ThreadIndexTransfer.cpp - Bounds on paths --------------------------===//
//
// Part of the thread-index analysis (ThreadIndexAnalysis.h);
// ThreadIndexInternal.h names the parts.
//
//===----------------------------------------------------------------------===//

#include "ThreadIndexInternal.h"
#include "CudaApiModel.h"
#include "VariableStores.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/OperatorPrecedence.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>

namespace clang::tidy::cuda {

using namespace tia;

//===-- Keys and linear forms ---------------------------------------------===//

namespace {

class Keys {
public:
  using Subst = ThreadIndexAnalysis::Subst;
  Keys(const ASTContext &Ctx, llvm::SmallVectorImpl<const VarDecl *> *Vars)
      : Ctx(Ctx), Vars(Vars) {}

  static const Expr *substituted(const Expr *E, const Subst *&S) {
    while (S) {
      const auto *DRE = dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(E));
      const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      if (!P || P->getDeclContext() != S->Callee ||
          P->getFunctionScopeIndex() >= S->Args.size())
        return E;
      E = S->Args[P->getFunctionScopeIndex()];
      S = S->Outer;
    }
    return E;
  }

  std::string keyOf(const Expr *E, const Subst *S) {
    E = ThreadIndexAnalysis::strip(substituted(E, S));
    if (!E)
      return "?";
    // Past this depth the expression's key is unknown: its own identity,
    // equal to no other key.
    if (Depth >= MaxDepth)
      return "?" + llvm::utohexstr(reinterpret_cast<uintptr_t>(E));
    DepthScope Deeper(Depth);
    if (auto V = constantOf(E, Ctx))
      return "#" + llvm::itostr(*V);
    ThreadSource Src;
    unsigned Dim;
    if (ThreadIndexAnalysis::isThreadQuery(E, Src, Dim))
      return "q" + llvm::utostr(Src) + "." + llvm::utostr(Dim);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (Vars)
          Vars->push_back(VD);
      return "v" + llvm::utohexstr(reinterpret_cast<uintptr_t>(
                       DRE->getDecl()->getCanonicalDecl()));
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      switch (BO->getOpcode()) {
      case BO_Add:
      case BO_Sub:
      case BO_Mul:
      case BO_Shl: {
        // A term that build() cannot split further (x << n) comes back here
        // as a factor: it is keyed by its operands, not built again.
        if (!Building.insert({E, S}).second)
          return "(" + keyOf(BO->getLHS(), S) + BO->getOpcodeStr().str() +
                 keyOf(BO->getRHS(), S) + ")";
        LinearForm LF;
        build(E, 1, {}, S, LF);
        Building.erase({E, S});
        return "L(" + LF.key() + "#" + llvm::itostr(LF.Const) + ")";
      }
      default:
        return "(" + keyOf(BO->getLHS(), S) + BO->getOpcodeStr().str() +
               keyOf(BO->getRHS(), S) + ")";
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UnaryOperator::getOpcodeStr(UO->getOpcode()).str() +
             keyOf(UO->getSubExpr(), S);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      std::string K = "c";
      if (const FunctionDecl *FD = Call->getDirectCallee())
        K += llvm::utohexstr(
            reinterpret_cast<uintptr_t>(FD->getCanonicalDecl()));
      else
        K += "?" + llvm::utohexstr(reinterpret_cast<uintptr_t>(Call));
      K += "(";
      for (const Expr *A : Call->arguments())
        K += keyOf(A, S) + ",";
      return K + ")";
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return keyOf(ME->getBase(), S) + "." +
             ME->getMemberDecl()->getNameAsString();
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return "(" + keyOf(CO->getCond(), S) + "?" + keyOf(CO->getTrueExpr(), S) +
             ":" + keyOf(CO->getFalseExpr(), S) + ")";
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return keyOf(AS->getBase(), S) + "[" + keyOf(AS->getIdx(), S) + "]";
    return "?" + llvm::utohexstr(reinterpret_cast<uintptr_t>(E));
  }

  void factors(const Expr *E, const Subst *S,
               llvm::SmallVectorImpl<std::pair<const Expr *, const Subst *>>
                   &Out) {
    E = ThreadIndexAnalysis::strip(substituted(E, S));
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      if (BO->getOpcode() == BO_Mul) {
        factors(BO->getLHS(), S, Out);
        factors(BO->getRHS(), S, Out);
        return;
      }
    Out.push_back({E, S});
  }

  using FactorList =
      llvm::SmallVector<std::pair<const Expr *, const Subst *>, 2>;

  void build(const Expr *E, int64_t Coeff, FactorList Mult, const Subst *S,
             LinearForm &LF, const Expr *Origin = nullptr,
             int64_t OriginCoeff = 0) {
    E = ThreadIndexAnalysis::strip(substituted(E, S));
    if (!E)
      return;
    const Expr *Here = Origin ? Origin : E;
    // The coefficient the origin is multiplied by in the whole form: the
    // term is minus its origin when it is negative ('a - 2 * x').
    int64_t HereCoeff = Origin ? OriginCoeff : Coeff;
    OriginSign = HereCoeff < 0;
    if (Depth >= MaxDepth) { // Too deep to split: one opaque term.
      FactorList M = Mult;
      M.push_back({E, S});
      addTerm(M, Coeff, LF, Here);
      return;
    }
    DepthScope Deeper(Depth);
    if (auto V = constantOf(E, Ctx)) {
      if (Mult.empty())
        LF.Const += Coeff * *V;
      else
        addTerm(Mult, Coeff * *V, LF, Here);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      const Expr *L = BO->getLHS(), *R = BO->getRHS();
      switch (BO->getOpcode()) {
      case BO_Add:
        build(L, Coeff, Mult, S, LF);
        build(R, Coeff, Mult, S, LF);
        return;
      case BO_Sub:
        build(L, Coeff, Mult, S, LF);
        build(R, -Coeff, Mult, S, LF);
        return;
      case BO_Mul: {
        if (auto V = constantOf(L, Ctx)) {
          build(R, Coeff * *V, Mult, S, LF, Here, HereCoeff);
          return;
        }
        if (auto V = constantOf(R, Ctx)) {
          build(L, Coeff * *V, Mult, S, LF, Here, HereCoeff);
          return;
        }
        // A sum times a stride, (z * ny + y) * nx, stays one factor: the
        // sum is the coordinate of an outer dimension.
        FactorList M = Mult;
        factors(L, S, M);
        factors(R, S, M);
        addTerm(M, Coeff, LF, Here);
        return;
      }
      case BO_Shl:
        if (auto V = constantOf(R, Ctx); V && *V >= 0 && *V < 31) {
          build(L, Coeff * (int64_t(1) << *V), Mult, S, LF, Here,
                HereCoeff);
          return;
        }
        break;
      default:
        break;
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_Minus) {
        build(UO->getSubExpr(), -Coeff, Mult, S, LF, Here, HereCoeff);
        return;
      }
    if (auto P = indexProduct(E)) {
      if (auto V = constantOf(P->first, Ctx)) {
        build(P->second, Coeff * *V, Mult, S, LF, Here, HereCoeff);
        return;
      }
      if (auto V = constantOf(P->second, Ctx)) {
        build(P->first, Coeff * *V, Mult, S, LF, Here, HereCoeff);
        return;
      }
      FactorList M = Mult;
      factors(P->first, S, M);
      factors(P->second, S, M);
      addTerm(M, Coeff, LF, Here);
      return;
    }
    FactorList M = Mult;
    M.push_back({E, S});
    addTerm(M, Coeff, LF, Here);
  }

  void addTerm(const FactorList &F, int64_t Coeff, LinearForm &LF,
               const Expr *Origin) {
    llvm::SmallVector<std::string, 2> FK;
    for (auto &[E, S] : F)
      FK.push_back(keyOf(E, S));
    llvm::sort(FK);
    std::string Key = llvm::join(FK, "*");
    for (LinearForm::Term &T : LF.Terms)
      if (T.Key == Key) {
        T.Coeff += Coeff;
        T.Origin = nullptr;
        return;
      }
    LinearForm::Term T;
    for (auto &[E, S] : F)
      T.Factors.push_back(E);
    T.Key = std::move(Key);
    T.Coeff = Coeff;
    T.Origin = Origin;
    T.OriginNegated = OriginSign;
    LF.Terms.push_back(std::move(T));
  }

  LinearForm linear(const Expr *E, const Subst *S) {
    LinearForm LF;
    build(E, 1, {}, S, LF);
    llvm::erase_if(LF.Terms,
                   [](const LinearForm::Term &T) { return T.Coeff == 0; });
    return LF;
  }

private:
  /// Counts one level of keyOf() recursion for as long as it lives.
  struct DepthScope {
    explicit DepthScope(unsigned &D) : D(D) { ++D; }
    ~DepthScope() { --D; }
    unsigned &D;
  };
  static constexpr unsigned MaxDepth = 64;
  unsigned Depth = 0;
  /// Whether the origin of the term being built is subtracted.
  bool OriginSign = false;
  /// The sums and products whose linear form is being built.
  llvm::DenseSet<std::pair<const Expr *, const Subst *>> Building;
  const ASTContext &Ctx;
  llvm::SmallVectorImpl<const VarDecl *> *Vars;
};

} // namespace

std::string LinearForm::key() const {
  llvm::SmallVector<std::string, 4> Parts;
  for (const Term &T : Terms)
    if (T.Coeff != 0)
      Parts.push_back(llvm::itostr(T.Coeff) + "*" + T.Key);
  llvm::sort(Parts);
  return llvm::join(Parts, "+");
}


//===-- Bounds on paths ---------------------------------------------------===//

namespace {

class FactBuilder {
public:
  using Subst = ThreadIndexAnalysis::Subst;
  /// \p Modified, when given, says whether a variable of the analysed
  /// function is ever assigned after its declaration.
  /// \p SameValue, when given, says whether a variable that is assigned
  /// holds at the condition the value it held at a flag's declaration.
  FactBuilder(
      ASTContext &Ctx, std::deque<BoundFact> &Arena, FactList &Out,
      llvm::function_ref<bool(const VarDecl *)> Modified = nullptr,
      llvm::function_ref<bool(const VarDecl *, const VarDecl *)> SameValue =
          nullptr)
      : Ctx(Ctx), Arena(Arena), Out(Out), Modified(Modified),
        SameValue(SameValue) {}

  /// A comparison, a logical operator, a '!', or a bool, possibly
  /// combined with '&' or '|': 0 or 1.
  static bool isTruthValue(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (E->getType()->isBooleanType())
      return true;
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return U->getOpcode() == UO_LNot;
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B)
      return false;
    if (B->isComparisonOp() || B->isLogicalOp())
      return true;
    return (B->getOpcode() == BO_And || B->getOpcode() == BO_Or) &&
           isTruthValue(B->getLHS()) && isTruthValue(B->getRHS());
  }

  /// bool found = false; if (i < n && ...) found = true; ... if (found):
  /// the condition under which a flag that starts false is set, when it is
  /// set once, to true, in the then-branch of an 'if' whose condition reads
  /// only variables never reassigned (so it holds wherever the flag is
  /// true). Null otherwise.
  const Expr *guardOfRaisedFlag(const VarDecl *Flag) {
    const auto *FD = dyn_cast<FunctionDecl>(Flag->getDeclContext());
    const Expr *Init = Flag->getInit();
    bool InitFalse = false;
    if (!FD || !FD->getBody() || !Init ||
        !Init->EvaluateAsBooleanCondition(InitFalse, Ctx) || InitFalse)
      return nullptr;
    VariableStores Stores = VariableStores::of(FD->getBody());
    if (Stores.isAddressTaken(Flag) || Stores.mayBeWrittenByCallee(Flag))
      return nullptr;
    const Expr *Raised = nullptr;
    for (const StoredValue &V : Stores.valuesOf(Flag)) {
      if (V.IsInitializer)
        continue;
      bool True = false;
      if (V.IsCompound || Raised ||
          !V.Value->EvaluateAsBooleanCondition(True, Ctx) || !True)
        return nullptr;
      Raised = V.Value;
    }
    const Expr *Guard = nullptr;
    if (!Raised || !thenConditionOf(FD->getBody(), Raised, Guard) || !Guard)
      return nullptr;
    bool Stable = true;
    struct Reads : RecursiveASTVisitor<Reads> {
      FactBuilder &B;
      bool &Stable;
      Reads(FactBuilder &B, bool &S) : B(B), Stable(S) {}
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
          Stable &= !B.Modified(V);
        return true;
      }
    } Vis(*this, Stable);
    Vis.TraverseStmt(const_cast<Expr *>(Guard));
    return Stable ? Guard : nullptr;
  }

  /// Whether \p Target is inside \p S; \p Cond is then the condition of
  /// the innermost 'if' whose then-branch holds it (null: none).
  static bool thenConditionOf(const Stmt *S, const Stmt *Target,
                              const Expr *&Cond) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (S == Target)
      return true;
    if (const auto *If = dyn_cast<IfStmt>(S);
        If && !If->isConsteval() && !If->getConditionVariable() &&
        thenConditionOf(If->getThen(), Target, Cond)) {
      if (!Cond)
        Cond = If->getCond();
      return true;
    }
    for (const Stmt *Child : S->children())
      if (thenConditionOf(Child, Target, Cond))
        return true;
    return false;
  }

  void derive(const Expr *C, bool Truth, const Subst *S, unsigned Depth = 0) {
    C = ThreadIndexAnalysis::strip(Keys::substituted(C, S));
    if (!C || Depth > 8)
      return;
    if (const auto *Call = dyn_cast<CallExpr>(C)) {
      if (Call->getBuiltinCallee() == Builtin::BI__builtin_expect &&
          Call->getNumArgs() >= 1)
        return derive(Call->getArg(0), Truth, S, Depth + 1);
      const FunctionDecl *Callee = Call->getDirectCallee();
      const FunctionDecl *Def = nullptr;
      if (Callee && Callee->hasBody(Def) &&
          isUserFunction(Def, Ctx.getSourceManager()))
        if (const Expr *Ret = singleReturnOf(Def)) {
          llvm::SmallVector<const Expr *, 4> Args(Call->arguments());
          Substs.push_back(std::make_unique<std::vector<const Expr *>>(
              Args.begin(), Args.end()));
          SubstNodes.push_back(
              std::make_unique<Subst>(Subst{Def, *Substs.back(), S}));
          return derive(Ret, Truth, SubstNodes.back().get(), Depth + 1);
        }
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(C)) {
      if (UO->getOpcode() == UO_LNot)
        derive(UO->getSubExpr(), !Truth, S, Depth + 1);
      return;
    }
    // bool valid = i < n; ... if (valid): the condition is the initializer,
    // when the flag is never reassigned and what it reads holds the same
    // value at the flag and here (never reassigned, or the one store that
    // reaches both: 'int i; i = ...; bool valid = i < n;').
    if (const auto *DRE = dyn_cast<DeclRefExpr>(C)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (Modified && !S && VD && VD->isLocalVarDecl() &&
          VD->getType()->isBooleanType() && VD->hasInit() && !Modified(VD)) {
        bool Stable = true;
        struct Reads : RecursiveASTVisitor<Reads> {
          FactBuilder &B;
          const VarDecl *Flag;
          bool &Stable;
          Reads(FactBuilder &B, const VarDecl *Flag, bool &S)
              : B(B), Flag(Flag), Stable(S) {}
          bool VisitDeclRefExpr(DeclRefExpr *R) {
            if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
              if (B.Modified(V) && !(B.SameValue && B.SameValue(V, Flag)))
                Stable = false;
            return true;
          }
        } Vis(*this, VD, Stable);
        Vis.TraverseStmt(const_cast<Expr *>(VD->getInit()));
        if (Stable)
          derive(VD->getInit(), Truth, S, Depth + 1);
      } else if (Modified && !S && Truth && VD && VD->isLocalVarDecl() &&
                 VD->getType()->isBooleanType()) {
        if (const Expr *Guard = guardOfRaisedFlag(VD))
          derive(Guard, true, S, Depth + 1);
      }
      return;
    }
    const auto *BO = dyn_cast<BinaryOperator>(C);
    if (!BO) {
      return;
    }
    BinaryOperatorKind Op = BO->getOpcode();
    // '(i < n) & (j < m)' and '|' of truth values mean '&&' and '||'.
    if ((Op == BO_And || Op == BO_Or) && isTruthValue(BO->getLHS()) &&
        isTruthValue(BO->getRHS()))
      Op = Op == BO_And ? BO_LAnd : BO_LOr;
    if (Op == BO_LAnd) {
      if (Truth) {
        derive(BO->getLHS(), true, S, Depth + 1);
        derive(BO->getRHS(), true, S, Depth + 1);
      }
      return;
    }
    if (Op == BO_LOr) {
      if (!Truth) {
        derive(BO->getLHS(), false, S, Depth + 1);
        derive(BO->getRHS(), false, S, Depth + 1);
      }
      return;
    }
    if (Op == BO_Rem && !Truth) {
      // !(a % b): a is a multiple of b.
      multiple(BO, S);
      return;
    }
    if (!BO->isComparisonOp())
      return;
    if (!Truth)
      Op = BinaryOperator::negateComparisonOp(Op);
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    switch (Op) {
    case BO_LT:
      less(L, R, 0, BO, S);
      break;
    case BO_LE:
      less(L, R, 1, BO, S);
      break;
    case BO_GT:
      less(R, L, 0, BO, S);
      break;
    case BO_GE:
      less(R, L, 1, BO, S);
      break;
    case BO_EQ:
      less(L, R, 1, BO, S);
      less(R, L, 1, BO, S);
      if (isZero(R, S))
        multiple(L, S);
      else if (isZero(L, S))
        multiple(R, S);
      break;
    case BO_NE:
      // i != n - 1 tightens i < n to i < n - 1.
      less(L, R, 0, BO, S, BoundFact::NotEqual);
      less(R, L, 0, BO, S, BoundFact::NotEqual);
      break;
    default:
      break;
    }
  }

private:
  bool isZero(const Expr *E, const Subst *S) {
    auto V = constantOf(
        ThreadIndexAnalysis::strip(Keys::substituted(E, S)), Ctx);
    return V && *V == 0;
  }

  void multiple(const Expr *E, const Subst *S) {
    const auto *Rem = dyn_cast<BinaryOperator>(
        ThreadIndexAnalysis::strip(Keys::substituted(E, S)));
    if (!Rem || Rem->getOpcode() != BO_Rem)
      return;
    BoundFact F;
    F.K = BoundFact::Multiple;
    llvm::SmallVector<const VarDecl *, 4> Vars;
    Keys K(Ctx, &Vars);
    LinearForm A = K.linear(Rem->getLHS(), S), B = K.linear(Rem->getRHS(), S);
    F.LHSKey = A.key() + "#" + llvm::itostr(A.Const);
    F.RHSKey = B.key() + "#" + llvm::itostr(B.Const);
    F.Guard = Rem;
    F.Bound = Rem->getRHS();
    F.Vars.assign(Vars.begin(), Vars.end());
    Arena.push_back(std::move(F));
    addFact(Out, &Arena.back());
  }

  /// L < R + K (or L != R + K).
  void less(const Expr *L, const Expr *R, int64_t K, const Expr *Guard,
            const Subst *S, BoundFact::Kind Kind = BoundFact::Less) {
    llvm::SmallVector<const VarDecl *, 4> Vars;
    Keys Ks(Ctx, &Vars);
    LinearForm LF = Ks.linear(L, S), RF = Ks.linear(R, S);
    if (LF.Terms.empty())
      return;
    BoundFact F;
    F.K = Kind;
    F.LHSKey = LF.key();
    F.RHSKey = RF.key();
    F.RHSConst = RF.Const + K - LF.Const;
    F.Guard = Guard;
    F.Bound = R;
    F.Vars.assign(Vars.begin(), Vars.end());
    Arena.push_back(std::move(F));
    addFact(Out, &Arena.back());
  }

  ASTContext &Ctx;
  std::deque<BoundFact> &Arena;
  FactList &Out;
  llvm::function_ref<bool(const VarDecl *)> Modified;
  llvm::function_ref<bool(const VarDecl *, const VarDecl *)> SameValue;
  std::vector<std::unique_ptr<std::vector<const Expr *>>> Substs;
  std::vector<std::unique_ptr<Subst>> SubstNodes;
};

} // namespace

void tia::deriveFacts(ASTContext &Ctx, std::deque<BoundFact> &Arena,
                      FactList &Out,
                      llvm::function_ref<bool(const VarDecl *)> Modified,
                      const Expr *Cond, bool Truth) {
  FactBuilder(Ctx, Arena, Out, Modified).derive(Cond, Truth, nullptr);
}


const FactList *ThreadIndexAnalysis::boundsAt(const Stmt *S,
                                              const FunctionDecl *FD) {
  FunctionFacts &F = factsOf(FD);
  if (!F.Solved) {
    F.Solved = true;
    F.Cfg = TranslationUnitAnalyses::get(Ctx).sharedCfgOf(FD);
    if (F.Cfg) {
      const CFG &G = F.Cfg->graph();
      F.BlockKills.resize(G.getNumBlockIDs());
      for (const CFGBlock *B : G) {
        auto &Kills = F.BlockKills[B->getBlockID()];
        unsigned Index = 0;
        for (const CFGElement &E : *B) {
          if (const Stmt *St = FunctionCfg::stmtOf(E)) {
            llvm::SmallVector<const VarDecl *, 2> Killed;
            killedBy(St, Killed);
            for (const VarDecl *V : Killed)
              Kills.push_back({Index, V});
          }
          ++Index;
        }
      }
      llvm::SmallVector<const CFGBlock *, 32> Work;
      F.In[G.getEntry().getBlockID()] = {};
      Work.push_back(&G.getEntry());
      llvm::DenseSet<unsigned> Queued;
      Queued.insert(G.getEntry().getBlockID());
      unsigned Steps = 0;
      while (!Work.empty() && ++Steps < 20000) {
        const CFGBlock *B = Work.pop_back_val();
        Queued.erase(B->getBlockID());
        if (endsThread(*B))
          continue; // Nothing after a noreturn call is reached from here.
        FactList Out = F.In[B->getBlockID()];
        applyKills(Out, F.BlockKills[B->getBlockID()], B->size());
        // Two-way branches only: the first successor is the true edge. A
        // switch with one case also has two successors, but no truth.
        const Expr *Cond =
            B->succ_size() == 2 &&
                    !isa_and_nonnull<SwitchStmt>(B->getTerminatorStmt())
                ? dyn_cast_or_null<Expr>(
                      B->getTerminatorCondition(/*StripParens=*/true))
                : nullptr;
        unsigned Index = 0;
        for (const CFGBlock *Succ : B->succs()) {
          bool Truth = Index++ == 0;
          if (!Succ)
            continue;
          FactList Edge = Out;
          if (Cond) {
            auto Key = std::make_pair(B->getBlockID(), Truth);
            auto It = F.EdgeFacts.find(Key);
            if (It == F.EdgeFacts.end()) {
              FactList Derived;
              const FunctionCfg &Cfg = *F.Cfg;
              FactBuilder(
                  Ctx, F.Arena, Derived,
                  [&](const VarDecl *V) { return F.Modified.count(V) != 0; },
                  [&](const VarDecl *V, const VarDecl *Flag) {
                    const Stmt *FlagDecl =
                        Cfg.parents().getParent(Flag->getInit());
                    const Expr *AtFlag =
                        FlagDecl ? Cfg.uniqueReachingStore(V, FlagDecl)
                                 : nullptr;
                    // The value at the branch: after the block's last
                    // element.
                    const Stmt *Last = nullptr;
                    for (const CFGElement &E : *B)
                      if (const Stmt *St = FunctionCfg::stmtOf(E))
                        Last = St;
                    return AtFlag && Last &&
                           AtFlag == Cfg.uniqueReachingStore(V, Last);
                  })
                  .derive(Cond, Truth, nullptr);
              It = F.EdgeFacts.emplace(Key, std::move(Derived)).first;
            }
            for (const BoundFact *Fa : It->second)
              addFact(Edge, Fa);
          }
          unsigned Id = Succ->getBlockID();
          auto InIt = F.In.find(Id);
          bool Changed;
          if (InIt == F.In.end()) {
            F.In[Id] = std::move(Edge);
            Changed = true;
          } else {
            Changed = intersectInto(InIt->second, Edge);
          }
          if (Changed && Queued.insert(Id).second)
            Work.push_back(Succ);
        }
      }
    }
  }
  if (!F.Cfg)
    return nullptr;
  auto Cached = F.AtCache.find(S);
  if (Cached != F.AtCache.end())
    return &Cached->second;
  std::optional<CfgPoint> P = F.Cfg->pointOf(S);
  if (!P)
    return nullptr;
  auto InIt = F.In.find(P->Block->getBlockID());
  if (InIt == F.In.end())
    return nullptr;
  FactList L = InIt->second;
  applyKills(L, F.BlockKills[P->Block->getBlockID()], P->Index);
  return &(F.AtCache[S] = std::move(L));
}

const BoundFact *ThreadIndexAnalysis::boundOn(const Expr *E, const Stmt *At,
                                              const FunctionDecl *FD) {
  const FactList *Facts = boundsAt(At, FD);
  if (!Facts)
    return nullptr;
  std::string Key = linearOf(E).key();
  if (Key.empty())
    return nullptr;
  for (const BoundFact *F : *Facts)
    if (F->K == BoundFact::Less && F->LHSKey == Key)
      return F;
  return nullptr;
}

std::string ThreadIndexAnalysis::variablePartKey(const Expr *E) {
  return linearOf(E).key();
}

int64_t ThreadIndexAnalysis::constantPart(const Expr *E) {
  return linearOf(E).Const;
}

const LinearForm &ThreadIndexAnalysis::linearOf(const Expr *E) {
  // The form of E is that of E stripped: building it strips first.
  std::unique_ptr<LinearForm> &Slot = LinearForms[strip(E)];
  if (!Slot)
    Slot = std::make_unique<LinearForm>(Keys(Ctx, nullptr).linear(E, nullptr));
  return *Slot;
}

/// Whether a '%' appears in \p S, or in the single returned expression of
/// a function that \p S calls (the fact builder reads conditions through
/// those), to a depth of \p Depth calls.
static bool mentionsRemainder(const Stmt *S, unsigned Depth) {
  struct Finder : RecursiveASTVisitor<Finder> {
    unsigned Depth;
    bool Found = false;
    bool VisitBinaryOperator(BinaryOperator *BO) {
      Found |= BO->getOpcode() == BO_Rem;
      return !Found;
    }
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *Def = nullptr;
      if (Depth && C->getDirectCallee() && C->getDirectCallee()->hasBody(Def))
        if (const Expr *Ret = singleReturnOf(Def))
          Found |= mentionsRemainder(Ret, Depth - 1);
      return !Found;
    }
  } F;
  F.Depth = Depth;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

bool ThreadIndexAnalysis::isKnownMultiple(const Expr *A, const Expr *B,
                                          const Stmt *At,
                                          const FunctionDecl *FD) {
  auto VA = constantOf(strip(A), Ctx), VB = constantOf(strip(B), Ctx);
  if (VA && VB)
    return *VB != 0 && *VA % *VB == 0;
  // Only a '%' gives a Multiple fact: without one, \p FD's bounds (a
  // dataflow over its CFG) need not be solved.
  auto [Known, New] = MentionsRemainder.try_emplace(FD, true);
  if (New)
    Known->second = FD->getBody() && mentionsRemainder(FD->getBody(), 9);
  if (!Known->second)
    return false;
  const FactList *Facts = boundsAt(At, FD);
  if (!Facts)
    return false;
  const LinearForm &LA = linearOf(A), &LB = linearOf(B);
  std::string KA = LA.key() + "#" + llvm::itostr(LA.Const);
  std::string KB = LB.key() + "#" + llvm::itostr(LB.Const);
  for (const BoundFact *F : *Facts)
    if (F->K == BoundFact::Multiple && F->LHSKey == KA && F->RHSKey == KB)
      return true;
  return false;
}

} // namespace clang::tidy::cuda
