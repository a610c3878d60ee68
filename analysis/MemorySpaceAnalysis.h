//===- MemorySpaceAnalysis.h - Where each pointer points --------*- C++ -*-===//
//
// A flow-sensitive analysis, on the CFG of one host function, of the memory
// space (host, device, pinned, mapped, managed, symbol) that each tracked
// pointer may point to, of the allocation that produced it (call, size,
// pitch) and of whether it was freed. It is shared by the memory checks and
// runs once per function and translation unit (TranslationUnitAnalyses owns
// the cache).
//
// Tracked locations are local variables and parameters, struct fields reached
// through them, and array elements (one weak location per array). Facts come
// from the CUDA API model, from C++ allocation (new, stack arrays, host
// containers) and from summaries of functions defined in the same
// translation unit: what they return and what they store through their
// pointer and reference parameters. A function's pointer parameters start as
// the join of the arguments of every call in the translation unit, or as
// unknown when the callers cannot all be seen. Anything else is unknown, and
// checks never fire on an unknown fact.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MEMORYSPACEANALYSIS_H
#define CUDA_TIDY_MEMORYSPACEANALYSIS_H

#include "ArchConditionals.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::cuda {

/// A tracked memory location: a local variable or parameter, followed by a
/// path of field accesses and element accesses (a null step is "an element
/// of" / "what it points to").
struct LocKey {
  const ValueDecl *Root = nullptr;
  llvm::SmallVector<const FieldDecl *, 3> Path;

  bool operator<(const LocKey &O) const {
    if (Root != O.Root)
      return Root < O.Root;
    return std::lexicographical_compare(Path.begin(), Path.end(),
                                        O.Path.begin(), O.Path.end());
  }
  bool operator==(const LocKey &O) const {
    return Root == O.Root && Path == O.Path;
  }
  bool hasPrefix(const LocKey &P) const;
  LocKey withSuffixOf(const LocKey &From, const LocKey &NewBase) const;
};

/// The size of an allocation: Constant times each factor.
struct AllocSize {
  bool Known = false;
  int64_t Constant = 1;
  llvm::SmallVector<const Expr *, 2> Factors;
  /// When the allocation happened in a callee, the call whose arguments
  /// replace the callee's parameters in the factors.
  const CallExpr *ViaCall = nullptr;
  bool operator==(const AllocSize &O) const {
    return Known == O.Known && Constant == O.Constant && Factors == O.Factors &&
           ViaCall == O.ViaCall;
  }
};

/// What is known about the value of one pointer at one point.
struct PointerFact {
  /// Top: nothing is known. Checks never fire on it.
  bool Unknown = true;
  /// Bottom: no value has reached this point yet (an unwritten array).
  bool Bottom = false;
  /// MemorySpace bits this pointer may point into.
  unsigned Spaces = MS_None;
  /// It may be null.
  bool MaybeNull = false;
  /// It was freed on every path to this point.
  bool Freed = false;
  const Stmt *FreedAt = nullptr;
  /// The pointer may point past the start of its allocation.
  bool Offset = false;
  /// Host memory pinned by cudaHostRegister.
  bool Registered = false;
  /// The allocation that produced it, when a single one did: a call, a
  /// new-expression, or a declaration (stack arrays).
  const Stmt *AllocSite = nullptr;
  const Decl *AllocDecl = nullptr;
  /// The API or function that allocated it (null for new and arrays).
  const FunctionDecl *Allocator = nullptr;
  AllocSize Size;
  /// Pitched allocations: the location the pitch was stored to, and the
  /// requested width in bytes.
  std::optional<LocKey> PitchLoc;
  const Expr *PitchWidth = nullptr;
  /// The element type of the allocation, when the allocating code names
  /// it (the pointee of the variable cudaMalloc stores to, the type of a
  /// new-expression or array, the target of a cast of malloc's result).
  QualType ElemType;

  static PointerFact unknown() { return PointerFact(); }
  static PointerFact bottom() {
    PointerFact F;
    F.Unknown = false;
    F.Bottom = true;
    return F;
  }
  static PointerFact null() {
    PointerFact F;
    F.Unknown = false;
    F.MaybeNull = true;
    return F;
  }
  static PointerFact inSpace(unsigned S) {
    PointerFact F;
    F.Unknown = false;
    F.Spaces = S;
    return F;
  }

  /// Known to point into some space.
  bool isKnown() const { return !Unknown && !Bottom && Spaces != MS_None; }
  /// Known, and every space it may point into is in \p S.
  bool isOnly(unsigned S) const { return isKnown() && (Spaces & ~S) == 0; }
  /// Where its allocation is, for a note.
  SourceLocation allocLoc() const;

  bool operator==(const PointerFact &O) const;
  bool operator!=(const PointerFact &O) const { return !(*this == O); }
  static PointerFact join(const PointerFact &A, const PointerFact &B);
};

/// The facts at one program point, by location: a vector sorted by key,
/// with the part of std::map's interface the analysis uses. States hold a
/// few locations and are copied into every block's entry, where a tree's
/// node per location cost more than the facts themselves.
class MemoryState {
public:
  using value_type = std::pair<LocKey, PointerFact>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

private:
  // The same search over the vector, const or not.
  template <typename Vector>
  static auto lowerBound(Vector &Entries, const LocKey &K) {
    return std::lower_bound(
        Entries.begin(), Entries.end(), K,
        [](const value_type &E, const LocKey &K) { return E.first < K; });
  }
  template <typename Vector>
  static auto findIn(Vector &Entries, const LocKey &K) {
    auto It = lowerBound(Entries, K);
    return It != Entries.end() && It->first == K ? It : Entries.end();
  }
  // The keys that start with K form one run of the sorted vector, K first.
  template <typename Vector>
  static auto prefixRange(Vector &Entries, const LocKey &K) {
    auto First = lowerBound(Entries, K), Last = First;
    while (Last != Entries.end() && Last->first.hasPrefix(K))
      ++Last;
    return std::make_pair(First, Last);
  }

public:
  iterator begin() { return Entries.begin(); }
  iterator end() { return Entries.end(); }
  const_iterator begin() const { return Entries.begin(); }
  const_iterator end() const { return Entries.end(); }
  bool empty() const { return Entries.empty(); }
  size_t size() const { return Entries.size(); }

  iterator find(const LocKey &K) { return findIn(Entries, K); }
  const_iterator find(const LocKey &K) const { return findIn(Entries, K); }
  size_t count(const LocKey &K) const { return find(K) != end(); }
  PointerFact &operator[](const LocKey &K) {
    auto It = lowerBound(Entries, K);
    if (It == Entries.end() || !(It->first == K))
      It = Entries.insert(It, value_type(K, PointerFact()));
    return It->second;
  }
  iterator erase(const_iterator It) { return Entries.erase(It); }
  iterator erase(const_iterator First, const_iterator Last) {
    return Entries.erase(First, Last);
  }
  /// The locations whose key starts with \p K (\p K itself first, when
  /// held), in key order.
  std::pair<iterator, iterator> withPrefix(const LocKey &K) {
    return prefixRange(Entries, K);
  }
  std::pair<const_iterator, const_iterator> withPrefix(const LocKey &K) const {
    return prefixRange(Entries, K);
  }
  size_t erase(const LocKey &K) {
    auto It = find(K);
    if (It == Entries.end())
      return 0;
    Entries.erase(It);
    return 1;
  }
  /// Keeps the locations that both this state and \p O hold, each with the
  /// join of its two facts (a location a state lacks is unknown there).
  void intersectJoin(const MemoryState &O);
  bool operator==(const MemoryState &O) const { return Entries == O.Entries; }
  bool operator!=(const MemoryState &O) const { return !(*this == O); }

private:
  std::vector<value_type> Entries;
};

class MemorySpaceAnalysis;

/// What the body of one function shows before it is solved: the same for
/// its analysis in context and its summary.
struct BodyFacts {
  /// Roots whose value cannot be followed (their address escapes).
  llvm::DenseSet<const ValueDecl *> Escaped;
  /// Pointer and reference parameters copied where writes through them are
  /// not seen.
  llvm::DenseSet<const ParmVarDecl *> ClobberedParams;
  /// Variables written after their initialization.
  llvm::DenseSet<const VarDecl *> Modified;
};

/// One allocation stored into storage that outlives a function.
struct StorageAllocation {
  const CallExpr *Call = nullptr;
  const FunctionDecl *In = nullptr; ///< The function that makes it.
  const Expr *Bytes = nullptr;      ///< Its byte count, as written there.
};
/// Every allocation stored into one member or file-scope pointer, and the
/// functions that store into it (allocations and nulls).
struct StorageAllocations {
  llvm::SmallVector<StorageAllocation, 1> Sites;
  llvm::SmallPtrSet<const FunctionDecl *, 2> StoredIn;
};

/// The result of the analysis of one function.
class FunctionMemorySpaces {
public:
  const FunctionCfg &cfg() const { return *Cfg; }
  const FunctionDecl *function() const { return Cfg->function(); }
  /// The fact about the pointer value of \p E just before \p E is evaluated.
  /// Unknown when \p E is not in this function's CFG.
  PointerFact factOf(const Expr *E) const;
  /// The location \p E (an lvalue) names, when it is tracked.
  std::optional<LocKey> locationOf(const Expr *E) const;
  /// The fact the function returns (join over its returns).
  const PointerFact &returned() const { return Returned; }
  /// The function is a caching allocator: each pointer it returns is a
  /// fresh allocation or a block recycled from a standard container, and
  /// returned() holds the fresh ones' space only.
  bool returnsRecycledOrFresh() const { return RecycledOrFresh; }

private:
  friend class MemorySpaceAnalysis;
  friend class FunctionAnalyzer;
  FunctionMemorySpaces(MemorySpaceAnalysis &MSA,
                       std::shared_ptr<const FunctionCfg> Cfg)
      : MSA(&MSA), Cfg(std::move(Cfg)) {}
  /// The state before element \p Index of \p Block; valid until the next
  /// call.
  const MemoryState *stateBefore(CfgPoint P) const;
  PointerFact computeFactOf(const Expr *E) const;

  MemorySpaceAnalysis *MSA;
  std::shared_ptr<const FunctionCfg> Cfg; // Kept past the current function.
  llvm::DenseMap<const CFGBlock *, MemoryState> BlockEntry;
  /// The state before element CursorIndex of CursorBlock. Queries in element
  /// order (a check walking the CFG) move it forward; a block asked about
  /// out of order keeps the state before every CheckpointEvery-th element
  /// in Checkpoints, from which the cursor restarts.
  mutable const CFGBlock *CursorBlock = nullptr;
  mutable unsigned CursorIndex = 0;
  mutable MemoryState CursorState;
  static constexpr unsigned CheckpointEvery = 16;
  mutable llvm::DenseMap<const CFGBlock *, std::vector<MemoryState>>
      Checkpoints;
  /// factOf's answers, kept once no analysis is in progress (the memory
  /// checks ask each about the same arguments and pointers).
  mutable llvm::DenseMap<const Expr *, PointerFact> Facts;
  MemoryState ExitState;
  PointerFact Returned;
  bool RecycledOrFresh = false;
  /// Roots whose value cannot be followed (their address escapes).
  llvm::DenseSet<const ValueDecl *> Escaped;
  /// Parameters whose referents an unknown callee may have changed.
  llvm::DenseSet<const ParmVarDecl *> ClobberedParams;
  /// Variables that are never written after their initialization.
  llvm::DenseSet<const VarDecl *> Modified;
  /// Integer parameters to which every caller in the translation unit
  /// passes the same constant: branches that contradict it are not taken.
  llvm::DenseMap<const VarDecl *, int64_t> ConstantParams;
  bool Failed = false;
};

/// The memory-space facts of one translation unit.
class MemorySpaceAnalysis {
public:
  /// The analysis of the translation unit of \p Ctx. \p Arch tells which
  /// functions are not seen whole.
  static MemorySpaceAnalysis &get(ASTContext &Ctx, const ArchConditionals &Arch);

  /// The analysis of \p FD with its parameters bound to what its callers in
  /// this translation unit pass (unknown when they cannot all be seen).
  /// Null when \p FD cannot be analysed.
  const FunctionMemorySpaces *analyse(const FunctionDecl *FD);
  /// The same function analysed with unknown parameters: what it returns
  /// and stores through its parameters whoever calls it.
  const FunctionMemorySpaces *summary(const FunctionDecl *FD);

  /// Whether kernel \p Kernel (or a device function it passes the pointer
  /// to) dereferences parameter \p Index.
  bool kernelDereferences(const FunctionDecl *Kernel, unsigned Index);

  /// Whether the variable \p VD in \p FD is written after its
  /// initialization (assigned, incremented, or its address taken).
  bool isModified(const FunctionDecl *FD, const VarDecl *VD);
  /// The space of a pointer kept in storage that outlives a function: a
  /// member of a class read through `this`, or a file-scope variable of the
  /// main file. Known when every store into it in the translation unit
  /// (the class's methods, for a member whose class has them all here)
  /// gives it the same space: allocations, `new`, null. Unknown otherwise,
  /// and when its address escapes.
  PointerFact storageFact(const ValueDecl *Storage);
  /// The allocations stored into \p Storage across the translation unit,
  /// when its space is known (storageFact) and every store into it is an
  /// allocation of one byte count (cudaMalloc, not cudaMallocPitch or new)
  /// or null; null otherwise.
  const StorageAllocations *storageAllocations(const ValueDecl *Storage);
  /// Byte counts that \p Host itself shows the buffer \p Buffer holds at
  /// \p At: the sizes of the copies and sets (CUDA_COPY rows) that read or
  /// write the buffer on every path before \p At, at statements of the
  /// function's outermost block, through the same unmodified variable, or
  /// through the same member (or one allocated alike: allocatedAlike) that
  /// \p Host does not store into. A copy past the buffer's end is that
  /// copy's bug, so later code may rely on the size.
  llvm::SmallVector<const Expr *, 2>
  bytesShownBefore(const FunctionDecl *Host, const Expr *Buffer,
                   const Stmt *At);
  /// Whether the storages \p A and \p B hold the same number of bytes:
  /// each has one allocation, both in one function, of the same byte count
  /// over variables that function does not modify.
  bool allocatedAlike(const ValueDecl *A, const ValueDecl *B);

  ASTContext &context() { return Ctx; }
  const ArchConditionals &arch() const { return *Arch; }

  MemorySpaceAnalysis(ASTContext &Ctx, const ArchConditionals &Arch)
      : Ctx(Ctx), Arch(&Arch) {}

private:
  friend class FunctionAnalyzer;
  friend class FunctionMemorySpaces;
  const FunctionMemorySpaces *run(const FunctionDecl *FD, bool Contextual);
  std::optional<MemoryState> entryFromCallers(const FunctionDecl *FD);
  /// Whether what the callers of \p FD pass may change its analysis: the
  /// analysis in context is otherwise its summary, solved once.
  bool callersMayTell(const FunctionDecl *FD);
  void collectCallSites();
  /// The integer parameters of \p FD that every call (all known) passes
  /// the same constant.
  llvm::DenseMap<const VarDecl *, int64_t>
  constantArguments(const FunctionDecl *FD);

  ASTContext &Ctx;
  const ArchConditionals *Arch;
  std::map<std::pair<const FunctionDecl *, bool>,
           std::unique_ptr<FunctionMemorySpaces>>
      Results;
  std::set<std::pair<const FunctionDecl *, bool>> InProgress;
  /// Functions whose callers cannot all be seen, or can tell nothing
  /// (callersMayTell): their analysis is their summary.
  llvm::DenseSet<const FunctionDecl *> ContextIsSummary;
  bool CallSitesCollected = false;
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<std::pair<const CallExpr *,
                                             const FunctionDecl *>, 4>>
      CallSites;
  llvm::DenseSet<const FunctionDecl *> UnknownCallers;
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, bool> KernelDerefs;
  /// The body facts of \p Def, scanned once per function.
  const BodyFacts &bodyFacts(const FunctionDecl *Def, const FunctionCfg &Cfg);
  llvm::DenseMap<const FunctionDecl *, BodyFacts> BodyFactsOf;
  void scanStorage();
  std::optional<llvm::DenseMap<const ValueDecl *, PointerFact>> StorageFacts;
  std::optional<llvm::DenseMap<const ValueDecl *, StorageAllocations>>
      StorageAllocs;
};

/// A polynomial in opaque atoms with integer coefficients, for comparing
/// byte counts symbolically: `n * sizeof(double)` is 8·n.
class SymbolicSize {
public:
  /// Folds \p E. \p Subst replaces the parameters of the callee of \p Via
  /// (when set) by its arguments. Unmodified locals of \p FD are replaced by
  /// their initializers.
  static SymbolicSize of(const Expr *E, MemorySpaceAnalysis &MSA,
                         const FunctionDecl *FD, const CallExpr *Via = nullptr);
  /// For expressions evaluated at one point (the arguments of one call):
  /// a variable is the same value wherever it appears, written or not.
  static SymbolicSize atOnePoint(const Expr *E, MemorySpaceAnalysis &MSA,
                                 const FunctionDecl *FD);
  static SymbolicSize of(const AllocSize &S, MemorySpaceAnalysis &MSA,
                         const FunctionDecl *AllocFD);

  bool valid() const { return Valid; }
  SymbolicSize minus(const SymbolicSize &O) const;
  SymbolicSize times(int64_t K) const;
  SymbolicSize times(const SymbolicSize &O) const;
  bool isZero() const { return Valid && Terms.empty(); }
  /// Every coefficient is >= 0 and one is > 0: larger whenever the atoms
  /// (sizes and counts, never negative) are positive.
  bool isPositive() const;
  bool operator==(const SymbolicSize &O) const {
    return Valid && O.Valid && Terms == O.Terms;
  }
  std::optional<int64_t> constant() const;

private:
  using Monomial = std::vector<uintptr_t>;
  bool Valid = false;
  std::map<Monomial, int64_t> Terms;
  friend class SizeFolder;
};

/// Whether \p VD is a `__managed__` variable.
bool isManagedVariableDecl(const VarDecl *VD);

/// The pointer (or array) through which \p E reaches memory: `p` of `p[i]`,
/// `*p` and `p->f`; null for any other expression.
const Expr *accessedPointer(const Expr *E);

/// Short descriptions for diagnostics.
const char *spaceName(unsigned Spaces);

} // namespace clang::tidy::cuda

#endif
