//===- DeviceMemoryLeakCheck.cpp ------------------------------------------===//

#include "DeviceMemoryLeakCheck.h"
#include "CudaApiModel.h"
#include "LibraryObjects.h"
#include "SourceLocations.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

DeviceMemoryLeakCheck::DeviceMemoryLeakCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : CudaFunctionCheck(Name, Context,
                        {FunctionScope::All, CheckLanguages::CudaOrCxx,
                         /*NeedsWholeBody=*/true,
                         /*AnalysesTemplatePatterns=*/true,
                         /*ReadsCodeWithErrors=*/true}),
      IgnoreMainExit(Options.get("IgnoreMainExit", false)),
      RawCheckedResources(Options.get("CheckedResources", "Streams;Events;LibraryHandles")) {
  for (StringRef Item : utils::options::parseStringList(RawCheckedResources)) {
    Item = Item.trim();
    // The handles of the CUDA libraries: cuBLAS, cuSPARSE (and its
    // descriptors and info objects), cuFFT plans, cuRAND generators,
    // cuSOLVER (and its parameter and info objects), NVRTC programs.
    if (Item == "LibraryHandles") {
      CheckedResources.append(
          {ResourceKind::BlasHandle, ResourceKind::SparseHandle,
           ResourceKind::SparseDescriptor, ResourceKind::FftPlan,
           ResourceKind::RandGenerator});
      continue;
    }
    std::optional<ResourceKind> K =
        llvm::StringSwitch<std::optional<ResourceKind>>(Item)
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
                        "Arrays, TextureObjects, SurfaceObjects or "
                        "LibraryHandles")
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

  if (!IgnoreMainExit)
    for (const StorageLeak &L : Tracker->unreleasedStorageIn(&FD))
      reportStorage(L, SM);

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
    const FunctionDecl *Allocator = CudaApiModel::calleeOf(A.Site);
    bool IsResource = A.Kind.Resource.has_value();
    diag(Loc, "%0 allocated into %1 by %2 is not %select{freed|destroyed}3 "
              "on every path")
        << describeAllocation(A.Kind, A.Site) << A.Var
        << Allocator->getDeclName()
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

void DeviceMemoryLeakCheck::reportStorage(const StorageLeak &L,
                                          const SourceManager &SM) {
  SourceLocation Loc = reportOnce(L.Site->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return;
  bool IsResource = L.Kind.Resource.has_value();
  bool IsMember = isa<FieldDecl>(L.Storage);
  diag(Loc, "%0 allocated into %select{file-scope variable|member}1 %2 by "
            "%3 is never %select{freed|destroyed}4")
      << describeAllocation(L.Kind, L.Site) << IsMember << L.Storage
      << CudaApiModel::calleeOf(L.Site)->getDeclName() << IsResource;
  if (IsMember)
    diag(L.Storage->getLocation(),
         "no destructor or method of %0 %select{frees|destroys}1 %2",
         DiagnosticIDs::Note)
        << cast<RecordDecl>(L.Storage->getDeclContext()) << IsResource
        << L.Storage;
  else
    diag(L.Storage->getLocation(),
         "%0 is declared here; no function of this translation unit "
         "%select{frees|destroys}1 it",
         DiagnosticIDs::Note)
        << L.Storage << IsResource;
}

} // namespace clang::tidy::cuda
