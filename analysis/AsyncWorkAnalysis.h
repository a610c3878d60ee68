//===- AsyncWorkAnalysis.h - Device work the host has not waited for -*- C++ -*-===//
//
// A forward analysis, on the CFG of one host function, of the device work
// that is queued and may still be running: kernel launches with the
// host-visible memory they write and read, asynchronous copies and memsets
// with their destinations and sources, and event records, each with its
// stream. Operations that order the host after queued work (device, stream
// and event synchronization, synchronous copies under the default-stream
// rules, query loops, implicitly synchronizing calls) retire it. Where the
// host touches memory that unretired work may still use, or reads an event
// that may not have completed, the analysis reports a hazard.
//
// Memory spaces come from MemorySpaceAnalysis; which calls queue, order or
// wait comes from the CUDA API model. What a kernel writes and what a host
// function of the same translation unit reads or waits for are summaries
// computed once per translation unit. Unknown facts retire work (a call that
// may wait, a stream or event that cannot be identified), so that the
// analysis stays silent rather than guess.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ASYNCWORKANALYSIS_H
#define CUDA_TIDY_ASYNCWORKANALYSIS_H

#include "ArchConditionals.h"
#include "MemorySpaceAnalysis.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace clang {
class Preprocessor;
}

namespace clang::tidy::cuda {

/// The queue that a piece of device work is on.
struct StreamRef {
  enum Kind : uint8_t {
    Legacy,    ///< The legacy default stream.
    PerThread, ///< The per-thread default stream.
    Named,     ///< A created stream, identified by where its handle is kept.
    Unknown,   ///< Not identified: any ordering operation may retire it.
  };
  Kind K = Unknown;
  LocKey Handle;           ///< Named: the variable, field or array holding it.
  bool NonBlocking = false; ///< Named: created with cudaStreamNonBlocking.

  bool operator==(const StreamRef &O) const {
    return K == O.K && (K != Named || Handle == O.Handle);
  }
};

/// What a piece of queued work is.
enum class WorkKind { Kernel, Copy, Memset, EventRecord };

/// One way the host may race with queued work.
struct SyncHazard {
  enum Kind {
    ReadWhileWritten,  ///< The host reads memory the work may still write.
    WrittenWhileUsed,  ///< The host writes memory the work may still read or write.
    FreedWhileUsed,    ///< The host frees memory the work may still use.
    FreedOnOtherStream, ///< Freed in stream order on a stream not ordered after the work.
    ElapsedBeforeSync, ///< cudaEventElapsedTime on an event that may not have completed.
  };
  Kind K;
  const Stmt *At;          ///< The host access, free, or cudaEventElapsedTime call.
  const Expr *Named;       ///< The pointer, variable or event named in the message.
  const Stmt *Work;        ///< The queued operation (its call).
  WorkKind Work_;          ///< What it is.
  const FunctionDecl *Kernel = nullptr; ///< Kernel work: the kernel.
  /// Work queued inside a function of this translation unit that returns
  /// while it runs: that function (the work's site is the call).
  const FunctionDecl *Via = nullptr;
  const Expr *StreamExpr = nullptr;     ///< The stream argument, if written.
  StreamRef Stream;
  /// The access is made inside the function that At calls, to memory it
  /// reaches without a parameter (a global pointer, a __managed__
  /// variable): where it names that memory there.
  const Expr *CalleeUse = nullptr;
  const FunctionDecl *CalleeUseIn = nullptr; ///< The function CalleeUse is in.
  /// ReadWhileWritten: the work is a copy from the device into pageable host
  /// memory, which returns only once it is done; reading works today, and
  /// breaks once the memory is pinned.
  bool Pageable = false;
};

/// Device work that may still be queued where the program ends.
struct UnfinishedAtExit {
  /// The return statement of main or the call that ends the program; null
  /// when main ends at its closing brace.
  const Stmt *Exit = nullptr;
  const Stmt *Work = nullptr; ///< The queued operation (its call).
  WorkKind Kind = WorkKind::Kernel;
  const FunctionDecl *Kernel = nullptr;
  /// Work queued inside this function of the translation unit (the work's
  /// site is the call).
  const FunctionDecl *Via = nullptr;
  const Expr *StreamExpr = nullptr;
  StreamRef Stream;
};

class FunctionCfg;

/// The per-translation-unit summaries and the per-function analysis.
class AsyncWorkAnalysis {
public:
  AsyncWorkAnalysis(ASTContext &Ctx, const ArchConditionals &Arch);
  ~AsyncWorkAnalysis();

  /// The analysis of the translation unit of \p Ctx.
  static AsyncWorkAnalysis &get(ASTContext &Ctx, const ArchConditionals &Arch);

  /// Whether \p FD runs on the host (neither a kernel nor device-only): the
  /// only functions hazardsIn() and unfinishedAtExit() analyse.
  static bool isHostFunction(const FunctionDecl &FD) {
    return !FD.hasAttr<CUDAGlobalAttr>() &&
           (!FD.hasAttr<CUDADeviceAttr>() || FD.hasAttr<CUDAHostAttr>());
  }

  /// The hazards in host function \p FD. \p PerThreadDefaultStream: the
  /// translation unit is built with --default-stream per-thread.
  /// \p PageableCopies: also report host reads of pageable memory that an
  /// asynchronous device-to-host copy writes (SyncHazard::Pageable).
  std::vector<SyncHazard> hazardsIn(const FunctionDecl *FD,
                                    bool PerThreadDefaultStream,
                                    bool PageableCopies = false);
  bool pageableCopies() const { return PageableCopies; }

  /// The kernels, copies and memsets that may still be queued where host
  /// function \p FD ends the program with status 0 or an unknown status:
  /// main's returns and end, and calls of exit() (CUDA_PROGRAM_EXIT rows).
  /// Work queued inside a function of this translation unit that returns
  /// without waiting counts too. \p CheckedSyncOnly: a synchronization
  /// whose error code is not examined does not retire work.
  std::vector<UnfinishedAtExit> unfinishedAtExit(const FunctionDecl *FD,
                                                 bool PerThreadDefaultStream,
                                                 bool CheckedSyncOnly);

  /// How a function of this translation unit uses what a pointer parameter
  /// points to, and whether it may wait for device work.
  struct Access {
    bool Reads = false;
    bool Writes = false;
    /// Device code shares it with the host on purpose: through a volatile
    /// pointer, or with system-scope atomics.
    bool Concurrent = false;
  };
  /// Kernel (or device function) \p FD's use of parameter \p Index, or of
  /// the managed variable \p VD; nullopt when its body is not seen.
  std::optional<Access> deviceAccess(const FunctionDecl *FD, unsigned Index);
  /// The __managed__ variables that kernel \p FD (or a device function it
  /// calls) reads or writes.
  const std::map<const VarDecl *, Access> *managedAccess(const FunctionDecl *FD);

  /// Host function \p FD's use of parameter \p Index's pointee.
  std::optional<Access> hostAccess(const FunctionDecl *FD, unsigned Index);
  /// How host function \p FD (or a function of this translation unit it
  /// calls) uses memory it reaches without a parameter: what a
  /// namespace-scope pointer points to, and __managed__ variables; with
  /// the first reference to each.
  struct GlobalUse {
    Access Acc;
    const Expr *FirstRef = nullptr;
    const FunctionDecl *In = nullptr; ///< The function FirstRef is in.
  };
  const std::map<const VarDecl *, GlobalUse> *
  hostGlobalAccess(const FunctionDecl *FD);
  /// Whether calling \p FD may wait for device work queued before the call.
  bool mayWait(const FunctionDecl *FD);

  /// Device work that a host function queues and leaves running when it
  /// returns (a launcher), described by the parameters it uses.
  struct LeftRunning {
    WorkKind Kind = WorkKind::Kernel;
    const FunctionDecl *Kernel = nullptr;
    /// The stream: parameter StreamParam, or else StreamKind (Legacy,
    /// PerThread or Unknown).
    int StreamParam = -1;
    StreamRef::Kind StreamKind = StreamRef::Unknown;
    std::vector<std::pair<unsigned, Access>> Params;
    std::vector<std::pair<const VarDecl *, Access>> Managed;
  };
  /// Whether \p FD queues device work, itself or through the functions of
  /// this translation unit it calls (a scan of its body).
  bool queuesWork(const FunctionDecl *FD);
  /// The work \p FD leaves running; null when unknown.
  const std::vector<LeftRunning> *leftRunning(const FunctionDecl *FD);

  /// Whether the handle kept at \p Handle (a stream) was created
  /// non-blocking somewhere in this translation unit, blocking, or both or
  /// unknown (nullopt).
  std::optional<bool> streamIsNonBlocking(const LocKey &Handle,
                                          const FunctionDecl *In);

  ASTContext &context() { return Ctx; }
  const ArchConditionals &arch() const { return Arch; }

private:
  struct DeviceSummary;
  struct HostSummary;
  /// What both checks read of one host function, solved once.
  struct CheckFacts {
    const FunctionDecl *FD = nullptr;
    bool PerThread = false;
    bool PageableCopies = false;
    std::vector<SyncHazard> Hazards;
    std::vector<UnfinishedAtExit> Exits;
  };
  /// The hazards and the work unfinished at the program's exits (every
  /// synchronization counting) in \p FD, whose CFG is \p Cfg: one fixpoint
  /// with all work tracked serves both, as work that uses no host-visible
  /// memory never makes a hazard. Kept for the last function asked, which
  /// the two checks ask in turn.
  const CheckFacts &checkFacts(const FunctionDecl *FD, const FunctionCfg &Cfg,
                               bool PerThreadDefaultStream);
  /// Whether \p FD, of CFG \p Cfg, queues work and ends the program with
  /// status 0 or an unknown status somewhere: the only functions with
  /// anything unfinished at an exit.
  bool mayExitWithWork(const FunctionDecl *FD, const FunctionCfg &Cfg);
  const DeviceSummary *deviceSummary(const FunctionDecl *FD);
  const HostSummary *hostSummary(const FunctionDecl *FD);
  /// Stream flags, and whether the translation unit has host-visible
  /// (managed, pinned, mapped, registered) memory at all.
  void collectTranslationUnitFacts();

  ASTContext &Ctx;
  const ArchConditionals &Arch;
  std::map<const FunctionDecl *, std::unique_ptr<DeviceSummary>> Device;
  std::map<const FunctionDecl *, std::unique_ptr<HostSummary>> Host;
  std::map<const FunctionDecl *, std::unique_ptr<std::vector<LeftRunning>>>
      Left;
  bool PerThread = false;
  bool PageableCopies = false;
  llvm::DenseMap<const FunctionDecl *, bool> Queues;
  CheckFacts LastFacts;
  bool FactsCollected = false;
  bool HostVisibleMemory = false;
  /// Per field or global variable holding streams: created non-blocking.
  llvm::DenseMap<const ValueDecl *, std::optional<bool>> StreamFlags;
};

} // namespace clang::tidy::cuda

#endif
