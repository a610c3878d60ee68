//===- FunctionCfg.h - Per-function CFGs shared by all checks ---*- C++ -*-===//
//
// Every flow analysis in cuda-tidy runs on the clang CFG of one function.
// TranslationUnitAnalyses builds that CFG once per function and translation
// unit, whichever check asks first, and keeps the facts about the whole
// translation unit that summaries need (who calls whom).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_FUNCTIONCFG_H
#define CUDA_TIDY_FUNCTIONCFG_H

#include "ArchConditionals.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FunctionExtras.h"
#include <memory>
#include <optional>

namespace clang {
class ControlDependencyCalculator;
} // namespace clang

namespace clang::tidy::cuda {

class MemorySpaceAnalysis;
class AsyncWorkAnalysis;
class LaunchConfiguration;
class ThreadIndexAnalysis;
class TorchTensorAnalysis;
class TranslationUnitScan;

/// A point in a CFG: element \c Index of \c Block.
struct CfgPoint {
  const CFGBlock *Block = nullptr;
  unsigned Index = 0;
};

/// The CFG of one function definition, with lookups from statements to
/// their place in it.
class FunctionCfg {
public:
  FunctionCfg(const FunctionDecl *FD, std::unique_ptr<CFG> Graph);
  ~FunctionCfg();

  const FunctionDecl *function() const { return Function; }
  const CFG &graph() const { return *Graph; }
  /// The parent of each statement in the body; built on first use.
  const ParentMap &parents() const;

  /// Where \p S is evaluated, when it is an element of the CFG.
  std::optional<CfgPoint> pointOf(const Stmt *S) const;
  /// Where the declaration of \p VD is evaluated.
  std::optional<CfgPoint> declarationPointOf(const VarDecl *VD) const;

  /// Whether some reference to \p VD in the body does more than load its
  /// value, assign to it or increment it (takes its address, binds a
  /// reference to it, ...), or a lambda captures it: its value may then be
  /// read or changed out of the CFG's sight. Computed for every variable on
  /// first use.
  bool hasIndirectUse(const VarDecl *VD) const;

  /// Whether some path from the entry reaches \p B. The CFG drops the
  /// edges of conditions that fold to a constant, so the branch of
  /// `if (N >= 1024)` with a smaller constant N is unreachable.
  bool isReachable(const CFGBlock *B) const;

  /// The value \p VD holds at \p At when one store reaches it on every
  /// path: its initializer or a plain assignment. Null when different
  /// writes reach it, when the one that does is another kind of write
  /// ('+=', '++'), or when \p VD has an indirect use.
  const Expr *uniqueReachingStore(const VarDecl *VD, const Stmt *At) const;
  /// Whether one write of \p VD, of any kind, reaches \p At on every path.
  bool hasUniqueReachingWrite(const VarDecl *VD, const Stmt *At) const;

  /// The blocks whose two-way condition decides whether \p B runs (its
  /// control dependencies; '?:' terminators excluded), or none when control
  /// dependence is unknown because some block cannot reach the exit (an
  /// endless loop). The dominator trees are built on first use.
  std::optional<llvm::SmallVector<const CFGBlock *, 4>>
  controlDependencies(const CFGBlock *B) const;

  /// The order in which forEachTransitiveControlDependency visits blocks.
  enum class DependencyOrder {
    /// The last block found is expanded first.
    DepthFirst,
    /// Nearest first: the direct dependencies of \p B, then theirs, ...
    BreadthFirst,
  };
  /// Visits every block that decides, through control dependence followed
  /// transitively, whether \p B runs: each block once, when first found,
  /// expanding the blocks found in \p Order. \p B itself is visited only
  /// when it depends on itself (a loop's condition). \p Visit returns
  /// false to stop the walk. Returns true when every dependency was
  /// visited; false when \p Visit stopped the walk or when control
  /// dependence is unknown (see controlDependencies), which may happen
  /// after some blocks were visited.
  bool forEachTransitiveControlDependency(
      const CFGBlock *B, llvm::function_ref<bool(const CFGBlock *Dep)> Visit,
      DependencyOrder Order = DependencyOrder::BreadthFirst) const;

  /// The if or loop whose condition \p Terminator is part of (through
  /// '&&' and '||').
  static const Stmt *owningStatement(const Stmt *Terminator,
                                     const ParentMap &PM);
  /// Whether \p Inner is \p Outer or lies within it.
  static bool contains(const Stmt *Outer, const Stmt *Inner,
                       const ParentMap &PM);

  /// The statement of a CFG element, or null for other element kinds.
  static const Stmt *stmtOf(const CFGElement &E) {
    if (auto S = E.getAs<CFGStmt>())
      return S->getStmt();
    return nullptr;
  }

  /// Visits the points after \p From along every path, in no fixed order,
  /// each at most once. \p Visit returns true to stop following a path at
  /// that point. \p AtExit is called once per path that reaches the exit
  /// block, with the last statement before it (may be null); it returns
  /// true to stop the whole walk. A path that reaches a noreturn call
  /// (exit, abort) ends there.
  void walkForward(
      CfgPoint From, llvm::function_ref<bool(const Stmt *, CfgPoint)> Visit,
      llvm::function_ref<bool(const Stmt *LastStmt)> AtExit) const;

  /// The same walk, from the function's entry.
  void walkFromEntry(
      llvm::function_ref<bool(const Stmt *, CfgPoint)> Visit,
      llvm::function_ref<bool(const Stmt *LastStmt)> AtExit) const;

private:
  /// The one write of \p VD that reaches \p At on every path: 1 a store
  /// of \p Value, 2 another write, 0 none or several.
  int reachingWrite(const VarDecl *VD, const Stmt *At,
                    const Expr *&Value) const;
  void walk(const CFGBlock *StartBlock, unsigned StartIndex,
            llvm::function_ref<bool(const Stmt *, CfgPoint)> Visit,
            llvm::function_ref<bool(const Stmt *LastStmt)> AtExit) const;

  const FunctionDecl *Function;
  std::unique_ptr<CFG> Graph;
  mutable std::unique_ptr<ParentMap> Parents;
  mutable std::optional<llvm::DenseSet<const VarDecl *>> IndirectlyUsed;
  mutable std::optional<llvm::DenseSet<const CFGBlock *>> Reachable;
  mutable std::unique_ptr<ControlDependencyCalculator> Deps;
  mutable std::optional<bool> DepsKnown;
  /// A point packed in 64 bits (block ID, index): the map of every
  /// statement of a large CFG is a third smaller than with CfgPoint.
  static uint64_t pack(const CFGBlock *B, unsigned Index) {
    return uint64_t(B->getBlockID()) << 32 | Index;
  }
  CfgPoint unpack(uint64_t P) const {
    return CfgPoint{BlocksById[P >> 32], unsigned(P)};
  }
  std::vector<const CFGBlock *> BlocksById;
  llvm::DenseMap<const Stmt *, uint64_t> Points;
  llvm::DenseMap<const VarDecl *, uint64_t> DeclPoints;
};

/// Facts about one translation unit, built on demand and cached until the
/// next translation unit starts.
class TranslationUnitAnalyses {
public:
  /// The analyses of the translation unit that owns \p Ctx.
  static TranslationUnitAnalyses &get(ASTContext &Ctx);
  /// Drops all cached facts. Checks call it when a translation unit starts.
  static void reset();
  /// Forgets this thread's analyses without freeing them. The driver calls
  /// it after the last translation units of a run, when the process exits
  /// next: freeing a large unit's facts only costs time (clang's
  /// -disable-free). Sanitized builds free them.
  static void releaseWithoutFreeing();

  /// Tells the cache that the analysis of a new function, \p FD, starts
  /// (checks call it first thing in check()). Past 4,096 CFGs the quarter
  /// used least recently is dropped, so that memory stays bounded on very
  /// large files; every check analyses a matched function in turn, so its
  /// CFG is still built once.
  void startFunction(const FunctionDecl *FD);
  /// startFunction(FD), then cfgOf(FD): what a check's check() calls for the
  /// function it matched.
  const FunctionCfg *beginFunction(const FunctionDecl *FD) {
    startFunction(FD);
    return cfgOf(FD);
  }

  /// The CFG of \p FD's definition, or null when it has no body or no CFG
  /// could be built. Valid until the next startFunction() for another
  /// function: an analysis that keeps per-function facts across functions
  /// holds the CFG through sharedCfgOf() instead.
  const FunctionCfg *cfgOf(const FunctionDecl *FD) {
    return sharedCfgOf(FD).get();
  }
  /// The same CFG, kept alive for as long as the caller holds it.
  std::shared_ptr<const FunctionCfg> sharedCfgOf(const FunctionDecl *FD);

  /// The value of \p E when it folds to an integer constant
  /// (Expr::EvaluateAsInt, without side effects), memoized.
  std::optional<int64_t> integerConstant(const Expr *E);

  /// Whether a function defined in this translation unit (outside system
  /// headers) calls \p FD directly.
  bool hasKnownCallers(const FunctionDecl *FD);
  /// Whether \p FD is used other than by a direct call (its address is
  /// taken), so that its callers cannot all be known.
  bool isAddressTaken(const FunctionDecl *FD);
  /// Whether the translation unit instantiates the template pattern
  /// \p Pattern (a definition in a dependent context) with a body.
  bool hasInstantiationOf(const FunctionDecl *Pattern);

  /// Whether \p FD, or a function it reaches through direct calls and
  /// constructions outside system headers, has a body that clang skipped.
  /// clangd parses the headers of a file's preamble without function bodies
  /// (docs/editors.md): what such a body does is unknown there, and an
  /// analysis that would look into it must not read "no body" as "does
  /// nothing" (ResultUse.cpp: a call that reaches one may examine the last
  /// error).
  bool reachesSkippedBody(const FunctionDecl *FD);

  ASTContext &context() { return Ctx; }

  /// The memory-space analysis of this translation unit (see
  /// MemorySpaceAnalysis.h), created on first use.
  MemorySpaceAnalysis &memorySpaces(const ArchConditionals &Arch);
  /// The queued-work analysis (see AsyncWorkAnalysis.h), created on first use.
  AsyncWorkAnalysis &asyncWork(const ArchConditionals &Arch);
  /// The launch analysis (see LaunchConfiguration.h), created on first use.
  LaunchConfiguration &launches();
  /// The thread-index analysis (see ThreadIndexAnalysis.h), created on
  /// first use and shared by every check and the launch analysis.
  ThreadIndexAnalysis &threadIndex();
  /// PyTorch tensors at the Python boundary, shared by the torch checks.
  TorchTensorAnalysis &torchTensors();
  /// The recorded walk of the translation unit (TranslationUnitScan.h) that
  /// the analyses' whole-unit scans replay.
  TranslationUnitScan &scan();

  ~TranslationUnitAnalyses();

private:
  explicit TranslationUnitAnalyses(ASTContext &Ctx);
  void buildCallGraph();

  ASTContext &Ctx;
  const FunctionDecl *CurrentFunction = nullptr;
  llvm::DenseMap<const FunctionDecl *, std::shared_ptr<const FunctionCfg>>
      Cfgs;
  /// When each CFG in Cfgs was last asked for, on a counter.
  llvm::DenseMap<const FunctionDecl *, uint64_t> LastUse;
  uint64_t UseCounter = 0;
  llvm::DenseMap<const Expr *, std::optional<int64_t>> IntegerConstants;
  llvm::DenseMap<const FunctionDecl *, bool> Analysable;
  friend bool isAnalysableFunction(const FunctionDecl *FD,
                                   const SourceManager &SM);
  bool CallGraphBuilt = false;
  /// Whether any body may be skipped: the traversal scope is not the whole
  /// translation unit (unset until asked).
  std::optional<bool> MaySkipBodies;
  llvm::DenseMap<const FunctionDecl *, bool> ReachesSkipped;
  llvm::DenseSet<const FunctionDecl *> Called;
  llvm::DenseSet<const FunctionDecl *> AddressTaken;
  llvm::DenseSet<const FunctionDecl *> InstantiatedPatterns;
  std::unique_ptr<MemorySpaceAnalysis> MemorySpaces;
  std::unique_ptr<AsyncWorkAnalysis> AsyncWork;
  std::unique_ptr<ThreadIndexAnalysis> ThreadIndex;
  std::unique_ptr<LaunchConfiguration> Launches;
  std::unique_ptr<TorchTensorAnalysis> TorchTensors;
  std::unique_ptr<TranslationUnitScan> Scan;
};

/// Whether \p FD's body should be analysed: a definition not in a system
/// header that is either not a template pattern or a pattern the
/// translation unit never instantiates (isUninstantiatedPattern; checks
/// are given those only when their Traits ask for them).
bool isAnalysableFunction(const FunctionDecl *FD, const SourceManager &SM);

/// Whether \p Call calls a device helper of the program whose body did not
/// compile (or that calls one): device code reads its helpers' bodies, so
/// such a device function is not analysable.
bool callsHelperThatDidNotCompile(const CallExpr *Call,
                                  const SourceManager &SM);
/// Whether device function \p FD holds such a call.
bool callsHelperThatDidNotCompile(const FunctionDecl *FD,
                                  const SourceManager &SM);

/// Whether the analysed compilation sees \p FD's body whole: no part of it
/// was skipped by a __CUDA_ARCH__ conditional. Path facts about a function
/// that is not whole are unknown.
bool isSeenWhole(const FunctionDecl *FD, const SourceManager &SM,
                 const ArchConditionals &Arch);

} // namespace clang::tidy::cuda

#endif
