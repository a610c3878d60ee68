//===- CrashIsolation.cpp - A crash in one file loses no other's results --===//
//
// See CrashIsolation.h and docs/reliability.md ("Crash isolation").
//
// How a crash is recovered: llvm::CrashRecoveryContext::Enable() installs
// handlers that longjmp back into CrashRecoveryContext::RunSafely on the
// crashing thread. Those handlers are installed without SA_ONSTACK, so on
// a stack overflow the kernel cannot push the handler's frame and kills the
// process. We therefore install our own handler in front of them, with
// SA_ONSTACK, and give every analysis thread an alternate signal stack: our
// handler notes the running check, then calls CrashRecoveryContext's.
//
//===----------------------------------------------------------------------===//

#include "CrashIsolation.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>

namespace cudatidy {
namespace {

/// The stack of each analysis thread: four times the usual main-thread
/// stack, so that deep but finite recursion completes.
constexpr unsigned AnalysisStackSize = 32u << 20;
/// The alternate signal stack, on which the crash handler runs. It prints
/// the matcher's stack trace entry (source locations included).
constexpr size_t SignalStackSize = 256u << 10;

const int FatalSignals[] = {SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP};
/// The handlers CrashRecoveryContext installed, which ours hands over to.
struct sigaction RecoveryHandlers[std::size(FatalSignals)];

/// Whether this thread runs an isolated analysis, and the check that was
/// running when it crashed.
thread_local bool InIsolatedAnalysis = false;
thread_local char CrashedCheck[128];

/// Keeps the first line of what is printed, in a fixed buffer: no
/// allocation in the signal handler.
class FirstLine : public llvm::raw_ostream {
public:
  FirstLine() { SetUnbuffered(); }
  llvm::StringRef text() const { return llvm::StringRef(Buf, Len); }

private:
  void write_impl(const char *Ptr, size_t Size) override {
    for (size_t I = 0; I < Size && !Ended; ++I) {
      if (Ptr[I] == '\n')
        Ended = true;
      else if (Len < sizeof(Buf))
        Buf[Len++] = Ptr[I];
    }
    Pos += Size;
  }
  uint64_t current_pos() const override { return Pos; }
  char Buf[512];
  size_t Len = 0;
  uint64_t Pos = 0;
  bool Ended = false;
};

/// Finds, in this thread's pretty stack trace, the AST matcher's entry
/// ("ASTMatcher: Processing 'cuda-x' against: ...") and keeps its check.
void recordCrashedCheck() {
  CrashedCheck[0] = '\0';
  const auto *Entry = static_cast<const llvm::PrettyStackTraceEntry *>(
      llvm::SavePrettyStackState());
  for (; Entry; Entry = Entry->getNextEntry()) {
    FirstLine Line;
    Entry->print(Line);
    llvm::StringRef Text = Line.text();
    for (llvm::StringRef Prefix :
         {"ASTMatcher: Processing '", "ASTMatcher: Matching '"}) {
      size_t At = Text.find(Prefix);
      if (At == llvm::StringRef::npos)
        continue;
      llvm::StringRef Name =
          Text.substr(At + Prefix.size()).take_until([](char C) {
            return C == '\'';
          });
      if (Name.empty() || Name == "<unknown>")
        return;
      size_t N = std::min(Name.size(), sizeof(CrashedCheck) - 1);
      std::memcpy(CrashedCheck, Name.data(), N);
      CrashedCheck[N] = '\0';
      return;
    }
  }
}

void onFatalSignal(int Signal) {
  if (InIsolatedAnalysis)
    recordCrashedCheck();
  for (size_t I = 0; I < std::size(FatalSignals); ++I) {
    if (FatalSignals[I] != Signal)
      continue;
    const struct sigaction &Next = RecoveryHandlers[I];
    if (Next.sa_handler == SIG_DFL || Next.sa_handler == SIG_IGN ||
        (Next.sa_flags & SA_SIGINFO)) {
      // Not CrashRecoveryContext's (it uses sa_handler): die as before.
      sigaction(Signal, &Next, nullptr);
      raise(Signal);
      return;
    }
    // Outside RunSafely it restores LLVM's handlers and raises again, which
    // prints the usual stack dump; inside, it does not return.
    Next.sa_handler(Signal);
    return;
  }
}

/// An alternate signal stack for the current thread, while it lives.
class SignalStack {
public:
  SignalStack() : Memory(new char[SignalStackSize]) {
    stack_t S{};
    S.ss_sp = Memory.get();
    S.ss_size = SignalStackSize;
    sigaltstack(&S, &Old);
  }
  ~SignalStack() { sigaltstack(&Old, nullptr); }

private:
  std::unique_ptr<char[]> Memory;
  stack_t Old{};
};

// The test-only crashing check (--inject-crash).
enum class CrashKind { Segv, Abort, Trap, StackOverflow };
CrashKind InjectedKind;
std::string InjectedPattern;
volatile bool StopRecursion = false;

[[gnu::noinline]] int overflowStack(int Depth) {
  volatile char Frame[256];
  Frame[0] = static_cast<char>(Depth);
  if (StopRecursion)
    return Frame[0];
  return overflowStack(Depth + 1) + Frame[0];
}

[[gnu::noinline]] void crash(CrashKind Kind) {
  switch (Kind) {
  case CrashKind::Segv: {
    volatile int *volatile Null = nullptr;
    *Null = 1;
    break;
  }
  case CrashKind::Abort:
    std::abort();
  case CrashKind::Trap:
    __builtin_trap();
  case CrashKind::StackOverflow:
    overflowStack(0);
    break;
  }
}

class InjectedCrash : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override {
    Finder->addMatcher(clang::ast_matchers::translationUnitDecl().bind("tu"),
                       this);
  }
  void check(const clang::ast_matchers::MatchFinder::MatchResult &) override {
    if (getCurrentMainFile().contains(InjectedPattern))
      crash(InjectedKind);
  }
};

class InjectionModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &F) override {
    F.registerCheck<InjectedCrash>(InjectedCrashCheck);
  }
};

} // namespace

void enableCrashIsolation() {
  llvm::CrashRecoveryContext::Enable();
  struct sigaction Ours{};
  Ours.sa_handler = onFatalSignal;
  Ours.sa_flags = SA_ONSTACK;
  sigemptyset(&Ours.sa_mask);
  for (size_t I = 0; I < std::size(FatalSignals); ++I)
    sigaction(FatalSignals[I], &Ours, &RecoveryHandlers[I]);
}

bool runIsolated(llvm::function_ref<void()> Fn, std::string &Check) {
  bool Succeeded = true;
  llvm::thread Thread(std::optional<unsigned>(AnalysisStackSize), [&] {
    SignalStack Stack;
    const void *PrettyStack = llvm::SavePrettyStackState();
    InIsolatedAnalysis = true;
    CrashedCheck[0] = '\0';
    llvm::CrashRecoveryContext Recovery;
    Succeeded = Recovery.RunSafely(Fn);
    InIsolatedAnalysis = false;
    // After a crash the list still links the crashed frames' entries.
    llvm::RestorePrettyStackState(PrettyStack);
    if (!Succeeded)
      Check = CrashedCheck;
  });
  Thread.join();
  return Succeeded;
}

std::string setUpCrashInjection(llvm::StringRef Spec) {
  auto [Kind, Pattern] = Spec.split(':');
  if (Kind == "segv")
    InjectedKind = CrashKind::Segv;
  else if (Kind == "abort")
    InjectedKind = CrashKind::Abort;
  else if (Kind == "trap")
    InjectedKind = CrashKind::Trap;
  else if (Kind == "stack-overflow")
    InjectedKind = CrashKind::StackOverflow;
  else
    return "--inject-crash: the kind must be segv, abort, trap or "
           "stack-overflow, then ':' and a part of a file path";
  if (Pattern.empty())
    return "--inject-crash: no file path pattern after '" + Kind.str() + ":'";
  InjectedPattern = Pattern.str();
  static clang::tidy::ClangTidyModuleRegistry::Add<InjectionModule> Module(
      "cuda-tidy-test-inject-crash", "A test-only check that crashes.");
  return "";
}

} // namespace cudatidy
