//===- LaunchConfigurationInternal.h - Launch analysis parts ----*- C++ -*-===//
//
// Private to the LaunchConfiguration*.cpp files; checks include
// LaunchConfiguration.h. The analysis is kept in files by concern:
//   LaunchConfigurationLaunches.cpp  the launch sites of each kernel: the
//                                    whole-unit collection, launchers read
//                                    once per call, and what every launch
//                                    of a kernel agrees on
//   LaunchConfigurationValues.cpp    reading a value where a launch uses it:
//                                    through locals stored once, dim3 fields,
//                                    parameters bound by a launcher's caller,
//                                    constants and one-return helpers
//   LaunchConfigurationGeometry.cpp  the grid and block of one launch, and
//                                    how the grid covers its extent
//   LaunchConfigurationGridLimits.cpp how a grid that is not a constant
//                                    grows with the data (the limits of
//                                    gridDim.y and .z)
//   LaunchConfigurationQueries.cpp   what the checks ask: coverage, elements
//                                    past an argument or extent, static
//                                    shared memory
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LAUNCHCONFIGURATIONINTERNAL_H
#define CUDA_TIDY_LAUNCHCONFIGURATIONINTERNAL_H

#include "LaunchConfiguration.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/DenseSet.h"
#include <deque>

namespace clang::tidy::cuda {
namespace launch_config {

/// A place values are read in: a function, and the call that bound its
/// parameters (null at the launch's own function).
struct Frame {
  const FunctionDecl *FD = nullptr;
  const CallExpr *Call = nullptr; ///< The call of FD, in Parent.
  const Frame *Parent = nullptr;
  /// The statement of FD at which the launch happens (the launch, or the
  /// call that leads to it); null in a helper read for its return value.
  const Stmt *At = nullptr;
};

/// An expression and the frame it is read in.
struct Val {
  const Expr *E = nullptr;
  const Frame *F = nullptr;
  bool Unknown = false; ///< A component that cannot be read.
  static Val unknown() {
    Val V;
    V.Unknown = true;
    return V;
  }
};

/// How a function uses each of its local variables and parameters.
struct VarUse {
  llvm::SmallVector<const Expr *, 1> Stores; ///< Whole assignments.
  llvm::SmallVector<std::pair<llvm::StringRef, const Expr *>, 3> FieldStores;
  bool Escapes = false; ///< Address taken, incremented, bound to a ref...
};

/// The shape of a grid expression.
struct GridShape {
  enum Kind { None, Floor, Ceil } K = None;
  Val Extent;          ///< The numerator.
  Val Den;             ///< The denominator, when an expression.
  std::optional<int64_t> DenConst;
};

class Collector;

} // namespace launch_config

class LaunchConfiguration::Impl {
  using Frame = launch_config::Frame;
  using Val = launch_config::Val;
  using VarUse = launch_config::VarUse;
  using GridShape = launch_config::GridShape;
  using Collector = launch_config::Collector;

public:
  Impl(ASTContext &Ctx, ThreadIndexAnalysis &Facts);
  ~Impl();

  const KernelLaunches &launchesOf(const FunctionDecl *Kernel);
  llvm::SmallVector<const LaunchSite *, 4> sitesIn(const FunctionDecl *Host);
  llvm::SmallVector<LaunchConfiguration::LimitRaise, 2>
  sharedMemoryLimitRaises(const FunctionDecl *Kernel);

private:
  void collect();
  bool allVisible(const FunctionDecl *Kernel);
  void addSites(const CallExpr *Launch, const FunctionDecl *Host,
                const FunctionDecl *Kernel, KernelLaunches &Out);
  LaunchSite readSite(const CallExpr *Launch, const Frame *Top,
                      const FunctionDecl *Kernel);
  bool isLauncher(const FunctionDecl *FD);

  const Frame *frame(const FunctionDecl *FD, const CallExpr *Call,
                     const Frame *Parent, const Stmt *At) {
    Frames.push_back(Frame{FD, Call, Parent, At});
    return &Frames.back();
  }
  const VarUse *useOf(const VarDecl *VD, const FunctionDecl *FD);
  Val resolve(Val V, unsigned Depth = 0);
  std::optional<int64_t> evaluate(Val V, unsigned Depth = 0,
                                  ConstantSource *From = nullptr);
  bool same(Val A, Val B, unsigned Depth = 0);
  bool components(Val V, Val Out[3], unsigned Depth = 0);
  std::optional<Val> fieldOf(Val Object, llvm::StringRef Field,
                             unsigned Depth);
  GridShape shapeOf(Val G, unsigned Depth = 0);
  GridShape shapeOfCeilCall(const CallExpr *Call, Val G, unsigned Depth);
  bool isMultipleOf(Val X, const GridShape &S);
  void classify(LaunchDimension &D, Val G, Val B, const LaunchSite &Site,
                llvm::ArrayRef<Val> Args);
  void classifyGrowth(LaunchDimension &D, Val G);
  struct Magnitude;
  Magnitude magnitudeOf(Val V, unsigned Depth);
  bool guardedAt(Val V);
  bool callersPassConstants(const FunctionDecl *FD, unsigned Index);
  /// The constant that the branch around frame \p F's launch (or call)
  /// fixes \p VD to: a 'case C:' of 'switch (VD)' reached only through
  /// that label, or the side of 'if (VD == C)' that holds; \p VD is a
  /// parameter or local that nothing changes after its initializer.
  std::optional<Val> fixedByBranch(const VarDecl *VD, const Frame *F);
  /// A parent map of \p FD's body, lambdas written in it included.
  const ParentMap &parentsOf(const FunctionDecl *FD);
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<ParentMap>> ParentMaps;
  /// The calls of each function asked about (callersPassConstants).
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<const CallExpr *, 2>>
      CallsOf;

  ASTContext &Ctx;
  ThreadIndexAnalysis &Facts;
  bool Collected = false;
  std::unique_ptr<Collector> C;
  llvm::DenseSet<const FunctionDecl *> Escaped;
  /// The kernels each function launches (collect()).
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<const FunctionDecl *, 4>>
      KernelsByHost;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<KernelLaunches>> Known;
  llvm::DenseMap<const FunctionDecl *,
                 std::unique_ptr<llvm::DenseMap<const VarDecl *, VarUse>>>
      Uses;
  std::deque<Frame> Frames;
  /// The launch readSite is reading, for ConstantSource::InCaller.
  const Stmt *ReadingLaunch = nullptr;
};

} // namespace clang::tidy::cuda

#endif
