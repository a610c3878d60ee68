//===- MemorySpaceFacts.cpp -----------------------------------------------===//
//
// The facts of the memory-space analysis and their lattice: tracked
// locations (LocKey), what is known of one pointer (PointerFact) and its
// join, the state at a program point (MemoryState) and its join, and how a
// variable's declaration tells its space (__device__, __managed__).
//
//===----------------------------------------------------------------------===//

#include "MemorySpaceInternal.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"

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

bool isDeviceVariable(const VarDecl *VD) {
  return VD && VD->hasGlobalStorage() && !isManagedVariable(VD) &&
         (CudaApiModel::isDeclaredDeviceVariable(VD) ||
          CudaApiModel::isDeclaredConstantVariable(VD));
}

/// `__managed__`: clang keeps the attribute for HIP only; for CUDA the
/// CUDA headers' macro expands to an attribute clang drops, so look for the
/// macro among the declaration's specifiers (`__device__ __managed__ int x`).
bool isManagedVariable(const VarDecl *VD) {
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
bool isOutParamType(QualType T) {
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

} // namespace clang::tidy::cuda
