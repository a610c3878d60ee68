//===- AllocationTracking.h - Where an allocation ends up -------*- C++ -*-===//
//
// Follows each allocation a function makes (device, pinned and managed
// memory, and the handles of streams, events, graphs and the like) along
// every path of the function's CFG to its exits. On each path the
// allocation is freed, escapes (returned, stored somewhere that outlives the
// function, handed to a function that may keep it), or is lost (overwritten
// while live, or still live at an exit).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ALLOCATIONTRACKING_H
#define CUDA_TIDY_ALLOCATIONTRACKING_H

#include "ArchConditionals.h"
#include "CudaApiModel.h"
#include "BranchCorrelation.h"
#include "FunctionCfg.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// What an allocation holds: memory of a space, or a resource handle.
struct AllocationKind {
  MemorySpace Space = MS_None;          ///< For memory.
  std::optional<ResourceKind> Resource; ///< For handles.
  /// "device memory", "pinned host memory", "stream"...
  std::string describe() const;
};

/// One allocation made in a function and kept in a local variable.
struct TrackedAllocation {
  const CallExpr *Site = nullptr; ///< The allocating call.
  const VarDecl *Var = nullptr;   ///< The local that receives it.
  AllocationKind Kind;
  /// Where Var starts holding the allocation: the call, or the statement
  /// that stores the returned pointer.
  const Stmt *StartStmt = nullptr;
};

/// How an allocation is lost on some path.
struct AllocationLoss {
  enum LossKind {
    StillLiveAtExit, ///< The function returns with it live.
    Overwritten,     ///< Its last holder is overwritten.
    Redeclared,      ///< Its variable is declared again (next iteration).
  } How;
  const Stmt *Where = nullptr; ///< The return, overwrite or declaration.
  const VarDecl *Holder = nullptr;
};

/// An allocation into a file-scope variable or a class member that no
/// function of the translation unit frees.
struct StorageLeak {
  const CallExpr *Site = nullptr;       ///< The first allocation into it.
  const FunctionDecl *In = nullptr;     ///< The function that makes it.
  const ValueDecl *Storage = nullptr;   ///< The VarDecl or FieldDecl.
  AllocationKind Kind;
};

/// Which handle kinds to track besides memory.
using ResourceSet = llvm::SmallVector<ResourceKind, 4>;

/// Allocation tracking for one translation unit. It keeps summaries of the
/// functions it has looked at: which return a fresh allocation, and what
/// each pointer parameter is used for.
class AllocationTracker {
public:
  AllocationTracker(ASTContext &Ctx, const ArchConditionals &Arch,
                    ResourceSet Resources)
      : Ctx(Ctx), Arch(Arch), Resources(std::move(Resources)) {}

  /// The allocations \p Cfg's function makes into local variables.
  llvm::SmallVector<TrackedAllocation, 4>
  allocationsIn(const FunctionCfg &Cfg);

  /// A path on which \p A is lost, or nullopt when every path frees it,
  /// lets it escape, or ends the program. Paths on which the allocation's
  /// own status says it failed, or on which its pointer is null, are not
  /// followed.
  std::optional<AllocationLoss> findLoss(const TrackedAllocation &A,
                                         const FunctionCfg &Cfg);

  /// The allocations \p FD makes into file-scope pointers (of the main
  /// file) or into members of its own class (defined in the main file, all
  /// of whose methods are defined here) that no function frees: every use
  /// of the variable or member in the translation unit is read, and none
  /// frees it, copies it elsewhere or hands it to code that may keep it.
  llvm::SmallVector<StorageLeak, 2> unreleasedStorageIn(const FunctionDecl *FD);

private:
  class LossWalk;
  enum class ParamUse { ReadsOnly, Frees, MayKeep };
  /// A parameter handed on as argument \c Arg of a call through the
  /// function-pointer parameter \c Param (`fn(p)` in a harness taking
  /// `void (*fn)(float *)`): what it does depends on the function the
  /// caller passes.
  struct Forward {
    unsigned Param, Arg;
  };
  struct Summary {
    /// The function returns memory it allocated, of this kind.
    std::optional<AllocationKind> ReturnsAllocation;
    /// The function allocates into `*p` of this parameter, its only use
    /// (`void alloc(void **p, size_t n) { cudaMalloc(p, n); }`).
    std::optional<std::pair<AllocationKind, int>> AllocatesInto;
    llvm::SmallVector<ParamUse, 4> Params;
    /// Per parameter, the calls through function-pointer parameters it is
    /// handed to.
    llvm::SmallVector<llvm::SmallVector<Forward, 1>, 4> Forwards;
  };
  const Summary *summaryOf(const FunctionDecl *FD);
  Summary computeSummary(const FunctionDecl *FD, const FunctionCfg &Cfg);
  /// How \p FD uses each of its parameters, in one walk of its body, and
  /// which of them it hands to calls through function-pointer parameters.
  llvm::SmallVector<ParamUse, 4>
  paramUses(const FunctionDecl *FD, const FunctionCfg &Cfg,
            llvm::SmallVectorImpl<llvm::SmallVector<Forward, 1>> &Forwards);
  /// What the callee of \p Call does with argument \p Arg by its summary
  /// (a call through a function-pointer parameter resolved with the
  /// function \p Call passes), or nullopt when it has no summary.
  std::optional<ParamUse> summarizedUse(const CallExpr *Call, unsigned Arg);
  /// What function \p F, passed as a function pointer, does with its
  /// parameter \p Param.
  ParamUse useByPassedFunction(const FunctionDecl *F, unsigned Param);
  /// The parameter \p FD allocates into, used for nothing else.
  std::optional<std::pair<AllocationKind, int>>
  outParamAllocation(const FunctionDecl *FD, const FunctionCfg &Cfg);

  /// The kind of allocation \p Call makes and the argument (or -1 for the
  /// return value) that receives it.
  std::optional<std::pair<AllocationKind, int>>
  allocationMadeBy(const CallExpr *Call);
  std::optional<std::pair<AllocationKind, int>>
  computeAllocationMadeBy(const CallExpr *Call);
  /// Whether \p Call releases the value of \p Arg (a free or destroy of
  /// the right kind, or a same-TU function that frees that parameter).
  bool releases(const CallExpr *Call, unsigned Arg);
  /// Whether passing a pointer as argument \p Arg of \p Call may let the
  /// callee keep it.
  bool mayKeep(const CallExpr *Call, unsigned Arg);
  bool isTracked(ResourceKind K) const;

  /// The whole-unit scan of storage (StorageScan.h) for
  /// unreleasedStorageIn.
  class LeakScan;
  std::optional<std::vector<StorageLeak>> StorageLeaks;

  ASTContext &Ctx;
  const ArchConditionals &Arch;
  ResourceSet Resources;
  llvm::DenseMap<const FunctionDecl *, Summary> Summaries;
  /// allocationMadeBy per call: every walk of an allocation's paths asks
  /// it of every call after the allocation.
  llvm::DenseMap<const CallExpr *, std::optional<std::pair<AllocationKind, int>>>
      MadeBy;
  llvm::DenseSet<const FunctionDecl *> InProgress;
  /// What a loss walk needs of one CFG element that a step may act on or
  /// that stores a variable.
  struct ElementFacts {
    unsigned Index = 0; ///< In its block.
    const Stmt *St = nullptr;
    const VarDecl *Stored = nullptr; ///< variableStoredBy(St)
    /// A call that resets the device (releases everything).
    bool ResetsDevice = false;
    /// Whether a walk's step can act on the element at all, and then only
    /// when it names a holder or the status variable: every variable the
    /// element names (declares, refers to or captures).
    bool Steps = false;
    llvm::SmallVector<const VarDecl *, 2> Names;
    /// One bit per name (nameBit): a quick test before Names is searched.
    uint64_t NameBits = 0;
  };
  static uint64_t nameBit(const VarDecl *V) {
    return uint64_t(1) << (llvm::DenseMapInfo<const VarDecl *>::getHashValue(V) & 63);
  }
  /// The facts every walk of one function's allocations shares, computed
  /// once per function: they walk the same statements again and again.
  struct WalkedFunction {
    const FunctionDecl *FD = nullptr;
    std::vector<std::optional<BranchHistory>> Histories;
    struct Block {
      /// The elements that may matter to a walk, in order; a walk passes
      /// over the others.
      std::vector<ElementFacts> Elements;
      /// The block's last statement and its index (-1: none).
      const Stmt *LastStmt = nullptr;
      int LastIndex = -1;
      /// The block ends the program or throws.
      bool EndsPaths = false;
    };
    std::vector<Block> Blocks; ///< By block ID.
  };
  WalkedFunction Walked;
};

} // namespace clang::tidy::cuda

#endif
