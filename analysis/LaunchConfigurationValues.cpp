//===- LaunchConfigurationValues.cpp - Reading launch values --------------===//
//
// The value an expression of a launch has where the launch reads it:
// followed through locals stored once, dim3 objects assembled field by
// field, struct fields, parameters bound by the call of a launcher or a
// one-return helper, and const or constexpr globals; folded to a constant
// when it is one, and compared with another value.
//
//===----------------------------------------------------------------------===//

#include "LaunchConfigurationInternal.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "MemorySpaceAnalysis.h"
#include "ThreadIndexAnalysis.h"
#include "TranslationUnitScan.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda {

using namespace launch_config;

namespace {

const Expr *singleReturn(const FunctionDecl *FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  return Ret ? Ret->getRetValue() : nullptr;
}

bool isDim3(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "dim3";
}

int fieldIndex(llvm::StringRef Name) {
  if (Name == "x")
    return 0;
  if (Name == "y")
    return 1;
  if (Name == "z")
    return 2;
  return -1;
}

/// Whether \p FD is the call operator of a lambda written in \p Owner
/// (directly, or in a lambda written there), so that \p Owner's locals
/// are captured in it.
bool capturedFrom(const FunctionDecl *FD, const FunctionDecl *Owner) {
  const DeclContext *DC = FD;
  for (unsigned Step = 0; DC && Step < 8; ++Step) {
    if (DC == Owner)
      return Step > 0;
    const auto *MD = dyn_cast<CXXMethodDecl>(DC);
    if (!MD || !MD->getParent()->isLambda())
      return false;
    DC = MD->getParent()->getDeclContext();
  }
  return false;
}

/// Whether \p Arg, an argument of \p Call, is bound to a parameter of
/// type 'const T &' of the function called.
bool bindsConstReference(const CallExpr *Call, const Stmt *Arg) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || isa<CXXOperatorCallExpr>(Call))
    return false;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    if (Call->getArg(I) == Arg) {
      if (I >= Callee->getNumParams())
        return false;
      QualType T = Callee->getParamDecl(I)->getType();
      return T->isLValueReferenceType() &&
             T.getNonReferenceType().isConstQualified();
    }
  return false;
}

/// Whether \p E is a read of \p VD.
bool refersTo(const Expr *E, const VarDecl *VD) {
  const auto *DRE =
      dyn_cast_or_null<DeclRefExpr>(ThreadIndexAnalysis::strip(E));
  return DRE && DRE->getDecl() == VD;
}

/// The constant \p Cond, being \p Truth, says \p VD equals: 'VD == C'
/// true, 'VD != C' false, either within a conjunction that holds.
const Expr *equalityFix(const Expr *Cond, const VarDecl *VD, bool Truth,
                        const ASTContext &Ctx, unsigned Depth = 0) {
  const Expr *E = ThreadIndexAnalysis::strip(Cond);
  if (!E || Depth > 8)
    return nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_LNot)
    return equalityFix(UO->getSubExpr(), VD, !Truth, Ctx, Depth + 1);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return nullptr;
  if (BO->isLogicalOp()) {
    // 'a && b' true, or 'a || b' false: both parts hold.
    if ((BO->getOpcode() == BO_LAnd) != Truth)
      return nullptr;
    if (const Expr *C = equalityFix(BO->getLHS(), VD, Truth, Ctx, Depth + 1))
      return C;
    return equalityFix(BO->getRHS(), VD, Truth, Ctx, Depth + 1);
  }
  if (BO->getOpcode() != (Truth ? BO_EQ : BO_NE))
    return nullptr;
  for (auto [Var, Const] : {std::pair(BO->getLHS(), BO->getRHS()),
                            std::pair(BO->getRHS(), BO->getLHS())})
    if (refersTo(Var, VD) && ThreadIndexAnalysis::integerConstant(Const, Ctx))
      return Const;
  return nullptr;
}

/// Whether \p S leaves the switch it is in, or the function: break,
/// return, continue, goto, or a block whose last statement does.
bool endsInJump(const Stmt *S) {
  while (const auto *SC = dyn_cast_or_null<SwitchCase>(S))
    S = SC->getSubStmt();
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && endsInJump(CS->body_back());
  return isa_and_nonnull<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S);
}

/// Whether \p S holds a label a jump could enter by: a case or default
/// label, or a goto label.
bool holdsLabel(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitSwitchCase(SwitchCase *) { return !(Found = true); }
    bool VisitLabelStmt(LabelStmt *) { return !(Found = true); }
    // Labels of an inner switch, or of a lambda, are not this one's.
    bool TraverseSwitchStmt(SwitchStmt *SW) {
      return TraverseStmt(SW->getCond());
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// The value of 'case C:' that alone leads to \p Top, a statement of the
/// body of \p SW (or its body): the nearest label before it, which no
/// other case falls through to; null for a default label, several labels
/// on one statement ('case 64: case 128:') or a range.
const Expr *caseOf(const SwitchStmt *SW, const Stmt *Top) {
  const Stmt *Body = SW->getBody();
  llvm::ArrayRef<Stmt *> Stmts;
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    Stmts = llvm::ArrayRef(CS->body_begin(), CS->body_end());
  else
    Stmts = llvm::ArrayRef(const_cast<Stmt **>(&Body), 1);
  const auto *It = llvm::find(Stmts, Top);
  if (It == Stmts.end())
    return nullptr;
  for (size_t I = It - Stmts.begin() + 1; I-- > 0;) {
    const Stmt *S = Stmts[I];
    const auto *Label = dyn_cast<SwitchCase>(S);
    if (!Label) {
      if (holdsLabel(S))
        return nullptr;
      continue;
    }
    const auto *Case = dyn_cast<CaseStmt>(Label);
    if (!Case || Case->caseStmtIsGNURange() ||
        isa<SwitchCase>(Case->getSubStmt()) ||
        (I == size_t(It - Stmts.begin()) && holdsLabel(Case->getSubStmt())))
      return nullptr;
    // Reached only by its label: the first statement, or after a jump.
    if (I > 0 && !endsInJump(Stmts[I - 1]))
      return nullptr;
    return Case->getLHS();
  }
  return nullptr;
}

} // namespace

const ParentMap &
LaunchConfiguration::Impl::parentsOf(const FunctionDecl *FD) {
  auto &Slot = ParentMaps[FD];
  if (!Slot)
    Slot = std::make_unique<ParentMap>(const_cast<Stmt *>(FD->getBody()));
  return *Slot;
}

std::optional<Val>
LaunchConfiguration::Impl::fixedByBranch(const VarDecl *VD, const Frame *F) {
  if (!F || !F->At || !VD->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  const auto *Owner = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
  if (!Owner || !Owner->getBody() ||
      (F->FD != Owner && !capturedFrom(F->FD, Owner)))
    return std::nullopt;
  const VarUse *U = useOf(VD, Owner);
  if (!U || U->Escapes || !U->Stores.empty() || !U->FieldStores.empty())
    return std::nullopt;
  // The owner's parent map holds the bodies of the lambdas written in it
  // (a launch in an AT_DISPATCH lambda under 'case 128:').
  const ParentMap &PM = parentsOf(Owner);
  const Stmt *Child = F->At;
  for (const Stmt *S = PM.getParent(Child); S;
       Child = S, S = PM.getParent(S)) {
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (Child != If->getThen() && Child != If->getElse())
        continue;
      if (const Expr *C = equalityFix(If->getCond(), VD,
                                      Child == If->getThen(), Ctx))
        return Val{C, nullptr};
      continue;
    }
    const auto *SW = dyn_cast<SwitchStmt>(S);
    if (!SW || !refersTo(SW->getCond(), VD))
      continue;
    if (Child == SW->getBody() && !isa<CompoundStmt>(Child)) {
      if (const Expr *C = caseOf(SW, Child))
        return Val{C, nullptr};
      return std::nullopt;
    }
    // Child is the body; the statement of it on the way is one below.
    const Stmt *Top = F->At;
    while (Top && PM.getParent(Top) != Child)
      Top = PM.getParent(Top);
    if (const Expr *C = Top ? caseOf(SW, Top) : nullptr)
      return Val{C, nullptr};
    return std::nullopt;
  }
  return std::nullopt;
}

const VarUse *LaunchConfiguration::Impl::useOf(const VarDecl *VD,
                                               const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return nullptr;
  auto &Slot = Uses[FD];
  if (!Slot) {
    Slot = std::make_unique<llvm::DenseMap<const VarDecl *, VarUse>>();
    // The CFG's parent map, which the checks build anyway.
    std::optional<ParentMap> OwnParents;
    const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).cfgOf(FD);
    const ParentMap &PM =
        Cfg ? Cfg->parents() : OwnParents.emplace(FD->getBody());
    // Walks every reference to a variable and classifies its use.
    struct Walker : RecursiveASTVisitor<Walker> {
      const ParentMap &PM;
      llvm::DenseMap<const VarDecl *, VarUse> &Out;
      Walker(const ParentMap &PM,
             llvm::DenseMap<const VarDecl *, VarUse> &Out)
          : PM(PM), Out(Out) {}
      /// \p S with the parentheses and no-op casts around it, and the
      /// parent of that.
      std::pair<const Stmt *, const Stmt *> climb(const Stmt *S) {
        const Stmt *P = PM.getParent(S);
        while (P && (isa<ParenExpr>(P) ||
                     (isa<ImplicitCastExpr>(P) &&
                      cast<ImplicitCastExpr>(P)->getCastKind() == CK_NoOp))) {
          S = P;
          P = PM.getParent(S);
        }
        return {S, P};
      }
      const Stmt *up(const Stmt *S) { return climb(S).second; }
      const Stmt *self(const Stmt *S) { return climb(S).first; }
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        if (!VD)
          return true;
        VarUse &U = Out[VD];
        const Stmt *Me = self(DRE);
        const Stmt *P = up(DRE);
        if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
          // A field: 'grid.x = 12' stores it, a read reads it.
          if (ME->isArrow())
            return U.Escapes = true, true;
          const Stmt *MP = up(ME);
          const Stmt *MS = self(ME);
          if (const auto *BO = dyn_cast_or_null<BinaryOperator>(MP)) {
            if (BO->isAssignmentOp() && BO->getLHS() == MS) {
              if (BO->getOpcode() == BO_Assign && ME->getMemberDecl() &&
                  ME->getMemberDecl()->getIdentifier())
                U.FieldStores.push_back(
                    {ME->getMemberDecl()->getName(), BO->getRHS()});
              else
                U.Escapes = true;
            }
            return true;
          }
          // A struct field assigned whole: 'cfg.blockDim = dim3(256)'.
          if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(MP)) {
            if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
                OC->getArg(0) == MS && ME->getMemberDecl()->getIdentifier()) {
              U.FieldStores.push_back(
                  {ME->getMemberDecl()->getName(), OC->getArg(1)});
              return true;
            }
          }
          if (const auto *UO = dyn_cast_or_null<UnaryOperator>(MP))
            if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
              U.Escapes = true;
          if (isa_and_nonnull<MemberExpr>(MP)) // cfg.gridDim.x = ...
            if (const auto *BO = dyn_cast_or_null<BinaryOperator>(up(MP)))
              if (BO->isAssignmentOp())
                U.Escapes = true;
          if (ME->getType()->isRecordType() && !isa_and_nonnull<MemberExpr>(MP) &&
              !isa_and_nonnull<CXXConstructExpr>(MP) &&
              !isa_and_nonnull<ImplicitCastExpr>(MP))
            U.Escapes = true; // A field object passed on by reference.
          return true;
        }
        if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P)) {
          if (BO->isAssignmentOp() && BO->getLHS() == Me) {
            if (BO->getOpcode() == BO_Assign)
              U.Stores.push_back(BO->getRHS());
            else
              U.Escapes = true;
          }
          return true;
        }
        if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P)) {
          if (UO->isIncrementDecrementOp())
            U.Escapes = true;
          else if (UO->getOpcode() == UO_AddrOf) {
            // '&cfg' given to a launch is read, not kept.
            const Stmt *Q = up(UO);
            while (isa_and_nonnull<ImplicitCastExpr, CStyleCastExpr>(Q))
              Q = up(Q);
            const auto *Call = dyn_cast_or_null<CallExpr>(Q);
            const ApiFunction *F = Call ? CudaApiModel::lookup(Call) : nullptr;
            if (!F || !F->Launch || F->Launch->ConfigArg < 0)
              U.Escapes = true;
          }
          return true;
        }
        if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P)) {
          if (IC->getCastKind() != CK_LValueToRValue &&
              IC->getCastKind() != CK_ArrayToPointerDecay &&
              IC->getCastKind() != CK_DerivedToBase &&
              IC->getCastKind() != CK_UncheckedDerivedToBase)
            U.Escapes = true;
          if (IC->getCastKind() == CK_ArrayToPointerDecay)
            U.Escapes = true;
          return true;
        }
        if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(P)) {
          // A copy (dim3 passed by value to a launch) reads it.
          if (!CE->getConstructor()->isCopyOrMoveConstructor())
            U.Escapes = true;
          return true;
        }
        if (const auto *Call = dyn_cast_or_null<CallExpr>(P)) {
          // Passed by reference; a const reference only reads it
          // ('TORCH_CHECK(false, "bad size ", threads)').
          if (!VD->getType()->isReferenceType() &&
              !bindsConstReference(Call, Me))
            U.Escapes = true;
          return true;
        }
        if (P && !isa<MemberExpr, ArraySubscriptExpr>(P) &&
            DRE->isGLValue() && !VD->getType()->isArrayType())
          U.Escapes = true;
        return true;
      }
      bool TraverseLambdaExpr(LambdaExpr *L) {
        // A lambda's body is read with the function's: its stores to the
        // variables it captures by reference are stores of the function
        // (an AT_DISPATCH lambda reads the grid its function computed).
        // A lambda that is not the function's own is read as before.
        if (L->getBody())
          TraverseStmt(L->getBody());
        return true;
      }
    } W(PM, *Slot);
    W.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  }
  auto It = Slot->find(VD);
  static const VarUse Unused;
  return It == Slot->end() ? &Unused : &It->second;
}

Val LaunchConfiguration::Impl::resolve(Val V, unsigned Depth) {
  for (unsigned Step = 0; Step < 24 && V.E && !V.Unknown; ++Step) {
    const Expr *E = ThreadIndexAnalysis::strip(V.E);
    V.E = E;
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E)) {
      V.E = DA->getExpr();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return V;
      // Under 'case 128:' of 'switch (threads)': 128.
      if (!VD->hasGlobalStorage())
        if (std::optional<Val> Fixed = fixedByBranch(VD, V.F)) {
          V = *Fixed;
          continue;
        }
      if (const auto *PV = dyn_cast<ParmVarDecl>(VD)) {
        const Frame *F = V.F;
        if (!F || !F->Call || PV->getDeclContext() != F->FD)
          return V;
        const VarUse *U = useOf(PV, F->FD);
        if (!U || U->Escapes || !U->Stores.empty() || !U->FieldStores.empty())
          return V;
        unsigned I = PV->getFunctionScopeIndex();
        if (I >= F->Call->getNumArgs())
          return V;
        V.E = F->Call->getArg(I);
        V.F = F->Parent;
        continue;
      }
      if (VD->hasLocalStorage()) {
        const FunctionDecl *Owner =
            dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
        if (!Owner || !V.F || (V.F->FD != Owner && !capturedFrom(V.F->FD, Owner)))
          return V;
        const VarUse *U = useOf(VD, Owner);
        if (!U || U->Escapes || !U->FieldStores.empty())
          return V;
        const Expr *Init = VD->getInit();
        bool TrivialInit =
            !Init || (isa<CXXConstructExpr>(ThreadIndexAnalysis::strip(Init)) &&
                      cast<CXXConstructExpr>(ThreadIndexAnalysis::strip(Init))
                              ->getNumArgs() == 0);
        if (U->Stores.empty() && Init) {
          V.E = Init;
          continue;
        }
        if (U->Stores.size() == 1 && TrivialInit) {
          V.E = U->Stores.front();
          continue;
        }
        return V;
      }
      // A constant global: 'const int kBlock = 256;', constexpr.
      if (VD->hasGlobalStorage() &&
          (VD->getType().isConstQualified() || VD->isConstexpr()) &&
          VD->getAnyInitializer()) {
        V.E = VD->getAnyInitializer();
        V.F = nullptr;
        continue;
      }
      return V;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // One component of a dim3: 'block.x'.
      int I = ME->getMemberDecl() && ME->getMemberDecl()->getIdentifier()
                  ? fieldIndex(ME->getMemberDecl()->getName())
                  : -1;
      if (I < 0 || ME->isArrow() || !isDim3(ME->getBase()->getType()) ||
          Depth > 6)
        return V;
      Val Parts[3];
      if (!components({ME->getBase(), V.F}, Parts, Depth + 1))
        return V;
      if (Parts[I].Unknown)
        return V;
      if (!Parts[I].E) { // A default component: 1.
        V.E = IntegerLiteral::Create(Ctx, llvm::APInt(32, 1), Ctx.IntTy,
                                     ME->getExprLoc());
        V.F = nullptr;
        return V;
      }
      V = Parts[I];
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      // A helper whose body is one return: 'divUp(n, 256)'.
      const FunctionDecl *Callee = Call->getDirectCallee();
      const FunctionDecl *Def = nullptr;
      if (!Callee || isa<CUDAKernelCallExpr>(Call) || Depth > 6 ||
          !Callee->hasBody(Def) ||
          Ctx.getSourceManager().isInSystemHeader(
              Ctx.getSourceManager().getExpansionLoc(Def->getLocation())))
        return V;
      const Expr *Ret = singleReturn(Def);
      if (!Ret)
        return V;
      V.F = frame(Def, Call, V.F, nullptr);
      V.E = Ret;
      ++Depth;
      continue;
    }
    return V;
  }
  return V;
}

std::optional<int64_t> LaunchConfiguration::Impl::evaluate(
    Val V, unsigned Depth, ConstantSource *From) {
  if (Depth > 12 || V.Unknown)
    return std::nullopt;
  if (!V.E)
    return 1;
  V = resolve(V, Depth);
  if (From) {
    // The frames of the launch chain have At set, helpers' frames do not;
    // the launch's own function is the one at the launch.
    const Frame *F = V.F;
    while (F && !F->At)
      F = F->Parent;
    From->E = V.E;
    From->InCaller = F && F->At != ReadingLaunch;
  }
  if (!V.E || V.E->isValueDependent() ||
      !V.E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (auto C = ThreadIndexAnalysis::integerConstant(V.E, Ctx))
    return C;
  const auto *BO = dyn_cast<BinaryOperator>(V.E);
  if (!BO)
    return std::nullopt;
  auto L = evaluate({BO->getLHS(), V.F}, Depth + 1);
  if (!L)
    return std::nullopt;
  auto R = evaluate({BO->getRHS(), V.F}, Depth + 1);
  if (!R)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case BO_Add:
    return *L + *R;
  case BO_Sub:
    return *L - *R;
  case BO_Mul:
    return *L * *R;
  case BO_Div:
    return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
  case BO_Rem:
    return *R ? std::optional<int64_t>(*L % *R) : std::nullopt;
  case BO_Shl:
    return *R >= 0 && *R < 62 ? std::optional<int64_t>(*L << *R)
                              : std::nullopt;
  case BO_Shr:
    return *R >= 0 && *R < 62 ? std::optional<int64_t>(*L >> *R)
                              : std::nullopt;
  default:
    return std::nullopt;
  }
}

bool LaunchConfiguration::Impl::same(Val A, Val B, unsigned Depth) {
  if (Depth > 10 || !A.E || !B.E || A.Unknown || B.Unknown)
    return false;
  auto CA = evaluate(A, Depth + 1), CB = evaluate(B, Depth + 1);
  if (CA || CB)
    return CA && CB && *CA == *CB;
  A = resolve(A, Depth);
  B = resolve(B, Depth);
  if (A.E == B.E && A.F == B.F)
    return true;
  if (const auto *DA = dyn_cast<DeclRefExpr>(A.E)) {
    const auto *DB = dyn_cast<DeclRefExpr>(B.E);
    return DB && DA->getDecl() == DB->getDecl();
  }
  if (const auto *MA = dyn_cast<MemberExpr>(A.E)) {
    const auto *MB = dyn_cast<MemberExpr>(B.E);
    return MB && MA->getMemberDecl() == MB->getMemberDecl() &&
           same({MA->getBase(), A.F}, {MB->getBase(), B.F}, Depth + 1);
  }
  if (const auto *BA = dyn_cast<BinaryOperator>(A.E)) {
    const auto *BB = dyn_cast<BinaryOperator>(B.E);
    if (!BB || BA->getOpcode() != BB->getOpcode())
      return false;
    if (same({BA->getLHS(), A.F}, {BB->getLHS(), B.F}, Depth + 1) &&
        same({BA->getRHS(), A.F}, {BB->getRHS(), B.F}, Depth + 1))
      return true;
    return (BA->getOpcode() == BO_Add || BA->getOpcode() == BO_Mul) &&
           same({BA->getLHS(), A.F}, {BB->getRHS(), B.F}, Depth + 1) &&
           same({BA->getRHS(), A.F}, {BB->getLHS(), B.F}, Depth + 1);
  }
  if (const auto *UA = dyn_cast<UnaryOperator>(A.E)) {
    const auto *UB = dyn_cast<UnaryOperator>(B.E);
    return UB && UA->getOpcode() == UB->getOpcode() &&
           same({UA->getSubExpr(), A.F}, {UB->getSubExpr(), B.F}, Depth + 1);
  }
  if (const auto *CA2 = dyn_cast<CallExpr>(A.E)) {
    const auto *CB2 = dyn_cast<CallExpr>(B.E);
    if (!CB2 || !CA2->getDirectCallee() ||
        CA2->getDirectCallee() != CB2->getDirectCallee() ||
        CA2->getNumArgs() != CB2->getNumArgs())
      return false;
    for (unsigned I = 0; I < CA2->getNumArgs(); ++I)
      if (!same({CA2->getArg(I), A.F}, {CB2->getArg(I), B.F}, Depth + 1))
        return false;
    return true;
  }
  return false;
}

std::optional<Val> LaunchConfiguration::Impl::fieldOf(Val Object,
                                                      llvm::StringRef Field,
                                                      unsigned Depth) {
  Object.E = ThreadIndexAnalysis::strip(Object.E);
  if (const auto *U = dyn_cast<UnaryOperator>(Object.E))
    if (U->getOpcode() == UO_AddrOf)
      Object.E = ThreadIndexAnalysis::strip(U->getSubExpr());
  const auto *DRE = dyn_cast<DeclRefExpr>(Object.E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || !Object.F)
    return std::nullopt;
  const VarUse *U = useOf(VD, Object.F->FD);
  if (!U || U->Escapes || !U->Stores.empty())
    return std::nullopt;
  const Expr *Found = nullptr;
  for (auto &[Name, RHS] : U->FieldStores)
    if (Name == Field) {
      if (Found)
        return std::nullopt;
      Found = RHS;
    }
  if (Found)
    return Val{Found, Object.F};
  // An aggregate initializer: '= {grid, block, bytes}'.
  const auto *RD = VD->getType()->getAsRecordDecl();
  const auto *IL = dyn_cast_or_null<InitListExpr>(
      VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr);
  if (RD && IL) {
    unsigned I = 0;
    for (const FieldDecl *FDecl : RD->fields()) {
      if (FDecl->getName() == Field)
        return I < IL->getNumInits() ? std::optional<Val>(Val{IL->getInit(I), Object.F})
                                     : std::nullopt;
      ++I;
    }
  }
  return std::nullopt;
}

bool LaunchConfiguration::Impl::components(Val V, Val Out[3],
                                           unsigned Depth) {
  for (unsigned Step = 0; Step < 8 && Depth < 8; ++Step) {
    V = resolve(V, Depth);
    if (V.Unknown || !V.E || V.E->isTypeDependent() || V.E->isValueDependent())
      return false;
    const Expr *E = V.E;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getNumArgs() == 1) {
        V.E = CE->getArg(0);
        continue;
      }
      if (CE->getNumArgs() == 0) {
        for (unsigned D = 0; D < 3; ++D)
          Out[D] = Val{};
        return true;
      }
      if (CE->getNumArgs() != 3)
        return false;
      for (unsigned D = 0; D < 3; ++D) {
        const Expr *Arg = CE->getArg(D);
        if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(Arg))
          Out[D] = Val{DA->getExpr(), nullptr};
        else
          Out[D] = Val{Arg, V.F};
      }
      return true;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      if (!isDim3(IL->getType()) || IL->getNumInits() > 3)
        return false;
      for (unsigned D = 0; D < 3; ++D)
        Out[D] = D < IL->getNumInits() ? Val{IL->getInit(D), V.F} : Val{};
      return true;
    }
    if (E->getType()->isIntegerType()) {
      Out[0] = V;
      Out[1] = Out[2] = Val{};
      return true;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // A struct's dim3 field: 'cfg.gridDim'.
      if (ME->isArrow() || !ME->getMemberDecl()->getIdentifier())
        return false;
      std::optional<Val> F =
          fieldOf({ME->getBase(), V.F}, ME->getMemberDecl()->getName(), Depth);
      if (!F)
        return false;
      V = *F;
      continue;
    }
    // A dim3 assembled field by field: 'dim3 grid; grid.x = 12;'.
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        !isDim3(VD->getType()) || !V.F ||
        V.F->FD != dyn_cast_or_null<FunctionDecl>(VD->getDeclContext()))
      return false;
    const VarUse *U = useOf(VD, V.F->FD);
    if (!U || U->Escapes || U->Stores.size() > 1)
      return false;
    if (U->Stores.size() == 1) {
      if (!components({U->Stores.front(), V.F}, Out, Depth + 1))
        return false;
    } else if (VD->getInit()) {
      if (!components({VD->getInit(), V.F}, Out, Depth + 1))
        return false;
    } else {
      for (unsigned D = 0; D < 3; ++D)
        Out[D] = Val{};
    }
    for (unsigned D = 0; D < 3; ++D) {
      const char *Name[] = {"x", "y", "z"};
      unsigned N = 0;
      for (auto &[Field, RHS] : U->FieldStores)
        if (Field == Name[D]) {
          Out[D] = Val{RHS, V.F};
          ++N;
        }
      if (N > 1)
        Out[D] = Val::unknown();
    }
    return true;
  }
  return false;
}

} // namespace clang::tidy::cuda
