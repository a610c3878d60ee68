//===- ChecksFuzzer.cpp - Fuzzes the checks through clang-tidy's engine ---===//
//
// The input is the text of a .cu file. It is analysed in memory the way the
// driver analyses a file without a compile database entry: every cuda-*
// check, the driver's CUDA flags (device pass, the toolkit's headers, the
// nvcc compatibility header), clang-tidy's engine. Whatever the text, the
// checks must not crash, whether it parses or not (clang-tidy runs the
// checks on the AST that error recovery leaves).
//
//===----------------------------------------------------------------------===//

#include "CudaToolkit.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>

namespace clang::tidy {
extern volatile int CudaTidyModuleAnchorSource;
[[maybe_unused]] static int CudaTidyModuleAnchorDestination =
    CudaTidyModuleAnchorSource;
} // namespace clang::tidy

using namespace clang;
using namespace clang::tidy;

namespace {
std::vector<std::string> CommandLine;
// The file lives in memory only; its folder must exist on the disk, since
// the tool makes it the working folder of every layer of the file system.
const char *InputDir = "/tmp";
const char *InputPath = "/tmp/cuda-tidy-fuzz-input.cu";
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();
  std::string Error;
  std::optional<cudatidy::CudaToolkit> TK = cudatidy::findCudaToolkit("", Error);
  if (!TK) {
    llvm::errs() << "ChecksFuzzer: " << Error << "\n";
    exit(1);
  }
  CommandLine = {"-xcuda", "-resource-dir=" CUDA_TIDY_CLANG_RESOURCE_DIR};
  for (std::string &F : cudatidy::cudaAnalysisFlags(*TK, "sm_90"))
    CommandLine.push_back(std::move(F));
  CommandLine.push_back("-include");
  CommandLine.push_back(CUDA_TIDY_COMPAT_HEADER);
  // The headers that the seeds (lit inputs, torture corpus) include.
  CommandLine.push_back("-I" CUDA_TIDY_SOURCE_DIR "/test/Inputs");
  CommandLine.push_back("-I" CUDA_TIDY_SOURCE_DIR "/test/torture");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(
      new llvm::vfs::InMemoryFileSystem);
  Memory->addFile(InputPath, 0,
                  llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(
                      reinterpret_cast<const char *>(Data), Size)));
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::createPhysicalFileSystem()));
  FS->pushOverlay(Memory);

  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = "-*,cuda-*";
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
                               ClangTidyGlobalOptions(), Defaults),
                           false, false, false);
  tooling::FixedCompilationDatabase Compilations(InputDir, CommandLine);
  std::vector<ClangTidyError> Errors =
      runClangTidy(Context, Compilations, {InputPath}, FS,
                   /*ApplyAnyFix=*/false, /*EnableCheckProfile=*/false, "",
                   /*Quiet=*/true);
  (void)Errors;
  return 0;
}
