//===- VariableStores.h - What a function stores into its variables -*- C++ -*-===//
//
// A flow-insensitive summary of one function body: for each variable, the
// values it is initialized with and assigned, and whether its address or a
// reference to it escapes, so that its value may change out of sight. The
// barrier checks read it to decide which variables are uniform.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_VARIABLESTORES_H
#define CUDA_TIDY_VARIABLESTORES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

/// One value stored into a variable.
struct StoredValue {
  const Expr *Value;
  /// The variable's initializer, rather than the right-hand side of an
  /// assignment operator.
  bool IsInitializer;
  /// The right-hand side of a compound assignment ('i += s'): the variable
  /// then holds its old value updated, not \c Value.
  bool IsCompound = false;
};

class VariableStores {
public:
  /// Collects the stores of \p Body (lambda bodies excluded).
  static VariableStores of(const Stmt *Body);

  /// The initializers and assigned values of \p VD, in source order.
  llvm::ArrayRef<StoredValue> valuesOf(const VarDecl *VD) const;
  /// Whether an assignment operator writes \p VD.
  bool isAssigned(const VarDecl *VD) const { return Assigned.count(VD); }
  /// Whether \p VD's address is taken or a reference is bound to it.
  bool isAddressTaken(const VarDecl *VD) const {
    return AddressTaken.count(VD);
  }
  /// Whether \p VD is passed by non-const reference, or to a callee that
  /// is not known.
  bool mayBeWrittenByCallee(const VarDecl *VD) const {
    return PassedByReference.count(VD);
  }

private:
  friend class StoreCollector;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<StoredValue, 2>> Values;
  llvm::DenseSet<const VarDecl *> Assigned;
  llvm::DenseSet<const VarDecl *> AddressTaken;
  llvm::DenseSet<const VarDecl *> PassedByReference;
};

} // namespace clang::tidy::cuda

#endif
