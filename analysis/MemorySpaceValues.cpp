//===- MemorySpaceValues.cpp ----------------------------------------------===//
//
// What an expression names and points to in one state, within one
// function (FunctionAnalyzer): the tracked location an lvalue names
// (locOf), reads and writes of locations, and the fact an expression
// evaluates to (eval): allocations, new, arrays, host containers, casts,
// address-of and calls answered by same-TU summaries.
//
//===----------------------------------------------------------------------===//

#include "MemorySpaceInternal.h"
#include "TemplatePatterns.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda {

bool FunctionAnalyzer::isWeak(const LocKey &K) const {
  // Elements of an array are one location: a write adds a value to it.
  // What a pointer points to is one object: a write replaces it.
  QualType T = K.Root->getType().getNonReferenceType();
  for (const FieldDecl *F : K.Path) {
    if (F) {
      T = F->getType();
      continue;
    }
    if (T->isArrayType())
      return true;
    if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    else
      return true;
  }
  return false;
}

PointerFact FunctionAnalyzer::read(const LocKey &K,
                                   const MemoryState &St) const {
  if (R.Escaped.count(K.Root))
    return PointerFact::unknown();
  auto It = St.find(K);
  return It == St.end() ? PointerFact::unknown() : It->second;
}

void FunctionAnalyzer::write(const LocKey &K, const PointerFact &F,
                             MemoryState &St, bool Weak) const {
  if (R.Escaped.count(K.Root))
    return;
  // A new value for a location invalidates what was known below it.
  if (!Weak) {
    auto [First, Last] = St.withPrefix(K);
    if (First != Last && First->first == K)
      ++First;
    St.erase(First, Last);
  }
  if (Weak) {
    auto It = St.find(K);
    St[K] = It == St.end() ? PointerFact::unknown()
                           : PointerFact::join(It->second, F);
    return;
  }
  St[K] = F;
}

void FunctionAnalyzer::clobber(const LocKey &Prefix, bool IncludeSelf,
                               MemoryState &St) const {
  auto [First, Last] = St.withPrefix(Prefix);
  for (auto It = First; It != Last; ++It)
    if (IncludeSelf || It->first.Path.size() > Prefix.Path.size())
      It->second = PointerFact::unknown();
  if (IncludeSelf)
    St[Prefix] = PointerFact::unknown();
  if (const auto *P = dyn_cast<ParmVarDecl>(Prefix.Root))
    R.ClobberedParams.insert(P);
}

std::optional<LocKey> FunctionAnalyzer::locOf(const Expr *E) const {
  E = E->IgnoreParens();
  while (const auto *C = dyn_cast<ImplicitCastExpr>(E)) {
    if (C->getCastKind() != CK_NoOp && C->getCastKind() != CK_LValueToRValue &&
        C->getCastKind() != CK_ArrayToPointerDecay)
      break;
    E = C->getSubExpr()->IgnoreParens();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || DRE->refersToEnclosingVariableOrCapture())
      return std::nullopt;
    if (isa<ParmVarDecl>(VD) || (VD->hasLocalStorage() &&
                                 !VD->getType()->isReferenceType()))
      return LocKey{VD, {}};
    return std::nullopt;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FDecl = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FDecl)
      return std::nullopt;
    auto Base = locOf(ME->getBase());
    if (!Base || Base->Path.size() >= 3)
      return std::nullopt;
    Base->Path.push_back(FDecl);
    return Base;
  }
  const Expr *Inner = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    Inner = AS->getBase();
  else if (const auto *U = dyn_cast<UnaryOperator>(E);
           U && U->getOpcode() == UO_Deref)
    Inner = U->getSubExpr();
  if (Inner) {
    auto Base = locOf(Inner);
    if (!Base || Base->Path.size() >= 3)
      return std::nullopt;
    // `*p` and `p[i]` of a pointer variable name what it points to; of an
    // array, its elements.
    Base->Path.push_back(nullptr);
    return Base;
  }
  return std::nullopt;
}

/// The size of the elements of a host container variable that is never
/// resized: std::array from its type, std::vector and friends from a count
/// constructor.
static AllocSize containerSize(const VarDecl *VD, ASTContext &Ctx,
                               QualType &Elem) {
  AllocSize S;
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          VD->getType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() == 0 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return S;
  Elem = Spec->getTemplateArgs()[0].getAsType().getUnqualifiedType();
  if (Elem->isIncompleteType() || Elem->isDependentType())
    return S;
  int64_t ElemBytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
  if (Spec->getName() == "array" && Spec->getTemplateArgs().size() > 1 &&
      Spec->getTemplateArgs()[1].getKind() == TemplateArgument::Integral) {
    S.Known = true;
    S.Constant =
        ElemBytes * Spec->getTemplateArgs()[1].getAsIntegral().getExtValue();
    return S;
  }
  const auto *Init = dyn_cast_or_null<CXXConstructExpr>(
      VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr);
  if (!Init || Init->getNumArgs() == 0 ||
      Init->getConstructor()->getNumParams() == 0 ||
      !Init->getConstructor()->getParamDecl(0)->getType()->isIntegerType())
    return S;
  S.Known = true;
  S.Constant = ElemBytes;
  S.Factors.push_back(Init->getArg(0));
  return S;
}

PointerFact FunctionAnalyzer::evalContainerData(const Expr *Object) const {
  PointerFact F = PointerFact::inSpace(MS_Host);
  const auto *DRE = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType() ||
      DRE->refersToEnclosingVariableOrCapture() || R.Modified.count(VD) ||
      R.Escaped.count(VD))
    return F;
  QualType Elem;
  AllocSize S = containerSize(VD, Ctx, Elem);
  if (S.Known) {
    F.Size = S;
    F.ElemType = Elem;
    F.AllocDecl = VD;
  }
  return F;
}

PointerFact FunctionAnalyzer::evalArrayObject(const Expr *E) const {
  E = E->IgnoreParens();
  if (isa<StringLiteral>(E)) {
    PointerFact F = PointerFact::inSpace(MS_Host);
    return F;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return PointerFact::unknown();
    if (isDeviceVariable(VD)) {
      PointerFact F = PointerFact::inSpace(MS_Symbol);
      F.AllocDecl = VD;
      return F;
    }
    if (isManagedVariable(VD)) {
      PointerFact F = PointerFact::inSpace(MS_Managed);
      F.AllocDecl = VD;
      return F;
    }
    if (VD->getType()->isReferenceType() || isa<ParmVarDecl>(VD) ||
        VD->hasAttr<CUDASharedAttr>())
      return PointerFact::unknown();
    PointerFact F = PointerFact::inSpace(MS_Host);
    F.AllocDecl = VD;
    if (const auto *CAT = Ctx.getAsConstantArrayType(VD->getType());
        CAT && knownTypeSize(QualType(CAT, 0), Ctx)) {
      F.Size.Known = true;
      F.Size.Constant = *knownTypeSize(QualType(CAT, 0), Ctx);
      F.ElemType = CAT->getElementType().getUnqualifiedType();
    }
    return F;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // An array member of a local struct is on the stack.
    if (auto L = locOf(ME->getBase()); L && L->Path.empty() && !ME->isArrow()) {
      PointerFact F = PointerFact::inSpace(MS_Host);
      F.AllocDecl = ME->getMemberDecl();
      return F;
    }
  }
  return PointerFact::unknown();
}

PointerFact FunctionAnalyzer::evalAddressOf(const Expr *Sub,
                                            const MemoryState &St) const {
  Sub = Sub->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return PointerFact::unknown();
    if (isDeviceVariable(VD) || isManagedVariable(VD) ||
        VD->getType()->isArrayType())
      return evalArrayObject(Sub);
    if (VD->getType()->isReferenceType() || VD->hasAttr<CUDASharedAttr>())
      return PointerFact::unknown();
    PointerFact F = PointerFact::inSpace(MS_Host);
    F.AllocDecl = VD;
    if (std::optional<int64_t> Bytes = knownTypeSize(VD->getType(), Ctx)) {
      F.Size.Known = true;
      F.Size.Constant = *Bytes;
    }
    return F;
  }
  // &p[i], &*p, &p->f: inside whatever p points to.
  if (const Expr *Base = accessedPointer(Sub)) {
    PointerFact F = eval(Base, St);
    if (!F.Unknown) {
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
        Expr::EvalResult Zero;
        if (AS->getIdx()->isValueDependent() ||
            !AS->getIdx()->EvaluateAsInt(Zero, Ctx) ||
            Zero.Val.getInt() != 0)
          F.Offset = true;
      } else if (isa<MemberExpr>(Sub)) {
        F.Offset = true;
      }
    }
    return F;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Sub)) {
    // &v[i] of a host container.
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2) {
      const auto *RD = OC->getArg(0)->getType()->getAsCXXRecordDecl();
      if (CudaApiModel::isHostContainer(RD)) {
        PointerFact F = evalContainerData(OC->getArg(0));
        Expr::EvalResult Zero;
        if (OC->getArg(1)->isValueDependent() ||
            !OC->getArg(1)->EvaluateAsInt(Zero, Ctx) ||
            Zero.Val.getInt() != 0)
          F.Offset = true;
        return F;
      }
    }
  }
  if (const auto *ME = dyn_cast<MemberExpr>(Sub)) {
    if (auto L = locOf(ME->getBase()); L && L->Path.empty()) {
      PointerFact F = PointerFact::inSpace(MS_Host);
      F.AllocDecl = ME->getMemberDecl();
      return F;
    }
  }
  return PointerFact::unknown();
}

PointerFact FunctionAnalyzer::allocation(const CallExpr *Call,
                                         const ApiFunction &Api,
                                         const MemoryState &) const {
  const AllocInfo &A = *Api.Alloc;
  PointerFact F = PointerFact::inSpace(A.Space);
  F.AllocSite = Call;
  F.Allocator = Call->getDirectCallee();
  unsigned N = Call->getNumArgs();
  if (A.PitchOutArg >= 0) {
    if ((unsigned)A.PitchOutArg < N) {
      const Expr *P = Call->getArg(A.PitchOutArg)->IgnoreParenCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(P);
          U && U->getOpcode() == UO_AddrOf)
        F.PitchLoc = locOf(U->getSubExpr());
    }
    if (A.BytesArg >= 0 && (unsigned)A.BytesArg < N)
      F.PitchWidth = Call->getArg(A.BytesArg);
    return F; // Its size depends on the pitch.
  }
  if (A.BytesArg >= 0 && (unsigned)A.BytesArg < N) {
    F.Size.Known = true;
    F.Size.Factors.push_back(Call->getArg(A.BytesArg));
    if (A.Bytes2Arg >= 0 && (unsigned)A.Bytes2Arg < N)
      F.Size.Factors.push_back(Call->getArg(A.Bytes2Arg));
  }
  return F;
}

PointerFact FunctionAnalyzer::eval(const Expr *E,
                                   const MemoryState &St) const {
  if (!E)
    return PointerFact::unknown();
  E = E->IgnoreParens();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return eval(EWC->getSubExpr(), St);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(MT->getSubExpr(), St);
  if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
    return eval(BT->getSubExpr(), St);
  if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
      Expr::NPCK_NotNull)
    return PointerFact::null();
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return evalCast(CE, St);
  if (isa<StringLiteral>(E))
    return evalArrayObject(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_AddrOf)
      return evalAddressOf(U->getSubExpr(), St);
    if (U->isIncrementDecrementOp() && U->isPrefix()) {
      if (auto L = locOf(U->getSubExpr()))
        return read(*L, St);
    }
    return PointerFact::unknown();
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAdditiveOp() && B->getType()->isPointerType()) {
      const Expr *P = B->getLHS()->getType()->isPointerType() ? B->getLHS()
                                                              : B->getRHS();
      PointerFact F = eval(P, St);
      if (!F.Unknown)
        F.Offset = true;
      return F;
    }
    if (B->getOpcode() == BO_Comma)
      return eval(B->getRHS(), St);
    if (B->getOpcode() == BO_Assign)
      return eval(B->getRHS(), St);
    return PointerFact::unknown();
  }
  if (const auto *C = dyn_cast<AbstractConditionalOperator>(E))
    return PointerFact::join(eval(C->getTrueExpr(), St),
                             eval(C->getFalseExpr(), St));
  if (const auto *New = dyn_cast<CXXNewExpr>(E))
    return evalNew(New);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call, St);
  if (auto L = locOf(E); L && E->isPRValue())
    return read(*L, St);
  return PointerFact::unknown();
}

PointerFact FunctionAnalyzer::evalCast(const CastExpr *CE,
                                       const MemoryState &St) const {
  switch (CE->getCastKind()) {
  case CK_LValueToRValue: {
    if (auto L = locOf(CE->getSubExpr()))
      return read(*L, St);
    if (const ValueDecl *S = outlivingStorage(CE->getSubExpr()))
      return MSA.storageFact(S);
    return PointerFact::unknown();
  }
  case CK_ArrayToPointerDecay:
    return evalArrayObject(CE->getSubExpr());
  case CK_BitCast:
    if (isa<ExplicitCastExpr>(CE)) {
      PointerFact F = eval(CE->getSubExpr(), St);
      if (F.isKnown() && F.ElemType.isNull() && F.AllocSite)
        if (const auto *PT = CE->getType()->getAs<PointerType>())
          if (!PT->getPointeeType()->isVoidType())
            F.ElemType = PT->getPointeeType().getUnqualifiedType();
      return F;
    }
    return eval(CE->getSubExpr(), St);
  case CK_NoOp:
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
  case CK_BaseToDerived:
  case CK_AddressSpaceConversion:
    return eval(CE->getSubExpr(), St);
  case CK_NullToPointer:
    return PointerFact::null();
  default:
    return PointerFact::unknown(); // Integers, functions, user conversions.
  }
}

PointerFact FunctionAnalyzer::evalNew(const CXXNewExpr *New) const {
  // Placement new builds in memory it is given (maybe managed or pinned);
  // only the nothrow form allocates.
  if (New->getNumPlacementArgs() > 0) {
    const auto *RD =
        New->getPlacementArg(0)->getType()->getAsCXXRecordDecl();
    if (!RD || !RD->getIdentifier() || RD->getName() != "nothrow_t")
      return PointerFact::unknown();
  }
  PointerFact F = PointerFact::inSpace(MS_Host);
  F.AllocSite = New;
  QualType T = New->getAllocatedType();
  F.ElemType = T.getUnqualifiedType();
  if (!T->isIncompleteType() && !T->isDependentType()) {
    F.Size.Known = true;
    F.Size.Constant = Ctx.getTypeSizeInChars(T).getQuantity();
    if (New->isArray()) {
      if (auto Size = New->getArraySize(); Size && *Size)
        F.Size.Factors.push_back(*Size);
      else
        F.Size.Known = false;
    }
  }
  return F;
}

PointerFact FunctionAnalyzer::evalCall(const CallExpr *Call,
                                       const MemoryState &St) const {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && M->getIdentifier() && M->getName() == "data" &&
        CudaApiModel::isHostContainer(M->getParent()))
      return evalContainerData(MC->getImplicitObjectArgument());
    // A method of this translation unit's classes answers through its
    // summary when it is a caching allocator (recycledOrFresh); other
    // methods' results stay unknown.
    if (!M || M->isInStdNamespace() || !M->getReturnType()->isPointerType())
      return PointerFact::unknown();
    const FunctionMemorySpaces *S = MSA.summary(M);
    if (!S || !S->returnsRecycledOrFresh())
      return PointerFact::unknown();
    return S->returned();
  }
  if (const ApiFunction *Api = CudaApiModel::lookup(Call)) {
    if (Api->Alloc && Api->Alloc->PtrOutArg < 0)
      return allocation(Call, *Api, St);
    return PointerFact::unknown();
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getReturnType()->isPointerType())
    return PointerFact::unknown();
  const FunctionMemorySpaces *S = MSA.summary(Callee);
  if (!S)
    return PointerFact::unknown();
  PointerFact F = S->returned();
  if (F.Size.Known) {
    if (F.Size.ViaCall)
      F.Size = AllocSize(); // Only one level of substitution.
    else if (F.AllocSite && !F.Size.Factors.empty())
      F.Size.ViaCall = Call;
  }
  F.Freed = false;
  F.FreedAt = nullptr;
  return F;
}

} // namespace clang::tidy::cuda
