#pragma once
// One translation unit that crashes clang's front end (a stack overflow on
// deeply nested code, an assertion, a fatal error) must lose that TU only:
// the run goes on and reports every other TU in full. run-clang-tidy gets
// this from a process per TU; we run each TU under llvm::CrashRecoveryContext
// on a thread of its own with a large stack and an alternate signal stack,
// so even a stack overflow is caught (docs/robustness.md has the measured
// cost). A failure in streamlint's own code (an exception, a crash in a
// check, in the index) is told apart from clang's: it is an internal error,
// a bug in streamlint, and says which step failed.

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <stdexcept>
#include <string>

namespace streamlint {

/// Stack of the thread each TU is parsed on. clang's own driver gives cc1
/// 8 MiB; deeply nested real code (generated parsers, Eigen expressions) is
/// rarer than the cost of reserving more address space is small.
inline constexpr unsigned kTranslationUnitStackSize = 64u << 20;

/// Marks, for as long as it lives, what streamlint's own code is doing on
/// this thread ("running the checks", "storing the index entry"): a crash or
/// an exception meanwhile is streamlint's internal error in that step.
class StreamlintStep {
public:
  explicit StreamlintStep(const char *what);
  ~StreamlintStep();
  StreamlintStep(const StreamlintStep &) = delete;
  StreamlintStep &operator=(const StreamlintStep &) = delete;

private:
  const char *previous_;
  int exceptionsAtStart_;
};

/// Marks clang's own work (preprocessing, parsing) inside a streamlint
/// step: a crash meanwhile is clang's.
class ClangWork {
public:
  ClangWork();
  ~ClangWork();
  ClangWork(const ClangWork &) = delete;
  ClangWork &operator=(const ClangWork &) = delete;

private:
  const char *previous_;
};

/// An exception caught where streamlint's code is called from clang's (an
/// ASTConsumer), passed on to runIsolated() without crossing clang's frames.
class StepFailure : public std::runtime_error {
public:
  StepFailure(const char *step, const std::string &what)
      : std::runtime_error(what), step(step) {}
  const char *step;
};

/// How work run by runIsolated() failed.
struct IsolatedFailure {
  /// "Segmentation fault (signal 11); ...", "fatal error in clang: ...",
  /// "uncaught exception: ...".
  std::string what;
  /// The streamlint step that failed, or "" when clang's own work crashed.
  std::string step;
  bool internal() const { return !step.empty(); }
};

/// Returns `code` for main() to exit with; but once work run by
/// runIsolated() has crashed, flushes stdout and stderr and ends the process
/// with `code` at once: the crashed work's objects are abandoned, some still
/// registered with LLVM's globals (a timer on the dead thread's stack), and
/// the global destructors at exit would touch them (exit 139 after a
/// complete report).
int exitCodeAfterIsolatedWork(int code);

/// Runs `work` on a fresh thread with kTranslationUnitStackSize of stack.
/// Returns nullopt if it finished, or how it failed: a crash (signal, LLVM
/// fatal error) or an exception that left `work`. A crashed thread's work
/// is abandoned (its memory may leak, other threads are unaffected).
std::optional<IsolatedFailure> runIsolated(llvm::function_ref<void()> work);

} // namespace streamlint
