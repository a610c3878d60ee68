//===- StorageScan.cpp ----------------------------------------------------===//

#include "StorageScan.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::cuda {

bool declaredOnlyInMainFile(const VarDecl *VD, const SourceManager &SM) {
  return llvm::all_of(VD->redecls(), [&](const Decl *D) {
    return SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
  });
}

bool methodsAllDefinedHere(const CXXRecordDecl *RD) {
  return llvm::all_of(RD->methods(), [](const CXXMethodDecl *MD) {
    return MD->isImplicit() || MD->isDefaulted() || MD->isDeleted() ||
           MD->hasBody() || MD->isPureVirtual();
  });
}

} // namespace clang::tidy::cuda
