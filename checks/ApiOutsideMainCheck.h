//===- ApiOutsideMainCheck.h ------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_APIOUTSIDEMAINCHECK_H
#define CUDA_TIDY_APIOUTSIDEMAINCHECK_H

#include "CudaFunctionCheck.h"
#include "CudaUseReachability.h"
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
  };
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { Scanned = false; }
  void scanTranslationUnit(ASTContext &Ctx);
  void checkVariable(const VarDecl *VD, llvm::ArrayRef<const Expr *> Stores,
                     ASTContext &Ctx);
  void report(const std::vector<CudaUse> &Uses, const Root &R,
              ASTContext &Ctx);

  const bool CheckInitializers;
  bool Scanned = false;
  std::unique_ptr<CudaUseReachability> Reach;
};

} // namespace clang::tidy::cuda

#endif
