//===- AsyncWorkQueries.cpp - What the checks ask -------------------------===//
//
// The entry points of cuda-missing-host-sync and cuda-unsynchronized-exit:
// which host functions are analysed, the facts of one function solved once
// for both checks, and the work still pending where the program ends.
//
//===----------------------------------------------------------------------===//

#include "AsyncWorkInternal.h"
#include "TranslationUnitScan.h"

namespace clang::tidy::cuda {

AsyncWorkAnalysis &AsyncWorkAnalysis::get(ASTContext &Ctx,
                                          const ArchConditionals &Arch) {
  return TranslationUnitAnalyses::get(Ctx).asyncWork(Arch);
}

namespace async_work {

/// Whether the function of \p Cfg queues device work whose use of memory
/// could be reported: any work, when host-visible memory exists in the
/// translation unit; otherwise only work on device memory freed in stream
/// order, or an event whose time is read.
bool worthAnalysing(const FunctionCfg &Cfg, AsyncWorkAnalysis &A,
                    bool HostVisibleMemory) {
  bool Queues = false, Reportable = HostVisibleMemory;
  auto IsAsyncCopy = [](const ApiFunction *Api) {
    return Api->Copy && Api->Copy->isAsync() && !Api->Copy->isSet();
  };
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &E : *B) {
      const auto *C = dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(E));
      if (!C)
        continue;
      if (!Queues && (isQueuingCall(C) || A.queuesWork(C->getDirectCallee())))
        Queues = true;
      if (!Reportable)
        if (const ApiFunction *Api = CudaApiModel::lookup(C))
          Reportable = (Api->Free && Api->Free->StreamArg >= 0) ||
                       (Api->Event && Api->Event->Role == EventRole::Elapsed) ||
                       Api->DirectReadArg >= 0 || Api->DirectWriteArg >= 0 ||
                       (A.pageableCopies() && IsAsyncCopy(Api));
      if (Queues && Reportable)
        return true;
    }
  return false;
}

/// Whether the program ends after the last statement of \p B (of \p FD)
/// with status 0; sets \p Exit to that statement.
static bool endsProgramWithSuccess(const CFGBlock *B, const FunctionDecl *FD,
                                   ASTContext &Ctx, const Stmt *&Exit) {
  const Stmt *Last = nullptr;
  for (const CFGElement &E : *B)
    if (const Stmt *S = FunctionCfg::stmtOf(E))
      if (isa<ReturnStmt>(S) || isa<CallExpr>(S))
        Last = S;
  // A status that is not the constant 0 may report a failure (error
  // macros exit with the error code).
  auto FailingStatus = [&](const Expr *Status) {
    Expr::EvalResult R;
    return Status && (Status->isValueDependent() ||
                      !Status->EvaluateAsInt(R, Ctx) ||
                      !R.Val.getInt().isZero());
  };
  if (const auto *C = dyn_cast_or_null<CallExpr>(Last)) {
    const FunctionDecl *Callee = C->getDirectCallee();
    const ApiFunction *Api = CudaApiModel::lookup(Callee);
    if (Api && Api->endsProgram()) {
      Exit = C;
      return !FailingStatus(CudaApiModel::argument(C, Api->ExitStatusArg));
    }
    if (Callee && Callee->isNoReturn())
      return false; // abort() and error handlers.
  }
  if (!FD->isMain())
    return false;
  const auto *Ret = dyn_cast_or_null<ReturnStmt>(Last);
  Exit = Ret;
  return !(Ret && FailingStatus(Ret->getRetValue()));
}

bool FunctionAsyncWork::endsProgramCleanly(const CFGBlock *B,
                                           const Stmt *&Exit) const {
  return endsProgramWithSuccess(B, Cfg.function(), Ctx, Exit);
}

std::vector<UnfinishedAtExit> FunctionAsyncWork::atProgramExits() {
  std::vector<UnfinishedAtExit> Result;
  const CFGBlock &ExitBlock = Cfg.graph().getExit();
  for (const CFGBlock::AdjacentBlock &P : ExitBlock.preds()) {
    const CFGBlock *B = P.getReachableBlock();
    const Stmt *Exit = nullptr;
    if (!B || !endsProgramCleanly(B, Exit))
      continue;
    WorkState Out;
    for (const WorkState &S : In[B->getBlockID()].States)
      Out.join(processBlock(B, S, false));
    for (const auto &[Site, Ordered] : Out.Pending) {
      const WorkInfo &W = Works.at(Site);
      if (W.Kind == WorkKind::EventRecord)
        continue;
      UnfinishedAtExit U;
      U.Exit = Exit;
      U.Work = Site;
      U.Kind = W.Kind;
      U.Kernel = W.Kernel;
      U.Via = W.Via;
      U.StreamExpr = W.StreamExpr;
      U.Stream = Streams[W.Stream];
      Result.push_back(U);
    }
  }
  return Result;
}

} // namespace async_work

using namespace async_work;

/// The CFG of host function \p FD when it is one the two checks analyse;
/// null otherwise.
static const FunctionCfg *checkedCfg(const FunctionDecl *FD, ASTContext &Ctx,
                                     const ArchConditionals &Arch) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!FD || !AsyncWorkAnalysis::isHostFunction(*FD) ||
      !isAnalysableFunction(FD, SM) || !isSeenWhole(FD, SM, Arch))
    return nullptr;
  return TranslationUnitAnalyses::get(Ctx).beginFunction(FD);
}

bool AsyncWorkAnalysis::mayExitWithWork(const FunctionDecl *FD,
                                        const FunctionCfg &Cfg) {
  if (!queuesWork(FD))
    return false;
  for (const CFGBlock::AdjacentBlock &P : Cfg.graph().getExit().preds()) {
    const Stmt *Exit = nullptr;
    if (const CFGBlock *B = P.getReachableBlock();
        B && endsProgramWithSuccess(B, FD, Ctx, Exit))
      return true;
  }
  return false;
}

const AsyncWorkAnalysis::CheckFacts &
AsyncWorkAnalysis::checkFacts(const FunctionDecl *FD, const FunctionCfg &Cfg,
                              bool PerThreadDefaultStream) {
  if (LastFacts.FD == FD && LastFacts.PerThread == PerThreadDefaultStream &&
      LastFacts.PageableCopies == PageableCopies)
    return LastFacts;
  LastFacts = CheckFacts();
  LastFacts.FD = FD;
  LastFacts.PerThread = PerThreadDefaultStream;
  LastFacts.PageableCopies = PageableCopies;
  collectTranslationUnitFacts();
  // Solve nothing for a function where neither check can report.
  bool Hazards = worthAnalysing(Cfg, *this, HostVisibleMemory);
  bool Exits = mayExitWithWork(FD, Cfg);
  if (!Hazards && !Exits)
    return LastFacts;
  const FunctionMemorySpaces *M = MemorySpaceAnalysis::get(Ctx, Arch).analyse(FD);
  if (!M)
    return LastFacts;
  PerThread = PerThreadDefaultStream;
  FunctionAsyncWork W(*this, *M, PerThreadDefaultStream);
  if (Exits)
    W.trackAllWork(/*CheckedSyncOnly=*/false);
  if (W.solve()) {
    if (Exits)
      LastFacts.Exits = W.atProgramExits();
    if (Hazards)
      LastFacts.Hazards = W.report();
  } else if (Hazards && Exits) {
    // The work of callees kept it from settling: the hazards alone may.
    FunctionAsyncWork H(*this, *M, PerThreadDefaultStream);
    if (H.solve())
      LastFacts.Hazards = H.report();
  }
  return LastFacts;
}

std::vector<SyncHazard>
AsyncWorkAnalysis::hazardsIn(const FunctionDecl *FD,
                             bool PerThreadDefaultStream,
                             bool ReportPageable) {
  PageableCopies = ReportPageable;
  const FunctionCfg *Cfg = checkedCfg(FD, Ctx, Arch);
  if (!Cfg)
    return {};
  return checkFacts(FD, *Cfg, PerThreadDefaultStream).Hazards;
}

std::vector<UnfinishedAtExit>
AsyncWorkAnalysis::unfinishedAtExit(const FunctionDecl *FD,
                                    bool PerThreadDefaultStream,
                                    bool CheckedSyncOnly) {
  const FunctionCfg *Cfg = checkedCfg(FD, Ctx, Arch);
  if (!Cfg)
    return {};
  if (!CheckedSyncOnly)
    return checkFacts(FD, *Cfg, PerThreadDefaultStream).Exits;
  // Synchronizations that count only when checked: a fixpoint of its own.
  if (!mayExitWithWork(FD, *Cfg))
    return {};
  collectTranslationUnitFacts();
  const FunctionMemorySpaces *M = MemorySpaceAnalysis::get(Ctx, Arch).analyse(FD);
  if (!M)
    return {};
  PerThread = PerThreadDefaultStream;
  FunctionAsyncWork W(*this, *M, PerThreadDefaultStream);
  W.trackAllWork(CheckedSyncOnly);
  if (!W.solve())
    return {};
  return W.atProgramExits();
}

} // namespace clang::tidy::cuda
