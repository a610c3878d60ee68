//===- CompileErrors.cpp --------------------------------------------------===//

#include "CompileErrors.h"
#include "FunctionCfg.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include <optional>
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <vector>

namespace clang::tidy::cuda {

namespace {
/// What one compilation reported: the expansion locations of its errors
/// (warnings that -Werror promotes are not counted).
struct Recording {
  const SourceManager *SM = nullptr;
  std::vector<SourceLocation> Errors;
  /// The errors of the lexer and the parser ("expected ')'"): they may
  /// drop tokens and leave no node for them.
  std::vector<SourceLocation> SyntaxErrors;
  /// The errors that stand for a launch from device code without
  /// -fgpu-rdc: clang drops the launch, and nothing else.
  std::vector<SourceLocation> DroppedLaunches;
  /// Whether the recorder is still its compilation's diagnostic client.
  bool Live = true;
};

/// Records where errors are reported, and passes every diagnostic on to the
/// client it replaced (clang-tidy's or clangd's), unchanged.
class ErrorRecorder : public DiagnosticConsumer {
public:
  /// \p ShownErrors: how many of clang's errors are passed on (0: all);
  /// clang's diagnostics after them are recorded only.
  ErrorRecorder(DiagnosticsEngine &Diags, std::shared_ptr<Recording> Out,
                unsigned ShownErrors)
      : Out(std::move(Out)), ShownErrors(ShownErrors) {
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
            Info.getID())) {
      SourceLocation L =
          Info.getSourceManager().getExpansionLoc(Info.getLocation());
      Out->Errors.push_back(L);
      if (Info.getID() < diag::DIAG_START_AST)
        Out->SyntaxErrors.push_back(L);
      if (Info.getID() == diag::err_cuda_device_kernel_launch_require_rdc)
        Out->DroppedLaunches.push_back(L);
    }
    // Clang's own diagnostics, not the checks' (custom IDs: cuda-clangd
    // reports its checks' findings through this engine too).
    bool Clangs = !DiagnosticIDs::IsCustomDiag(Info.getID());
    if (Clangs && Level >= DiagnosticsEngine::Error && ShownErrors &&
        ++ErrorsSeen > ShownErrors)
      Hiding = true;
    if (Next && !(Hiding && Clangs))
      Next->HandleDiagnostic(Level, Info);
  }

private:
  std::shared_ptr<Recording> Out;
  unsigned ShownErrors = 0;
  unsigned ErrorsSeen = 0;
  /// Past the errors shown: clang's own limit would have stopped here.
  bool Hiding = false;
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
  // Past its error limit (-ferror-limit, 20 by default) clang stops with a
  // fatal error, which stops including and instantiating as a missing
  // header did: everything after the 20th error would be lost. It goes on
  // compiling; the recorder shows no more errors than the limit allows.
  unsigned ShownErrors = Diags.getDiagnosticOptions().ErrorLimit;
  Diags.setErrorLimit(0);
  LastRecording = std::make_shared<Recording>();
  LastRecording->SM = &PP.getSourceManager();
  LastEngine = &Diags;
  auto *Recorder = new ErrorRecorder(Diags, LastRecording, ShownErrors);
  Diags.setClient(Recorder, /*ShouldOwnClient=*/true);
}

/// The recording of \p SM's compilation, or null.
static const Recording *recordingOf(const SourceManager &SM) {
  const std::shared_ptr<Recording> &R = LastRecording;
  return R && R->SM == &SM ? R.get() : nullptr;
}

/// The recorded error locations that lie in \p Range (expansion
/// locations, one file).
static void errorsIn(SourceRange Range, const SourceManager &SM,
                     const std::vector<SourceLocation> &Errors,
                     llvm::SmallVectorImpl<SourceLocation> &Out) {
  if (Errors.empty())
    return;
  SourceLocation B = SM.getExpansionLoc(Range.getBegin());
  SourceLocation E = SM.getExpansionRange(Range.getEnd()).getEnd();
  if (B.isInvalid() || E.isInvalid())
    return;
  FileID File = SM.getFileID(B);
  if (SM.getFileID(E) != File)
    return;
  unsigned From = SM.getFileOffset(B), To = SM.getFileOffset(E);
  for (SourceLocation L : Errors)
    if (SM.getFileID(L) == File) {
      unsigned Offset = SM.getFileOffset(L);
      if (Offset >= From && Offset <= To)
        Out.push_back(L);
    }
}

static bool hasErrors(const ASTContext &Ctx) {
  return Ctx.getDiagnostics().hasErrorOccurred();
}

bool bodyDidNotCompile(const FunctionDecl *FD, const SourceManager &SM) {
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  // Recovery nodes and error reports come with an error: a file that
  // compiled costs nothing here.
  if (!Body || !hasErrors(FD->getASTContext()))
    return false;
  if (FD->isInvalidDecl() || holdsRecoveryNode(Body))
    return true;
  // A syntax error may drop tokens and leave no node: the errors reported
  // inside the body.
  const Recording *R = recordingOf(SM);
  if (!R)
    return false;
  llvm::SmallVector<SourceLocation, 4> Inside;
  errorsIn(Body->getSourceRange(), SM, R->Errors, Inside);
  return !Inside.empty();
}

bool onlySignatureDidNotCompile(const FunctionDecl *FD,
                                const SourceManager &SM) {
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body || !FD->isInvalidDecl() || !hasErrors(FD->getASTContext()))
    return false;
  // A method of a class that did not compile has no CFG (cfgOf).
  if (const auto *Method = dyn_cast<CXXMethodDecl>(FD))
    if (Method->getParent()->isInvalidDecl())
      return false;
  const Recording *R = recordingOf(SM);
  if (!R)
    return false;
  llvm::SmallVector<SourceLocation, 4> Inside;
  errorsIn(SourceRange(FD->getBeginLoc(), Body->getBeginLoc()), SM, R->Errors,
           Inside);
  // Invalid for a reason reported elsewhere (a conflicting redeclaration).
  if (Inside.empty())
    return false;
  llvm::SmallVector<SourceRange, 4> Types;
  Types.push_back(FD->getReturnTypeSourceRange());
  for (const ParmVarDecl *P : FD->parameters())
    if (P->isInvalidDecl())
      Types.push_back(P->getSourceRange());
  return llvm::all_of(Inside, [&](SourceLocation L) {
    return llvm::any_of(Types, [&](SourceRange Range) {
      llvm::SmallVector<SourceLocation, 1> In;
      if (Range.isValid())
        errorsIn(Range, SM, {L}, In);
      return !In.empty();
    });
  });
}

namespace {
/// Whether some expression under \p S, other than \p S itself when it is
/// the body, covers \p L.
bool coveredByExpr(const Stmt *S, SourceLocation L, const SourceManager &SM) {
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    if (isa<Expr>(Child)) {
      llvm::SmallVector<SourceLocation, 1> In;
      errorsIn(Child->getSourceRange(), SM, {L}, In);
      if (!In.empty())
        return true;
    }
    if (coveredByExpr(Child, L, SM))
      return true;
  }
  return false;
}

/// Whether the variable of \p FD named \p Name, if any, holds only a number:
/// a dropped initializer that names it cannot keep or free anything.
bool namesOnlyNumbers(const FunctionDecl *FD, const IdentifierInfo *Name) {
  bool Numbers = true;
  auto Visit = [&](const VarDecl *V) {
    if (V->getIdentifier() == Name && !V->getType()->isArithmeticType())
      Numbers = false;
  };
  for (const ParmVarDecl *P : FD->parameters())
    Visit(P);
  struct Locals : RecursiveASTVisitor<Locals> {
    llvm::function_ref<void(const VarDecl *)> Visit;
    bool VisitVarDecl(VarDecl *V) {
      Visit(V);
      return true;
    }
  } L;
  L.Visit = Visit;
  L.TraverseStmt(FD->getBody());
  return Numbers;
}

/// Skips the initializer that starts at \p Next (`(1.0f)`, `{0, 0, 0}`,
/// `= 0.5f * s`) when it holds nothing but literals, operators, keywords
/// and variables of \p FD that hold numbers: no call, no pointer, so
/// that dropping it loses no action. \p Next becomes the token after it.
bool skipInertInitializer(std::optional<Token> &Next, const FunctionDecl *FD,
                          const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  bool Assigned = Next->is(tok::equal);
  unsigned Depth = 0;
  for (unsigned Count = 0; Next && Count < 256; ++Count) {
    if (Next->isOneOf(tok::l_paren, tok::l_brace, tok::l_square)) {
      ++Depth;
    } else if (Next->isOneOf(tok::r_paren, tok::r_brace, tok::r_square)) {
      if (Depth == 0)
        return false;
      if (--Depth == 0 && !Assigned) {
        Next = Lexer::findNextToken(Next->getLocation(), SM, LO);
        return Next.has_value();
      }
    } else if (Next->isOneOf(tok::semi, tok::comma) && Depth == 0) {
      return Assigned;
    } else if (Next->is(tok::raw_identifier)) {
      StringRef Text = Next->getRawIdentifier();
      std::optional<Token> After =
          Lexer::findNextToken(Next->getLocation(), SM, LO);
      IdentifierInfo &II = Ctx.Idents.get(Text);
      bool Keyword = II.getTokenID() != tok::identifier;
      // A call may do anything; `sizeof(...)` is a keyword.
      if (!Keyword && (!After || After->is(tok::l_paren) ||
                       !namesOnlyNumbers(FD, &II)))
        return false;
      Next = After;
      continue;
    } else if (!Next->isOneOf(tok::numeric_constant, tok::equal, tok::plus,
                              tok::minus, tok::star, tok::slash, tok::percent,
                              tok::period, tok::coloncolon, tok::question,
                              tok::colon, tok::less, tok::greater)) {
      return false;
    }
    Next = Lexer::findNextToken(Next->getLocation(), SM, LO);
  }
  return false;
}

/// Whether invalid variable \p VD of function \p FD is a plain declaration
/// of a type that did not compile (`StopWatchInterface *timer = NULL;`,
/// `glm::vec3 p(0.5f * s);`): written with no initializer but a null one
/// or one with no call and no variable other than numbers, no parentheses
/// around its name, and naming no other
/// variable of the function, so that it cannot be an expression clang read
/// as a declaration (`ns::undeclared(p);` declares a `p` that shadows the
/// one it passes). Its uses are recovery nodes.
bool isPlainInvalidDeclaration(const VarDecl *VD, const FunctionDecl *FD) {
  const ASTContext &Ctx = VD->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Name = VD->getLocation();
  if (Name.isInvalid() || Name.isMacroID() || !VD->getIdentifier())
    return false;
  std::optional<Token> Next =
      Lexer::findNextToken(Name, SM, Ctx.getLangOpts());
  if (!Next)
    return false;
  // A null initializer (`StopWatchInterface *timer = NULL;`) holds nothing.
  if (Next->is(tok::equal)) {
    std::optional<Token> Value =
        Lexer::findNextToken(Next->getLocation(), SM, Ctx.getLangOpts());
    if (!Value)
      return false;
    std::string Text = Lexer::getSpelling(*Value, SM, Ctx.getLangOpts());
    if (Text != "NULL" && Text != "nullptr" && Text != "0") {
      if (!skipInertInitializer(Next, FD, Ctx) || !Next)
        return false;
    } else {
      Next = Lexer::findNextToken(Value->getLocation(), SM, Ctx.getLangOpts());
      if (!Next)
        return false;
    }
  } else if (Next->isOneOf(tok::l_paren, tok::l_brace)) {
    if (!skipInertInitializer(Next, FD, Ctx) || !Next)
      return false;
  }
  if (!Next->isOneOf(tok::semi, tok::comma))
    return false;
  // The character before the name, past blanks: not '('.
  bool Invalid = false;
  const char *At = SM.getCharacterData(Name, &Invalid);
  if (Invalid)
    return false;
  unsigned Offset = SM.getFileOffset(Name);
  for (unsigned I = 1; I <= Offset; ++I) {
    char C = At[-static_cast<int>(I)];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r')
      continue;
    if (C == '(')
      return false;
    // `Type *name`, not `f(*name)`: a pointer declarator after a name.
    if (C == '*' || C == '&') {
      for (++I; I <= Offset; ++I) {
        char B = At[-static_cast<int>(I)];
        if (B == ' ' || B == '\t' || B == '*' || B == '&')
          continue;
        if (!isAsciiIdentifierContinue(B) && B != '>')
          return false;
        break;
      }
    }
    break;
  }
  // No parameter or other local of the function has its name.
  for (const ParmVarDecl *P : FD->parameters())
    if (P->getIdentifier() == VD->getIdentifier())
      return false;
  struct Shadow : RecursiveASTVisitor<Shadow> {
    const VarDecl *VD;
    bool Found = false;
    bool VisitVarDecl(VarDecl *Other) {
      if (Other != VD && Other->getIdentifier() == VD->getIdentifier())
        Found = true;
      return !Found;
    }
  } S;
  S.VD = VD;
  S.TraverseStmt(FD->getBody());
  if (S.Found)
    return false;
  // Nor a file-scope variable or a member of the class.
  DeclarationName DN = VD->getDeclName();
  if (!Ctx.getTranslationUnitDecl()->lookup(DN).empty())
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
    if (!M->getParent()->lookup(DN).empty())
      return false;
  return true;
}

/// Whether \p S's source range holds expansion location \p L.
bool covers(const Stmt *S, SourceLocation L, const SourceManager &SM);

/// The statements under \p S that declare something invalid.
void invalidDeclStmts(const Stmt *S,
                      llvm::SmallVectorImpl<const DeclStmt *> &Out) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    if (llvm::any_of(DS->decls(),
                     [](const Decl *D) { return D->isInvalidDecl(); }))
      Out.push_back(DS);
  for (const Stmt *Child : S->children())
    invalidDeclStmts(Child, Out);
}

/// Whether a statement under \p S declares something invalid other than
/// a plain declaration of a type that did not compile (all of them with
/// \p Plain null).
bool holdsInvalidDecl(const Stmt *S, const FunctionDecl *Plain = nullptr) {
  if (!S)
    return false;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (D->isInvalidDecl()) {
        const auto *VD = dyn_cast<VarDecl>(D);
        if (!Plain || !VD || !isPlainInvalidDeclaration(VD, Plain))
          return true;
      }
  for (const Stmt *Child : S->children())
    if (holdsInvalidDecl(Child, Plain))
      return true;
  return false;
}
} // namespace

/// Whether syntax error \p L lies inside an action under \p S that did
/// not compile and goes on past it (`f(c, (glm::vec3 *)b, c)`, whose `b`
/// the parser dropped): the parser resumed inside that expression, so what
/// it dropped was part of it, and it is an action on anything.
static bool confinedToExpression(const Stmt *S, SourceLocation L,
                                 const SourceManager &SM) {
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    // An action (isErroneousAction), so that it counts as one on anything.
    if (const auto *E = dyn_cast<Expr>(Child);
        E && E->containsErrors() &&
        isa<RecoveryExpr, CallExpr, CXXConstructExpr, CXXNewExpr,
            CXXDeleteExpr>(E)) {
      llvm::SmallVector<SourceLocation, 1> In;
      errorsIn(E->getSourceRange(), SM, {L}, In);
      SourceLocation End = SM.getExpansionRange(E->getEndLoc()).getEnd();
      if (!In.empty() && End.isValid() &&
          SM.getFileOffset(End) > SM.getFileOffset(L))
        return true;
    }
    if (confinedToExpression(Child, L, SM))
      return true;
  }
  return false;
}

bool bodyIsUnreadable(const FunctionDecl *FD, const SourceManager &SM) {
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body || !hasErrors(FD->getASTContext()))
    return false;
  // An invalid declaration may stand for an expression clang could not
  // tell from one (`ns::undeclared(p);`), with no node for what it uses.
  if (holdsInvalidDecl(Body, FD))
    return true;
  const Recording *R = recordingOf(SM);
  if (!R)
    return holdsRecoveryNode(Body);
  llvm::SmallVector<SourceLocation, 4> Inside;
  errorsIn(Body->getSourceRange(), SM, R->SyntaxErrors, Inside);
  if (llvm::any_of(Inside, [&](SourceLocation L) {
        return !confinedToExpression(Body, L, SM);
      }))
    return true;
  // A semantic error must sit in an expression that is still there: a
  // recovery node, or the call that typo correction completed.
  Inside.clear();
  errorsIn(Body->getSourceRange(), SM, R->Errors, Inside);
  // A launch from device code without -fgpu-rdc is dropped with no node:
  // a launch neither frees, nor keeps, nor examines an error, so the
  // checks that read code with errors read around it.
  // The type of a plain invalid declaration is reported at the statement
  // declaring it, which holds no expression.
  llvm::SmallVector<const DeclStmt *, 4> Plain;
  invalidDeclStmts(Body, Plain);
  return llvm::any_of(Inside, [&](SourceLocation L) {
    return !llvm::is_contained(R->DroppedLaunches, L) &&
           !coveredByExpr(Body, L, SM) &&
           llvm::none_of(Plain, [&](const DeclStmt *DS) {
             return covers(DS, L, SM);
           });
  });
}

namespace {
/// Whether recovery node \p RE stands for a name alone, not an action: one
/// token written in the file (not a macro), not called, under which there
/// is nothing but references (`pts`, a parameter whose type did not
/// compile; the kernel of a launch whose arguments did not).
bool isRecoveredName(const RecoveryExpr *RE, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = RE->getBeginLoc(), E = RE->getEndLoc();
  if (B.isInvalid() || B != E || B.isMacroID())
    return false;
  if (!llvm::all_of(RE->subExpressions(), [](const Expr *C) {
        return C && isa<DeclRefExpr>(C);
      }))
    return false;
  std::optional<Token> Next = Lexer::findNextToken(B, SM, Ctx.getLangOpts());
  return Next && !Next->is(tok::l_paren);
}
} // namespace

bool isErroneousAction(const Stmt *S, const ASTContext &Ctx) {
  if (!S || !hasErrors(Ctx))
    return false;
  if (const auto *RE = dyn_cast<RecoveryExpr>(S))
    return !isRecoveredName(RE, Ctx);
  if (!isa<CallExpr, CXXConstructExpr, CXXNewExpr, CXXDeleteExpr>(S))
    return false;
  if (cast<Expr>(S)->containsErrors())
    return true;
  // Typo correction completes a call with a name the code did not write
  // (`cudaThreadSynchronize()` becomes a call of cudaDeviceSynchronize):
  // an error reported inside the call.
  const SourceManager &SM = Ctx.getSourceManager();
  const Recording *R = recordingOf(SM);
  if (!R)
    return false;
  llvm::SmallVector<SourceLocation, 1> Inside;
  errorsIn(S->getSourceRange(), SM, R->Errors, Inside);
  return !Inside.empty();
}

bool isErroneousLaunch(const Stmt *S, const ASTContext &Ctx) {
  return isa_and_nonnull<CUDAKernelCallExpr>(S) && isErroneousAction(S, Ctx);
}

namespace {
/// The variables \p S passes to the unknown action: named under it, other
/// than inside the calls that compiled (their own effects are modelled).
void passedVariables(const Stmt *S, const ASTContext &Ctx,
                     llvm::SmallVectorImpl<const VarDecl *> &Out) {
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Child))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Out.push_back(VD);
    if (isa<CallExpr, CXXConstructExpr>(Child) &&
        !isErroneousAction(Child, Ctx))
      continue;
    passedVariables(Child, Ctx, Out);
  }
}
} // namespace

bool erroneousActionMayTouch(
    const Stmt *S, const ASTContext &Ctx,
    llvm::function_ref<bool(const VarDecl *)> Watched) {
  if (!isErroneousAction(S, Ctx))
    return false;
  // No argument at all (`cudaThreadExit()`): an action on the whole
  // program, which may synchronize, release or reset anything.
  bool HasArguments = false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    HasArguments = Call->getNumArgs() != 0;
  else
    // A RecoveryExpr keeps the callee it could not resolve among its
    // subexpressions: that is no argument.
    HasArguments = llvm::any_of(S->children(), [](const Stmt *Child) {
      const auto *E = dyn_cast_or_null<Expr>(Child);
      if (!E)
        return false;
      E = E->IgnoreParenImpCasts();
      if (isa<OverloadExpr, UnresolvedMemberExpr>(E))
        return false;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
        return !isa<FunctionDecl>(DRE->getDecl());
      return true;
    });
  if (!HasArguments)
    return true;
  // A syntax error inside it dropped tokens: what it was passed is unknown.
  if (const Recording *R = recordingOf(Ctx.getSourceManager())) {
    llvm::SmallVector<SourceLocation, 1> Dropped;
    errorsIn(S->getSourceRange(), Ctx.getSourceManager(), R->SyntaxErrors,
             Dropped);
    if (!Dropped.empty())
      return true;
  }
  llvm::SmallVector<const VarDecl *, 8> Passed;
  passedVariables(S, Ctx, Passed);
  return llvm::any_of(Passed, Watched);
}

namespace {
thread_local const FunctionDecl *BodyWithErrors = nullptr;
} // namespace

ReadingBodyWithErrors::ReadingBodyWithErrors(const FunctionDecl *FD)
    : Previous(BodyWithErrors) {
  BodyWithErrors = FD;
}
ReadingBodyWithErrors::~ReadingBodyWithErrors() { BodyWithErrors = Previous; }
const FunctionDecl *ReadingBodyWithErrors::current() { return BodyWithErrors; }

} // namespace clang::tidy::cuda

namespace clang::tidy::cuda {

namespace {
/// Whether \p S's source range holds expansion location \p L.
bool covers(const Stmt *S, SourceLocation L, const SourceManager &SM) {
  if (!S)
    return false;
  llvm::SmallVector<SourceLocation, 1> In;
  errorsIn(S->getSourceRange(), SM, {L}, In);
  return !In.empty();
}

/// The statement a finding at \p L is about: the innermost statement of a
/// block (or a control statement's head) around \p L, or null.
const Stmt *statementAround(const Stmt *S, SourceLocation L,
                            const SourceManager &SM) {
  for (const Stmt *Child : S->children()) {
    if (!Child || !covers(Child, L, SM))
      continue;
    // A block, or a control statement whose body holds L: look inside.
    if (isa<CompoundStmt, IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt,
            CXXForRangeStmt, CXXTryStmt, CXXCatchStmt, CaseStmt, DefaultStmt,
            LabelStmt, AttributedStmt>(Child)) {
      if (const Stmt *Inner = statementAround(Child, L, SM))
        return Inner;
      // L is in the head (a condition, an increment): the head's part.
      if (!isa<CompoundStmt>(Child))
        for (const Stmt *Part : Child->children())
          if (Part && isa<Expr, DeclStmt>(Part) && covers(Part, L, SM))
            return Part;
      return Child;
    }
    return Child;
  }
  return nullptr;
}

void namedVariables(const Stmt *S,
                    llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Out.insert(VD);
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        Out.insert(VD);
  for (const Stmt *Child : S->children())
    namedVariables(Child, Out);
}

/// Whether erroneous action \p S only wraps calls that compiled
/// (`CHECK(cudaMalloc(&p, n))`, a checking macro of the missing header):
/// every argument is such a call.
bool wrapsCompiledCalls(const Stmt *S, const ASTContext &Ctx) {
  const auto *R = dyn_cast<RecoveryExpr>(S);
  if (!R)
    return false;
  bool Any = false;
  for (const Expr *Sub : R->subExpressions()) {
    if (!Sub)
      continue;
    const Expr *E = Sub->IgnoreParenImpCasts();
    // The callee the RecoveryExpr could not resolve.
    if (isa<OverloadExpr, UnresolvedMemberExpr>(E))
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (isa<FunctionDecl>(DRE->getDecl()))
        continue;
    if (!isa<CallExpr>(E) || isErroneousAction(E, Ctx))
      return false;
    Any = true;
  }
  return Any;
}

/// The outermost erroneous actions under \p S.
void erroneousActions(const Stmt *S, const ASTContext &Ctx,
                      llvm::SmallVectorImpl<const Stmt *> &Out) {
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    if (isErroneousAction(Child, Ctx)) {
      Out.push_back(Child);
      continue;
    }
    erroneousActions(Child, Ctx, Out);
  }
}
} // namespace

bool isInBodyOf(const FunctionDecl *FD, SourceLocation Loc) {
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body || Loc.isInvalid())
    return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return covers(Body, SM.getExpansionLoc(Loc), SM);
}

namespace {
/// The variables whose value may come from code that did not compile, in
/// \p Body: an erroneous action may act on them (a wrapper around calls
/// that compiled acts only through those), or their initializer or an
/// assignment to them reads a recovery node or such a variable. Whole is
/// set when an erroneous action takes no argument (it may act on the whole
/// program: file-scope variables, the device).
struct Tainted {
  llvm::SmallPtrSet<const VarDecl *, 16> Vars;
  bool Whole = false;
  /// An erroneous action other than a wrapper around calls that compiled.
  bool Opaque = false;
};

/// Each variable given a value under \p S, with the expression it gets.
void assignments(const Stmt *S,
                 llvm::SmallVectorImpl<std::pair<const VarDecl *, const Expr *>>
                     &Out) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (const Expr *Init = VD->getInit())
          Out.push_back({VD, Init});
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Out.push_back({VD, BO->getRHS()});
  for (const Stmt *Child : S->children())
    assignments(Child, Out);
}

Tainted taintedIn(const Stmt *Body, const ASTContext &Ctx) {
  Tainted T;
  llvm::SmallVector<const Stmt *, 8> Actions;
  erroneousActions(Body, Ctx, Actions);
  for (const Stmt *A : Actions) {
    if (wrapsCompiledCalls(A, Ctx))
      continue;
    // A launch neither synchronizes, nor pops, nor exits: only what it is
    // passed may change.
    if (isErroneousLaunch(A, Ctx)) {
      erroneousActionMayTouch(A, Ctx, [&](const VarDecl *VD) {
        T.Vars.insert(VD);
        return false;
      });
      continue;
    }
    // A call that typo correction completed (`cudaThreadSynchronize()`
    // read as `cudaDeviceSynchronize()`) compiled as that call, which the
    // analyses model; only a finding on it is dropped.
    if (const auto *E = dyn_cast<Expr>(A); E && !E->containsErrors())
      continue;
    T.Opaque = true;
    bool Any = false;
    if (erroneousActionMayTouch(A, Ctx, [&](const VarDecl *VD) {
          T.Vars.insert(VD);
          Any = true;
          return false;
        }))
      T.Whole = true;
    (void)Any;
  }
  // A variable of a type that did not compile: its constructor and
  // destructor are unknown code.
  if (holdsInvalidDecl(Body))
    T.Opaque = true;
  llvm::SmallVector<std::pair<const VarDecl *, const Expr *>, 16> Assigned;
  assignments(Body, Assigned);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[VD, E] : Assigned) {
      if (T.Vars.count(VD))
        continue;
      bool Reads = holdsRecoveryNode(E);
      if (!Reads) {
        llvm::SmallPtrSet<const VarDecl *, 8> Named;
        namedVariables(E, Named);
        Reads = llvm::any_of(Named, [&](const VarDecl *N) {
          return T.Vars.count(N) != 0;
        });
      }
      if (Reads) {
        T.Vars.insert(VD);
        Changed = true;
      }
    }
  }
  return T;
}
} // namespace

bool findingMayDependOnErrors(const FunctionDecl *FD, SourceLocation Loc,
                              bool Paths) {
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body || Loc.isInvalid())
    return false;
  const ASTContext &Ctx = FD->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation L = SM.getExpansionLoc(Loc);
  const Stmt *S = statementAround(Body, L, SM);
  if (S) {
    if (holdsRecoveryNode(S) || isErroneousAction(S, Ctx))
      return true;
    llvm::SmallVector<const Stmt *, 2> Inside;
    erroneousActions(S, Ctx, Inside);
    if (!Inside.empty())
      return true;
  }
  Tainted T = taintedIn(Body, Ctx);
  // With paths, any action that did not compile may synchronize, pop or
  // exit. Otherwise one that takes no argument may still write file-scope
  // variables (below), not the function's own.
  if (Paths && T.Opaque)
    return true;
  if (!S)
    return false;
  llvm::SmallPtrSet<const VarDecl *, 8> Named;
  namedVariables(S, Named);
  return llvm::any_of(Named, [&](const VarDecl *VD) {
    // An unknown function may write any file-scope variable.
    if (VD->hasGlobalStorage() && !VD->isStaticLocal() && T.Opaque)
      return true;
    return T.Vars.count(VD) != 0;
  });
}

namespace {
/// Whether a condition under \p S (of a branch, a loop, `?:`, `&&`, `||`)
/// holds a recovery node.
bool conditionHoldsRecoveryNode(const Stmt *S) {
  if (!S)
    return false;
  const Stmt *Condition = nullptr;
  if (const auto *If = dyn_cast<IfStmt>(S))
    Condition = If->getCond();
  else if (const auto *For = dyn_cast<ForStmt>(S))
    Condition = For->getCond();
  else if (const auto *While = dyn_cast<WhileStmt>(S))
    Condition = While->getCond();
  else if (const auto *Do = dyn_cast<DoStmt>(S))
    Condition = Do->getCond();
  else if (const auto *Switch = dyn_cast<SwitchStmt>(S))
    Condition = Switch->getCond();
  else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    Condition = CO->getCond();
  else if (const auto *BO = dyn_cast<BinaryOperator>(S);
           BO && BO->isLogicalOp())
    Condition = BO;
  if (holdsRecoveryNode(Condition))
    return true;
  for (const Stmt *Child : S->children())
    if (conditionHoldsRecoveryNode(Child))
      return true;
  return false;
}

/// The loops under \p S whose range holds \p L.
void loopsAround(const Stmt *S, SourceLocation L, const SourceManager &SM,
                 llvm::SmallVectorImpl<const Stmt *> &Out) {
  for (const Stmt *Child : S->children()) {
    if (!Child || !covers(Child, L, SM))
      continue;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Child))
      Out.push_back(Child);
    loopsAround(Child, L, SM, Out);
  }
}

/// Whether a call under \p Body of a device helper whose body did not
/// compile may run before the access at \p L: it comes first in the
/// file, or a loop holds both (it may be a barrier, or a check that traps;
/// what runs after the access on every path it cannot change).
bool helperWithErrorsMayRunBefore(const Stmt *Body, SourceLocation L,
                                  const SourceManager &SM) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager &SM;
    llvm::SmallVector<SourceLocation, 4> Calls;
    explicit Finder(const SourceManager &SM) : SM(SM) {}
    bool VisitCallExpr(CallExpr *Call) {
      if (callsHelperThatDidNotCompile(Call, SM))
        Calls.push_back(SM.getExpansionLoc(Call->getBeginLoc()));
      return true;
    }
  } F(SM);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  if (F.Calls.empty())
    return false;
  llvm::SmallVector<const Stmt *, 4> Loops;
  loopsAround(Body, L, SM, Loops);
  // The access's own statement may call it first ('out[i] = f(x)').
  if (const Stmt *Around = statementAround(Body, L, SM))
    Loops.push_back(Around);
  return llvm::any_of(F.Calls, [&](SourceLocation C) {
    return SM.isBeforeInTranslationUnit(C, L) ||
           llvm::any_of(Loops, [&](const Stmt *Loop) {
             return covers(Loop, C, SM);
           });
  });
}

/// The access a kernel-side finding at \p L names: the outermost
/// subscript, dereference, member access, call or name that begins at \p L
/// (`out[i]` in `out[i] = pts[i].x`), or null.
const Expr *accessAt(const Stmt *S, SourceLocation L,
                     const SourceManager &SM) {
  for (const Stmt *Child : S->children()) {
    if (!Child || !covers(Child, L, SM))
      continue;
    if (const auto *E = dyn_cast<Expr>(Child);
        E && SM.getExpansionLoc(E->getBeginLoc()) == L &&
        isa<ArraySubscriptExpr, UnaryOperator, MemberExpr, CallExpr,
            DeclRefExpr>(E) &&
        !isa<CXXOperatorCallExpr>(E))
      return E;
    if (const Expr *Inner = accessAt(Child, L, SM))
      return Inner;
  }
  return nullptr;
}
} // namespace

bool accessFindingMayDependOnErrors(const FunctionDecl *FD,
                                    SourceLocation Loc) {
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body || Loc.isInvalid())
    return false;
  const ASTContext &Ctx = FD->getASTContext();
  Tainted T = taintedIn(Body, Ctx);
  if (T.Opaque || conditionHoldsRecoveryNode(Body))
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation L = SM.getExpansionLoc(Loc);
  if (helperWithErrorsMayRunBefore(Body, L, SM))
    return true;
  const Stmt *Access = accessAt(Body, L, SM);
  if (!Access)
    Access = statementAround(Body, L, SM);
  if (!Access)
    return false;
  if (holdsRecoveryNode(Access))
    return true;
  llvm::SmallPtrSet<const VarDecl *, 8> Named;
  namedVariables(Access, Named);
  return llvm::any_of(Named, [&](const VarDecl *VD) {
    return T.Vars.count(VD) != 0;
  });
}

} // namespace clang::tidy::cuda
