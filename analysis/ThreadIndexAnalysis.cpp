//===- ThreadIndexAnalysis.cpp --------------------------------------------===//

#include "ThreadIndexAnalysis.h"
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

//===-- Facts from CudaApiModel.def ---------------------------------------===//

namespace {

struct GroupQuery {
  ThreadSource Source;
  bool ReturnsDim3;
};

class ThreadFacts {
public:
  ThreadFacts() {
    constexpr ThreadSource ThreadInBlock = TS_ThreadInBlock,
                           BlockInGrid = TS_BlockInGrid, BlockDim = TS_BlockDim,
                           GridDim = TS_GridDim, GridRank = TS_GridRank;
#define CUDA_THREAD_BUILTIN(TypeName, Source) Builtins[#TypeName] = Source;
#define CUDA_GROUP_QUERY(GroupClass, Method, Source, Dim3)                     \
  Groups[#GroupClass "::" #Method] = GroupQuery{Source, Dim3 != 0};
#define CUDA_INDEX_CLAMP(Name) Clamps.insert(#Name);
#define CUDA_ASSERT_FAIL(Name) AssertFails.insert(#Name);
#define CUDA_INDEX_MUL(Name) Muls.insert(#Name);
#include "CudaApiModel.def"
    (void)ThreadInBlock, (void)BlockInGrid, (void)BlockDim, (void)GridDim,
        (void)GridRank;
  }
  llvm::StringMap<ThreadSource> Builtins;
  llvm::StringMap<GroupQuery> Groups;
  llvm::StringSet<> Clamps;
  llvm::StringSet<> AssertFails;
  llvm::StringSet<> Muls;
};

bool isIndexMul(llvm::StringRef Name);

/// The two factors of __mul24(a, b) and the like.
std::optional<std::pair<const Expr *, const Expr *>>
indexProduct(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || Call->getNumArgs() != 2 ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
      !isIndexMul(FD->getName()))
    return std::nullopt;
  return std::make_pair(Call->getArg(0), Call->getArg(1));
}

const ThreadFacts &threadFacts() {
  static const ThreadFacts F;
  return F;
}

bool isIndexMul(llvm::StringRef Name) {
  return threadFacts().Muls.contains(Name);
}

bool isInNamespace(const Decl *D, llvm::StringRef Name) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == Name)
        return true;
  return false;
}

/// The cooperative-groups query a call makes, if any.
const GroupQuery *groupQueryOf(const CallExpr *Call) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!MD || !MD->getIdentifier() || !isInNamespace(MD, "cooperative_groups"))
    return nullptr;
  const CXXRecordDecl *Class = MD->getParent();
  // The group is the type of the object the method is called on: the
  // method itself may be declared in a shared base class.
  if (QualType T = CudaApiModel::objectTypeOf(Call); !T.isNull())
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      Class = RD;
  if (!Class || !Class->getIdentifier())
    return nullptr;
  std::string Key = (Class->getName() + "::" + MD->getName()).str();
  auto It = threadFacts().Groups.find(Key);
  return It == threadFacts().Groups.end() ? nullptr : &It->second;
}

std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  // Indices and bounds ask about the same expressions many times.
  return TranslationUnitAnalyses::get(const_cast<ASTContext &>(Ctx))
      .integerConstant(E);
}

/// The single returned expression of a helper such as
/// `__device__ bool inside(int i, int n) { return i < n; }`.
const Expr *singleReturnOf(const FunctionDecl *FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  return Ret ? Ret->getRetValue() : nullptr;
}

/// Whether the block calls a function that does not return: exit, abort,
/// or a failed assert() in device code.
bool endsThread(const CFGBlock &B) {
  if (B.hasNoReturnElement())
    return true;
  for (const CFGElement &E : B)
    if (const auto *Call =
            dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(E)))
      if (const FunctionDecl *FD = Call->getDirectCallee())
        if (FD->isNoReturn() ||
            (FD->getIdentifier() &&
             threadFacts().AssertFails.contains(FD->getName())))
          return true;
  return false;
}

bool isUserFunction(const FunctionDecl *FD, const SourceManager &SM) {
  return FD && isAnalysableFunction(FD, SM);
}

} // namespace

std::optional<int64_t>
ThreadIndexAnalysis::integerConstant(const Expr *E, const ASTContext &Ctx) {
  return constantOf(E, Ctx);
}

//===-- Per-function state ------------------------------------------------===//

struct ThreadIndexAnalysis::Subst {
  const FunctionDecl *Callee;
  llvm::ArrayRef<const Expr *> Args;
  const Subst *Outer;
};

struct ThreadIndexAnalysis::FunctionFacts {
  const FunctionDecl *FD = nullptr;
  std::shared_ptr<const FunctionCfg> Cfg; // Kept past the current function.
  /// Values stored into each local variable: its initializer and the
  /// right-hand sides of assignments.
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Defs;
  llvm::DenseSet<const VarDecl *> Modified;
  llvm::DenseSet<const VarDecl *> Escaped;
  llvm::DenseMap<const VarDecl *, ThreadValue> VarValues;
  llvm::DenseSet<const VarDecl *> VarsInProgress;

  bool Solved = false;
  std::deque<BoundFact> Arena;
  llvm::DenseMap<unsigned, FactList> In;
  std::map<std::pair<unsigned, bool>, FactList> EdgeFacts;
  llvm::DenseMap<const Stmt *, FactList> AtCache;
  /// The variables each block's elements kill facts about, with the index
  /// of the element, in order (by block ID; read once, not per visit).
  std::vector<llvm::SmallVector<std::pair<unsigned, const VarDecl *>, 4>>
      BlockKills;
};

namespace {

class DefinitionCollector : public RecursiveASTVisitor<DefinitionCollector> {
public:
  explicit DefinitionCollector(ThreadIndexAnalysis::FunctionFacts &F) : F(F) {}

  static const VarDecl *varOf(const Expr *E) {
    const auto *DRE =
        dyn_cast_or_null<DeclRefExpr>(ThreadIndexAnalysis::strip(E));
    return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasInit())
      F.Defs[VD].push_back(VD->getInit());
    if (VD->getType()->isReferenceType())
      if (const VarDecl *Target = varOf(VD->getInit())) {
        F.Modified.insert(Target);
        F.Escaped.insert(Target);
      }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    if (const VarDecl *VD = varOf(BO->getLHS())) {
      F.Modified.insert(VD);
      F.Defs[VD].push_back(BO->getRHS());
    } else if (const auto *ME = dyn_cast<MemberExpr>(
                   ThreadIndexAnalysis::strip(BO->getLHS()))) {
      // grid.x = ...: the aggregate changes.
      if (const VarDecl *VD = varOf(ME->getBase()))
        F.Modified.insert(VD);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    const VarDecl *VD = varOf(UO->getSubExpr());
    if (!VD)
      return true;
    if (UO->isIncrementDecrementOp())
      F.Modified.insert(VD);
    if (UO->getOpcode() == UO_AddrOf) {
      F.Modified.insert(VD);
      F.Escaped.insert(VD);
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    for (unsigned I = 0,
                  N = std::min(Call->getNumArgs(), Callee->getNumParams());
         I != N; ++I) {
      QualType T = Callee->getParamDecl(I)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        if (const VarDecl *VD = varOf(Call->getArg(I))) {
          F.Modified.insert(VD);
          F.Escaped.insert(VD);
        }
    }
    return true;
  }

private:
  ThreadIndexAnalysis::FunctionFacts &F;
};

/// Variables whose stores a statement kills facts about.
void killedBy(const Stmt *S, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *VD = DefinitionCollector::varOf(BO->getLHS()))
        Out.push_back(VD);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *VD = DefinitionCollector::varOf(UO->getSubExpr()))
        Out.push_back(VD);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        Out.push_back(VD);
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return;
    for (unsigned I = 0,
                  N = std::min(Call->getNumArgs(), Callee->getNumParams());
         I != N; ++I) {
      QualType T = Callee->getParamDecl(I)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        if (const VarDecl *VD = DefinitionCollector::varOf(Call->getArg(I)))
          Out.push_back(VD);
    }
  }
}

bool sameIdentity(const BoundFact *A, const BoundFact *B) {
  return A->K == B->K && A->LHSKey == B->LHSKey && A->RHSKey == B->RHSKey &&
         (A->K == BoundFact::Less || A->RHSConst == B->RHSConst);
}

/// Adds \p F, keeping the stronger of two facts about the same values.
void addFact(FactList &L, const BoundFact *F) {
  for (const BoundFact *&Old : L)
    if (sameIdentity(Old, F)) {
      if (F->RHSConst < Old->RHSConst)
        Old = F;
      return;
    }
  L.push_back(F);
}

/// Keeps the facts that hold on both paths, each at its weaker bound.
/// Returns whether \p Into changed.
bool intersectInto(FactList &Into, const FactList &Other) {
  bool Changed = false;
  FactList Result;
  for (const BoundFact *A : Into) {
    const BoundFact *Match = nullptr;
    for (const BoundFact *B : Other)
      if (sameIdentity(A, B)) {
        Match = B;
        break;
      }
    if (!Match) {
      Changed = true;
      continue;
    }
    if (Match->RHSConst > A->RHSConst) {
      Result.push_back(Match);
      Changed = true;
    } else {
      Result.push_back(A);
    }
  }
  Into = std::move(Result);
  return Changed;
}

/// Removes the facts about variables that the elements before \p End of a
/// block kill (\p Kills: element index and variable, in order). A fact goes
/// when any of them kills one of its variables, so one pass over them all
/// removes what a pass per element would.
void applyKills(
    FactList &L,
    llvm::ArrayRef<std::pair<unsigned, const VarDecl *>> Kills,
    unsigned End) {
  if (Kills.empty() || Kills.front().first >= End || L.empty())
    return;
  llvm::erase_if(L, [&](const BoundFact *F) {
    for (const VarDecl *V : F->Vars)
      for (const auto &[Index, Killed] : Kills) {
        if (Index >= End)
          break;
        if (Killed == V)
          return true;
      }
    return false;
  });
}

} // namespace

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

//===-- Thread-derived values ---------------------------------------------===//

ThreadIndexAnalysis::ThreadIndexAnalysis(ASTContext &Ctx) : Ctx(Ctx) {}
ThreadIndexAnalysis::~ThreadIndexAnalysis() = default;

const Expr *ThreadIndexAnalysis::strip(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(Next)) {
      if (CE->getCastKind() == CK_ToVoid)
        return Next;
      Next = CE->getSubExpr();
    } else if (const auto *FE = dyn_cast<FullExpr>(Next)) {
      Next = FE->getSubExpr();
    } else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(Next)) {
      Next = MT->getSubExpr();
    } else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(Next)) {
      Next = BT->getSubExpr();
    } else if (const auto *PO = dyn_cast<PseudoObjectExpr>(Next)) {
      Next = PO->getResultExpr();
    } else if (const auto *OV = dyn_cast<OpaqueValueExpr>(Next)) {
      Next = OV->getSourceExpr();
    }
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

bool ThreadIndexAnalysis::isThreadQuery(const Expr *E, ThreadSource &Source,
                                        unsigned &Dim) {
  E = strip(E);
  if (const auto *Call = dyn_cast_or_null<CallExpr>(E)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    if (!MD || !MD->getIdentifier())
      return false;
    llvm::StringRef Name = MD->getName();
    if (Name.consume_front("__fetch_builtin_")) {
      const CXXRecordDecl *RD = MD->getParent();
      if (!RD || !RD->getIdentifier() || Name.size() != 1 || Name[0] < 'x' ||
          Name[0] > 'z')
        return false;
      auto It = threadFacts().Builtins.find(RD->getName());
      if (It == threadFacts().Builtins.end())
        return false;
      Source = It->second;
      Dim = Name[0] - 'x';
      return true;
    }
    if (const GroupQuery *Q = groupQueryOf(Call))
      if (!Q->ReturnsDim3) {
        Source = Q->Source;
        Dim = 0;
        return true;
      }
    return false;
  }
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const auto *Call = dyn_cast<CallExpr>(strip(ME->getBase()));
    if (!Field || !Call || !Field->getIdentifier())
      return false;
    llvm::StringRef F = Field->getName();
    const GroupQuery *Q = groupQueryOf(Call);
    if (!Q || !Q->ReturnsDim3 || F.size() != 1 || F[0] < 'x' || F[0] > 'z')
      return false;
    Source = Q->Source;
    Dim = F[0] - 'x';
    return true;
  }
  return false;
}

bool ThreadIndexAnalysis::threadCoordinate(const Expr *E,
                                           const FunctionDecl *FD,
                                           unsigned &Dim) {
  E = strip(E);
  ThreadSource Src;
  if (isThreadQuery(E, Src, Dim)) {
    if (Src != TS_ThreadInBlock)
      return false;
    // A call is a coordinate only as threadIdx's __fetch_builtin_*; the
    // ranks are calls too.
    const auto *Call = dyn_cast<CallExpr>(E);
    if (!Call)
      return true;
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    return MD && MD->getName().starts_with("__fetch_builtin_");
  }
  auto StableLocal = [&](const Expr *Ref) -> const VarDecl * {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(Ref));
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
        VD->getType()->isReferenceType() || isModified(VD, FD))
      return nullptr;
    return VD;
  };
  // idx.y, with 'dim3 idx = block.thread_index()'.
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const VarDecl *VD = StableLocal(ME->getBase());
    if (!Field || !Field->getIdentifier() || !VD || ME->isArrow())
      return false;
    llvm::StringRef F = Field->getName();
    const Expr *Init = strip(VD->getInit());
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
        Construct && Construct->getNumArgs() == 1)
      Init = strip(Construct->getArg(0));
    const auto *Call = dyn_cast_or_null<CallExpr>(Init);
    const GroupQuery *Q = Call ? groupQueryOf(Call) : nullptr;
    if (!Q || !Q->ReturnsDim3 || Q->Source != TS_ThreadInBlock ||
        F.size() != 1 || F[0] < 'x' || F[0] > 'z')
      return false;
    Dim = F[0] - 'x';
    return true;
  }
  const VarDecl *VD = StableLocal(E);
  if (!VD || !VD->getType()->isIntegralOrEnumerationType())
    return false;
  const Expr *Init = strip(VD->getInit());
  return Init != E && !isa<DeclRefExpr>(Init) &&
         threadCoordinate(Init, FD, Dim);
}

bool ThreadIndexAnalysis::isIndexClamp(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() ||
      !threadFacts().Clamps.contains(FD->getName()))
    return false;
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  if (DC->isTranslationUnit() || DC->isExternCContext())
    return true;
  const auto *NS = dyn_cast<NamespaceDecl>(DC);
  return NS && NS->isStdNamespace();
}

ThreadIndexAnalysis::FunctionFacts &
ThreadIndexAnalysis::factsOf(const FunctionDecl *FD) {
  auto &Slot = Functions[FD];
  if (!Slot) {
    Slot = std::make_unique<FunctionFacts>();
    Slot->FD = FD;
    if (const Stmt *Body = FD->getBody()) {
      DefinitionCollector C(*Slot);
      C.TraverseStmt(const_cast<Stmt *>(Body));
    }
  }
  return *Slot;
}

bool ThreadIndexAnalysis::isModified(const VarDecl *VD,
                                     const FunctionDecl *FD) {
  return factsOf(FD).Modified.count(VD);
}

namespace {
ThreadValue join(ThreadValue A, const ThreadValue &B) {
  A.Sources |= B.Sources;
  A.Dims |= B.Dims;
  A.Params |= B.Params;
  A.Trivial = false;
  return A;
}
} // namespace

ThreadValue ThreadIndexAnalysis::valueOf(const Expr *E,
                                         const FunctionDecl *FD) {
  ThreadValue V;
  E = strip(E);
  if (!E || !FD || ValueDepth >= MaxValueDepth)
    return V;
  ++ValueDepth;
  V = valueOfExpr(E, FD);
  --ValueDepth;
  return V;
}

ThreadValue ThreadIndexAnalysis::valueOfExpr(const Expr *E,
                                             const FunctionDecl *FD) {
  ThreadValue V;
  ThreadSource Src;
  unsigned Dim;
  if (isThreadQuery(E, Src, Dim)) {
    V.Sources = Src;
    V.Dims = 1u << Dim;
    V.Trivial = Src == TS_ThreadInBlock || Src == TS_BlockInGrid;
    return V;
  }
  if (constantOf(E, Ctx))
    return V;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->getType()->isIntegralOrEnumerationType())
      return V;
    FunctionFacts &F = factsOf(FD);
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      if (P->getDeclContext() == FD && P->getFunctionScopeIndex() < 64)
        V.Params = uint64_t(1) << P->getFunctionScopeIndex();
      if (!F.Modified.count(VD))
        return V;
    } else if (!VD->isLocalVarDecl() || F.Escaped.count(VD)) {
      return V;
    }
    auto It = F.VarValues.find(VD);
    if (It != F.VarValues.end())
      return It->second;
    if (!F.VarsInProgress.insert(VD).second)
      return V;
    auto DefIt = F.Defs.find(VD);
    bool First = true;
    if (DefIt != F.Defs.end()) {
      auto Defs = DefIt->second; // valueOf may grow the map.
      for (const Expr *D : Defs) {
        ThreadValue DV = valueOf(D, FD);
        V = First ? DV : join(V, DV);
        First = false;
      }
    }
    // A variable updated in place (i += stride) is no longer one coordinate.
    if (F.Modified.count(VD) && V.Sources)
      V.Trivial = false;
    F.VarsInProgress.erase(VD);
    F.VarValues[VD] = V;
    return V;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isComparisonOp() || BO->isLogicalOp())
      return V;
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return valueOf(BO->getRHS(), FD);
    ThreadValue L = valueOf(BO->getLHS(), FD), R = valueOf(BO->getRHS(), FD);
    // A coordinate scaled or shifted by constants stays one coordinate.
    if (L.Sources && !R.Sources && !R.Params && constantOf(BO->getRHS(), Ctx))
      return L;
    if (R.Sources && !L.Sources && !L.Params && constantOf(BO->getLHS(), Ctx))
      return R;
    return join(L, R);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_LNot || UO->getOpcode() == UO_AddrOf ||
        UO->getOpcode() == UO_Deref)
      return V;
    return valueOf(UO->getSubExpr(), FD);
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return join(valueOf(CO->getTrueExpr(), FD),
                valueOf(CO->getFalseExpr(), FD));
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return V;
    if (auto P = indexProduct(Call))
      return join(valueOf(P->first, FD), valueOf(P->second, FD));
    if (isIndexClamp(Callee)) {
      bool First = true;
      for (const Expr *A : Call->arguments()) {
        ThreadValue AV = valueOf(A, FD);
        V = First ? AV : join(V, AV);
        First = false;
      }
      V.Trivial = false;
      return V;
    }
    const FunctionDecl *Def = nullptr;
    if (!Callee->hasBody(Def) ||
        !isUserFunction(Def, Ctx.getSourceManager()) ||
        !Def->getReturnType()->isIntegralOrEnumerationType())
      return V;
    // A summary of the helper: what its returned values derive from, with
    // its parameters as symbols.
    auto SIt = ReturnSummaries.find(Def);
    ThreadValue Summary;
    if (SIt != ReturnSummaries.end()) {
      Summary = SIt->second;
    } else {
      if (SummaryInProgress[Def])
        return V;
      SummaryInProgress[Def] = true;
      llvm::SmallVector<const ReturnStmt *, 4> Returns;
      struct Finder : RecursiveASTVisitor<Finder> {
        llvm::SmallVectorImpl<const ReturnStmt *> &R;
        explicit Finder(llvm::SmallVectorImpl<const ReturnStmt *> &R) : R(R) {}
        bool VisitReturnStmt(ReturnStmt *RS) {
          R.push_back(RS);
          return true;
        }
        bool TraverseLambdaExpr(LambdaExpr *) { return true; }
      } Fd(Returns);
      Fd.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
      bool First = true;
      for (const ReturnStmt *RS : Returns) {
        ThreadValue RV = valueOf(RS->getRetValue(), Def);
        Summary = First ? RV : join(Summary, RV);
        First = false;
      }
      SummaryInProgress[Def] = false;
      ReturnSummaries[Def] = Summary;
    }
    V = Summary;
    V.Params = 0;
    for (unsigned I = 0, N = Call->getNumArgs(); I != N && I < 64; ++I)
      if (Summary.Params & (uint64_t(1) << I))
        V = join(V, valueOf(Call->getArg(I), FD));
    if (Summary.Params)
      V.Trivial = false;
    return V;
  }
  return V;
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
    FactBuilder(A.Ctx, A.factsOf(FD).Arena, Extra,
                [&](const VarDecl *V) { return A.isModified(V, FD); })
        .derive(CO->getCond(), Truth, nullptr);
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
