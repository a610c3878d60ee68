//===- GlobalMemoryRaceCheck.cpp ------------------------------------------===//

#include "GlobalMemoryRaceCheck.h"
#include "SourceLocations.h"

namespace clang::tidy::cuda {

void GlobalMemoryRaceCheck::checkFunction(const FunctionDecl &FD,
                                          const FunctionCfg &Cfg,
                                          ASTContext &Ctx) {
  if (!Races)
    Races.emplace(threadIndex(Ctx));
  const SourceManager &SM = Ctx.getSourceManager();
  for (const LostUpdate &U : Races->lostUpdatesIn(FD, Cfg)) {
    SourceLocation Loc = reportOnce(U.Target->getBeginLoc(), SM);
    if (Loc.isInvalid())
      continue;
    std::string Element =
        U.Index ? " at '" + ThreadIndexAnalysis::textOf(U.Index, Ctx) + "'"
                : "";
    if (U.How == LostUpdate::WriteWrite) {
      diag(Loc, "threads of %select{the grid|each block}0 store different "
                "values to global '%1'%2: a write-write race, the element "
                "keeps whichever thread's store lands last")
          << (U.Shared == LostUpdate::Block) << U.Base->getName() << Element;
      diag(Loc,
           "store from one thread (for example under 'if (threadIdx.x == "
           "0)' after the block's values are combined), or give each "
           "thread its own element",
           DiagnosticIDs::Note);
      continue;
    }
    std::string Fix = *U.Atomic ? std::string("use ") + U.Atomic
                                : std::string("use an atomic");
    diag(Loc, "%select{every thread of the grid updates|the threads of each "
              "block update|threads whose index read from memory is the same "
              "update}0 global '%1'%2 with a plain %select{read-modify-write|"
              "read-modify-write|compare and store}3: concurrent updates are "
              "lost (%4)")
        << U.Shared << U.Base->getName() << Element << U.How << Fix;
    if (U.OldRead && U.OldRead->getBeginLoc() != U.Target->getBeginLoc())
      diag(userVisibleLocation(U.OldRead->getBeginLoc(), SM),
           "the old value is read here", DiagnosticIDs::Note);
  }
  for (const LastBlockHazard &H : Races->lastBlockHazardsIn(FD, Cfg)) {
    SourceLocation Loc = reportOnce(H.Ticket->getBeginLoc(), SM);
    if (Loc.isInvalid())
      continue;
    std::string Atomic = H.Ticket->getDirectCallee()->getName().str();
    if (H.What == LastBlockHazard::NoReset) {
      diag(Loc, "'%0' takes the block's ticket from global counter '%1', "
                "which nothing resets: the next launch starts counting where "
                "this one ended, and no block draws the last ticket")
          << Atomic << H.Base->getName();
      diag(userVisibleLocation(H.Read->getBeginLoc(), SM),
           "the block that draws the last ticket runs here; reset '%0' to 0 "
           "in its branch, or take the ticket with 'atomicInc(&%0, "
           "gridDim.x - 1)', which wraps to 0",
           DiagnosticIDs::Note)
          << H.Base->getName();
      continue;
    }
    if (H.What == LastBlockHazard::NoFence)
      diag(Loc, "'%0' takes the block's ticket with no __threadfence() after "
                "the store of its partial result to global '%1': the last "
                "block may read a stale partial")
          << Atomic << H.Base->getName();
    else
      diag(Loc, "'%0' takes the block's ticket on a path with no "
                "__syncthreads() after the other threads store their parts of "
                "global '%1': the last block may read parts not yet stored")
          << Atomic << H.Base->getName();
    diag(userVisibleLocation(H.Store->getBeginLoc(), SM),
         H.What == LastBlockHazard::NoFence
             ? "the partial result is stored here; call __threadfence() "
               "between this store and the ticket"
             : "the threads store here; call __syncthreads() between these "
               "stores and the ticket",
         DiagnosticIDs::Note);
    diag(userVisibleLocation(H.Read->getBeginLoc(), SM),
         "the last block reads the partials here", DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::cuda
