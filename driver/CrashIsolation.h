//===- CrashIsolation.h - A crash in one file loses no other's results -*- C++ -*-===//
//
// Each file is analysed on a thread of its own, with a large stack, inside
// an llvm::CrashRecoveryContext; the fatal signals (SIGSEGV, SIGBUS,
// SIGILL, SIGFPE, SIGTRAP, SIGABRT) are handled on an alternate signal
// stack, so that a stack overflow is recovered like any other crash. The
// handler also reads, from LLVM's pretty stack trace of the crashing
// thread, which check the AST matcher was running.
//
// Test-only: --inject-crash=KIND:SUBSTRING registers a check that crashes
// in files whose path contains SUBSTRING (docs/reliability.md).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CRASHISOLATION_H
#define CUDA_TIDY_CRASHISOLATION_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace cudatidy {

/// Installs the crash handlers. Call once, before any file is analysed.
void enableCrashIsolation();

/// Runs \p Fn on a new thread with a large stack and waits for it. Returns
/// false if it crashed; \p Check is then the check that was running, or ""
/// when that is unknown. Whatever \p Fn had allocated is leaked.
bool runIsolated(llvm::function_ref<void()> Fn, std::string &Check);

/// The name of the test-only crashing check.
inline constexpr llvm::StringLiteral InjectedCrashCheck =
    "cuda-tidy-test-inject-crash";

/// Parses --inject-crash=KIND:SUBSTRING (KIND: segv, abort, trap,
/// stack-overflow) and registers the crashing check. Returns "" or what is
/// wrong with \p Spec.
std::string setUpCrashInjection(llvm::StringRef Spec);

} // namespace cudatidy

#endif
