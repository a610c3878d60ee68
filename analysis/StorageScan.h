//===- StorageScan.h - Whole-unit scans of outliving storage ----*- C++ -*-===//
//
// Storage that outlives a function: file-scope pointer variables and pointer
// members of classes. Two analyses read what the whole translation unit does
// with it, each through this frame:
//   - MemorySpaceAnalysis (MemorySpaceStorage.cpp, SpaceScan): the space a
//     storage holds when every store into it agrees, and the sized
//     allocations stored into it;
//   - AllocationTracker (AllocationTracking.cpp, LeakScan): the allocations
//     stored into a storage that nothing releases.
// The frame replays the translation unit's recorded walk
// (TranslationUnitScan) without template instantiations, keeps the
// function the walk is in (Current), counts where each storage's address is
// taken against the places its consumer modelled, and says which storages
// the translation unit shows whole (declared only in the main file; a
// class all of whose methods are defined here).
//
// The two consumers replay different records: the space scan reads implicit
// code (an implicit copy constructor stores into every member), the leak
// scan only what is written (an implicit copy is no escape). The records
// differ in more than extra nodes (a range-for's parts come in another
// order, a default argument's calls once per use), so one replay cannot
// serve both with the same results; each record is made once per
// translation unit and each consumer's result once per analysis.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_STORAGESCAN_H
#define CUDA_TIDY_STORAGESCAN_H

#include "FunctionCfg.h"
#include "TranslationUnitScan.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::cuda {

/// Whether every declaration of \p VD is in the main file.
bool declaredOnlyInMainFile(const VarDecl *VD, const SourceManager &SM);
/// Whether every method of \p RD is defined in this translation unit (or
/// needs no definition: implicit, defaulted, deleted, pure virtual).
bool methodsAllDefinedHere(const CXXRecordDecl *RD);

/// The frame of a whole-unit scan of outliving storage. \p Derived defines
/// the Visit* methods of ScanVisitor it needs.
template <typename Derived> class StorageScan : public ScanVisitor<Derived> {
public:
  /// Replays the translation unit's walk, with implicit code when
  /// \p ImplicitCode is set, without template instantiations.
  void scanUnit(bool ImplicitCode) {
    this->replay(
        TranslationUnitAnalyses::get(Ctx).scan().nodes(ImplicitCode),
        /*Instantiations=*/false);
  }

protected:
  explicit StorageScan(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  /// `&S` appears in the unit.
  void addressTaken(const ValueDecl *S) { ++AddrTaken[S]; }
  /// One `&S` is an argument the consumer modelled (an allocation into it).
  void addressHandled(const ValueDecl *S) { ++HandledAddr[S]; }
  /// Whether `&S` appears somewhere the consumer did not model.
  bool addressEscapes(const ValueDecl *S) const {
    return AddrTaken.lookup(S) > HandledAddr.lookup(S);
  }

  ASTContext &Ctx;
  const SourceManager &SM;

private:
  llvm::DenseMap<const ValueDecl *, unsigned> AddrTaken, HandledAddr;
};

} // namespace clang::tidy::cuda

#endif
