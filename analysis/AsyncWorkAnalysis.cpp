//===- AsyncWorkAnalysis.cpp ----------------------------------------------===//

#include "AsyncWorkAnalysis.h"
#include "BranchCorrelation.h"
#include "FunctionCfg.h"
#include "ResultUse.h"
#include "TranslationUnitScan.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <set>
#include <tuple>

namespace clang::tidy::cuda {

AsyncWorkAnalysis &AsyncWorkAnalysis::get(ASTContext &Ctx,
                                          const ArchConditionals &Arch) {
  return TranslationUnitAnalyses::get(Ctx).asyncWork(Arch);
}

namespace {

constexpr unsigned MaxPath = 4;

bool isInSystemHeader(const Decl *D, const SourceManager &SM) {
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

/// 1 when the first argument of \p C is the object of a member operator
/// (`a[i]` on a class), whose parameters then start at the second.
unsigned objectArgumentCount(const CallExpr *C, const FunctionDecl *Callee) {
  return isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
}

bool pointeeIsConst(QualType T) {
  return T->isPointerType() && T->getPointeeType().isConstQualified();
}

/// Locations named by expressions: variables (any storage), fields, and
/// what pointers point to. A member of `this` is rooted at its field.
/// Local variables that alias another location are followed through
/// \p Alias (references, range-for variables, unmodified copies).
class KeyBuilder {
public:
  /// Where local variables lead: the initializer of a copy that is never
  /// written again (or of a reference), and the range of a range-for
  /// variable.
  struct Locals {
    virtual ~Locals() = default;
    virtual const Expr *aliasOf(const VarDecl *) { return nullptr; }
    virtual std::optional<LocKey> rangeElementOf(const VarDecl *) {
      return std::nullopt;
    }
  };
  explicit KeyBuilder(Locals &L) : L(L) {}

  std::optional<LocKey> lvalue(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 8)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
      if (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_UncheckedDerivedToBase ||
          C->getCastKind() == CK_DerivedToBase)
        return lvalue(C->getSubExpr(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return std::nullopt;
      if (std::optional<LocKey> Element = L.rangeElementOf(VD))
        return Element;
      if (const Expr *Target = L.aliasOf(VD);
          Target && VD->getType()->isReferenceType())
        return lvalue(Target, Depth + 1);
      return LocKey{VD, {}};
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!Field)
        return std::nullopt;
      std::optional<LocKey> Base;
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return LocKey{Field, {}};
      Base = ME->isArrow() ? pointee(ME->getBase(), Depth + 1)
                           : lvalue(ME->getBase(), Depth + 1);
      return append(Base, Field);
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return pointee(AS->getBase(), Depth + 1);
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_Deref)
        return pointee(U->getSubExpr(), Depth + 1);
    // v[i], v.at(i), v.front(), v.back() of a host container: its elements.
    if (const Expr *Container = containerOfElement(E))
      return append(lvalue(Container, Depth + 1), nullptr);
    return std::nullopt;
  }

  /// The host container (std::vector, ...) whose element \p E names
  /// through operator[], at(), front() or back(), or whose elements the
  /// pointer \p E points to through data().
  static const Expr *containerOfElement(const Expr *E, bool Data = false) {
    const Expr *Object = nullptr;
    const CXXMethodDecl *M = nullptr;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (Data || Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2)
        return nullptr;
      Object = Op->getArg(0);
      M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      M = MC->getMethodDecl();
      Object = MC->getImplicitObjectArgument();
      if (!M || !M->getIdentifier())
        return nullptr;
      StringRef Name = M->getName();
      if (Data ? Name != "data"
               : (Name != "at" && Name != "front" && Name != "back"))
        return nullptr;
    }
    if (!M || !Object || !CudaApiModel::isHostContainer(M->getParent()))
      return nullptr;
    return Object;
  }

  /// What the pointer value \p E points into.
  std::optional<LocKey> pointee(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 8)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      switch (C->getCastKind()) {
      case CK_LValueToRValue:
        if (const Expr *Init = copiedValue(C->getSubExpr()))
          return pointee(Init, Depth + 1);
        return append(lvalue(C->getSubExpr(), Depth + 1), nullptr);
      case CK_ArrayToPointerDecay:
        return append(lvalue(C->getSubExpr(), Depth + 1), nullptr);
      case CK_NoOp:
      case CK_BitCast:
      case CK_UncheckedDerivedToBase:
      case CK_DerivedToBase:
        return pointee(C->getSubExpr(), Depth + 1);
      default:
        return std::nullopt;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf)
        return lvalue(U->getSubExpr(), Depth + 1);
    if (const Expr *Container = containerOfElement(E, /*Data=*/true))
      return append(lvalue(Container, Depth + 1), nullptr);
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      if (B->isAdditiveOp()) {
        if (B->getLHS()->getType()->isPointerType())
          return pointee(B->getLHS(), Depth + 1);
        if (B->getRHS()->getType()->isPointerType())
          return pointee(B->getRHS(), Depth + 1);
      }
    return std::nullopt;
  }

  /// The location a handle value (a stream or event) is read from.
  std::optional<LocKey> handle(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 8)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<ImplicitCastExpr>(E)) {
      if (C->getCastKind() == CK_LValueToRValue) {
        if (const Expr *Init = copiedValue(C->getSubExpr()))
          return handle(Init, Depth + 1);
        return lvalue(C->getSubExpr(), Depth + 1);
      }
      // The launch configuration passes the stream as void *.
      if (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_BitCast)
        return handle(C->getSubExpr(), Depth + 1);
    }
    return std::nullopt;
  }

private:
  /// The value of a local copy that is never written again is the value it
  /// was initialized with: that initializer, when \p Read (the operand of a
  /// load) names such a copy.
  const Expr *copiedValue(const Expr *Read) const {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Read->IgnoreParens()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (const Expr *Init = L.aliasOf(VD);
            Init && !VD->getType()->isReferenceType())
          return Init;
    return nullptr;
  }
  static std::optional<LocKey> append(std::optional<LocKey> K,
                                      const FieldDecl *Step) {
    if (!K || K->Path.size() >= MaxPath)
      return std::nullopt;
    K->Path.push_back(Step);
    return K;
  }
  Locals &L;
};

} // namespace

//===----------------------------------------------------------------------===//
// Summaries: what device and host functions do with their pointer
// parameters.
//===----------------------------------------------------------------------===//

struct AsyncWorkAnalysis::DeviceSummary {
  std::vector<Access> Params;
  std::map<const VarDecl *, Access> Managed;
};

struct AsyncWorkAnalysis::HostSummary {
  std::vector<Access> Params;
  std::map<const VarDecl *, GlobalUse> Globals;
  bool MayWait = false;
};

AsyncWorkAnalysis::AsyncWorkAnalysis(ASTContext &Ctx,
                                     const ArchConditionals &Arch)
    : Ctx(Ctx), Arch(Arch) {}
AsyncWorkAnalysis::~AsyncWorkAnalysis() = default;

namespace {

/// A host pointer kept at namespace scope (or in a static member): the
/// host code of any function may reach what it points to.
bool isGlobalHostPointer(const VarDecl *VD) {
  return VD->getType()->isPointerType() && VD->hasGlobalStorage() &&
         !VD->isStaticLocal() && !VD->hasAttr<CUDADeviceAttr>() &&
         !VD->hasAttr<CUDAConstantAttr>() && !VD->hasAttr<CUDASharedAttr>() &&
         !isManagedVariableDecl(VD);
}

/// Finds how a function body uses the memory its pointer parameters (and,
/// on the device, __managed__ variables) point to, following local copies
/// of those pointers and calls of functions with visible bodies.
class AccessScanner {
public:
  using Access = AsyncWorkAnalysis::Access;
  AccessScanner(AsyncWorkAnalysis &A, const FunctionDecl *FD, bool Device)
      : A(A), FD(FD), Device(Device),
        SM(A.context().getSourceManager()) {
    for (const ParmVarDecl *P : FD->parameters())
      if (P->getType()->isPointerType() || P->getType()->isReferenceType()) {
        Root[P] = P;
        if (Device && P->getType()->getPointeeType().isVolatileQualified())
          Found[P].Concurrent = true;
      }
  }

  std::map<const VarDecl *, Access> Found;
  /// Host: the first reference to each global root (isGlobalHostPointer,
  /// __managed__), from this body or a callee's.
  std::map<const VarDecl *, std::pair<const Expr *, const FunctionDecl *>>
      FirstRef;
  bool MayWait = false;

  void run() {
    // The body is walked once; the rounds replay the nodes that can matter.
    std::vector<BodyNode> Nodes;
    BodyRecorder(Nodes).TraverseStmt(FD->getBody());
    // Local copies of the pointers first, until no new one is found.
    for (unsigned Round = 0; Round < 4; ++Round) {
      size_t Before = Root.size();
      Collecting = true;
      replay(Nodes);
      if (Root.size() == Before)
        break;
    }
    Collecting = false;
    replay(Nodes);
  }

private:
  /// A node of the body that a round may look at, in the order of a
  /// RecursiveASTVisitor's walk.
  struct BodyNode {
    enum NodeKind : uint8_t {
      Var, Assign, Unary, Subscript, Arrow, ManagedRef, Construct, Call
    } Kind;
    void *Node;
  };
  class BodyRecorder : public RecursiveASTVisitor<BodyRecorder> {
  public:
    explicit BodyRecorder(std::vector<BodyNode> &Out) : Out(Out) {}
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->getType()->isPointerType() && VD->getInit())
        Out.push_back({BodyNode::Var, VD});
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp())
        Out.push_back({BodyNode::Assign, B});
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp() || U->getOpcode() == UO_Deref)
        Out.push_back({BodyNode::Unary, U});
      return true;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
      Out.push_back({BodyNode::Subscript, E});
      return true;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      if (E->isArrow())
        Out.push_back({BodyNode::Arrow, E});
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()))
        if (isManagedVariableDecl(VD) && !VD->getType()->isArrayType())
          Out.push_back({BodyNode::ManagedRef, E});
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      Out.push_back({BodyNode::Construct, E});
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      Out.push_back({BodyNode::Call, C});
      return true;
    }

  private:
    std::vector<BodyNode> &Out;
  };

  void replay(const std::vector<BodyNode> &Nodes) {
    for (const BodyNode &N : Nodes)
      switch (N.Kind) {
      case BodyNode::Var:
        VisitVarDecl(static_cast<VarDecl *>(N.Node));
        break;
      case BodyNode::Assign:
        VisitBinaryOperator(static_cast<BinaryOperator *>(N.Node));
        break;
      case BodyNode::Unary:
        VisitUnaryOperator(static_cast<UnaryOperator *>(N.Node));
        break;
      case BodyNode::Subscript:
        VisitArraySubscriptExpr(static_cast<ArraySubscriptExpr *>(N.Node));
        break;
      case BodyNode::Arrow:
        VisitMemberExpr(static_cast<MemberExpr *>(N.Node));
        break;
      case BodyNode::ManagedRef:
        VisitDeclRefExpr(static_cast<DeclRefExpr *>(N.Node));
        break;
      case BodyNode::Construct:
        VisitCXXConstructExpr(static_cast<CXXConstructExpr *>(N.Node));
        break;
      case BodyNode::Call:
        VisitCallExpr(static_cast<CallExpr *>(N.Node));
        break;
      }
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (Collecting && VD->getType()->isPointerType() && VD->getInit())
      if (const VarDecl *R = rootOf(VD->getInit()))
        Root.try_emplace(VD, R);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (Collecting) {
      if (B->getOpcode() == BO_Assign && B->getType()->isPointerType())
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
            if (const VarDecl *R = rootOf(B->getRHS()))
              Root.try_emplace(VD, R);
      return true;
    }
    if (B->isAssignmentOp())
      if (const VarDecl *R = rootOfAccess(B->getLHS())) {
        note(R, B->isCompoundAssignmentOp(), true);
        WriteOnly.insert(B->getLHS()->IgnoreParens());
      }
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *U) {
    if (Collecting)
      return true;
    if (U->isIncrementDecrementOp()) {
      if (const VarDecl *R = rootOfAccess(U->getSubExpr())) {
        note(R, true, true);
        WriteOnly.insert(U->getSubExpr()->IgnoreParens());
      }
    } else if (U->getOpcode() == UO_Deref) {
      readAccess(U);
    }
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    if (!Collecting)
      readAccess(E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (!Collecting && E->isArrow())
      readAccess(E);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (!Collecting)
      if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()))
        if (isManagedVariableDecl(VD) && !VD->getType()->isArrayType())
          readAccess(E);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (!Collecting && !Device)
      if (const CXXConstructorDecl *C = E->getConstructor())
        if (!isInSystemHeader(C, SM) && !C->isTrivial() && A.mayWait(C))
          MayWait = true;
    return true;
  }

  bool VisitCallExpr(CallExpr *C) {
    if (Collecting || isa<CUDAKernelCallExpr>(C))
      return true;
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Device)
      noteWait(C, Callee);
    const ApiFunction *Api = CudaApiModel::lookup(Callee);
    if (Device && Callee)
      if (const auto *M = A.managedAccess(Callee))
        for (const auto &[VD, Acc] : *M)
          note(VD, Acc.Reads, Acc.Writes);
    if (!Device && Callee && !isInSystemHeader(Callee, SM))
      if (const auto *G = A.hostGlobalAccess(Callee))
        for (const auto &[VD, Use] : *G) {
          FirstRef.try_emplace(VD, Use.FirstRef, Use.In);
          note(VD, Use.Acc.Reads, Use.Acc.Writes);
        }
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      const Expr *Arg = C->getArg(I);
      const VarDecl *R = rootOf(Arg);
      if (!R)
        continue;
      if (Api && Api->Copy && Api->Library == ApiLibrary::CLib) {
        note(R, (int)I == Api->Copy->SrcArg, (int)I == Api->Copy->DstArg);
        continue;
      }
      if (Api)
        continue; // The CUDA API: copies and launches are the caller's work.
      const FunctionDecl *Def = nullptr;
      if (!Callee) {
        note(R, true, !pointeeIsConst(Arg->getType()));
        continue;
      }
      if (Callee->hasBody(Def) && !isInSystemHeader(Def, SM) &&
          I < Def->getNumParams()) {
        std::optional<Access> Acc =
            Device ? A.deviceAccess(Def, I) : A.hostAccess(Def, I);
        if (Acc) {
          note(R, Acc->Reads, Acc->Writes);
          Found[R].Concurrent |= Acc->Concurrent;
        } else {
          note(R, true, true);
        }
        continue;
      }
      if (Device && Callee->getIdentifier() &&
          Callee->getName().ends_with("_system"))
        Found[R].Concurrent = true; // atomicAdd_system and the like.
      // Library functions and intrinsics (atomics) read what they are given
      // and write it unless it is const.
      QualType ParamTy = I < Callee->getNumParams()
                             ? Callee->getParamDecl(I)->getType()
                             : Arg->getType();
      note(R, true,
           !pointeeIsConst(ParamTy) &&
               !(ParamTy->isReferenceType() &&
                 ParamTy.getNonReferenceType().isConstQualified()));
    }
    return true;
  }

private:
  void noteWait(const CallExpr *C, const FunctionDecl *Callee) {
    if (MayWait)
      return;
    if (!Callee) {
      MayWait = true;
      return;
    }
    if (const ApiFunction *Api = CudaApiModel::lookup(Callee)) {
      if (Api->synchronizesHost() || (Api->Sync && Api->Sync->isQuery()))
        MayWait = true;
      return;
    }
    if (isInSystemHeader(Callee, SM)) {
      if (CudaApiModel::libraryCallMayWait(Callee))
        MayWait = true;
      return;
    }
    if (A.mayWait(Callee))
      MayWait = true;
  }

  void readAccess(const Expr *E) {
    if (WriteOnly.count(E))
      return;
    if (const VarDecl *R = rootOfAccess(E))
      note(R, true, false);
  }

  void note(const VarDecl *R, bool Reads, bool Writes) {
    Access &Acc = Found[R];
    Acc.Reads |= Reads;
    Acc.Writes |= Writes;
  }

  /// The tracked pointer a pointer value derives from.
  const VarDecl *rootOf(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 8)
      return nullptr;
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return nullptr;
      if (auto It = Root.find(VD); It != Root.end())
        return It->second;
      if (isManagedVariableDecl(VD) && VD->getType()->isArrayType())
        return global(VD, DRE);
      if (!Device && isGlobalHostPointer(VD))
        return global(VD, DRE);
      return nullptr;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      if (B->isAdditiveOp())
        return B->getLHS()->getType()->isPointerType()
                   ? rootOf(B->getLHS(), Depth + 1)
                   : rootOf(B->getRHS(), Depth + 1);
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf)
        return rootOfAccess(U->getSubExpr(), Depth + 1);
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      const VarDecl *T = rootOf(CO->getTrueExpr(), Depth + 1);
      return T == rootOf(CO->getFalseExpr(), Depth + 1) ? T : nullptr;
    }
    return nullptr;
  }

  /// The tracked pointer whose memory the lvalue \p E is in.
  const VarDecl *rootOfAccess(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 8)
      return nullptr;
    E = E->IgnoreParens();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return rootOf(AS->getBase(), Depth + 1);
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return U->getOpcode() == UO_Deref ? rootOf(U->getSubExpr(), Depth + 1)
                                        : nullptr;
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->isArrow() ? rootOf(ME->getBase(), Depth + 1)
                           : rootOfAccess(ME->getBase(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        if (isManagedVariableDecl(VD))
          return global(VD, DRE);
        // A reference parameter names its referent.
        if (VD->getType()->isReferenceType())
          if (auto It = Root.find(VD); It != Root.end())
            return It->second;
      }
    return nullptr;
  }

  /// A root that is not a parameter: remembered with its first reference.
  const VarDecl *global(const VarDecl *VD, const DeclRefExpr *Ref) {
    if (!Device && !Collecting)
      FirstRef.try_emplace(VD, Ref, FD);
    return VD;
  }

  AsyncWorkAnalysis &A;
  const FunctionDecl *FD;
  bool Device;
  const SourceManager &SM;
  bool Collecting = false;
  llvm::DenseMap<const VarDecl *, const VarDecl *> Root;
  llvm::SmallPtrSet<const Expr *, 8> WriteOnly;
};

} // namespace

const AsyncWorkAnalysis::DeviceSummary *
AsyncWorkAnalysis::deviceSummary(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  auto [It, New] = Device.try_emplace(Def);
  if (!New)
    return It->second.get(); // Null while in progress: unknown.
  AccessScanner S(*this, Def, /*Device=*/true);
  S.run();
  auto Sum = std::make_unique<DeviceSummary>();
  for (const ParmVarDecl *P : Def->parameters()) {
    auto F = S.Found.find(P);
    Sum->Params.push_back(F == S.Found.end() ? Access() : F->second);
  }
  for (const auto &[VD, Acc] : S.Found)
    if (!isa<ParmVarDecl>(VD))
      Sum->Managed[VD] = Acc;
  Device[Def] = std::move(Sum);
  return Device[Def].get();
}

std::optional<AsyncWorkAnalysis::Access>
AsyncWorkAnalysis::deviceAccess(const FunctionDecl *FD, unsigned Index) {
  const DeviceSummary *S = deviceSummary(FD);
  if (!S || Index >= S->Params.size())
    return std::nullopt;
  return S->Params[Index];
}

const std::map<const VarDecl *, AsyncWorkAnalysis::Access> *
AsyncWorkAnalysis::managedAccess(const FunctionDecl *FD) {
  const DeviceSummary *S = deviceSummary(FD);
  return S ? &S->Managed : nullptr;
}

const AsyncWorkAnalysis::HostSummary *
AsyncWorkAnalysis::hostSummary(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def ||
      isInSystemHeader(Def, Ctx.getSourceManager()) ||
      !isSeenWhole(Def, Ctx.getSourceManager(), Arch))
    return nullptr;
  auto [It, New] = Host.try_emplace(Def);
  if (!New)
    return It->second.get();
  AccessScanner S(*this, Def, /*Device=*/false);
  S.run();
  auto Sum = std::make_unique<HostSummary>();
  Sum->MayWait = S.MayWait;
  for (const ParmVarDecl *P : Def->parameters()) {
    auto F = S.Found.find(P);
    Sum->Params.push_back(F == S.Found.end() ? Access() : F->second);
  }
  for (const auto &[VD, Acc] : S.Found)
    if (!isa<ParmVarDecl>(VD) && S.FirstRef.count(VD))
      Sum->Globals[VD] = GlobalUse{Acc, S.FirstRef[VD].first,
                                   S.FirstRef[VD].second};
  Host[Def] = std::move(Sum);
  return Host[Def].get();
}

const std::map<const VarDecl *, AsyncWorkAnalysis::GlobalUse> *
AsyncWorkAnalysis::hostGlobalAccess(const FunctionDecl *FD) {
  const HostSummary *S = hostSummary(FD);
  return S ? &S->Globals : nullptr;
}

std::optional<AsyncWorkAnalysis::Access>
AsyncWorkAnalysis::hostAccess(const FunctionDecl *FD, unsigned Index) {
  const HostSummary *S = hostSummary(FD);
  if (!S || Index >= S->Params.size())
    return std::nullopt;
  return S->Params[Index];
}

bool AsyncWorkAnalysis::mayWait(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (FD && FD->hasBody(Def) && Def && Host.count(Def) && !Host[Def])
    return true; // Recursion: assume the worst.
  const HostSummary *S = hostSummary(FD);
  return !S || S->MayWait;
}

//===----------------------------------------------------------------------===//
// Stream creation flags
//===----------------------------------------------------------------------===//

namespace {
/// The declaration that tells streams kept in \p K apart: its last field,
/// or its variable.
const ValueDecl *streamDeclOf(const LocKey &K) {
  for (auto It = K.Path.rbegin(); It != K.Path.rend(); ++It)
    if (*It)
      return *It;
  return K.Root;
}

/// (Replays the walk without instantiations or implicit code.)
class StreamCreationFinder : public ScanVisitor<StreamCreationFinder> {
public:
  StreamCreationFinder(
      ASTContext &Ctx,
      llvm::DenseMap<const ValueDecl *, std::optional<bool>> &Flags)
      : Ctx(Ctx), Flags(Flags), Keys(NoLocals) {}

  bool HostVisibleMemory = false;

  bool VisitVarDecl(VarDecl *VD) {
    if (isManagedVariableDecl(VD))
      HostVisibleMemory = true;
    return true;
  }

  bool VisitCallExpr(CallExpr *C) {
    const ApiFunction *Api = CudaApiModel::lookup(C);
    if (Api && ((Api->Alloc && (Api->Alloc->Space & (MS_Pinned | MS_Mapped |
                                                     MS_Managed))) ||
                (Api->HostRegister && Api->HostRegister->Registers) ||
                Api->MapHost))
      HostVisibleMemory = true;
    if (!Api || !Api->Resource || Api->Resource->Kind != ResourceKind::Stream ||
        Api->Resource->Role != ResourceRole::Create ||
        (unsigned)Api->Resource->HandleArg >= C->getNumArgs())
      return true;
    std::optional<LocKey> K = Keys.pointee(C->getArg(Api->Resource->HandleArg));
    if (!K)
      return true;
    std::optional<bool> NonBlocking = false;
    if (Api->StreamFlagsArg >= 0) {
      NonBlocking.reset();
      Expr::EvalResult R;
      const Expr *F = (unsigned)Api->StreamFlagsArg < C->getNumArgs()
                          ? C->getArg(Api->StreamFlagsArg)
                          : nullptr;
      if (F && !F->isValueDependent() && F->EvaluateAsInt(R, Ctx))
        NonBlocking =
            (R.Val.getInt().getZExtValue() & Api->NonBlockingBit) != 0;
    }
    const ValueDecl *D = streamDeclOf(*K);
    auto [It, New] = Flags.try_emplace(D, NonBlocking);
    if (!New && It->second != NonBlocking)
      It->second.reset();
    return true;
  }

private:
  ASTContext &Ctx;
  llvm::DenseMap<const ValueDecl *, std::optional<bool>> &Flags;
  KeyBuilder::Locals NoLocals;
  KeyBuilder Keys;
};
} // namespace

void AsyncWorkAnalysis::collectTranslationUnitFacts() {
  if (FactsCollected)
    return;
  FactsCollected = true;
  StreamCreationFinder F(Ctx, StreamFlags);
  F.replay(TranslationUnitAnalyses::get(Ctx).scan().nodes(
               /*ImplicitCode=*/false),
           /*Instantiations=*/false);
  HostVisibleMemory = F.HostVisibleMemory;
}

std::optional<bool>
AsyncWorkAnalysis::streamIsNonBlocking(const LocKey &Handle,
                                       const FunctionDecl *) {
  collectTranslationUnitFacts();
  auto It = StreamFlags.find(streamDeclOf(Handle));
  if (It == StreamFlags.end())
    return std::nullopt;
  return It->second;
}

//===----------------------------------------------------------------------===//
// The analysis of one host function
//===----------------------------------------------------------------------===//

namespace {

/// One queued operation, as its call describes it.
struct WorkInfo {
  WorkKind Kind = WorkKind::Kernel;
  const Stmt *Site = nullptr;
  const FunctionDecl *Kernel = nullptr;
  const FunctionDecl *Via = nullptr; ///< Queued inside this callee.
  unsigned Stream = 0; ///< Interned StreamRef.
  const Expr *StreamExpr = nullptr;
  struct Buffer {
    LocKey Key;
    const Stmt *AllocSite = nullptr;
    bool HostVisible = false;
    /// Pageable host memory a device-to-host copy writes (HostVisible too).
    bool Pageable = false;
  };
  llvm::SmallVector<Buffer, 2> Writes, Reads;
  std::optional<unsigned> Event; ///< EventRecord: interned event.

  /// \p B, which the work uses as \p Acc says.
  void add(const Buffer &B, const AsyncWorkAnalysis::Access &Acc) {
    if (Acc.Writes)
      Writes.push_back(B);
    if (Acc.Reads)
      Reads.push_back(B);
  }
  /// A __managed__ variable, which the work uses as \p Acc says.
  void addManaged(const VarDecl *VD, const AsyncWorkAnalysis::Access &Acc) {
    Buffer B;
    B.Key = LocKey{VD, {}};
    B.HostVisible = true;
    add(B, Acc);
  }
};

/// A small set kept as a sorted vector: a state holds a few elements, and
/// the fixpoint copies and compares states far more often than it looks
/// one up. Iterates in the order std::set would.
template <typename T, unsigned N = 4> class SortedSet {
public:
  bool count(T X) const {
    unsigned I = lower(X);
    return I < Items.size() && Items[I] == X;
  }
  void insert(T X) {
    unsigned I = lower(X);
    if (I == Items.size() || Items[I] != X)
      Items.insert(Items.begin() + I, X);
  }
  void erase(T X) {
    unsigned I = lower(X);
    if (I < Items.size() && Items[I] == X)
      Items.erase(Items.begin() + I);
  }
  /// Keeps only what \p O holds too.
  void intersect(const SortedSet &O) {
    llvm::erase_if(Items, [&](T X) { return !O.count(X); });
  }
  void clear() { Items.clear(); }
  auto begin() const { return Items.begin(); }
  auto end() const { return Items.end(); }
  bool operator==(const SortedSet &O) const { return Items == O.Items; }

private:
  unsigned lower(T X) const {
    return std::lower_bound(Items.begin(), Items.end(), X, std::less<T>()) -
           Items.begin();
  }
  llvm::SmallVector<T, N> Items;
};

/// A small map kept as a vector sorted by key, for the same reason.
/// Iterates in the order std::map would.
template <typename K, typename V, unsigned N = 4> class SortedMap {
public:
  using Entry = std::pair<K, V>;
  using iterator = typename llvm::SmallVectorImpl<Entry>::iterator;
  using const_iterator = typename llvm::SmallVectorImpl<Entry>::const_iterator;

  iterator begin() { return Entries.begin(); }
  iterator end() { return Entries.end(); }
  const_iterator begin() const { return Entries.begin(); }
  const_iterator end() const { return Entries.end(); }
  bool empty() const { return Entries.empty(); }
  void clear() { Entries.clear(); }
  bool operator==(const SortedMap &O) const { return Entries == O.Entries; }

  iterator find(K Key) {
    iterator It = lower(Key);
    return It != end() && It->first == Key ? It : end();
  }
  const_iterator find(K Key) const {
    return const_cast<SortedMap *>(this)->find(Key);
  }
  bool count(K Key) const { return find(Key) != end(); }
  /// Inserts \p Value under \p Key unless the key is there.
  void try_emplace(K Key, const V &Value) {
    iterator It = lower(Key);
    if (It == end() || It->first != Key)
      Entries.insert(It, Entry(Key, Value));
  }
  V &operator[](K Key) {
    iterator It = lower(Key);
    if (It == end() || It->first != Key)
      It = Entries.insert(It, Entry(Key, V()));
    return It->second;
  }
  /// Erases the entries whose key \p Drop holds, asking it first about
  /// every key of the map as it stands.
  void eraseIf(llvm::function_ref<bool(K)> Drop) {
    llvm::SmallVector<bool, 16> Dropped;
    for (const Entry &E : Entries)
      Dropped.push_back(Drop(E.first));
    unsigned Kept = 0;
    for (unsigned I = 0; I < Entries.size(); ++I)
      if (!Dropped[I]) {
        if (Kept != I)
          Entries[Kept] = std::move(Entries[I]);
        ++Kept;
      }
    Entries.truncate(Kept);
  }

private:
  iterator lower(K Key) {
    return std::lower_bound(Entries.begin(), Entries.end(), Key,
                            [](const Entry &E, K Key) {
                              return std::less<K>()(E.first, Key);
                            });
  }
  llvm::SmallVector<Entry, N> Entries;
};

/// Queued work that may not have completed, at one point.
struct WorkState {
  bool Reached = false;
  /// Each pending operation, with the streams whose later operations (and
  /// so whose synchronization) are ordered after it.
  SortedMap<const Stmt *, SortedSet<unsigned>> Pending;
  /// For each event recorded in this function, the operations that its
  /// completion implies have completed.
  SortedMap<unsigned, SortedSet<const Stmt *>, 2> Events;
  /// Branch conditions on variables that never change, as taken on every
  /// path here: a later branch on the same variable goes the same way.
  BranchHistory Taken;

  bool operator==(const WorkState &O) const {
    return Reached == O.Reached && Pending == O.Pending &&
           Events == O.Events && Taken == O.Taken;
  }

  void join(const WorkState &O) {
    if (!O.Reached)
      return;
    if (!Reached) {
      *this = O;
      return;
    }
    for (auto &[Site, Ordered] : Pending)
      if (auto It = O.Pending.find(Site); It != O.Pending.end())
        Ordered.intersect(It->second);
    for (const auto &[Site, Ordered] : O.Pending)
      Pending.try_emplace(Site, Ordered);
    // An event not recorded on one path retires everything there.
    for (auto &[Ev, Covered] : Events)
      if (auto It = O.Events.find(Ev); It != O.Events.end())
        Covered.intersect(It->second);
    for (const auto &[Ev, Covered] : O.Events)
      Events.try_emplace(Ev, Covered);
    Taken.meet(O.Taken);
  }
};

/// Whether \p C queues device work itself.
bool isQueuingCall(const CallExpr *C) {
  if (isa<CUDAKernelCallExpr>(C))
    return true;
  const ApiFunction *Api = CudaApiModel::lookup(C);
  return Api && ((Api->Copy && Api->Copy->isAsync()) ||
                 (Api->Event && Api->Event->Role == EventRole::Record));
}

/// The states at one point, kept apart by the branches they took on
/// unchanging variables, so that a join does not mix a path that launched
/// under `if (async)` with one that synchronizes under `if (!async)`. At
/// most MaxSplit are kept; more are merged into one.
struct StateSet {
  static constexpr unsigned MaxSplit = 8;
  llvm::SmallVector<WorkState, 1> States;

  bool reached() const { return !States.empty(); }
  bool operator==(const StateSet &O) const { return States == O.States; }

  void add(const WorkState &S) { add(WorkState(S)); }
  void add(WorkState &&S) {
    if (!S.Reached)
      return;
    for (WorkState &T : States)
      if (T.Taken == S.Taken) {
        T.join(S);
        return;
      }
    States.push_back(std::move(S));
    if (States.size() > MaxSplit) {
      WorkState All = std::move(States.front());
      for (unsigned I = 1; I < States.size(); ++I)
        All.join(States[I]);
      States.clear();
      States.push_back(std::move(All));
    }
  }
  void add(StateSet &&O) {
    for (WorkState &S : O.States)
      add(std::move(S));
  }
};

/// One host function's queued work, path by path.
class FunctionAsyncWork : public KeyBuilder::Locals {
public:
  FunctionAsyncWork(AsyncWorkAnalysis &A, const FunctionMemorySpaces &M,
                    bool PerThread)
      : A(A), M(M), Cfg(M.cfg()), Ctx(A.context()),
        SM(Ctx.getSourceManager()), PerThread(PerThread), Keys(*this) {}

  /// Track all work, for what is left at the program's exits: work queued
  /// by callees whatever memory it uses, and (\p CheckedSyncOnly) only
  /// synchronizations whose error code is examined.
  void trackAllWork(bool CheckedSyncOnly) {
    AllWork = true;
    CheckedOnly = CheckedSyncOnly;
  }
  /// The work pending at each exit of the program (after solve()).
  std::vector<UnfinishedAtExit> atProgramExits();

  /// Runs the data-flow to its fixpoint; false when it does not settle.
  bool solve();
  /// The findings (after solve()).
  std::vector<SyncHazard> report();
  /// What is still running at the function's exit (after solve()).
  std::vector<AsyncWorkAnalysis::LeftRunning> leftRunning() const;

  const Expr *aliasOf(const VarDecl *VD) override;
  std::optional<LocKey> rangeElementOf(const VarDecl *VD) override;

private:
  // Streams and events.
  unsigned intern(const StreamRef &S) {
    for (unsigned I = 0; I < Streams.size(); ++I)
      if (Streams[I] == S)
        return I;
    Streams.push_back(S);
    return Streams.size() - 1;
  }
  StreamRef defaultStream() const {
    StreamRef S;
    S.K = PerThread ? StreamRef::PerThread : StreamRef::Legacy;
    return S;
  }
  unsigned streamOf(const Expr *E);
  std::optional<unsigned> eventOf(const Expr *E);
  static bool isBlocking(const StreamRef &S) {
    return S.K == StreamRef::Legacy || S.K == StreamRef::PerThread ||
           (S.K == StreamRef::Named && !S.NonBlocking);
  }
  /// Whether work at \p Site is ordered before stream \p S whatever the
  /// kinds of the streams: ordered by an event, on the same stream, or on
  /// one that is not identified.
  bool orderedAnyway(const WorkState &St, const Stmt *Site, unsigned S) const;
  bool orderedBeforeNewWork(const WorkState &St, const Stmt *Site,
                            unsigned S) const;
  bool retiredBySync(const WorkState &St, const Stmt *Site, unsigned S) const;
  /// \p W is on the stream that argument \p E names (null, or a default
  /// argument: the default stream).
  void setStream(WorkInfo &W, const Expr *E) {
    W.StreamExpr = E && !isa<CXXDefaultArgExpr>(E) ? E : nullptr;
    W.Stream = streamOf(W.StreamExpr);
  }

  // Transfer.
  WorkState processBlock(const CFGBlock *B, WorkState St, bool Report);
  /// \p Out as it reaches \p To from \p From: unreached when the branch
  /// contradicts one taken before on a variable that never changes.
  WorkState alongEdge(const CFGBlock *From, const CFGBlock *To,
                      const WorkState &Out);
  /// What taking the edge from \p From to \p To says about a variable that
  /// never changes; computed once per edge.
  const std::optional<EdgeFact> &edgeFactOf(const CFGBlock *From,
                                            const CFGBlock *To);
  std::map<std::pair<unsigned, unsigned>, std::optional<EdgeFact>> EdgeFacts;
  void transfer(const CFGElement &E, WorkState &St, bool Report);
  void transferCall(const CallExpr *C, WorkState &St, bool Report);
  WorkInfo kernelWork(const CUDAKernelCallExpr *K);
  /// A call the API model does not describe: a function of this
  /// translation unit, a library function, or an unknown callee.
  void transferUnmodelledCall(const CallExpr *C, const FunctionDecl *Callee,
                              WorkState &St, bool Report);
  // What a call of the API model does, one handler per kind of fact
  // (ApiTransfers says which applies).
  void transferCopy(const CallExpr *C, const ApiFunction &Api, WorkState &St,
                    bool Report);
  void transferSync(const CallExpr *C, const ApiFunction &Api, WorkState &St,
                    bool Report);
  void transferImplicitSync(const CallExpr *C, const ApiFunction &Api,
                            WorkState &St, bool Report);
  void transferFree(const CallExpr *C, const ApiFunction &Api, WorkState &St,
                    bool Report);
  void transferEvent(const CallExpr *C, const ApiFunction &Api, WorkState &St,
                     bool Report);
  void checkElapsed(const CallExpr *C, const EventInfo &EI,
                    const WorkState &St);
  struct ApiTransfer {
    bool (*Applies)(const ApiFunction &);
    void (FunctionAsyncWork::*Apply)(const CallExpr *, const ApiFunction &,
                                     WorkState &, bool Report);
  };
  static const ApiTransfer ApiTransfers[];
  void enqueue(const WorkInfo &W, WorkState &St);
  void checkCallArguments(const CallExpr *C, const FunctionDecl *Callee,
                          const WorkState &St);
  /// The callee's accesses to global pointers' memory and managed
  /// variables, as accesses at the call.
  void checkCalleeGlobals(const CallExpr *C, const FunctionDecl *Callee,
                          const WorkState &St);
  /// Set while checkCalleeGlobals() checks an access (SyncHazard).
  const Expr *CalleeUse = nullptr;
  const FunctionDecl *CalleeUseIn = nullptr;
  void enqueueLeftRunning(const CallExpr *C, const FunctionDecl *Callee,
                          WorkState &St);
  void retireIf(WorkState &St, llvm::function_ref<bool(const Stmt *)> Done) {
    St.Pending.eraseIf(Done);
  }
  void retireEvent(WorkState &St, std::optional<unsigned> Ev);
  /// Retires the work that a new operation on stream \p S would be ordered
  /// after: the host has waited for such an operation.
  void retireOrderedBefore(WorkState &St, unsigned S) {
    retireIf(St, [&](const Stmt *Site) {
      return orderedBeforeNewWork(St, Site, S);
    });
  }
  bool hostFunctionMayWait(const FunctionDecl *FD) {
    if (!FD)
      return true;
    if (isInSystemHeader(FD, SM))
      return CudaApiModel::libraryCallMayWait(FD);
    return A.mayWait(FD);
  }

  // Host accesses.
  std::optional<WorkInfo::Buffer> bufferOf(const Expr *Ptr);
  /// The destination of asynchronous copy \p C when it is pageable host
  /// memory that the device writes, and the option asks for it.
  std::optional<WorkInfo::Buffer> pageableDestination(const CallExpr *C,
                                                      const CopyInfo &CI);
  std::pair<bool, bool> accessKind(const Expr *E) const;
  void checkElementAccess(const Expr *E, const WorkState &St);
  /// \p AnyMemory: the access reaches device memory as well (CUDA-aware
  /// MPI), not only host-visible memory.
  bool checkPointerUse(const Stmt *At, const Expr *Ptr, bool Reads,
                       bool Writes, const WorkState &St,
                       bool AnyMemory = false);
  bool checkAccess(const Stmt *At, const Expr *Named,
                   const std::optional<LocKey> &Key, const Stmt *AllocSite,
                   bool Reads, bool Writes, const WorkState &St,
                   bool AnyMemory = false);
  void checkFree(const Stmt *At, const Expr *Ptr,
                 std::optional<unsigned> Stream, const WorkState &St);
  void report(SyncHazard::Kind K, const Stmt *At, const Expr *Named,
              const Stmt *Site, bool Pageable = false);
  const Stmt *earliest(llvm::ArrayRef<const Stmt *> Sites) const;

  /// Whether synchronizing call \p C retires work (trackAllWork).
  bool syncCounts(const CallExpr *C) const {
    return !CheckedOnly || isResultExamined(classifyResultUse(C, Cfg), Cfg);
  }
  /// Whether the program ends after the last statement of \p B with
  /// status 0; sets \p Exit to that statement.
  bool endsProgramCleanly(const CFGBlock *B, const Stmt *&Exit) const;

  AsyncWorkAnalysis &A;
  const FunctionMemorySpaces &M;
  const FunctionCfg &Cfg;
  ASTContext &Ctx;
  const SourceManager &SM;
  bool PerThread;
  bool AllWork = false;
  bool CheckedOnly = false;
  KeyBuilder Keys;
  std::vector<StreamRef> Streams;
  std::vector<LocKey> EventKeys;
  std::map<const Stmt *, WorkInfo> Works;
  llvm::DenseMap<const VarDecl *, const Expr *> Aliases;
  std::optional<llvm::DenseMap<const VarDecl *, LocKey>> RangeVars;
  std::vector<SyncHazard> Hazards;
  llvm::SmallPtrSet<const Stmt *, 8> ReportedAt;
  std::vector<const CFGBlock *> Order;
  std::vector<StateSet> In;
};

const Expr *FunctionAsyncWork::aliasOf(const VarDecl *VD) {
  auto It = Aliases.find(VD);
  if (It != Aliases.end())
    return It->second;
  const Expr *Target = nullptr;
  if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit()) {
    if (VD->getType()->isReferenceType()) {
      Target = VD->getInit();
    } else if (!MemorySpaceAnalysis::get(Ctx, A.arch())
                    .isModified(Cfg.function(), VD)) {
      const Expr *Init = VD->getInit()->IgnoreParenImpCasts();
      // A call or construction makes a new value: the variable is its name.
      if (!isa<CallExpr>(Init) && !isa<CXXConstructExpr>(Init) &&
          !isa<CXXNewExpr>(Init))
        Target = VD->getInit();
    }
  }
  Aliases[VD] = Target;
  return Target;
}

std::optional<LocKey> FunctionAsyncWork::rangeElementOf(const VarDecl *VD) {
  if (!RangeVars) {
    RangeVars.emplace();
    struct Finder : RecursiveASTVisitor<Finder> {
      std::vector<const CXXForRangeStmt *> Loops;
      bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
        Loops.push_back(S);
        return true;
      }
    } F;
    F.TraverseStmt(const_cast<Stmt *>(Cfg.function()->getBody()));
    for (const CXXForRangeStmt *S : F.Loops) {
      // The range is an array or container; its elements are one location.
      std::optional<LocKey> Range = Keys.lvalue(S->getRangeInit());
      if (Range && Range->Path.size() < MaxPath) {
        Range->Path.push_back(nullptr);
        (*RangeVars)[S->getLoopVariable()] = *Range;
      }
    }
  }
  auto It = RangeVars->find(VD);
  if (It == RangeVars->end())
    return std::nullopt;
  return It->second;
}

unsigned FunctionAsyncWork::streamOf(const Expr *E) {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return intern(defaultStream());
  // Follow copies of the handle (`cudaStream_t s = 0;`).
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    const Expr *Init = VD && !VD->getType()->isReferenceType() &&
                               !rangeElementOf(VD)
                           ? aliasOf(VD)
                           : nullptr;
    if (!Init)
      break;
    E = Init;
  }
  const Expr *Bare = E->IgnoreParenCasts();
  Expr::EvalResult R;
  if (!Bare->isValueDependent() && Bare->EvaluateAsInt(R, Ctx)) {
    std::optional<SpecialStream> Special =
        CudaApiModel::specialStream(R.Val.getInt().getExtValue());
    StreamRef S;
    if (!Special)
      return intern(S);
    switch (*Special) {
    case SpecialStream::Default:
      return intern(defaultStream());
    case SpecialStream::Legacy:
      S.K = StreamRef::Legacy;
      return intern(S);
    case SpecialStream::PerThread:
      S.K = StreamRef::PerThread;
      return intern(S);
    }
  }
  if (!E->isValueDependent() &&
      E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return intern(defaultStream());
  std::optional<LocKey> K = Keys.handle(E);
  StreamRef S;
  if (!K)
    return intern(S);
  S.K = StreamRef::Named;
  S.Handle = *K;
  // A stream created elsewhere, or with flags not known here, is taken as
  // blocking: then every ordering that could hold, holds.
  S.NonBlocking =
      A.streamIsNonBlocking(*K, Cfg.function()).value_or(false);
  return intern(S);
}

std::optional<unsigned> FunctionAsyncWork::eventOf(const Expr *E) {
  std::optional<LocKey> K = E ? Keys.handle(E) : std::nullopt;
  if (!K)
    return std::nullopt;
  for (unsigned I = 0; I < EventKeys.size(); ++I)
    if (EventKeys[I] == *K)
      return I;
  EventKeys.push_back(*K);
  return EventKeys.size() - 1;
}

bool FunctionAsyncWork::orderedAnyway(const WorkState &St, const Stmt *Site,
                                      unsigned S) const {
  auto It = St.Pending.find(Site);
  if (It != St.Pending.end() && It->second.count(S))
    return true;
  const StreamRef &X = Streams[Works.at(Site).Stream], &Y = Streams[S];
  return X.K == StreamRef::Unknown || Y.K == StreamRef::Unknown || X == Y;
}

bool FunctionAsyncWork::orderedBeforeNewWork(const WorkState &St,
                                             const Stmt *Site,
                                             unsigned S) const {
  if (orderedAnyway(St, Site, S))
    return true;
  const StreamRef &X = Streams[Works.at(Site).Stream], &Y = Streams[S];
  // The legacy default stream waits for, and is waited for by, every
  // blocking stream.
  if (Y.K == StreamRef::Legacy && isBlocking(X))
    return true;
  return X.K == StreamRef::Legacy && isBlocking(Y);
}

bool FunctionAsyncWork::retiredBySync(const WorkState &St, const Stmt *Site,
                                      unsigned S) const {
  if (orderedAnyway(St, Site, S))
    return true;
  const StreamRef &X = Streams[Works.at(Site).Stream], &Y = Streams[S];
  // Synchronizing the legacy stream is taken to wait for the blocking
  // streams too (the documentation does not say; silence is the safe side).
  return Y.K == StreamRef::Legacy && isBlocking(X);
}

void FunctionAsyncWork::retireEvent(WorkState &St, std::optional<unsigned> Ev) {
  auto It = Ev ? St.Events.find(*Ev) : St.Events.end();
  if (It == St.Events.end()) {
    // An event not recorded in this function: it may follow everything.
    St.Pending.clear();
    return;
  }
  const SortedSet<const Stmt *> &Covered = It->second;
  retireIf(St, [&](const Stmt *Site) { return Covered.count(Site); });
}

void FunctionAsyncWork::enqueue(const WorkInfo &W, WorkState &St) {
  Works.try_emplace(W.Site, W);
  unsigned S = W.Stream;
  for (auto &[Site, Ordered] : St.Pending)
    if (Site != W.Site && orderedBeforeNewWork(St, Site, S))
      Ordered.insert(S);
  // A new instance of an operation queued before (in a loop) starts over.
  St.Pending[W.Site].clear();
  for (auto &[Ev, Covered] : St.Events)
    Covered.erase(W.Site);
  if (W.Kind != WorkKind::EventRecord || !W.Event)
    return;
  const LocKey &EvKey = EventKeys[*W.Event];
  bool OneOfMany = !EvKey.Path.empty() && !EvKey.Path.back();
  SortedSet<const Stmt *> Covered;
  if (OneOfMany) {
    if (auto It = St.Events.find(*W.Event); It != St.Events.end())
      Covered = It->second;
  } else {
    // Recording again replaces what the event stood for.
    retireIf(St, [&](const Stmt *Site) {
      const WorkInfo &Other = Works.at(Site);
      return Site != W.Site && Other.Kind == WorkKind::EventRecord &&
             Other.Event == W.Event;
    });
  }
  for (const auto &[Site, Ordered] : St.Pending)
    if (Site == W.Site || orderedBeforeNewWork(St, Site, S))
      Covered.insert(Site);
  St.Events[*W.Event] = std::move(Covered);
}

std::optional<WorkInfo::Buffer> FunctionAsyncWork::bufferOf(const Expr *Ptr) {
  if (!Ptr || !Ptr->getType()->isPointerType())
    return std::nullopt;
  PointerFact F = M.factOf(Ptr);
  bool HostVisible =
      (F.Registered && !F.Unknown) ||
      F.isOnly(MS_Pinned | MS_Mapped | MS_Managed);
  if (!HostVisible && !F.isOnly(MS_Device))
    return std::nullopt;
  WorkInfo::Buffer B;
  if (std::optional<LocKey> K = Keys.pointee(Ptr))
    B.Key = *K;
  B.AllocSite = F.AllocSite;
  B.HostVisible = HostVisible;
  if (!B.Key.Root && !B.AllocSite)
    return std::nullopt;
  return B;
}

std::optional<WorkInfo::Buffer>
FunctionAsyncWork::pageableDestination(const CallExpr *C, const CopyInfo &CI) {
  if (!A.pageableCopies() || CI.isSet() || (CI.Flags & CF_Peer))
    return std::nullopt;
  std::optional<CopyDirection> D = CI.FixedDirection;
  if (D && *D == CopyDirection::None)
    D = CudaApiModel::copyKindOf(CudaApiModel::argument(C, CI.KindArg), Ctx);
  const Expr *Dst = CudaApiModel::argument(C, CI.DstArg);
  if (!D || *D != CopyDirection::DeviceToHost || !Dst ||
      !Dst->getType()->isPointerType())
    return std::nullopt;
  PointerFact F = M.factOf(Dst);
  if (F.Registered || !F.isOnly(MS_Host))
    return std::nullopt;
  WorkInfo::Buffer B;
  if (std::optional<LocKey> K = Keys.pointee(Dst))
    B.Key = *K;
  B.AllocSite = F.AllocSite;
  B.HostVisible = B.Pageable = true;
  if (!B.Key.Root && !B.AllocSite)
    return std::nullopt;
  return B;
}

const FunctionAsyncWork::ApiTransfer FunctionAsyncWork::ApiTransfers[] = {
    // In this order: the first kind of fact the model gives a call decides.
    {[](const ApiFunction &F) { return F.Copy.has_value(); },
     &FunctionAsyncWork::transferCopy},
    {[](const ApiFunction &F) { return F.Sync.has_value(); },
     &FunctionAsyncWork::transferSync},
    {[](const ApiFunction &F) { return F.ImplicitSync; },
     &FunctionAsyncWork::transferImplicitSync},
    {[](const ApiFunction &F) { return F.Free.has_value(); },
     &FunctionAsyncWork::transferFree},
    {[](const ApiFunction &F) { return F.Event.has_value(); },
     &FunctionAsyncWork::transferEvent},
};

void FunctionAsyncWork::transferCall(const CallExpr *C, WorkState &St,
                                     bool Report) {
  // What a call queues does not change from one visit to the next.
  if (auto It = Works.find(C); It != Works.end() && isQueuingCall(C)) {
    enqueue(It->second, St);
    return;
  }
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(C)) {
    enqueue(kernelWork(K), St);
    return;
  }
  const FunctionDecl *Callee = C->getDirectCallee();
  const ApiFunction *Api = CudaApiModel::lookup(Callee);
  if (!Api) {
    transferUnmodelledCall(C, Callee, St, Report);
    return;
  }
  // A library that reads or writes the buffer itself (CUDA-aware MPI), in
  // no order with queued device work, and waits for none of it.
  if (Api->DirectReadArg >= 0 || Api->DirectWriteArg >= 0) {
    if (Report && !St.Pending.empty()) {
      const Expr *Read = CudaApiModel::argument(C, Api->DirectReadArg);
      const Expr *Written = CudaApiModel::argument(C, Api->DirectWriteArg);
      if (!(Read && checkPointerUse(C, Read, true, false, St, true)) &&
          Written)
        checkPointerUse(C, Written, false, true, St, true);
    }
    return;
  }
  for (const ApiTransfer &T : ApiTransfers)
    if (T.Applies(*Api)) {
      (this->*T.Apply)(C, *Api, St, Report);
      return;
    }
}

WorkInfo FunctionAsyncWork::kernelWork(const CUDAKernelCallExpr *K) {
  WorkInfo W;
  W.Kind = WorkKind::Kernel;
  W.Site = K;
  W.Kernel = K->getDirectCallee();
  const CallExpr *Config = K->getConfig();
  setStream(W, Config && Config->getNumArgs() > 3 ? Config->getArg(3)
                                                  : nullptr);
  if (!W.Kernel)
    return W;
  for (unsigned I = 0; I < K->getNumArgs(); ++I) {
    std::optional<WorkInfo::Buffer> B = bufferOf(K->getArg(I));
    if (!B)
      continue;
    std::optional<AsyncWorkAnalysis::Access> Acc = A.deviceAccess(W.Kernel, I);
    // Memory the kernel shares with the host on purpose (volatile
    // polling, system-scope atomics) is not a missing synchronization.
    if (!Acc || Acc->Concurrent)
      continue;
    W.add(*B, *Acc);
  }
  if (const auto *Managed = A.managedAccess(W.Kernel))
    for (const auto &[VD, Acc] : *Managed)
      W.addManaged(VD, Acc);
  return W;
}

void FunctionAsyncWork::transferUnmodelledCall(const CallExpr *C,
                                               const FunctionDecl *Callee,
                                               WorkState &St, bool Report) {
  if (!Callee || (!isInSystemHeader(Callee, SM) && !Callee->hasBody())) {
    St.Pending.clear();
    return;
  }
  bool Waits = hostFunctionMayWait(Callee);
  if (Waits)
    St.Pending.clear();
  else if (Report && !St.Pending.empty())
    checkCallArguments(C, Callee, St);
  if (isInSystemHeader(Callee, SM))
    return;
  enqueueLeftRunning(C, Callee, St);
  if (AllWork && !Waits && !St.Pending.count(C) && A.queuesWork(Callee)) {
    // What the callee leaves running, on streams not known here.
    WorkInfo W;
    W.Site = C;
    W.Via = Callee;
    W.Stream = intern(StreamRef());
    enqueue(Works.try_emplace(C, W).first->second, St);
  }
}

void FunctionAsyncWork::transferCopy(const CallExpr *C, const ApiFunction &Api,
                                     WorkState &St, bool Report) {
  const CopyInfo &CI = *Api.Copy;
  auto Arg = [&](int I) { return CudaApiModel::argument(C, I); };
  if (Api.Library == ApiLibrary::CLib) {
    if (Report && !St.Pending.empty()) {
      const Expr *Src = Arg(CI.SrcArg), *Dst = Arg(CI.DstArg);
      if (!(Src && checkPointerUse(C, Src, true, false, St)) && Dst)
        checkPointerUse(C, Dst, false, true, St);
    }
    return;
  }
  if (CI.isAsync()) {
    WorkInfo W;
    W.Kind = CI.isSet() ? WorkKind::Memset : WorkKind::Copy;
    W.Site = C;
    setStream(W, Arg(CI.StreamArg));
    if (std::optional<WorkInfo::Buffer> B = bufferOf(Arg(CI.DstArg)))
      W.Writes.push_back(*B);
    else if (std::optional<WorkInfo::Buffer> P = pageableDestination(C, CI))
      W.Writes.push_back(*P);
    if (std::optional<WorkInfo::Buffer> B = bufferOf(Arg(CI.SrcArg)))
      W.Reads.push_back(*B);
    enqueue(W, St);
    return;
  }
  if (CI.isSet() || (CI.Flags & CF_Peer))
    return; // Do not wait for the device.
  std::optional<CopyDirection> D = CI.FixedDirection;
  if (*D == CopyDirection::None)
    D = CudaApiModel::copyKindOf(Arg(CI.KindArg), Ctx);
  if (D && *D == CopyDirection::DeviceToDevice)
    return; // No host-side synchronization.
  // A synchronous copy is queued on the default stream and waited for.
  if (syncCounts(C))
    retireOrderedBefore(St, intern(defaultStream()));
}

void FunctionAsyncWork::transferSync(const CallExpr *C, const ApiFunction &Api,
                                     WorkState &St, bool) {
  const SyncInfo &SI = *Api.Sync;
  if (SI.isQuery() && !isResultExamined(classifyResultUse(C, Cfg), Cfg))
    return; // A query whose answer is ignored orders nothing.
  if (!syncCounts(C))
    return;
  const Expr *Handle = CudaApiModel::argument(C, SI.HandleArg);
  switch (SI.Scope) {
  case SyncScope::Device:
    St.Pending.clear();
    return;
  case SyncScope::Stream:
  case SyncScope::StreamQuery: {
    unsigned S = streamOf(Handle);
    if (Streams[S].K == StreamRef::Legacy)
      retireOrderedBefore(St, S);
    else
      retireIf(St, [&](const Stmt *Site) {
        return retiredBySync(St, Site, S);
      });
    return;
  }
  case SyncScope::Event:
  case SyncScope::EventQuery:
    retireEvent(St, eventOf(Handle));
    return;
  }
}

void FunctionAsyncWork::transferImplicitSync(const CallExpr *C,
                                             const ApiFunction &,
                                             WorkState &St, bool) {
  if (syncCounts(C))
    St.Pending.clear();
}

void FunctionAsyncWork::transferFree(const CallExpr *C, const ApiFunction &Api,
                                     WorkState &St, bool Report) {
  if (!Report || St.Pending.empty())
    return;
  const Expr *Ptr = CudaApiModel::argument(C, Api.Free->PtrArg);
  if (Api.Library == ApiLibrary::CLib)
    checkFree(C, Ptr, std::nullopt, St);
  else if (Api.Free->StreamArg >= 0)
    checkFree(C, Ptr, streamOf(CudaApiModel::argument(C, Api.Free->StreamArg)),
              St);
}

void FunctionAsyncWork::transferEvent(const CallExpr *C,
                                      const ApiFunction &Api, WorkState &St,
                                      bool Report) {
  const EventInfo &EI = *Api.Event;
  auto Arg = [&](int I) { return CudaApiModel::argument(C, I); };
  switch (EI.Role) {
  case EventRole::Record: {
    WorkInfo W;
    W.Kind = WorkKind::EventRecord;
    W.Site = C;
    setStream(W, Arg(EI.StreamArg));
    W.Event = eventOf(Arg(EI.EventArg));
    enqueue(W, St);
    return;
  }
  case EventRole::Wait: {
    unsigned S = streamOf(Arg(EI.StreamArg));
    std::optional<unsigned> Ev = eventOf(Arg(EI.EventArg));
    auto It = Ev ? St.Events.find(*Ev) : St.Events.end();
    for (auto &[Site, Ordered] : St.Pending)
      if (It == St.Events.end() || It->second.count(Site))
        Ordered.insert(S);
    return;
  }
  case EventRole::Elapsed:
    if (Report)
      checkElapsed(C, EI, St);
    return;
  }
}

void FunctionAsyncWork::checkElapsed(const CallExpr *C, const EventInfo &EI,
                                     const WorkState &St) {
  for (int I : {EI.Event2Arg, EI.EventArg}) {
    const Expr *EventArg = CudaApiModel::argument(C, I);
    std::optional<unsigned> Ev = eventOf(EventArg);
    if (!Ev)
      continue;
    llvm::SmallVector<const Stmt *, 2> Records;
    for (const auto &[Site, Ordered] : St.Pending) {
      const WorkInfo &W = Works.at(Site);
      if (W.Kind == WorkKind::EventRecord && W.Event == Ev)
        Records.push_back(Site);
    }
    if (!Records.empty()) {
      report(SyncHazard::ElapsedBeforeSync, C, EventArg, earliest(Records));
      return;
    }
  }
}

void FunctionAsyncWork::checkCallArguments(const CallExpr *C,
                                           const FunctionDecl *Callee,
                                           const WorkState &St) {
  bool Library = isInSystemHeader(Callee, SM);
  // An element of a host container that a copy may still write.
  if (Library)
    if (const Expr *Container = KeyBuilder::containerOfElement(C)) {
      auto [Reads, Writes] = accessKind(C);
      checkAccess(C, Container, Keys.lvalue(C), nullptr, Reads, Writes, St);
      return;
    }
  unsigned Skip = objectArgumentCount(C, Callee);
  for (unsigned I = Skip; I < C->getNumArgs(); ++I) {
    const Expr *Ptr = C->getArg(I);
    if (!Ptr->getType()->isPointerType())
      continue;
    unsigned ParamIndex = I - Skip;
    if (Library) {
      QualType T = ParamIndex < Callee->getNumParams()
                       ? Callee->getParamDecl(ParamIndex)->getType()
                       : Ptr->getType();
      if (checkPointerUse(C, Ptr, true, !pointeeIsConst(T), St))
        return; // One finding per call.
    } else if (std::optional<AsyncWorkAnalysis::Access> Acc =
                   A.hostAccess(Callee, ParamIndex)) {
      if ((Acc->Reads || Acc->Writes) &&
          checkPointerUse(C, Ptr, Acc->Reads, Acc->Writes, St))
        return;
    }
  }
  if (!Library)
    checkCalleeGlobals(C, Callee, St);
}

void FunctionAsyncWork::checkCalleeGlobals(const CallExpr *C,
                                           const FunctionDecl *Callee,
                                           const WorkState &St) {
  const auto *Globals = A.hostGlobalAccess(Callee);
  if (!Globals)
    return;
  for (const auto &[VD, Use] : *Globals) {
    if (!Use.Acc.Reads && !Use.Acc.Writes)
      continue;
    // A managed variable is the memory; a global pointer points to it.
    LocKey Key{VD, {}};
    if (!isManagedVariableDecl(VD))
      Key.Path.push_back(nullptr);
    CalleeUse = Use.FirstRef;
    CalleeUseIn = Use.In;
    bool Found = checkAccess(C, Use.FirstRef, Key, nullptr, Use.Acc.Reads,
                             Use.Acc.Writes, St);
    CalleeUse = nullptr;
    if (Found)
      return; // One finding per call.
  }
}

void FunctionAsyncWork::enqueueLeftRunning(const CallExpr *C,
                                           const FunctionDecl *Callee,
                                           WorkState &St) {
  if (auto It = Works.find(C); It != Works.end()) {
    enqueue(It->second, St);
    return;
  }
  const std::vector<AsyncWorkAnalysis::LeftRunning> *Left =
      A.leftRunning(Callee);
  if (!Left || Left->empty())
    return;
  unsigned Skip = objectArgumentCount(C, Callee);
  auto ArgOf = [&](unsigned Param) -> const Expr * {
    return Param + Skip < C->getNumArgs() ? C->getArg(Param + Skip) : nullptr;
  };
  WorkInfo W;
  W.Site = C;
  W.Via = Callee;
  const AsyncWorkAnalysis::LeftRunning &First = Left->front();
  W.Kind = First.Kind;
  W.Kernel = First.Kernel;
  // One operation for the call: its stream when every piece of work agrees.
  bool SameStream = llvm::all_of(*Left, [&](const auto &L) {
    return L.StreamParam == First.StreamParam &&
           L.StreamKind == First.StreamKind;
  });
  StreamRef Unknown;
  if (!SameStream) {
    W.Stream = intern(Unknown);
  } else if (First.StreamParam >= 0) {
    setStream(W, ArgOf(First.StreamParam));
  } else {
    StreamRef S;
    S.K = First.StreamKind;
    W.Stream = intern(S);
  }
  for (const AsyncWorkAnalysis::LeftRunning &L : *Left) {
    for (const auto &[Param, Acc] : L.Params) {
      std::optional<WorkInfo::Buffer> B = bufferOf(ArgOf(Param));
      if (B && B->HostVisible)
        W.add(*B, Acc);
    }
    for (const auto &[VD, Acc] : L.Managed)
      W.addManaged(VD, Acc);
  }
  if (!W.Writes.empty() || !W.Reads.empty())
    enqueue(W, St);
}

void FunctionAsyncWork::transfer(const CFGElement &E, WorkState &St,
                                 bool Report) {
  if (auto D = E.getAs<CFGImplicitDtor>()) {
    const CXXDestructorDecl *Dtor = D->getDestructorDecl(Ctx);
    if (Dtor && !Dtor->isTrivial() && !St.Pending.empty() &&
        hostFunctionMayWait(Dtor))
      St.Pending.clear();
    return;
  }
  const Stmt *S = FunctionCfg::stmtOf(E);
  if (!S)
    return;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    transferCall(C, St, Report);
    return;
  }
  if (St.Pending.empty())
    return;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor && !Ctor->isTrivial() && !isInSystemHeader(Ctor, SM) &&
        A.mayWait(Ctor))
      St.Pending.clear();
    return;
  }
  if (!Report)
    return;
  if (const auto *Del = dyn_cast<CXXDeleteExpr>(S)) {
    checkFree(Del, Del->getArgument(), std::nullopt, St);
    return;
  }
  if (const auto *Ex = dyn_cast<Expr>(S))
    checkElementAccess(Ex, St);
}

WorkState FunctionAsyncWork::processBlock(const CFGBlock *B, WorkState St,
                                          bool Report) {
  for (const CFGElement &E : *B)
    transfer(E, St, Report);
  return St;
}

std::pair<bool, bool> FunctionAsyncWork::accessKind(const Expr *E) const {
  const ParentMap &PM = Cfg.parents();
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const Stmt *P = PM.getParentIgnoreParens(E);
    if (!P)
      return {true, false};
    if (const auto *C = dyn_cast<ImplicitCastExpr>(P)) {
      if (C->getCastKind() == CK_ArrayToPointerDecay)
        return {false, false};
      if (C->getCastKind() == CK_NoOp) {
        E = C;
        continue;
      }
      return {true, false};
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P)) {
      if (U->getOpcode() == UO_AddrOf)
        return {false, false};
      if (U->isIncrementDecrementOp())
        return {true, true};
      return {true, false};
    }
    if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      if (B->isAssignmentOp() && B->getLHS()->IgnoreParens() == E)
        return {B->isCompoundAssignmentOp(), true};
      return {true, false};
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      if (!ME->isArrow()) {
        E = ME;
        continue;
      }
      return {true, false};
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(P);
        MC && MC->getImplicitObjectArgument()->IgnoreParens() == E) {
      const CXXMethodDecl *Method = MC->getMethodDecl();
      return {true, !Method || !Method->isConst()};
    }
    // Passed by reference: read, and written unless the reference is const.
    const FunctionDecl *Callee = nullptr;
    llvm::ArrayRef<const Expr *> Args;
    if (const auto *C = dyn_cast<CallExpr>(P)) {
      Callee = C->getDirectCallee();
      Args = llvm::ArrayRef(C->getArgs(), C->getNumArgs());
    } else if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
      Callee = CE->getConstructor();
      Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
    } else {
      return {true, false};
    }
    if (!Callee)
      return {true, true};
    unsigned Offset = isa<CallExpr>(P)
                          ? objectArgumentCount(cast<CallExpr>(P), Callee)
                          : 0;
    for (unsigned I = 0; I < Args.size(); ++I)
      if (Args[I]->IgnoreParens() == E) {
        if (I < Offset)
          return {true, !cast<CXXMethodDecl>(Callee)->isConst()};
        if (I - Offset >= Callee->getNumParams())
          return {true, false}; // Variadic: passed by value.
        QualType T = Callee->getParamDecl(I - Offset)->getType();
        return {true, T->isReferenceType() &&
                          !T.getNonReferenceType().isConstQualified()};
      }
    return {true, false};
  }
  return {true, false};
}

void FunctionAsyncWork::checkElementAccess(const Expr *E, const WorkState &St) {
  const Expr *Base = accessedPointer(E);
  std::optional<LocKey> Key;
  const Stmt *AllocSite = nullptr;
  const Expr *Named = Base;
  if (Base) {
    if (!Base->getType()->isPointerType() && !Base->getType()->isArrayType())
      return;
    Key = Keys.lvalue(E);
    if (Base->getType()->isPointerType()) {
      PointerFact F = M.factOf(Base);
      if (F.isKnown())
        AllocSite = F.AllocSite;
    }
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !isManagedVariableDecl(VD) || VD->getType()->isArrayType())
      return;
    Key = LocKey{VD, {}};
    Named = E;
  } else {
    return;
  }
  auto [Reads, Writes] = accessKind(E);
  if (Reads || Writes)
    checkAccess(E, Named, Key, AllocSite, Reads, Writes, St);
}

bool FunctionAsyncWork::checkPointerUse(const Stmt *At, const Expr *Ptr,
                                        bool Reads, bool Writes,
                                        const WorkState &St, bool AnyMemory) {
  if (!Ptr->getType()->isPointerType())
    return false;
  const Stmt *AllocSite = nullptr;
  PointerFact F = M.factOf(Ptr);
  if (F.isKnown())
    AllocSite = F.AllocSite;
  (void)At; // The finding points at the argument.
  return checkAccess(Ptr, Ptr, Keys.pointee(Ptr), AllocSite, Reads, Writes, St,
                     AnyMemory);
}

static bool matches(const WorkInfo::Buffer &B, const std::optional<LocKey> &Key,
                    const Stmt *AllocSite) {
  return (Key && B.Key.Root && Key->hasPrefix(B.Key)) ||
         (AllocSite && AllocSite == B.AllocSite);
}

bool FunctionAsyncWork::checkAccess(const Stmt *At, const Expr *Named,
                                    const std::optional<LocKey> &Key,
                                    const Stmt *AllocSite, bool Reads,
                                    bool Writes, const WorkState &St,
                                    bool AnyMemory) {
  if (!Key && !AllocSite)
    return false;
  llvm::SmallVector<const Stmt *, 2> WrittenBy, UsedBy, PageableWrites;
  for (const auto &[Site, Ordered] : St.Pending) {
    const WorkInfo &W = Works.at(Site);
    for (const WorkInfo::Buffer &B : W.Writes)
      if ((B.HostVisible || AnyMemory) && matches(B, Key, AllocSite)) {
        (B.Pageable ? PageableWrites : WrittenBy).push_back(Site);
        break;
      }
    for (const WorkInfo::Buffer &B : W.Reads)
      if ((B.HostVisible || AnyMemory) && matches(B, Key, AllocSite)) {
        UsedBy.push_back(Site);
        break;
      }
  }
  if (Reads && !WrittenBy.empty()) {
    report(SyncHazard::ReadWhileWritten, At, Named, earliest(WrittenBy));
    return true;
  }
  // A copy into pageable memory is done when it returns: only reads count.
  if (Reads && !PageableWrites.empty()) {
    report(SyncHazard::ReadWhileWritten, At, Named, earliest(PageableWrites),
           /*Pageable=*/true);
    return true;
  }
  UsedBy.append(WrittenBy.begin(), WrittenBy.end());
  if (Writes && !UsedBy.empty()) {
    report(SyncHazard::WrittenWhileUsed, At, Named, earliest(UsedBy));
    return true;
  }
  return false;
}

void FunctionAsyncWork::checkFree(const Stmt *At, const Expr *Ptr,
                                  std::optional<unsigned> Stream,
                                  const WorkState &St) {
  if (!Ptr || !Ptr->getType()->isPointerType())
    return;
  std::optional<LocKey> Key = Keys.pointee(Ptr);
  const Stmt *AllocSite = nullptr;
  PointerFact F = M.factOf(Ptr);
  if (F.isKnown())
    AllocSite = F.AllocSite;
  llvm::SmallVector<const Stmt *, 2> UsedBy;
  for (const auto &[Site, Ordered] : St.Pending) {
    const WorkInfo &W = Works.at(Site);
      if (Stream && orderedBeforeNewWork(St, Site, *Stream))
      continue;
    auto Uses = [&](const WorkInfo::Buffer &B) {
      return !B.Pageable && (Stream || B.HostVisible) &&
             matches(B, Key, AllocSite);
    };
    if (llvm::any_of(W.Writes, Uses) || llvm::any_of(W.Reads, Uses))
      UsedBy.push_back(Site);
  }
  if (!UsedBy.empty())
    report(Stream ? SyncHazard::FreedOnOtherStream : SyncHazard::FreedWhileUsed,
           At, Ptr, earliest(UsedBy));
}

const Stmt *FunctionAsyncWork::earliest(llvm::ArrayRef<const Stmt *> Sites) const {
  const Stmt *Best = nullptr;
  for (const Stmt *S : Sites)
    if (!Best || SM.isBeforeInTranslationUnit(S->getBeginLoc(),
                                              Best->getBeginLoc()))
      Best = S;
  return Best;
}

void FunctionAsyncWork::report(SyncHazard::Kind K, const Stmt *At,
                               const Expr *Named, const Stmt *Site,
                               bool Pageable) {
  if (!ReportedAt.insert(At).second)
    return;
  const WorkInfo &W = Works.at(Site);
  SyncHazard H;
  H.K = K;
  H.At = At;
  H.Named = Named;
  H.Work = Site;
  H.Work_ = W.Kind;
  H.Kernel = W.Kernel;
  H.Via = W.Via;
  H.CalleeUse = CalleeUse;
  H.CalleeUseIn = CalleeUseIn;
  H.StreamExpr = W.StreamExpr;
  H.Stream = Streams[W.Stream];
  H.Pageable = Pageable;
  Hazards.push_back(H);
}

bool FunctionAsyncWork::solve() {
  const CFG &G = Cfg.graph();
  unsigned N = G.getNumBlockIDs();

  // Reverse post-order from the entry.
  {
    std::vector<bool> Seen(N);
    std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>>
        Stack;
    const CFGBlock *Entry = &G.getEntry();
    Seen[Entry->getBlockID()] = true;
    Stack.push_back({Entry, Entry->succ_begin()});
    while (!Stack.empty()) {
      auto &[B, It] = Stack.back();
      if (It == B->succ_end()) {
        Order.push_back(B);
        Stack.pop_back();
        continue;
      }
      const CFGBlock *Next = It->getReachableBlock();
      ++It;
      if (Next && !Seen[Next->getBlockID()]) {
        Seen[Next->getBlockID()] = true;
        Stack.push_back({Next, Next->succ_begin()});
      }
    }
    std::reverse(Order.begin(), Order.end());
  }

  auto IsLoopHeader = [](const CFGBlock *B) {
    const Stmt *T = B->getTerminatorStmt();
    return T && (isa<ForStmt>(T) || isa<WhileStmt>(T) ||
                 isa<CXXForRangeStmt>(T));
  };
  In.assign(N, StateSet());
  std::vector<StateSet> Out(N), OutBack(N), InBackSeen(N);
  // Loops are taken to run at least once: the exit edge of a loop header
  // carries only what comes around the loop, when the body is reachable.
  auto EdgeOut = [&](const CFGBlock *P, const CFGBlock *B) {
    unsigned Id = P->getBlockID();
    bool ExitEdge = P->succ_size() == 2 &&
                    (P->succ_begin() + 1)->getReachableBlock() == B;
    const StateSet &From =
        IsLoopHeader(P) && ExitEdge && OutBack[Id].reached() ? OutBack[Id]
                                                             : Out[Id];
    StateSet Result;
    for (const WorkState &S : From.States)
      Result.add(alongEdge(P, B, S));
    return Result;
  };
  auto Process = [&](const CFGBlock *B, const StateSet &Set) {
    StateSet Result;
    for (const WorkState &S : Set.States)
      Result.add(processBlock(B, S, false));
    return Result;
  };

  // When each block's Out (or OutBack) last changed, and when each block's
  // input was last computed, on one clock: a block none of whose
  // predecessors changed since would compute the same input again, and
  // would skip its transfer as unchanged.
  unsigned Clock = 0;
  std::vector<unsigned> OutChanged(N, 0), InComputed(N, 0);
  auto UpstreamChanged = [&](const CFGBlock *B) {
    unsigned Since = InComputed[B->getBlockID()];
    if (!Since)
      return true;
    return llvm::any_of(B->preds(), [&](const CFGBlock::AdjacentBlock &P) {
      const CFGBlock *PB = P.getReachableBlock();
      return PB && OutChanged[PB->getBlockID()] > Since;
    });
  };

  constexpr unsigned MaxSweeps = 40;
  bool Stable = false;
  for (unsigned Sweep = 0; Sweep < MaxSweeps && !Stable; ++Sweep) {
    Stable = true;
    for (const CFGBlock *B : Order) {
      unsigned Id = B->getBlockID();
      if (Out[Id].reached() && !UpstreamChanged(B))
        continue;
      InComputed[Id] = ++Clock;
      StateSet InAll, InBack;
      if (B == &G.getEntry()) {
        WorkState Entry;
        Entry.Reached = true;
        InAll.add(Entry);
      }
      for (const CFGBlock::AdjacentBlock &P : B->preds()) {
        const CFGBlock *PB = P.getReachableBlock();
        if (!PB)
          continue;
        StateSet O = EdgeOut(PB, B);
        if (IsLoopHeader(B) && PB->getLoopTarget() == B->getTerminatorStmt())
          for (const WorkState &S : O.States)
            InBack.add(S);
        InAll.add(std::move(O));
      }
      if (!InAll.reached())
        continue;
      if (InAll == In[Id] && InBack == InBackSeen[Id] && Out[Id].reached())
        continue;
      Stable = false;
      Out[Id] = Process(B, InAll);
      if (IsLoopHeader(B) && InBack.reached())
        OutBack[Id] = Process(B, InBack);
      OutChanged[Id] = ++Clock;
      In[Id] = std::move(InAll);
      InBackSeen[Id] = std::move(InBack);
    }
  }
  return Stable;
}

const std::optional<EdgeFact> &
FunctionAsyncWork::edgeFactOf(const CFGBlock *From, const CFGBlock *To) {
  auto [It, New] =
      EdgeFacts.try_emplace({From->getBlockID(), To->getBlockID()});
  if (!New)
    return It->second;
  // The edge's index; a block reached by several edges of one branch
  // learns nothing.
  std::optional<unsigned> Index;
  unsigned I = 0;
  for (const CFGBlock::AdjacentBlock &Succ : From->succs()) {
    if (Succ.getReachableBlock() == To) {
      if (Index)
        return It->second;
      Index = I;
    }
    ++I;
  }
  if (!Index)
    return It->second;
  MemorySpaceAnalysis &MSA = MemorySpaceAnalysis::get(Ctx, A.arch());
  It->second = edgeFact(From, *Index, Ctx, [&](const VarDecl *VD) {
    return !MSA.isModified(Cfg.function(), VD);
  });
  return It->second;
}

WorkState FunctionAsyncWork::alongEdge(const CFGBlock *From,
                                       const CFGBlock *To,
                                       const WorkState &Out) {
  if (!Out.Reached)
    return Out;
  const std::optional<EdgeFact> &E = edgeFactOf(From, To);
  if (!E)
    return Out;
  WorkState Result = Out;
  if (!Result.Taken.add(*E))
    return WorkState(); // The other way was taken before: not a path.
  return Result;
}

std::vector<AsyncWorkAnalysis::LeftRunning>
FunctionAsyncWork::leftRunning() const {
  std::vector<AsyncWorkAnalysis::LeftRunning> Result;
  WorkState Exit;
  for (const WorkState &S : In[Cfg.graph().getExit().getBlockID()].States)
    Exit.join(S);
  const FunctionDecl *FD = Cfg.function();
  auto ParamIndex = [&](const ValueDecl *D) -> int {
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (FD->getParamDecl(I) == D)
        return I;
    return -1;
  };
  for (const auto &[Site, Ordered] : Exit.Pending) {
    const WorkInfo &W = Works.at(Site);
    if (W.Kind == WorkKind::EventRecord)
      continue;
    AsyncWorkAnalysis::LeftRunning L;
    L.Kind = W.Kind;
    L.Kernel = W.Kernel;
    const StreamRef &S = Streams[W.Stream];
    L.StreamKind = S.K;
    if (S.K == StreamRef::Named) {
      L.StreamKind = StreamRef::Unknown;
      if (S.Handle.Path.empty())
        L.StreamParam = ParamIndex(S.Handle.Root);
    }
    auto Add = [&](const WorkInfo::Buffer &B, bool Writes) {
      if (!B.HostVisible || B.Pageable || !B.Key.Root)
        return;
      AsyncWorkAnalysis::Access Acc;
      (Writes ? Acc.Writes : Acc.Reads) = true;
      int P = ParamIndex(B.Key.Root);
      if (P >= 0 && B.Key.Path.size() == 1 && !B.Key.Path[0])
        L.Params.push_back({(unsigned)P, Acc});
      else if (const auto *VD = dyn_cast<VarDecl>(B.Key.Root);
               VD && B.Key.Path.empty() && isManagedVariableDecl(VD))
        L.Managed.push_back({VD, Acc});
    };
    for (const WorkInfo::Buffer &B : W.Writes)
      Add(B, true);
    for (const WorkInfo::Buffer &B : W.Reads)
      Add(B, false);
    if (!L.Params.empty() || !L.Managed.empty())
      Result.push_back(std::move(L));
  }
  return Result;
}

std::vector<SyncHazard> FunctionAsyncWork::report() {
  for (const CFGBlock *B : Order)
    for (const WorkState &S : In[B->getBlockID()].States)
      processBlock(B, S, true);
  llvm::sort(Hazards, [&](const SyncHazard &L, const SyncHazard &R) {
    return SM.isBeforeInTranslationUnit(L.At->getBeginLoc(),
                                        R.At->getBeginLoc());
  });
  // One finding per queued operation, kind of hazard and buffer: the first
  // access in the source.
  std::set<std::tuple<const Stmt *, int, const ValueDecl *>> Seen;
  std::vector<SyncHazard> First;
  for (const SyncHazard &H : Hazards) {
    const ValueDecl *Root = nullptr;
    if (H.Named) {
      std::optional<LocKey> K = H.Named->getType()->isPointerType()
                                    ? Keys.pointee(H.Named)
                                    : Keys.lvalue(H.Named);
      Root = K ? K->Root : nullptr;
    }
    if (!Root || Seen.insert({H.Work, H.K, Root}).second)
      First.push_back(H);
  }
  return First;
}

/// Whether the function of \p Cfg queues device work whose use of memory
/// could be reported: any work, when host-visible memory exists in the
/// translation unit; otherwise only work on device memory freed in stream
/// order, or an event whose time is read.
bool worthAnalysing(const FunctionCfg &Cfg, AsyncWorkAnalysis &A,
                    bool HostVisibleMemory) {
  bool Queues = false, Reportable = HostVisibleMemory;
  auto IsAsyncCopy = [](const ApiFunction *Api) {
    return Api->Copy && Api->Copy->isAsync() && !Api->Copy->isSet();
  };
  for (const CFGBlock *B : Cfg.graph())
    for (const CFGElement &E : *B) {
      const auto *C = dyn_cast_or_null<CallExpr>(FunctionCfg::stmtOf(E));
      if (!C)
        continue;
      if (!Queues && (isQueuingCall(C) || A.queuesWork(C->getDirectCallee())))
        Queues = true;
      if (!Reportable)
        if (const ApiFunction *Api = CudaApiModel::lookup(C))
          Reportable = (Api->Free && Api->Free->StreamArg >= 0) ||
                       (Api->Event && Api->Event->Role == EventRole::Elapsed) ||
                       Api->DirectReadArg >= 0 || Api->DirectWriteArg >= 0 ||
                       (A.pageableCopies() && IsAsyncCopy(Api));
      if (Queues && Reportable)
        return true;
    }
  return false;
}

} // namespace

/// Whether the program ends after the last statement of \p B (of \p FD)
/// with status 0; sets \p Exit to that statement.
static bool endsProgramWithSuccess(const CFGBlock *B, const FunctionDecl *FD,
                                   ASTContext &Ctx, const Stmt *&Exit) {
  const Stmt *Last = nullptr;
  for (const CFGElement &E : *B)
    if (const Stmt *S = FunctionCfg::stmtOf(E))
      if (isa<ReturnStmt>(S) || isa<CallExpr>(S))
        Last = S;
  // A status that is not the constant 0 may report a failure (error
  // macros exit with the error code).
  auto FailingStatus = [&](const Expr *Status) {
    Expr::EvalResult R;
    return Status && (Status->isValueDependent() ||
                      !Status->EvaluateAsInt(R, Ctx) ||
                      !R.Val.getInt().isZero());
  };
  if (const auto *C = dyn_cast_or_null<CallExpr>(Last)) {
    const FunctionDecl *Callee = C->getDirectCallee();
    const ApiFunction *Api = CudaApiModel::lookup(Callee);
    if (Api && Api->endsProgram()) {
      Exit = C;
      return !FailingStatus(CudaApiModel::argument(C, Api->ExitStatusArg));
    }
    if (Callee && Callee->isNoReturn())
      return false; // abort() and error handlers.
  }
  if (!FD->isMain())
    return false;
  const auto *Ret = dyn_cast_or_null<ReturnStmt>(Last);
  Exit = Ret;
  return !(Ret && FailingStatus(Ret->getRetValue()));
}

bool FunctionAsyncWork::endsProgramCleanly(const CFGBlock *B,
                                           const Stmt *&Exit) const {
  return endsProgramWithSuccess(B, Cfg.function(), Ctx, Exit);
}

std::vector<UnfinishedAtExit> FunctionAsyncWork::atProgramExits() {
  std::vector<UnfinishedAtExit> Result;
  const CFGBlock &ExitBlock = Cfg.graph().getExit();
  for (const CFGBlock::AdjacentBlock &P : ExitBlock.preds()) {
    const CFGBlock *B = P.getReachableBlock();
    const Stmt *Exit = nullptr;
    if (!B || !endsProgramCleanly(B, Exit))
      continue;
    WorkState Out;
    for (const WorkState &S : In[B->getBlockID()].States)
      Out.join(processBlock(B, S, false));
    for (const auto &[Site, Ordered] : Out.Pending) {
      const WorkInfo &W = Works.at(Site);
      if (W.Kind == WorkKind::EventRecord)
        continue;
      UnfinishedAtExit U;
      U.Exit = Exit;
      U.Work = Site;
      U.Kind = W.Kind;
      U.Kernel = W.Kernel;
      U.Via = W.Via;
      U.StreamExpr = W.StreamExpr;
      U.Stream = Streams[W.Stream];
      Result.push_back(U);
    }
  }
  return Result;
}

/// Whether host function \p FD is one the two checks analyse.
static bool isCheckedHostFunction(const FunctionDecl *FD,
                                  const SourceManager &SM,
                                  const ArchConditionals &Arch) {
  return FD && AsyncWorkAnalysis::isHostFunction(*FD) &&
         isAnalysableFunction(FD, SM) && isSeenWhole(FD, SM, Arch);
}

bool AsyncWorkAnalysis::mayExitWithWork(const FunctionDecl *FD,
                                        const FunctionCfg &Cfg) {
  if (!queuesWork(FD))
    return false;
  for (const CFGBlock::AdjacentBlock &P : Cfg.graph().getExit().preds()) {
    const Stmt *Exit = nullptr;
    if (const CFGBlock *B = P.getReachableBlock();
        B && endsProgramWithSuccess(B, FD, Ctx, Exit))
      return true;
  }
  return false;
}

const AsyncWorkAnalysis::CheckFacts &
AsyncWorkAnalysis::checkFacts(const FunctionDecl *FD, const FunctionCfg &Cfg,
                              bool PerThreadDefaultStream) {
  if (LastFacts.FD == FD && LastFacts.PerThread == PerThreadDefaultStream &&
      LastFacts.PageableCopies == PageableCopies)
    return LastFacts;
  LastFacts = CheckFacts();
  LastFacts.FD = FD;
  LastFacts.PerThread = PerThreadDefaultStream;
  LastFacts.PageableCopies = PageableCopies;
  collectTranslationUnitFacts();
  // Solve nothing for a function where neither check can report.
  bool Hazards = worthAnalysing(Cfg, *this, HostVisibleMemory);
  bool Exits = mayExitWithWork(FD, Cfg);
  if (!Hazards && !Exits)
    return LastFacts;
  const FunctionMemorySpaces *M = MemorySpaceAnalysis::get(Ctx, Arch).analyse(FD);
  if (!M)
    return LastFacts;
  PerThread = PerThreadDefaultStream;
  FunctionAsyncWork W(*this, *M, PerThreadDefaultStream);
  if (Exits)
    W.trackAllWork(/*CheckedSyncOnly=*/false);
  if (W.solve()) {
    if (Exits)
      LastFacts.Exits = W.atProgramExits();
    if (Hazards)
      LastFacts.Hazards = W.report();
  } else if (Hazards && Exits) {
    // The work of callees kept it from settling: the hazards alone may.
    FunctionAsyncWork H(*this, *M, PerThreadDefaultStream);
    if (H.solve())
      LastFacts.Hazards = H.report();
  }
  return LastFacts;
}

std::vector<SyncHazard>
AsyncWorkAnalysis::hazardsIn(const FunctionDecl *FD,
                             bool PerThreadDefaultStream,
                             bool ReportPageable) {
  PageableCopies = ReportPageable;
  if (!isCheckedHostFunction(FD, Ctx.getSourceManager(), Arch))
    return {};
  const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).beginFunction(FD);
  if (!Cfg)
    return {};
  return checkFacts(FD, *Cfg, PerThreadDefaultStream).Hazards;
}

std::vector<UnfinishedAtExit>
AsyncWorkAnalysis::unfinishedAtExit(const FunctionDecl *FD,
                                    bool PerThreadDefaultStream,
                                    bool CheckedSyncOnly) {
  if (!isCheckedHostFunction(FD, Ctx.getSourceManager(), Arch))
    return {};
  const FunctionCfg *Cfg = TranslationUnitAnalyses::get(Ctx).beginFunction(FD);
  if (!Cfg)
    return {};
  if (!CheckedSyncOnly)
    return checkFacts(FD, *Cfg, PerThreadDefaultStream).Exits;
  // Synchronizations that count only when checked: a fixpoint of its own.
  if (!mayExitWithWork(FD, *Cfg))
    return {};
  collectTranslationUnitFacts();
  const FunctionMemorySpaces *M = MemorySpaceAnalysis::get(Ctx, Arch).analyse(FD);
  if (!M)
    return {};
  PerThread = PerThreadDefaultStream;
  FunctionAsyncWork W(*this, *M, PerThreadDefaultStream);
  W.trackAllWork(CheckedSyncOnly);
  if (!W.solve())
    return {};
  return W.atProgramExits();
}

bool AsyncWorkAnalysis::queuesWork(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->hasAttr<CUDAGlobalAttr>() ||
      isInSystemHeader(Def, Ctx.getSourceManager()))
    return false;
  auto [It, New] = Queues.try_emplace(Def, false);
  if (!New)
    return It->second; // False while in progress.
  struct Finder : RecursiveASTVisitor<Finder> {
    AsyncWorkAnalysis &A;
    bool Found = false;
    explicit Finder(AsyncWorkAnalysis &A) : A(A) {}
    bool shouldVisitLambdaExpr(LambdaExpr *) { return false; }
    bool VisitCallExpr(CallExpr *C) {
      Found = isQueuingCall(C) || A.queuesWork(C->getDirectCallee());
      return !Found;
    }
  } F(*this);
  F.TraverseStmt(Def->getBody());
  Queues[Def] = F.Found;
  return F.Found;
}

const std::vector<AsyncWorkAnalysis::LeftRunning> *
AsyncWorkAnalysis::leftRunning(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!FD || !FD->hasBody(Def) || !Def || Def->hasAttr<CUDAGlobalAttr>() ||
      !isAnalysableFunction(Def, SM) || !isSeenWhole(Def, SM, Arch))
    return nullptr;
  auto [It, New] = Left.try_emplace(Def);
  if (!New)
    return It->second.get(); // Null while in progress: unknown.
  auto Result = std::make_unique<std::vector<LeftRunning>>();
  std::shared_ptr<const FunctionCfg> Cfg =
      TranslationUnitAnalyses::get(Ctx).sharedCfgOf(Def);
  collectTranslationUnitFacts();
  if (Cfg && HostVisibleMemory && worthAnalysing(*Cfg, *this, true))
    if (const FunctionMemorySpaces *M =
            MemorySpaceAnalysis::get(Ctx, Arch).analyse(Def)) {
      FunctionAsyncWork W(*this, *M, PerThread);
      if (W.solve())
        *Result = W.leftRunning();
    }
  Left[Def] = std::move(Result);
  return Left[Def].get();
}

} // namespace clang::tidy::cuda
