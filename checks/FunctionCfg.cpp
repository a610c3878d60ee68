//===- FunctionCfg.cpp ----------------------------------------------------===//

#include "FunctionCfg.h"
#include "AsyncWorkAnalysis.h"
#include "MemorySpaceAnalysis.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

FunctionCfg::FunctionCfg(const FunctionDecl *FD, std::unique_ptr<CFG> G)
    : Function(FD), Graph(std::move(G)) {
  for (const CFGBlock *B : *Graph) {
    if (!B)
      continue;
    for (unsigned I = 0, N = B->size(); I != N; ++I) {
      const Stmt *S = stmtOf((*B)[I]);
      if (!S)
        continue;
      Points.try_emplace(S, CfgPoint{B, I});
      // The CFG splits declarations with several variables into synthetic
      // single-variable statements: index them by variable.
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            DeclPoints.try_emplace(VD, CfgPoint{B, I});
    }
  }
}

const ParentMap &FunctionCfg::parents() const {
  if (!Parents)
    Parents = std::make_unique<ParentMap>(Function->getBody());
  return *Parents;
}

const Stmt *FunctionCfg::stmtOf(const CFGElement &E) {
  if (auto S = E.getAs<CFGStmt>())
    return S->getStmt();
  return nullptr;
}

std::optional<CfgPoint> FunctionCfg::pointOf(const Stmt *S) const {
  auto It = Points.find(S);
  if (It == Points.end())
    return std::nullopt;
  return It->second;
}

std::optional<CfgPoint>
FunctionCfg::declarationPointOf(const VarDecl *VD) const {
  auto It = DeclPoints.find(VD);
  if (It == DeclPoints.end())
    return std::nullopt;
  return It->second;
}

void FunctionCfg::walk(
    const CFGBlock *StartBlock, unsigned StartIndex,
    llvm::function_ref<bool(const Stmt *, CfgPoint)> Visit,
    llvm::function_ref<bool(const Stmt *LastStmt)> AtExit) const {
  // Each block is entered from its top at most once; the starting block is
  // first walked from StartIndex and may be entered again through a loop.
  struct Item {
    const CFGBlock *Block;
    unsigned Start;
    const Stmt *Last;
  };
  llvm::DenseSet<const CFGBlock *> Entered;
  llvm::SmallVector<Item, 16> Work;
  Work.push_back({StartBlock, StartIndex, nullptr});
  while (!Work.empty()) {
    Item It = Work.pop_back_val();
    const CFGBlock *B = It.Block;
    if (B == &Graph->getExit()) {
      if (AtExit(It.Last))
        return;
      continue;
    }
    const Stmt *Last = It.Last;
    bool Stopped = false;
    for (unsigned I = It.Start, N = B->size(); I < N; ++I) {
      const Stmt *S = stmtOf((*B)[I]);
      if (!S)
        continue;
      Last = S;
      if (Visit(S, CfgPoint{B, I})) {
        Stopped = true;
        break;
      }
    }
    // A path through a noreturn call (exit, abort) ends the program: it never
    // reaches the function's exit.
    if (Stopped || B->hasNoReturnElement())
      continue;
    if (const Stmt *T = B->getTerminatorStmt())
      Last = T;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && Entered.insert(Succ).second)
        Work.push_back({Succ, 0, Last});
  }
}

void FunctionCfg::walkForward(
    CfgPoint From, llvm::function_ref<bool(const Stmt *, CfgPoint)> Visit,
    llvm::function_ref<bool(const Stmt *LastStmt)> AtExit) const {
  walk(From.Block, From.Index + 1, Visit, AtExit);
}

void FunctionCfg::walkFromEntry(
    llvm::function_ref<bool(const Stmt *, CfgPoint)> Visit,
    llvm::function_ref<bool(const Stmt *LastStmt)> AtExit) const {
  walk(&Graph->getEntry(), 0, Visit, AtExit);
}

bool isAnalysableFunction(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD || !FD->doesThisDeclarationHaveABody() || !FD->getBody())
    return false;
  if (FD->isDependentContext() || FD->isInvalidDecl())
    return false;
  SourceLocation Loc = SM.getExpansionLoc(FD->getLocation());
  return !SM.isInSystemHeader(Loc);
}

bool isSeenWhole(const FunctionDecl *FD, const SourceManager &SM,
                 const ArchConditionals &Arch) {
  const Stmt *Body = FD->getBody();
  return Body && !Arch.hidesCodeIn(Body->getSourceRange(), SM);
}

namespace {
thread_local std::unique_ptr<TranslationUnitAnalyses> Current;
thread_local ASTContext *CurrentCtx = nullptr;
} // namespace

TranslationUnitAnalyses &TranslationUnitAnalyses::get(ASTContext &Ctx) {
  if (!Current || CurrentCtx != &Ctx) {
    Current.reset(new TranslationUnitAnalyses(Ctx));
    CurrentCtx = &Ctx;
  }
  return *Current;
}

TranslationUnitAnalyses::TranslationUnitAnalyses(ASTContext &Ctx) : Ctx(Ctx) {}
TranslationUnitAnalyses::~TranslationUnitAnalyses() = default;

MemorySpaceAnalysis &
TranslationUnitAnalyses::memorySpaces(const ArchConditionals &Arch) {
  if (!MemorySpaces)
    MemorySpaces = std::make_unique<MemorySpaceAnalysis>(Ctx, Arch);
  return *MemorySpaces;
}

AsyncWorkAnalysis &
TranslationUnitAnalyses::asyncWork(const ArchConditionals &Arch) {
  if (!AsyncWork)
    AsyncWork = std::make_unique<AsyncWorkAnalysis>(Ctx, Arch);
  return *AsyncWork;
}

void TranslationUnitAnalyses::reset() {
  Current.reset();
  CurrentCtx = nullptr;
}

void TranslationUnitAnalyses::startFunction(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def))
    Def = FD;
  if (Def == CurrentFunction)
    return;
  CurrentFunction = Def;
  auto Keep = Cfgs.find(Def);
  std::shared_ptr<const FunctionCfg> Kept;
  bool HadEntry = Keep != Cfgs.end();
  if (HadEntry)
    Kept = std::move(Keep->second);
  Cfgs.clear();
  if (HadEntry)
    Cfgs[Def] = std::move(Kept);
}

std::shared_ptr<const FunctionCfg>
TranslationUnitAnalyses::sharedCfgOf(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  auto [It, Inserted] = Cfgs.try_emplace(Def);
  if (!Inserted)
    return It->second;
  CFG::BuildOptions Options;
  Options.AddImplicitDtors = true;
  Options.AddTemporaryDtors = true;
  Options.AddCXXDefaultInitExprInCtors = true;
  Options.setAllAlwaysAdd();
  std::unique_ptr<CFG> G =
      CFG::buildCFG(Def, Def->getBody(), &Ctx, Options);
  if (G)
    It->second = std::make_shared<FunctionCfg>(Def, std::move(G));
  return It->second;
}

namespace {
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  CallCollector(const SourceManager &SM,
                llvm::DenseSet<const FunctionDecl *> &Called,
                llvm::DenseSet<const FunctionDecl *> &AddressTaken)
      : SM(SM), Called(Called), AddressTaken(AddressTaken) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee())
      Called.insert(FD->getCanonicalDecl());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // Address-taking uses are DeclRefExprs that are not a call's callee.
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      Referenced.push_back({DRE, FD->getCanonicalDecl()});
    return true;
  }

  void finish() {
    for (auto &[DRE, FD] : Referenced)
      if (!Callees.count(DRE))
        AddressTaken.insert(FD);
  }
  bool TraverseCallExpr(CallExpr *C) {
    if (Expr *Callee = C->getCallee())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(Callee->IgnoreParenImpCasts()))
        Callees.insert(DRE);
    return RecursiveASTVisitor::TraverseCallExpr(C);
  }
  bool TraverseCUDAKernelCallExpr(CUDAKernelCallExpr *C) {
    if (Expr *Callee = C->getCallee())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(Callee->IgnoreParenImpCasts()))
        Callees.insert(DRE);
    return RecursiveASTVisitor::TraverseCUDAKernelCallExpr(C);
  }

private:
  const SourceManager &SM;
  llvm::DenseSet<const FunctionDecl *> &Called;
  llvm::DenseSet<const FunctionDecl *> &AddressTaken;
  llvm::DenseSet<const DeclRefExpr *> Callees;
  llvm::SmallVector<std::pair<const DeclRefExpr *, const FunctionDecl *>, 32>
      Referenced;
};
} // namespace

void TranslationUnitAnalyses::buildCallGraph() {
  if (CallGraphBuilt)
    return;
  CallGraphBuilt = true;
  CallCollector Collector(Ctx.getSourceManager(), Called, AddressTaken);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  Collector.finish();
}

bool TranslationUnitAnalyses::hasKnownCallers(const FunctionDecl *FD) {
  buildCallGraph();
  return Called.count(FD->getCanonicalDecl());
}

bool TranslationUnitAnalyses::isAddressTaken(const FunctionDecl *FD) {
  buildCallGraph();
  return AddressTaken.count(FD->getCanonicalDecl());
}

} // namespace clang::tidy::cuda
