//===- MemorySpaceInternal.h - Shared by the memory-space files -*- C++ -*-===//
//
// Declarations shared by the files of the memory-space analysis and by no
// one else (the checks include MemorySpaceAnalysis.h):
//   MemorySpaceFacts.cpp      the facts, their lattice, variable spaces
//   MemorySpaceValues.cpp     locations and values of expressions
//   MemorySpaceTransfer.cpp   the transfer functions of statements and calls
//   MemorySpaceSolver.cpp     body facts, the fixpoint, results per point
//   MemorySpaceSummaries.cpp  the translation unit: context and summaries
//   MemorySpaceStorage.cpp    storage that outlives a function
//   MemorySpaceQueries.cpp    byte counts shown, symbolic sizes
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MEMORYSPACEINTERNAL_H
#define CUDA_TIDY_MEMORYSPACEINTERNAL_H

#include "MemorySpaceAnalysis.h"

namespace clang::tidy::cuda {

/// A `__device__` or `__constant__` variable (not `__managed__`).
bool isDeviceVariable(const VarDecl *VD);
/// A `__managed__` variable.
bool isManagedVariable(const VarDecl *VD);
/// Whether \p T (a parameter's type) lets a callee write to what the
/// argument refers to.
bool isOutParamType(QualType T);
/// The member (through `this`) or file-scope pointer variable that the
/// lvalue \p E names, or null.
const ValueDecl *outlivingStorage(const Expr *E);

/// The analysis of one function: its transfer functions and evaluation of
/// expressions (MemorySpaceValues.cpp, MemorySpaceTransfer.cpp) and its
/// fixpoint (MemorySpaceSolver.cpp).
class FunctionAnalyzer {
public:
  FunctionAnalyzer(MemorySpaceAnalysis &MSA, FunctionMemorySpaces &R)
      : MSA(MSA), R(R), FD(R.function()), Ctx(MSA.context()) {}

  void prescan();
  void solve(const MemoryState &Entry);
  /// Whether the edge \p From -> \p To agrees with the constants the
  /// callers pass (R.ConstantParams).
  bool feasible(const CFGBlock *From, const CFGBlock *To) const;

  void transfer(const Stmt *S, MemoryState &St) const;
  PointerFact eval(const Expr *E, const MemoryState &St) const;
  std::optional<LocKey> locOf(const Expr *E) const;

private:
  PointerFact read(const LocKey &K, const MemoryState &St) const;
  void write(const LocKey &K, const PointerFact &F, MemoryState &St,
             bool Weak = false) const;
  void clobber(const LocKey &Prefix, bool IncludeSelf, MemoryState &St) const;
  void transferCall(const CallExpr *Call, MemoryState &St) const;
  // What a call of the API model does to pointers, one handler per kind of
  // fact (ApiTransfers says which applies).
  void transferAllocation(const CallExpr *Call, const ApiFunction &Api,
                          MemoryState &St) const;
  void transferFree(const CallExpr *Call, const ApiFunction &Api,
                    MemoryState &St) const;
  void transferDestroy(const CallExpr *Call, const ApiFunction &Api,
                       MemoryState &St) const;
  void transferHostRegister(const CallExpr *Call, const ApiFunction &Api,
                            MemoryState &St) const;
  void transferMapHost(const CallExpr *Call, const ApiFunction &Api,
                       MemoryState &St) const;
  struct ApiTransfer {
    bool (*Applies)(const ApiFunction &);
    /// Null: the call changes no pointer.
    void (FunctionAnalyzer::*Apply)(const CallExpr *, const ApiFunction &,
                                    MemoryState &) const;
  };
  static const ApiTransfer ApiTransfers[];
  /// A call the model does not describe, or an API call that may store
  /// through any pointer it is given (\p Modelled).
  void transferOtherCall(const CallExpr *Call, bool Modelled,
                         MemoryState &St) const;
  /// What same-TU callee \p Sum leaves under its parameter \p DefP, to
  /// which \p Call passes \p Arg.
  void applyParamSummary(const CallExpr *Call, const FunctionMemorySpaces &Sum,
                         const ParmVarDecl *DefP, const Expr *Arg,
                         MemoryState &St) const;
  /// An unknown callee may write through any pointer or reference to a
  /// tracked location: \p Arg, passed as parameter \p P (null when unknown).
  void clobberThroughArgument(const Expr *Arg, const ParmVarDecl *P,
                              MemoryState &St) const;
  /// Where a call stores through the out-parameter argument \p A.
  std::optional<LocKey> outLoc(const Expr *A) const;
  /// The pointer at \p Ptr moves inside its allocation (`p += k`, `++p`).
  void markOffset(const Expr *Ptr, MemoryState &St) const;
  void freeThrough(const Expr *Ptr, const Stmt *At, MemoryState &St) const;
  void copyRecord(const LocKey &To, const Expr *From, MemoryState &St) const;
  PointerFact allocation(const CallExpr *Call, const ApiFunction &Api,
                         const MemoryState &St) const;
  PointerFact evalArrayObject(const Expr *E) const;
  PointerFact evalContainerData(const Expr *Object) const;
  PointerFact evalAddressOf(const Expr *Sub, const MemoryState &St) const;
  PointerFact evalCast(const CastExpr *CE, const MemoryState &St) const;
  PointerFact evalNew(const CXXNewExpr *New) const;
  PointerFact evalCall(const CallExpr *Call, const MemoryState &St) const;
  bool isWeak(const LocKey &K) const;

  MemorySpaceAnalysis &MSA;
  FunctionMemorySpaces &R;
  const FunctionDecl *FD;
  ASTContext &Ctx;
};

/// Where a callee's parameter and the caller's argument refer to the same
/// memory: keys under CallerBase in the caller are keys under CalleeBase in
/// the callee.
struct Referent {
  LocKey CallerBase, CalleeBase;
  bool OutOnly = false; ///< By-value records: copied in, never out.
};

/// How \p Arg, passed as \p P, refers to the caller's memory.
std::optional<Referent> referentOf(const ParmVarDecl *P, const Expr *Arg,
                                   const FunctionAnalyzer &Caller);

} // namespace clang::tidy::cuda

#endif
