//===- MemcpyDirectionCheck.cpp -------------------------------------------===//

#include "MemcpyDirectionCheck.h"
#include "MemoryCheckSupport.h"
#include "MemorySpaceAnalysis.h"
#include "ReachingValues.h"
#include "TemplatePatterns.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

MemcpyDirectionCheck::MemcpyDirectionCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : MemorySpaceCheck(Name, Context,
                       {FunctionScope::All, CheckLanguages::Cuda,
                        /*NeedsWholeBody=*/true,
                        /*AnalysesTemplatePatterns=*/true,
                        /*ReadsCodeWithErrors=*/true, ErrorGate::Operands}),
      IgnoreSingleSide(Options.get("IgnoreSingleSide", false)) {}

void MemcpyDirectionCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "IgnoreSingleSide", IgnoreSingleSide);
}

namespace {
enum class Side { None, Host, Device };

/// Which side of a copy a pointer is known to be on. Managed and mapped
/// memory are valid on both, and so are never on one side.
Side sideOf(const PointerFact &F) {
  if (F.Freed)
    return Side::None;
  if (F.isOnly(MS_Host | MS_Pinned))
    return Side::Host;
  if (F.isOnly(MS_Device | MS_Symbol))
    return Side::Device;
  return Side::None;
}

std::pair<Side, Side> expected(CopyDirection D) {
  switch (D) {
  case CopyDirection::HostToHost:
    return {Side::Host, Side::Host};
  case CopyDirection::HostToDevice:
    return {Side::Device, Side::Host};
  case CopyDirection::DeviceToHost:
    return {Side::Host, Side::Device};
  case CopyDirection::DeviceToDevice:
    return {Side::Device, Side::Device};
  default:
    return {Side::None, Side::None};
  }
}

CopyDirection directionFor(Side Dst, Side Src) {
  if (Src == Side::Host)
    return Dst == Side::Host ? CopyDirection::HostToHost
                             : CopyDirection::HostToDevice;
  return Dst == Side::Host ? CopyDirection::DeviceToHost
                           : CopyDirection::DeviceToDevice;
}

const char *sideName(Side S) { return S == Side::Host ? "host" : "device"; }

/// Whether \p S refers to a parameter of its function.
bool namesParameter(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return isa<ParmVarDecl>(DRE->getDecl());
  for (const Stmt *C : S->children())
    if (namesParameter(C))
      return true;
  return false;
}
} // namespace

void MemcpyDirectionCheck::checkStmt(const Stmt *S,
                                     const FunctionMemorySpaces &M,
                                     ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(S);
  const ApiFunction *Api = CudaApiModel::lookup(Call);
  if (!Api || !Api->Copy || Api->Copy->isSet() || Api->Copy->KindArg < 0 ||
      Api->Library == ApiLibrary::CLib)
    return;
  const CopyInfo &CI = *Api->Copy;
  unsigned N = Call->getNumArgs();
  if ((unsigned)CI.KindArg >= N || CI.DstArg < 0 || CI.SrcArg < 0 ||
      (unsigned)CI.DstArg >= N || (unsigned)CI.SrcArg >= N)
    return;
  const Expr *KindArg = Call->getArg(CI.KindArg);
  // The kinds the argument may be: a constant, or the constants a local
  // variable holds on the paths that reach the call, each with its store.
  llvm::SmallVector<std::pair<CopyDirection, const Stmt *>, 4> Kinds;
  const auto *Choice = dyn_cast<ConditionalOperator>(
      KindArg->IgnoreParenImpCasts());
  if (std::optional<CopyDirection> K = CudaApiModel::copyKindOf(KindArg, Ctx)) {
    Kinds.push_back({*K, nullptr});
  } else if (Choice) {
    // `toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice`: each
    // arm must fit the sides the analysis knows whatever the condition.
    std::optional<CopyDirection> T =
        CudaApiModel::copyKindOf(Choice->getTrueExpr(), Ctx);
    std::optional<CopyDirection> F =
        CudaApiModel::copyKindOf(Choice->getFalseExpr(), Ctx);
    if (T && F) {
      Kinds.push_back({*T, Choice->getTrueExpr()});
      Kinds.push_back({*F, Choice->getFalseExpr()});
    }
  } else if (const auto *DRE =
                 dyn_cast<DeclRefExpr>(KindArg->IgnoreParenImpCasts())) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    MemorySpaceAnalysis &MSA = MemorySpaceAnalysis::get(Ctx, arch());
    auto IsUnchanging = [&](const VarDecl *V) {
      return !M.cfg().hasIndirectUse(V) && !MSA.isModified(M.function(), V);
    };
    if (auto Values = reachingConstants(VD, Call, M.cfg(), Ctx, IsUnchanging))
      for (const ReachingValue &RV : *Values)
        if (std::optional<CopyDirection> K =
                CudaApiModel::copyKindOfValue(RV.Value))
          Kinds.push_back({*K, RV.Store});
  }
  const Expr *DstE = Call->getArg(CI.DstArg), *SrcE = Call->getArg(CI.SrcArg);
  PointerFact DstF, SrcF;
  Side Dst = Side::None, Src = Side::None;
  bool Symbolic = CI.Flags & (CF_ToSymbol | CF_FromSymbol);
  if (CI.Flags & CF_ToSymbol) {
    Dst = Side::Device; // The symbol; whether it is one is another check's.
  } else {
    DstF = M.factOf(DstE);
    Dst = sideOf(DstF);
  }
  if (CI.Flags & CF_FromSymbol) {
    Src = Side::Device;
  } else {
    SrcF = M.factOf(SrcE);
    Src = sideOf(SrcF);
  }
  // Managed and mapped memory are valid as either side: never flagged.
  if ((DstF.Spaces | SrcF.Spaces) & (MS_Managed | MS_Mapped))
    return;
  bool Both = Dst != Side::None && Src != Side::None;
  if (!Both && IgnoreSingleSide)
    return;
  // A condition on a parameter may tell what a parameter's pointer is (a
  // helper that copies either a host or a device source): the arms are
  // trusted then.
  if (Choice && Kinds.size() == 2 && namesParameter(Choice->getCond()) &&
      ((Dst != Side::None && namesParameter(DstE)) ||
       (Src != Side::None && namesParameter(SrcE))))
    return;
  // The first kind that contradicts the sides (cudaMemcpyDefault never does).
  const std::pair<CopyDirection, const Stmt *> *Wrong = nullptr;
  Side WantDst = Side::None, WantSrc = Side::None;
  bool DstWrong = false, SrcWrong = false;
  for (const auto &K : Kinds) {
    if (K.first == CopyDirection::Default)
      continue;
    std::tie(WantDst, WantSrc) = expected(K.first);
    DstWrong = Dst != Side::None && Dst != WantDst;
    SrcWrong = Src != Side::None && Src != WantSrc;
    if (DstWrong || SrcWrong) {
      Wrong = &K;
      break;
    }
  }
  if (!Wrong)
    return;
  const CopyDirection *Kind = &Wrong->first;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(Call->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return;
  const FunctionDecl *Callee = independentCallee(Call);
  std::string DstName = pointerName(DstE, Ctx), SrcName = pointerName(SrcE, Ctx);
  if (Both) {
    CopyDirection Right = directionFor(Dst, Src);
    bool SwapFixes = !Symbolic && Dst != Src && Dst == WantSrc &&
                     Src == WantDst;
    if (SwapFixes) {
      diag(Loc, "the arguments of %0 look swapped: the destination %1 is %2 "
                "memory and the source %3 is %4 memory, but the kind is %5")
          << Callee->getDeclName() << DstName << sideName(Dst) << SrcName
          << sideName(Src) << copyKindName(*Kind);
    } else {
      auto Describe = [&](bool IsSymbol, const Expr *E, Side Sd,
                          const std::string &Name) {
        if (IsSymbol)
          return "the symbol " + pointerName(E, Ctx);
        return std::string(sideName(Sd)) + " memory " + Name;
      };
      auto D = diag(Loc, "%0 copies from %1 to %2, but the kind is %3; it "
                         "should be %4")
               << Callee->getDeclName()
               << Describe(CI.Flags & CF_FromSymbol, SrcE, Src, SrcName)
               << Describe(CI.Flags & CF_ToSymbol, DstE, Dst, DstName)
               << copyKindName(*Kind) << copyKindName(Right);
      const Expr *K = KindArg->IgnoreParenImpCasts();
      if (!Wrong->second && !isa<CXXDefaultArgExpr>(KindArg) &&
          isa<DeclRefExpr>(K) && !K->getBeginLoc().isMacroID() &&
          !K->getEndLoc().isMacroID())
        D << FixItHint::CreateReplacement(K->getSourceRange(),
                                          copyKindName(Right));
    }
  } else if (DstWrong) {
    diag(Loc, "%0 with kind %1 expects %2 memory as its destination, but %3 "
              "is %4 memory")
        << Callee->getDeclName() << copyKindName(*Kind) << sideName(WantDst)
        << DstName << sideName(Dst);
  } else {
    diag(Loc, "%0 with kind %1 expects %2 memory as its source, but %3 is %4 "
              "memory")
        << Callee->getDeclName() << copyKindName(*Kind) << sideName(WantSrc)
        << SrcName << sideName(Src);
  }
  // A kind chosen at run time: the arm, or where the variable gets it.
  if (Wrong->second && Choice)
    diag(Wrong->second->getBeginLoc(),
         "the kind is %0 when the condition is %select{false|true}1",
         DiagnosticIDs::Note)
        << copyKindName(*Kind) << (Wrong->second == Choice->getTrueExpr());
  else if (Wrong->second)
    diag(Wrong->second->getBeginLoc(), "%0 is set to %1 here",
         DiagnosticIDs::Note)
        << cast<DeclRefExpr>(KindArg->IgnoreParenImpCasts())->getDecl()
        << copyKindName(*Kind);
  if (Dst != Side::None && !(CI.Flags & CF_ToSymbol))
    noteAllocation(*this, DstF, SM);
  if (Src != Side::None && !(CI.Flags & CF_FromSymbol))
    noteAllocation(*this, SrcF, SM);
}

} // namespace clang::tidy::cuda
