//===- SharedMemoryRacesInternal.h - Parts of SharedMemoryRaces -*- C++ -*-===//
//
// What the parts of the shared-memory race analysis share; not for checks.
// The parts, by concern:
//   SharedMemoryRacesAccesses.cpp   the shared accesses of a kernel's CFG
//                                   and how each is read (flat or per
//                                   subscript), with the helpers below;
//   SharedMemoryRacesIndices.cpp    an index read as a linear form of the
//                                   thread's index or coordinates;
//   SharedMemoryRacesGuards.cpp     the conditions over an access and the
//                                   threads that pass them;
//   SharedMemoryRacesConflicts.cpp  whether two accesses by different
//                                   threads touch one element;
//   SharedMemoryRacesSummaries.cpp  the accesses of the __device__ helpers
//                                   a kernel calls;
//   SharedMemoryRaces.cpp           the walk between barriers, the stores
//                                   of one element by every thread, and
//                                   racesIn(), which the checks ask.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_SHAREDMEMORYRACESINTERNAL_H
#define CUDA_TIDY_SHAREDMEMORYRACESINTERNAL_H

#include "CudaApiModel.h"
#include "SharedMemoryRaces.h"
#include "TemplatePatterns.h"

namespace clang::tidy::cuda {


/// Level 0 is the index itself; level 1 the part multiplied by the stride
/// StrideKey ('ty * width + tx': ty at level 1, tx at level 0).
struct SharedMemoryRaces::Linear {
  int64_t Coord[2][3] = {};
  std::map<std::string, int64_t> Uniform[2];
  std::map<std::string, const Expr *> UniformExprs[2];
  int64_t Const[2] = {};
  std::string StrideKey;

  bool mentionsYZ() const {
    return Coord[0][1] || Coord[0][2] || Coord[1][1] || Coord[1][2];
  }
  bool levelEmpty(int Level) const {
    return !Coord[Level][0] && !Coord[Level][1] && !Coord[Level][2] &&
           Uniform[Level].empty() && !Const[Level];
  }
  void addUniform(int Level, const std::string &Key, int64_t C,
                  const Expr *E) {
    if ((Uniform[Level][Key] += C) == 0) {
      Uniform[Level].erase(Key);
      UniformExprs[Level].erase(Key);
    } else {
      UniformExprs[Level][Key] = E;
    }
  }
};


/// One shared-array access, read both ways: as a one-dimensional index of
/// tid, and as one linear form over (x, y, z) per subscript. Which reading
/// is used is decided per array (chooseReadings).
struct SharedMemoryRaces::Candidate {
  std::optional<Access> Flat;
  std::optional<Access> Multi;
  std::vector<Linear> Forms;
};

namespace smr {

inline constexpr auto &constantOf = ThreadIndexAnalysis::integerConstant;
inline constexpr auto &helperDefinition = deviceHelperDefinition;

using DimIndex = SharedMemoryRaces::DimIndex;
using Linear = SharedMemoryRaces::Linear;

/// The variable \p E names, or null.
const VarDecl *varOf(const Expr *E);
/// Whether sharedArrayOf() may take \p VD for shared memory: a __shared__
/// variable, or a local pointer whose initializer names one (before the
/// checks that the pointer is never changed).
bool mayNameShared(const VarDecl *VD);
/// The block barrier \p S calls, if it is a call of one.
std::optional<BarrierInfo> barrierAt(const Stmt *S);
/// Whether \p Body waits at a block barrier on every pass: a barrier
/// call among its top-level statements.
bool bodyAlwaysWaits(const Stmt *Body);
/// Whether the first test of \p For is true: 'for (i = c0; i op c1; ...)'
/// with constants.
bool firstTestHolds(const ForStmt *For, ASTContext &Ctx);
/// Records in \p A the variables a uniform term \p E reads: their
/// assignments end what the access's guards say.
void noteReadVariables(const Expr *E, SharedMemoryRaces::Access &A);
/// The values the counter \p VD of a for loop whose body holds \p At
/// takes: 'for (int j = c0; j < c1; ++j)' with constants, the counter
/// changed nowhere else in the loop.
std::optional<std::pair<int64_t, int64_t>>
counterRange(const VarDecl *VD, const Stmt *At, const FunctionDecl *FD);
/// Whether \p E names a parameter (of a helper: its value is the caller's).
bool mentionsParameter(const Expr *E);
/// Whether \p E is a lane: a thread's rank in a tile of at most a warp,
/// 'tile.thread_rank()', 't % 32', 't & 31', or a local holding one.
bool isLane(const Expr *E, ASTContext &Ctx, int Depth = 0);
/// Whether \p E mentions a lane (isLane).
bool mentionsLane(const Expr *E, ASTContext &Ctx);
/// The subscript level \p Level of \p L reads, when it has at most one
/// coordinate, with coefficient 1 or -1.
bool toDim(const Linear &L, int Level, DimIndex &D);
/// Splits a flattened index by the constant row width \p W: the terms
/// whose coefficients are multiples of W form the row.
bool splitByWidth(const Linear &L, int64_t W, DimIndex &Row, DimIndex &Col);
/// Whether \p E is blockDim's member \p WantDim.
bool isBlockDim(const Expr *E, unsigned WantDim);
/// An atomic read-modify-write: its target (the pointer argument), and
/// whether the old values it returns are distinct tickets.
struct AtomicUpdate {
  const Expr *Target = nullptr;
  bool Ticket = false;
};
/// The atomic update \p Call makes, in any scope ('atomicAdd_block' too):
/// the atomics among CudaApiModel.def's CUDA_PER_THREAD_RESULT rows, with
/// tickets from its CUDA_TICKET_ATOMIC rows.
std::optional<AtomicUpdate> atomicUpdateOf(const CallExpr *Call);

} // namespace smr

} // namespace clang::tidy::cuda

#endif
