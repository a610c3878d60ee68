//===- ThreadIndexQueries.cpp - Index classification and text -------------===//
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

//===-- Index classification ----------------------------------------------===//

class IndexClassifier {
public:
  IndexClassifier(ThreadIndexAnalysis &A, const FunctionDecl *FD,
                  FactList Facts, const Stmt *At = nullptr)
      : A(A), FD(FD), Facts(std::move(Facts)), At(At) {}

  /// The verdict on the value of \p E plus \p Off.
  IndexVerdict bound(const Expr *E, int64_t Off, unsigned Depth = 0) {
    IndexVerdict V;
    E = ThreadIndexAnalysis::strip(E);
    ThreadValue TV = A.valueOf(E, FD);
    if (!TV.isIndex() || TV.Trivial || Depth > 12)
      return V;
    LinearForm LF = A.linearOf(E);
    // 'offset + 0 * hsz': a term times zero is no term.
    llvm::erase_if(LF.Terms,
                   [](const LinearForm::Term &T) { return T.Coeff == 0; });
    if (const BoundFact *F = factFor(LF.key()))
      return judge(F, LF.Const + Off);
    if (boundsQuotientOf(LF.key())) {
      V.K = IndexVerdict::Bounded; // By N * c: a size the guard only implies.
      return V;
    }
    if (isLinearWithinFamily(LF))
      return V;
    if (LF.Terms.size() == 1 && LF.Terms[0].Coeff == 1 &&
        LF.Terms[0].Factors.size() == 1) {
      const Expr *Only = ThreadIndexAnalysis::strip(LF.Terms[0].Factors[0]);
      if (Only != E)
        return bound(Only, LF.Const + Off, Depth + 1);
      return single(E, Off, Depth);
    }
    return sum(LF, Off, Depth);
  }

private:
  /// A block's linear index in the grid (blockIdx.y * gridDim.x +
  /// blockIdx.x) or a thread's in its block (threadIdx.y * blockDim.x +
  /// threadIdx.x): made of coordinates and extents of one level only, it
  /// indexes per-block or per-thread data by construction, like a single
  /// coordinate.
  bool isLinearWithinFamily(const LinearForm &LF) {
    if (LF.Terms.size() < 2)
      return false;
    unsigned Sources = 0;
    for (const LinearForm::Term &T : LF.Terms)
      for (const Expr *F : T.Factors) {
        ThreadValue FV = A.valueOf(F, FD);
        if (!FV.Sources || FV.Params)
          return false;
        Sources |= FV.Sources;
      }
    return !(Sources & ~unsigned(TS_BlockInGrid | TS_GridDim)) ||
           !(Sources & ~unsigned(TS_ThreadInBlock | TS_BlockDim));
  }

  const BoundFact *factFor(const std::string &Key) {
    if (Key.empty())
      return nullptr;
    for (const BoundFact *F : Facts)
      if (F->K == BoundFact::Less && F->LHSKey == Key)
        return F;
    return nullptr;
  }

  /// The dividend of \p Q when \p Q is 'x / c' with a divisor not known to
  /// be negative or zero, 'x >> k' with a constant k, or a variable that only
  /// holds such a quotient of values that do not change.
  const Expr *dividendOf(const Expr *Q, bool ThroughVariable = true) {
    Q = ThreadIndexAnalysis::strip(Q);
    if (const auto *BO = dyn_cast<BinaryOperator>(Q)) {
      std::optional<int64_t> C = constantOf(BO->getRHS(), A.Ctx);
      if ((BO->getOpcode() == BO_Div && (!C || *C > 0)) ||
          (BO->getOpcode() == BO_Shr && C && *C >= 0))
        return BO->getLHS();
      return nullptr;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Q);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!ThroughVariable || !VD || !VD->isLocalVarDecl() ||
        isa<ParmVarDecl>(VD) || !VD->hasInit() || A.isModified(VD, FD))
      return nullptr;
    const Expr *Dividend = dividendOf(VD->getInit(), false);
    if (!Dividend || mentionsModifiedVariable(Dividend) ||
        mentionsModifiedVariable(
            cast<BinaryOperator>(ThreadIndexAnalysis::strip(VD->getInit()))
                ->getRHS()))
      return nullptr;
    return Dividend;
  }

  /// Whether a guard 'q < N' holds on a quotient q = x / c of the value
  /// keyed \p Key: x < N * c for a positive c ('int row = i / w; if (row <
  /// rows)' bounds 'i' by the rows * w elements). The size it implies has
  /// no expression to judge an offset against, so it only silences.
  bool boundsQuotientOf(const std::string &Key) {
    if (Key.empty())
      return false;
    for (const BoundFact *F : Facts) {
      const auto *Cmp = dyn_cast_or_null<BinaryOperator>(F->Guard);
      if (F->K != BoundFact::Less || F->RHSKey.empty() || !Cmp ||
          !Cmp->isComparisonOp())
        continue;
      for (const Expr *Side : {Cmp->getLHS(), Cmp->getRHS()}) {
        const LinearForm &SF = A.linearOf(Side);
        if (SF.key() != F->LHSKey || SF.Const != 0 || SF.Terms.size() != 1 ||
            SF.Terms[0].Coeff != 1 || SF.Terms[0].Factors.size() != 1)
          continue;
        const Expr *Dividend = dividendOf(SF.Terms[0].Factors[0]);
        if (Dividend && A.linearOf(Dividend).key() == Key)
          return true;
      }
    }
    return false;
  }

  IndexVerdict judge(const BoundFact *F, int64_t Off) {
    IndexVerdict V;
    V.K = IndexVerdict::Bounded;
    // A constant bound says nothing about the data's size: unknown.
    if (F->RHSKey.empty())
      return V;
    // x < B + c and x != B + c - 1 give x < B + c - 1.
    int64_t Const = F->RHSConst;
    // A strict guard written against 'n + 1' ('i < n + 1') names the
    // extent n + 1 itself: the arrays it guards have n + 1 elements. Only
    // '<=' and its negations ('i <= n', 'if (i > n) return;') let the
    // index reach the value they name.
    if (F->Bound && Const > 0 && A.linearOf(F->Bound).Const == Const)
      Const = 0;
    for (bool Tightened = true; Tightened && Const + Off > 0;) {
      Tightened = false;
      for (const BoundFact *NE : Facts)
        if (NE->K == BoundFact::NotEqual && NE->LHSKey == F->LHSKey &&
            NE->RHSKey == F->RHSKey && NE->RHSConst == Const - 1) {
          --Const;
          Tightened = true;
        }
    }
    if (Const + Off <= 0)
      return V;
    // x < B + c where B is itself bounded, B < D + d: x <= B + c - 1 <
    // D + d + c - 1 ('for (j = first; j <= i; ++j)' under 'i < n').
    for (const BoundFact *G : Facts)
      if (G->K == BoundFact::Less && G != F && G->LHSKey == F->RHSKey &&
          !G->RHSKey.empty() && Const + G->RHSConst - 1 + Off <= 0)
        return V;
    V.K = IndexVerdict::PastBound;
    V.Fact = F;
    V.Reach = Const + Off;
    return V;
  }

  /// The verdict on a value that is at most \p Limit (min(i, R), or the
  /// uniform arm of a ternary), plus \p Off.
  IndexVerdict atMost(const Expr *Limit, const Expr *Guard, int64_t Off) {
    const LinearForm &RF = A.linearOf(Limit);
    auto &Arena = A.factsOf(FD).Arena;
    Arena.push_back(BoundFact{BoundFact::Less, "", RF.key(), RF.Const + 1,
                              Guard, Limit, {}});
    return judge(&Arena.back(), Off);
  }

  IndexVerdict unbounded(const Expr *E, std::string Text = "") {
    IndexVerdict V;
    V.K = IndexVerdict::Unbounded;
    V.Unguarded.push_back(E);
    V.UnguardedText.push_back(
        Text.empty() ? ThreadIndexAnalysis::textOf(E, A.Ctx, prec::Additive)
                     : Text);
    V.Whole = true;
    V.Dims = A.valueOf(E, FD).Dims;
    return V;
  }

  static bool isFine(const IndexVerdict &V) {
    return V.K == IndexVerdict::Bounded ||
           V.K == IndexVerdict::NotThreadDerived;
  }

  /// The verdict on an index made of several parts.
  static IndexVerdict merge(llvm::ArrayRef<IndexVerdict> Parts) {
    IndexVerdict R;
    R.K = IndexVerdict::Bounded;
    bool AnyGuarded = false;
    for (const IndexVerdict &P : Parts)
      if (P.K == IndexVerdict::PastBound)
        return P;
    for (const IndexVerdict &P : Parts) {
      if (P.K == IndexVerdict::Bounded)
        AnyGuarded = true;
      if (P.K != IndexVerdict::Unbounded)
        continue;
      R.K = IndexVerdict::Unbounded;
      R.Unguarded.append(P.Unguarded.begin(), P.Unguarded.end());
      R.UnguardedText.append(P.UnguardedText.begin(), P.UnguardedText.end());
      R.Dims |= P.Dims;
    }
    R.Whole = R.K == IndexVerdict::Unbounded && !AnyGuarded;
    return R;
  }

  IndexVerdict single(const Expr *E, int64_t Off, unsigned Depth) {
    IndexVerdict V;
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (!ThreadIndexAnalysis::isIndexClamp(Call->getDirectCallee())) {
        // An index function of the program ('idx3(x + 1, y, z)') over
        // coordinates that are each bounded here is taken as bounded; an
        // unbounded coordinate is what the verdict names.
        const FunctionDecl *Callee = Call->getDirectCallee();
        const FunctionDecl *Def = nullptr;
        if (Callee && Callee->hasBody(Def) &&
            isUserFunction(Def, A.Ctx.getSourceManager()) &&
            singleReturnOf(Def)) {
          bool AnyIndex = false;
          for (const Expr *Arg : Call->arguments()) {
            if (!A.valueOf(Arg, FD).isIndex())
              continue;
            AnyIndex = true;
            IndexVerdict AV = bound(Arg, 0, Depth + 1);
            if (!isFine(AV))
              return AV.K == IndexVerdict::PastBound ? AV : unbounded(E);
          }
          if (AnyIndex) {
            V.K = IndexVerdict::Bounded;
            return V;
          }
        }
        return unbounded(E);
      }
      // min(a, b) is at most each argument: one bounded argument will do.
      IndexVerdict Worst = unbounded(E);
      for (const Expr *Arg : Call->arguments()) {
        IndexVerdict AV = A.valueOf(Arg, FD).isIndex()
                              ? bound(Arg, Off, Depth + 1)
                              : atMost(Arg, Call, Off);
        if (isFine(AV))
          return AV;
        if (AV.K == IndexVerdict::PastBound)
          Worst = AV;
      }
      return Worst;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      IndexVerdict T = arm(CO, true, Off, Depth);
      IndexVerdict F = arm(CO, false, Off, Depth);
      if (T.K == IndexVerdict::PastBound)
        return T;
      if (F.K == IndexVerdict::PastBound)
        return F;
      if (T.K == IndexVerdict::Unbounded || F.K == IndexVerdict::Unbounded)
        return unbounded(E);
      V.K = IndexVerdict::Bounded;
      return V;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      const Expr *L = BO->getLHS(), *R = BO->getRHS();
      switch (BO->getOpcode()) {
      case BO_Rem:
        // i % n < n.
        if (A.valueOf(R, FD).isIndex())
          return unbounded(E);
        if (Off <= 0) {
          V.K = IndexVerdict::Bounded;
          return V;
        }
        return atMost(R, BO, Off - 1);
      case BO_And:
        if (!A.valueOf(L, FD).isIndex() || !A.valueOf(R, FD).isIndex()) {
          V.K = IndexVerdict::Bounded;
          return V;
        }
        return unbounded(E);
      case BO_Div:
      case BO_Shr:
        if (bound(L, 0, Depth + 1).K == IndexVerdict::Unbounded)
          return unbounded(E);
        V.K = IndexVerdict::Bounded;
        return V;
      default:
        return unbounded(E);
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (VD && VD->isLocalVarDecl() && !isa<ParmVarDecl>(VD) &&
          !A.isModified(VD, FD) && VD->hasInit()) {
        // A variable that only holds its initializer: the guard may be on
        // the parts it is made of (row and column).
        IndexVerdict R = bound(VD->getInit(), Off, Depth + 1);
        if (R.K == IndexVerdict::Unbounded && R.Whole) {
          IndexVerdict Named = unbounded(E);
          Named.Dims = R.Dims;
          return Named;
        }
        return R;
      }
      // A variable assigned more than once: the one value that reaches the
      // access on its straight path, when the variables it is made of do
      // not change ('offset = (i / h) * 3 * h + i % h;' then later
      // 'offset = (i / h) * 5 * h + i % h;').
      if (const Expr *Value = reachingValue(VD))
        return bound(Value, Off, Depth + 1);
      return unbounded(E);
    }
    return unbounded(E);
  }

  /// The verdict on one arm of a ternary, under its condition.
  IndexVerdict arm(const ConditionalOperator *CO, bool Truth, int64_t Off,
                   unsigned Depth) {
    const Expr *Arm = Truth ? CO->getTrueExpr() : CO->getFalseExpr();
    if (!A.valueOf(Arm, FD).isIndex())
      return atMost(Arm, CO, Off);
    FactList Saved = Facts;
    FactList Extra;
    deriveFacts(A.Ctx, A.factsOf(FD).Arena, Extra,
                [&](const VarDecl *V) { return A.isModified(V, FD); },
                CO->getCond(), Truth);
    for (const BoundFact *F : Extra)
      addFact(Facts, F);
    IndexVerdict V = bound(Arm, Off, Depth + 1);
    Facts = std::move(Saved);
    return V;
  }

  bool isLoopVarying(const Expr *E) {
    bool Found = false;
    struct Visitor : RecursiveASTVisitor<Visitor> {
      ThreadIndexAnalysis &A;
      const FunctionDecl *FD;
      bool &Found;
      Visitor(ThreadIndexAnalysis &A, const FunctionDecl *FD, bool &Found)
          : A(A), FD(FD), Found(Found) {}
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (A.isModified(VD, FD))
            Found = true;
        return true;
      }
    } Vis(A, FD, Found);
    Vis.TraverseStmt(const_cast<Expr *>(ThreadIndexAnalysis::strip(E)));
    return Found;
  }

  bool isIndexTerm(const LinearForm::Term &T) {
    for (const Expr *F : T.Factors)
      if (A.valueOf(F, FD).isIndex())
        return true;
    return false;
  }

  /// row * width + col: each outer coordinate (multiplied by a uniform
  /// stride) must be bounded, and so must the rest of the sum.
  IndexVerdict sum(const LinearForm &LF, int64_t Off, unsigned Depth) {
    llvm::SmallVector<IndexVerdict, 3> Parts;
    LinearForm Inner;
    Inner.Const = LF.Const + Off;
    for (const LinearForm::Term &T : LF.Terms) {
      llvm::SmallVector<const Expr *, 2> Thread;
      bool Stride = false;
      for (const Expr *F : T.Factors) {
        ThreadValue FV = A.valueOf(F, FD);
        if (FV.isIndex())
          Thread.push_back(F);
        else if (!constantOf(F, A.Ctx) &&
                 !(FV.Sources & (TS_BlockDim | TS_GridDim)))
          Stride = true;
      }
      if (Thread.size() != 1 || !Stride) {
        Inner.Terms.push_back(T);
        continue;
      }
      Parts.push_back(bound(Thread.front(), 0, Depth + 1));
    }
    // A row of constant width: 'row * W + col' with W a constant and a
    // fact 'col < C', C <= W, on the rest. The row is then checked on its
    // own, like a row of a non-constant stride.
    if (Inner.Terms.size() >= 2)
      for (unsigned I = 0; I < Inner.Terms.size(); ++I) {
        const LinearForm::Term &T = Inner.Terms[I];
        if (T.Coeff < 2 || T.Factors.size() != 1 ||
            !A.valueOf(T.Factors.front(), FD).isIndex())
          continue;
        LinearForm Rest = Inner;
        Rest.Terms.erase(Rest.Terms.begin() + I);
        const BoundFact *F = factFor(Rest.key());
        if (!F || !F->RHSKey.empty() || F->RHSConst + Rest.Const > T.Coeff ||
            Rest.Const < 0)
          continue;
        Parts.push_back(bound(T.Factors.front(), 0, Depth + 1));
        Inner = std::move(Rest);
        break;
      }
    if (Inner.Terms.size() >= 2 && removeGuardedSubsum(Inner)) {
      IndexVerdict Guarded;
      Guarded.K = IndexVerdict::Bounded;
      Parts.push_back(Guarded);
    }
    bool InnerHasIndex = llvm::any_of(
        Inner.Terms, [&](const LinearForm::Term &T) { return isIndexTerm(T); });
    if (InnerHasIndex)
      Parts.push_back(innerVerdict(Inner, Depth));
    return merge(Parts);
  }

  /// Removes from \p Sum the terms that a guard bounds together, as
  /// written or scaled by a constant: '11872 * b + 371 * t' is 371 times
  /// '32 * b + t', which 'if (32 * b + t <= 369)' bounds. A scaled bound
  /// says nothing certain about the data's size, so the removed part counts
  /// as bounded (unknown). Only guards on two or more terms are matched.
  bool removeGuardedSubsum(LinearForm &Sum) {
    for (const BoundFact *F : Facts) {
      if (F->K != BoundFact::Less || F->LHSKey.find('+') == std::string::npos)
        continue;
      // The guard's terms, "coeff*key" joined with '+'.
      llvm::SmallVector<std::pair<int64_t, std::string>, 4> GuardTerms;
      bool Parsed = true;
      for (llvm::StringRef Part : llvm::split(F->LHSKey, '+')) {
        auto [Coeff, Key] = Part.split('*');
        int64_t C;
        if (Key.empty() || Coeff.getAsInteger(10, C) || C == 0) {
          Parsed = false;
          break;
        }
        GuardTerms.push_back({C, Key.str()});
      }
      if (!Parsed || GuardTerms.size() > Sum.Terms.size())
        continue;
      // Each guard term in the sum, all with one ratio.
      llvm::SmallVector<unsigned, 4> Matched;
      int64_t Ratio = 0;
      for (const auto &GuardTerm : GuardTerms) {
        int64_t C = GuardTerm.first;
        auto It = llvm::find_if(Sum.Terms, [&](const LinearForm::Term &T) {
          return T.Key == GuardTerm.second && T.Coeff % C == 0;
        });
        if (It == Sum.Terms.end() ||
            (Ratio && It->Coeff / C != Ratio) || It->Coeff / C <= 0) {
          Matched.clear();
          break;
        }
        Ratio = It->Coeff / C;
        Matched.push_back(It - Sum.Terms.begin());
      }
      if (Matched.size() != GuardTerms.size())
        continue;
      llvm::sort(Matched, std::greater<unsigned>());
      for (unsigned I : Matched)
        Sum.Terms.erase(Sum.Terms.begin() + I);
      return true;
    }
    return false;
  }

  /// The sum as C++ that means the same: each factor and term printed
  /// from its expression, in parentheses where the surrounding operator
  /// would bind it differently.
  std::string textOf(const LinearForm &LF) {
    auto Written = [&](const Expr *E, unsigned Min) {
      return ThreadIndexAnalysis::textOf(E, A.Ctx, Min);
    };
    std::string Out;
    for (const LinearForm::Term &T : LF.Terms) {
      bool Negative = T.Origin ? T.OriginNegated : T.Coeff < 0;
      bool First = Out.empty();
      // After a '-', a sum or difference needs parentheses; after '+' only
      // what binds more loosely than '+'; a leading '-' needs a unary
      // operand.
      unsigned Min = First ? (Negative ? prec::PointerToMember + 1
                                       : prec::Additive)
                           : (Negative ? prec::Multiplicative
                                       : prec::Additive);
      std::string Text;
      if (T.Origin) {
        Text = Written(T.Origin, Min);
      } else {
        llvm::SmallVector<std::string, 2> Fs;
        if (T.Coeff != 1 && T.Coeff != -1)
          Fs.push_back(llvm::itostr(T.Coeff < 0 ? -T.Coeff : T.Coeff));
        for (const Expr *F : T.Factors)
          // The first factor may be a product; later ones must not regroup.
          Fs.push_back(Written(F, Fs.empty() ? prec::Multiplicative
                                             : prec::Multiplicative + 1));
        Text = llvm::join(Fs, " * ");
      }
      if (First)
        Out = (Negative ? "-" : "") + Text;
      else
        Out += (Negative ? " - " : " + ") + Text;
    }
    if (LF.Const > 0)
      Out += " + " + llvm::itostr(LF.Const);
    else if (LF.Const < 0)
      Out += " - " + llvm::itostr(-LF.Const);
    return Out;
  }

  IndexVerdict innerVerdict(const LinearForm &Inner, unsigned Depth) {
    if (const BoundFact *F = factFor(Inner.key()))
      return judge(F, Inner.Const);
    llvm::SmallVector<const LinearForm::Term *, 2> Thread, Uniform;
    for (const LinearForm::Term &T : Inner.Terms)
      (isIndexTerm(T) ? Thread : Uniform).push_back(&T);
    const LinearForm::Term &T = *Thread.front();
    // A tile origin: a loop variable times a constant tile size, plus a
    // thread coordinate in the same dimension (t * TILE + threadIdx.x).
    // A loop variable times a non-constant stride is another dimension
    // (k * N + col), and a thread coordinate scaled by a constant plus a
    // loop variable picks a channel ((y * w + x) * 3 + c): neither needs a
    // guard on the sum.
    bool LoopVarying = false;
    for (const LinearForm::Term *U : Uniform)
      if (U->Factors.size() == 1 && U->Coeff > 1 && T.Coeff == 1 &&
          isLoopVarying(U->Factors.front()))
        LoopVarying = true;
    if (!LoopVarying && Thread.size() == 1 && T.Factors.size() == 1) {
      // The uniform terms added to the coordinate: a loop variable with a
      // constant upper bound on this path adds at most that bound minus one
      // (in[i + k] for k <= R); a block or grid extent (i + blockDim.x, the
      // second load of a reduction) adds at least one; any other value is
      // unknown, and only the constant part then counts against the bound.
      int64_t Off = Inner.Const;
      bool Unknown = false;
      for (const LinearForm::Term *U : Uniform) {
        unsigned Src = 0;
        for (const Expr *F : U->Factors)
          Src |= A.valueOf(F, FD).Sources;
        const BoundFact *UF =
            U->Factors.size() == 1 && U->Coeff == 1
                ? factFor(A.linearOf(U->Factors.front()).key())
                : nullptr;
        if (UF && UF->RHSKey.empty())
          Off += UF->RHSConst - 1;
        else if (U->Coeff > 0 && (Src & (TS_BlockDim | TS_GridDim)))
          Off = std::max<int64_t>(Off, 0) + 1;
        else
          Unknown = true;
      }
      if (Unknown)
        Off = std::min<int64_t>(Off, 0);
      if (T.Coeff == 1)
        return bound(T.Factors[0], Off, Depth + 1);
      IndexVerdict V = bound(T.Factors[0], 0, Depth + 1);
      if (V.K == IndexVerdict::PastBound)
        V.K = IndexVerdict::Bounded; // 2 * i against i < n: unknown.
      return V;
    }
    // A tile origin plus a thread offset (t * TILE + threadIdx.x), or a
    // global index spelled out: the sum as a whole needs a guard.
    IndexVerdict V;
    V.K = IndexVerdict::Unbounded;
    V.Whole = true;
    const Expr *Where = T.Origin ? T.Origin : T.Factors.front();
    V.Unguarded.push_back(Where);
    V.UnguardedText.push_back(textOf(Inner));
    for (const LinearForm::Term &Tm : Inner.Terms)
      for (const Expr *F : Tm.Factors)
        V.Dims |= A.valueOf(F, FD).Dims;
    return V;
  }

  const Expr *reachingValue(const VarDecl *VD) {
    if (!At || !VD || !VD->isLocalVarDecl())
      return nullptr;
    const FunctionCfg *Cfg = A.factsOf(FD).Cfg.get();
    const Expr *Value = Cfg ? Cfg->uniqueReachingStore(VD, At) : nullptr;
    if (!Value || mentionsModifiedVariable(Value))
      return nullptr;
    return Value;
  }

  bool mentionsModifiedVariable(const Stmt *S) {
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return A.isModified(VD, FD);
    return S && llvm::any_of(S->children(), [&](const Stmt *C) {
             return mentionsModifiedVariable(C);
           });
  }

  ThreadIndexAnalysis &A;
  const FunctionDecl *FD;
  FactList Facts;
  /// The access being judged, for values that reach it.
  const Stmt *At;
};

std::string ThreadIndexAnalysis::textOf(const Expr *E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  SourceLocation B = E->getBeginLoc(), End = E->getEndLoc();
  if (B.isMacroID() || End.isMacroID()) {
    R = Lexer::makeFileCharRange(R, SM, LO);
    // Within one macro body: the body's own spelling, when both ends are
    // spelled in the same expansion of the same macro.
    if (R.isInvalid() && B.isMacroID() && End.isMacroID() &&
        SM.isMacroBodyExpansion(B) && SM.isMacroBodyExpansion(End) &&
        SM.getImmediateExpansionRange(B).getAsRange() ==
            SM.getImmediateExpansionRange(End).getAsRange()) {
      SourceLocation SB = SM.getSpellingLoc(B), SE = SM.getSpellingLoc(End);
      if (SM.getFileID(SB) == SM.getFileID(SE) &&
          !SM.isBeforeInTranslationUnit(SE, SB))
        R = CharSourceRange::getTokenRange(SB, SE);
    }
  }
  std::string Text;
  if (R.isValid())
    Text = Lexer::getSourceText(R, SM, LO).str();
  if (Text.empty()) {
    // Written across macro arguments and bodies: printed from the AST.
    llvm::raw_string_ostream OS(Text);
    PrintingPolicy Policy(LO);
    Policy.SuppressImplicitBase = true;
    E->printPretty(OS, nullptr, Policy);
  }
  std::string Out;
  bool Space = false;
  for (char C : Text) {
    if (C == '\n' || C == '\t' || C == ' ' || C == '\r') {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

unsigned ThreadIndexAnalysis::precedenceOf(const Expr *E) {
  constexpr unsigned Primary = prec::PointerToMember + 1;
  E = E->IgnoreImplicit();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_PtrMemD:
    case BO_PtrMemI:
      return prec::PointerToMember;
    case BO_Mul:
    case BO_Div:
    case BO_Rem:
      return prec::Multiplicative;
    case BO_Add:
    case BO_Sub:
      return prec::Additive;
    case BO_Shl:
    case BO_Shr:
      return prec::Shift;
    case BO_Cmp:
      return prec::Spaceship;
    case BO_LT:
    case BO_GT:
    case BO_LE:
    case BO_GE:
      return prec::Relational;
    case BO_EQ:
    case BO_NE:
      return prec::Equality;
    case BO_And:
      return prec::And;
    case BO_Xor:
      return prec::ExclusiveOr;
    case BO_Or:
      return prec::InclusiveOr;
    case BO_LAnd:
      return prec::LogicalAnd;
    case BO_LOr:
      return prec::LogicalOr;
    case BO_Comma:
      return prec::Comma;
    default:
      return prec::Assignment;
    }
  }
  if (isa<AbstractConditionalOperator>(E))
    return prec::Conditional;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    if (Op->getNumArgs() == 2 && Op->getOperator() != OO_Subscript &&
        Op->getOperator() != OO_Call && Op->getOperator() != OO_Arrow)
      return prec::Unknown; // Overloaded binary operator: parenthesize.
  return Primary;
}

std::string ThreadIndexAnalysis::textOf(const Expr *E, const ASTContext &Ctx,
                                        unsigned MinLevel) {
  // A macro's use ('IDX') reparses with its expansion's precedence, so it
  // needs the same parentheses as the expression itself.
  std::string Text = textOf(E, Ctx);
  if (precedenceOf(E) >= MinLevel)
    return Text;
  return "(" + Text + ")";
}

IndexVerdict ThreadIndexAnalysis::classifyIndex(const Expr *Index,
                                                const Stmt *At,
                                                const FunctionDecl *FD,
                                                int64_t ExtraOffset) {
  IndexVerdict V;
  if (!valueOf(Index, FD).isIndex())
    return V;
  const FactList *Facts = boundsAt(At, FD);
  if (!Facts) {
    V.K = IndexVerdict::Bounded; // Unknown.
    return V;
  }
  IndexClassifier C(*this, FD, *Facts, At);
  V = C.bound(Index, ExtraOffset);
  V.Offset = linearOf(Index).Const + ExtraOffset;
  return V;
}

} // namespace clang::tidy::cuda
