//===- CudaFunctionCheck.h - The base of every cuda-* check -----*- C++ -*-===//
//
// Every cuda-tidy check analyses one function definition at a time. This
// base owns what they all repeat: the language guard, the one
// functionDecl(isDefinition()) matcher, the reset of the per-translation-unit
// caches, the __CUDA_ARCH__ recording, and the skip of template patterns
// (unless the check reads them, see TemplatePatterns.h), system headers and
// bodies the compilation does not see whole. A check implements
// checkFunction() and says only what is particular to it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CUDAFUNCTIONCHECK_H
#define CUDA_TIDY_CUDAFUNCTIONCHECK_H

#include "ArchConditionals.h"
#include "ThreadIndexAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <vector>

namespace clang::tidy::cuda {

class FunctionCfg;
class FunctionMemorySpaces;

/// Which function definitions a check is given.
enum class FunctionScope {
  All,        ///< Host, device and kernel functions.
  Kernels,    ///< __global__ functions.
  DeviceCode, ///< __global__ and __device__ functions.
};

/// Which translation units a check runs on.
enum class CheckLanguages {
  Cuda,      ///< CUDA only.
  CudaOrCxx, ///< CUDA and C++ (host code that calls the runtime).
  Any,       ///< C as well.
};

/// How the findings of a check in a body that did not compile whole are
/// kept from depending on what did not compile.
enum class ErrorGate {
  /// The check's analyses treat each erroneous action as unknown
  /// themselves: every finding is kept.
  None,
  /// A finding is a fact about the statement it is reported on and the
  /// variables that statement names: dropped when the statement holds a
  /// recovery node, or an erroneous action may act on one of its variables
  /// or on the whole program.
  Operands,
  /// A finding is a fact about the paths to it (what ran before, what
  /// runs after): dropped as for Operands, and whenever the function holds
  /// an erroneous action other than a wrapper around calls that compiled
  /// (`CHECK(cudaMalloc(&p, n))`): it may synchronize, pop, or exit.
  Paths,
  /// A kernel-side finding, a fact about an access at thread-derived
  /// indices and the guards and barriers on the paths to it: dropped when
  /// the access holds a recovery node or names a variable whose value may
  /// come from one, when a condition of the function holds a recovery
  /// node, or when the function holds an erroneous action. Data read
  /// through a parameter whose type did not compile is none of these.
  Accesses,
};

class CudaFunctionCheck : public ClangTidyCheck {
public:
  struct Traits {
    FunctionScope Scope = FunctionScope::All;
    CheckLanguages Languages = CheckLanguages::Cuda;
    /// Skip functions part of whose body a __CUDA_ARCH__ conditional hid.
    bool NeedsWholeBody = true;
    /// Also give the check the pattern of each template that the
    /// translation unit never instantiates (isUninstantiatedPattern). The
    /// check then reads from a pattern only what TemplatePatterns.h says
    /// is safe: facts about dependent expressions are unknown.
    bool AnalysesTemplatePatterns = false;
    /// Also give the check the functions whose body did not compile in
    /// part (CompileErrors.h: not unreadable, not a template pattern). The
    /// check treats each erroneous action (isErroneousAction) as unknown:
    /// it reports nothing on it, and nothing whose fact it could change.
    bool ReadsCodeWithErrors = false;
    /// For a check that reads code with errors but whose analyses do not
    /// model erroneous actions themselves: which of its findings in such a
    /// body are dropped (CompileErrors.h, findingMayDependOnErrors).
    ErrorGate GateOnErrors = ErrorGate::None;
  };

  CudaFunctionCheck(StringRef Name, ClangTidyContext *Context, Traits T);

  bool isLanguageVersionSupported(const LangOptions &LangOpts) const final;
  void registerMatchers(ast_matchers::MatchFinder *Finder) final;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) final;
  void onStartOfTranslationUnit() final;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final;

  /// Adds a diagnostic with the check's name; a finding that may depend on
  /// code that did not compile (Traits::GateOnErrors) is dropped, with its
  /// notes.
  DiagnosticBuilder diag(SourceLocation Loc, StringRef Description,
                         DiagnosticIDs::Level Level = DiagnosticIDs::Warning);
  using ClangTidyCheck::diag;

protected:
  /// Analyses one function definition that passed the skips, and its CFG
  /// (valid until this call returns).
  virtual void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                             ASTContext &Ctx) = 0;
  /// Drops the check's own per-translation-unit state.
  virtual void startTranslationUnit() {}
  /// Whether the check may report anything in a function, asked before its
  /// CFG is built: a check that reads only some functions (the Python
  /// reader's synthetic launches, PyTorch extensions) answers false for the
  /// others, and costs nothing there.
  virtual bool mayReportIn(const FunctionDecl &, ASTContext &) {
    return true;
  }

  /// Code the preprocessor skipped under __CUDA_ARCH__ conditionals.
  const ArchConditionals &arch() const { return Arch; }
  /// The preprocessor of the translation unit being analysed.
  Preprocessor *preprocessor() const { return PP; }
  /// Whether macro \p Name is defined at \p Loc (after its #define, before
  /// any #undef; a -D definition is defined everywhere).
  bool isMacroDefinedAt(StringRef Name, SourceLocation Loc) const;
  /// The thread-index analysis of this translation unit, shared by every
  /// check (TranslationUnitAnalyses::threadIndex).
  ThreadIndexAnalysis &threadIndex(ASTContext &Ctx);
  /// Where a finding at \p Loc is shown (userVisibleLocation), or an invalid
  /// location when the check reported there already: a template's findings
  /// are reported once, however many instantiations contain them.
  SourceLocation reportOnce(SourceLocation Loc, const SourceManager &SM);
  /// Whether the function being checked is an uninstantiated template
  /// pattern (only for checks whose Traits ask for patterns).
  bool inTemplatePattern() const { return InPattern; }

private:
  const Traits Kind;
  ArchConditionals Arch;
  Preprocessor *PP = nullptr;
  llvm::DenseSet<unsigned> Reported;
  bool InPattern = false;
  /// The functions of this translation unit read with errors under a gate.
  std::vector<const FunctionDecl *> ReadWithErrors;
};

/// A check that reads the memory-space analysis of host code, statement by
/// statement (the four memory checks).
class MemorySpaceCheck : public CudaFunctionCheck {
public:
  MemorySpaceCheck(StringRef Name, ClangTidyContext *Context,
                   Traits T = Traits())
      : CudaFunctionCheck(Name, Context, T) {}

protected:
  void checkFunction(const FunctionDecl &FD, const FunctionCfg &Cfg,
                     ASTContext &Ctx) final;
  /// Looks at one CFG element's statement of the function \p M describes.
  virtual void checkStmt(const Stmt *S, const FunctionMemorySpaces &M,
                         ASTContext &Ctx) = 0;
};

} // namespace clang::tidy::cuda

#endif
