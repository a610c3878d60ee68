//===- UncheckedKernelLaunchCheck.cpp -------------------------------------===//

#include "UncheckedKernelLaunchCheck.h"
#include "CompileErrors.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "ResultUse.h"
#include "SourceLocations.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

static CudaFunctionCheck::Traits readsCodeWithErrors() {
  CudaFunctionCheck::Traits T;
  T.ReadsCodeWithErrors = true;
  return T;
}

UncheckedKernelLaunchCheck::UncheckedKernelLaunchCheck(
    StringRef Name, ClangTidyContext *Context)
    : CudaFunctionCheck(Name, Context, readsCodeWithErrors()),
      ErrorCheckMacro(Options.get("ErrorCheckMacro", "")),
      StrictLaunchErrorCheck(Options.get("StrictLaunchErrorCheck", false)),
      ReportExportedLaunchers(Options.get("ReportExportedLaunchers", false)) {}

void UncheckedKernelLaunchCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ErrorCheckMacro", ErrorCheckMacro);
  Options.store(Opts, "StrictLaunchErrorCheck", StrictLaunchErrorCheck);
  Options.store(Opts, "ReportExportedLaunchers", ReportExportedLaunchers);
}

void UncheckedKernelLaunchCheck::startTranslationUnit() {
  Summaries.clear();
  InProgress.clear();
}

bool UncheckedKernelLaunchCheck::examines(const CallExpr *Call,
                                          const FunctionCfg &Cfg,
                                          ASTContext &Ctx) {
  // A launch examines no error, even one whose kernel did not compile.
  if (isa<CUDAKernelCallExpr>(Call))
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return true; // An indirect call may check; stay silent.
  if (const ApiFunction *Api = CudaApiModel::lookup(Callee)) {
    // A checked synchronizing call reports errors raised while the kernel
    // ran, but not a launch that the runtime refused (seen on an H100:
    // docs/checks/cuda-unchecked-kernel-launch.md); the strict mode asks
    // for the last-error query.
    if (Api->ErrorQuery ||
        (!StrictLaunchErrorCheck && Api->synchronizesHost()))
      return isResultExamined(classifyResultUse(Call, Cfg), Cfg);
    return false;
  }
  if (CudaApiModel::reportsErrorsByThrowing(Callee))
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Def = nullptr;
  if (Callee->hasBody(Def) && isAnalysableFunction(Def, SM) &&
      isSeenWhole(Def, SM, arch()))
    return summarize(Def, Ctx).ExaminesOnEveryPath;
  // A function of ours whose body is elsewhere may check: stay silent.
  // Library functions (in system headers) do not.
  return !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation()));
}

const CallExpr *
UncheckedKernelLaunchCheck::launchStartedBy(const CallExpr *Call,
                                            const FunctionCfg &Cfg,
                                            ASTContext &Ctx) {
  if (isa<CUDAKernelCallExpr>(Call))
    return Call;
  if (CudaApiModel::isKernelLaunch(Call)) {
    // A launch API returns its own launch error: it is examined when that
    // result is.
    return isResultExamined(classifyResultUse(Call, Cfg), Cfg) ? nullptr
                                                               : Call;
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) ||
      !isAnalysableFunction(Def, Ctx.getSourceManager()) ||
      !isSeenWhole(Def, Ctx.getSourceManager(), arch()))
    return nullptr;
  return summarize(Def, Ctx).PendingLaunch;
}

UncheckedKernelLaunchCheck::SiteResult
UncheckedKernelLaunchCheck::followLaunch(const CallExpr *Site,
                                         const FunctionCfg &Cfg,
                                         ASTContext &Ctx) {
  SiteResult R;
  std::optional<CfgPoint> Start = Cfg.pointOf(Site);
  if (!Start)
    return R;
  Cfg.walkForward(
      *Start,
      [&](const Stmt *S, CfgPoint) {
        // Code that did not compile (CompileErrors.h) may examine it; a
        // launch does not.
        if (S != Site && isErroneousAction(S, Ctx) &&
            !isErroneousLaunch(S, Ctx))
          return true;
        const auto *Call = dyn_cast<CallExpr>(S);
        return Call && Call != Site && examines(Call, Cfg, Ctx);
      },
      [&](const Stmt *Last) {
        R.Unexamined = true;
        R.ExitStmt = Last;
        return true;
      });
  return R;
}

const UncheckedKernelLaunchCheck::Summary &
UncheckedKernelLaunchCheck::summarize(const FunctionDecl *FD,
                                      ASTContext &Ctx) {
  static const Summary Unknown{/*ExaminesOnEveryPath=*/true, nullptr};
  auto It = Summaries.find(FD);
  if (It != Summaries.end())
    return It->second;
  if (!InProgress.insert(FD).second)
    return Unknown; // Recursion: assume nothing.
  Summary S = Unknown;
  if (const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).cfgOf(FD)) {
    bool UncheckedPath = false;
    Cfg->walkFromEntry(
        [&](const Stmt *St, CfgPoint) {
          if (isErroneousAction(St, Ctx) && !isErroneousLaunch(St, Ctx))
            return true;
          const auto *Call = dyn_cast<CallExpr>(St);
          return Call && examines(Call, *Cfg, Ctx);
        },
        [&](const Stmt *) {
          UncheckedPath = true;
          return true;
        });
    S.ExaminesOnEveryPath = !UncheckedPath;
    for (const CFGBlock *B : Cfg->graph()) {
      for (const CFGElement &E : *B) {
        const auto *Call = dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(E));
        if (!Call)
          continue;
        const CallExpr *Origin = launchStartedBy(Call, *Cfg, Ctx);
        if (Origin && followLaunch(Call, *Cfg, Ctx).Unexamined) {
          S.PendingLaunch = Origin;
          break;
        }
      }
      if (S.PendingLaunch)
        break;
    }
  }
  InProgress.erase(FD);
  return Summaries[FD] = S;
}

void UncheckedKernelLaunchCheck::checkFunction(const FunctionDecl &Function,
                                               const FunctionCfg &Cfg,
                                               ASTContext &Ctx) {
  const FunctionDecl *FD = &Function;
  const SourceManager &SM = Ctx.getSourceManager();
  TranslationUnitAnalyses &TU = TranslationUnitAnalyses::get(Ctx);
  for (const CFGBlock *B : Cfg.graph()) {
    for (const CFGElement &E : *B) {
      const auto *Call = dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(E));
      // A launch an argument of which did not compile is not followed.
      if (!Call || isErroneousAction(Call, Ctx))
        continue;
      const CallExpr *Origin = launchStartedBy(Call, Cfg, Ctx);
      if (!Origin)
        continue;
      SiteResult R = followLaunch(Call, Cfg, Ctx);
      if (!R.Unexamined)
        continue;
      // The error may still be examined by whoever calls this function:
      // leave it to them when they are in this translation unit, and stay
      // silent when the callers cannot be known.
      // A function bound to Python (a PyTorch extension's m.def) is called
      // by Python code, which examines no launch error.
      bool Bound = TU.torchTensors().isBoundToPython(FD);
      if (!Bound && (TU.hasKnownCallers(FD) || TU.isAddressTaken(FD)))
        continue;
      // A launcher other translation units may call (extern "C", declared
      // in a header): its callers there may examine the error.
      if (!Bound && !ReportExportedLaunchers && FD->isExternallyVisible() &&
          !FD->isMain())
        continue;
      report(Call, Origin, R, Cfg, SM, Ctx.getLangOpts());
    }
  }
}

/// The statement that holds \p E when it stands alone in a block.
static const Stmt *enclosingStatement(const Expr *E, const ParentMap &PM) {
  const Stmt *Cur = E;
  while (const Stmt *P = PM.getParent(Cur)) {
    if (isa<ExprWithCleanups, ParenExpr>(P)) {
      Cur = P;
      continue;
    }
    return isa<CompoundStmt>(P) ? Cur : nullptr;
  }
  return nullptr;
}

void UncheckedKernelLaunchCheck::report(const CallExpr *Site,
                                        const CallExpr *Origin,
                                        const SiteResult &R,
                                        const FunctionCfg &Cfg,
                                        const SourceManager &SM,
                                        const LangOptions &LO) {
  const FunctionDecl *Kernel = CudaApiModel::launchedKernel(Origin);
  // A launch in a lambda that this function calls (an AT_DISPATCH_* case,
  // a `[&] { ... }` helper) is a launch of this function: it is reported
  // where it is written, with a note at the lambda's call.
  const FunctionDecl *SiteCallee = Site->getDirectCallee();
  bool InLambda = Site != Origin && SiteCallee &&
                  isLambdaCallOperator(SiteCallee) &&
                  isa<CUDAKernelCallExpr>(Origin);
  SourceLocation Loc =
      reportOnce((InLambda ? Origin : Site)->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return;
  // In a PyTorch extension, torch's own check is the one to add.
  bool TorchCheck = isMacroDefinedAt("C10_CUDA_KERNEL_LAUNCH_CHECK", Loc);

  if (InLambda) {
    diag(Loc, "launch of kernel %0 is not checked for errors on every "
              "path%select{|; add C10_CUDA_KERNEL_LAUNCH_CHECK() after it}1")
        << Kernel->getDeclName() << TorchCheck;
    diag(userVisibleLocation(Site->getBeginLoc(), SM),
         "the lambda that launches it is called here",
         DiagnosticIDs::Note);
  } else if (Site == Origin) {
    bool MissingMacro = false;
    {
      auto D = Kernel ? diag(Loc, "launch of kernel %0 is not checked for "
                                  "errors on every path%select{|; add "
                                  "C10_CUDA_KERNEL_LAUNCH_CHECK() after it}1")
                            << Kernel->getDeclName() << TorchCheck
                      : diag(Loc, "kernel launch by %0 is not checked for "
                                  "errors on every path%select{|; add "
                                  "C10_CUDA_KERNEL_LAUNCH_CHECK() after it}1")
                            << Site->getDirectCallee()->getDeclName()
                            << TorchCheck;
      const Stmt *Statement = enclosingStatement(Site, Cfg.parents());
      if (!ErrorCheckMacro.empty() && Statement &&
          isa<CUDAKernelCallExpr>(Site) && !Loc.isMacroID() &&
          !Statement->getEndLoc().isMacroID()) {
        SourceLocation AfterSemi = Lexer::findLocationAfterToken(
            Statement->getEndLoc(), tok::semi, SM, LO,
            /*SkipTrailingWhitespaceAndNewLine=*/false);
        MissingMacro =
            AfterSemi.isValid() && !isMacroDefinedAt(ErrorCheckMacro, Loc);
        if (AfterSemi.isValid() && !MissingMacro) {
          unsigned Column = SM.getSpellingColumnNumber(Loc);
          std::string Indent(Column > 0 ? Column - 1 : 0, ' ');
          D << FixItHint::CreateInsertion(
              AfterSemi,
              "\n" + Indent + ErrorCheckMacro + "(cudaGetLastError());");
        }
      }
    }
    // A fix with an undefined macro would not compile.
    if (MissingMacro)
      diag(Loc, "no fix-it: macro '%0' (ErrorCheckMacro) is not defined here",
           DiagnosticIDs::Note)
          << ErrorCheckMacro;
  } else {
    const FunctionDecl *Callee = Site->getDirectCallee();
    if (Kernel)
      diag(Loc, "call to %0 launches kernel %1 whose error is not checked "
                "on every path%select{|; add C10_CUDA_KERNEL_LAUNCH_CHECK() "
                "after it}2")
          << Callee->getDeclName() << Kernel->getDeclName() << TorchCheck;
    else
      diag(Loc, "call to %0 launches a kernel whose error is not checked on "
                "every path%select{|; add C10_CUDA_KERNEL_LAUNCH_CHECK() "
                "after it}1")
          << Callee->getDeclName() << TorchCheck;
    diag(Origin->getBeginLoc(), "kernel launched here", DiagnosticIDs::Note);
  }

  SourceLocation ExitLoc;
  if (R.ExitStmt && isa<ReturnStmt>(R.ExitStmt))
    ExitLoc = R.ExitStmt->getBeginLoc();
  else if (const Stmt *Body = Cfg.function()->getBody())
    ExitLoc = Body->getEndLoc();
  if (ExitLoc.isValid())
    diag(ExitLoc,
         "the launch error is not examined on the path that leaves here",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::cuda
