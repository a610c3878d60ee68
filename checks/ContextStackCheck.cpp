//===- ContextStackCheck.cpp ----------------------------------------------===//

#include "ContextStackCheck.h"
#include "SourceLocations.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::tidy::cuda {

namespace {
/// How a finding names the call it is about: the function a call or
/// construction runs.
std::string callName(const Stmt *S) {
  if (const auto *Call = dyn_cast_or_null<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee()) {
      // cuda.h maps the names code writes to versioned entry points
      // (cuCtxPushCurrent is cuCtxPushCurrent_v2): say the written name.
      StringRef Name = FD->getName();
      size_t V = Name.rfind("_v");
      if (V != StringRef::npos && V + 2 < Name.size() &&
          llvm::all_of(Name.drop_front(V + 2), llvm::isDigit))
        Name = Name.take_front(V);
      return Name.str();
    }
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(S))
    return CE->getConstructor()->getParent()->getNameAsString();
  return "the call";
}
} // namespace

void ContextStackCheck::checkFunction(const FunctionDecl &FD,
                                      const FunctionCfg &Cfg,
                                      ASTContext &Ctx) {
  if (!Analysis)
    Analysis = std::make_unique<ContextStackAnalysis>(Ctx, arch());
  const SourceManager &SM = Ctx.getSourceManager();
  for (const ContextStackFinding &F : Analysis->analyse(FD, Cfg)) {
    SourceLocation At = F.Where->getBeginLoc();
    if (const auto *Body = dyn_cast<CompoundStmt>(F.Where))
      At = Body->getRBracLoc();
    SourceLocation Loc = reportOnce(At, SM);
    if (Loc.isInvalid())
      continue;
    std::string Origin = callName(F.Origin);
    std::string Call = callName(F.Where);
    switch (F.K) {
    case ContextStackFinding::LeftPushed:
      diag(Loc, "the context pushed by '%0' is still current when %1 "
                "returns here; other paths pop it")
          << Origin << &FD;
      diag(userVisibleLocation(F.Origin->getBeginLoc(), SM),
           "the context is pushed here", DiagnosticIDs::Note);
      break;
    case ContextStackFinding::PoppedTwice:
    case ContextStackFinding::ReleasedTwice: {
      // The function undoes its own push (retain) a second time.
      bool Retain = F.K == ContextStackFinding::ReleasedTwice;
      diag(Loc, "'%0' %select{pops the context stack again after this "
                "function popped the context it pushed; it pops a context "
                "of the caller|releases the primary context again after this "
                "function released the reference it retained}1")
          << Call << Retain;
      diag(userVisibleLocation(F.Origin->getBeginLoc(), SM),
           "the only %select{context this function pushes on this path is "
           "pushed|reference this function retains on this path is "
           "retained}0 here, and %select{popped|released}0 before",
           DiagnosticIDs::Note)
          << Retain;
      break;
    }
    case ContextStackFinding::PoppedUnpushed:
    case ContextStackFinding::ReleasedUnretained: {
      // The function undoes, on one path, what it does on others only.
      bool Retain = F.K == ContextStackFinding::ReleasedUnretained;
      diag(Loc, "'%0' %select{pops the context stack on a path where this "
                "function pushed nothing; on other paths it pops the context "
                "'%1' pushes|releases the primary context on a path where "
                "this function did not retain it; on other paths it releases "
                "the reference '%1' retains}2")
          << Call << Origin << Retain;
      diag(userVisibleLocation(F.Origin->getBeginLoc(), SM),
           "the %select{context is pushed|primary context is retained}0 "
           "here, only on some paths",
           DiagnosticIDs::Note)
          << Retain;
      break;
    }
    case ContextStackFinding::DestroyedOnStack:
      diag(Loc, "'%0' destroys context %1 while it is on the context stack "
                "under another context: the driver pops only a destroyed "
                "context that is current, so %1 stays on the stack, "
                "destroyed")
          << Call << F.Var;
      diag(userVisibleLocation(F.Origin->getBeginLoc(), SM),
           "%0 is pushed here", DiagnosticIDs::Note)
          << F.Var;
      break;
    }
  }
}

} // namespace clang::tidy::cuda
