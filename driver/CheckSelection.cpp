//===- CheckSelection.cpp - Which checks a configuration selects ----------===//
//
// See CheckSelection.h.
//
//===----------------------------------------------------------------------===//

#include "CheckSelection.h"
#include "CrashIsolation.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/GlobList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

using namespace clang::tidy;

namespace cudatidy {
namespace {

using OptionsSource = ClangTidyOptionsProvider::OptionsSource;

class CudaChecksProvider : public ClangTidyOptionsProvider {
public:
  CudaChecksProvider(std::unique_ptr<ClangTidyOptionsProvider> Inner,
                     std::string ConfigFile)
      : Inner(std::move(Inner)), ConfigFile(std::move(ConfigFile)) {}

  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Inner->getGlobalOptions();
  }

  std::vector<OptionsSource> getRawOptions(llvm::StringRef File) override {
    std::vector<OptionsSource> Sources = Inner->getRawOptions(File);
    bool Mentioned = false;
    for (OptionsSource &S : Sources) {
      if (!ConfigFile.empty() &&
          S.second == OptionsSourceTypeConfigCommandLineOption)
        S.second = ConfigFile;
      if (S.second != OptionsSourceTypeDefaultBinary && S.first.Checks)
        Mentioned |= mentionsCudaChecks(*S.first.Checks);
    }
    if (!Mentioned) {
      ClangTidyOptions Added;
      Added.Checks = "cuda-*";
      Sources.emplace_back(std::move(Added), AddedCudaChecksSource.str());
    }
    return Sources;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
  std::string ConfigFile;
};

bool enablesNothing(const ClangTidyOptions &Options) {
  return getCheckNames(Options, false, false).empty();
}

} // namespace

bool mentionsCudaChecks(llvm::StringRef Checks) {
  llvm::SmallVector<llvm::StringRef> Globs;
  Checks.split(Globs, ',', -1, false);
  for (llvm::StringRef Glob : Globs) {
    Glob = Glob.trim().ltrim('-').trim();
    if (Glob.starts_with("cuda-") && Glob != InjectedCrashCheck)
      return true;
  }
  return false;
}

std::string simplifyChecks(llvm::StringRef Checks) {
  llvm::SmallVector<llvm::StringRef> Globs;
  Checks.split(Globs, ',', -1, false);
  for (llvm::StringRef &Glob : Globs)
    Glob = Glob.trim();
  llvm::erase_if(Globs, [](llvm::StringRef G) { return G.empty(); });
  // The last glob that matches a check decides: globs before a '*' or a
  // '-*' decide nothing, nor does a glob whose pattern comes again later.
  std::vector<llvm::StringRef> Kept;
  for (size_t I = 0; I < Globs.size(); ++I) {
    llvm::StringRef Pattern = Globs[I].ltrim('-').trim();
    bool Later = llvm::any_of(
        llvm::ArrayRef(Globs).drop_front(I + 1), [&](llvm::StringRef G) {
          llvm::StringRef P = G.ltrim('-').trim();
          return P == Pattern || P == "*";
        });
    if (!Later)
      Kept.push_back(Globs[I]);
  }
  return llvm::join(Kept, ",");
}

std::unique_ptr<ClangTidyOptionsProvider>
addCudaChecks(std::unique_ptr<ClangTidyOptionsProvider> Inner,
              std::string ConfigFile) {
  if (!ConfigFile.empty()) {
    llvm::SmallString<256> Abs(ConfigFile);
    llvm::sys::fs::make_absolute(Abs);
    ConfigFile = std::string(Abs);
  }
  return std::make_unique<CudaChecksProvider>(std::move(Inner),
                                              std::move(ConfigFile));
}

void explainConfig(ClangTidyOptionsProvider &Provider, llvm::StringRef File,
                   const std::vector<std::string> &Enabled,
                   llvm::raw_ostream &OS) {
  std::vector<OptionsSource> Sources = Provider.getRawOptions(File);
  for (const std::string &Check : Enabled)
    for (const OptionsSource &S : llvm::reverse(Sources))
      if (S.first.Checks && GlobList(*S.first.Checks).contains(Check)) {
        OS << "'" << Check << "' is enabled in the " << S.second << ".\n";
        break;
      }
}

std::string sourceThatDisabledAllChecks(ClangTidyOptionsProvider &Provider,
                                        llvm::StringRef File) {
  std::vector<OptionsSource> Sources = Provider.getRawOptions(File);
  ClangTidyOptions Merged;
  std::string LastWithChecks, Disabler;
  bool Some = false;
  for (unsigned I = 0; I < Sources.size(); ++I) {
    Merged.mergeWith(Sources[I].first, I);
    if (!Sources[I].first.Checks)
      continue;
    LastWithChecks = Sources[I].second;
    bool None = enablesNothing(Merged);
    if (None && Some)
      Disabler = Sources[I].second;
    Some = !None;
  }
  if (Some)
    return "";
  return Disabler.empty() ? LastWithChecks : Disabler;
}

} // namespace cudatidy
