//===- PrefixCache.h - A precompiled CUDA prefix shared by files -*- C++ -*-===//
//
// Every CUDA file starts with the same implicit prefix: clang's CUDA
// runtime wrapper and the nvcc compatibility header, both force-included.
// The driver precompiles that prefix once per distinct command (every flag
// but the file's name: toolkit, architecture, standard, defines, include
// paths, the compatibility header) and parses each file with -include-pch
// (docs/prefix.md). It is built when the process analyses several files or
// an earlier run saw the command: a single file's first run parses the
// prefix as before, which costs less than writing and loading a
// precompiled header that nothing else reads.
//
// A prefix is stored as <dir>/<key>.pch, where the key hashes the command,
// its folder, clang's version and the content of every force-included
// header; <key>.inputs lists the size and modification time of each header
// it was built from, checked before every use, so that a changed header
// rebuilds it. One process builds a prefix at a time (a lock file); the
// threads of one process wait for each other.
//
// Where no prefix can be used (not a single-pass CUDA command, the prefix
// does not compile, a lock held too long), the file is parsed as before.
//
// A file's own preamble goes further: the #include lines that open the
// file, before any other token, are precompiled after the implicit prefix
// (a quoted name found beside the file by its whole path) when only
// cuda-* checks run (stock checks may watch the
// preprocessor or clang's warnings in those headers, which a precompiled
// header no longer replays). It is built when several files of the run
// open with the same lines, or when an earlier run saw them; it is not
// used from the first #include line whose header has no include guard
// (the file includes it again), sets NDEBUG (which <assert.h> reads
// again), or reads a non-system header that tests __CUDA_ARCH__ (the
// checks read those conditionals from the preprocessor) or is found
// through a relative folder (a precompiled header names it by its whole
// path, and findings in it would too). The folder
// is kept under a size limit, least recently used first.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_PREFIXCACHE_H
#define CUDA_TIDY_PREFIXCACHE_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <map>
#include <memory>
#include <mutex>
#include <functional>
#include <string>
#include <vector>

namespace cudatidy {

class PrefixCache {
public:
  /// Reads CUDA_TIDY_PREFIX_MAX_MB (the most the folder keeps, default
  /// 4096) and CUDA_TIDY_PREFIX_PREAMBLE (off: the implicit prefix alone).
  explicit PrefixCache(std::string Dir);

  /// The arguments that make \p Command use its precompiled prefix, built
  /// first if needed; empty, with the reason in \p Why, when it has none.
  /// \p ExtraArgsBefore and \p ExtraArgsAfter are the configuration's.
  /// \p WithPreamble: the file's own leading includes may be precompiled
  /// too (only cuda-* checks run).
  std::vector<std::string>
  argsFor(const clang::tooling::CompileCommand &Command,
          const std::vector<std::string> &ExtraArgsBefore,
          const std::vector<std::string> &ExtraArgsAfter, bool WithPreamble,
          bool &UsesPreamble, std::string &Why);

  /// Notes the leading includes of the run's files: a preamble that
  /// several of them share is built in this run, and the implicit prefix
  /// when the process analyses several files (a single file's first run
  /// builds nothing: its command is marked seen, and built the next time).
  void noteRunFiles(const std::vector<std::string> &Files);


  /// Whether \p Errors show that clang could not use the prefix (a
  /// precompiled header that is stale, corrupt or does not fit): the file
  /// is then parsed again without it.
  static bool
  prefixFailed(const std::vector<clang::tidy::ClangTidyError> &Errors);

  const std::string &dir() const { return Dir; }

  /// Called in the thread that builds a prefix, before the build with what
  /// is being built and after it with "": the progress line says why the
  /// file takes long while it does (Run.cpp). Set before the workers start.
  std::function<void(llvm::StringRef What)> OnBuild;

  /// Prefixes built by this process, and the seconds they took.
  unsigned builds() const { return Builds; }
  double buildSeconds() const { return BuildSeconds; }

private:
  struct Entry {
    std::mutex Building;
    bool Done = false;
    std::string Pch, Why;
    /// The header names the prefix looked up.
    std::vector<std::string> Names;
    /// A preamble that cannot be used: how many of its lines can.
    unsigned Usable = 0;
  };
  Entry &entry(const std::string &Key);
  /// The entry of \p Command's prefix, prepared (found or built).
  /// \p Preamble: the file's leading includes, precompiled after the
  /// implicit prefix ("" for the prefix alone); \p Pays: build it even if
  /// no other file shares it and no earlier run saw it.
  Entry &prepared(const clang::tooling::CompileCommand &Command,
                  const std::vector<std::string> &ExtraArgsBefore,
                  const std::vector<std::string> &ExtraArgsAfter,
                  const std::string &Preamble, std::string &Why,
                  bool Pays = false);
  void prepare(Entry &E, const std::string &Key,
               const clang::tooling::CompileCommand &Placeholder,
               const std::vector<std::string> &ExtraArgsBefore,
               const std::vector<std::string> &ExtraArgsAfter,
               const std::string &Preamble, bool Pays);
  std::string build(const std::string &Key,
                    const clang::tooling::CompileCommand &Placeholder,
                    const std::vector<std::string> &ExtraArgsBefore,
                    const std::vector<std::string> &ExtraArgsAfter,
                    const std::string &Preamble, unsigned &Usable);
  /// Removes the least recently used prefixes beyond the size limit,
  /// \p Keep aside.
  void evict(const std::string &Keep);
  /// Whether several files of the run open with \p Preamble.
  bool sharedInRun(const std::string &Preamble);
  /// Whether this process analyses several files (noteRunFiles).
  bool severalFilesInRun();
  /// The content of the file \p Path, read once a run.
  const std::string &contentOf(const std::string &Path);
  std::string path(const std::string &Key, llvm::StringRef Ext) const;

  std::string Dir;
  std::mutex EntriesMutex;
  std::map<std::string, std::unique_ptr<Entry>> Entries;
  unsigned Builds = 0;
  double BuildSeconds = 0;
  std::map<std::string, unsigned> PreambleUses;
  /// The files noted by every run of this process (its stages).
  size_t RunFiles = 0;
  std::map<std::string, std::string> Contents;
  uint64_t SizeLimit = uint64_t(4) << 30;
  bool PreamblesOn = true;
};

/// The #include lines that open the file \p Path, before any other token
/// or directive, quoted names found beside the file made whole ("" when it
/// opens otherwise).
std::string leadingIncludes(llvm::StringRef Path);

/// The prefix folder: $CUDA_TIDY_PREFIX_DIR if set, else "prefix" in
/// \p CacheDir; "" (no prefix) when that is "off" or unknown.
std::string prefixCacheDir(llvm::StringRef CacheDir);

} // namespace cudatidy

#endif
