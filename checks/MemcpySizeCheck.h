//===- MemcpySizeCheck.h ----------------------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_MEMCPYSIZECHECK_H
#define CUDA_TIDY_MEMCPYSIZECHECK_H

#include "CudaApiModel.h"
#include "CudaFunctionCheck.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// Finds CUDA copies and memsets whose byte count is inconsistent with the
/// buffers they touch.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-memcpy-size.md
class MemcpySizeCheck : public MemorySpaceCheck {
public:
  MemcpySizeCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkStmt(const Stmt *S, const FunctionMemorySpaces &M,
                 ASTContext &Ctx) override;
  void checkPitchedCopy(const CallExpr *Call, const CopyInfo &CI,
                        const Expr *Dst, const Expr *Src,
                        const FunctionMemorySpaces &M, ASTContext &Ctx);
  using SizeofList = llvm::ArrayRef<const UnaryExprOrTypeTraitExpr *>;
  bool checkSizeofType(const CallExpr *Call, SizeofList Sizeofs,
                       QualType Elem, ASTContext &Ctx);
  void checkAgainstAllocations(const CallExpr *Call, const CopyInfo &CI,
                               const Expr *Bytes,
                               std::initializer_list<const Expr *> Buffers,
                               QualType Elem, bool NamesSizeof,
                               const FunctionMemorySpaces &M, ASTContext &Ctx);

  void checkAllocation(const CallExpr *Call, const AllocInfo &AI,
                       const FunctionMemorySpaces &M, ASTContext &Ctx);
  bool checkSmallSizeof(const CallExpr *Call, const Expr *Bytes,
                        std::initializer_list<const Expr *> Buffers,
                        ASTContext &Ctx);

  const bool CheckElementCounts;
};

} // namespace clang::tidy::cuda

#endif
