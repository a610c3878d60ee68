//===- CudaClangdMain.cpp - cuda-clangd: clangd with the cuda-* checks ----===//
//
// cuda-clangd is clangd 22 itself (clangdMain from libclangdMain.a) linked
// with clang-tidy's stock modules and the cuda-* checks. What it adds to
// clangd lives in ClangdHooks.cpp; this file only makes sure clangd finds
// clang's own headers (docs/editors.md, "How cuda-clangd differs").
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Process.h"
#include <cstdlib>
#include <string>
#include <vector>

// libclangdMain.a's entry point. LLVM installs no clangd headers: this is
// the one declaration cuda-clangd needs.
namespace clang::clangd {
int clangdMain(int Argc, char *Argv[]);
} // namespace clang::clangd

namespace {

bool namesResourceDir(llvm::StringRef Arg) {
  Arg = Arg.ltrim('-');
  return Arg == "resource-dir" || Arg.starts_with("resource-dir=");
}

/// Whether the command line or CLANGD_FLAGS (which clangd reads as more
/// arguments) already sets --resource-dir.
bool resourceDirGiven(int Argc, char *Argv[]) {
  for (int I = 1; I < Argc; ++I)
    if (namesResourceDir(Argv[I]))
      return true;
  std::string Env = llvm::sys::Process::GetEnv("CLANGD_FLAGS").value_or("");
  for (llvm::StringRef Rest = Env; !Rest.empty();) {
    auto [Word, Tail] = Rest.ltrim().split(' ');
    if (namesResourceDir(Word))
      return true;
    Rest = Tail;
  }
  return false;
}

} // namespace

int main(int Argc, char *Argv[]) {
  // clangd looks for clang's resource folder beside its own binary; outside
  // the LLVM tree that misses clang's CUDA wrapper headers, and every .cu
  // file fails to parse.
  std::vector<char *> Args(Argv, Argv + Argc);
  std::string ResourceDir = "--resource-dir=" CUDA_TIDY_CLANG_RESOURCE_DIR;
  if (!resourceDirGiven(Argc, Argv))
    Args.push_back(ResourceDir.data());
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1,
                                   Args.data());
}
