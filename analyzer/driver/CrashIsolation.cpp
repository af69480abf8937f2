#include "analyzer/driver/CrashIsolation.h"

#include "clang/Basic/Stack.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include <csignal>
#include <cstring>
#include <exception>
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

/// Set once some work crashed and was abandoned.
std::atomic<bool> workAbandoned{false};

/// The streamlint step running on this thread; null while clang's own work
/// runs (or outside any step).
thread_local const char *currentStep = nullptr;
/// The innermost step an exception left, while it propagates.
thread_local const char *stepLeftByException = nullptr;
/// Where a fatal error in the TU running on this thread is described.
thread_local std::string *fatalErrorOfThisThread = nullptr;
/// What std::terminate was called for, on this thread (an exception that
/// reached a noexcept function): kept for the report, then abort().
thread_local char terminateReason[512];

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

[[noreturn]] void terminateWithReason() {
  const char *what = "std::terminate called";
  std::string text;
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::exception &e) {
      text = std::string("uncaught exception: ") + e.what();
    } catch (...) {
      text = "uncaught exception of an unknown type";
    }
    what = text.c_str();
  }
  std::strncpy(terminateReason, what, sizeof terminateReason - 1);
  std::abort(); // caught as SIGABRT by the TU's recovery context
}

void enableOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::CrashRecoveryContext::Enable();
    useAlternateStackForCrashSignals();
    llvm::install_fatal_error_handler(fatalErrorInTranslationUnit);
    std::set_terminate(terminateWithReason);
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

std::string describe(int returnCode, const std::string &fatalError, bool internal) {
  if (terminateReason[0])
    return terminateReason;
  if (!fatalError.empty())
    return (internal ? "LLVM fatal error: " : "fatal error in clang: ") + fatalError;
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

StreamlintStep::StreamlintStep(const char *what)
    : previous_(currentStep), exceptionsAtStart_(std::uncaught_exceptions()) {
  currentStep = what;
}

StreamlintStep::~StreamlintStep() {
  if (std::uncaught_exceptions() > exceptionsAtStart_ && !stepLeftByException)
    stepLeftByException = currentStep;
  currentStep = previous_;
}

ClangWork::ClangWork() : previous_(currentStep) { currentStep = nullptr; }
ClangWork::~ClangWork() { currentStep = previous_; }

int exitCodeAfterIsolatedWork(int code) {
  if (!workAbandoned)
    return code;
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

std::optional<IsolatedFailure> runIsolated(llvm::function_ref<void()> work) {
  enableOnce();
  bool finished = false;
  int returnCode = 0;
  std::string fatalError;
  std::optional<IsolatedFailure> failure;
  llvm::thread thread(std::optional<unsigned>(kTranslationUnitStackSize), [&] {
    AlternateSignalStack signalStack;
    fatalErrorOfThisThread = &fatalError;
    terminateReason[0] = '\0';
    currentStep = stepLeftByException = nullptr;
    // clang measures how much stack is left from here (Sema moves deep
    // template instantiation onto a new stack when it runs low).
    clang::noteBottomOfStack(/*ForceSet=*/true);
    llvm::CrashRecoveryContext context;
    // Exceptions are caught inside the recovery context's callback: no
    // frame of LLVM's (built without exceptions) lies between them and here.
    finished = context.RunSafely([&] {
      try {
        work();
      } catch (const StepFailure &e) {
        failure = IsolatedFailure{std::string("uncaught exception: ") + e.what(), e.step};
      } catch (const std::exception &e) {
        failure = IsolatedFailure{std::string("uncaught exception: ") + e.what(),
                                  stepLeftByException ? stepLeftByException
                                                      : "analyzing the translation unit"};
      } catch (...) {
        failure = IsolatedFailure{"uncaught exception of an unknown type",
                                  stepLeftByException ? stepLeftByException
                                                      : "analyzing the translation unit"};
      }
    });
    returnCode = context.RetCode;
    if (!finished) {
      workAbandoned = true;
      // An exception that reached std::terminate is never clang's.
      const char *step = currentStep ? currentStep
                         : terminateReason[0] ? "analyzing the translation unit"
                                              : nullptr;
      failure = IsolatedFailure{describe(returnCode, fatalError, step != nullptr),
                                step ? step : ""};
    }
    fatalErrorOfThisThread = nullptr;
    currentStep = nullptr;
  });
  thread.join();
  return failure;
}

} // namespace streamlint
