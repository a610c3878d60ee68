//===- LibraryObjects.cpp -------------------------------------------------===//

#include "LibraryObjects.h"
#include "CudaApiModel.h"
#include "llvm/ADT/StringMap.h"

namespace clang::tidy::cuda {

std::string describeAllocation(const AllocationKind &Kind,
                               const CallExpr *Site) {
  static const llvm::StringMap<llvm::StringRef> Nouns = {
#define CUDA_RESOURCE_NOUN(Name, Noun) {#Name, Noun},
#include "CudaApiModel.def"
  };
  if (Kind.Resource && Site)
    if (const FunctionDecl *Callee = CudaApiModel::calleeOf(Site);
        Callee && Callee->getIdentifier()) {
      auto It = Nouns.find(Callee->getName());
      if (It != Nouns.end())
        return It->second.str();
    }
  return Kind.describe();
}

} // namespace clang::tidy::cuda
