//===- Minimum.h - The operands of a minimum, however written ---*- C++ -*-===//
//
// A size capped by another is written 'min(a, b)' (a clamp function:
// ThreadIndexAnalysis::isIndexClamp) or by hand, 'a < b ? a : b' or
// 'b > a ? a : b' ('<=' and '>=' too). The analyses that read caps
// (SharedMemoryBounds' capped sizes, the launch analysis's grid growth, the
// launch-configuration check's bounded gridDim.x) ask here, so that the
// two spellings read alike.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_MINIMUM_H
#define CUDA_TIDY_ANALYSIS_MINIMUM_H

#include "ThreadIndexAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/FoldingSet.h"
#include <utility>

namespace clang::tidy::cuda {

/// Whether \p A and \p B are the same expression, up to parentheses and
/// casts.
inline bool sameOperand(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  A = ThreadIndexAnalysis::strip(A);
  B = ThreadIndexAnalysis::strip(B);
  if (!A || !B)
    return false;
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, /*Canonical=*/true);
  B->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// The two operands of the minimum \p E is: the arguments of a two-argument
/// clamp call ('std::min(a, b)'), or the arms of a conditional that picks
/// the smaller of the two values its condition compares ('a < b ? a : b',
/// 'b > a ? a : b'); {nullptr, nullptr} when \p E is no minimum (a maximum
/// written by hand, 'a > b ? a : b', is not one).
inline std::pair<const Expr *, const Expr *>
minimumOperands(const Expr *E, const ASTContext &Ctx) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E)
    return {nullptr, nullptr};
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (Call->getNumArgs() == 2 &&
        ThreadIndexAnalysis::isIndexClamp(Call->getDirectCallee()))
      return {Call->getArg(0), Call->getArg(1)};
    return {nullptr, nullptr};
  }
  const auto *CO = dyn_cast<ConditionalOperator>(E);
  if (!CO)
    return {nullptr, nullptr};
  const auto *Cmp =
      dyn_cast_or_null<BinaryOperator>(ThreadIndexAnalysis::strip(CO->getCond()));
  if (!Cmp || !Cmp->isRelationalOp())
    return {nullptr, nullptr};
  // 'l < r' and 'l <= r' are true when l is the smaller; '>' and '>=' when
  // r is.
  bool LeftSmallerWhenTrue =
      Cmp->getOpcode() == BO_LT || Cmp->getOpcode() == BO_LE;
  const Expr *Smaller = LeftSmallerWhenTrue ? Cmp->getLHS() : Cmp->getRHS();
  const Expr *Larger = LeftSmallerWhenTrue ? Cmp->getRHS() : Cmp->getLHS();
  if (sameOperand(CO->getTrueExpr(), Smaller, Ctx) &&
      sameOperand(CO->getFalseExpr(), Larger, Ctx))
    return {CO->getTrueExpr(), CO->getFalseExpr()};
  return {nullptr, nullptr};
}

} // namespace clang::tidy::cuda

#endif // CUDA_TIDY_ANALYSIS_MINIMUM_H
