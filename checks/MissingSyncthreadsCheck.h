//===- MissingSyncthreadsCheck.h --------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_MISSINGSYNCTHREADSCHECK_H
#define CUDA_TIDY_MISSINGSYNCTHREADSCHECK_H

#include "CudaFunctionCheck.h"
#include "ThreadIndexAnalysis.h"
#include "VariableStores.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>
#include <vector>

namespace clang::tidy::cuda {

/// Finds shared-memory elements that one thread writes and another thread
/// reads, or reads and another thread then overwrites, with no barrier
/// between on some path.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-missing-syncthreads.md
class MissingSyncthreadsCheck : public CudaFunctionCheck {
public:
  MissingSyncthreadsCheck(StringRef Name, ClangTidyContext *Context)
      : CudaFunctionCheck(Name, Context, {FunctionScope::Kernels}) {}

  /// One subscript of a multi-dimensional element access, read as
  /// Coeff * t[Coord] + sum(Uniform) + Const, where t is the thread's
  /// (x, y, z) coordinate in its block and Coord is -1 when it has none.
  struct DimIndex {
    int Coord = -1;
    int64_t Coeff = 0;
    std::map<std::string, int64_t> Uniform;
    std::map<std::string, const Expr *> UniformExprs;
    int64_t Const = 0;
  };

  /// One read or write of a __shared__ array. One-dimensional arrays
  /// indexed by the one-dimensional thread index have their index read as
  /// Coeff * tid + sum(Uniform) + Const; multi-dimensional ones, and
  /// flattened tiles indexed by threadIdx.y or .z, have Dims instead.
  struct Access {
    const Expr *At = nullptr;      ///< The subscript.
    const Stmt *Point = nullptr;   ///< The CFG element where it happens.
    const VarDecl *Array = nullptr;
    bool Read = false, Write = false;
    int64_t Coeff = 0;
    const Expr *Thread = nullptr;  ///< The tid expression, when Coeff != 0.
    std::map<std::string, int64_t> Uniform; ///< Term text -> coefficient.
    std::map<std::string, const Expr *> UniformExprs;
    llvm::SmallVector<const VarDecl *, 2> Vars; ///< Variables in Uniform.
    int64_t Const = 0;
    bool Multi = false;
    llvm::SmallVector<DimIndex, 3> Dims;
  };
  /// A linear form over the thread coordinates, with a part multiplied by
  /// a non-constant uniform stride (Level 1).
  struct Linear;

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Reported.clear(); }
  bool readLinear(const Expr *E, int64_t Coeff, int Level, Linear &L,
                  Access &A, const FunctionDecl *FD, ASTContext &Ctx,
                  int Depth);
  bool conflictsMulti(const Access &First, const Access &Second,
                      bool GuardsHold, const FunctionDecl *FD);
  bool separatesThreads(const Access &At, const Access &First,
                        const Access &Second, const FunctionDecl *FD);
  bool harmlessBound(const Expr *Bound, const Access &First,
                     const Access &Second, const FunctionDecl *FD);
  bool harmlessCondition(const Expr *Cond, const Access &First,
                         const Access &Second, const FunctionDecl *FD);
  bool varies(const Expr *E, const FunctionDecl *FD);
  bool readIndex(const Expr *E, int64_t Coeff, Access &A,
                 const FunctionDecl *FD, ASTContext &Ctx);
  bool isThreadId(const Expr *E, const FunctionDecl *FD);
  bool isUniform(const Expr *E, const FunctionDecl *FD, int Depth);
  /// Whether First then Second (by other threads) conflict; sets the
  /// hazard kind. \p GuardsHold: no variable of the guards changed between.
  bool conflicts(const Access &First, const Access &Second, bool GuardsHold,
                 const FunctionDecl *FD);
  bool guardedBelow(const Access &A, const std::string &RHSKey, int64_t Max,
                    const FunctionDecl *FD);
  bool hasThreadGuard(const Access &At, const Expr *Thread,
                      const FunctionDecl *FD);
  int64_t warpBound(const Access &A, const FunctionDecl *FD);
  bool mentionsThread(const Expr *E, const FunctionDecl *FD);
  bool writerIsOneThread(const Access &W, const FunctionDecl *FD);
  /// Whether \p A is made by one thread only, under 'if (tid == Thread)'.
  bool onlyThread(const Access &A, const FunctionDecl *FD, int64_t &Thread);
  /// Whether \p VD is the counter of a for loop whose body holds \p At.
  bool isEnclosingLoopCounter(const VarDecl *VD, const Stmt *At,
                              const FunctionDecl *FD);
  bool readsOtherThreadsElement(const Access &Reader, const Access &Writer,
                                const FunctionDecl *FD);

  struct Candidate;
  std::vector<Candidate> collectCandidates(const FunctionCfg &Cfg,
                                           const FunctionDecl *FD,
                                           ASTContext &Ctx);
  std::vector<Access> chooseReadings(std::vector<Candidate> &Candidates);
  void reportConflicts(const std::vector<Access> &Accesses,
                       const FunctionCfg &Cfg, const FunctionDecl *FD,
                       ASTContext &Ctx);

  /// The stores of the function being checked.
  const VariableStores *CurrentStores = nullptr;
  /// This translation unit's, set by checkFunction().
  ThreadIndexAnalysis *Analysis = nullptr;
  llvm::DenseSet<const Expr *> Reported;
};

} // namespace clang::tidy::cuda

#endif
