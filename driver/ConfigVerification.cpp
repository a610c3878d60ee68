//===- ConfigVerification.cpp - Typos in configurations -------------------===//
//
// See ConfigVerification.h.
//
//===----------------------------------------------------------------------===//

#include "ConfigVerification.h"
#include "CheckSelection.h"
#include "CrashIsolation.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/GlobList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace clang::tidy;

namespace cudatidy {
namespace {

/// The known name closest to \p Name, or "" when none is close.
std::string closest(llvm::StringRef Name, const llvm::StringSet<> &Known) {
  std::string Best;
  unsigned BestDistance = std::max<size_t>(2, Name.size() / 5) + 1;
  for (const auto &K : Known) {
    unsigned D = Name.edit_distance(K.getKey(), true, BestDistance);
    if (D < BestDistance) {
      BestDistance = D;
      Best = K.getKey().str();
    }
  }
  return Best;
}

std::string unknown(llvm::StringRef What, llvm::StringRef Name,
                    llvm::StringRef Source, const llvm::StringSet<> &Known) {
  std::string M = "unknown " + What.str() + " '" + Name.str() + "' in " +
                  Source.str();
  if (std::string Near = closest(Name, Known); !Near.empty())
    M += "; did you mean '" + Near + "'?";
  return M;
}

/// A check option is known when a check reads it; a key without a check
/// prefix is a global option that some check reads by its local name.
bool knownOption(llvm::StringRef Key, const llvm::StringSet<> &Options) {
  if (Options.contains(Key) || Key.starts_with("clang-analyzer-"))
    return true;
  if (Key.contains('.'))
    return false;
  for (const auto &O : Options)
    if (O.getKey().ends_with(("." + Key).str()))
      return true;
  return false;
}

void checkGlobs(llvm::StringRef Checks, llvm::StringRef Source,
                const llvm::StringSet<> &Known,
                std::vector<std::string> &Out) {
  llvm::SmallVector<llvm::StringRef> Globs;
  Checks.split(Globs, ',', -1, false);
  for (llvm::StringRef Glob : Globs) {
    Glob = Glob.trim().ltrim('-').trim();
    if (Glob.empty() || Glob.starts_with("clang-diagnostic-") ||
        Glob == InjectedCrashCheck)
      continue;
    GlobList Matcher(Glob);
    bool Matches = llvm::any_of(
        Known, [&](const auto &K) { return Matcher.contains(K.getKey()); });
    if (Matches)
      continue;
    Out.push_back(Glob.contains('*')
                      ? "check glob '" + Glob.str() + "' in " + Source.str() +
                            " matches no check"
                      : unknown("check", Glob, Source, Known));
  }
}

} // namespace

std::vector<std::string>
unknownConfigNames(ClangTidyOptionsProvider &Provider,
                   const std::vector<std::string> &Files, bool Checks) {
  ChecksAndOptions All = getAllChecksAndOptions(false, false);
  std::vector<std::string> Out;
  llvm::StringSet<> Seen;
  for (const std::string &File : Files)
    for (const auto &[Options, Source] : Provider.getRawOptions(File)) {
      if (Source == ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary ||
          Source == AddedCudaChecksSource || !Seen.insert(Source).second)
        continue;
      if (Checks && Options.Checks)
        checkGlobs(*Options.Checks, Source, All.Checks, Out);
      std::vector<llvm::StringRef> Keys;
      for (const auto &Option : Options.CheckOptions)
        Keys.push_back(Option.getKey());
      llvm::sort(Keys);
      for (llvm::StringRef Key : Keys)
        if (!knownOption(Key, All.Options))
          Out.push_back(unknown("check option", Key, Source, All.Options));
    }
  return Out;
}

} // namespace cudatidy
