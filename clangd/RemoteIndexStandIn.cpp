//===- RemoteIndexStandIn.cpp - No remote index in cuda-clangd ------------===//
//
// Debian's libclangdMain.a is built with clangd's remote index, whose client
// needs gRPC. cuda-clangd has no gRPC: this stand-in answers every
// --remote-index-address with no client, as clangd's own build without
// gRPC does, and clangd then says that it has no remote index.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringRef.h"
#include <memory>

namespace clang::clangd {
class SymbolIndex;
namespace remote {

std::unique_ptr<SymbolIndex> getClient(llvm::StringRef Address,
                                       llvm::StringRef IndexRoot);

std::unique_ptr<SymbolIndex> getClient(llvm::StringRef, llvm::StringRef) {
  return nullptr;
}

} // namespace remote
} // namespace clang::clangd
