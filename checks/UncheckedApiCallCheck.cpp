//===- UncheckedApiCallCheck.cpp ------------------------------------------===//

#include "UncheckedApiCallCheck.h"
#include "CompileErrors.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "ResultCount.h"
#include "ResultUse.h"
#include "SourceLocations.h"
#include "TemplatePatterns.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

/// The status types of the API model (CUDA_STATUS_TYPE rows): the
/// runtime's and driver's error codes and the CUDA libraries' statuses.
static std::string defaultCheckedReturnTypes() {
  std::string Types;
  for (const CudaApiModel::StatusType &S : CudaApiModel::statusTypes()) {
    if (!Types.empty())
      Types += ';';
    Types += S.TypeName.str();
  }
  return Types;
}

/// The family of a status whose library is \p Library, one wrapper checking
/// its calls: empty for the runtime's and driver's error codes (and types
/// the model does not know), else the CUDA library's name (CHECK_CUBLAS
/// takes no cudaError_t).
static StringRef familyOfLibrary(StringRef Library) {
  return Library == "Runtime" || Library == "Driver" ? StringRef() : Library;
}

static StringRef statusFamily(QualType T) {
  return familyOfLibrary(CudaApiModel::statusLibrary(T));
}

/// The family of the checked return type named \p TypeName.
static StringRef statusFamily(StringRef TypeName) {
  for (const CudaApiModel::StatusType &S : CudaApiModel::statusTypes())
    if (S.TypeName == TypeName)
      return familyOfLibrary(S.Library);
  return {};
}
static constexpr llvm::StringLiteral DefaultIgnoredFunctions =
    "cudaGetLastError;cudaProfilerStart;cudaProfilerStop";

UncheckedApiCallCheck::UncheckedApiCallCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : CudaFunctionCheck(Name, Context,
                        {FunctionScope::All, CheckLanguages::Any,
                         /*NeedsWholeBody=*/false,
                         /*AnalysesTemplatePatterns=*/true,
                         /*ReadsCodeWithErrors=*/true}),
      RawCheckedReturnTypes(
          Options.get("CheckedReturnTypes", defaultCheckedReturnTypes())),
      RawIgnoredFunctions(
          Options.get("IgnoredFunctions", DefaultIgnoredFunctions)),
      ErrorCheckMacro(Options.get("ErrorCheckMacro", "")),
      AllowCastToVoid(Options.get("AllowCastToVoid", true)),
      AllowReleaseInDestructors(
          Options.get("AllowReleaseInDestructors", true)) {
  CheckedReturnTypes = utils::options::parseStringList(RawCheckedReturnTypes);
  IgnoredFunctions = utils::options::parseStringList(RawIgnoredFunctions);
  if (CheckedReturnTypes.empty())
    configurationDiag("%0: CheckedReturnTypes is empty, so no call is checked")
        << Name;
}

void UncheckedApiCallCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CheckedReturnTypes", RawCheckedReturnTypes);
  Options.store(Opts, "IgnoredFunctions", RawIgnoredFunctions);
  Options.store(Opts, "ErrorCheckMacro", ErrorCheckMacro);
  Options.store(Opts, "AllowCastToVoid", AllowCastToVoid);
  Options.store(Opts, "AllowReleaseInDestructors", AllowReleaseInDestructors);
}

bool UncheckedApiCallCheck::isIgnored(const FunctionDecl *Callee) const {
  std::string Qualified = Callee->getQualifiedNameAsString();
  for (StringRef Ignored : IgnoredFunctions) {
    Ignored.consume_front("::");
    if (Ignored == Qualified || Ignored == Callee->getName())
      return true;
  }
  return false;
}

/// Destructors and deleters (a call operator that takes one pointer and
/// returns nothing, as unique_ptr's deleters and lambdas do) cannot report
/// an error to anyone; RAII wrappers drop the result of their release call.
static bool isReleaseContext(const FunctionDecl *FD) {
  if (isa<CXXDestructorDecl>(FD))
    return true;
  const auto *M = dyn_cast<CXXMethodDecl>(FD);
  return M && M->getOverloadedOperator() == OO_Call &&
         M->getNumParams() == 1 &&
         M->getParamDecl(0)->getType()->isPointerType() &&
         M->getReturnType()->isVoidType();
}

void UncheckedApiCallCheck::checkFunction(const FunctionDecl &FD,
                                          const FunctionCfg &Cfg,
                                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &E : *B)
      if (const auto *Call =
              dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(E)))
        checkCall(Call, Cfg, SM);
}

void UncheckedApiCallCheck::checkCall(const CallExpr *Call,
                                      const FunctionCfg &Cfg,
                                      const SourceManager &SM) {
  // In a template pattern, a call left unresolved by a dependent argument
  // still names the API function when every candidate is that function.
  const FunctionDecl *Callee = independentCallee(Call);
  if (!Callee || isa<CUDAKernelCallExpr>(Call))
    return;
  // A call that did not compile whole (a guessed callee, an argument that
  // did not compile) is not known to be an unchecked API call.
  if (isErroneousAction(Call, Cfg.function()->getASTContext()))
    return;
  if (!CudaApiModel::isTypeNamed(Callee->getReturnType(), CheckedReturnTypes))
    return;
  if (isIgnored(Callee))
    return;
  if (const CallExpr *Again = reevaluatedOnFailure(Call, Cfg)) {
    reportReevaluation(Call, Again, SM);
    return;
  }
  if (AllowReleaseInDestructors && isReleaseContext(Cfg.function())) {
    const ApiFunction *Api = CudaApiModel::lookup(Callee);
    if (Api && Api->releasesSomething())
      return;
  }

  ResultUse Use = classifyResultUse(Call, Cfg);
  if (Use.K == ResultUse::Consumed)
    return;
  if (Use.K == ResultUse::CastToVoid && AllowCastToVoid)
    return;
  // A query whose result count, initialised before it and tested after
  // it, tells its failure apart (CUDA_RESULT_COUNT rows).
  if (resultCountTestedAfter(Call, Cfg, Cfg.function()->getASTContext()))
    return;
  // A last-error check before any other runtime call sees the failure.
  if (Use.K != ResultUse::CastToVoid &&
      lastErrorExaminedAfter(Call, Cfg, Cfg.function()->getASTContext()))
    return;
  StoredValueFate Fate;
  if (Use.K == ResultUse::Stored) {
    // A read may sit in code this compilation does not see.
    if (!isSeenWhole(Cfg.function(), SM, arch()))
      return;
    Fate = followStoredValue(Use, Cfg);
    if (Fate.MayBeRead)
      return;
  }

  SourceLocation Loc = reportOnce(Call->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return;

  if (Use.K == ResultUse::Stored) {
    diag(Loc, "the error code returned by %0 is stored in %1 but never read")
        << Callee->getDeclName() << Use.Var;
    if (Fate.OverwrittenAt)
      diag(Fate.OverwrittenAt->getBeginLoc(),
           "%0 is overwritten here before it is read", DiagnosticIDs::Note)
          << Use.Var;
    return;
  }

  SourceRange Wrap = Use.K == ResultUse::Discarded ? wrappableRange(Call, SM)
                                                  : SourceRange();
  if (ErrorCheckMacro.empty()) {
    // No configuration: the wrapper the unit itself uses, around a call
    // that is a statement of its own (a macro may expand to a statement).
    const auto *Statement = dyn_cast_or_null<Expr>(Use.Statement);
    const ErrorCheckWrapper *W =
        Wrap.isValid() && Statement &&
                Statement->IgnoreImplicit()->IgnoreParens() == Call
            ? learnedWrapperAt(Wrap.getBegin(), Cfg.function(),
                               statusFamily(Callee->getReturnType()),
                               Cfg.function()->getASTContext())
            : nullptr;
    {
      auto D = diag(Loc, "the error code returned by %0 is not checked")
               << Callee->getDeclName();
      if (W)
        D << FixItHint::CreateInsertion(Wrap.getBegin(), W->Name + "(")
          << FixItHint::CreateInsertion(Wrap.getEnd(), ")");
    }
    if (!W)
      return;
    diag(Loc,
         "fix-it wraps the call in '%0(...)', the error-checking "
         "%select{function|macro}1 learned from %2 CUDA call%s2 of the "
         "main file (set ErrorCheckMacro to choose another)",
         DiagnosticIDs::Note)
        << W->Name << W->IsMacro << W->Calls;
    return;
  }
  // The configured macro checks the runtime's and driver's error codes;
  // a library's status is no cudaError_t: no fix-it for it.
  Wrap = Use.K == ResultUse::Discarded &&
                 statusFamily(Callee->getReturnType()).empty()
             ? Wrap
             : SourceRange();
  bool MacroDefined =
      Wrap.isValid() && isMacroDefinedAt(ErrorCheckMacro, Wrap.getBegin());
  {
    auto D = diag(Loc, "the error code returned by %0 is not checked")
             << Callee->getDeclName();
    if (MacroDefined)
      D << FixItHint::CreateInsertion(Wrap.getBegin(), ErrorCheckMacro + "(")
        << FixItHint::CreateInsertion(Wrap.getEnd(), ")");
  }
  // A fix with an undefined macro would not compile.
  if (Wrap.isValid() && !MacroDefined)
    diag(Loc, "no fix-it: macro '%0' (ErrorCheckMacro) is not defined here",
         DiagnosticIDs::Note)
        << ErrorCheckMacro;
}

const ErrorCheckWrapper *
UncheckedApiCallCheck::learnedWrapperAt(SourceLocation At,
                                        const FunctionDecl *FD,
                                        StringRef Family, ASTContext &Ctx) {
  bool Device = isDeviceOnlyCode(FD);
  auto [It, Inserted] =
      Learned.try_emplace(std::make_pair(Device, Family.str()));
  if (Inserted) {
    // Learned from the calls whose status is of the same family.
    std::vector<StringRef> Types;
    for (StringRef T : CheckedReturnTypes)
      if (statusFamily(T) == Family)
        Types.push_back(T);
    It->second = learnErrorCheckWrapper(Ctx, Types, Device);
  }
  const std::optional<ErrorCheckWrapper> &W = It->second;
  if (!W)
    return nullptr;
  // The fix must compile where it is written: the macro defined there, the
  // function declared before it.
  if (W->IsMacro ? !isMacroDefinedAt(W->Name, At)
                 : !W->Function || !Ctx.getSourceManager().isBeforeInTranslationUnit(
                                       W->Function->getLocation(), At))
    return nullptr;
  return &*W;
}

/// Where the ErrorCheckMacro fix wraps \p Call: from its start to just after
/// its last token; invalid when a macro produces the call.
SourceRange UncheckedApiCallCheck::wrappableRange(const CallExpr *Call,
                                                  const SourceManager &SM) {
  SourceRange R = Call->getSourceRange();
  if (R.getBegin().isInvalid() || R.getEnd().isInvalid())
    return {};
  // A callee named through an object-like macro (cublas_v2.h's
  // `#define cublasSgemm cublasSgemm_v2`): the call as written.
  if (R.getBegin().isMacroID() && R.getEnd().isFileID() &&
      !SM.isMacroArgExpansion(R.getBegin())) {
    CharSourceRange Name = SM.getImmediateExpansionRange(R.getBegin());
    if (Name.getBegin().isFileID() && Name.getBegin() == Name.getEnd())
      R.setBegin(Name.getBegin());
  }
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return {};
  const LangOptions &LO =
      independentCallee(Call)->getASTContext().getLangOpts();
  SourceLocation AfterEnd = Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO);
  if (AfterEnd.isInvalid())
    return {};
  return {R.getBegin(), AfterEnd};
}

void UncheckedApiCallCheck::reportReevaluation(const CallExpr *Call,
                                               const CallExpr *Again,
                                               const SourceManager &SM) {
  SourceLocation Loc = reportOnce(Call->getBeginLoc(), SM);
  if (Loc.isInvalid())
    return;
  const LangOptions &LO = independentCallee(Call)->getASTContext().getLangOpts();
  StringRef Macro = Lexer::getImmediateMacroName(Call->getBeginLoc(), SM, LO);
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getSpellingLoc(Call->getBeginLoc()),
      SM.getSpellingLoc(Call->getEndLoc()));
  std::string Text = Lexer::getSourceText(Range, SM, LO).str();
  if (Macro.empty() || Text.empty() || Text.size() > 60)
    Text = independentCallee(Call)->getNameAsString() + "(...)";
  diag(Loc, "macro '%0' evaluates '%1' again when it fails")
      << Macro << Text;
  // Where the macro's body uses its argument the second time.
  SourceLocation Use = SM.getSpellingLoc(
      SM.getImmediateExpansionRange(Again->getBeginLoc()).getBegin());
  if (Use.isValid())
    diag(Use, "'%0' is evaluated a second time here", DiagnosticIDs::Note)
        << Macro;
}

} // namespace clang::tidy::cuda
