//===- CudaUseReachability.h - CUDA calls a host function reaches -*- C++ -*-===//
//
// Which CUDA runtime and driver calls, kernel launches and __managed__
// accesses run when a host function is called: in its own body, and in the
// functions of this translation unit it calls, directly or not (calls,
// constructions, destructions). For checks about code that runs where CUDA
// must not be used: outside main, in stream callbacks.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CUDAUSEREACHABILITY_H
#define CUDA_TIDY_CUDAUSEREACHABILITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <memory>
#include <vector>

namespace clang::tidy::cuda {

/// One use of CUDA in a function body.
struct CudaUse {
  enum Kind { ApiCall, Launch, ManagedAccess };
  Kind K;
  const Expr *At;                     ///< The call or the variable reference.
  const FunctionDecl *Callee = nullptr; ///< ApiCall: the function; Launch: the kernel.
  const VarDecl *Managed = nullptr;   ///< ManagedAccess: the variable.
  /// The function whose body holds it, and the call in the root function
  /// through which it is reached (null when it is in the root itself).
  const FunctionDecl *In = nullptr;
  const Expr *Through = nullptr;
  /// ApiCall: the function holding the call compares a status with the
  /// runtime's shutdown status (cudaErrorCudartUnloading), so it expects to
  /// run while the runtime unloads.
  bool ExpectsShutdown = false;
};

class CudaUseReachability {
public:
  explicit CudaUseReachability(ASTContext &Ctx) : Ctx(Ctx) {}

  /// The uses of CUDA that running \p Root may execute, each once, in the
  /// order of the source. A destructor includes the destructors of its
  /// members and bases. Lambda bodies are not followed (a lambda runs only
  /// when called).
  std::vector<CudaUse> reachableFrom(const FunctionDecl *Root);
  /// The same for evaluating \p E (a variable's initializer).
  std::vector<CudaUse> reachableFromExpr(const Expr *E);

  /// What comes first, in the order of the source, when \p Root runs (or
  /// \p E is evaluated): a use of CUDA that sets the runtime up (a call or
  /// a launch), or the construction of the static local \p Target. Calls
  /// are followed into this translation unit's functions; branches and
  /// loops are read in source order, as if their first arm ran. A CUDA use
  /// that comes first is answered only when the root goes on to construct
  /// the target (None otherwise).
  struct FirstEvent {
    enum Kind { None, Cuda, Construction } K = None;
    /// The CUDA call or launch, or the declaration statement of Target.
    const Stmt *At = nullptr;
    /// The expression of the root's own body that leads to it (null when
    /// it is in the root itself).
    const Expr *Through = nullptr;
  };
  FirstEvent firstEvent(const FunctionDecl *Root, const VarDecl *Target);
  FirstEvent firstEventIn(const Expr *E, const VarDecl *Target);

  /// The functions of this translation unit that destroying an object of
  /// type \p T runs: its destructor, and for what it owns through standard
  /// smart pointers (also inside standard containers, pairs and tuples) the
  /// deleter its type names or the owned object's destructor.
  static std::vector<const FunctionDecl *>
  destructionOf(QualType T, const SourceManager &SM);
  /// The deleter that \p E installs in a standard smart pointer: the
  /// argument passed after the pointer to its constructor or to reset(),
  /// anywhere in \p E (namedFunction says which function it is). Null
  /// when none.
  static const Expr *installedDeleter(const Expr *E);
  /// Whether \p T is std::unique_ptr or std::shared_ptr.
  static bool isStdSmartPointer(QualType T);

private:
  struct Body {
    std::vector<CudaUse> Uses;
    /// The same-TU functions it may run, with the expression that runs them.
    std::vector<std::pair<const FunctionDecl *, const Expr *>> Callees;
  };
  const Body &bodyOf(const FunctionDecl *FD);
  /// The uses of \p Start (whose own uses are In \p Root) and of what it
  /// calls.
  std::vector<CudaUse> reachableFromBody(const Body &Start,
                                         const FunctionDecl *Root);

  /// The events of a body in evaluation order: a CUDA use (Callee null,
  /// Var null), a call of a function of this translation unit (Callee), or
  /// the declaration of a static local (Var).
  struct Event {
    const Stmt *At;
    const FunctionDecl *Callee = nullptr;
    const VarDecl *Var = nullptr;
  };
  const std::vector<Event> &eventsOf(const FunctionDecl *FD);
  /// Whether running \p FD may construct the static local \p Target.
  bool constructs(const FunctionDecl *FD, const VarDecl *Target,
                  llvm::SmallPtrSetImpl<const FunctionDecl *> &Visited,
                  unsigned Depth);
  FirstEvent firstInEvents(const std::vector<Event> &Events,
                           const VarDecl *Target,
                           llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
                           unsigned Depth);

  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<Body>> Bodies;
  llvm::DenseMap<const FunctionDecl *, std::vector<Event>> Events;
};

/// Whether \p FD's body is part of the program analysed: a definition
/// outside system headers.
bool isUserFunction(const FunctionDecl *FD, const SourceManager &SM);

/// The function \p E names: a function, `&function`, or a lambda without
/// captures converted to a function pointer (its call operator).
const FunctionDecl *namedFunction(const Expr *E);

} // namespace clang::tidy::cuda

#endif
