//===- AsyncWorkFacts.cpp - Locations and whole-unit facts ----------------===//
//
// The locations the async-work analysis names (KeyBuilder), and the facts
// it reads once per translation unit: how each stream was created, and
// whether host-visible memory exists at all.
//
//===----------------------------------------------------------------------===//

#include "AsyncWorkInternal.h"
#include "TranslationUnitScan.h"

namespace clang::tidy::cuda {
namespace async_work {

std::optional<LocKey> KeyBuilder::lvalue(const Expr *E,
                                         unsigned Depth) const {
  if (!E || Depth > 8)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
    if (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_UncheckedDerivedToBase ||
        C->getCastKind() == CK_DerivedToBase)
      return lvalue(C->getSubExpr(), Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    if (std::optional<LocKey> Element = L.rangeElementOf(VD))
      return Element;
    if (const Expr *Target = L.aliasOf(VD);
        Target && VD->getType()->isReferenceType())
      return lvalue(Target, Depth + 1);
    return LocKey{VD, {}};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field)
      return std::nullopt;
    std::optional<LocKey> Base;
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return LocKey{Field, {}};
    Base = ME->isArrow() ? pointee(ME->getBase(), Depth + 1)
                         : lvalue(ME->getBase(), Depth + 1);
    return append(Base, Field);
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return pointee(AS->getBase(), Depth + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Deref)
      return pointee(U->getSubExpr(), Depth + 1);
  // v[i], v.at(i), v.front(), v.back() of a host container: its elements.
  if (const Expr *Container = containerOfElement(E))
    return append(lvalue(Container, Depth + 1), nullptr);
  return std::nullopt;
}

const Expr *KeyBuilder::containerOfElement(const Expr *E, bool Data) {
  const Expr *Object = nullptr;
  const CXXMethodDecl *M = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Data || Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2)
      return nullptr;
    Object = Op->getArg(0);
    M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    M = MC->getMethodDecl();
    Object = MC->getImplicitObjectArgument();
    if (!M || !M->getIdentifier())
      return nullptr;
    StringRef Name = M->getName();
    if (Data ? Name != "data"
             : (Name != "at" && Name != "front" && Name != "back"))
      return nullptr;
  }
  if (!M || !Object || !CudaApiModel::isHostContainer(M->getParent()))
    return nullptr;
  return Object;
}

std::optional<LocKey> KeyBuilder::pointee(const Expr *E,
                                          unsigned Depth) const {
  if (!E || Depth > 8)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    switch (C->getCastKind()) {
    case CK_LValueToRValue:
      if (const Expr *Init = copiedValue(C->getSubExpr()))
        return pointee(Init, Depth + 1);
      return append(lvalue(C->getSubExpr(), Depth + 1), nullptr);
    case CK_ArrayToPointerDecay:
      return append(lvalue(C->getSubExpr(), Depth + 1), nullptr);
    case CK_NoOp:
    case CK_BitCast:
    case CK_UncheckedDerivedToBase:
    case CK_DerivedToBase:
      return pointee(C->getSubExpr(), Depth + 1);
    default:
      return std::nullopt;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      return lvalue(U->getSubExpr(), Depth + 1);
  if (const Expr *Container = containerOfElement(E, /*Data=*/true))
    return append(lvalue(Container, Depth + 1), nullptr);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    if (B->isAdditiveOp()) {
      if (B->getLHS()->getType()->isPointerType())
        return pointee(B->getLHS(), Depth + 1);
      if (B->getRHS()->getType()->isPointerType())
        return pointee(B->getRHS(), Depth + 1);
    }
  return std::nullopt;
}

std::optional<LocKey> KeyBuilder::handle(const Expr *E,
                                         unsigned Depth) const {
  if (!E || Depth > 8)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<ImplicitCastExpr>(E)) {
    if (C->getCastKind() == CK_LValueToRValue) {
      if (const Expr *Init = copiedValue(C->getSubExpr()))
        return handle(Init, Depth + 1);
      return lvalue(C->getSubExpr(), Depth + 1);
    }
    // The launch configuration passes the stream as void *.
    if (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_BitCast)
      return handle(C->getSubExpr(), Depth + 1);
  }
  return std::nullopt;
}

const Expr *KeyBuilder::copiedValue(const Expr *Read) const {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Read->IgnoreParens()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (const Expr *Init = L.aliasOf(VD);
          Init && !VD->getType()->isReferenceType())
        return Init;
  return nullptr;
}

std::optional<LocKey> KeyBuilder::append(std::optional<LocKey> K,
                                         const FieldDecl *Step) {
  if (!K || K->Path.size() >= MaxPath)
    return std::nullopt;
  K->Path.push_back(Step);
  return K;
}

} // namespace async_work

using namespace async_work;

//===----------------------------------------------------------------------===//
// Stream creation flags
//===----------------------------------------------------------------------===//

namespace {
/// The declaration that tells streams kept in \p K apart: its last field,
/// or its variable.
const ValueDecl *streamDeclOf(const LocKey &K) {
  for (auto It = K.Path.rbegin(); It != K.Path.rend(); ++It)
    if (*It)
      return *It;
  return K.Root;
}

/// (Replays the walk without instantiations or implicit code.)
class StreamCreationFinder : public ScanVisitor<StreamCreationFinder> {
public:
  StreamCreationFinder(
      ASTContext &Ctx,
      llvm::DenseMap<const ValueDecl *, std::optional<bool>> &Flags)
      : Ctx(Ctx), Flags(Flags), Keys(NoLocals) {}

  bool HostVisibleMemory = false;

  bool VisitVarDecl(VarDecl *VD) {
    if (isManagedVariableDecl(VD))
      HostVisibleMemory = true;
    return true;
  }

  bool VisitCallExpr(CallExpr *C) {
    const ApiFunction *Api = CudaApiModel::lookup(C);
    if (Api && ((Api->Alloc && (Api->Alloc->Space & (MS_Pinned | MS_Mapped |
                                                     MS_Managed))) ||
                (Api->HostRegister && Api->HostRegister->Registers) ||
                Api->MapHost))
      HostVisibleMemory = true;
    if (!Api || !Api->Resource || Api->Resource->Kind != ResourceKind::Stream ||
        Api->Resource->Role != ResourceRole::Create ||
        (unsigned)Api->Resource->HandleArg >= C->getNumArgs())
      return true;
    std::optional<LocKey> K = Keys.pointee(C->getArg(Api->Resource->HandleArg));
    if (!K)
      return true;
    std::optional<bool> NonBlocking = false;
    if (Api->StreamFlagsArg >= 0) {
      NonBlocking.reset();
      Expr::EvalResult R;
      const Expr *F = (unsigned)Api->StreamFlagsArg < C->getNumArgs()
                          ? C->getArg(Api->StreamFlagsArg)
                          : nullptr;
      if (F && !F->isValueDependent() && F->EvaluateAsInt(R, Ctx))
        NonBlocking =
            (R.Val.getInt().getZExtValue() & Api->NonBlockingBit) != 0;
    }
    const ValueDecl *D = streamDeclOf(*K);
    auto [It, New] = Flags.try_emplace(D, NonBlocking);
    if (!New && It->second != NonBlocking)
      It->second.reset();
    return true;
  }

private:
  ASTContext &Ctx;
  llvm::DenseMap<const ValueDecl *, std::optional<bool>> &Flags;
  KeyBuilder::Locals NoLocals;
  KeyBuilder Keys;
};
} // namespace

void AsyncWorkAnalysis::collectTranslationUnitFacts() {
  if (FactsCollected)
    return;
  FactsCollected = true;
  StreamCreationFinder F(Ctx, StreamFlags);
  F.replay(TranslationUnitAnalyses::get(Ctx).scan().nodes(
               /*ImplicitCode=*/false),
           /*Instantiations=*/false);
  HostVisibleMemory = F.HostVisibleMemory;
}

std::optional<bool>
AsyncWorkAnalysis::streamIsNonBlocking(const LocKey &Handle,
                                       const FunctionDecl *) {
  collectTranslationUnitFacts();
  auto It = StreamFlags.find(streamDeclOf(Handle));
  if (It == StreamFlags.end())
    return std::nullopt;
  return It->second;
}

} // namespace clang::tidy::cuda
