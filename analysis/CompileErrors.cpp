//===- CompileErrors.cpp --------------------------------------------------===//

#include "CompileErrors.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include <memory>
#include <vector>

namespace clang::tidy::cuda {

namespace {
/// What one compilation reported: the expansion locations of its errors
/// (warnings that -Werror promotes are not counted).
struct Recording {
  const SourceManager *SM = nullptr;
  std::vector<SourceLocation> Errors;
  /// Whether the recorder is still its compilation's diagnostic client.
  bool Live = true;
};

/// Records where errors are reported, and passes every diagnostic on to the
/// client it replaced (clang-tidy's or clangd's), unchanged.
class ErrorRecorder : public DiagnosticConsumer {
public:
  ErrorRecorder(DiagnosticsEngine &Diags,
                std::shared_ptr<Recording> Out)
      : Out(std::move(Out)) {
    if (Diags.ownsClient())
      Owned = Diags.takeClient();
    Next = Diags.getClient();
  }
  ~ErrorRecorder() override { Out->Live = false; }

  void clear() override {
    DiagnosticConsumer::clear();
    if (Next)
      Next->clear();
  }
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    if (Next)
      Next->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override {
    if (Next)
      Next->EndSourceFile();
  }
  void finish() override {
    if (Next)
      Next->finish();
  }
  bool IncludeInDiagnosticCounts() const override {
    return !Next || Next->IncludeInDiagnosticCounts();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    // An error of clang's own, not a warning that -Werror promotes: that
    // code compiled.
    if (Level >= DiagnosticsEngine::Error && Info.getLocation().isValid() &&
        Info.hasSourceManager() &&
        !Info.getDiags()->getDiagnosticIDs()->isWarningOrExtension(
            Info.getID()))
      Out->Errors.push_back(
          Info.getSourceManager().getExpansionLoc(Info.getLocation()));
    if (Next)
      Next->HandleDiagnostic(Level, Info);
  }

private:
  std::shared_ptr<Recording> Out;
  std::unique_ptr<DiagnosticConsumer> Owned;
  DiagnosticConsumer *Next = nullptr;
};

/// The recording of the last compilation a check attached to, read by
/// bodyDidNotCompile (clangd replaces the recorder once it has parsed, and
/// the checks run after that).
thread_local const DiagnosticsEngine *LastEngine = nullptr;
thread_local std::shared_ptr<Recording> LastRecording;

/// Whether a statement holds a recovery node: an expression that did not
/// compile (containsErrors marks it and every expression around it) or an
/// invalid declaration (`ns::undeclared(p);` leaves only an invalid
/// variable, with no expression at all).
bool holdsRecoveryNode(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    return E->containsErrors();
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (D->isInvalidDecl())
        return true;
  for (const Stmt *Child : S->children())
    if (holdsRecoveryNode(Child))
      return true;
  return false;
}
} // namespace

void attachCompileErrors(Preprocessor &PP) {
  DiagnosticsEngine &Diags = PP.getDiagnostics();
  if (LastEngine == &Diags && LastRecording && LastRecording->Live &&
      LastRecording->SM == &PP.getSourceManager())
    return;
  // A missing header is an error like any other: clang goes on including
  // and instantiating, so the functions that do not need the header
  // compile whole.
  Diags.setSeverity(diag::err_pp_file_not_found, diag::Severity::Error,
                    SourceLocation());
  LastRecording = std::make_shared<Recording>();
  LastRecording->SM = &PP.getSourceManager();
  LastEngine = &Diags;
  auto *Recorder = new ErrorRecorder(Diags, LastRecording);
  Diags.setClient(Recorder, /*ShouldOwnClient=*/true);
}

bool bodyDidNotCompile(const FunctionDecl *FD, const SourceManager &SM) {
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  // Recovery nodes and error reports come with an error: a file that
  // compiled costs nothing here.
  if (!Body || !FD->getASTContext().getDiagnostics().hasErrorOccurred())
    return false;
  if (holdsRecoveryNode(Body))
    return true;
  // A syntax error may drop tokens and leave no node: the errors reported
  // inside the body.
  const std::shared_ptr<Recording> &R = LastRecording;
  if (!R || R->SM != &SM || R->Errors.empty())
    return false;
  SourceLocation B = SM.getExpansionLoc(Body->getBeginLoc());
  SourceLocation E = SM.getExpansionLoc(Body->getEndLoc());
  if (B.isInvalid() || E.isInvalid())
    return false;
  FileID File = SM.getFileID(B);
  unsigned From = SM.getFileOffset(B), To = SM.getFileOffset(E);
  for (SourceLocation L : R->Errors)
    if (SM.getFileID(L) == File) {
      unsigned Offset = SM.getFileOffset(L);
      if (Offset >= From && Offset <= To)
        return true;
    }
  return false;
}

} // namespace clang::tidy::cuda
