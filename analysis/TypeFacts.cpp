//===- TypeFacts.cpp ------------------------------------------------------===//

#include "TypeFacts.h"
#include "CudaApiModel.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::cuda {

namespace {

/// Whether \p E reads member \p Field of the constructor's source
/// parameter \p Source ('o.m', 'std::move(o.m)' or 'o.m' converted).
bool readsSameMember(const Expr *E, const FieldDecl *Field,
                     const ParmVarDecl *Source) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 1 &&
      Construct->getConstructor()->isCopyOrMoveConstructor() &&
      Construct->getConstructor()->isTrivial())
    E = Construct->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && Call->isCallToStdMove() && Call->getNumArgs() == 1)
    E = Call->getArg(0)->IgnoreParenImpCasts();
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME || ME->getMemberDecl() != Field)
    return false;
  const auto *Base =
      dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  return Base && Base->getDecl() == Source;
}

/// Whether \p S, a statement of a copy constructor's body, only assigns
/// a member of this object from the same member of \p Source.
bool isMemberwiseAssignment(const Stmt *S, const ParmVarDecl *Source) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || BO->getOpcode() != BO_Assign)
    return false;
  const auto *LHS = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
  if (!LHS || !isa<CXXThisExpr>(LHS->getBase()->IgnoreParenImpCasts()))
    return false;
  const auto *Field = dyn_cast<FieldDecl>(LHS->getMemberDecl());
  return Field && readsSameMember(BO->getRHS(), Field, Source);
}

/// The definition of \p FD whose body is visible: its own, or for a member
/// of a class template specialization that was not instantiated here (a
/// destructor the device compilation never uses), its pattern's.
const FunctionDecl *definitionOf(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (FD->hasBody(Def))
    return Def;
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    if (Pattern->hasBody(Def))
      return Def;
  return nullptr;
}

bool isEmptyBody(const Stmt *Body) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  return CS && llvm::all_of(CS->body(),
                            [](const Stmt *S) { return isa<NullStmt>(S); });
}

/// Whether copy or move constructor \p C does more than a bitwise copy.
bool constructorHasEffects(const CXXConstructorDecl *C) {
  const auto *Ctor = dyn_cast_or_null<CXXConstructorDecl>(definitionOf(C));
  if (!Ctor)
    return false; // Unknown: defined elsewhere.
  const ParmVarDecl *Source = Ctor->getParamDecl(0);
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    if (!Init->isWritten())
      continue;
    const FieldDecl *Field = Init->getMember();
    if (!Field || !readsSameMember(Init->getInit(), Field, Source))
      return true;
  }
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Ctor->getBody());
  if (!Body)
    return true;
  return !llvm::all_of(Body->body(), [&](const Stmt *S) {
    return isa<NullStmt>(S) || isMemberwiseAssignment(S, Source);
  });
}

} // namespace

const FunctionDecl *copyWithEffects(const CXXRecordDecl *RD) {
  if (CudaApiModel::isBitwiseValueType(RD))
    return nullptr;
  if (const CXXDestructorDecl *D = RD->getDestructor();
      D && D->isUserProvided()) {
    const FunctionDecl *Def = definitionOf(D);
    if (Def && !isEmptyBody(Def->getBody()))
      return D;
  }
  for (const CXXConstructorDecl *C : RD->ctors())
    if ((C->isCopyConstructor() || C->isMoveConstructor()) &&
        C->isUserProvided() && constructorHasEffects(C))
      return C;
  return nullptr;
}

QualType bufferElementTypeOf(const Expr *Ptr) {
  const Expr *E = Ptr->IgnoreParenImpCasts();
  while (const auto *C = dyn_cast<ExplicitCastExpr>(E)) {
    const Expr *Sub = C->getSubExpr()->IgnoreParenImpCasts();
    if (!Sub->getType()->isPointerType() && !Sub->getType()->isArrayType())
      break;
    E = Sub;
  }
  QualType T = E->getType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  else if (!T->isArrayType())
    return QualType();
  // The elements of a 2-D or 3-D array are its scalars.
  if (T->isArrayType())
    return QualType(T->getBaseElementTypeUnsafe(), 0);
  return T.getUnqualifiedType();
}

} // namespace clang::tidy::cuda
