//===- TranslationUnitScan.h - One recorded walk of the TU ------*- C++ -*-===//
//
// Several analyses collect facts about the whole translation unit (who
// launches which kernel, which storage an allocation lands in, which streams
// are created non-blocking) with a walk of every declaration outside system
// headers. Each used to walk the AST itself; on a large file the walks cost as
// much as an analysis. TranslationUnitScan walks once, records the nodes those
// analyses look at, and replays the record to each: a ScanVisitor receives the
// Visit* calls that a RecursiveASTVisitor with its options would have made,
// in the same order.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TRANSLATIONUNITSCAN_H
#define CUDA_TIDY_TRANSLATIONUNITSCAN_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include <optional>
#include <vector>

namespace clang::tidy::cuda {

/// One node of the recorded walk.
struct ScannedNode {
  enum NodeKind : uint8_t {
    Call,        ///< every CallExpr (kernel launches, operator calls too)
    Var,         ///< every VarDecl (parameters too)
    FunctionDeclaration, ///< every FunctionDecl
    Field,       ///< every FieldDecl
    Assignment,  ///< a BinaryOperator that assigns or compares for equality
    AddressOrStep, ///< a UnaryOperator: '&', '++' or '--'
    Return,      ///< a ReturnStmt
    Construct,   ///< a CXXConstructExpr
    InitList,    ///< an InitListExpr
    FunctionRef, ///< a DeclRefExpr to a function or a function pointer
    CtorInit,    ///< a constructor's member or base initializer
  };
  void *Node;
  /// The innermost function whose declaration the walk is in, or null.
  const FunctionDecl *Enclosing;
  NodeKind Kind;
  /// Whether the node is reached only through a template instantiation: a
  /// walk that does not visit instantiations skips it.
  bool InInstantiation;
};

/// The recorded walks of one translation unit, made on first use.
class TranslationUnitScan {
public:
  explicit TranslationUnitScan(ASTContext &Ctx) : Ctx(Ctx) {}

  /// The walk that visits template instantiations, and implicit code when
  /// \p ImplicitCode is set.
  const std::vector<ScannedNode> &nodes(bool ImplicitCode);

private:
  ASTContext &Ctx;
  std::optional<std::vector<ScannedNode>> Written, WithImplicit;
};

/// Receives a recorded walk as the Visit* calls of a RecursiveASTVisitor
/// whose shouldVisitImplicitCode() is the record's and whose
/// shouldVisitTemplateInstantiations() is \p Instantiations. Derived classes
/// define the Visit* methods they need; \c Current is the innermost function
/// at each call.
template <typename Derived> class ScanVisitor {
public:
  void replay(const std::vector<ScannedNode> &Nodes, bool Instantiations) {
    Derived &D = static_cast<Derived &>(*this);
    for (const ScannedNode &N : Nodes) {
      if (N.InInstantiation && !Instantiations)
        continue;
      Current = N.Enclosing;
      switch (N.Kind) {
      case ScannedNode::Call: {
        auto *C = static_cast<CallExpr *>(N.Node);
        D.VisitCallExpr(C);
        if (auto *Op = dyn_cast<CXXOperatorCallExpr>(C))
          D.VisitCXXOperatorCallExpr(Op);
        else if (auto *M = dyn_cast<CXXMemberCallExpr>(C))
          D.VisitCXXMemberCallExpr(M);
        break;
      }
      case ScannedNode::Var:
        D.VisitVarDecl(static_cast<VarDecl *>(N.Node));
        break;
      case ScannedNode::FunctionDeclaration:
        D.VisitFunctionDecl(static_cast<FunctionDecl *>(N.Node));
        break;
      case ScannedNode::Field:
        D.VisitFieldDecl(static_cast<FieldDecl *>(N.Node));
        break;
      case ScannedNode::Assignment:
        D.VisitBinaryOperator(static_cast<BinaryOperator *>(N.Node));
        break;
      case ScannedNode::AddressOrStep:
        D.VisitUnaryOperator(static_cast<UnaryOperator *>(N.Node));
        break;
      case ScannedNode::Return:
        D.VisitReturnStmt(static_cast<ReturnStmt *>(N.Node));
        break;
      case ScannedNode::Construct:
        D.VisitCXXConstructExpr(static_cast<CXXConstructExpr *>(N.Node));
        break;
      case ScannedNode::InitList:
        D.VisitInitListExpr(static_cast<InitListExpr *>(N.Node));
        break;
      case ScannedNode::FunctionRef:
        D.VisitDeclRefExpr(static_cast<DeclRefExpr *>(N.Node));
        break;
      case ScannedNode::CtorInit:
        D.VisitCXXCtorInitializer(static_cast<CXXCtorInitializer *>(N.Node));
        break;
      }
    }
  }

  bool VisitCallExpr(CallExpr *) { return true; }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *) { return true; }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *) { return true; }
  bool VisitVarDecl(VarDecl *) { return true; }
  bool VisitFunctionDecl(FunctionDecl *) { return true; }
  bool VisitFieldDecl(FieldDecl *) { return true; }
  /// Only assignments (compound ones too) and equality comparisons.
  bool VisitBinaryOperator(BinaryOperator *) { return true; }
  /// Only '&', '++' and '--'.
  bool VisitUnaryOperator(UnaryOperator *) { return true; }
  bool VisitReturnStmt(ReturnStmt *) { return true; }
  bool VisitCXXConstructExpr(CXXConstructExpr *) { return true; }
  bool VisitInitListExpr(InitListExpr *) { return true; }
  /// Only references to functions and to variables of pointer-to-function
  /// type.
  bool VisitDeclRefExpr(DeclRefExpr *) { return true; }
  /// Before the initializer's expression is visited; only initializers
  /// written in the source unless the record has implicit code.
  bool VisitCXXCtorInitializer(CXXCtorInitializer *) { return true; }

protected:
  const FunctionDecl *Current = nullptr;
};

/// Whether \p VD is a pointer to a function.
bool isFunctionPointerVariable(const VarDecl *VD);

} // namespace clang::tidy::cuda

#endif
