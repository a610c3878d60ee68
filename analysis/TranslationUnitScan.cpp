//===- TranslationUnitScan.cpp --------------------------------------------===//

#include "TranslationUnitScan.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdlib>

namespace clang::tidy::cuda {

bool isFunctionPointerVariable(const VarDecl *VD) {
  QualType T = VD->getType();
  return T->isFunctionPointerType() ||
         (T->isPointerType() && T->getPointeeType()->isFunctionType());
}

namespace {

bool isExplicitSpecialization(TemplateSpecializationKind K) {
  return K == TSK_ExplicitSpecialization;
}

/// Whether a walk that skips template instantiations skips \p D, a
/// declaration traversed directly under \p Parent: an instantiation
/// traversed under its template, or a member of an instantiated class.
bool onlyInInstantiations(const Decl *D, const Decl *Parent) {
  if (!Parent)
    return false;
  if (const auto *T = dyn_cast<TemplateDecl>(Parent);
      T && (isa<FunctionTemplateDecl>(T) || isa<ClassTemplateDecl>(T) ||
            isa<VarTemplateDecl>(T)))
    return D != T->getTemplatedDecl() && !isa<TemplateTypeParmDecl>(D) &&
           !isa<NonTypeTemplateParmDecl>(D) &&
           !isa<TemplateTemplateParmDecl>(D);
  if (const auto *CS = dyn_cast<ClassTemplateSpecializationDecl>(Parent))
    return !isExplicitSpecialization(CS->getSpecializationKind());
  return false;
}

/// The walk itself: a RecursiveASTVisitor with the given options that skips
/// declarations in system headers. Recording with Instantiations unset is
/// only done to verify a record (CUDA_TIDY_VERIFY_SCAN).
template <bool Instantiations, bool ImplicitCode>
class ScanRecorder
    : public RecursiveASTVisitor<ScanRecorder<Instantiations, ImplicitCode>> {
  using Base = RecursiveASTVisitor<ScanRecorder>;

public:
  ScanRecorder(const SourceManager &SM, std::vector<ScannedNode> &Out)
      : SM(SM), Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return Instantiations; }
  bool shouldVisitImplicitCode() const { return ImplicitCode; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    const FunctionDecl *SavedFunction = Function;
    const bool SavedInInstantiation = InInstantiation;
    const Decl *SavedExempt = Exempt, *SavedParent = Parent;
    if (D && !InInstantiation) {
      if (onlyInInstantiations(D, Parent)) {
        InInstantiation = true;
      } else if (const auto *VS = dyn_cast<VarTemplateSpecializationDecl>(D);
                 VS && !isExplicitSpecialization(VS->getSpecializationKind())) {
        // A variable template's instantiation outside its template: the
        // walk without instantiations visits the declaration, not its
        // initializer.
        InInstantiation = true;
        Exempt = D;
      }
    }
    if (auto *FD = dyn_cast_or_null<FunctionDecl>(D))
      Function = FD;
    Parent = D;
    bool R = Base::TraverseDecl(D);
    Function = SavedFunction;
    InInstantiation = SavedInInstantiation;
    Exempt = SavedExempt;
    Parent = SavedParent;
    return R;
  }

  bool VisitCallExpr(CallExpr *C) { return add(C, ScannedNode::Call); }
  bool VisitVarDecl(VarDecl *VD) {
    return add(VD, ScannedNode::Var, static_cast<Decl *>(VD) == Exempt);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    return add(FD, ScannedNode::FunctionDeclaration);
  }
  bool VisitFieldDecl(FieldDecl *F) { return add(F, ScannedNode::Field); }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() || BO->isEqualityOp())
      add(BO, ScannedNode::Assignment);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf || U->isIncrementDecrementOp())
      add(U, ScannedNode::AddressOrStep);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *R) { return add(R, ScannedNode::Return); }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    return add(CE, ScannedNode::Construct);
  }
  bool VisitInitListExpr(InitListExpr *IL) {
    return add(IL, ScannedNode::InitList);
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const ValueDecl *D = DRE->getDecl();
    if (isa<FunctionDecl>(D) ||
        (isa<VarDecl>(D) && isFunctionPointerVariable(cast<VarDecl>(D))))
      add(DRE, ScannedNode::FunctionRef);
    return true;
  }
  bool TraverseConstructorInitializer(CXXCtorInitializer *Init) {
    add(Init, ScannedNode::CtorInit);
    return Base::TraverseConstructorInitializer(Init);
  }

private:
  bool add(void *Node, ScannedNode::NodeKind Kind, bool IsExempt = false) {
    Out.push_back({Node, Function, Kind, InInstantiation && !IsExempt});
    return true;
  }

  const SourceManager &SM;
  std::vector<ScannedNode> &Out;
  const FunctionDecl *Function = nullptr;
  bool InInstantiation = false;
  const Decl *Exempt = nullptr;
  /// The declaration whose traversal the walk is directly in.
  const Decl *Parent = nullptr;
};

template <bool Instantiations, bool ImplicitCode>
std::vector<ScannedNode> record(ASTContext &Ctx) {
  std::vector<ScannedNode> Nodes;
  ScanRecorder<Instantiations, ImplicitCode> R(Ctx.getSourceManager(), Nodes);
  R.TraverseDecl(Ctx.getTranslationUnitDecl());
  return Nodes;
}

void describe(const ScannedNode &N, const SourceManager &SM) {
  llvm::errs() << "  node kind " << static_cast<int>(N.Kind) << " in '"
               << (N.Enclosing ? N.Enclosing->getNameAsString() : "") << "' ";
  SourceLocation L;
  if (N.Kind == ScannedNode::Var || N.Kind == ScannedNode::Field ||
      N.Kind == ScannedNode::FunctionDeclaration)
    L = static_cast<Decl *>(N.Node)->getLocation();
  else if (N.Kind == ScannedNode::CtorInit)
    L = static_cast<CXXCtorInitializer *>(N.Node)->getSourceLocation();
  else
    L = static_cast<Stmt *>(N.Node)->getBeginLoc();
  L.print(llvm::errs(), SM);
  llvm::errs() << "\n";
}

/// With CUDA_TIDY_VERIFY_SCAN set, checks that replaying \p Nodes without
/// instantiations gives what a walk without them visits, and aborts if not.
template <bool ImplicitCode>
void verifyWithoutInstantiations(ASTContext &Ctx,
                                 const std::vector<ScannedNode> &Nodes) {
  static const bool Verify = std::getenv("CUDA_TIDY_VERIFY_SCAN");
  if (!Verify)
    return;
  std::vector<ScannedNode> Expected = record<false, ImplicitCode>(Ctx);
  std::vector<const ScannedNode *> Replayed;
  for (const ScannedNode &N : Nodes)
    if (!N.InInstantiation)
      Replayed.push_back(&N);
  for (size_t I = 0; I != std::max(Replayed.size(), Expected.size()); ++I) {
    const ScannedNode *Got = I < Replayed.size() ? Replayed[I] : nullptr;
    const ScannedNode *Want = I < Expected.size() ? &Expected[I] : nullptr;
    if (Got && Want && Got->Node == Want->Node && Got->Kind == Want->Kind &&
        Got->Enclosing == Want->Enclosing)
      continue;
    llvm::errs() << "cuda-tidy: the recorded scan"
                 << (ImplicitCode ? " with implicit code" : "")
                 << " differs from a walk without instantiations at node "
                 << I << "\n";
    if (Got) {
      llvm::errs() << " replayed:\n";
      describe(*Got, Ctx.getSourceManager());
    }
    if (Want) {
      llvm::errs() << " walked:\n";
      describe(*Want, Ctx.getSourceManager());
    }
    std::abort();
  }
}

} // namespace

const std::vector<ScannedNode> &TranslationUnitScan::nodes(bool ImplicitCode) {
  std::optional<std::vector<ScannedNode>> &Slot =
      ImplicitCode ? WithImplicit : Written;
  if (!Slot) {
    if (ImplicitCode) {
      Slot = record<true, true>(Ctx);
      verifyWithoutInstantiations<true>(Ctx, *Slot);
    } else {
      Slot = record<true, false>(Ctx);
      verifyWithoutInstantiations<false>(Ctx, *Slot);
    }
  }
  return *Slot;
}

} // namespace clang::tidy::cuda
