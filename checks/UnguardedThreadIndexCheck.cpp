//===- UnguardedThreadIndexCheck.cpp --------------------------------------===//

#include "UnguardedThreadIndexCheck.h"
#include "FunctionCfg.h"
#include "clang/Basic/OperatorPrecedence.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::tidy::cuda {

UnguardedThreadIndexCheck::UnguardedThreadIndexCheck(StringRef Name,
                                                     ClangTidyContext *Context)
    : CudaFunctionCheck(Name, Context,
                        {FunctionScope::Kernels, CheckLanguages::Cuda,
                         /*NeedsWholeBody=*/true,
                         /*AnalysesTemplatePatterns=*/true,
                         /*ReadsCodeWithErrors=*/true, ErrorGate::Accesses}),
      StrictMode(Options.get("StrictMode", false)) {}

void UnguardedThreadIndexCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "StrictMode", StrictMode);
}

void UnguardedThreadIndexCheck::checkFunction(const FunctionDecl &Kernel,
                                              const FunctionCfg &Cfg,
                                              ASTContext &Ctx) {
  // A CuPy ElementwiseKernel's raw array sized to its loop, indexed at a
  // stride of 'i' (analysis/LoopSizedRawIndex.h); the kernel is a template
  // over its type placeholders, whose pattern this fact reads.
  loopSizedRawOverruns(Kernel, Ctx, [&](const LoopSizedOverrun &O) {
    reportLoopSized(O, Ctx);
  });
  // The overrun analysis reads values and bounds, unknown in a pattern.
  if (inTemplatePattern())
    return;
  if (!Overruns) {
    TranslationUnitAnalyses &TU = TranslationUnitAnalyses::get(Ctx);
    Overruns = std::make_unique<IndexOverruns>(Ctx, threadIndex(Ctx),
                                               TU.launches(), arch());
  }
  Overruns->overrunsIn(&Kernel, Cfg, /*OnlyCertain=*/!StrictMode,
                       [&](const IndexOverrun &O) { report(O, &Kernel, Ctx); });
}

void UnguardedThreadIndexCheck::reportLoopSized(const LoopSizedOverrun &O,
                                                ASTContext &Ctx) {
  SourceLocation Loc = reportOnce(O.At->getBeginLoc(), Ctx.getSourceManager());
  if (Loc.isInvalid())
    return;
  if (O.Stride)
    diag(Loc, "%select{read of|write to}0 %1 at '%2' runs past its end: the "
              "call at line %3 gives %1 one element per iteration of the "
              "elementwise loop, and the index grows by '%4' per iteration")
        << O.Write << O.Array << ThreadIndexAnalysis::textOf(O.Index, Ctx)
        << O.CallLine << ThreadIndexAnalysis::textOf(O.Stride, Ctx);
  else
    diag(Loc, "%select{read of|write to}0 %1 at '%2' runs past its end: the "
              "call at line %3 gives %1 one element per iteration of the "
              "elementwise loop, and the last %select{iteration goes|%4 "
              "iterations go}5 past it")
        << O.Write << O.Array << ThreadIndexAnalysis::textOf(O.Index, Ctx)
        << O.CallLine << O.Offset << (O.Offset > 1);
  diag(O.Array->getLocation(),
       "bound '%0' in the operation, or run the loop over fewer iterations "
       "('size=' in CuPy, 'range=' in PyCUDA)",
       DiagnosticIDs::Note)
      << O.LoopIndex->getName();
}

void UnguardedThreadIndexCheck::report(const IndexOverrun &O,
                                       const FunctionDecl *Kernel,
                                       ASTContext &Ctx) {
  const GlobalAccess &A = O.Access;
  const IndexVerdict &V = O.Verdict;
  const CallExpr *ThroughCall = O.ThroughCall;
  const Expr *CallerIndex = O.CallerIndex;
  const IndexCoverage &Cover = O.Cover;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(
      ThroughCall ? ThroughCall->getBeginLoc() : A.At->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return;
  const Expr *ShownIndex = CallerIndex ? CallerIndex : A.Index;
  std::string IndexText = ThreadIndexAnalysis::textOf(ShownIndex, Ctx);
  if (ThroughCall && V.Offset > 0)
    IndexText += " + " + llvm::itostr(V.Offset);
  const char *Verb[] = {"reads", "writes", "takes the address of"};

  auto NoteLaunch = [&] {
    if (Cover.K != IndexCoverage::Overruns)
      return;
    const LaunchDimension &D = Cover.Site->Dims[Cover.Dim];
    diag(Cover.Site->location(),
         "this launch rounds the grid up%select{| in y| in z}0: the last "
         "block runs past '%1'",
         DiagnosticIDs::Note)
        << Cover.Dim << ThreadIndexAnalysis::textOf(D.Extent, Ctx);
  };

  if (O.BlockSite) {
    const LaunchDimension &D =
        O.BlockSite->Dims[llvm::countr_zero(V.Dims)];
    diag(Loc, "%select{read of|write to|address of}0 %1 at block-derived "
              "index '%2' has no upper bound on this path: one block per "
              "item, and a launch may run more blocks than the %3 items")
        << A.K << A.Base << IndexText << O.ItemCount;
    diag(O.BlockSite->location(),
         "this launch runs '%0' blocks for '%1' items",
         DiagnosticIDs::Note)
        << ThreadIndexAnalysis::textOf(D.Grid, Ctx)
        << ThreadIndexAnalysis::textOf(O.ItemCountArg, Ctx);
    diag(SM.getFileLoc(V.Unguarded.front()->getBeginLoc()),
         "guard the access, for example with 'if (%0 >= %1) return;'",
         DiagnosticIDs::Note)
        << V.UnguardedText.front() << O.ItemCount->getName();
    return;
  }
  if (O.PastSegment) {
    diag(Loc, "%select{read of|write to|address of}0 %1 at '%2' runs one "
              "past its segment: the loop bound '%3' includes the next "
              "segment's first entry, past the end of %1 for the last one")
        << A.K << A.Base << IndexText
        << ThreadIndexAnalysis::textOf(V.Fact->Guard, Ctx);
    diag(V.Fact->Guard->getBeginLoc(), "bound set here; use '<'",
         DiagnosticIDs::Note);
    return;
  }
  if (V.K == IndexVerdict::PastBound) {
    std::string Guard = ThreadIndexAnalysis::textOf(V.Fact->Guard, Ctx);
    if (ThroughCall)
      diag(Loc, "call to %0 %1 %2 at thread-derived index '%3', which can "
                "reach the bound in '%4'")
          << ThroughCall->getDirectCallee() << Verb[A.K] << A.Base
          << IndexText << Guard;
    else
      diag(Loc, "%select{read of|write to|address of}0 %1 at thread-derived "
                "index '%2' can reach the bound in '%3'")
          << A.K << A.Base << IndexText << Guard;
    diag(V.Fact->Guard->getBeginLoc(), "bound set here", DiagnosticIDs::Note);
    if (ThroughCall)
      diag(A.At->getBeginLoc(), "%0 indexes its parameter %1 here",
           DiagnosticIDs::Note)
          << ThroughCall->getDirectCallee() << A.HelperParam;
    NoteLaunch();
    return;
  }

  // Unbounded: name the part that has no guard when another part has one.
  std::string Part;
  if (!V.Whole) {
    llvm::SmallVector<std::string, 2> Parts;
    for (const std::string &T : V.UnguardedText)
      Parts.push_back("'" + T + "'");
    Part = llvm::join(Parts, " and ");
  }
  if (ThroughCall) {
    if (Part.empty())
      diag(Loc, "call to %0 %1 %2 at thread-derived index '%3', which has "
                "no upper bound on this path")
          << ThroughCall->getDirectCallee() << Verb[A.K] << A.Base
          << IndexText;
    else
      diag(Loc, "call to %0 %1 %2 at thread-derived index '%3', which has "
                "no upper bound on %4 on this path")
          << ThroughCall->getDirectCallee() << Verb[A.K] << A.Base
          << IndexText << Part;
    diag(A.At->getBeginLoc(), "%0 indexes its parameter %1 here",
         DiagnosticIDs::Note)
        << ThroughCall->getDirectCallee() << A.HelperParam;
  } else if (Part.empty()) {
    diag(Loc, "%select{read of|write to|address of}0 %1 at thread-derived "
              "index '%2' has no upper bound on this path")
        << A.K << A.Base << IndexText;
  } else {
    diag(Loc, "%select{read of|write to|address of}0 %1 at thread-derived "
              "index '%2' has no upper bound on %3 on this path")
        << A.K << A.Base << IndexText << Part;
  }

  // A helper that computes its own index: its variables are not in scope
  // at the call, so no guard is suggested there.
  if (ThroughCall && !CallerIndex) {
    NoteLaunch();
    return;
  }
  // Suggest a guard on the first unguarded part, against a plausible extent.
  const Expr *First = V.Unguarded.empty() ? ShownIndex : V.Unguarded.front();
  // Printed from the AST, in parentheses where '>=' would bind it
  // differently; the analysis's texts are sums of such parts.
  std::string Guarded =
      V.UnguardedText.empty()
          ? ThreadIndexAnalysis::textOf(First, Ctx, prec::Shift)
          : V.UnguardedText.front();
  // 'x[i + 1]': the guard is on the index with its offset.
  if (V.Offset > 0 && V.Whole && V.Unguarded.size() == 1 && !ThroughCall)
    Guarded = ThreadIndexAnalysis::textOf(A.Index, Ctx, prec::Shift);
  std::string Extent;
  if (const auto *VD = dyn_cast<VarDecl>(A.Base);
      VD && isGlobalDeviceArray(VD)) {
    if (const auto *CAT = Ctx.getAsConstantArrayType(VD->getType()))
      Extent = llvm::utostr(CAT->getSize().getZExtValue());
  } else {
    Extent = extentParameterName(Kernel, V.Dims);
  }
  // Out of macros: where the user wrote the macro's use or argument.
  SourceLocation NoteLoc = SM.getFileLoc(
      CallerIndex ? CallerIndex->getBeginLoc() : First->getBeginLoc());
  if (!Extent.empty())
    diag(NoteLoc, "guard the access, for example with 'if (%0 >= %1) return;'",
         DiagnosticIDs::Note)
        << Guarded << Extent;
  else
    diag(NoteLoc,
         "guard the access with the extent of %0, for example "
         "'if (%1 >= n) return;' where n is its number of elements",
         DiagnosticIDs::Note)
        << A.Base << Guarded;
  NoteLaunch();
}

} // namespace clang::tidy::cuda
