//===- FunctionCfg.cpp ----------------------------------------------------===//

#include "FunctionCfg.h"
#include "CompileErrors.h"
#include "AsyncWorkAnalysis.h"
#include "CudaApiModel.h"
#include "LaunchConfiguration.h"
#include "MemorySpaceAnalysis.h"
#include "TemplatePatterns.h"
#include "ThreadIndexAnalysis.h"
#include "TorchTensors.h"
#include "TranslationUnitScan.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <deque>

namespace clang::tidy::cuda {

FunctionCfg::FunctionCfg(const FunctionDecl *FD, std::unique_ptr<CFG> G)
    : Function(FD), Graph(std::move(G)) {
  BlocksById.resize(Graph->getNumBlockIDs());
  unsigned Elements = 0;
  for (const CFGBlock *B : *Graph)
    if (B) {
      BlocksById[B->getBlockID()] = B;
      Elements += B->size();
    }
  Points.reserve(Elements);
  for (const CFGBlock *B : *Graph) {
    if (!B)
      continue;
    for (unsigned I = 0, N = B->size(); I != N; ++I) {
      const Stmt *S = stmtOf((*B)[I]);
      if (!S)
        continue;
      Points.try_emplace(S, pack(B, I));
      // The CFG splits declarations with several variables into synthetic
      // single-variable statements: index them by variable.
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            DeclPoints.try_emplace(VD, pack(B, I));
    }
  }
}

const ParentMap &FunctionCfg::parents() const {
  if (!Parents)
    Parents = std::make_unique<ParentMap>(Function->getBody());
  return *Parents;
}

/// Whether \p DRE only loads the value of its variable, assigns to it or
/// increments it.
/// In a template pattern, whether dependent \p P reads the scalar \p DRE
/// by value: no lvalue-to-rvalue cast is built around operands of a
/// dependent expression ('v[tid]' with 'const T *v', '__shfl_sync(m, x, 0)'
/// with 'T x').
static bool readsInPattern(const DeclRefExpr *DRE, const Stmt *P) {
  const auto *PE = dyn_cast<Expr>(P);
  if (!PE || !PE->isTypeDependent() || DRE->isTypeDependent() ||
      !DRE->getType()->isScalarType())
    return false;
  if (isa<ArraySubscriptExpr>(P))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return !BO->isAssignmentOp() || BO->getRHS()->IgnoreParens() == DRE;
  const auto *Call = dyn_cast<CallExpr>(P);
  const auto *Lookup =
      Call ? dyn_cast<UnresolvedLookupExpr>(Call->getCallee()->IgnoreParens())
           : nullptr;
  if (!Lookup || !independentCallee(Call))
    return false;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    if (Call->getArg(I)->IgnoreParens() != DRE)
      continue;
    for (const NamedDecl *D : Lookup->decls()) {
      const FunctionDecl *FD = D->getUnderlyingDecl()->getAsFunction();
      if (!FD || I >= FD->getNumParams() ||
          FD->getParamDecl(I)->getType()->isReferenceType())
        return false;
    }
    return true;
  }
  return false;
}

static bool isPlainLoadOrStore(const DeclRefExpr *DRE, const ParentMap &PM) {
  const Stmt *P = PM.getParentIgnoreParens(DRE);
  if (!P)
    return false;
  if (readsInPattern(DRE, P))
    return true;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P))
    return ICE->getCastKind() == CK_LValueToRValue;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == DRE;
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    return UO->isIncrementDecrementOp();
  return false;
}

namespace {
/// What \p S does to \p VD: 0 nothing, 1 stores \p Value, 2 writes it
/// otherwise.
int storeTo(const Stmt *S, const VarDecl *VD, const Expr *&Value) {
  auto IsVD = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  };
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    if (DS->isSingleDecl() && DS->getSingleDecl() == VD) {
      Value = VD->getInit();
      return Value ? 1 : 2;
    }
    return 0;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (!BO->isAssignmentOp() || !IsVD(BO->getLHS()))
      return 0;
    if (BO->getOpcode() != BO_Assign)
      return 2;
    Value = BO->getRHS();
    return 1;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return UO->isIncrementDecrementOp() && IsVD(UO->getSubExpr()) ? 2 : 0;
  return 0;
}
} // namespace

int FunctionCfg::reachingWrite(const VarDecl *VD, const Stmt *At,
                               const Expr *&Value) const {
  std::optional<CfgPoint> P = pointOf(At);
  if (!P || hasIndirectUse(VD))
    return 0;
  // Backward from At along every path, each path ending at its first
  // write of VD; one write on all of them is the answer.
  const Stmt *Found = nullptr;
  int FoundKind = 0;
  const Expr *FoundValue = nullptr;
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 8> Work;
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
  Work.push_back({P->Block, P->Index});
  while (!Work.empty()) {
    auto [B, End] = Work.pop_back_val();
    const Stmt *Write = nullptr;
    int Kind = 0;
    const Expr *V = nullptr;
    for (unsigned I = End; I-- > 0 && !Kind;)
      if (const Stmt *S = stmtOf((*B)[I]))
        if ((Kind = storeTo(S, VD, V)))
          Write = S;
    if (Kind) {
      if (Found && Found != Write)
        return 0;
      Found = Write;
      FoundKind = Kind;
      FoundValue = V;
      continue;
    }
    if (B == &Graph->getEntry() || B->pred_empty())
      return 0; // A path on which VD is never written.
    for (const CFGBlock *Pred : B->preds())
      if (Pred && Seen.insert(Pred).second)
        Work.push_back({Pred, Pred->size()});
  }
  if (FoundKind == 1)
    Value = FoundValue;
  return FoundKind;
}

const Expr *FunctionCfg::uniqueReachingStore(const VarDecl *VD,
                                             const Stmt *At) const {
  const Expr *Value = nullptr;
  return reachingWrite(VD, At, Value) == 1 ? Value : nullptr;
}

bool FunctionCfg::hasUniqueReachingWrite(const VarDecl *VD,
                                         const Stmt *At) const {
  const Expr *Value = nullptr;
  return reachingWrite(VD, At, Value) != 0;
}

FunctionCfg::~FunctionCfg() = default;

std::optional<llvm::SmallVector<const CFGBlock *, 4>>
FunctionCfg::controlDependencies(const CFGBlock *B) const {
  CFG &G = const_cast<CFG &>(*Graph);
  if (!DepsKnown) {
    Deps = std::make_unique<ControlDependencyCalculator>(&G);
    auto &PostDom =
        const_cast<CFGPostDomTree &>(Deps->getCFGPostDomTree()).getBase();
    // Blocks that cannot reach the exit have no place in the post-dominator
    // tree: control dependence is unknown there.
    DepsKnown = llvm::all_of(G, [&](const CFGBlock *Block) {
      return PostDom.getNode(const_cast<CFGBlock *>(Block)) != nullptr;
    });
  }
  if (!*DepsKnown)
    return std::nullopt;
  llvm::SmallVector<const CFGBlock *, 4> Out;
  for (CFGBlock *Dep :
       Deps->getControlDependencies(const_cast<CFGBlock *>(B))) {
    const Stmt *T = Dep->getTerminatorStmt();
    if (T && !isa<BinaryConditionalOperator, ConditionalOperator>(T))
      Out.push_back(Dep);
  }
  return Out;
}

bool FunctionCfg::forEachTransitiveControlDependency(
    const CFGBlock *B, llvm::function_ref<bool(const CFGBlock *)> Visit,
    DependencyOrder Order) const {
  llvm::SmallPtrSet<const CFGBlock *, 8> Seen;
  std::deque<const CFGBlock *> Work{B};
  while (!Work.empty()) {
    const CFGBlock *Next;
    if (Order == DependencyOrder::DepthFirst) {
      Next = Work.back();
      Work.pop_back();
    } else {
      Next = Work.front();
      Work.pop_front();
    }
    auto Deps = controlDependencies(Next);
    if (!Deps)
      return false;
    for (const CFGBlock *D : *Deps) {
      if (!Seen.insert(D).second)
        continue;
      if (!Visit(D))
        return false;
      Work.push_back(D);
    }
  }
  return true;
}

const Stmt *FunctionCfg::owningStatement(const Stmt *Terminator,
                                         const ParentMap &PM) {
  const Stmt *S = Terminator;
  while (const auto *BO = dyn_cast_or_null<BinaryOperator>(S)) {
    if (!BO->isLogicalOp())
      break;
    const Stmt *P = PM.getParentIgnoreParenImpCasts(const_cast<Stmt *>(S));
    if (!P)
      break;
    S = P;
  }
  return S;
}

bool FunctionCfg::contains(const Stmt *Outer, const Stmt *Inner,
                           const ParentMap &PM) {
  for (const Stmt *S = Inner; S; S = PM.getParent(S))
    if (S == Outer)
      return true;
  return false;
}

bool FunctionCfg::isReachable(const CFGBlock *B) const {
  if (!Reachable) {
    Reachable.emplace();
    llvm::SmallVector<const CFGBlock *, 32> Work{&Graph->getEntry()};
    while (!Work.empty()) {
      const CFGBlock *Cur = Work.pop_back_val();
      if (!Reachable->insert(Cur).second)
        continue;
      for (const CFGBlock *Succ : Cur->succs())
        if (Succ)
          Work.push_back(Succ);
    }
  }
  return Reachable->count(B);
}

bool FunctionCfg::hasIndirectUse(const VarDecl *VD) const {
  if (!IndirectlyUsed) {
    IndirectlyUsed.emplace();
    const ParentMap &PM = parents();
    llvm::SmallVector<const Stmt *, 64> Work;
    if (const Stmt *Body = Function->getBody())
      Work.push_back(Body);
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          if (!isPlainLoadOrStore(DRE, PM))
            IndirectlyUsed->insert(V);
      } else if (const auto *L = dyn_cast<LambdaExpr>(S)) {
        for (const LambdaCapture &C : L->captures())
          if (C.capturesVariable())
            if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
              IndirectlyUsed->insert(V);
      }
      for (const Stmt *Child : S->children())
        if (Child)
          Work.push_back(Child);
    }
  }
  return IndirectlyUsed->count(VD);
}

std::optional<CfgPoint> FunctionCfg::pointOf(const Stmt *S) const {
  auto It = Points.find(S);
  if (It == Points.end())
    return std::nullopt;
  return unpack(It->second);
}

std::optional<CfgPoint>
FunctionCfg::declarationPointOf(const VarDecl *VD) const {
  auto It = DeclPoints.find(VD);
  if (It == DeclPoints.end())
    return std::nullopt;
  return unpack(It->second);
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

bool callsHelperThatDidNotCompile(const CallExpr *Call,
                                  const SourceManager &SM) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  return Callee && Callee->hasBody(Def) && Def->hasAttr<CUDADeviceAttr>() &&
         !SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())) &&
         (Def->isInvalidDecl() ||
          (!Def->isDependentContext() && !isAnalysableFunction(Def, SM)));
}

bool callsHelperThatDidNotCompile(const FunctionDecl *FD,
                                  const SourceManager &SM) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager &SM;
    bool Found = false;
    explicit Finder(const SourceManager &SM) : SM(SM) {}
    bool VisitCallExpr(CallExpr *Call) {
      Found = callsHelperThatDidNotCompile(Call, SM);
      return !Found;
    }
  } F(SM);
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

bool isAnalysableFunction(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD)
    return false;
  // The host function a check reads with errors (ReadingBodyWithErrors):
  // its own analyses read it, each erroneous action as unknown. Every other
  // question (a caller's summary) still finds it unanalysable below.
  if (const FunctionDecl *Reading = ReadingBodyWithErrors::current())
    if (Reading->getCanonicalDecl() == FD->getCanonicalDecl() &&
        FD->getBody() == Reading->getBody() &&
        !FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAGlobalAttr>())
      return true;
  // Every check and summary asks, many times per function: memoized.
  auto &Known = TranslationUnitAnalyses::get(FD->getASTContext()).Analysable;
  auto It = Known.find(FD);
  if (It != Known.end())
    return It->second;
  bool Analysable = FD->doesThisDeclarationHaveABody() && FD->getBody() &&
                    (!FD->isDependentContext() ||
                     isUninstantiatedPattern(FD)) &&
                    !FD->isInvalidDecl() &&
                    !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())) &&
                    !bodyDidNotCompile(FD, SM);
  Known[FD] = Analysable;
  // Device code reads its helpers' bodies (races, barriers, lanes) where
  // host code asks for summaries: a helper that did not compile leaves
  // its callers' facts unknown too.
  if (Analysable && FD->getASTContext().getDiagnostics().hasErrorOccurred() &&
      (FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>()) &&
      callsHelperThatDidNotCompile(FD, SM)) {
    // The recursive questions may have grown the map: look it up again.
    TranslationUnitAnalyses::get(FD->getASTContext()).Analysable[FD] = false;
    return false;
  }
  return Analysable;
}

bool isSeenWhole(const FunctionDecl *FD, const SourceManager &SM,
                 const ArchConditionals &Arch) {
  const Stmt *Body = FD->getBody();
  if (!Body)
    return false;
  // In a device compilation, what a __CUDA_ARCH__ conditional hides in a
  // kernel or a device-only function is another pass's code (the host's
  // side, or another architecture's): the paths this pass sees are the
  // paths that run here, and they are analysed as they are.
  if (FD->getASTContext().getLangOpts().CUDAIsDevice &&
      (FD->hasAttr<CUDAGlobalAttr>() ||
       (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>())))
    return true;
  return !Arch.hidesCodeIn(Body->getSourceRange(), SM);
}

namespace {
thread_local std::unique_ptr<TranslationUnitAnalyses> Current;
thread_local ASTContext *CurrentCtx = nullptr;
/// The bodies that did not compile whose CFG was built for the check that
/// reads them, and those refused to everyone else (sharedCfgOf).
thread_local llvm::DenseSet<const FunctionDecl *> BuiltWithErrors;
thread_local llvm::DenseSet<const FunctionDecl *> RefusedWithErrors;
} // namespace

TranslationUnitAnalyses &TranslationUnitAnalyses::get(ASTContext &Ctx) {
  if (!Current || CurrentCtx != &Ctx) {
    Current.reset(new TranslationUnitAnalyses(Ctx));
    CurrentCtx = &Ctx;
    BuiltWithErrors.clear();
    RefusedWithErrors.clear();
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

LaunchConfiguration &TranslationUnitAnalyses::launches() {
  if (!Launches)
    Launches = std::make_unique<LaunchConfiguration>(Ctx, threadIndex());
  return *Launches;
}

ThreadIndexAnalysis &TranslationUnitAnalyses::threadIndex() {
  if (!ThreadIndex)
    ThreadIndex = std::make_unique<ThreadIndexAnalysis>(Ctx);
  return *ThreadIndex;
}

TorchTensorAnalysis &TranslationUnitAnalyses::torchTensors() {
  if (!TorchTensors)
    TorchTensors = std::make_unique<TorchTensorAnalysis>(Ctx);
  return *TorchTensors;
}

TranslationUnitScan &TranslationUnitAnalyses::scan() {
  if (!Scan)
    Scan = std::make_unique<TranslationUnitScan>(Ctx);
  return *Scan;
}

void TranslationUnitAnalyses::reset() {
  Current.reset();
  BuiltWithErrors.clear();
  RefusedWithErrors.clear();
  CurrentCtx = nullptr;
  CudaApiModel::forgetLookups();
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUDA_TIDY_FREE_AT_EXIT 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CUDA_TIDY_FREE_AT_EXIT 1
#endif

void TranslationUnitAnalyses::releaseWithoutFreeing() {
#ifdef CUDA_TIDY_FREE_AT_EXIT
  reset();
#else
  (void)Current.release();
  CurrentCtx = nullptr;
#endif
}

/// How many CFGs startFunction() keeps: those of the functions used last.
/// The scans over the translation unit (summaries, storage) visit functions
/// in another order than the checks; with only the last few kept, most
/// CFGs were built twice. Keeping them all cost no peak memory on the
/// generated 32,000-line file (docs/performance.md), so only very large
/// translation units drop any, a quarter at a time.
static constexpr unsigned KeptCfgs = 4096;

void TranslationUnitAnalyses::startFunction(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def))
    Def = FD;
  if (Def == CurrentFunction)
    return;
  CurrentFunction = Def;
  if (Cfgs.count(Def))
    LastUse[Def] = ++UseCounter;
  if (Cfgs.size() <= KeptCfgs)
    return;
  // Drop the CFGs used least recently.
  llvm::SmallVector<std::pair<uint64_t, const FunctionDecl *>, 32> ByUse;
  for (const auto &Entry : Cfgs)
    ByUse.push_back({LastUse.lookup(Entry.first), Entry.first});
  llvm::sort(ByUse);
  for (unsigned I = 0, N = ByUse.size() - KeptCfgs * 3 / 4; I != N; ++I) {
    Cfgs.erase(ByUse[I].second);
    LastUse.erase(ByUse[I].second);
  }
}

std::optional<int64_t> TranslationUnitAnalyses::integerConstant(const Expr *E) {
  auto It = IntegerConstants.find(E);
  if (It != IntegerConstants.end())
    return It->second;
  std::optional<int64_t> Value;
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx) && !R.HasSideEffects)
    Value = R.Val.getInt().getExtValue();
  IntegerConstants[E] = Value;
  return Value;
}

std::shared_ptr<const FunctionCfg>
TranslationUnitAnalyses::sharedCfgOf(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  LastUse[Def] = ++UseCounter;
  auto [It, Inserted] = Cfgs.try_emplace(Def);
  // A body that did not compile has a CFG only for the check that reads
  // code with errors (ReadingBodyWithErrors): every other analysis, a
  // caller's summary, takes it as unknown.
  bool Reading = Def == ReadingBodyWithErrors::current();
  if (!Inserted) {
    if (It->second && !Reading && BuiltWithErrors.count(Def))
      return nullptr;
    if (It->second || !Reading || !RefusedWithErrors.count(Def))
      return It->second;
  }
  // Clang's CFG builder is not made for code that did not compile (it
  // crashes on the implicit destructor of a class with invalid members):
  // such a function has no CFG.
  // A function whose signature alone did not compile is read like a body
  // with errors (onlySignatureDidNotCompile).
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Method = dyn_cast<CXXMethodDecl>(Def);
  if ((Def->isInvalidDecl() &&
       !(Reading && onlySignatureDidNotCompile(Def, SM))) ||
      (Method && Method->getParent()->isInvalidDecl()))
    return nullptr;
  bool WithErrors = bodyDidNotCompile(Def, SM);
  if (WithErrors && (!Reading || bodyIsUnreadable(Def, SM))) {
    RefusedWithErrors.insert(Def);
    return nullptr;
  }
  if (WithErrors)
    BuiltWithErrors.insert(Def);
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
/// Who is called, whose address is taken and which template patterns are
/// instantiated, from the walk with instantiations and implicit code.
class CallCollector : public ScanVisitor<CallCollector> {
public:
  CallCollector(llvm::DenseSet<const FunctionDecl *> &Called,
                llvm::DenseSet<const FunctionDecl *> &AddressTaken,
                llvm::DenseSet<const FunctionDecl *> &Instantiated)
      : Called(Called), AddressTaken(AddressTaken),
        Instantiated(Instantiated) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->isDependentContext() && FD->doesThisDeclarationHaveABody())
      if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
        Instantiated.insert(Pattern->getCanonicalDecl());
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee())
      Called.insert(FD->getCanonicalDecl());
    // The callee of a plain call or a launch is not an address-taking use.
    // An overloaded operator's callee still counts as a reference, as it
    // always has here.
    if (C->getStmtClass() == Stmt::CallExprClass || isa<CUDAKernelCallExpr>(C))
      if (Expr *Callee = C->getCallee())
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(Callee->IgnoreParenImpCasts()))
          Callees.insert(DRE);
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

private:
  llvm::DenseSet<const FunctionDecl *> &Called;
  llvm::DenseSet<const FunctionDecl *> &AddressTaken;
  llvm::DenseSet<const FunctionDecl *> &Instantiated;
  llvm::DenseSet<const DeclRefExpr *> Callees;
  llvm::SmallVector<std::pair<const DeclRefExpr *, const FunctionDecl *>, 32>
      Referenced;
};
} // namespace

void TranslationUnitAnalyses::buildCallGraph() {
  if (CallGraphBuilt)
    return;
  CallGraphBuilt = true;
  CallCollector Collector(Called, AddressTaken, InstantiatedPatterns);
  Collector.replay(scan().nodes(/*ImplicitCode=*/true),
                   /*Instantiations=*/true);
  Collector.finish();
}

namespace {
/// The functions a body calls or constructs with (and destroys with),
/// directly.
class DirectCallees : public RecursiveASTVisitor<DirectCallees> {
public:
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee())
      Found.push_back(F);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    const CXXConstructorDecl *Ctor = E->getConstructor();
    Found.push_back(Ctor);
    if (const CXXDestructorDecl *Dtor = Ctor->getParent()->getDestructor())
      Found.push_back(Dtor);
    return true;
  }
  llvm::SmallVector<const FunctionDecl *, 16> Found;
};

bool bodyWasSkipped(const FunctionDecl *FD) {
  if (llvm::any_of(FD->redecls(), [](const FunctionDecl *R) {
        return R->hasSkippedBody();
      }))
    return true;
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  return Pattern && Pattern != FD &&
         llvm::any_of(Pattern->redecls(), [](const FunctionDecl *R) {
           return R->hasSkippedBody();
         });
}
} // namespace

bool TranslationUnitAnalyses::reachesSkippedBody(const FunctionDecl *FD) {
  if (!MaySkipBodies) {
    std::vector<Decl *> Scope = Ctx.getTraversalScope();
    MaySkipBodies =
        !(Scope.size() == 1 && isa<TranslationUnitDecl>(Scope.front()));
  }
  if (!*MaySkipBodies || !FD)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return false;
  if (bodyWasSkipped(FD))
    return true;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return false;
  auto [It, Inserted] = ReachesSkipped.try_emplace(Def, false);
  if (!Inserted)
    return It->second; // Known, or being computed (a cycle).
  DirectCallees Callees;
  Callees.TraverseStmt(Def->getBody());
  bool Reaches = llvm::any_of(Callees.Found, [&](const FunctionDecl *F) {
    return reachesSkippedBody(F);
  });
  ReachesSkipped[Def] = Reaches;
  return Reaches;
}

bool TranslationUnitAnalyses::hasKnownCallers(const FunctionDecl *FD) {
  // Sema marks every function that any expression names: one it never
  // marked has no callers, and the walk of the translation unit is saved.
  if (!FD->isReferenced())
    return false;
  buildCallGraph();
  return Called.count(FD->getCanonicalDecl());
}

bool TranslationUnitAnalyses::hasInstantiationOf(const FunctionDecl *Pattern) {
  buildCallGraph();
  return InstantiatedPatterns.count(Pattern->getCanonicalDecl());
}

bool TranslationUnitAnalyses::isAddressTaken(const FunctionDecl *FD) {
  if (!FD->isReferenced())
    return false;
  buildCallGraph();
  return AddressTaken.count(FD->getCanonicalDecl());
}

} // namespace clang::tidy::cuda
