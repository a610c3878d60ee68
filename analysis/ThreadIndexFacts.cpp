//===- ThreadIndexFacts.cpp - Per-function facts and fact lists -----------===//
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

//===-- Per-function state ------------------------------------------------===//

namespace tia {

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

} // namespace tia

ThreadIndexAnalysis::ThreadIndexAnalysis(ASTContext &Ctx) : Ctx(Ctx) {}
ThreadIndexAnalysis::~ThreadIndexAnalysis() = default;

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

} // namespace clang::tidy::cuda
