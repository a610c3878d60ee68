//===- ThreadIndexValues.cpp - Thread-derived values ----------------------===//
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

//===-- Facts from CudaApiModel.def ---------------------------------------===//

namespace tia {

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

} // namespace tia

std::optional<int64_t>
ThreadIndexAnalysis::integerConstant(const Expr *E, const ASTContext &Ctx) {
  return constantOf(E, Ctx);
}

//===-- Thread-derived values ---------------------------------------------===//
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

} // namespace clang::tidy::cuda
