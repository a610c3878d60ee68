//===- LaunchConfigurationCheck.cpp ---------------------------------------===//

#include "LaunchConfigurationCheck.h"
#include "CudaApiModel.h"
#include "FunctionCfg.h"
#include "LaunchConfiguration.h"
#include "SourceLocations.h"
#include "ThreadIndexAnalysis.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda {

namespace {

const char *const DimNames[] = {"x", "y", "z"};

/// Kinds of finding, for the one-report-per-place rule.
enum FindingKind : unsigned {
  FK_ZeroGrid,
  FK_ZeroBlock = FK_ZeroGrid + 3,
  FK_BlockDim = FK_ZeroBlock + 3,
  FK_GridDim = FK_BlockDim + 3,
  FK_Threads = FK_GridDim + 3,
  FK_LaunchBounds,
  FK_SharedOptIn,
  FK_SharedMax,
  FK_GridGrowth,
};

/// The threads per block, when every dimension is a known positive
/// constant (saturated far above any limit).
std::optional<int64_t> threadsPerBlock(const LaunchSite &S) {
  int64_t Product = 1;
  for (const LaunchDimension &D : S.Dims) {
    if (!D.BlockConst || *D.BlockConst <= 0)
      return std::nullopt;
    Product = std::min<int64_t>(Product * *D.BlockConst, int64_t(1) << 40);
  }
  return Product;
}

/// The dimension that contributes most to the block, for notes.
unsigned largestBlockDim(const LaunchSite &S) {
  unsigned Best = 0;
  for (unsigned D = 1; D < 3; ++D)
    if (S.Dims[D].BlockConst && S.Dims[Best].BlockConst &&
        *S.Dims[D].BlockConst > *S.Dims[Best].BlockConst)
      Best = D;
  return Best;
}

/// "32 x 32 x 2", or "" for a block that only has x.
std::string blockShape(const LaunchSite &S) {
  if (*S.Dims[1].BlockConst == 1 && *S.Dims[2].BlockConst == 1)
    return "";
  std::string Out = " (" + std::to_string(*S.Dims[0].BlockConst) + " x " +
                    std::to_string(*S.Dims[1].BlockConst);
  if (*S.Dims[2].BlockConst != 1)
    Out += " x " + std::to_string(*S.Dims[2].BlockConst);
  return Out + ")";
}

/// Whether \p Loc lies in the source text of \p Call.
bool isWithin(SourceLocation Loc, const CallExpr *Call,
              const SourceManager &SM) {
  CharSourceRange R = SM.getExpansionRange(Call->getSourceRange());
  Loc = SM.getFileLoc(Loc);
  if (SM.getFileID(Loc) != SM.getFileID(R.getBegin()))
    return false;
  unsigned Offset = SM.getFileOffset(Loc);
  return SM.getFileOffset(R.getBegin()) <= Offset &&
         Offset <= SM.getFileOffset(R.getEnd());
}

/// Whether another launch in the function of \p S puts the same grid
/// expression in dimension \p D beside an x that grows with the data,
/// neither a constant nor capped by one. That launch carries the rows on
/// x, and \p S, one block wide in x, takes what it left (the tail of fewer
/// rows than its tile): dimension \p D is the second of a tiling, as small
/// in \p S as it is there, where it is not reported. A capped x beside the
/// same y is the swapped shape again, not evidence against it.
bool tiledBeside(const LaunchSite &S, unsigned D, LaunchConfiguration &Launches,
                 const ASTContext &Ctx) {
  const Expr *Mine = S.Dims[D].Grid;
  if (!Mine)
    return false;
  llvm::FoldingSetNodeID Id;
  Mine->IgnoreParenImpCasts()->Profile(Id, Ctx, /*Canonical=*/true);
  for (const LaunchSite *O : Launches.sitesIn(S.Host)) {
    const LaunchDimension &OX = O->Dims[0];
    if (O->Launch == S.Launch || !O->Dims[D].Grid || !OX.Grid ||
        OX.GridConst || OX.GridCapped)
      continue;
    llvm::FoldingSetNodeID Other;
    O->Dims[D].Grid->IgnoreParenImpCasts()->Profile(Other, Ctx,
                                                    /*Canonical=*/true);
    if (Other == Id)
      return true;
  }
  return false;
}

} // namespace

void LaunchConfigurationCheck::checkFunction(const FunctionDecl &FD,
                                             const FunctionCfg &Cfg,
                                             ASTContext &Ctx) {
  // Launches from device code (dynamic parallelism) are configured from the
  // parent's gridDim/blockDim, which the analysis does not read: silent.
  if (FD.hasAttr<CUDAGlobalAttr>() || FD.hasAttr<CUDADeviceAttr>())
    return;
  LaunchConfiguration &Launches = TranslationUnitAnalyses::get(Ctx).launches();
  for (const LaunchSite *S : Launches.sitesIn(&FD)) {
    if (!S->Kernel)
      continue;
    // A launch the CFG proves dead ('if (kBlock <= 1024)') is not made.
    std::optional<CfgPoint> P = Cfg.pointOf(S->Launch);
    if (P && !Cfg.isReachable(P->Block))
      continue;
    checkBlock(*S, Ctx);
    checkGrid(*S, Ctx);
    checkLaunchBounds(*S, Ctx);
    checkSharedMemory(*S, Cfg, Ctx);
  }
}

SourceLocation LaunchConfigurationCheck::reportAt(const LaunchSite &S,
                                                  const ConstantSource &From,
                                                  unsigned Kind,
                                                  const SourceManager &SM) {
  const CallExpr *Shown = From.InCaller && S.Via ? S.Via : S.Launch;
  SourceLocation Loc = userVisibleLocation(Shown->getBeginLoc(), SM);
  // Once per place in the file: the cases of an AT_DISPATCH expand the
  // same launch once each.
  if (!Reported.insert({SM.getFileLoc(Loc).getRawEncoding(), Kind}).second)
    return SourceLocation();
  return Loc;
}

void LaunchConfigurationCheck::noteValue(const LaunchSite &S,
                                         const ConstantSource &From,
                                         int64_t Value,
                                         const SourceManager &SM) {
  const CallExpr *Shown = From.InCaller && S.Via ? S.Via : S.Launch;
  if (From.E) {
    SourceLocation Set = SM.getSpellingLoc(From.E->getBeginLoc());
    // An enumerator is set at its declaration.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(From.E->IgnoreParenImpCasts()))
      if (isa<EnumConstantDecl>(DRE->getDecl()))
        Set = SM.getSpellingLoc(DRE->getDecl()->getLocation());
    if (!isWithin(Set, Shown, SM))
      diag(Set, "the value %0 comes from here", DiagnosticIDs::Note) << Value;
  }
  if (Shown != S.Launch)
    diag(S.Launch->getBeginLoc(), "%0 is launched here", DiagnosticIDs::Note)
        << S.Kernel;
  // A value from a template argument: where the instantiation was made.
  if (From.E && !From.InCaller && S.Host->isTemplateInstantiation() &&
      isWithin(SM.getSpellingLoc(From.E->getBeginLoc()), S.Launch, SM))
    diag(S.Host->getPointOfInstantiation(), "in %0, instantiated here",
         DiagnosticIDs::Note)
        << S.Host;
}

bool LaunchConfigurationCheck::checkDimension(const LaunchSite &S, unsigned D,
                                              bool Grid,
                                              const SourceManager &SM) {
  const LaunchDimension &LD = S.Dims[D];
  const std::optional<int64_t> &Value = Grid ? LD.GridConst : LD.BlockConst;
  const LaunchLimits &Limits = CudaApiModel::launchLimits();
  int64_t Limit = Grid ? Limits.maxGridDim(D) : Limits.maxBlockDim(D);
  if (!Value || (*Value != 0 && *Value <= Limit))
    return false;
  bool Empty = *Value == 0;
  const ConstantSource &From = Grid ? LD.GridFrom : LD.BlockFrom;
  unsigned Kind = Empty ? (Grid ? FK_ZeroGrid : FK_ZeroBlock)
                        : (Grid ? FK_GridDim : FK_BlockDim);
  SourceLocation Loc = reportAt(S, From, Kind + D, SM);
  if (Loc.isInvalid())
    return true;
  if (Empty)
    diag(Loc, "launch of %0 asks for %select{blockDim|gridDim}1.%2 = 0, "
              "which the device rejects")
        << S.Kernel << Grid << DimNames[D];
  else
    diag(Loc, "launch of %0 asks for %select{blockDim|gridDim}1.%2 = %3, "
              "more than the %4 the device allows")
        << S.Kernel << Grid << DimNames[D] << *Value << Limit;
  noteValue(S, From, *Value, SM);
  return true;
}

void LaunchConfigurationCheck::checkBlock(const LaunchSite &S,
                                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LaunchLimits &Limits = CudaApiModel::launchLimits();
  for (unsigned D = 0; D < 3; ++D)
    if (S.Dims[D].BlockConst && *S.Dims[D].BlockConst == 0) {
      checkDimension(S, D, /*Grid=*/false, SM);
      return;
    }
  if (std::optional<int64_t> Threads = threadsPerBlock(S);
      Threads && *Threads > Limits.MaxThreadsPerBlock) {
    const ConstantSource &From = S.Dims[largestBlockDim(S)].BlockFrom;
    if (SourceLocation Loc = reportAt(S, From, FK_Threads, SM);
        Loc.isValid()) {
      diag(Loc, "launch of %0 asks for %1 threads per block%2, more than the "
                "%3 the device allows")
          << S.Kernel << *Threads << blockShape(S)
          << Limits.MaxThreadsPerBlock;
      noteValue(S, From, *S.Dims[largestBlockDim(S)].BlockConst, SM);
    }
    return;
  }
  for (unsigned D = 0; D < 3; ++D)
    checkDimension(S, D, /*Grid=*/false, SM);
}

void LaunchConfigurationCheck::checkGrid(const LaunchSite &S,
                                         ASTContext &Ctx) {
  for (unsigned D = 0; D < 3; ++D)
    if (!checkDimension(S, D, /*Grid=*/true, Ctx.getSourceManager()) &&
        D > 0 && GridsFromData)
      checkGridGrowth(S, D, Ctx);
}

void LaunchConfigurationCheck::checkGridGrowth(const LaunchSite &S,
                                               unsigned D, ASTContext &Ctx) {
  using Growth = LaunchDimension::Growth;
  const LaunchDimension &LD = S.Dims[D];
  const LaunchDimension &X = S.Dims[0];
  // One size on y or z is reported only where it is the grid's one
  // dimension that grows with the data, so that x and y look swapped: x is
  // one block, or, for a tensor's leading size ('x.size(0)', a batch), x is
  // any constant or capped by one (min(), 'a < C ? a : C'), while the block
  // is a constant in x and the other of y and z a constant. A product of
  // sizes or an element count is reported whatever x is.
  // A block that carries the data in x ('<<<dim3(1, ny, nz), nx>>>' over
  // a 3-D domain), or a y and a z that both vary, tile a domain of
  // several dimensions: one size there is as small as the others; so is
  // a y beside an x that grows with other data (a batch beside points),
  // and a y that another launch of the function puts beside such an x
  // (the one-block-wide launch takes that launch's leftover rows).
  const LaunchDimension &Other = S.Dims[D == 1 ? 2 : 1];
  bool XOne = X.GridConst && *X.GridConst == 1;
  bool XSmall = X.GridConst || (X.Grid && X.GridCapped);
  bool Swapped = X.BlockConst && (!Other.Grid || Other.GridConst) &&
                 (XOne || (XSmall && LD.GridFromLeadingTensorSize));
  if (LD.GridGrowth == Growth::None || !LD.Grid)
    return;
  if (LD.GridGrowth == Growth::Size &&
      (!Swapped ||
       tiledBeside(S, D, TranslationUnitAnalyses::get(Ctx).launches(), Ctx)))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportAt(S, ConstantSource(), FK_GridGrowth + D, SM);
  if (Loc.isInvalid())
    return;
  int64_t Limit = CudaApiModel::launchLimits().maxGridDim(D);
  std::string Written = ThreadIndexAnalysis::textOf(LD.Grid, Ctx);
  std::string Value = LD.GridGrowsWith
                          ? ThreadIndexAnalysis::textOf(LD.GridGrowsWith, Ctx)
                          : Written;
  std::string Shown = Value == Written ? "'" + Written + "'"
                                       : "'" + Written + "' (" + Value + ")";
  unsigned Kind = LD.GridGrowth == Growth::Elements  ? 0
                  : LD.GridGrowth == Growth::Product ? 1
                                                     : 2;
  // How x is shown beside one size: its constant, or what bounds it.
  unsigned XShown = Kind != 2 ? 0 : X.GridConst ? 1 : 2;
  std::string XText =
      X.Grid ? "'" + ThreadIndexAnalysis::textOf(X.Grid, Ctx) + "'" : "1";
  diag(Loc, "launch of %0 puts %1 on gridDim.%2, %select{an element "
            "count|a product of sizes|a size}3 that nothing bounds on this "
            "path%select{|, while gridDim.x is %5|, while gridDim.x is "
            "bounded (%7)}6: the launch fails once it passes %4 blocks")
      << S.Kernel << Shown << DimNames[D] << Kind << Limit
      << (X.GridConst ? *X.GridConst : 0) << XShown << XText;
  if (LD.GridGrowsWith && Value != Written) {
    SourceLocation At = SM.getFileLoc(LD.GridGrowsWith->getBeginLoc());
    if (!isWithin(At, S.Launch, SM))
      diag(At, "'%0' is computed here", DiagnosticIDs::Note) << Written;
  }
  diag(SM.getFileLoc(LD.Grid->getBeginLoc()),
       "put the large dimension on gridDim.x, which allows %0 blocks, or "
       "bound it ('TORCH_CHECK(%1 <= %2)', or min(%1, %2) blocks with a "
       "grid-stride loop in the kernel)",
       DiagnosticIDs::Note)
      << CudaApiModel::launchLimits().maxGridDim(0) << Written << Limit;
}

void LaunchConfigurationCheck::checkLaunchBounds(const LaunchSite &S,
                                                 ASTContext &Ctx) {
  const FunctionDecl *Def = S.Kernel->getDefinition();
  const auto *Bounds =
      (Def ? Def : S.Kernel)->getAttr<CUDALaunchBoundsAttr>();
  std::optional<int64_t> Threads = threadsPerBlock(S);
  if (!Bounds || !Bounds->getMaxThreads() || !Threads ||
      *Threads > CudaApiModel::launchLimits().MaxThreadsPerBlock ||
      Bounds->getMaxThreads()->isValueDependent())
    return;
  std::optional<int64_t> Max =
      TranslationUnitAnalyses::get(Ctx).integerConstant(
          Bounds->getMaxThreads());
  if (!Max || *Max <= 0 || *Threads <= *Max)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const ConstantSource &From = S.Dims[largestBlockDim(S)].BlockFrom;
  SourceLocation Loc = reportAt(S, From, FK_LaunchBounds, SM);
  if (Loc.isInvalid())
    return;
  diag(Loc, "launch of %0 asks for %1 threads per block%2, more than the %3 "
            "of its __launch_bounds__")
      << S.Kernel << *Threads << blockShape(S) << *Max;
  noteValue(S, From, *S.Dims[largestBlockDim(S)].BlockConst, SM);
  diag(SM.getExpansionLoc(Bounds->getLocation()),
       "%0 is declared with at most %1 threads per block here",
       DiagnosticIDs::Note)
      << S.Kernel << *Max;
}

bool LaunchConfigurationCheck::mayRaiseSharedLimit(const LaunchSite &S,
                                                   const FunctionCfg &Cfg,
                                                   ASTContext &Ctx) {
  LaunchConfiguration &Launches = TranslationUnitAnalyses::get(Ctx).launches();
  // Code this translation unit cannot see may name the kernel.
  if (!Launches.launchesOf(S.Kernel).AllVisible)
    return true;
  for (const LaunchConfiguration::LimitRaise &R :
       Launches.sharedMemoryLimitRaises(S.Kernel)) {
    // Calls in other functions cannot be ordered with the launch.
    if (R.Host != S.Host || Cfg.function() != S.Host)
      return true;
    std::optional<CfgPoint> From = Cfg.pointOf(R.Call);
    if (!From)
      return true;
    bool Reaches = false;
    Cfg.walkForward(
        *From,
        [&](const Stmt *St, CfgPoint) {
          if (St == S.Launch)
            Reaches = true;
          return Reaches;
        },
        [&](const Stmt *) { return Reaches; });
    if (Reaches)
      return true;
  }
  return false;
}

void LaunchConfigurationCheck::checkSharedMemory(const LaunchSite &S,
                                                 const FunctionCfg &Cfg,
                                                 ASTContext &Ctx) {
  if (!S.SharedMemBytes || *S.SharedMemBytes <= 0)
    return;
  const FunctionDecl *Def = S.Kernel->getDefinition();
  int64_t Static = Def ? staticSharedMemoryBytes(Def, Ctx) : 0;
  int64_t Dynamic = *S.SharedMemBytes;
  std::optional<unsigned> Sm = targetSmVersion(Ctx);
  int64_t Max = CudaApiModel::maxSharedMemoryPerBlock(Sm);
  int64_t WithoutOptIn =
      CudaApiModel::launchLimits().DynamicSharedMemoryWithoutOptIn;
  bool OverMax = Static + Dynamic > Max;
  if (!OverMax &&
      (Static + Dynamic <= WithoutOptIn || mayRaiseSharedLimit(S, Cfg, Ctx)))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = reportAt(S, S.SharedMemFrom,
                                OverMax ? FK_SharedMax : FK_SharedOptIn, SM);
  if (Loc.isInvalid())
    return;
  std::string WithStatic =
      Static ? ", which with its " + std::to_string(Static) +
                   " bytes of static shared memory is"
             : ",";
  if (OverMax)
    diag(Loc, "launch of %0 asks for %1 bytes of dynamic shared memory%2 "
              "more than the %3 bytes a block may use on %4")
        << S.Kernel << Dynamic << WithStatic << Max
        << (Sm ? "sm_" + std::to_string(*Sm) : std::string("any GPU"));
  else
    diag(Loc, "launch of %0 asks for %1 bytes of dynamic shared memory%2 "
              "more than the %3 a kernel may use before "
              "cudaFuncSetAttribute raises its "
              "cudaFuncAttributeMaxDynamicSharedMemorySize")
        << S.Kernel << Dynamic << WithStatic << WithoutOptIn;
  noteValue(S, S.SharedMemFrom, Dynamic, SM);
  if (Static)
    diag(Def->getLocation(), "%0 declares %1 bytes of static shared memory",
         DiagnosticIDs::Note)
        << S.Kernel << Static;
}

} // namespace clang::tidy::cuda
