//===- AsyncWorkInternal.h - The async-work analysis' parts -----*- C++ -*-===//
//
// Private to the AsyncWork*.cpp files; checks include AsyncWorkAnalysis.h.
// The analysis is kept in files by concern, the way the Static Analyzer
// keeps ExprEngine*.cpp apart:
//   AsyncWorkFacts.cpp      locations (KeyBuilder), stream creation flags and
//                           the other whole-unit facts
//   AsyncWorkSummaries.cpp  what a function of the translation unit does with
//                           its pointer parameters, whether it may wait, and
//                           the work a launcher leaves running
//   AsyncWorkTransfer.cpp   the transfer of one host function's CFG: queuing,
//                           ordering and retiring work, and the fixpoint
//   AsyncWorkHazards.cpp    host accesses, frees and event reads checked
//                           against the work still pending (SyncHazard)
//   AsyncWorkQueries.cpp    what the checks ask: hazardsIn, unfinishedAtExit
// This header holds the lattice (WorkState, StateSet) and the declarations
// those files share.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ASYNCWORKINTERNAL_H
#define CUDA_TIDY_ASYNCWORKINTERNAL_H

#include "AsyncWorkAnalysis.h"
#include "BranchCorrelation.h"
#include "FunctionCfg.h"
#include "ResultUse.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::cuda {

struct AsyncWorkAnalysis::DeviceSummary {
  std::vector<Access> Params;
  std::map<const VarDecl *, Access> Managed;
};

struct AsyncWorkAnalysis::HostSummary {
  std::vector<Access> Params;
  std::map<const VarDecl *, GlobalUse> Globals;
  bool MayWait = false;
};

namespace async_work {

constexpr unsigned MaxPath = 4;

inline bool isInSystemHeader(const Decl *D, const SourceManager &SM) {
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

/// 1 when the first argument of \p C is the object of a member operator
/// (`a[i]` on a class), whose parameters then start at the second.
inline unsigned objectArgumentCount(const CallExpr *C, const FunctionDecl *Callee) {
  return isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
}

inline bool pointeeIsConst(QualType T) {
  return T->isPointerType() && T->getPointeeType().isConstQualified();
}

/// Locations named by expressions: variables (any storage), fields, and
/// what pointers point to. A member of `this` is rooted at its field.
/// Local variables that alias another location are followed through
/// \p Alias (references, range-for variables, unmodified copies).
class KeyBuilder {
public:
  /// Where local variables lead: the initializer of a copy that is never
  /// written again (or of a reference), and the range of a range-for
  /// variable.
  struct Locals {
    virtual ~Locals() = default;
    virtual const Expr *aliasOf(const VarDecl *) { return nullptr; }
    virtual std::optional<LocKey> rangeElementOf(const VarDecl *) {
      return std::nullopt;
    }
  };
  explicit KeyBuilder(Locals &L) : L(L) {}

  /// The location the lvalue \p E names.
  std::optional<LocKey> lvalue(const Expr *E, unsigned Depth = 0) const;
  /// The host container (std::vector, ...) whose element \p E names
  /// through operator[], at(), front() or back(), or whose elements the
  /// pointer \p E points to through data().
  static const Expr *containerOfElement(const Expr *E, bool Data = false);
  /// What the pointer value \p E points into.
  std::optional<LocKey> pointee(const Expr *E, unsigned Depth = 0) const;
  /// The location a handle value (a stream or event) is read from.
  std::optional<LocKey> handle(const Expr *E, unsigned Depth = 0) const;

private:
  /// The value of a local copy that is never written again is the value it
  /// was initialized with: that initializer, when \p Read (the operand of a
  /// load) names such a copy.
  const Expr *copiedValue(const Expr *Read) const;
  static std::optional<LocKey> append(std::optional<LocKey> K,
                                      const FieldDecl *Step);
  Locals &L;
};

/// One queued operation, as its call describes it.
struct WorkInfo {
  WorkKind Kind = WorkKind::Kernel;
  const Stmt *Site = nullptr;
  const FunctionDecl *Kernel = nullptr;
  const FunctionDecl *Via = nullptr; ///< Queued inside this callee.
  unsigned Stream = 0; ///< Interned StreamRef.
  const Expr *StreamExpr = nullptr;
  struct Buffer {
    LocKey Key;
    const Stmt *AllocSite = nullptr;
    bool HostVisible = false;
    /// Pageable host memory a device-to-host copy writes (HostVisible too).
    bool Pageable = false;
  };
  llvm::SmallVector<Buffer, 2> Writes, Reads;
  std::optional<unsigned> Event; ///< EventRecord: interned event.

  /// \p B, which the work uses as \p Acc says.
  void add(const Buffer &B, const AsyncWorkAnalysis::Access &Acc) {
    if (Acc.Writes)
      Writes.push_back(B);
    if (Acc.Reads)
      Reads.push_back(B);
  }
  /// A __managed__ variable, which the work uses as \p Acc says.
  void addManaged(const VarDecl *VD, const AsyncWorkAnalysis::Access &Acc) {
    Buffer B;
    B.Key = LocKey{VD, {}};
    B.HostVisible = true;
    add(B, Acc);
  }
};

/// A small set kept as a sorted vector: a state holds a few elements, and
/// the fixpoint copies and compares states far more often than it looks
/// one up. Iterates in the order std::set would.
template <typename T, unsigned N = 4> class SortedSet {
public:
  bool count(T X) const {
    unsigned I = lower(X);
    return I < Items.size() && Items[I] == X;
  }
  void insert(T X) {
    unsigned I = lower(X);
    if (I == Items.size() || Items[I] != X)
      Items.insert(Items.begin() + I, X);
  }
  void erase(T X) {
    unsigned I = lower(X);
    if (I < Items.size() && Items[I] == X)
      Items.erase(Items.begin() + I);
  }
  /// Keeps only what \p O holds too.
  void intersect(const SortedSet &O) {
    llvm::erase_if(Items, [&](T X) { return !O.count(X); });
  }
  void clear() { Items.clear(); }
  auto begin() const { return Items.begin(); }
  auto end() const { return Items.end(); }
  bool operator==(const SortedSet &O) const { return Items == O.Items; }

private:
  unsigned lower(T X) const {
    return std::lower_bound(Items.begin(), Items.end(), X, std::less<T>()) -
           Items.begin();
  }
  llvm::SmallVector<T, N> Items;
};

/// A small map kept as a vector sorted by key, for the same reason.
/// Iterates in the order std::map would.
template <typename K, typename V, unsigned N = 4> class SortedMap {
public:
  using Entry = std::pair<K, V>;
  using iterator = typename llvm::SmallVectorImpl<Entry>::iterator;
  using const_iterator = typename llvm::SmallVectorImpl<Entry>::const_iterator;

  iterator begin() { return Entries.begin(); }
  iterator end() { return Entries.end(); }
  const_iterator begin() const { return Entries.begin(); }
  const_iterator end() const { return Entries.end(); }
  bool empty() const { return Entries.empty(); }
  void clear() { Entries.clear(); }
  bool operator==(const SortedMap &O) const { return Entries == O.Entries; }

  iterator find(K Key) {
    iterator It = lower(Key);
    return It != end() && It->first == Key ? It : end();
  }
  const_iterator find(K Key) const {
    return const_cast<SortedMap *>(this)->find(Key);
  }
  bool count(K Key) const { return find(Key) != end(); }
  /// Inserts \p Value under \p Key unless the key is there.
  void try_emplace(K Key, const V &Value) {
    iterator It = lower(Key);
    if (It == end() || It->first != Key)
      Entries.insert(It, Entry(Key, Value));
  }
  V &operator[](K Key) {
    iterator It = lower(Key);
    if (It == end() || It->first != Key)
      It = Entries.insert(It, Entry(Key, V()));
    return It->second;
  }
  /// Erases the entries whose key \p Drop holds, asking it first about
  /// every key of the map as it stands.
  void eraseIf(llvm::function_ref<bool(K)> Drop) {
    llvm::SmallVector<bool, 16> Dropped;
    for (const Entry &E : Entries)
      Dropped.push_back(Drop(E.first));
    unsigned Kept = 0;
    for (unsigned I = 0; I < Entries.size(); ++I)
      if (!Dropped[I]) {
        if (Kept != I)
          Entries[Kept] = std::move(Entries[I]);
        ++Kept;
      }
    Entries.truncate(Kept);
  }

private:
  iterator lower(K Key) {
    return std::lower_bound(Entries.begin(), Entries.end(), Key,
                            [](const Entry &E, K Key) {
                              return std::less<K>()(E.first, Key);
                            });
  }
  llvm::SmallVector<Entry, N> Entries;
};

/// Queued work that may not have completed, at one point.
struct WorkState {
  bool Reached = false;
  /// Each pending operation, with the streams whose later operations (and
  /// so whose synchronization) are ordered after it.
  SortedMap<const Stmt *, SortedSet<unsigned>> Pending;
  /// For each event recorded in this function, the operations that its
  /// completion implies have completed.
  SortedMap<unsigned, SortedSet<const Stmt *>, 2> Events;
  /// Branch conditions on variables that never change, as taken on every
  /// path here: a later branch on the same variable goes the same way.
  BranchHistory Taken;

  bool operator==(const WorkState &O) const {
    return Reached == O.Reached && Pending == O.Pending &&
           Events == O.Events && Taken == O.Taken;
  }

  void join(const WorkState &O) {
    if (!O.Reached)
      return;
    if (!Reached) {
      *this = O;
      return;
    }
    for (auto &[Site, Ordered] : Pending)
      if (auto It = O.Pending.find(Site); It != O.Pending.end())
        Ordered.intersect(It->second);
    for (const auto &[Site, Ordered] : O.Pending)
      Pending.try_emplace(Site, Ordered);
    // An event not recorded on one path retires everything there.
    for (auto &[Ev, Covered] : Events)
      if (auto It = O.Events.find(Ev); It != O.Events.end())
        Covered.intersect(It->second);
    for (const auto &[Ev, Covered] : O.Events)
      Events.try_emplace(Ev, Covered);
    Taken.meet(O.Taken);
  }
};

/// Whether \p C queues device work itself.
inline bool isQueuingCall(const CallExpr *C) {
  if (isa<CUDAKernelCallExpr>(C))
    return true;
  const ApiFunction *Api = CudaApiModel::lookup(C);
  return Api && ((Api->Copy && Api->Copy->isAsync()) ||
                 (Api->Event && Api->Event->Role == EventRole::Record));
}

/// The states at one point, kept apart by the branches they took on
/// unchanging variables, so that a join does not mix a path that launched
/// under `if (async)` with one that synchronizes under `if (!async)`. At
/// most MaxSplit are kept; more are merged into one.
struct StateSet {
  static constexpr unsigned MaxSplit = 8;
  llvm::SmallVector<WorkState, 1> States;

  bool reached() const { return !States.empty(); }
  bool operator==(const StateSet &O) const { return States == O.States; }

  void add(const WorkState &S) { add(WorkState(S)); }
  void add(WorkState &&S) {
    if (!S.Reached)
      return;
    for (WorkState &T : States)
      if (T.Taken == S.Taken) {
        T.join(S);
        return;
      }
    States.push_back(std::move(S));
    if (States.size() > MaxSplit) {
      WorkState All = std::move(States.front());
      for (unsigned I = 1; I < States.size(); ++I)
        All.join(States[I]);
      States.clear();
      States.push_back(std::move(All));
    }
  }
  void add(StateSet &&O) {
    for (WorkState &S : O.States)
      add(std::move(S));
  }
};

/// One host function's queued work, path by path.
class FunctionAsyncWork : public KeyBuilder::Locals {
public:
  FunctionAsyncWork(AsyncWorkAnalysis &A, const FunctionMemorySpaces &M,
                    bool PerThread)
      : A(A), M(M), Cfg(M.cfg()), Ctx(A.context()),
        SM(Ctx.getSourceManager()), PerThread(PerThread), Keys(*this) {}

  /// Track all work, for what is left at the program's exits: work queued
  /// by callees whatever memory it uses, and (\p CheckedSyncOnly) only
  /// synchronizations whose error code is examined.
  void trackAllWork(bool CheckedSyncOnly) {
    AllWork = true;
    CheckedOnly = CheckedSyncOnly;
  }
  /// The work pending at each exit of the program (after solve()).
  std::vector<UnfinishedAtExit> atProgramExits();

  /// Runs the data-flow to its fixpoint; false when it does not settle.
  bool solve();
  /// The findings (after solve()).
  std::vector<SyncHazard> report();
  /// What is still running at the function's exit (after solve()).
  std::vector<AsyncWorkAnalysis::LeftRunning> leftRunning() const;

  const Expr *aliasOf(const VarDecl *VD) override;
  std::optional<LocKey> rangeElementOf(const VarDecl *VD) override;

private:
  // Streams and events.
  unsigned intern(const StreamRef &S) {
    for (unsigned I = 0; I < Streams.size(); ++I)
      if (Streams[I] == S)
        return I;
    Streams.push_back(S);
    return Streams.size() - 1;
  }
  StreamRef defaultStream() const {
    StreamRef S;
    S.K = PerThread ? StreamRef::PerThread : StreamRef::Legacy;
    return S;
  }
  unsigned streamOf(const Expr *E);
  std::optional<unsigned> eventOf(const Expr *E);
  static bool isBlocking(const StreamRef &S) {
    return S.K == StreamRef::Legacy || S.K == StreamRef::PerThread ||
           (S.K == StreamRef::Named && !S.NonBlocking);
  }
  /// Whether work at \p Site is ordered before stream \p S whatever the
  /// kinds of the streams: ordered by an event, on the same stream, or on
  /// one that is not identified.
  bool orderedAnyway(const WorkState &St, const Stmt *Site, unsigned S) const;
  bool orderedBeforeNewWork(const WorkState &St, const Stmt *Site,
                            unsigned S) const;
  bool retiredBySync(const WorkState &St, const Stmt *Site, unsigned S) const;
  /// \p W is on the stream that argument \p E names (null, or a default
  /// argument: the default stream).
  void setStream(WorkInfo &W, const Expr *E) {
    W.StreamExpr = E && !isa<CXXDefaultArgExpr>(E) ? E : nullptr;
    W.Stream = streamOf(W.StreamExpr);
  }

  // Transfer.
  WorkState processBlock(const CFGBlock *B, WorkState St, bool Report);
  /// \p Out as it reaches \p To from \p From: unreached when the branch
  /// contradicts one taken before on a variable that never changes.
  WorkState alongEdge(const CFGBlock *From, const CFGBlock *To,
                      const WorkState &Out);
  /// What taking the edge from \p From to \p To says about a variable that
  /// never changes; computed once per edge.
  const std::optional<EdgeFact> &edgeFactOf(const CFGBlock *From,
                                            const CFGBlock *To);
  std::map<std::pair<unsigned, unsigned>, std::optional<EdgeFact>> EdgeFacts;
  void transfer(const CFGElement &E, WorkState &St, bool Report);
  void transferCall(const CallExpr *C, WorkState &St, bool Report);
  WorkInfo kernelWork(const CUDAKernelCallExpr *K);
  /// A call the API model does not describe: a function of this
  /// translation unit, a library function, or an unknown callee.
  void transferUnmodelledCall(const CallExpr *C, const FunctionDecl *Callee,
                              WorkState &St, bool Report);
  // What a call of the API model does, one handler per kind of fact
  // (ApiTransfers says which applies).
  void transferCopy(const CallExpr *C, const ApiFunction &Api, WorkState &St,
                    bool Report);
  void transferSync(const CallExpr *C, const ApiFunction &Api, WorkState &St,
                    bool Report);
  void transferImplicitSync(const CallExpr *C, const ApiFunction &Api,
                            WorkState &St, bool Report);
  void transferFree(const CallExpr *C, const ApiFunction &Api, WorkState &St,
                    bool Report);
  void transferEvent(const CallExpr *C, const ApiFunction &Api, WorkState &St,
                     bool Report);
  void checkElapsed(const CallExpr *C, const EventInfo &EI,
                    const WorkState &St);
  struct ApiTransfer {
    bool (*Applies)(const ApiFunction &);
    void (FunctionAsyncWork::*Apply)(const CallExpr *, const ApiFunction &,
                                     WorkState &, bool Report);
  };
  static const ApiTransfer ApiTransfers[];
  void enqueue(const WorkInfo &W, WorkState &St);
  void checkCallArguments(const CallExpr *C, const FunctionDecl *Callee,
                          const WorkState &St);
  /// The callee's accesses to global pointers' memory and managed
  /// variables, as accesses at the call.
  void checkCalleeGlobals(const CallExpr *C, const FunctionDecl *Callee,
                          const WorkState &St);
  /// Set while checkCalleeGlobals() checks an access (SyncHazard).
  const Expr *CalleeUse = nullptr;
  const FunctionDecl *CalleeUseIn = nullptr;
  void enqueueLeftRunning(const CallExpr *C, const FunctionDecl *Callee,
                          WorkState &St);
  void retireIf(WorkState &St, llvm::function_ref<bool(const Stmt *)> Done) {
    St.Pending.eraseIf(Done);
  }
  void retireEvent(WorkState &St, std::optional<unsigned> Ev);
  /// Retires the work that a new operation on stream \p S would be ordered
  /// after: the host has waited for such an operation.
  void retireOrderedBefore(WorkState &St, unsigned S) {
    retireIf(St, [&](const Stmt *Site) {
      return orderedBeforeNewWork(St, Site, S);
    });
  }
  bool hostFunctionMayWait(const FunctionDecl *FD) {
    if (!FD)
      return true;
    if (isInSystemHeader(FD, SM))
      return CudaApiModel::libraryCallMayWait(FD);
    return A.mayWait(FD);
  }

  // Host accesses.
  std::optional<WorkInfo::Buffer> bufferOf(const Expr *Ptr);
  /// The buffer \p Ptr points into, of fact \p F; nullopt when neither
  /// its location nor its allocation is known.
  std::optional<WorkInfo::Buffer> bufferAt(const Expr *Ptr,
                                           const PointerFact &F,
                                           bool HostVisible, bool Pageable);
  /// The destination of asynchronous copy \p C when it is pageable host
  /// memory that the device writes, and the option asks for it.
  std::optional<WorkInfo::Buffer> pageableDestination(const CallExpr *C,
                                                      const CopyInfo &CI);
  std::pair<bool, bool> accessKind(const Expr *E) const;
  void checkElementAccess(const Expr *E, const WorkState &St);
  /// \p AnyMemory: the access reaches device memory as well (CUDA-aware
  /// MPI), not only host-visible memory.
  bool checkPointerUse(const Stmt *At, const Expr *Ptr, bool Reads,
                       bool Writes, const WorkState &St,
                       bool AnyMemory = false);
  bool checkAccess(const Stmt *At, const Expr *Named,
                   const std::optional<LocKey> &Key, const Stmt *AllocSite,
                   bool Reads, bool Writes, const WorkState &St,
                   bool AnyMemory = false);
  /// Call \p C reads what \p Read points to and writes what \p Written
  /// points to (either may be null): one finding at most, the read first.
  void checkReadThenWritten(const CallExpr *C, const Expr *Read,
                            const Expr *Written, const WorkState &St,
                            bool AnyMemory = false);
  /// Where the memory \p Ptr points to was allocated, when known.
  const Stmt *knownAllocSite(const Expr *Ptr) const;
  void checkFree(const Stmt *At, const Expr *Ptr,
                 std::optional<unsigned> Stream, const WorkState &St);
  void report(SyncHazard::Kind K, const Stmt *At, const Expr *Named,
              const Stmt *Site, bool Pageable = false);
  const Stmt *earliest(llvm::ArrayRef<const Stmt *> Sites) const;

  /// Whether synchronizing call \p C retires work (trackAllWork).
  bool syncCounts(const CallExpr *C) const {
    return !CheckedOnly || isResultExamined(classifyResultUse(C, Cfg), Cfg);
  }
  /// Whether the program ends after the last statement of \p B with
  /// status 0; sets \p Exit to that statement.
  bool endsProgramCleanly(const CFGBlock *B, const Stmt *&Exit) const;

  AsyncWorkAnalysis &A;
  const FunctionMemorySpaces &M;
  const FunctionCfg &Cfg;
  ASTContext &Ctx;
  const SourceManager &SM;
  bool PerThread;
  bool AllWork = false;
  bool CheckedOnly = false;
  KeyBuilder Keys;
  std::vector<StreamRef> Streams;
  std::vector<LocKey> EventKeys;
  std::map<const Stmt *, WorkInfo> Works;
  llvm::DenseMap<const VarDecl *, const Expr *> Aliases;
  std::optional<llvm::DenseMap<const VarDecl *, LocKey>> RangeVars;
  std::vector<SyncHazard> Hazards;
  llvm::SmallPtrSet<const Stmt *, 8> ReportedAt;
  std::vector<const CFGBlock *> Order;
  std::vector<StateSet> In;
};

/// Whether the function of \p Cfg queues device work whose use of memory
/// could be reported: any work, when host-visible memory exists in the
/// translation unit; otherwise only work on device memory freed in stream
/// order, or an event whose time is read.
bool worthAnalysing(const FunctionCfg &Cfg, AsyncWorkAnalysis &A,
                    bool HostVisibleMemory);

} // namespace async_work
} // namespace clang::tidy::cuda

#endif
