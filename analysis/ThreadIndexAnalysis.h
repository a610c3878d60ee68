//===- ThreadIndexAnalysis.h - Thread indices and their bounds -*- C++ -*-===//
//
// Which integer values in device code derive from the thread coordinates
// (threadIdx, blockIdx, blockDim, gridDim and the cooperative-groups ranks),
// and which upper bounds hold for them on every path to a statement.
//
// The bounds come from a forward "must" data-flow analysis over the clang CFG
// of each function (built once per translation unit by
// TranslationUnitAnalyses): conditions on the edges taken (if, &&, ||, loop
// conditions, ternaries, assert), killed where a variable they mention is
// assigned. Index expressions are read as linear forms, so that a guard on
// 'i' bounds 'i - 1' but not 'i + 1', and 'i < n - 1' bounds 'i + 1'.
//
// Checks ask three questions: valueOf (is it thread-derived, from what),
// boundsAt (the facts on every path to a statement) and classifyIndex (is
// the value used at a statement bounded above, and if not, which part is
// not). Unknown facts are reported as bounded: callers stay silent.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_THREADINDEXANALYSIS_H
#define CUDA_TIDY_THREADINDEXANALYSIS_H

#include "FunctionCfg.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <deque>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// What a thread-derived value is made of. A bit set.
enum ThreadSource : unsigned {
  TS_None = 0,
  TS_ThreadInBlock = 1u << 0, ///< threadIdx, block and tile ranks.
  TS_BlockInGrid = 1u << 1,   ///< blockIdx, grid_group::block_rank().
  TS_BlockDim = 1u << 2,      ///< blockDim, thread_block::size().
  TS_GridDim = 1u << 3,       ///< gridDim, grid_group::size().
  TS_GridRank = 1u << 4,      ///< grid_group::thread_rank().
};
constexpr unsigned TS_AnyIndex =
    TS_ThreadInBlock | TS_BlockInGrid | TS_GridRank;

/// The thread-derived part of a value.
struct ThreadValue {
  unsigned Sources = 0; ///< ThreadSource bits.
  unsigned Dims = 0;    ///< Dimensions of the index sources: 1 x, 2 y, 4 z.
  /// Exactly one coordinate within its own range (threadIdx.x, blockIdx.y,
  /// a block rank), possibly through a variable: it indexes per-block or
  /// per-grid data by construction and needs no guard.
  bool Trivial = false;
  /// Bits of the parameters of the analysed function it depends on (used
  /// for summaries of helpers).
  uint64_t Params = 0;

  bool isIndex() const { return Sources & TS_AnyIndex; }
};

/// One side of a comparison read as sum(Coeff * product(Factors)) + Const.
struct LinearForm {
  struct Term {
    llvm::SmallVector<const Expr *, 2> Factors;
    std::string Key; ///< Of the product, independent of factor order.
    int64_t Coeff = 1;
    /// The expression the term was written as ('t * TILE'), when it was
    /// written as one.
    const Expr *Origin = nullptr;
    /// Whether the term is minus Origin ('a - t * TILE'), rather than
    /// Origin itself ('-x' is its own origin).
    bool OriginNegated = false;
  };
  llvm::SmallVector<Term, 4> Terms;
  int64_t Const = 0;
  /// The key of the non-constant part, independent of term order.
  std::string key() const;
};

/// A fact that holds on every path to a point.
struct BoundFact {
  enum Kind {
    Less,     ///< LHS < RHS + RHSConst (RHS without its constant).
    NotEqual, ///< LHS != RHS + RHSConst.
    Multiple  ///< LHS % RHS == 0 (keys include constants).
  } K = Less;
  std::string LHSKey, RHSKey;
  int64_t RHSConst = 0;
  const Expr *Guard = nullptr; ///< The condition that established it.
  const Expr *Bound = nullptr; ///< The bounding expression as written.
  llvm::SmallVector<const VarDecl *, 4> Vars; ///< Variables it mentions.
};

using FactList = std::vector<const BoundFact *>;

/// Whether the value of an index used at a point is bounded above.
struct IndexVerdict {
  enum Kind {
    NotThreadDerived, ///< Or derived trivially (threadIdx.x alone).
    Bounded,          ///< Bounded, or unknown.
    Unbounded,        ///< Some thread-derived part has no upper bound.
    PastBound,        ///< Bounded, but the guard lets it reach the bound.
  } K = NotThreadDerived;
  /// Unbounded: the parts with no bound (a row, a column), where they are
  /// and as written.
  llvm::SmallVector<const Expr *, 2> Unguarded;
  llvm::SmallVector<std::string, 2> UnguardedText;
  /// Unbounded: whether no part of the index is bounded.
  bool Whole = false;
  /// PastBound: the fact whose bound the index can reach.
  const BoundFact *Fact = nullptr;
  /// PastBound: how far the index can reach past the fact's bound: it is
  /// at most Fact->Bound + Reach - 1, so a buffer needs Bound + Reach
  /// elements.
  int64_t Reach = 0;
  /// The constant added to the whole index (1 for 'i + 1').
  int64_t Offset = 0;
  /// ThreadValue::Dims of the unguarded parts.
  unsigned Dims = 0;
};

/// The analysis of one translation unit, shared by the checks and the launch
/// analysis through TranslationUnitAnalyses::threadIndex(); CFGs come from
/// TranslationUnitAnalyses.
class ThreadIndexAnalysis {
public:
  explicit ThreadIndexAnalysis(ASTContext &Ctx);
  ~ThreadIndexAnalysis();

  /// What \p E, evaluated in \p FD, derives from.
  ThreadValue valueOf(const Expr *E, const FunctionDecl *FD);
  /// The facts that hold on every path to \p S in \p FD; null when \p S is
  /// not in \p FD's CFG or is unreachable.
  const FactList *boundsAt(const Stmt *S, const FunctionDecl *FD);
  /// Whether the value of \p Index, used at \p At in \p FD, is bounded.
  /// \p ExtraOffset is added to the index (a helper's 'i + 1').
  IndexVerdict classifyIndex(const Expr *Index, const Stmt *At,
                             const FunctionDecl *FD, int64_t ExtraOffset = 0);
  /// The fact bounding exactly the non-constant part of \p E at \p At, if
  /// any: used for symbolic values such as a helper's index parameter.
  const BoundFact *boundOn(const Expr *E, const Stmt *At,
                           const FunctionDecl *FD);
  /// The constant part of \p E read as a linear form ('i + 1' gives 1).
  int64_t constantPart(const Expr *E);
  /// A key of the non-constant part of \p E: equal for 'i + 1' and 'i'.
  std::string variablePartKey(const Expr *E);
  /// Whether \p A is known to be a multiple of \p B at \p At.
  bool isKnownMultiple(const Expr *A, const Expr *B, const Stmt *At,
                       const FunctionDecl *FD);

  /// Whether \p VD is assigned, incremented or has its address taken in
  /// \p FD after its declaration.
  bool isModified(const VarDecl *VD, const FunctionDecl *FD);
  /// The value of \p E when it is an integer constant expression.
  static std::optional<int64_t> integerConstant(const Expr *E,
                                                const ASTContext &Ctx);
  /// \p E without parentheses, casts, cleanups and temporaries.
  static const Expr *strip(const Expr *E);
  /// The read of a coordinate or extent: threadIdx.y, b.thread_rank();
  /// sets \p Source and \p Dim (0, 1, 2).
  static bool isThreadQuery(const Expr *E, ThreadSource &Source,
                            unsigned &Dim);
  /// Whether \p E, evaluated in \p FD, is one coordinate of the thread in
  /// its block: threadIdx.x/y/z, thread_block::thread_index().x/y/z, a dim3
  /// variable holding thread_index(), or a local variable initialized with
  /// one of those and never modified. Sets \p Dim (0, 1, 2). Ranks
  /// (thread_rank()) are not coordinates.
  bool threadCoordinate(const Expr *E, const FunctionDecl *FD,
                        unsigned &Dim);
  /// \p E as written, on one line. Inside a macro: the macro's use when
  /// \p E is all of it, the macro's own spelling when \p E is within one
  /// macro body, and otherwise \p E printed from the AST.
  static std::string textOf(const Expr *E, const ASTContext &Ctx);
  /// textOf(E), in parentheses unless \p E binds at least as tightly as
  /// an operator of precedence \p MinLevel (a prec::Level): the operand
  /// of '>=' needs prec::Shift, a term of a sum prec::Additive.
  static std::string textOf(const Expr *E, const ASTContext &Ctx,
                            unsigned MinLevel);
  /// The precedence (prec::Level) of the operator at the top of \p E, as
  /// written; primary and postfix expressions, and unary operators, rank
  /// above every binary operator.
  static unsigned precedenceOf(const Expr *E);
  /// Whether \p FD returns the smaller of its arguments (min).
  static bool isIndexClamp(const FunctionDecl *FD);

  struct Subst;
  struct FunctionFacts;

private:
  static constexpr unsigned MaxValueDepth = 256;
  ThreadValue valueOfExpr(const Expr *E, const FunctionDecl *FD);
  FunctionFacts &factsOf(const FunctionDecl *FD);
  /// \p E read as a linear form, outside any call's substitution: built
  /// once per expression (the form depends on the expression alone).
  const LinearForm &linearOf(const Expr *E);
  friend class IndexClassifier;

  ASTContext &Ctx;
  std::map<const FunctionDecl *, std::unique_ptr<FunctionFacts>> Functions;
  llvm::DenseMap<const FunctionDecl *, ThreadValue> ReturnSummaries;
  llvm::DenseMap<const FunctionDecl *, bool> SummaryInProgress;
  /// Whether a '%' can reach a condition of each function (isKnownMultiple).
  llvm::DenseMap<const FunctionDecl *, bool> MentionsRemainder;
  /// linearOf(), by the expression without parentheses and casts.
  llvm::DenseMap<const Expr *, std::unique_ptr<LinearForm>> LinearForms;
  /// How deep valueOf() is: past a limit a value is taken as not derived
  /// from the thread (unknown, so the checks stay silent) instead of
  /// recursing on.
  unsigned ValueDepth = 0;
};

} // namespace clang::tidy::cuda

#endif
