//===- ApiOutsideMainCheck.h ------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_APIOUTSIDEMAINCHECK_H
#define CUDA_TIDY_APIOUTSIDEMAINCHECK_H

#include "CudaFunctionCheck.h"
#include "CudaUseReachability.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds CUDA runtime and driver calls and kernel launches that run before
/// main starts or after it returns: in the initializers and destructors of
/// objects with static or thread storage duration, in functions registered
/// with atexit or at_quick_exit, and in functions with the constructor or
/// destructor attribute, followed through calls of this translation unit.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-api-outside-main.md
class ApiOutsideMainCheck : public CudaFunctionCheck {
public:
  ApiOutsideMainCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  /// Code that runs outside main, and what runs it.
  struct Root {
    enum Kind { Initializer, Destructor, ExitHandler, CtorAttr, DtorAttr };
    Kind K;
    const NamedDecl *Named; ///< The variable or the function.
    SourceLocation NoteAt;  ///< The variable or the registration.
    /// Destructor: when the object was constructed relative to the CUDA
    /// runtime's set-up, whose teardown runs in the reverse order.
    enum Order {
      UnknownOrder,   ///< Not known (a thread_local, a static local that
                      ///< main does not reach, a library without main).
      BeforeRuntime,  ///< Constructed before the first CUDA call: destroyed
                      ///< after the runtime's teardown.
      AfterRuntime,   ///< Constructed after the runtime was set up (by its
                      ///< own constructor or earlier): destroyed before.
    } When = UnknownOrder;
    /// BeforeRuntime: main's call that first constructs a static local;
    /// AfterRuntime: the CUDA call that sets the runtime up.
    const Stmt *OrderAt = nullptr;
  };
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Scanned = false; }
  void scanTranslationUnit(ASTContext &Ctx);
  void checkVariable(const VarDecl *VD, llvm::ArrayRef<const Expr *> Stores,
                     ASTContext &Ctx);
  /// When \p VD is constructed relative to the runtime's set-up.
  void constructionOrder(const VarDecl *VD, Root &R);
  void report(const std::vector<CudaUse> &Uses, const Root &R,
              ASTContext &Ctx);

  const bool CheckInitializers;
  const bool ReportOrderDependent;
  bool Scanned = false;
  const FunctionDecl *Main = nullptr;
  bool CtorAttrUsesCuda = false;
  /// The first namespace-scope variable of this translation unit, in the
  /// order of initialization, whose initializer uses CUDA, and that use.
  const VarDecl *RuntimeInitVar = nullptr;
  const Stmt *RuntimeInitAt = nullptr;
  /// The namespace-scope variables initialized before RuntimeInitVar.
  llvm::SmallPtrSet<const VarDecl *, 16> InitializedEarlier;
  std::unique_ptr<CudaUseReachability> Reach;
};

} // namespace clang::tidy::cuda

#endif
