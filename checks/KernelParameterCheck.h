//===- KernelParameterCheck.h -----------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_KERNELPARAMETERCHECK_H
#define CUDA_TIDY_KERNELPARAMETERCHECK_H

#include "CudaFunctionCheck.h"
#include "llvm/ADT/DenseMap.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// Finds kernel parameters that cannot carry their argument to the device:
/// references (unless every launch binds them to __managed__ variables),
/// values of polymorphic or not trivially copyable types, and launches that
/// pass the address of a host function (host variables' addresses are
/// cuda-wrong-memory-space's).
///
/// For the user-facing documentation see:
/// docs/checks/cuda-kernel-parameter.md
class KernelParameterCheck : public CudaFunctionCheck {
public:
  KernelParameterCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

  /// Why a type cannot be copied to the device bit by bit: the chain of
  /// members and bases that leads to the culprit.
  struct Reason {
    bool Polymorphic = false;
    /// The members and bases on the way, outermost first: the member (null
    /// for a base), its type, and where it is written.
    struct Step {
      const FieldDecl *Member;
      QualType Type;
      SourceLocation Loc;
    };
    std::vector<Step> Path;
    /// The virtual function, or the user-provided copy or move constructor
    /// or destructor (may be in a system header).
    const FunctionDecl *Culprit = nullptr;
    QualType CulpritClass;
  };

private:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) override;
  void startTranslationUnit() override { LaunchesKnown = false; }
  void checkParameters(const FunctionDecl &Kernel, ASTContext &Ctx);
  void checkReferenceParameter(const FunctionDecl &Kernel, unsigned Index,
                               ASTContext &Ctx);
  void reportType(const ParmVarDecl *P, const Reason &R, ASTContext &Ctx);
  void checkLaunch(const CUDAKernelCallExpr *Launch, ASTContext &Ctx);
  bool isAllowedType(QualType T) const;
  const std::vector<const CUDAKernelCallExpr *> &
  launchesOf(const FunctionDecl *Kernel, ASTContext &Ctx);

  const std::string RawAllowedTypes;
  std::vector<StringRef> AllowedTypes;
  bool LaunchesKnown = false;
  llvm::DenseMap<const FunctionDecl *, std::vector<const CUDAKernelCallExpr *>>
      Launches;
};

} // namespace clang::tidy::cuda

#endif
