//===- LaunchConfigurationGridLimits.cpp - How a grid grows with data -----===//
//
// A grid dimension that is not a constant is read through the locals,
// launcher parameters and one-return helpers it was computed from, and
// sorted by how it grows with the data: one size, a product of sizes of
// which a tensor gives at least one, or an element count. What bounds it keeps it apart: a constant, a '%' or
// '&' by one, min() (any clamp: the code chose its cap), a constant
// divided by a size, and a guard on the path to the launch ('TORCH_CHECK(
// rows <= 65535)', 'if (rows > limit) return', a loop condition), read from
// the thread-index analysis's facts at the launch, or at the lambda that
// holds it.
//
//===----------------------------------------------------------------------===//

#include "LaunchConfigurationInternal.h"
#include "Minimum.h"
#include "CudaApiModel.h"
#include "ThreadIndexAnalysis.h"
#include "TorchApiModel.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda {

using namespace launch_config;

/// What a value is made of, as far as its size goes.
struct LaunchConfiguration::Impl::Magnitude {
  /// Nothing lets it grow past the largest grid: a constant, a clamp, a
  /// guard. Max is its bound, when a constant.
  bool Bounded = false;
  std::optional<int64_t> Max;
  /// Sizes multiplied into it (a parameter, a field, 'x.size(0)').
  unsigned Sizes = 0;
  /// Of Sizes, those read from a tensor ('x.size(0)', 'x.numel()').
  unsigned TensorSizes = 0;
  /// An element count ('x.numel()') is part of it.
  bool Elements = false;
  /// A part that is neither a size nor a constant (a call the analysis
  /// does not read): its growth is unknown.
  bool Unknown = false;

  static Magnitude constant(int64_t C) {
    Magnitude M;
    M.Bounded = true;
    M.Max = C;
    return M;
  }
  static Magnitude unknown() {
    Magnitude M;
    M.Unknown = true;
    return M;
  }
  static Magnitude bounded() {
    Magnitude M;
    M.Bounded = true;
    return M;
  }
};

namespace {

/// The function whose body lexically holds \p FD, when \p FD is the call
/// operator of a lambda written there (nested lambdas too), or \p FD.
bool isWithinLambdaOf(const FunctionDecl *FD, const FunctionDecl *Owner) {
  const DeclContext *DC = FD;
  for (unsigned Step = 0; DC && Step < 8; ++Step) {
    if (DC == Owner)
      return true;
    const auto *MD = dyn_cast<CXXMethodDecl>(DC);
    if (!MD || !MD->getParent()->isLambda())
      return false;
    DC = MD->getParent()->getDeclContext();
  }
  return false;
}

/// The lambda expression in \p Owner's body whose call operator is
/// \p Operator (or holds it), or null.
const LambdaExpr *lambdaIn(const FunctionDecl *Owner,
                           const FunctionDecl *Operator) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Operator);
  if (!MD || !Owner->getBody())
    return nullptr;
  // The outermost lambda of Owner on the way out from Operator.
  const CXXRecordDecl *Class = MD->getParent();
  for (unsigned Step = 0; Step < 8; ++Step) {
    const auto *Outer = dyn_cast<CXXMethodDecl>(Class->getDeclContext());
    if (!Outer || !Outer->getParent()->isLambda())
      break;
    Class = Outer->getParent();
  }
  struct Finder : RecursiveASTVisitor<Finder> {
    const CXXRecordDecl *Class;
    const LambdaExpr *Found = nullptr;
    bool VisitLambdaExpr(LambdaExpr *L) {
      if (L->getLambdaClass() == Class)
        Found = L;
      return !Found;
    }
  } F;
  F.Class = Class;
  F.TraverseStmt(const_cast<Stmt *>(Owner->getBody()));
  return F.Found;
}

/// A local's initializer, for a local that \p E reads, or null.
const Expr *initializerOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(ThreadIndexAnalysis::strip(E));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit())
    return nullptr;
  return VD->getInit();
}

/// Whether the size \p E grows with a tensor's leading size: 'x.size(0)',
/// or a local set from one, scaled or rounded ('(b + 3) / 4'), not
/// divided by one ('n / x.size(0)' grows with n).
bool sizeFromTensor(const Expr *E, const ASTContext &Ctx, unsigned Depth) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 8)
    return false;
  if (const Expr *Init = initializerOf(E))
    return sizeFromTensor(Init, Ctx, Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Mul:
    case BO_Add:
    case BO_Sub:
      return sizeFromTensor(BO->getLHS(), Ctx, Depth + 1) ||
             sizeFromTensor(BO->getRHS(), Ctx, Depth + 1);
    case BO_Div:
    case BO_Shr:
      return sizeFromTensor(BO->getLHS(), Ctx, Depth + 1);
    default:
      return false;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // 'x.size(0)' or 'x.sizes()[0]': the leading extent, a batch or the
    // rows, which the caller's data sets; an inner one ('x.size(1)', the
    // channels or heads) is as often a small count.
    llvm::StringRef Query = TorchApiModel::sizeQuery(Call);
    if (Query == "numel")
      return true;
    if (Query == "size" || Query == "sizes") {
      const Expr *Index = nullptr;
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call))
        Index = OC->getNumArgs() == 2 ? OC->getArg(1) : nullptr;
      else if (Call->getNumArgs() == 1)
        Index = Call->getArg(0);
      auto I = Index ? ThreadIndexAnalysis::integerConstant(Index, Ctx)
                     : std::nullopt;
      return I && *I == 0;
    }
    if (!Query.empty())
      return false;
    // A rounded-up division (at::ceil_div(b, 4)): its numerator.
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getIdentifier() && Call->getNumArgs() == 2) {
      std::string Lower = Callee->getName().lower();
      if (llvm::StringRef(Lower).contains("div") ||
          llvm::StringRef(Lower).contains("blocks"))
        return sizeFromTensor(Call->getArg(0), Ctx, Depth + 1);
    }
  }
  return false;
}

/// Whether the grid \p E is capped by a constant: 'std::min(blocks, 4096)',
/// 'a < 4096 ? a : 4096', or a local set from one.
bool cappedByConstant(const Expr *E, const ASTContext &Ctx, unsigned Depth) {
  E = ThreadIndexAnalysis::strip(E);
  if (!E || Depth > 8)
    return false;
  if (const Expr *Init = initializerOf(E))
    return cappedByConstant(Init, Ctx, Depth + 1);
  auto [A, B] = minimumOperands(E, Ctx);
  return A && B &&
         (ThreadIndexAnalysis::integerConstant(A, Ctx) ||
          ThreadIndexAnalysis::integerConstant(B, Ctx));
}

bool isClampName(llvm::StringRef Name) {
  return Name == "min" || Name == "fmin" || Name == "fminf" ||
         Name == "umin" || Name == "llmin" || Name == "ullmin" ||
         Name == "__min" || Name == "clamp";
}

} // namespace

bool LaunchConfiguration::Impl::callersPassConstants(const FunctionDecl *FD,
                                                     unsigned Index) {
  FD = FD->getCanonicalDecl();
  auto It = CallsOf.find(FD);
  if (It == CallsOf.end()) {
    // The calls of FD in the translation unit, found once per function.
    struct Finder : RecursiveASTVisitor<Finder> {
      const FunctionDecl *FD;
      llvm::SmallVector<const CallExpr *, 4> Calls;
      bool Escapes = false;
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool VisitCallExpr(CallExpr *C) {
        if (const FunctionDecl *Callee = C->getDirectCallee())
          if (Callee->getCanonicalDecl() == FD)
            Calls.push_back(C);
        return true;
      }
    } F;
    F.FD = FD;
    F.TraverseDecl(Ctx.getTranslationUnitDecl());
    It = CallsOf.try_emplace(FD, F.Calls.begin(), F.Calls.end()).first;
  }
  // Read as called here: a function that other files also call may get
  // larger values there, which costs a miss, not a false alarm.
  if (It->second.empty())
    return false;
  for (const CallExpr *C : It->second)
    if (Index >= C->getNumArgs() ||
        !ThreadIndexAnalysis::integerConstant(C->getArg(Index), Ctx))
      return false;
  return true;
}

/// Whether \p B comes from an equality ('a == b', or the path where
/// 'a != b' failed) with a value that is not a constant.
static bool equatesSizes(const BoundFact &B) {
  const auto *Compare = dyn_cast_or_null<BinaryOperator>(B.Guard);
  return Compare && Compare->isEqualityOp() && !B.RHSKey.empty();
}

bool LaunchConfiguration::Impl::guardedAt(Val V) {
  if (!V.E || !V.F)
    return false;
  const Expr *E = ThreadIndexAnalysis::strip(V.E);
  // The function the value is read in and the point of that function the
  // launch happens at.
  const Frame *F = V.F;
  while (F && !F->At)
    F = F->Parent;
  if (!F)
    return false;
  const FunctionDecl *FD = F->FD;
  const Stmt *At = F->At;
  // A variable of the function around the lambda that launches: the facts
  // where the lambda is written.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasLocalStorage())
      if (const auto *Owner =
              dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
          Owner && Owner != FD && isWithinLambdaOf(FD, Owner)) {
        const LambdaExpr *L = lambdaIn(Owner, FD);
        if (!L)
          return false;
        FD = Owner;
        At = L;
      }
  // The statement of the CFG that holds At.
  const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).cfgOf(FD);
  if (!Cfg)
    return false;
  for (unsigned Step = 0; At && !Cfg->pointOf(At) && Step < 16; ++Step)
    At = Cfg->parents().getParent(At);
  if (!At)
    return false;
  // Any upper bound counts: the code compared the value with a limit. An
  // equality with another size ('TORCH_CHECK(labels.size(0) ==
  // scores.size(0))') ties the two together and limits neither.
  const FactList *Known = Facts.boundsAt(At, FD);
  std::string Key = Facts.variablePartKey(E);
  if (!Known || Key.empty())
    return false;
  for (const BoundFact *B : *Known)
    if (B->K == BoundFact::Less && B->LHSKey == Key && !equatesSizes(*B))
      return true;
  return false;
}

LaunchConfiguration::Impl::Magnitude
LaunchConfiguration::Impl::magnitudeOf(Val V, unsigned Depth) {
  if (Depth > 12 || V.Unknown || !V.E)
    return Magnitude::unknown();
  if (auto C = evaluate(V, Depth))
    return Magnitude::constant(*C);
  if (guardedAt(V))
    return Magnitude::bounded();
  // A variable of the function around a launching lambda, captured.
  Val R = resolve(V, Depth);
  if (R.E != V.E || R.F != V.F) {
    if (guardedAt(R))
      return Magnitude::bounded();
  }
  // A parameter whose callers pass what the analysis cannot read
  // ('h.size() / hidden', a value from the command line) is a size.
  if (R.E != V.E || R.F != V.F)
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(ThreadIndexAnalysis::strip(V.E));
        DRE && isa<ParmVarDecl>(DRE->getDecl()) &&
        DRE->getType()->isIntegralOrEnumerationType()) {
      Magnitude M = magnitudeOf(R, Depth + 1);
      if (M.Unknown) {
        M = Magnitude();
        M.Sizes = 1;
      }
      return M;
    }
  const Expr *E = ThreadIndexAnalysis::strip(R.E);
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return Magnitude::unknown();
  auto Sub = [&](const Expr *S) {
    return magnitudeOf({S, R.F}, Depth + 1);
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Mul:
    case BO_Add:
    case BO_Sub: {
      Magnitude L = Sub(BO->getLHS()), Rt = Sub(BO->getRHS());
      Magnitude M;
      M.Unknown = L.Unknown || Rt.Unknown;
      M.Elements = L.Elements || Rt.Elements;
      if (BO->getOpcode() == BO_Mul) {
        M.Sizes = L.Sizes + Rt.Sizes;
        M.TensorSizes = L.TensorSizes + Rt.TensorSizes;
      } else {
        M.Sizes = std::max(L.Sizes, Rt.Sizes);
        M.TensorSizes = std::max(L.TensorSizes, Rt.TensorSizes);
      }
      M.Bounded = L.Bounded && Rt.Bounded;
      if (BO->getOpcode() == BO_Sub && L.Bounded)
        M.Bounded = true, M.Max = L.Max; // a bound minus a size
      else if (L.Max && Rt.Max)
        M.Max = BO->getOpcode() == BO_Mul ? *L.Max * *Rt.Max
                : BO->getOpcode() == BO_Add ? *L.Max + *Rt.Max
                                            : *L.Max;
      if (M.Bounded)
        M.Sizes = M.TensorSizes = 0, M.Elements = false;
      return M;
    }
    case BO_Div:
    case BO_Shr: {
      Magnitude L = Sub(BO->getLHS()), Rt = Sub(BO->getRHS());
      // A constant over a size is at most the constant.
      if (L.Bounded)
        return L;
      Magnitude M = L;
      M.Unknown = L.Unknown || Rt.Unknown;
      // 'B * C / G' keeps what the divisor does not take away; an element
      // count over a size is the rows of a tensor.
      if (!M.Elements && Rt.Sizes && M.Sizes > Rt.Sizes)
        M.Sizes -= Rt.Sizes;
      else if (!M.Elements && Rt.Sizes)
        M.Sizes = std::min(M.Sizes, 1u);
      M.TensorSizes = std::min(M.TensorSizes, M.Sizes);
      return M;
    }
    case BO_Rem:
    case BO_And: {
      Magnitude Rt = Sub(BO->getRHS());
      if (Rt.Bounded)
        return Magnitude::bounded();
      if (BO->getOpcode() == BO_And && Sub(BO->getLHS()).Bounded)
        return Magnitude::bounded();
      return Magnitude::unknown();
    }
    default:
      return Magnitude::unknown();
    }
  }
  // 'a < b ? a : b' is min(a, b): any clamp bounds it, as below.
  if (auto [A, B] = minimumOperands(E, Ctx); A && B)
    return Magnitude::bounded();
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    // Other choices ('a > b ? a : b', 'flag ? a : b'): bounded when both
    // arms are.
    Magnitude T = Sub(CO->getTrueExpr()), F = Sub(CO->getFalseExpr());
    Magnitude M;
    M.Bounded = T.Bounded && F.Bounded;
    M.Unknown = T.Unknown || F.Unknown;
    M.Elements = T.Elements || F.Elements;
    M.Sizes = std::max(T.Sizes, F.Sizes);
    M.TensorSizes = std::max(T.TensorSizes, F.TensorSizes);
    return M;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    llvm::StringRef Query = TorchApiModel::sizeQuery(Call);
    if (!Query.empty()) {
      Magnitude M;
      M.Sizes = M.TensorSizes = 1;
      M.Elements = Query == "numel";
      return M;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getIdentifier()) {
      if (isClampName(Callee->getName()) ||
          ThreadIndexAnalysis::isIndexClamp(Callee))
        return Magnitude::bounded();
      if (Callee->getName() == "max" && Call->getNumArgs() == 2) {
        Magnitude L = Sub(Call->getArg(0)), Rt = Sub(Call->getArg(1));
        Magnitude M;
        M.Bounded = L.Bounded && Rt.Bounded;
        M.Unknown = L.Unknown || Rt.Unknown;
        M.Elements = L.Elements || Rt.Elements;
        M.Sizes = std::max(L.Sizes, Rt.Sizes);
        M.TensorSizes = std::max(L.TensorSizes, Rt.TensorSizes);
        return M;
      }
      // A rounded-up division whose body is not one return
      // (at::ceil_div, cuda::ceil_div): the numerator's growth.
      std::string Lower = Callee->getName().lower();
      if (Call->getNumArgs() == 2 &&
          (llvm::StringRef(Lower).contains("div") ||
           llvm::StringRef(Lower).contains("blocks"))) {
        Magnitude L = Sub(Call->getArg(0));
        if (L.Bounded)
          return L;
        return L;
      }
    }
    return Magnitude::unknown();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->getType()->isIntegralOrEnumerationType())
      return Magnitude::unknown();
    // A parameter that every call in this file passes a constant for
    // ('benchmark(..., NUM, ...)'): as small as those constants.
    if (const auto *PV = dyn_cast<ParmVarDecl>(VD))
      if (const auto *FD = dyn_cast<FunctionDecl>(PV->getDeclContext()))
        if (callersPassConstants(FD, PV->getFunctionScopeIndex()))
          return Magnitude::bounded();
    Magnitude M;
    M.Sizes = 1;
    return M;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // A field of a parameter struct ('params.batch'); dim3 fields that
    // did not resolve are unknown.
    if (!ME->getType()->isIntegralOrEnumerationType() ||
        isa<CXXMethodDecl>(ME->getMemberDecl()))
      return Magnitude::unknown();
    Magnitude M;
    M.Sizes = 1;
    return M;
  }
  return Magnitude::unknown();
}

void LaunchConfiguration::Impl::classifyGrowth(LaunchDimension &D, Val G) {
  if (G.Unknown || !G.E)
    return;
  D.GridCapped = cappedByConstant(G.E, Ctx, 0);
  Magnitude M = magnitudeOf(G, 0);
  int64_t Limit = CudaApiModel::launchLimits().maxGridDim(1);
  if (M.Unknown || (M.Bounded && (!M.Max || *M.Max <= Limit)) ||
      M.Sizes == 0)
    return;
  // A product counts as one when a tensor gives one of its sizes: two
  // integer parameters multiplied ('trans_count * head_ext') are as often
  // small counts as sizes.
  D.GridGrowth = M.Elements ? LaunchDimension::Growth::Elements
                 : M.Sizes >= 2 && M.TensorSizes >= 1
                     ? LaunchDimension::Growth::Product
                     : LaunchDimension::Growth::Size;
  Val R = resolve(G);
  D.GridGrowsWith = ThreadIndexAnalysis::strip(R.E ? R.E : G.E);
  D.GridFromLeadingTensorSize =
      D.GridGrowsWith && sizeFromTensor(D.GridGrowsWith, Ctx, 0);
}

} // namespace clang::tidy::cuda
