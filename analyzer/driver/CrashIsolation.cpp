#include "analyzer/driver/CrashIsolation.h"

#include "clang/Basic/Stack.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/thread.h"

#include <csignal>
#include <cstring>
#include <memory>
#include <mutex>

namespace streamlint {
namespace {

// The crash handler must not run on the stack that overflowed: each TU
// thread gets an alternate signal stack, and the handlers
// CrashRecoveryContext installs are told to use it.
constexpr size_t kSignalStackSize = 256u << 10;

void useAlternateStackForCrashSignals() {
  for (int signal : {SIGSEGV, SIGBUS}) {
    struct sigaction action;
    if (sigaction(signal, nullptr, &action) == 0) {
      action.sa_flags |= SA_ONSTACK;
      sigaction(signal, &action, nullptr);
    }
  }
}

/// Where a fatal error in the TU running on this thread is described.
thread_local std::string *fatalErrorOfThisThread = nullptr;

/// A fatal error inside a TU (LLVM would call exit(1) after its handler)
/// ends that TU's recovery context instead of the whole run.
void fatalErrorInTranslationUnit(void *, const char *reason, bool) {
  auto *context = llvm::CrashRecoveryContext::GetCurrent();
  if (!context)
    return; // not in a TU: LLVM's default (print, exit)
  if (fatalErrorOfThisThread)
    *fatalErrorOfThisThread = reason;
  context->HandleExit(1);
}

void enableOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::CrashRecoveryContext::Enable();
    useAlternateStackForCrashSignals();
    llvm::install_fatal_error_handler(fatalErrorInTranslationUnit);
  });
}

/// The thread's alternate signal stack, for as long as the TU runs.
class AlternateSignalStack {
public:
  AlternateSignalStack() : memory_(new char[kSignalStackSize]) {
    stack_t stack{};
    stack.ss_sp = memory_.get();
    stack.ss_size = kSignalStackSize;
    installed_ = sigaltstack(&stack, &previous_) == 0;
  }
  ~AlternateSignalStack() {
    if (installed_)
      sigaltstack(&previous_, nullptr);
  }

private:
  std::unique_ptr<char[]> memory_;
  stack_t previous_{};
  bool installed_ = false;
};

std::string describe(int returnCode, const std::string &fatalError) {
  if (!fatalError.empty())
    return "fatal error in clang: " + fatalError;
  if (returnCode > 128) {
    int signal = returnCode - 128;
    std::string what = std::string(strsignal(signal)) + " (signal " +
                       std::to_string(signal) + ")";
    if (signal == SIGSEGV || signal == SIGBUS)
      what += "; deeply nested code that exhausts the stack causes this";
    return what;
  }
  return "clang stopped with exit code " + std::to_string(returnCode);
}

} // namespace

std::optional<std::string> runIsolated(llvm::function_ref<void()> work) {
  enableOnce();
  bool finished = false;
  int returnCode = 0;
  std::string fatalError;
  llvm::thread thread(std::optional<unsigned>(kTranslationUnitStackSize), [&] {
    AlternateSignalStack signalStack;
    fatalErrorOfThisThread = &fatalError;
    // clang measures how much stack is left from here (Sema moves deep
    // template instantiation onto a new stack when it runs low).
    clang::noteBottomOfStack(/*ForceSet=*/true);
    llvm::CrashRecoveryContext context;
    finished = context.RunSafely(work);
    returnCode = context.RetCode;
    fatalErrorOfThisThread = nullptr;
  });
  thread.join();
  if (finished)
    return std::nullopt;
  return describe(returnCode, fatalError);
}

} // namespace streamlint
