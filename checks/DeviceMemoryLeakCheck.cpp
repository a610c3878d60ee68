//===- DeviceMemoryLeakCheck.cpp ------------------------------------------===//

#include "DeviceMemoryLeakCheck.h"
#include "SourceLocations.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

DeviceMemoryLeakCheck::DeviceMemoryLeakCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : CudaFunctionCheck(Name, Context,
                        {FunctionScope::All, CheckLanguages::CudaOrCxx}),
      IgnoreMainExit(Options.get("IgnoreMainExit", false)),
      RawCheckedResources(Options.get("CheckedResources", "Streams;Events")) {
  for (StringRef Item : utils::options::parseStringList(RawCheckedResources)) {
    std::optional<ResourceKind> K =
        llvm::StringSwitch<std::optional<ResourceKind>>(Item.trim())
            .Case("Streams", ResourceKind::Stream)
            .Case("Events", ResourceKind::Event)
            .Case("Graphs", ResourceKind::Graph)
            .Case("GraphExecs", ResourceKind::GraphExec)
            .Case("Arrays", ResourceKind::Array)
            .Case("TextureObjects", ResourceKind::TextureObject)
            .Case("SurfaceObjects", ResourceKind::SurfaceObject)
            .Default(std::nullopt);
    if (K)
      CheckedResources.push_back(*K);
    else
      configurationDiag("%0: unknown resource '%1' in CheckedResources; "
                        "expected Streams, Events, Graphs, GraphExecs, "
                        "Arrays, TextureObjects or SurfaceObjects")
          << Name << Item;
  }
}

void DeviceMemoryLeakCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "IgnoreMainExit", IgnoreMainExit);
  Options.store(Opts, "CheckedResources", RawCheckedResources);
}

void DeviceMemoryLeakCheck::checkFunction(const FunctionDecl &FD,
                                          const FunctionCfg &Cfg,
                                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Tracker)
    Tracker =
        std::make_unique<AllocationTracker>(Ctx, arch(), CheckedResources);

  for (const TrackedAllocation &A : Tracker->allocationsIn(Cfg)) {
    std::optional<AllocationLoss> Loss = Tracker->findLoss(A, Cfg);
    if (!Loss)
      continue;
    if (IgnoreMainExit && FD.isMain() &&
        Loss->How == AllocationLoss::StillLiveAtExit)
      continue;
    SourceLocation Loc = reportOnce(A.Site->getBeginLoc(), SM);
    if (Loc.isInvalid())
      continue;
    const FunctionDecl *Allocator = A.Site->getDirectCallee();
    bool IsResource = A.Kind.Resource.has_value();
    diag(Loc, "%0 allocated into %1 by %2 is not %select{freed|destroyed}3 "
              "on every path")
        << A.Kind.describe() << A.Var << Allocator->getDeclName()
        << IsResource;
    switch (Loss->How) {
    case AllocationLoss::StillLiveAtExit: {
      SourceLocation At = Loss->Where ? Loss->Where->getBeginLoc()
                                      : FD.getBody()->getEndLoc();
      diag(At, "%0 still holds it when the function returns here",
           DiagnosticIDs::Note)
          << Loss->Holder;
      break;
    }
    case AllocationLoss::Overwritten:
      diag(Loss->Where->getBeginLoc(),
           "%0 is overwritten here while it holds the only reference",
           DiagnosticIDs::Note)
          << Loss->Holder;
      break;
    case AllocationLoss::Redeclared:
      diag(Loss->Where->getBeginLoc(),
           "%0 is declared again here, losing the previous iteration's "
           "allocation",
           DiagnosticIDs::Note)
          << Loss->Holder;
      break;
    }
  }
}

} // namespace clang::tidy::cuda
