//===- ResultCount.cpp ----------------------------------------------------===//

#include "ResultCount.h"
#include "CudaApiModel.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

namespace clang::tidy::cuda {

int resultCountArgument(const FunctionDecl *Callee) {
  static const llvm::StringMap<int> Rows = {
#define CUDA_RESULT_COUNT(Name, CountArg) {#Name, CountArg},
#include "CudaApiModel.def"
  };
  // The library's own function: the global namespace or extern "C".
  if (!Callee || !Callee->getIdentifier() ||
      !(Callee->isExternC() ||
        Callee->getDeclContext()->getRedeclContext()->isTranslationUnit()))
    return -1;
  auto It = Rows.find(Callee->getName());
  return It == Rows.end() ? -1 : It->second;
}

static bool mentions(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl() == VD;
  for (const Stmt *Child : S->children())
    if (mentions(Child, VD))
      return true;
  return false;
}

/// Whether every reference to \p VD in \p S, but \p Except, loads its
/// value.
static bool onlyLoaded(const Stmt *S, const VarDecl *VD,
                       const DeclRefExpr *Except, const ParentMap &PM) {
  if (!S)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    if (DRE->getDecl() != VD || DRE == Except)
      return true;
    const Stmt *P = PM.getParentIgnoreParens(DRE);
    const auto *ICE = dyn_cast_or_null<ImplicitCastExpr>(P);
    return ICE && ICE->getCastKind() == CK_LValueToRValue;
  }
  for (const Stmt *Child : S->children())
    if (!onlyLoaded(Child, VD, Except, PM))
      return false;
  return true;
}

bool resultCountTestedAfter(const CallExpr *Call, const FunctionCfg &Cfg,
                            ASTContext &Ctx) {
  int CountArg = resultCountArgument(CudaApiModel::calleeOf(Call));
  const Expr *Arg = CudaApiModel::argument(Call, CountArg);
  if (!Arg)
    return false;
  const auto *Addr = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
  if (!Addr || Addr->getOpcode() != UO_AddrOf)
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParens());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || !VD->isLocalVarDecl() || VD->isStaticLocal() ||
      !VD->getType()->isIntegerType() || VD->getType().isVolatileQualified())
    return false;
  // Set to a known value where it is declared...
  const Expr *Init = VD->getInit();
  if (!Init || Init->isValueDependent() || !Init->isIntegerConstantExpr(Ctx))
    return false;
  // ... and written by nothing but this call.
  if (!onlyLoaded(Cfg.function()->getBody(), VD, Ref, Cfg.parents()))
    return false;
  // Every path from the call reaches a branch whose condition reads it.
  std::optional<CfgPoint> At;
  for (const Stmt *S = Call; S && !At; S = Cfg.parents().getParent(S))
    At = Cfg.pointOf(S);
  if (!At)
    return false;
  auto Tests = [&](const CFGBlock *B) {
    return mentions(B->getTerminatorCondition(), VD);
  };
  llvm::SmallVector<const CFGBlock *, 8> Work;
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
  auto Follow = [&](const CFGBlock *B) {
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ)
        continue;
      if (Succ == &Cfg.graph().getExit())
        return false; // Returns without testing the count.
      if (Seen.insert(Succ).second)
        Work.push_back(Succ);
    }
    return true;
  };
  if (Tests(At->Block))
    return true;
  if (!Follow(At->Block))
    return false;
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (!Tests(B) && !Follow(B))
      return false;
  }
  return true;
}

} // namespace clang::tidy::cuda
