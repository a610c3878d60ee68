//===- MissingSyncthreadsCheck.cpp ----------------------------------------===//

#include "MissingSyncthreadsCheck.h"
#include "SourceLocations.h"

namespace clang::tidy::cuda {

namespace {

/// The subscript as written: 'tid + 1', or '[threadIdx.y][k]' for an
/// element of a multi-dimensional array.
std::string indexText(const Expr *At, const ASTContext &Ctx) {
  const auto *AS = cast<ArraySubscriptExpr>(At);
  if (!isa<ArraySubscriptExpr>(ThreadIndexAnalysis::strip(AS->getBase())))
    return ThreadIndexAnalysis::textOf(AS->getIdx(), Ctx);
  std::string Text;
  for (const Expr *E = AS; const auto *Sub = dyn_cast<ArraySubscriptExpr>(E);
       E = ThreadIndexAnalysis::strip(Sub->getBase()))
    Text = "[" + ThreadIndexAnalysis::textOf(Sub->getIdx(), Ctx) + "]" + Text;
  return Text;
}

} // namespace

void MissingSyncthreadsCheck::report(const SharedMemoryRaces::Race &R,
                                     ASTContext &Ctx) {
  const SharedMemoryRaces::Access &First = R.First, &Second = R.Second;
  const SourceManager &SM = Ctx.getSourceManager();
  if (R.WriteWrite) {
    std::string Element =
        First.Scalar ? "" : " at '" + indexText(First.At, Ctx) + "'";
    bool Update = First.Read;
    if (R.Unread) {
      diag(userVisibleLocation(First.At->getBeginLoc(), SM),
           "threads store different values into shared '%0'%1 with no "
           "barrier between the stores: which one the element keeps is "
           "unspecified")
          << First.Array->getName() << Element;
      return;
    }
    diag(userVisibleLocation(First.At->getBeginLoc(), SM),
         "%select{threads store different values into|every thread updates}0 "
         "shared '%1'%2 with no barrier between %select{the stores|the "
         "updates}0: %select{which one a later read sees is unspecified|"
         "updates are lost}0")
        << Update << First.Array->getName() << Element;
    if (R.OtherStore)
      diag(userVisibleLocation(R.OtherStore->At->getBeginLoc(), SM),
           "other threads store into it here", DiagnosticIDs::Note);
    diag(userVisibleLocation(Second.At->getBeginLoc(), SM),
         "the element is read here", DiagnosticIDs::Note);
    return;
  }
  bool RAW = First.Write && Second.Read;
  std::string Element =
      Second.Scalar ? "" : " at '" + indexText(Second.At, Ctx) + "'";
  // Which note names the first access: written, read, or updated atomically.
  int FirstKind;
  if (First.Atomic || Second.Atomic) {
    // An atomic update against a plain read or write of its element by
    // another thread.
    if (Second.Atomic)
      diag(userVisibleLocation(Second.At->getBeginLoc(), SM),
           "atomic update of shared '%0'%1 may %select{run before the store "
           "of another thread|change the value another thread reads}2: no "
           "barrier between them on this path")
          << Second.Array->getName() << Element << (First.Write ? 0 : 1);
    else
      diag(userVisibleLocation(Second.At->getBeginLoc(), SM),
           "%select{read of|write to}0 shared '%1'%2 may %select{miss|race "
           "with}0 the atomic updates of other threads: no barrier between "
           "them on this path")
          << (Second.Write ? 1 : 0) << Second.Array->getName() << Element;
    FirstKind = First.Atomic ? 2 : First.Write ? 0 : 1;
  } else {
    if (R.InWarp)
      diag(userVisibleLocation(Second.At->getBeginLoc(), SM),
           "%select{read of|write to}0 shared '%1'%2 may %select{see the "
           "write of another lane|overwrite the value another lane reads}0: "
           "the lanes of a warp do not run in lockstep, and no __syncwarp() "
           "or barrier orders them on this path")
          << (RAW ? 0 : 1) << Second.Array->getName() << Element;
    else
      diag(userVisibleLocation(Second.At->getBeginLoc(), SM),
           "%select{read of|write to}0 shared '%1'%2 may %select{see the "
           "write of another thread|overwrite the value another thread "
           "reads}0: no barrier between them on this path")
          << (RAW ? 0 : 1) << Second.Array->getName() << Element;
    FirstKind = RAW ? 0 : 1;
  }
  if (const CallExpr *Call = Second.call())
    diag(userVisibleLocation(Call->getBeginLoc(), SM),
         "in the call of '%0' here", DiagnosticIDs::Note)
        << Call->getDirectCallee()->getNameAsString();
  std::string FirstElement =
      First.Scalar ? "" : " at '" + indexText(First.At, Ctx) + "'";
  diag(userVisibleLocation(First.At->getBeginLoc(), SM),
       "%select{written|read|updated atomically}0 here%1",
       DiagnosticIDs::Note)
      << FirstKind << FirstElement;
  if (const CallExpr *Call = First.call(); Call && Call != Second.call())
    diag(userVisibleLocation(Call->getBeginLoc(), SM),
         "in the call of '%0' here", DiagnosticIDs::Note)
        << Call->getDirectCallee()->getNameAsString();
}

void MissingSyncthreadsCheck::checkFunction(const FunctionDecl &FD,
                                            const FunctionCfg &Cfg,
                                            ASTContext &Ctx) {
  // A __device__ function is analysed with the kernels that call it; one
  // that no function of this file calls, as if a whole block called it.
  if (!FD.hasAttr<CUDAGlobalAttr>()) {
    TranslationUnitAnalyses &TUA = TranslationUnitAnalyses::get(Ctx);
    if (!FD.hasAttr<CUDADeviceAttr>() || FD.hasAttr<CUDAHostAttr>() ||
        TUA.hasKnownCallers(&FD) || TUA.isAddressTaken(&FD))
      return;
  }
  if (!Races)
    Races.emplace();
  for (const SharedMemoryRaces::Race &R : Races->racesIn(FD, Cfg, Ctx))
    report(R, Ctx);
}

} // namespace clang::tidy::cuda
