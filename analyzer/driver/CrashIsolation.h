#pragma once
// One translation unit that crashes clang's front end (a stack overflow on
// deeply nested code, an assertion, a fatal error) must lose that TU only:
// the run goes on and reports every other TU in full. run-clang-tidy gets
// this from a process per TU; we run each TU under llvm::CrashRecoveryContext
// on a thread of its own with a large stack and an alternate signal stack,
// so even a stack overflow is caught (docs/robustness.md has the measured
// cost).

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace streamlint {

/// Stack of the thread each TU is parsed on. clang's own driver gives cc1
/// 8 MiB; deeply nested real code (generated parsers, Eigen expressions) is
/// rarer than the cost of reserving more address space is small.
inline constexpr unsigned kTranslationUnitStackSize = 64u << 20;

/// Runs `work` on a fresh thread with kTranslationUnitStackSize of stack.
/// Returns nullopt if it finished, or what happened ("segmentation fault
/// (SIGSEGV)...") if it crashed; the thread's work is then abandoned (its
/// memory may leak, other threads are unaffected).
std::optional<std::string> runIsolated(llvm::function_ref<void()> work);

} // namespace streamlint
