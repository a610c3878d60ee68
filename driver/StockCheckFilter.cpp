//===- StockCheckFilter.cpp - Stock advice that is wrong on CUDA ----------===//
//
// See StockCheckFilter.h.
//
//===----------------------------------------------------------------------===//

#include "StockCheckFilter.h"
#include "PythonInput.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/ASTReader.h"
#include "clang/Serialization/ModuleFile.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace clang::tidy;

namespace cudatidy {
namespace {

/// Checks whose finding about a name reserved by the CUDA headers is
/// dropped: bugprone-reserved-identifier and its aliases.
bool isReservedIdentifierCheck(llvm::StringRef CheckName) {
  return CheckName == "bugprone-reserved-identifier" ||
         CheckName == "cert-dcl37-c" || CheckName == "cert-dcl51-cpp";
}

/// Collects the parameters of __global__ functions.
class KernelParamCollector : public RecursiveASTVisitor<KernelParamCollector> {
public:
  explicit KernelParamCollector(llvm::DenseSet<SourceLocation> &Params)
      : Params(Params) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>())
      for (const ParmVarDecl *P : FD->parameters())
        Params.insert(P->getLocation());
    return true;
  }

private:
  llvm::DenseSet<SourceLocation> &Params;
};

/// The file that holds \p Loc (where a macro expansion's starts).
OptionalFileEntryRef fileOf(const SourceManager &SM, SourceLocation Loc) {
  return SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc)));
}

/// The folder of the CUDA toolkit header that declares cudaMalloc first
/// (clang's CUDA runtime wrapper includes it before the user's code).
std::string cudaIncludeDir(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  SourceLocation First;
  DeclarationName Name(&AST.Idents.get("cudaMalloc"));
  for (const NamedDecl *D : AST.getTranslationUnitDecl()->lookup(Name)) {
    SourceLocation Loc = D->getCanonicalDecl()->getLocation();
    if (First.isInvalid() || SM.isBeforeInTranslationUnit(Loc, First))
      First = Loc;
  }
  if (First.isInvalid())
    return "";
  OptionalFileEntryRef File = fileOf(SM, First);
  if (!File)
    return "";
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(File->getName()));
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  return Dir.str().str();
}

/// Hands the AST of each translation unit to the filter.
class ASTContextTracker : public ASTConsumer {
public:
  explicit ASTContextTracker(StockCheckFilter &Filter) : Filter(Filter) {}
  ~ASTContextTracker() override { Filter.setASTContext(nullptr); }
  void Initialize(ASTContext &AST) override { Filter.setASTContext(&AST); }

private:
  StockCheckFilter &Filter;
};

/// With a precompiled prefix, limits every walk of the AST (clang-tidy's
/// matchers, the analyses' RecursiveASTVisitors) to the top-level
/// declarations outside system headers, as clangd does with its preambles:
/// those parsed in this run, and those of the file's own precompiled
/// headers. Walking the whole translation unit would deserialize every
/// declaration of the CUDA headers, where no finding is reported.
class ParsedDeclsScope : public ASTConsumer {
public:
  explicit ParsedDeclsScope(CompilerInstance &Compiler) : Compiler(Compiler) {}
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    Parsed.insert(Parsed.end(), Group.begin(), Group.end());
    return true;
  }
  // Declarations the precompiled prefix hands over are not parsed here.
  void HandleInterestingDecl(DeclGroupRef) override {}
  void HandleTranslationUnit(ASTContext &AST) override {
    std::vector<Decl *> Scope = precompiledUserDecls(AST);
    Scope.insert(Scope.end(), Parsed.begin(), Parsed.end());
    AST.setTraversalScope(Scope);
  }

private:
  /// The top-level declarations of the precompiled header that are not in
  /// system headers, in the order of the translation unit. Their locations
  /// are read without deserializing the others.
  std::vector<Decl *> precompiledUserDecls(ASTContext &AST) {
    std::vector<Decl *> Decls;
    IntrusiveRefCntPtr<ASTReader> Reader = Compiler.getASTReader();
    if (!Reader)
      return Decls;
    const SourceManager &SM = AST.getSourceManager();
    for (serialization::ModuleFile &MF : Reader->getModuleManager())
      for (unsigned I = 0; I < MF.NumFileSortedDecls; ++I) {
        GlobalDeclID ID = Reader->getGlobalDeclID(
            MF, LocalDeclID::get(*Reader, MF, MF.FileSortedDecls[I]));
        SourceLocation Loc = Reader->getSourceLocationForDeclID(ID);
        if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
          continue;
        Decl *D = Reader->GetDecl(ID);
        if (D && D->getLexicalDeclContext()->isTranslationUnit())
          Decls.push_back(D);
      }
    llvm::stable_sort(Decls, [&SM](const Decl *A, const Decl *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    });
    return Decls;
  }

  CompilerInstance &Compiler;
  std::vector<Decl *> Parsed;
};

class FilteredAction : public ASTFrontendAction {
public:
  FilteredAction(ClangTidyASTConsumerFactory &Factory, StockCheckFilter &Filter)
      : Factory(Factory), Filter(Filter) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                 StringRef File) override {
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<ASTContextTracker>(Filter));
    if (!Compiler.getPreprocessorOpts().ImplicitPCHInclude.empty())
      Consumers.push_back(std::make_unique<ParsedDeclsScope>(Compiler));
    Consumers.push_back(Factory.createASTConsumer(Compiler, File));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  ClangTidyASTConsumerFactory &Factory;
  StockCheckFilter &Filter;
};

class FilteredActionFactory : public tooling::FrontendActionFactory {
public:
  FilteredActionFactory(
      ClangTidyContext &Context,
      llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS,
      StockCheckFilter &Filter)
      : Factory(Context, std::move(FS)), Filter(Filter) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<FilteredAction>(Factory, Filter);
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *Consumer) override {
    // As clang-tidy: __clang_analyzer__ is defined, and no carets (quiet).
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    Invocation->getDiagnosticOpts().ShowCarets = false;
    return FrontendActionFactory::runInvocation(Invocation, Files,
                                                PCHContainerOps, Consumer);
  }

private:
  ClangTidyASTConsumerFactory Factory;
  StockCheckFilter &Filter;
};

/// The configuration's ExtraArgsBefore and ExtraArgs, as clang-tidy adds them.
tooling::ArgumentsAdjuster extraArgsAdjuster(ClangTidyContext &Context) {
  return [&Context](const tooling::CommandLineArguments &Args,
                    StringRef File) {
    ClangTidyOptions Opts = Context.getOptionsForFile(File);
    tooling::CommandLineArguments Adjusted = Args;
    if (Opts.ExtraArgsBefore) {
      auto At = Adjusted.begin();
      if (At != Adjusted.end() && !StringRef(*At).starts_with("-"))
        ++At; // After the compiler's name.
      Adjusted.insert(At, Opts.ExtraArgsBefore->begin(),
                      Opts.ExtraArgsBefore->end());
    }
    if (Opts.ExtraArgs)
      llvm::append_range(Adjusted, *Opts.ExtraArgs);
    return Adjusted;
  };
}

} // namespace

void StockCheckFilter::setASTContext(ASTContext *NewAST) {
  AST = NewAST;
  Decls.reset();
}

void StockCheckFilter::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                        const Diagnostic &Info) {
  if (Level == DiagnosticsEngine::Note) {
    if (DroppingNotes)
      return;
  } else {
    DroppingNotes = isWrongOnCuda(Context.getCheckName(Info.getID()),
                                  Info.getLocation());
    if (DroppingNotes)
      return;
  }
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  Next.HandleDiagnostic(Level, Info);
}

bool StockCheckFilter::isWrongOnCuda(StringRef CheckName, SourceLocation Loc) {
  if (!AST || Loc.isInvalid() || CheckName.starts_with("cuda-"))
    return false;
  // Passing a kernel's parameter by reference makes the kernel read host
  // memory (llvm-project#117540).
  if (CheckName == "performance-unnecessary-value-param")
    return cudaDecls().KernelParams.contains(Loc);
  // The name is the CUDA implementation's. The check reports a user's
  // redeclaration at the first declaration, in the CUDA header; its fix-it
  // would rename the header's declaration.
  if (isReservedIdentifierCheck(CheckName))
    return isInCudaHeader(Loc);
  return false;
}

bool StockCheckFilter::isInCudaHeader(SourceLocation Loc) {
  OptionalFileEntryRef File = fileOf(AST->getSourceManager(), Loc);
  if (!File)
    return false;
  llvm::SmallString<256> Path(File->getName());
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  StringRef Name = llvm::sys::path::filename(Path);
  // clang's CUDA wrappers and the driver's nvcc compatibility header.
  if (Name.starts_with("__clang_cuda_") || Name == "cuda_tidy_nvcc_compat.h" ||
      llvm::is_contained(llvm::make_range(llvm::sys::path::begin(Path),
                                          llvm::sys::path::end(Path)),
                         "cuda_wrappers"))
    return true;
  const std::string &Dir = cudaDecls().CudaIncludeDir;
  return !Dir.empty() && Path.str().starts_with(Dir + "/");
}

const StockCheckFilter::CudaDecls &StockCheckFilter::cudaDecls() {
  if (!Decls) {
    Decls.emplace();
    KernelParamCollector(Decls->KernelParams).TraverseAST(*AST);
    Decls->CudaIncludeDir = cudaIncludeDir(*AST);
  }
  return *Decls;
}

std::vector<ClangTidyError> runFilteredClangTidy(
    ClangTidyContext &Context, const tooling::CompilationDatabase &Compilations,
    const std::string &File,
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
    bool ApplyAnyFix) {
  tooling::ClangTool Tool(Compilations, {File},
                          std::make_shared<PCHContainerOperations>(), BaseFS);
  Tool.appendArgumentsAdjuster(extraArgsAdjuster(Context));
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());
  // "Error while processing <file>" would name the temporary unit of a
  // Python file; its compile errors are reported at the file's own lines.
  if (isPythonUnitPath(File))
    Tool.setPrintErrorMessage(false);

  ClangTidyDiagnosticConsumer TidyConsumer(Context, nullptr, true,
                                           ApplyAnyFix);
  StockCheckFilter Filter(Context, TidyConsumer);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine Checks(DiagnosticIDs::create(), *DiagOpts, &Filter,
                           /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &Checks);
  // The compiler's own diagnostics go to clang-tidy's consumer directly.
  Tool.setDiagnosticConsumer(&TidyConsumer);

  FilteredActionFactory Factory(Context, std::move(BaseFS), Filter);
  Tool.run(&Factory);
  return TidyConsumer.take();
}

} // namespace cudatidy
