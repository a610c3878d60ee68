//===- MissingHostSyncCheck.cpp -------------------------------------------===//

#include "MissingHostSyncCheck.h"
#include "AsyncWorkAnalysis.h"
#include "MemoryCheckSupport.h"
#include "SourceLocations.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void MissingHostSyncCheck::checkFunction(const FunctionDecl &FD,
                                         const FunctionCfg &,
                                         ASTContext &Ctx) {
  // nvcc --default-stream per-thread defines this macro.
  Preprocessor *PP = preprocessor();
  bool PerThread =
      PP && PP->isMacroDefined("CUDA_API_PER_THREAD_DEFAULT_STREAM");
  for (const SyncHazard &H : AsyncWorkAnalysis::get(Ctx, arch())
                                 .hazardsIn(&FD, PerThread,
                                            ReportPageableAsyncCopies))
    report(H, Ctx);
}

void MissingHostSyncCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportPageableAsyncCopies", ReportPageableAsyncCopies);
}

namespace {
std::string workName(const SyncHazard &H) {
  switch (H.Work_) {
  case WorkKind::Kernel:
    return H.Kernel && H.Kernel->getIdentifier()
               ? "kernel '" + H.Kernel->getName().str() + "'"
               : "kernel";
  case WorkKind::Copy:
    return "asynchronous copy";
  case WorkKind::Memset:
    return "asynchronous memset";
  case WorkKind::EventRecord:
    return "event record";
  }
  return "device work";
}

std::string streamName(const SyncHazard &H, const ASTContext &Ctx) {
  if (H.StreamExpr) {
    std::string T = sourceText(H.StreamExpr, Ctx);
    if (!T.empty() && T.size() <= 40 && T.find('\n') == std::string::npos)
      return "stream '" + T + "'";
  }
  switch (H.Stream.K) {
  case StreamRef::Legacy:
    return "the default stream";
  case StreamRef::PerThread:
    return "the per-thread default stream";
  default:
    return "its stream";
  }
}
} // namespace

void MissingHostSyncCheck::report(const SyncHazard &H, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportOnce(H.At->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return;
  std::string Name = H.Named ? pointerName(H.Named, Ctx) : "the memory";
  std::string Work = workName(H);
  switch (H.K) {
  case SyncHazard::ReadWhileWritten:
    if (H.Pageable)
      diag(Loc, "%0 is read on the host before the %1 into it is known to "
                "finish; it works only while %0 is pageable memory, for "
                "which the copy returns when done")
          << Name << Work;
    else
      diag(Loc, "%0 is read on the host before the %1 that writes it is "
                "synchronized")
          << Name << Work;
    break;
  case SyncHazard::WrittenWhileUsed:
    diag(Loc, "%0 is written on the host while the %1 that uses it may "
              "still be running")
        << Name << Work;
    break;
  case SyncHazard::FreedWhileUsed:
    diag(Loc, "%0 is freed while the %1 that uses it may still be running")
        << Name << Work;
    break;
  case SyncHazard::FreedOnOtherStream:
    diag(Loc, "%0 is freed on a stream that is not ordered after the %1 "
              "that uses it")
        << Name << Work;
    break;
  case SyncHazard::ElapsedBeforeSync:
    diag(Loc, "'cudaEventElapsedTime' reads event %0 before it is "
              "synchronized")
        << Name;
    break;
  }
  if (H.CalleeUse && H.CalleeUseIn)
    diag(userVisibleLocation(H.CalleeUse->getBeginLoc(), SM),
         "%0 is %select{read|written}1 in '%2' here", DiagnosticIDs::Note)
        << Name << (H.K == SyncHazard::ReadWhileWritten ? 0 : 1)
        << H.CalleeUseIn->getNameAsString();
  std::string Stream = streamName(H, Ctx);
  SourceLocation WorkLoc = userVisibleLocation(H.Work->getBeginLoc(), SM);
  if (H.K == SyncHazard::ElapsedBeforeSync)
    diag(WorkLoc, "%0 recorded here on %1; wait for it with "
                  "cudaEventSynchronize",
         DiagnosticIDs::Note)
        << Name << Stream;
  else if (H.Via)
    diag(WorkLoc, "%0 queued by this call to %1 on %2, which returns before "
                  "it completes",
         DiagnosticIDs::Note)
        << Work << H.Via << Stream;
  else
    diag(WorkLoc, "%0 queued here on %1", DiagnosticIDs::Note)
        << Work << Stream;
}

} // namespace clang::tidy::cuda
