//===- StockCheckFilter.h - Stock advice that is wrong on CUDA --*- C++ -*-===//
//
// Some stock clang-tidy checks give advice that breaks CUDA code. The driver
// runs clang-tidy with a filter in front of its diagnostic consumer: it sees
// every check's diagnostic with the translation unit's AST, and drops those
// listed in docs/driver.md ("Stock checks on CUDA") with their notes and
// fix-its. The plugin cannot do this: clang-tidy-22 owns its consumer.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_STOCK_CHECK_FILTER_H
#define CUDA_TIDY_STOCK_CHECK_FILTER_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace cudatidy {

/// Passes diagnostics on to \c Next, less the stock checks' findings whose
/// advice is wrong on CUDA constructs.
class StockCheckFilter : public clang::DiagnosticConsumer {
public:
  StockCheckFilter(clang::tidy::ClangTidyContext &Context,
                   clang::DiagnosticConsumer &Next)
      : Context(Context), Next(Next) {}

  /// The AST of the translation unit being analysed; null outside one.
  void setASTContext(clang::ASTContext *AST);

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;
  void finish() override { Next.finish(); }

private:
  /// What the filter needs to know of the AST, gathered on first use.
  struct CudaDecls {
    llvm::DenseSet<clang::SourceLocation> KernelParams;
    std::string CudaIncludeDir;
  };

  bool isWrongOnCuda(llvm::StringRef CheckName, clang::SourceLocation Loc);
  bool isInCudaHeader(clang::SourceLocation Loc);
  const CudaDecls &cudaDecls();

  clang::tidy::ClangTidyContext &Context;
  clang::DiagnosticConsumer &Next;
  clang::ASTContext *AST = nullptr;
  std::optional<CudaDecls> Decls;
  bool DroppingNotes = false;
};

/// Analyses \p File as clang::tidy::runClangTidy does, with a
/// StockCheckFilter in front of clang-tidy's diagnostic consumer.
std::vector<clang::tidy::ClangTidyError> runFilteredClangTidy(
    clang::tidy::ClangTidyContext &Context,
    const clang::tooling::CompilationDatabase &Compilations,
    const std::string &File,
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
    bool ApplyAnyFix);

} // namespace cudatidy

#endif
