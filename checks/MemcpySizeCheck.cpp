//===- MemcpySizeCheck.cpp ------------------------------------------------===//

#include "MemcpySizeCheck.h"
#include "MemoryCheckSupport.h"
#include "TypeFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

MemcpySizeCheck::MemcpySizeCheck(StringRef Name, ClangTidyContext *Context)
    : MemorySpaceCheck(Name, Context,
                       {FunctionScope::All, CheckLanguages::Cuda,
                        /*NeedsWholeBody=*/true,
                        /*AnalysesTemplatePatterns=*/false,
                        /*ReadsCodeWithErrors=*/true, ErrorGate::Operands}),
      CheckElementCounts(Options.get("CheckElementCounts", true)) {}

void MemcpySizeCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CheckElementCounts", CheckElementCounts);
}

namespace {
/// The sizeof expressions in a byte count.
class SizeofFinder : public RecursiveASTVisitor<SizeofFinder> {
public:
  bool VisitUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
    if (E->getKind() == UETT_SizeOf)
      Found.push_back(E);
    return true;
  }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
    // Do not look inside sizeof.
    return WalkUpFromUnaryExprOrTypeTraitExpr(E);
  }
  llvm::SmallVector<const UnaryExprOrTypeTraitExpr *, 4> Found;
};

/// The element type a pointer argument's buffer holds, seen through casts
/// to void * and to other element types, or null.
QualType elementTypeOf(const Expr *Arg) { return bufferElementTypeOf(Arg); }

/// Whether \p Bytes names a size: a sizeof in it, or in the initializer of
/// a local it reads that is never modified (`size_t bytes = n * sizeof(T)`).
bool namesSizeof(const Expr *Bytes, MemorySpaceAnalysis &MSA,
                 const FunctionDecl *FD) {
  llvm::SmallVector<const Stmt *, 8> Work{Bytes};
  llvm::SmallPtrSet<const VarDecl *, 4> Seen;
  while (!Work.empty()) {
    const Stmt *Cur = Work.pop_back_val();
    if (const auto *U = dyn_cast<UnaryExprOrTypeTraitExpr>(Cur);
        U && U->getKind() == UETT_SizeOf)
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Cur))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
            VD->getInit() && Seen.insert(VD).second &&
            !MSA.isModified(FD, VD))
          Work.push_back(VD->getInit());
    for (const Stmt *C : Cur->children())
      if (C)
        Work.push_back(C);
  }
  return false;
}

/// Whether an integer argument of \p Call reads a local of \p FD that \p FD
/// writes.
bool readsModifiedLocal(const CallExpr *Call, MemorySpaceAnalysis &MSA,
                        const FunctionDecl *FD) {
  llvm::SmallVector<const Stmt *, 8> Work;
  for (const Expr *A : Call->arguments())
    if (A->getType()->isIntegerType()) // The sizes, not the out-pointers.
      Work.push_back(A);
  while (!Work.empty()) {
    const Stmt *Cur = Work.pop_back_val();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Cur))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->hasLocalStorage() && MSA.isModified(FD, VD))
          return true;
    for (const Stmt *C : Cur->children())
      if (C)
        Work.push_back(C);
  }
  return false;
}

/// The factors of a product: `a * b * sizeof(T)`.
void productFactors(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Mul) {
    productFactors(BO->getLHS(), Out);
    productFactors(BO->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

/// The one sizeof type of a byte count written `count * sizeof(T)` with no
/// constant factor besides it; null otherwise.
QualType elementSizeofOf(const Expr *Bytes, ASTContext &Ctx) {
  llvm::SmallVector<const Expr *, 4> Factors;
  productFactors(Bytes, Factors);
  QualType T;
  for (const Expr *F : Factors) {
    if (const auto *U = dyn_cast<UnaryExprOrTypeTraitExpr>(F);
        U && U->getKind() == UETT_SizeOf) {
      if (!T.isNull())
        return QualType();
      T = U->getTypeOfArgument().getUnqualifiedType();
      continue;
    }
    // `n * 4 * sizeof(float)` may well count float4s.
    if (F->isValueDependent() || F->isIntegerConstantExpr(Ctx))
      return QualType();
  }
  return T;
}

/// Whether \p T is a type whose buffers are reinterpreted freely: bytes,
/// unions, and records made of bytes.
bool isByteLike(QualType T, ASTContext &Ctx) {
  if (T->isVoidType() || Ctx.getTypeSizeInChars(T).getQuantity() <= 1 ||
      T->isUnionType())
    return true;
  if (const auto *RD = T->getAsRecordDecl()) {
    for (const FieldDecl *F : RD->fields())
      if (!F->getType()->isDependentType() &&
          Ctx.getTypeSizeInChars(F->getType()).getQuantity() > 1)
        return false;
    return true;
  }
  return false;
}

bool usable(QualType T) {
  return !T.isNull() && !T->isVoidType() && !T->isIncompleteType() &&
         !T->isDependentType();
}

/// The element type both buffers agree on, from their static types or,
/// for void pointers, from their allocations; null when they disagree.
QualType bufferElementType(const Expr *Dst, const Expr *Src,
                           const FunctionMemorySpaces &M, ASTContext &Ctx) {
  QualType Elem;
  for (const Expr *P : {Dst, Src}) {
    if (!P)
      continue;
    QualType T = elementTypeOf(P);
    if (!usable(T))
      continue;
    if (Elem.isNull())
      Elem = T;
    else if (Ctx.getTypeSizeInChars(Elem) != Ctx.getTypeSizeInChars(T))
      Elem = QualType(); // They disagree: no element type.
  }
  // Pointers passed as void *: the allocation may name the element type.
  if (Elem.isNull()) {
    for (const Expr *P : {Dst, Src}) {
      if (!P || (!elementTypeOf(P).isNull() && !elementTypeOf(P)->isVoidType()))
        continue;
      PointerFact F = M.factOf(P);
      if (!F.isKnown() || !usable(F.ElemType))
        continue;
      if (Elem.isNull())
        Elem = F.ElemType;
      else if (Ctx.getTypeSizeInChars(Elem) !=
               Ctx.getTypeSizeInChars(F.ElemType)) {
        Elem = QualType();
        break;
      }
    }
  }
  return Elem;
}

/// The allocation's size as the code wrote it: its factors, then the
/// constant, as sizeof of the element type where it is one.
std::string allocationText(const PointerFact &F, const ASTContext &Ctx) {
  std::string AllocText;
  for (const Expr *Fac : F.Size.Factors) {
    std::string T = sourceText(Fac, Ctx);
    if (T.find_first_of("+-?<>|&") != std::string::npos)
      T = "(" + T + ")";
    AllocText += (AllocText.empty() ? "" : " * ") + T;
  }
  if (F.Size.Constant != 1 || AllocText.empty()) {
    std::string C = std::to_string(F.Size.Constant);
    if (!F.Size.Factors.empty() && usable(F.ElemType) &&
        Ctx.getTypeSizeInChars(F.ElemType).getQuantity() ==
            F.Size.Constant)
      C = "sizeof(" + F.ElemType.getAsString(Ctx.getPrintingPolicy()) + ")";
    AllocText = AllocText.empty() ? C : AllocText + " * " + C;
  }
  return AllocText;
}
} // namespace

/// Checks the widths and pitches of a pitched 2-D copy.
void MemcpySizeCheck::checkPitchedCopy(const CallExpr *Call,
                                       const CopyInfo &CI, const Expr *Dst,
                                       const Expr *Src,
                                       const FunctionMemorySpaces &M,
                                       ASTContext &Ctx) {
  auto Arg = [&](int I) { return CudaApiModel::argument(Call, I); };
  const SourceManager &SM = Ctx.getSourceManager();
  MemorySpaceAnalysis &MSA = MemorySpaceAnalysis::get(Ctx, arch());
  const FunctionDecl *FD = M.function();
  const FunctionDecl *Callee = Call->getDirectCallee();
  const Expr *Width = Arg(CI.WidthArg);
  if (!Width)
    return;
  SymbolicSize W = SymbolicSize::atOnePoint(Width, MSA, FD);
  struct PitchSide {
    const Expr *Ptr, *Pitch;
    const char *Role;
  } Sides[] = {{Dst, Arg(CI.DstPitchArg), "destination"},
               {Src, Arg(CI.SrcPitchArg), "source"}};
  for (const PitchSide &P : Sides) {
    if (!P.Ptr || !P.Pitch)
      continue;
    SymbolicSize Pitch = SymbolicSize::atOnePoint(P.Pitch, MSA, FD);
    if (W.minus(Pitch).isPositive()) {
      SourceLocation Loc = reportOnce(Call->getBeginLoc(), SM);
      if (Loc.isValid())
        diag(Loc, "the width %0 of %1 is larger than the %2 pitch %3")
            << ("'" + sourceText(Width, Ctx) + "'") << Callee->getDeclName()
            << P.Role << ("'" + sourceText(P.Pitch, Ctx) + "'");
      return;
    }
    PointerFact F = M.factOf(P.Ptr);
    if (!F.isKnown() || F.Offset || !F.PitchLoc || !F.AllocSite)
      continue;
    // Only a pitch stored in this function can be named here.
    const auto *PitchVar = dyn_cast<VarDecl>(F.PitchLoc->Root);
    if (!PitchVar || PitchVar->getDeclContext() != FD)
      continue;
    bool NamesPitch = false;
    llvm::SmallVector<const Stmt *, 8> Work{P.Pitch};
    while (!Work.empty()) {
      const Stmt *Cur = Work.pop_back_val();
      if (const auto *E = dyn_cast<Expr>(Cur))
        if (auto L = M.locationOf(E); L && *L == *F.PitchLoc)
          NamesPitch = true;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Cur))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
              VD != PitchVar && VD->getInit() &&
              !MSA.isModified(FD, VD))
            Work.push_back(VD->getInit());
      for (const Stmt *C : Cur->children())
        if (C)
          Work.push_back(C);
    }
    if (NamesPitch)
      continue;
    SourceLocation Loc = reportOnce(Call->getBeginLoc(), SM);
    if (Loc.isInvalid())
      return;
    diag(Loc, "the %0 pitch %1 of %2 is not the pitch that %3 returned for "
              "%4")
        << P.Role << ("'" + sourceText(P.Pitch, Ctx) + "'")
        << Callee->getDeclName() << F.Allocator->getDeclName()
        << pointerName(P.Ptr, Ctx);
    noteAllocation(*this, F, SM);
    return;
  }
}

/// Reports a sizeof in the byte count of \p Call that names a pointer, or
/// an element type other than \p Elem; returns whether it did.
bool MemcpySizeCheck::checkSizeofType(const CallExpr *Call,
                                      SizeofList Sizeofs, QualType Elem,
                                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Elem.isNull() && Ctx.getTypeSizeInChars(Elem).getQuantity() > 1) {
    for (const UnaryExprOrTypeTraitExpr *SE : Sizeofs) {
      QualType T = SE->getTypeOfArgument().getUnqualifiedType();
      if (!usable(T) || Elem->isPointerType() ||
          Ctx.hasSameUnqualifiedType(T, Elem))
        continue;
      if (T->isPointerType()) {
        SourceLocation Loc = reportOnce(Call->getBeginLoc(), SM);
        if (Loc.isInvalid())
          return true;
        if (!SE->isArgumentType())
          diag(Loc, "the byte count of %0 is the size of the pointer %1, not "
                    "of the %2 elements it points to")
              << Callee->getDeclName()
              << pointerName(SE->getArgumentExpr(), Ctx) << Elem;
        else
          diag(Loc, "the byte count of %0 uses the size of the pointer type "
                    "%1, not of its elements of type %2")
              << Callee->getDeclName() << T << Elem;
        return true;
      }
      if (T->isArrayType() || T->isRecordType() != Elem->isRecordType())
        continue;
      if (Ctx.getTypeSizeInChars(T) == Ctx.getTypeSizeInChars(Elem))
        continue;
      SourceLocation Loc = reportOnce(Call->getBeginLoc(), SM);
      if (Loc.isInvalid())
        return true;
      diag(Loc, "the byte count of %0 uses the size of %1, but the buffers hold "
                "elements of type %2")
          << Callee->getDeclName() << T << Elem;
      return true;
    }
  }
  return false;
}

/// Compares the byte count \p Bytes of \p Call with the allocations of
/// the buffers it touches.
void MemcpySizeCheck::checkAgainstAllocations(
    const CallExpr *Call, const CopyInfo &CI, const Expr *Bytes,
    std::initializer_list<const Expr *> Buffers, QualType Elem,
    bool NamesSizeof, const FunctionMemorySpaces &M, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  MemorySpaceAnalysis &MSA = MemorySpaceAnalysis::get(Ctx, arch());
  const FunctionDecl *FD = M.function();
  const FunctionDecl *Callee = Call->getDirectCallee();
  std::string BytesText = "'" + sourceText(Bytes, Ctx) + "'";
  SymbolicSize B = SymbolicSize::of(Bytes, MSA, FD);
  if (!B.valid())
    return;
  for (const Expr *P : Buffers) {
    if (!P)
      continue;
    PointerFact F = M.factOf(P);
    if (!F.isKnown() || F.Offset || !F.Size.Known || F.Freed)
      continue;
    const FunctionDecl *AllocFD = FD;
    // A wrapper's size is folded in the wrapper: an argument that reads a
    // variable the caller writes has no value there.
    if (F.Size.ViaCall && readsModifiedLocal(F.Size.ViaCall, MSA, FD))
      continue;
    if (F.Size.ViaCall) {
      const FunctionDecl *Def = nullptr;
      if (F.Size.ViaCall->getDirectCallee())
        F.Size.ViaCall->getDirectCallee()->hasBody(Def);
      AllocFD = Def;
    }
    if (!AllocFD)
      continue;
    SymbolicSize A = SymbolicSize::of(F.Size, MSA, AllocFD);
    if (!A.valid())
      continue;
    std::string AllocText = allocationText(F, Ctx);
    // Counting elements where bytes are expected.
    if (CheckElementCounts && !Elem.isNull() && !NamesSizeof) {
      int64_t ES = Ctx.getTypeSizeInChars(Elem).getQuantity();
      if (ES > 1 && B.times(ES) == A &&
          !isa<IntegerLiteral>(Bytes->IgnoreParenImpCasts())) {
        SourceLocation Loc = reportOnce(Call->getBeginLoc(), SM);
        if (Loc.isInvalid())
          return;
        diag(Loc, "the byte count %0 of %1 counts elements, not bytes: %2 "
                  "holds %3 bytes")
            << BytesText << Callee->getDeclName() << pointerName(P, Ctx)
            << ("'" + AllocText + "'");
        noteAllocation(*this, F, SM);
        return;
      }
    }
    if (B.minus(A).isPositive()) {
      SourceLocation Loc = reportOnce(Call->getBeginLoc(), SM);
      if (Loc.isInvalid())
        return;
      diag(Loc, "%0 %1 %2 bytes, more than the %3 bytes of %4")
          << Callee->getDeclName()
          << (CI.isSet() ? "sets" : "copies") << BytesText
          << ("'" + AllocText + "'") << pointerName(P, Ctx);
      noteAllocation(*this, F, SM);
      return;
    }
  }
}


void MemcpySizeCheck::checkStmt(const Stmt *S, const FunctionMemorySpaces &M,
                                ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(S);
  const ApiFunction *Api = CudaApiModel::lookup(Call);
  if (!Api || (!Api->Copy && !Api->Alloc))
    return;
  // Code this instantiation cannot run (`if constexpr`, `typeid(T) == ...`).
  if (isInDeadBranch(S, M.cfg().parents(), Ctx))
    return;
  if (Api->Alloc) {
    checkAllocation(Call, *Api->Alloc, M, Ctx);
    return;
  }
  if (Api->Copy->Flags & CF_Params3D)
    return;
  const CopyInfo &CI = *Api->Copy;
  auto Arg = [&](int I) { return CudaApiModel::argument(Call, I); };
  bool Symbolic = CI.Flags & (CF_ToSymbol | CF_FromSymbol);
  const Expr *Dst = Symbolic && (CI.Flags & CF_ToSymbol) ? nullptr : Arg(CI.DstArg);
  const Expr *Src = CI.isSet() || (CI.Flags & CF_FromSymbol) ? nullptr
                                                             : Arg(CI.SrcArg);
  if (CI.Flags & CF_Peer)
    return;
  if (CI.Flags & CF_Pitched) {
    checkPitchedCopy(Call, CI, Dst, Src, M, Ctx);
    return;
  }

  const Expr *Bytes = Arg(CI.BytesArg);
  if (!Bytes || (!Dst && !Src))
    return;
  QualType Elem = bufferElementType(Dst, Src, M, Ctx);
  SizeofFinder Finder;
  Finder.TraverseStmt(const_cast<Expr *>(Bytes));
  if (checkSizeofType(Call, Finder.Found, Elem, Ctx))
    return;
  if (checkSmallSizeof(Call, Bytes, {Dst, Src}, Ctx))
    return;
  MemorySpaceAnalysis &MSA = MemorySpaceAnalysis::get(Ctx, arch());
  checkAgainstAllocations(Call, CI, Bytes, {Dst, Src}, Elem,
                          namesSizeof(Bytes, MSA, M.function()), M, Ctx);
}

/// The element type of the pointer an allocation fills: `&d` or
/// `(void **)&d` for an out-parameter, `(float4 *)malloc(...)` for a result.
static QualType allocatedElementType(const CallExpr *Call, int OutArg,
                                     const ParentMap &PM) {
  QualType PtrType;
  if (OutArg >= 0) {
    const Expr *Out = CudaApiModel::argument(Call, OutArg);
    if (!Out)
      return QualType();
    Out = Out->IgnoreParenImpCasts();
    while (const auto *C = dyn_cast<ExplicitCastExpr>(Out))
      Out = C->getSubExpr()->IgnoreParenImpCasts();
    const auto *PT = Out->getType()->getAs<PointerType>();
    if (!PT)
      return QualType();
    PtrType = PT->getPointeeType();
  } else {
    const Stmt *Cur = Call;
    const Stmt *P = PM.getParent(Cur);
    while (P && isa<ParenExpr, ImplicitCastExpr>(P))
      P = PM.getParent(P);
    const auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(P);
    if (!Cast)
      return QualType();
    PtrType = Cast->getType();
  }
  const auto *PT = PtrType->getAs<PointerType>();
  if (!PT)
    return QualType();
  return PT->getPointeeType().getUnqualifiedType();
}

/// An allocation whose byte count is `n * sizeof(T)` for a pointer to
/// elements larger than T.
void MemcpySizeCheck::checkAllocation(const CallExpr *Call,
                                      const AllocInfo &AI,
                                      const FunctionMemorySpaces &M,
                                      ASTContext &Ctx) {
  if (AI.BytesArg < 0 || AI.Bytes2Arg >= 0 || AI.PitchOutArg >= 0)
    return;
  const Expr *Bytes = CudaApiModel::argument(Call, AI.BytesArg);
  QualType Elem = allocatedElementType(Call, AI.PtrOutArg, M.cfg().parents());
  if (!Bytes || !usable(Elem))
    return;
  QualType T = elementSizeofOf(Bytes, Ctx);
  if (!usable(T) || T->isPointerType() || isByteLike(Elem, Ctx) ||
      Ctx.getTypeSizeInChars(T) >= Ctx.getTypeSizeInChars(Elem))
    return;
  SourceLocation Loc = reportOnce(Call->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isInvalid())
    return;
  diag(Loc, "%0 allocates '%1' bytes, counted in elements of type %2, for "
            "elements of type %3")
      << Call->getDirectCallee()->getDeclName() << sourceText(Bytes, Ctx)
      << T << Elem;
}

/// A copy or set whose byte count is `n * sizeof(T)` where a buffer holds
/// elements larger than T.
bool MemcpySizeCheck::checkSmallSizeof(
    const CallExpr *Call, const Expr *Bytes,
    std::initializer_list<const Expr *> Buffers, ASTContext &Ctx) {
  QualType T = elementSizeofOf(Bytes, Ctx);
  if (!usable(T) || T->isPointerType())
    return false;
  // One whole object copied to or from its address: 'memcpy(&key, words,
  // sizeof(key))' fills the key, whatever the other buffer holds.
  const auto *OneSizeof =
      dyn_cast<UnaryExprOrTypeTraitExpr>(Bytes->IgnoreParenImpCasts());
  if (OneSizeof && llvm::any_of(Buffers, [&](const Expr *P) {
        const auto *Addr =
            P ? dyn_cast<UnaryOperator>(P->IgnoreParenImpCasts()) : nullptr;
        if (!Addr || Addr->getOpcode() != UO_AddrOf)
          return false;
        QualType Object = Addr->getSubExpr()->getType();
        return usable(Object) && !Object->isArrayType() &&
               Ctx.getTypeSizeInChars(Object) == Ctx.getTypeSizeInChars(T);
      }))
    return false;
  // A copy between a float4 buffer and a float buffer counted in floats
  // reinterprets: the count is in the other buffer's elements.
  if (llvm::any_of(Buffers, [&](const Expr *P) {
        QualType Elem = P ? elementTypeOf(P) : QualType();
        return usable(Elem) && Ctx.hasSameUnqualifiedType(Elem, T);
      }))
    return false;
  for (const Expr *P : Buffers) {
    if (!P)
      continue;
    QualType Elem = elementTypeOf(P);
    if (!usable(Elem) || Elem->isPointerType() || isByteLike(Elem, Ctx) ||
        Ctx.getTypeSizeInChars(T) >= Ctx.getTypeSizeInChars(Elem))
      continue;
    SourceLocation Loc =
        reportOnce(Call->getBeginLoc(), Ctx.getSourceManager());
    if (Loc.isInvalid())
      return true;
    diag(Loc, "the byte count '%0' of %1 is counted in elements of type %2, "
              "but %3 holds elements of type %4")
        << sourceText(Bytes, Ctx) << Call->getDirectCallee()->getDeclName()
        << T << pointerName(P, Ctx) << Elem;
    return true;
  }
  return false;
}

} // namespace clang::tidy::cuda
