//===- MemorySpaceAnalysis.cpp --------------------------------------------===//

#include "MemorySpaceAnalysis.h"
#include "BranchCorrelation.h"
#include "TemplatePatterns.h"
#include "TranslationUnitScan.h"
#include "VariableStores.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::cuda {

//===----------------------------------------------------------------------===//
// Locations and facts
//===----------------------------------------------------------------------===//

bool LocKey::hasPrefix(const LocKey &P) const {
  if (Root != P.Root || Path.size() < P.Path.size())
    return false;
  return std::equal(P.Path.begin(), P.Path.end(), Path.begin());
}

LocKey LocKey::withSuffixOf(const LocKey &From, const LocKey &NewBase) const {
  LocKey K = NewBase;
  K.Path.append(Path.begin() + From.Path.size(), Path.end());
  return K;
}

bool PointerFact::operator==(const PointerFact &O) const {
  return Unknown == O.Unknown && Bottom == O.Bottom && Spaces == O.Spaces &&
         MaybeNull == O.MaybeNull && Freed == O.Freed &&
         FreedAt == O.FreedAt && Offset == O.Offset &&
         Registered == O.Registered && AllocSite == O.AllocSite &&
         AllocDecl == O.AllocDecl && Allocator == O.Allocator &&
         Size == O.Size && PitchLoc == O.PitchLoc &&
         PitchWidth == O.PitchWidth && ElemType == O.ElemType;
}

PointerFact PointerFact::join(const PointerFact &A, const PointerFact &B) {
  if (A.Bottom)
    return B;
  if (B.Bottom)
    return A;
  if (A.Unknown || B.Unknown)
    return unknown();
  PointerFact R = A;
  R.Spaces = A.Spaces | B.Spaces;
  R.MaybeNull = A.MaybeNull || B.MaybeNull;
  // Freed must hold on every path.
  R.Freed = A.Freed && B.Freed;
  R.FreedAt = R.Freed ? A.FreedAt : nullptr;
  R.Offset = A.Offset || B.Offset;
  R.Registered = A.Registered && B.Registered;
  // A null value on one side does not change where the memory came from.
  const PointerFact *Alloc = nullptr;
  if (A.Spaces == MS_None)
    Alloc = &B;
  else if (B.Spaces == MS_None)
    Alloc = &A;
  else if (A.AllocSite == B.AllocSite && A.AllocDecl == B.AllocDecl &&
           A.Size == B.Size && A.PitchLoc == B.PitchLoc)
    Alloc = &A;
  if (Alloc) {
    R.AllocSite = Alloc->AllocSite;
    R.AllocDecl = Alloc->AllocDecl;
    R.Allocator = Alloc->Allocator;
    R.Size = Alloc->Size;
    R.PitchLoc = Alloc->PitchLoc;
    R.PitchWidth = Alloc->PitchWidth;
    R.ElemType = Alloc->ElemType;
  } else {
    R.AllocSite = nullptr;
    R.AllocDecl = nullptr;
    R.Allocator = nullptr;
    R.Size = AllocSize();
    R.PitchLoc.reset();
    R.PitchWidth = nullptr;
    R.ElemType = QualType();
  }
  return R;
}

void MemoryState::intersectJoin(const MemoryState &O) {
  // Both vectors are sorted by key: one merge, kept entries moved down in
  // place.
  auto OIt = O.Entries.begin(), OEnd = O.Entries.end();
  auto Kept = Entries.begin();
  for (auto It = Entries.begin(), End = Entries.end(); It != End; ++It) {
    while (OIt != OEnd && OIt->first < It->first)
      ++OIt;
    if (OIt == OEnd || !(OIt->first == It->first))
      continue;
    PointerFact Joined = PointerFact::join(It->second, OIt->second);
    if (Kept != It)
      Kept->first = std::move(It->first);
    Kept->second = std::move(Joined);
    ++Kept;
  }
  Entries.erase(Kept, Entries.end());
}

SourceLocation PointerFact::allocLoc() const {
  if (AllocSite)
    return AllocSite->getBeginLoc();
  if (AllocDecl)
    return AllocDecl->getLocation();
  return SourceLocation();
}

const char *spaceName(unsigned Spaces) {
  switch (Spaces) {
  case MS_Host:
    return "host";
  case MS_Device:
    return "device";
  case MS_Pinned:
    return "pinned host";
  case MS_Mapped:
    return "mapped host";
  case MS_Managed:
    return "managed";
  case MS_Symbol:
    return "device symbol";
  case MS_Host | MS_Pinned:
    return "host";
  default:
    return "mixed";
  }
}

static bool isManagedVariable(const VarDecl *VD);
static bool isDeviceVariable(const VarDecl *VD) {
  return VD && VD->hasGlobalStorage() && !isManagedVariable(VD) &&
         (CudaApiModel::isDeclaredDeviceVariable(VD) ||
          CudaApiModel::isDeclaredConstantVariable(VD));
}

/// `__managed__`: clang keeps the attribute for HIP only; for CUDA the
/// CUDA headers' macro expands to an attribute clang drops, so look for the
/// macro among the declaration's specifiers (`__device__ __managed__ int x`).
static bool isManagedVariable(const VarDecl *VD) {
  if (!VD || !VD->hasGlobalStorage())
    return false;
  if (VD->hasAttr<HIPManagedAttr>())
    return true;
  const SourceManager &SM = VD->getASTContext().getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(VD->getBeginLoc());
  SourceLocation Name = SM.getExpansionLoc(VD->getLocation());
  if (Begin.isInvalid() || Name.isInvalid() ||
      SM.getFileID(Begin) != SM.getFileID(Name) ||
      SM.getFileOffset(Name) < SM.getFileOffset(Begin))
    return false;
  bool Invalid = false;
  llvm::StringRef Text = SM.getBufferData(SM.getFileID(Begin), &Invalid);
  if (Invalid)
    return false;
  Text = Text.slice(SM.getFileOffset(Begin), SM.getFileOffset(Name));
  for (size_t Pos = Text.find("__managed__"); Pos != llvm::StringRef::npos;
       Pos = Text.find("__managed__", Pos + 1)) {
    size_t End = Pos + strlen("__managed__");
    auto IsIdent = [](char C) { return isalnum((unsigned char)C) || C == '_'; };
    if ((Pos == 0 || !IsIdent(Text[Pos - 1])) &&
        (End == Text.size() || !IsIdent(Text[End])))
      return true;
  }
  return false;
}

/// Whether \p T (a parameter's type) lets a callee write to what the
/// argument refers to.
static bool isOutParamType(QualType T) {
  if (T->isReferenceType())
    return !T.getNonReferenceType().isConstQualified();
  if (const auto *PT = T->getAs<PointerType>()) {
    QualType P = PT->getPointeeType();
    return !P.isConstQualified() &&
           (P->isPointerType() || P->isRecordType() || P->isVoidType());
  }
  return false;
}

bool isManagedVariableDecl(const VarDecl *VD) { return isManagedVariable(VD); }

const Expr *accessedPointer(const Expr *E) {
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return AS->getBase();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    return U->getSubExpr();
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && ME->isArrow())
    return ME->getBase();
  return nullptr;
}

//===----------------------------------------------------------------------===//
// One function
//===----------------------------------------------------------------------===//

static const ValueDecl *outlivingStorage(const Expr *E);

class FunctionAnalyzer {
public:
  FunctionAnalyzer(MemorySpaceAnalysis &MSA, FunctionMemorySpaces &R)
      : MSA(MSA), R(R), FD(R.function()), Ctx(MSA.context()) {}

  void prescan();
  void solve(const MemoryState &Entry);
  /// Whether the edge \p From -> \p To agrees with the constants the
  /// callers pass (R.ConstantParams).
  bool feasible(const CFGBlock *From, const CFGBlock *To) const;

  void transfer(const Stmt *S, MemoryState &St) const;
  PointerFact eval(const Expr *E, const MemoryState &St) const;
  std::optional<LocKey> locOf(const Expr *E) const;

private:
  PointerFact read(const LocKey &K, const MemoryState &St) const;
  void write(const LocKey &K, const PointerFact &F, MemoryState &St,
             bool Weak = false) const;
  void clobber(const LocKey &Prefix, bool IncludeSelf, MemoryState &St) const;
  void transferCall(const CallExpr *Call, MemoryState &St) const;
  // What a call of the API model does to pointers, one handler per kind of
  // fact (ApiTransfers says which applies).
  void transferAllocation(const CallExpr *Call, const ApiFunction &Api,
                          MemoryState &St) const;
  void transferFree(const CallExpr *Call, const ApiFunction &Api,
                    MemoryState &St) const;
  void transferHostRegister(const CallExpr *Call, const ApiFunction &Api,
                            MemoryState &St) const;
  void transferMapHost(const CallExpr *Call, const ApiFunction &Api,
                       MemoryState &St) const;
  struct ApiTransfer {
    bool (*Applies)(const ApiFunction &);
    /// Null: the call changes no pointer.
    void (FunctionAnalyzer::*Apply)(const CallExpr *, const ApiFunction &,
                                    MemoryState &) const;
  };
  static const ApiTransfer ApiTransfers[];
  /// A call the model does not describe, or an API call that may store
  /// through any pointer it is given (\p Modelled).
  void transferOtherCall(const CallExpr *Call, bool Modelled,
                         MemoryState &St) const;
  /// What same-TU callee \p Sum leaves under its parameter \p DefP, to
  /// which \p Call passes \p Arg.
  void applyParamSummary(const CallExpr *Call, const FunctionMemorySpaces &Sum,
                         const ParmVarDecl *DefP, const Expr *Arg,
                         MemoryState &St) const;
  /// An unknown callee may write through any pointer or reference to a
  /// tracked location: \p Arg, passed as parameter \p P (null when unknown).
  void clobberThroughArgument(const Expr *Arg, const ParmVarDecl *P,
                              MemoryState &St) const;
  /// Where a call stores through the out-parameter argument \p A.
  std::optional<LocKey> outLoc(const Expr *A) const;
  /// The pointer at \p Ptr moves inside its allocation (`p += k`, `++p`).
  void markOffset(const Expr *Ptr, MemoryState &St) const;
  void freeThrough(const Expr *Ptr, const Stmt *At, MemoryState &St) const;
  void copyRecord(const LocKey &To, const Expr *From, MemoryState &St) const;
  PointerFact allocation(const CallExpr *Call, const ApiFunction &Api,
                         const MemoryState &St) const;
  PointerFact evalArrayObject(const Expr *E) const;
  PointerFact evalContainerData(const Expr *Object) const;
  PointerFact evalAddressOf(const Expr *Sub, const MemoryState &St) const;
  PointerFact evalCast(const CastExpr *CE, const MemoryState &St) const;
  PointerFact evalNew(const CXXNewExpr *New) const;
  PointerFact evalCall(const CallExpr *Call, const MemoryState &St) const;
  bool isWeak(const LocKey &K) const;

  MemorySpaceAnalysis &MSA;
  FunctionMemorySpaces &R;
  const FunctionDecl *FD;
  ASTContext &Ctx;
};

/// Where a callee's parameter and the caller's argument refer to the same
/// memory: keys under CallerBase in the caller are keys under CalleeBase in
/// the callee.
struct Referent {
  LocKey CallerBase, CalleeBase;
  bool OutOnly = false; ///< By-value records: copied in, never out.
};

static std::optional<Referent> referentOf(const ParmVarDecl *P,
                                          const Expr *Arg,
                                          const FunctionAnalyzer &Caller) {
  QualType T = P->getType();
  LocKey Callee{P, {}};
  const Expr *A = Arg->IgnoreParenImpCasts();
  if (T->isReferenceType()) {
    if (auto L = Caller.locOf(A))
      return Referent{*L, Callee};
    return std::nullopt;
  }
  if (T->isRecordType()) {
    if (const auto *C = dyn_cast<CXXConstructExpr>(A))
      if (C->getNumArgs() == 1)
        A = C->getArg(0)->IgnoreParenImpCasts();
    if (auto L = Caller.locOf(A))
      return Referent{*L, Callee, true};
    return std::nullopt;
  }
  const auto *PT = T->getAs<PointerType>();
  if (!PT)
    return std::nullopt;
  QualType Pointee = PT->getPointeeType();
  bool IsRecord = Pointee->isRecordType();
  if (!IsRecord && !Pointee->isPointerType())
    return std::nullopt;
  A = Arg->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(A);
      U && U->getOpcode() == UO_AddrOf) {
    auto L = Caller.locOf(U->getSubExpr());
    if (!L)
      return std::nullopt;
    if (!IsRecord)
      Callee.Path.push_back(nullptr);
    return Referent{*L, Callee};
  }
  auto K = Caller.locOf(A);
  if (!K || K->Path.size() >= 3)
    return std::nullopt;
  if (!IsRecord) {
    K->Path.push_back(nullptr);
    Callee.Path.push_back(nullptr);
  }
  return Referent{*K, Callee};
}

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

void FunctionAnalyzer::copyRecord(const LocKey &To, const Expr *From,
                                  MemoryState &St) const {
  From = From->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<CXXConstructExpr>(From)) {
    if (C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor())
      From = C->getArg(0)->IgnoreParenImpCasts();
  }
  // Drop what was known under To.
  {
    auto [First, Last] = St.withPrefix(To);
    if (First != Last && First->first == To)
      ++First;
    St.erase(First, Last);
  }
  if (const auto *IL = dyn_cast<InitListExpr>(From)) {
    const RecordDecl *RD = IL->getType()->getAsRecordDecl();
    if (!RD || IL->getNumInits() == 0 || To.Path.size() >= 3)
      return;
    unsigned I = 0;
    for (const FieldDecl *F : RD->fields()) {
      if (I >= IL->getNumInits())
        break;
      const Expr *Init = IL->getInit(I++);
      LocKey K = To;
      K.Path.push_back(F);
      if (F->getType()->isPointerType())
        St[K] = eval(Init, St);
    }
    return;
  }
  auto L = locOf(From);
  if (!L)
    return;
  MemoryState Add;
  auto [First, Last] = St.withPrefix(*L);
  for (auto It = First; It != Last; ++It)
    if (It->first.Path.size() > L->Path.size())
      Add[It->first.withSuffixOf(*L, To)] = It->second;
  for (auto &[K, F] : Add)
    St[K] = F;
}

void FunctionAnalyzer::freeThrough(const Expr *Ptr, const Stmt *At,
                                   MemoryState &St) const {
  auto L = locOf(Ptr->IgnoreParenCasts());
  if (!L)
    return;
  PointerFact F = read(*L, St);
  // Releasing null does nothing.
  if (!F.Unknown && !F.Bottom && F.MaybeNull && F.Spaces == MS_None)
    return;
  // A pointer of unknown origin is still freed: what it points to stays
  // unknown, but a second release or a later use is not.
  if (F.Unknown) {
    F = PointerFact();
    F.Unknown = false;
  }
  F.Freed = true;
  F.FreedAt = At;
  write(*L, F, St, isWeak(*L));
}

const FunctionAnalyzer::ApiTransfer FunctionAnalyzer::ApiTransfers[] = {
    // In this order: the first kind of fact the model gives a call decides.
    {[](const ApiFunction &F) { return F.Alloc && F.Alloc->PtrOutArg >= 0; },
     &FunctionAnalyzer::transferAllocation},
    {[](const ApiFunction &F) { return F.Free.has_value(); },
     &FunctionAnalyzer::transferFree},
    {[](const ApiFunction &F) { return F.HostRegister.has_value(); },
     &FunctionAnalyzer::transferHostRegister},
    {[](const ApiFunction &F) { return F.MapHost.has_value(); },
     &FunctionAnalyzer::transferMapHost},
    // Copies change memory, not pointers.
    {[](const ApiFunction &F) { return F.Copy.has_value(); }, nullptr},
};

void FunctionAnalyzer::transferCall(const CallExpr *Call,
                                    MemoryState &St) const {
  const ApiFunction *Api = CudaApiModel::lookup(Call);
  if (Api)
    for (const ApiTransfer &T : ApiTransfers)
      if (T.Applies(*Api)) {
        if (T.Apply)
          (this->*T.Apply)(Call, *Api, St);
        return;
      }
  // Other API calls may store through any pointer they are given.
  transferOtherCall(Call, Api != nullptr, St);
}

std::optional<LocKey> FunctionAnalyzer::outLoc(const Expr *A) const {
  if (!A)
    return std::nullopt;
  A = A->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(A);
      U && U->getOpcode() == UO_AddrOf)
    return locOf(U->getSubExpr());
  if (auto K = locOf(A); K && K->Path.size() < 3) {
    K->Path.push_back(nullptr);
    return K;
  }
  return std::nullopt;
}

void FunctionAnalyzer::transferAllocation(const CallExpr *Call,
                                          const ApiFunction &Api,
                                          MemoryState &St) const {
  const Expr *Out = CudaApiModel::argument(Call, Api.Alloc->PtrOutArg);
  auto L = outLoc(Out);
  if (!L)
    return;
  QualType T = Out->IgnoreParenCasts()->getType();
  bool Linear = Api.Alloc->BytesArg >= 0 || Api.Alloc->PitchOutArg >= 0;
  QualType Stored;
  if (const auto *PT = T->getAs<PointerType>())
    Stored = PT->getPointeeType();
  if (Linear && !Stored.isNull() && Stored->isPointerType()) {
    PointerFact F = allocation(Call, Api, St);
    QualType Elem = Stored->getPointeeType().getUnqualifiedType();
    if (!Elem->isVoidType())
      F.ElemType = Elem;
    write(*L, F, St, isWeak(*L));
  } else if (!Linear && !Stored.isNull() && Stored->isRecordType() &&
             L->Path.size() < 3) {
    // cudaMalloc3D fills a struct whose pointer member is the allocation
    // (cudaPitchedPtr::ptr); the size is unknown.
    clobber(*L, false, St);
    const RecordDecl *RD = Stored->getAsRecordDecl();
    for (const FieldDecl *FDecl : RD->fields())
      if (FDecl->getType()->isPointerType()) {
        LocKey K = *L;
        K.Path.push_back(FDecl);
        PointerFact F = PointerFact::inSpace(Api.Alloc->Space);
        F.AllocSite = Call;
        F.Allocator = Call->getDirectCallee();
        write(K, F, St, isWeak(K));
        break;
      }
  } else {
    clobber(*L, true, St);
  }
}

void FunctionAnalyzer::transferFree(const CallExpr *Call,
                                    const ApiFunction &Api,
                                    MemoryState &St) const {
  if (const Expr *P = CudaApiModel::argument(Call, Api.Free->PtrArg))
    freeThrough(P, Call, St);
}

void FunctionAnalyzer::transferHostRegister(const CallExpr *Call,
                                            const ApiFunction &Api,
                                            MemoryState &St) const {
  const Expr *P = CudaApiModel::argument(Call, Api.HostRegister->PtrArg);
  auto L = locOf(P ? P->IgnoreParenCasts() : nullptr);
  if (!L)
    return;
  PointerFact F = read(*L, St);
  if (Api.HostRegister->Registers && F.isOnly(MS_Host)) {
    F.Spaces = MS_Pinned;
    F.Registered = true;
  } else if (!Api.HostRegister->Registers && F.Registered) {
    F.Spaces = MS_Host;
    F.Registered = false;
  } else {
    F = PointerFact::unknown();
  }
  write(*L, F, St, isWeak(*L));
}

void FunctionAnalyzer::transferMapHost(const CallExpr *Call,
                                       const ApiFunction &Api,
                                       MemoryState &St) const {
  auto L = outLoc(CudaApiModel::argument(Call, Api.MapHost->DevicePtrOutArg));
  if (!L)
    return;
  PointerFact H =
      eval(CudaApiModel::argument(Call, Api.MapHost->HostPtrArg), St);
  PointerFact F = PointerFact::inSpace(MS_Mapped);
  if (H.isKnown()) {
    F.AllocSite = H.AllocSite;
    F.Allocator = H.Allocator;
    F.Size = H.Size;
  }
  write(*L, F, St, isWeak(*L));
}

void FunctionAnalyzer::transferOtherCall(const CallExpr *Call, bool Modelled,
                                         MemoryState &St) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionMemorySpaces *Sum =
      (!Modelled && Callee && !Callee->isVariadic()) ? MSA.summary(Callee)
                                                     : nullptr;
  const FunctionDecl *Def = Sum ? Sum->function() : nullptr;

  unsigned FirstArg = 0;
  if (isa<CXXOperatorCallExpr>(Call))
    if (isa_and_nonnull<CXXMethodDecl>(Callee))
      FirstArg = 1; // The object.
  for (unsigned I = FirstArg, N = Call->getNumArgs(); I < N; ++I) {
    const Expr *A = Call->getArg(I);
    unsigned PI = I - FirstArg;
    const ParmVarDecl *P =
        Callee && PI < Callee->getNumParams() ? Callee->getParamDecl(PI) : nullptr;
    const ParmVarDecl *DefP =
        Def && PI < Def->getNumParams() ? Def->getParamDecl(PI) : nullptr;
    if (Sum && DefP)
      applyParamSummary(Call, *Sum, DefP, A, St);
    else
      clobberThroughArgument(A, P, St);
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && !M->isConst())
      if (auto L = locOf(MC->getImplicitObjectArgument()))
        clobber(*L, false, St);
  }
}

void FunctionAnalyzer::applyParamSummary(const CallExpr *Call,
                                         const FunctionMemorySpaces &Sum,
                                         const ParmVarDecl *DefP,
                                         const Expr *Arg,
                                         MemoryState &St) const {
  std::optional<Referent> Ref = referentOf(DefP, Arg, *this);
  if (!Ref || Ref->OutOnly)
    return;
  if (Sum.ClobberedParams.count(DefP) || Sum.Failed) {
    clobber(Ref->CallerBase, DefP->getType()->isReferenceType(), St);
    return;
  }
  // Apply what the callee leaves under its parameter. A key it does not
  // mention was not written.
  auto [First, Last] = Sum.ExitState.withPrefix(Ref->CalleeBase);
  for (auto It = First; It != Last; ++It) {
    const auto &[K, F] = *It;
    if ((K.Path.size() == Ref->CalleeBase.Path.size() &&
         !DefP->getType()->isReferenceType() && Ref->CalleeBase.Path.empty()))
      continue;
    PointerFact G = F;
    if (G.Size.ViaCall)
      G.Size = AllocSize();
    else if (G.Size.Known && !G.Size.Factors.empty())
      G.Size.ViaCall = Call;
    LocKey CK = K.withSuffixOf(Ref->CalleeBase, Ref->CallerBase);
    if (G.Freed && G.Spaces == MS_None) {
      // The callee freed what the caller passed: keep the caller's facts
      // about it.
      PointerFact C = read(CK, St);
      if (!C.Unknown && !C.Bottom) {
        C.Freed = true;
        C.FreedAt = G.FreedAt;
        G = C;
      }
    }
    write(CK, G, St, isWeak(CK));
  }
}

void FunctionAnalyzer::clobberThroughArgument(const Expr *A,
                                              const ParmVarDecl *P,
                                              MemoryState &St) const {
  const Expr *Stripped = A->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Stripped);
      U && U->getOpcode() == UO_AddrOf) {
    if (auto L = locOf(U->getSubExpr()))
      clobber(*L, true, St);
    return;
  }
  if (P && P->getType()->isReferenceType() &&
      !P->getType().getNonReferenceType().isConstQualified()) {
    if (auto L = locOf(A))
      clobber(*L, true, St);
    return;
  }
  if (A->getType()->isPointerType() &&
      isOutParamType(P ? P->getType() : A->getType())) {
    if (auto L = locOf(Stripped))
      clobber(*L, false, St);
  }
}

void FunctionAnalyzer::markOffset(const Expr *Ptr, MemoryState &St) const {
  if (auto L = locOf(Ptr)) {
    PointerFact F = read(*L, St);
    if (!F.Unknown)
      F.Offset = true;
    write(*L, F, St, isWeak(*L));
  }
}

void FunctionAnalyzer::transfer(const Stmt *S, MemoryState &St) const {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->hasLocalStorage())
        continue;
      QualType T = VD->getType();
      LocKey K{VD, {}};
      const Expr *Init = VD->getInit();
      if (T->isPointerType()) {
        write(K, Init ? eval(Init, St) : PointerFact::unknown(), St);
      } else if (const auto *AT = Ctx.getAsArrayType(T);
                 AT && AT->getElementType()->isPointerType()) {
        LocKey E = K;
        E.Path.push_back(nullptr);
        PointerFact F = PointerFact::bottom();
        if (const auto *IL = dyn_cast_or_null<InitListExpr>(
                Init ? Init->IgnoreParenImpCasts() : nullptr)) {
          for (const Expr *I : IL->inits())
            F = PointerFact::join(F, eval(I, St));
          if (IL->hasArrayFiller() || IL->getNumInits() == 0)
            F = PointerFact::join(F, PointerFact::null());
        } else if (Init) {
          F = PointerFact::unknown();
        }
        St[E] = F;
      } else if (T->isRecordType()) {
        if (Init)
          copyRecord(K, Init, St);
      }
    }
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->getOpcode() == BO_Assign) {
      auto L = locOf(B->getLHS());
      if (!L)
        return;
      QualType T = B->getLHS()->getType();
      if (T->isPointerType())
        write(*L, eval(B->getRHS(), St), St, isWeak(*L));
      else if (T->isRecordType())
        copyRecord(*L, B->getRHS(), St);
      return;
    }
    if ((B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign) &&
        B->getLHS()->getType()->isPointerType())
      markOffset(B->getLHS(), St);
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp() &&
        U->getSubExpr()->getType()->isPointerType())
      markOffset(U->getSubExpr(), St);
    return;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    // Assignment of a struct with a user-visible operator=.
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
        OC->getArg(0)->getType()->isRecordType()) {
      if (auto L = locOf(OC->getArg(0))) {
        const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
        if (MD && MD->isTrivial())
          copyRecord(*L, OC->getArg(1), St);
        else
          clobber(*L, false, St);
      }
      return;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    transferCall(Call, St);
    return;
  }
  if (const auto *Del = dyn_cast<CXXDeleteExpr>(S)) {
    freeThrough(Del->getArgument(), Del, St);
    return;
  }
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(S)) {
    // A constructor taking references may store through them.
    for (const Expr *A : Ctor->arguments())
      if (const auto *U = dyn_cast<UnaryOperator>(A->IgnoreParenCasts());
          U && U->getOpcode() == UO_AddrOf)
        if (auto L = locOf(U->getSubExpr()))
          clobber(*L, true, St);
  }
}

/// Finds the variables whose value the analysis cannot follow: their
/// address is stored or passed somewhere it cannot see, or a lambda captures
/// them by reference; and the variables written after their declaration.
class EscapeScanner : public RecursiveASTVisitor<EscapeScanner> {
public:
  EscapeScanner(BodyFacts &R, const ParentMap &PM) : R(R), PM(PM) {}

  bool VisitUnaryOperator(UnaryOperator *U) {
    const Expr *Sub = U->getSubExpr()->IgnoreParens();
    if (U->isIncrementDecrementOp())
      markModified(Sub);
    if (U->getOpcode() != UO_AddrOf)
      return true;
    markModified(Sub);
    // Passing &x to a call is modelled there; anything else escapes.
    const Stmt *P = PM.getParentIgnoreParenCasts(U);
    if (P && (isa<CallExpr>(P) || isa<CXXConstructExpr>(P)))
      return true;
    if (const auto *Root = rootOf(Sub))
      R.Escaped.insert(Root);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      markModified(B->getLHS()->IgnoreParens());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->isAssignmentOp() && C->getNumArgs() > 0)
      markModified(C->getArg(0)->IgnoreParens());
    return true;
  }
  // A host container whose size may change: a non-const method other than
  // element access, or passed where it can be changed or moved from.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) {
    const CXXMethodDecl *M = C->getMethodDecl();
    if (!M || M->isConst())
      return true;
    if (M->getIdentifier() &&
        llvm::is_contained({"data", "begin", "end", "at", "front", "back"},
                           M->getName()))
      return true;
    markModified(C->getImplicitObjectArgument());
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      markIfMayChange(C->getArg(I), Callee && I < Callee->getNumParams()
                                        ? Callee->getParamDecl(I)->getType()
                                        : QualType());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    const CXXConstructorDecl *Ctor = C->getConstructor();
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      markIfMayChange(C->getArg(I), I < Ctor->getNumParams()
                                        ? Ctor->getParamDecl(I)->getType()
                                        : QualType());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // A pointer or reference parameter copied elsewhere: writes through the
    // copy are not seen under the parameter.
    const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
    if (P && isOutParamType(P->getType())) {
      const Stmt *Parent = PM.getParentIgnoreParenCasts(DRE);
      bool Followed = false;
      if (Parent) {
        if (isa<MemberExpr, ArraySubscriptExpr, CallExpr>(Parent))
          Followed = true;
        else if (const auto *U = dyn_cast<UnaryOperator>(Parent))
          Followed = U->getOpcode() == UO_Deref ||
                     (U->getOpcode() == UO_AddrOf &&
                      isa_and_nonnull<CallExpr>(PM.getParentIgnoreParenCasts(U)));
        else if (const auto *B = dyn_cast<BinaryOperator>(Parent))
          Followed = B->isComparisonOp() || B->isLogicalOp();
      }
      if (!Followed)
        R.ClobberedParams.insert(P);
    }
    // A reference bound to a variable aliases it.
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() &&
        !VD->getType().getNonReferenceType().isConstQualified())
      if (const Expr *Init = VD->getInit())
        if (const auto *Root = rootOf(Init->IgnoreParenImpCasts()))
          R.Escaped.insert(Root), R.Modified.insert(cast<VarDecl>(Root));
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          R.Escaped.insert(VD), R.Modified.insert(VD);
    return true;
  }

private:
  const ValueDecl *rootOf(const Expr *E) {
    while (true) {
      E = E->IgnoreParenImpCasts();
      if (const auto *ME = dyn_cast<MemberExpr>(E)) {
        if (ME->isArrow())
          return nullptr; // Through a pointer: the root is not changed.
        E = ME->getBase();
        continue;
      }
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
        if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
          return nullptr;
        E = AS->getBase();
        continue;
      }
      break;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->hasLocalStorage())
          return VD;
    return nullptr;
  }
  void markIfMayChange(const Expr *Arg, QualType Param) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
    if (!DRE || !DRE->getType()->isRecordType())
      return;
    if (!Param.isNull() && (!Param->isReferenceType() ||
                            (Param->isLValueReferenceType() &&
                             Param.getNonReferenceType().isConstQualified())))
      return;
    markModified(DRE);
  }
  void markModified(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        R.Modified.insert(VD);
    if (const auto *Root = rootOf(E))
      R.Modified.insert(cast<VarDecl>(Root));
  }

  BodyFacts &R;
  const ParentMap &PM;
};

void FunctionAnalyzer::prescan() {
  const BodyFacts &Body = MSA.bodyFacts(FD, R.cfg());
  R.Escaped = Body.Escaped;
  R.ClobberedParams = Body.ClobberedParams;
  R.Modified = Body.Modified;
}

const BodyFacts &MemorySpaceAnalysis::bodyFacts(const FunctionDecl *Def,
                                                const FunctionCfg &Cfg) {
  auto [It, New] = BodyFactsOf.try_emplace(Def);
  if (New) {
    EscapeScanner Scanner(It->second, Cfg.parents());
    Scanner.TraverseStmt(Def->getBody());
  }
  return It->second;
}

bool FunctionAnalyzer::feasible(const CFGBlock *From,
                                const CFGBlock *To) const {
  if (R.ConstantParams.empty())
    return true;
  std::optional<unsigned> Index;
  unsigned I = 0;
  for (const CFGBlock::AdjacentBlock &Succ : From->succs()) {
    if (Succ.getReachableBlock() == To) {
      if (Index)
        return true; // Several edges to one block: no fact.
      Index = I;
    }
    ++I;
  }
  if (!Index)
    return true;
  std::optional<EdgeFact> E =
      edgeFact(From, *Index, Ctx, [&](const VarDecl *VD) {
        return R.ConstantParams.count(VD) && !R.Modified.count(VD);
      });
  if (!E)
    return true;
  BranchHistory Callers;
  ValueFact Passed;
  Passed.HasOneOf = true;
  Passed.OneOf.push_back(R.ConstantParams.lookup(E->Var));
  Callers.add(EdgeFact{E->Var, Passed});
  return Callers.add(*E);
}

namespace {

/// Whether \p E reads an element of a standard-library container:
/// `blocks.back()`, `c.front()`, `c.top()`, `c.at(i)`, `c[i]`, `*it`,
/// `it->second`.
bool readsContainerElement(const Expr *E) {
  E = E->IgnoreParenCasts();
  auto IsStd = [](QualType T) {
    const CXXRecordDecl *RD = T.isNull() ? nullptr
                                         : T.getNonReferenceType()
                                               ->getPointeeOrArrayElementType()
                                               ->getAsCXXRecordDecl();
    if (!RD)
      RD = T.isNull() ? nullptr : T.getNonReferenceType()->getAsCXXRecordDecl();
    return RD && RD->isInStdNamespace();
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (!M || !M->getIdentifier() ||
        !IsStd(MC->getImplicitObjectArgument()->getType()))
      return false;
    return llvm::is_contained({"back", "front", "top", "at"}, M->getName());
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return (Op->getOperator() == OO_Subscript ||
            Op->getOperator() == OO_Star) &&
           Op->getNumArgs() >= 1 && IsStd(Op->getArg(0)->getType());
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Base);
    return Op && (Op->getOperator() == OO_Arrow ||
                  Op->getOperator() == OO_Star) &&
           IsStd(Op->getArg(0)->getType());
  }
  return false;
}

/// The spaces that allocations through `&VD` in \p Body produce (an API
/// that allocates into its out-argument).
unsigned spacesAllocatedInto(const Stmt *Body, const VarDecl *VD) {
  unsigned Spaces = MS_None;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const ApiFunction *Api = CudaApiModel::lookup(Call);
          Api && Api->Alloc && Api->Alloc->PtrOutArg >= 0 &&
          static_cast<unsigned>(Api->Alloc->PtrOutArg) < Call->getNumArgs())
        if (const auto *UO = dyn_cast<UnaryOperator>(
                Call->getArg(Api->Alloc->PtrOutArg)->IgnoreParenCasts());
            UO && UO->getOpcode() == UO_AddrOf)
          if (const auto *DRE =
                  dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenCasts());
              DRE && DRE->getDecl() == VD)
            Spaces |= Api->Alloc->Space;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Spaces;
}

} // namespace

/// A caching allocator: every pointer it returns is either a fresh
/// allocation of one space or a block recycled from a standard container
/// (a free list), and at least one is fresh. The recycled blocks are taken
/// to be of the fresh ones' space: the container holds what earlier calls
/// returned. Nothing else (size, site) carries over.
static PointerFact recycledOrFresh(const FunctionDecl *FD,
                            const FunctionMemorySpaces &R, ASTContext &Ctx) {
  PointerFact Fresh = PointerFact::bottom();
  bool Recycled = false, AnyFresh = false, Fits = true;
  std::optional<VariableStores> Stores;
  auto IsNull = [&](const Expr *E) {
    return E->IgnoreParenImpCasts()->isNullPointerConstant(
               Ctx, Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
  };
  for (const CFGBlock *B : R.cfg().graph())
    for (const CFGElement &E : *B) {
      const auto *RS = dyn_cast_or_null<ReturnStmt>(FunctionCfg::stmtOf(E));
      const Expr *V = RS ? RS->getRetValue() : nullptr;
      if (!V || !Fits || IsNull(V))
        continue;
      if (readsContainerElement(V)) {
        Recycled = true;
        continue;
      }
      PointerFact F = R.factOf(V);
      if (F.isKnown() && !F.Freed) {
        Fresh = PointerFact::join(Fresh, F);
        AnyFresh = true;
        continue;
      }
      // `void *p; if (hit) p = list.back(); else cudaMalloc(&p, n);
      // return p;`
      const auto *DRE = dyn_cast<DeclRefExpr>(V->IgnoreParenCasts());
      const auto *Var = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
          Var->getType()->isReferenceType()) {
        Fits = false;
        continue;
      }
      if (!Stores)
        Stores = VariableStores::of(FD->getBody());
      for (const StoredValue &SV : Stores->valuesOf(Var)) {
        if (SV.IsCompound) {
          Fits = false;
        } else if (readsContainerElement(SV.Value)) {
          Recycled = true;
        } else if (!IsNull(SV.Value)) {
          PointerFact SF = R.factOf(SV.Value);
          if (!SF.isKnown())
            Fits = false;
          else {
            Fresh = PointerFact::join(Fresh, PointerFact::inSpace(SF.Spaces));
            AnyFresh = true;
          }
        }
      }
      if (unsigned Spaces = spacesAllocatedInto(FD->getBody(), Var)) {
        Fresh = PointerFact::join(Fresh, PointerFact::inSpace(Spaces));
        AnyFresh = true;
      }
    }
  if (!Fits || !Recycled || !AnyFresh || !Fresh.isKnown() ||
      (Fresh.Spaces & MS_Host))
    return PointerFact::unknown();
  PointerFact Out = PointerFact::inSpace(Fresh.Spaces);
  Out.MaybeNull = Fresh.MaybeNull;
  return Out;
}

void FunctionAnalyzer::solve(const MemoryState &Entry) {
  const CFG &G = R.cfg().graph();
  llvm::DenseMap<const CFGBlock *, MemoryState> Out;
  llvm::DenseSet<const CFGBlock *> Visited;
  llvm::SmallVector<const CFGBlock *, 32> Work;
  llvm::DenseMap<const CFGBlock *, unsigned> Visits;
  R.BlockEntry[&G.getEntry()] = Entry;
  Work.push_back(&G.getEntry());
  llvm::DenseSet<const CFGBlock *> Queued;
  Queued.insert(&G.getEntry());
  while (!Work.empty()) {
    const CFGBlock *B = Work.front();
    Work.erase(Work.begin());
    Queued.erase(B);
    if (++Visits[B] > 40) {
      R.Failed = true;
      return;
    }
    // Join what the visited predecessors give.
    MemoryState In;
    if (B == &G.getEntry()) {
      In = Entry;
    } else {
      bool First = true;
      for (const CFGBlock *P : B->preds()) {
        if (!P || !Visited.count(P) || !feasible(P, B))
          continue;
        const MemoryState &PO = Out[P];
        if (First) {
          In = PO;
          First = false;
          continue;
        }
        In.intersectJoin(PO);
      }
    }
    R.BlockEntry[B] = In;
    for (const CFGElement &E : *B)
      if (const Stmt *S = FunctionCfg::stmtOf(E))
        transfer(S, In);
    // A path through exit() or abort() never reaches what follows.
    if (B->hasNoReturnElement())
      continue;
    bool Changed = !Visited.count(B) || Out[B] != In;
    Visited.insert(B);
    if (!Changed)
      continue;
    Out[B] = std::move(In);
    for (const CFGBlock *S : B->succs())
      if (S && feasible(B, S) && Queued.insert(S).second)
        Work.push_back(S);
  }
  R.ExitState = R.BlockEntry.lookup(&G.getExit());
  // What the function returns.
  bool Any = false;
  PointerFact Ret = PointerFact::bottom();
  for (const CFGBlock *B : G)
    for (const CFGElement &E : *B)
      if (const auto *RS = dyn_cast_or_null<ReturnStmt>(FunctionCfg::stmtOf(E)))
        if (const Expr *V = RS->getRetValue()) {
          Ret = PointerFact::join(Ret, R.factOf(V));
          Any = true;
        }
  R.Returned = Any ? Ret : PointerFact::unknown();
  if (Any && R.Returned.Unknown) {
    R.Returned = recycledOrFresh(FD, R, Ctx);
    R.RecycledOrFresh = !R.Returned.Unknown;
  }
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

const MemoryState *FunctionMemorySpaces::stateBefore(CfgPoint P) const {
  auto It = BlockEntry.find(P.Block);
  if (It == BlockEntry.end() || P.Index > P.Block->size())
    return nullptr;
  FunctionAnalyzer A(*MSA, const_cast<FunctionMemorySpaces &>(*this));
  if (CursorBlock == P.Block && CursorIndex > P.Index) {
    // Back in a block already walked: restart from the nearest checkpoint
    // at or before the element (a copy of a state every CheckpointEvery
    // elements, not one per element).
    auto Found = Checkpoints.find(P.Block);
    if (Found == Checkpoints.end()) {
      std::vector<MemoryState> Saved;
      MemoryState St = It->second;
      for (unsigned I = 0, N = P.Block->size();; ++I) {
        if (I % CheckpointEvery == 0)
          Saved.push_back(St);
        if (I == N)
          break;
        if (const Stmt *S = FunctionCfg::stmtOf((*P.Block)[I]))
          A.transfer(S, St);
      }
      Found = Checkpoints.try_emplace(P.Block, std::move(Saved)).first;
    }
    unsigned C = P.Index / CheckpointEvery;
    CursorState = Found->second[C];
    CursorIndex = C * CheckpointEvery;
  }
  if (CursorBlock != P.Block) {
    CursorBlock = P.Block;
    CursorIndex = 0;
    CursorState = It->second;
  }
  for (; CursorIndex < P.Index; ++CursorIndex)
    if (const Stmt *S = FunctionCfg::stmtOf((*P.Block)[CursorIndex]))
      A.transfer(S, CursorState);
  return &CursorState;
}

PointerFact FunctionMemorySpaces::factOf(const Expr *E) const {
  if (Failed || !E)
    return PointerFact::unknown();
  // While a function is being solved, a summary it needs may be missing
  // (recursion): only answers given outside any solve are kept.
  if (!MSA->InProgress.empty())
    return computeFactOf(E);
  if (auto It = Facts.find(E); It != Facts.end())
    return It->second;
  PointerFact F = computeFactOf(E);
  Facts.try_emplace(E, F);
  return F;
}

PointerFact FunctionMemorySpaces::computeFactOf(const Expr *E) const {
  const Stmt *S = E;
  std::optional<CfgPoint> P;
  while (S && !(P = Cfg->pointOf(S)))
    S = Cfg->parents().getParent(S);
  if (!P)
    return PointerFact::unknown();
  const MemoryState *St = stateBefore(*P);
  if (!St)
    return PointerFact::unknown();
  FunctionAnalyzer A(*MSA, const_cast<FunctionMemorySpaces &>(*this));
  return A.eval(E, *St);
}

std::optional<LocKey> FunctionMemorySpaces::locationOf(const Expr *E) const {
  FunctionAnalyzer A(*MSA, const_cast<FunctionMemorySpaces &>(*this));
  return A.locOf(E);
}

//===----------------------------------------------------------------------===//
// The translation unit
//===----------------------------------------------------------------------===//

MemorySpaceAnalysis &MemorySpaceAnalysis::get(ASTContext &Ctx,
                                              const ArchConditionals &Arch) {
  return TranslationUnitAnalyses::get(Ctx).memorySpaces(Arch);
}

static bool isHostFunction(const FunctionDecl *FD) {
  return !FD->hasAttr<CUDAGlobalAttr>() && !FD->hasAttr<CUDADeviceAttr>();
}

const FunctionMemorySpaces *
MemorySpaceAnalysis::run(const FunctionDecl *FD, bool Contextual) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!isAnalysableFunction(Def, SM) || !isSeenWhole(Def, SM, *Arch) ||
      !isHostFunction(Def))
    return nullptr;
  if (Contextual && !ContextIsSummary.count(Def) && !callersMayTell(Def))
    ContextIsSummary.insert(Def);
  if (Contextual && ContextIsSummary.count(Def))
    Contextual = false;
  auto Key = std::make_pair(Def, Contextual);
  if (auto It = Results.find(Key); It != Results.end())
    return It->second.get();
  if (!InProgress.insert(Key).second)
    return nullptr; // Recursion: unknown.
  std::shared_ptr<const FunctionCfg> Cfg =
      TranslationUnitAnalyses::get(Ctx).sharedCfgOf(Def);
  std::unique_ptr<FunctionMemorySpaces> R;
  if (Cfg) {
    MemoryState Entry;
    bool Ok = true;
    if (Contextual && Def->getNumParams() > 0) {
      std::optional<MemoryState> FromCallers = entryFromCallers(Def);
      if (FromCallers)
        Entry = std::move(*FromCallers);
      else
        Ok = false;
    }
    if (Contextual && !Ok) {
      InProgress.erase(Key);
      ContextIsSummary.insert(Def);
      return run(Def, false);
    }
    R.reset(new FunctionMemorySpaces(*this, Cfg));
    if (Contextual)
      R->ConstantParams = constantArguments(Def);
    FunctionAnalyzer A(*this, *R);
    A.prescan();
    A.solve(Entry);
  }
  InProgress.erase(Key);
  auto &Slot = Results[Key];
  Slot = std::move(R);
  return Slot.get();
}

const FunctionMemorySpaces *
MemorySpaceAnalysis::analyse(const FunctionDecl *FD) {
  return run(FD, true);
}

const FunctionMemorySpaces *
MemorySpaceAnalysis::summary(const FunctionDecl *FD) {
  return run(FD, false);
}

namespace {
class CallSiteCollector : public RecursiveASTVisitor<CallSiteCollector> {
public:
  explicit CallSiteCollector(
      llvm::DenseMap<const FunctionDecl *,
                     llvm::SmallVector<std::pair<const CallExpr *,
                                                 const FunctionDecl *>, 4>>
          &Sites,
      llvm::DenseSet<const FunctionDecl *> &Unknown, const SourceManager &SM)
      : Sites(Sites), Unknown(Unknown), SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    // Code in a system header can only name a function of the program
    // through a template instantiated with the program's types: skip the
    // other functions and variables declared there outside any function,
    // most of the translation unit.
    if (D && (isa<FunctionDecl>(D) || isa<VarDecl>(D)) &&
        !D->getParentFunctionOrMethod() && !isInstantiation(D) &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

#define TRAVERSE_FN(T)                                                         \
  bool Traverse##T(T *FD) {                                                    \
    const FunctionDecl *Saved = Current;                                       \
    Current = FD->isThisDeclarationADefinition() && !FD->isDependentContext()  \
                  ? FD                                                         \
                  : nullptr;                                                   \
    Dependent = FD->isDependentContext();                                      \
    RecursiveASTVisitor::Traverse##T(FD);                                      \
    Current = Saved;                                                           \
    Dependent = false;                                                         \
    return true;                                                               \
  }
  TRAVERSE_FN(FunctionDecl)
  TRAVERSE_FN(CXXMethodDecl)
  TRAVERSE_FN(CXXConstructorDecl)
  TRAVERSE_FN(CXXDestructorDecl)
  TRAVERSE_FN(CXXConversionDecl)
#undef TRAVERSE_FN
  bool TraverseLambdaExpr(LambdaExpr *L) {
    const FunctionDecl *Saved = Current;
    Current = L->getCallOperator();
    bool Ok = RecursiveASTVisitor::TraverseLambdaExpr(L);
    Current = Saved;
    return Ok;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *Callee = C->getDirectCallee()) {
      const FunctionDecl *Canon = Callee->getCanonicalDecl();
      if (Current)
        Sites[Canon].push_back({C, Current});
      else if (!Dependent) // Template patterns: their instantiations count.
        Unknown.insert(Canon);
    }
    return true;
  }

private:
  static bool isInstantiation(const Decl *D) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      return FD->getTemplateInstantiationPattern() != nullptr;
    return cast<VarDecl>(D)->getTemplateInstantiationPattern() != nullptr;
  }

  bool Dependent = false;
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<std::pair<const CallExpr *,
                                             const FunctionDecl *>, 4>> &Sites;
  llvm::DenseSet<const FunctionDecl *> &Unknown;
  const FunctionDecl *Current = nullptr;
  const SourceManager &SM;
};
} // namespace

void MemorySpaceAnalysis::collectCallSites() {
  if (CallSitesCollected)
    return;
  CallSitesCollected = true;
  CallSiteCollector C(CallSites, UnknownCallers, Ctx.getSourceManager());
  // The traversal scope: with a precompiled header, the declarations parsed
  // in this run and its own outside system headers (driver/PrefixCache.h);
  // otherwise the translation unit.
  std::vector<Decl *> Scope = Ctx.getTraversalScope();
  if (Scope.size() == 1 && isa<TranslationUnitDecl>(Scope.front())) {
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      C.TraverseDecl(D);
    return;
  }
  for (Decl *D : Scope)
    C.TraverseDecl(D);
}

bool MemorySpaceAnalysis::callersMayTell(const FunctionDecl *FD) {
  // The entry from the callers has facts only under pointer, reference and
  // record parameters (entryFromCallers).
  if (llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
        QualType T = P->getType();
        return T->isPointerType() || T->isReferenceType() ||
               T->isRecordType();
      }))
    return true;
  return !constantArguments(FD).empty();
}

llvm::DenseMap<const VarDecl *, int64_t>
MemorySpaceAnalysis::constantArguments(const FunctionDecl *FD) {
  llvm::DenseMap<const VarDecl *, int64_t> Result;
  TranslationUnitAnalyses &TU = TranslationUnitAnalyses::get(Ctx);
  if (FD->getNumParams() == 0 || FD->hasAttr<CUDAGlobalAttr>() ||
      !TU.hasKnownCallers(FD) || TU.isAddressTaken(FD) || FD->isVariadic() ||
      FD->isMain())
    return Result;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual())
    return Result;
  collectCallSites();
  const FunctionDecl *Canon = FD->getCanonicalDecl();
  auto It = CallSites.find(Canon);
  if (UnknownCallers.count(Canon) || It == CallSites.end() ||
      It->second.empty())
    return Result;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    if (!P->getType()->isIntegralOrEnumerationType())
      continue;
    std::optional<int64_t> Common;
    bool Same = true;
    for (auto [Call, Caller] : It->second) {
      std::optional<int64_t> V =
          I < Call->getNumArgs() && !isa<CXXOperatorCallExpr>(Call)
              ? TU.integerConstant(Call->getArg(I))
              : std::nullopt;
      if (!V || (Common && *Common != *V)) {
        Same = false;
        break;
      }
      Common = V;
    }
    if (Same && Common)
      Result[P] = *Common;
  }
  return Result;
}

std::optional<MemoryState>
MemorySpaceAnalysis::entryFromCallers(const FunctionDecl *FD) {
  TranslationUnitAnalyses &TU = TranslationUnitAnalyses::get(Ctx);
  if (FD->hasAttr<CUDAGlobalAttr>() || !TU.hasKnownCallers(FD) ||
      TU.isAddressTaken(FD) || FD->isVariadic() || FD->isMain())
    return std::nullopt;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual())
    return std::nullopt;
  // A function with external linkage could also be called from another
  // translation unit; like the rest of cuda-tidy, the analysis takes the
  // translation unit as the program: its callers are the ones it sees.
  collectCallSites();
  const FunctionDecl *Canon = FD->getCanonicalDecl();
  if (UnknownCallers.count(Canon))
    return std::nullopt;
  auto It = CallSites.find(Canon);
  if (It == CallSites.end() || It->second.empty())
    return std::nullopt;
  std::optional<MemoryState> Joined;
  for (auto [Call, Caller] : It->second) {
    if (Call->getNumArgs() != FD->getNumParams() ||
        isa<CXXOperatorCallExpr>(Call))
      return std::nullopt;
    const FunctionMemorySpaces *CR = analyse(Caller);
    if (!CR || CR->Failed)
      return std::nullopt;
    FunctionAnalyzer CA(*this, const_cast<FunctionMemorySpaces &>(*CR));
    std::optional<CfgPoint> P = CR->cfg().pointOf(Call);
    if (!P)
      return std::nullopt;
    const MemoryState *Before = CR->stateBefore(*P);
    if (!Before)
      return std::nullopt;
    // Evaluating the arguments may analyse other functions: keep a copy.
    const MemoryState State = *Before;
    const MemoryState *St = &State;
    MemoryState Site;
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      const ParmVarDecl *Param = FD->getParamDecl(I);
      const Expr *Arg = Call->getArg(I);
      if (Param->getType()->isPointerType())
        Site[LocKey{Param, {}}] = CA.eval(Arg, *St);
      if (std::optional<Referent> Ref = referentOf(Param, Arg, CA))
        for (auto [First, Last] = St->withPrefix(Ref->CallerBase);
             First != Last; ++First)
          if (const auto &[K, F] = *First;
              (K.Path.size() > Ref->CallerBase.Path.size() ||
               Param->getType()->isReferenceType()))
            Site[K.withSuffixOf(Ref->CallerBase, Ref->CalleeBase)] = F;
    }
    // Sizes written in the caller mean nothing in the callee.
    for (auto &[K, F] : Site)
      F.Size = AllocSize();
    if (!Joined) {
      Joined = std::move(Site);
      continue;
    }
    Joined->intersectJoin(Site);
  }
  return Joined;
}

namespace {
/// Finds whether a device function dereferences a pointer parameter, or a
/// local pointer derived from it.
class DerefFinder : public RecursiveASTVisitor<DerefFinder> {
public:
  DerefFinder(MemorySpaceAnalysis &MSA, const ParmVarDecl *P, unsigned Depth)
      : MSA(MSA), Depth(Depth) {
    Derived.insert(P);
  }
  bool Found = false;

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getInit() && mentionsDerived(VD->getInit()))
      Grew |= Derived.insert(VD).second;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign && mentionsDerived(B->getRHS()))
      if (const auto *DRE = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Grew |= Derived.insert(VD).second;
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_Deref && mentionsDerived(U->getSubExpr()))
      Found = true;
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
    if (mentionsDerived(A->getBase()))
      Found = true;
    return true;
  }
  bool VisitMemberExpr(MemberExpr *M) {
    if (M->isArrow() && mentionsDerived(M->getBase()))
      Found = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      if (!mentionsDerived(C->getArg(I)))
        continue;
      const FunctionDecl *Def = nullptr;
      if (!Callee)
        continue; // Through a function pointer: unknown.
      if (!Callee->hasBody(Def) || I >= Def->getNumParams() || Depth > 3) {
        // Atomics and intrinsics come from the CUDA headers and access the
        // memory; a function of the program whose body is elsewhere is
        // unknown.
        const SourceManager &SM = MSA.context().getSourceManager();
        if (SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())) ||
            Callee->getBuiltinID())
          Found = true;
        continue;
      }
      if (MSA.kernelDereferences(Def, I))
        Found = true;
    }
    return true;
  }
  bool Grew = false;

private:
  bool mentionsDerived(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return Derived.count(DRE->getDecl());
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return B->isAdditiveOp() &&
             (mentionsDerived(B->getLHS()) || mentionsDerived(B->getRHS()));
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(E))
      return mentionsDerived(C->getTrueExpr()) ||
             mentionsDerived(C->getFalseExpr());
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return U->getOpcode() == UO_AddrOf && mentionsDerived(U->getSubExpr());
    return false;
  }
  MemorySpaceAnalysis &MSA;
  unsigned Depth;
  llvm::DenseSet<const Decl *> Derived;
};
} // namespace

bool MemorySpaceAnalysis::kernelDereferences(const FunctionDecl *Kernel,
                                             unsigned Index) {
  const FunctionDecl *Def = nullptr;
  if (!Kernel || !Kernel->hasBody(Def) || !Def || Index >= Def->getNumParams())
    return false; // Unknown: never a reason to report.
  auto Key = std::make_pair(Def, Index);
  if (auto It = KernelDerefs.find(Key); It != KernelDerefs.end())
    return It->second;
  KernelDerefs[Key] = false; // Recursion: what is found so far.
  DerefFinder F(*this, Def->getParamDecl(Index), 0);
  do {
    F.Grew = false;
    F.TraverseStmt(Def->getBody());
  } while (F.Grew && !F.Found);
  return KernelDerefs[Key] = F.Found;
}

//===----------------------------------------------------------------------===//
// Storage that outlives a function: members read through `this`, globals
//===----------------------------------------------------------------------===//

/// The member (through `this`) or file-scope pointer variable that the
/// lvalue \p E names, or null.
static const ValueDecl *outlivingStorage(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParens();
  if (!E->getType()->isPointerType())
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD->hasGlobalStorage() && !VD->isStaticLocal() &&
        !isDeviceVariable(VD) && !isManagedVariable(VD))
      return VD->getCanonicalDecl();
    return nullptr;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

namespace {
/// Every store into outliving storage in the translation unit.
/// (Replays the walk with implicit code and without instantiations.)
class StorageSpaceScan : public ScanVisitor<StorageSpaceScan> {
public:
  explicit StorageSpaceScan(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  bool VisitCallExpr(CallExpr *C) {
    const ApiFunction *Api = CudaApiModel::lookup(C);
    int Out = Api && Api->Alloc ? Api->Alloc->PtrOutArg : -1;
    const FunctionDecl *Callee = C->getDirectCallee();
    for (unsigned I = 0, N = C->getNumArgs(); I != N; ++I) {
      const Expr *Arg = C->getArg(I)->IgnoreParenCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(Arg);
          U && U->getOpcode() == UO_AddrOf && static_cast<int>(I) == Out)
        if (const ValueDecl *S = storageOf(U->getSubExpr())) {
          ++HandledAddr[S];
          PointerFact F = PointerFact::inSpace(Api->Alloc->Space);
          F.AllocSite = C;
          F.Allocator = Callee;
          const int BytesArg = Api->Alloc->BytesArg;
          bool Sized = BytesArg >= 0 && Api->Alloc->Bytes2Arg < 0 &&
                       BytesArg < static_cast<int>(N) && Current;
          storeDirect(S, F, Sized);
          if (Sized)
            Allocations[S].push_back({C, Current, C->getArg(BytesArg)});
          continue;
        }
      // Bound to a non-const reference parameter: the callee may store.
      if (Callee && I < Callee->getNumParams() &&
          Callee->getParamDecl(I)->getType()->isReferenceType() &&
          !Callee->getParamDecl(I)
               ->getType()
               .getNonReferenceType()
               .isConstQualified())
        if (const ValueDecl *S = storageOf(C->getArg(I)))
          Unknown.insert(S);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (const ValueDecl *S = storageOf(U->getSubExpr())) {
      if (U->getOpcode() == UO_AddrOf)
        ++AddrTaken[S];
      else if (U->isIncrementDecrementOp())
        Unknown.insert(S);
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    if (const ValueDecl *S = storageOf(BO->getLHS())) {
      if (BO->getOpcode() != BO_Assign)
        Unknown.insert(S);
      else
        store(S, valueOf(BO->getRHS()), BO->getLHS());
    }
    return true;
  }
  bool VisitCXXCtorInitializer(CXXCtorInitializer *Init) {
    if (const FieldDecl *F = Init->getMember();
        F && F->getType()->isPointerType() && Init->getInit())
      storeDirect(F, valueOf(Init->getInit()));
    return true;
  }
  bool VisitFieldDecl(FieldDecl *F) {
    if (F->getType()->isPointerType() && F->hasInClassInitializer() &&
        F->getInClassInitializer())
      storeDirect(F, valueOf(F->getInClassInitializer()));
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isPointerType() && VD->getInit() &&
        outlivingStorageDecl(VD))
      storeDirect(VD->getCanonicalDecl(), valueOf(VD->getInit()));
    return true;
  }

  /// The sized allocations into each storage whose stores are all sized
  /// allocations or null, and the functions that store into it.
  llvm::DenseMap<const ValueDecl *, StorageAllocations>
  allocations(const llvm::DenseMap<const ValueDecl *, PointerFact> &Known)
      const {
    llvm::DenseMap<const ValueDecl *, StorageAllocations> Result;
    for (const auto &[S, Sites] : Allocations) {
      if (Unsized.count(S) || !Known.count(S))
        continue;
      StorageAllocations &R = Result[S];
      R.Sites.assign(Sites.begin(), Sites.end());
      auto It = Storers.find(S);
      if (It != Storers.end())
        R.StoredIn.insert(It->second.begin(), It->second.end());
    }
    return Result;
  }

  llvm::DenseMap<const ValueDecl *, PointerFact> facts() const {
    llvm::DenseMap<const ValueDecl *, PointerFact> Result;
    for (const auto &[S, F] : Facts) {
      if (Unknown.count(S) || AddrTaken.lookup(S) > HandledAddr.lookup(S) ||
          !F.isKnown() || !eligible(S))
        continue;
      Result[S] = F;
    }
    return Result;
  }

private:
  static bool outlivingStorageDecl(const VarDecl *VD) {
    return VD->hasGlobalStorage() && !VD->isStaticLocal() &&
           !isDeviceVariable(VD) && !isManagedVariable(VD);
  }
  /// The storage \p E names, marking a member reached other than through
  /// `this` in its own class's method as unknown.
  const ValueDecl *storageOf(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!F || !F->getType()->isPointerType())
        return nullptr;
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(Current);
      if (!isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) || !M ||
          M->getParent() != F->getParent())
        Unknown.insert(F);
      return F;
    }
    return outlivingStorage(E);
  }
  /// The space a stored value points into, as far as a store alone says.
  PointerFact valueOf(const Expr *E) const {
    E = E->IgnoreParenCasts();
    if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
        Expr::NPCK_NotNull)
      return PointerFact::null();
    if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
      if (New->getNumPlacementArgs() > 0)
        return PointerFact::unknown();
      PointerFact F = PointerFact::inSpace(MS_Host);
      F.AllocSite = New;
      return F;
    }
    if (const auto *C = dyn_cast<CallExpr>(E))
      if (const ApiFunction *Api = CudaApiModel::lookup(C);
          Api && Api->Alloc && Api->Alloc->PtrOutArg < 0) {
        PointerFact F = PointerFact::inSpace(Api->Alloc->Space);
        F.AllocSite = C;
        F.Allocator = C->getDirectCallee();
        return F;
      }
    return PointerFact::unknown();
  }
  void store(const ValueDecl *S, const PointerFact &F, const Expr *) {
    storeDirect(S, F);
  }
  /// \p SizedAllocation: the store is an allocation of one byte count,
  /// recorded in Allocations. A null store leaves the sizes alone.
  void storeDirect(const ValueDecl *S, const PointerFact &F,
                   bool SizedAllocation = false) {
    if (Current)
      Storers[S].insert(Current);
    bool IsNull = !F.Unknown && F.MaybeNull && F.Spaces == MS_None;
    if (!Current || (!SizedAllocation && !IsNull))
      Unsized.insert(S);
    auto [It, New] = Facts.try_emplace(S, F);
    if (New)
      return;
    PointerFact &Old = It->second;
    if (F.Unknown || Old.Unknown) {
      Unknown.insert(S);
      return;
    }
    const Stmt *Site = Old.AllocSite ? Old.AllocSite : F.AllocSite;
    const FunctionDecl *Allocator = Old.AllocSite ? Old.Allocator : F.Allocator;
    Old = PointerFact::join(Old, F);
    Old.AllocSite = Site;
    Old.Allocator = Allocator;
  }
  bool eligible(const ValueDecl *S) const {
    auto InMainFile = [&](const Decl *D) {
      return SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
    };
    if (const auto *VD = dyn_cast<VarDecl>(S))
      return llvm::all_of(VD->redecls(), InMainFile);
    // A class none of whose methods is defined elsewhere.
    const auto *RD = dyn_cast<CXXRecordDecl>(S->getDeclContext());
    if (!RD || RD->isDependentContext() || RD->isUnion() ||
        isa<ClassTemplateSpecializationDecl>(RD))
      return false;
    return llvm::all_of(RD->methods(), [](const CXXMethodDecl *MD) {
      return MD->isImplicit() || MD->isDefaulted() || MD->isDeleted() ||
             MD->hasBody() || MD->isPureVirtual();
    });
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  llvm::DenseMap<const ValueDecl *, PointerFact> Facts;
  llvm::DenseSet<const ValueDecl *> Unknown;
  llvm::DenseMap<const ValueDecl *, unsigned> AddrTaken, HandledAddr;
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<StorageAllocation, 1>>
      Allocations;
  llvm::DenseMap<const ValueDecl *, llvm::SmallPtrSet<const FunctionDecl *, 2>>
      Storers;
  llvm::DenseSet<const ValueDecl *> Unsized;
};
} // namespace

void MemorySpaceAnalysis::scanStorage() {
  if (StorageFacts)
    return;
  StorageSpaceScan Scan(Ctx);
  Scan.replay(TranslationUnitAnalyses::get(Ctx).scan().nodes(
                  /*ImplicitCode=*/true),
              /*Instantiations=*/false);
  StorageFacts = Scan.facts();
  StorageAllocs = Scan.allocations(*StorageFacts);
}

const StorageAllocations *
MemorySpaceAnalysis::storageAllocations(const ValueDecl *Storage) {
  scanStorage();
  auto It = StorageAllocs->find(Storage);
  return It == StorageAllocs->end() ? nullptr : &It->second;
}

PointerFact MemorySpaceAnalysis::storageFact(const ValueDecl *Storage) {
  scanStorage();
  auto It = StorageFacts->find(Storage);
  if (It == StorageFacts->end())
    return PointerFact::unknown();
  PointerFact F = It->second;
  F.MaybeNull = true; // Before its first store, or after a reset.
  F.Size = AllocSize();
  if (const auto *PT = Storage->getType()->getAs<PointerType>())
    if (!PT->getPointeeType()->isVoidType())
      F.ElemType = PT->getPointeeType().getUnqualifiedType();
  return F;
}

namespace {
/// The calls \p S makes whenever it runs: not those under a branch, in a
/// loop body that may not run, or after a short-circuit.
void unconditionalCalls(const Stmt *S,
                        llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    unconditionalCalls(If->getInit(), Out);
    unconditionalCalls(If->getCond(), Out);
    return;
  }
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    unconditionalCalls(For->getInit(), Out);
    unconditionalCalls(For->getCond(), Out);
    return;
  }
  if (const auto *While = dyn_cast<WhileStmt>(S)) {
    unconditionalCalls(While->getCond(), Out);
    return;
  }
  if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
    unconditionalCalls(Switch->getCond(), Out);
    return;
  }
  if (isa<CXXForRangeStmt, AbstractConditionalOperator, CXXTryStmt>(S))
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp()) {
    unconditionalCalls(BO->getLHS(), Out);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Out.push_back(Call);
  for (const Stmt *Child : S->children())
    unconditionalCalls(Child, Out);
}

bool contains(const Stmt *S, const Stmt *Target) {
  if (S == Target)
    return true;
  return S && llvm::any_of(S->children(), [&](const Stmt *C) {
           return contains(C, Target);
         });
}

/// Whether \p E reads a variable that \p FD modifies, or storage other
/// than its parameters, locals and constants.
bool readsChangingValue(const Expr *E, const FunctionDecl *FD,
                        MemorySpaceAnalysis &MSA) {
  if (!E)
    return false;
  if (isa<MemberExpr, CallExpr>(E->IgnoreParenImpCasts()))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->hasLocalStorage() ? MSA.isModified(FD, VD)
                                   : !VD->getType().isConstQualified();
  return llvm::any_of(E->children(), [&](const Stmt *C) {
    const auto *CE = dyn_cast_or_null<Expr>(C);
    return CE && readsChangingValue(CE, FD, MSA);
  });
}
} // namespace

bool MemorySpaceAnalysis::allocatedAlike(const ValueDecl *A,
                                         const ValueDecl *B) {
  if (A == B)
    return true;
  const StorageAllocations *SA = storageAllocations(A);
  const StorageAllocations *SB = storageAllocations(B);
  if (!SA || !SB || SA->Sites.size() != 1 || SB->Sites.size() != 1)
    return false;
  const StorageAllocation &X = SA->Sites.front(), &Y = SB->Sites.front();
  if (X.In != Y.In || !X.Bytes || !Y.Bytes)
    return false;
  llvm::FoldingSetNodeID IX, IY;
  X.Bytes->Profile(IX, Ctx, /*Canonical=*/true);
  Y.Bytes->Profile(IY, Ctx, /*Canonical=*/true);
  return IX == IY && !readsChangingValue(X.Bytes, X.In, *this);
}

llvm::SmallVector<const Expr *, 2>
MemorySpaceAnalysis::bytesShownBefore(const FunctionDecl *Host,
                                      const Expr *Buffer, const Stmt *At) {
  llvm::SmallVector<const Expr *, 2> Shown;
  const FunctionDecl *Def = nullptr;
  if (!Host || !Buffer || !Host->hasBody(Def))
    return Shown;
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body)
    return Shown;
  // What the buffer names: a variable of the function it never changes,
  // or a member or global the function never stores into.
  const Expr *B = Buffer->IgnoreParenImpCasts();
  const VarDecl *Var = nullptr;
  const ValueDecl *Storage = outlivingStorage(B);
  // The functions the host calls directly: one that stores into a member
  // may give it a new allocation between a copy and the launch.
  llvm::SmallPtrSet<const FunctionDecl *, 8> Called;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *St = Work.pop_back_val();
    if (const auto *Call = dyn_cast<CallExpr>(St))
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        const FunctionDecl *CalleeDef = nullptr;
        Called.insert(Callee->hasBody(CalleeDef) ? CalleeDef : Callee);
      }
    for (const Stmt *Child : St->children())
      if (Child)
        Work.push_back(Child);
  }
  auto StoredHere = [&](const ValueDecl *S) {
    const StorageAllocations *A = storageAllocations(S);
    return !A || A->StoredIn.count(Def) ||
           llvm::any_of(A->StoredIn, [&](const FunctionDecl *Storer) {
             return Called.count(Storer);
           });
  };
  if (Storage) {
    if (StoredHere(Storage))
      return Shown;
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(B)) {
    Var = dyn_cast<VarDecl>(DRE->getDecl());
    if (!Var || !Var->hasLocalStorage() || isModified(Def, Var))
      return Shown;
  } else {
    return Shown;
  }
  auto SameBuffer = [&](const Expr *E) {
    E = E->IgnoreParenCasts();
    if (Var) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      return DRE && DRE->getDecl() == Var;
    }
    const ValueDecl *S = outlivingStorage(E);
    return S && (S == Storage ||
                 (!StoredHere(S) && allocatedAlike(Storage, S)));
  };
  for (const Stmt *Child : Body->body()) {
    if (contains(Child, At))
      return Shown;
    llvm::SmallVector<const CallExpr *, 4> Calls;
    unconditionalCalls(Child, Calls);
    for (const CallExpr *Call : Calls) {
      const ApiFunction *Api = CudaApiModel::lookup(Call);
      if (!Api || !Api->Copy || Api->Copy->DstPitchArg >= 0 ||
          Api->Copy->BytesArg < 0 ||
          Api->Copy->BytesArg >= static_cast<int>(Call->getNumArgs()))
        continue;
      for (int Arg : {Api->Copy->DstArg, Api->Copy->SrcArg})
        if (Arg >= 0 && Arg < static_cast<int>(Call->getNumArgs()) &&
            SameBuffer(Call->getArg(Arg))) {
          Shown.push_back(Call->getArg(Api->Copy->BytesArg));
          break;
        }
    }
  }
  // At is not in the function's body.
  Shown.clear();
  return Shown;
}

bool MemorySpaceAnalysis::isModified(const FunctionDecl *FD,
                                     const VarDecl *VD) {
  if (VD->getType().isConstQualified())
    return false;
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def))
    return true;
  if (auto It = BodyFactsOf.find(Def); It != BodyFactsOf.end())
    return It->second.Modified.count(VD);
  std::shared_ptr<const FunctionCfg> Cfg =
      TranslationUnitAnalyses::get(Ctx).sharedCfgOf(Def);
  return !Cfg || bodyFacts(Def, *Cfg).Modified.count(VD);
}

//===----------------------------------------------------------------------===//
// Symbolic sizes
//===----------------------------------------------------------------------===//

class SizeFolder {
public:
  SizeFolder(MemorySpaceAnalysis &MSA, const FunctionDecl *FD,
             const CallExpr *Via, bool OnePoint = false)
      : MSA(MSA), FD(FD), Via(Via), OnePoint(OnePoint) {}

  SymbolicSize fold(const Expr *E, unsigned Depth = 0) {
    SymbolicSize S;
    if (!E || Depth > 8)
      return S;
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<ExplicitCastExpr>(E))
      if (C->getType()->isIntegerType())
        return fold(C->getSubExpr(), Depth + 1);
    ASTContext &Ctx = MSA.context();
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx)) {
      S.Valid = true;
      int64_t V = R.Val.getInt().getExtValue();
      if (V != 0)
        S.Terms[{}] = V;
      return S;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      SymbolicSize L = fold(B->getLHS(), Depth + 1);
      SymbolicSize Rt = fold(B->getRHS(), Depth + 1);
      switch (B->getOpcode()) {
      case BO_Add:
        return L.minus(Rt.times(-1));
      case BO_Sub:
        return L.minus(Rt);
      case BO_Mul:
        return L.times(Rt);
      default:
        break;
      }
      return atom(E);
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return atom(E);
      if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
        if (Via && Via->getDirectCallee()) {
          const FunctionDecl *Callee = Via->getDirectCallee();
          const FunctionDecl *Def = nullptr;
          Callee->hasBody(Def);
          if (Def && P->getDeclContext() == Def &&
              P->getFunctionScopeIndex() < Via->getNumArgs()) {
            const CallExpr *Saved = Via;
            Via = nullptr;
            SymbolicSize S = fold(Saved->getArg(P->getFunctionScopeIndex()),
                                  Depth + 1);
            Via = Saved;
            return S;
          }
        }
        if (MSA.isModified(FD, P) && !OnePoint)
          return atom(E);
        return atom(P);
      }
      if (VD->hasLocalStorage()) {
        if (MSA.isModified(FD, VD))
          return OnePoint ? atom(VD) : atom(E);
        if (const Expr *Init = VD->getInit())
          if (VD->getType()->isIntegerType())
            return fold(Init, Depth + 1);
        return atom(VD);
      }
      return atom(VD->getType().isConstQualified() ? (const void *)VD
                                                   : (const void *)E);
    }
    return atom(E);
  }

private:
  SymbolicSize atom(const void *P) {
    SymbolicSize S;
    S.Valid = true;
    S.Terms[{reinterpret_cast<uintptr_t>(P)}] = 1;
    return S;
  }
  MemorySpaceAnalysis &MSA;
  const FunctionDecl *FD;
  const CallExpr *Via;
  bool OnePoint;
};

SymbolicSize SymbolicSize::of(const Expr *E, MemorySpaceAnalysis &MSA,
                              const FunctionDecl *FD, const CallExpr *Via) {
  return SizeFolder(MSA, FD, Via).fold(E);
}

SymbolicSize SymbolicSize::atOnePoint(const Expr *E, MemorySpaceAnalysis &MSA,
                                      const FunctionDecl *FD) {
  return SizeFolder(MSA, FD, nullptr, true).fold(E);
}

SymbolicSize SymbolicSize::of(const AllocSize &S, MemorySpaceAnalysis &MSA,
                              const FunctionDecl *AllocFD) {
  SymbolicSize R;
  if (!S.Known)
    return R;
  R.Valid = true;
  if (S.Constant != 0)
    R.Terms[{}] = S.Constant;
  for (const Expr *F : S.Factors)
    R = R.times(of(F, MSA, AllocFD, S.ViaCall));
  return R;
}

SymbolicSize SymbolicSize::minus(const SymbolicSize &O) const {
  SymbolicSize R;
  if (!Valid || !O.Valid)
    return R;
  R = *this;
  for (const auto &[M, C] : O.Terms) {
    int64_t &V = R.Terms[M];
    V -= C;
    if (V == 0)
      R.Terms.erase(M);
  }
  return R;
}

SymbolicSize SymbolicSize::times(int64_t K) const {
  SymbolicSize R;
  if (!Valid)
    return R;
  R.Valid = true;
  if (K == 0)
    return R;
  for (const auto &[M, C] : Terms)
    R.Terms[M] = C * K;
  return R;
}

SymbolicSize SymbolicSize::times(const SymbolicSize &O) const {
  SymbolicSize R;
  if (!Valid || !O.Valid || Terms.size() * O.Terms.size() > 64)
    return R;
  R.Valid = true;
  for (const auto &[M1, C1] : Terms)
    for (const auto &[M2, C2] : O.Terms) {
      Monomial M = M1;
      M.insert(M.end(), M2.begin(), M2.end());
      std::sort(M.begin(), M.end()); // Commutative factors match.
      int64_t &V = R.Terms[M];
      V += C1 * C2;
      if (V == 0)
        R.Terms.erase(M);
    }
  return R;
}

bool SymbolicSize::isPositive() const {
  if (!Valid || Terms.empty())
    return false;
  for (const auto &[M, C] : Terms)
    if (C < 0)
      return false;
  return true;
}

std::optional<int64_t> SymbolicSize::constant() const {
  if (!Valid)
    return std::nullopt;
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

} // namespace clang::tidy::cuda
