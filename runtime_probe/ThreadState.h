#pragma once
// The probe's per-thread state and how a callback finds it. Each callback
// reaches it through one thread-local pointer. In the initial-exec model
// (the default, STREAMLINT_PROBE_STATIC_TLS) that is a single %fs-relative
// load; the general-dynamic model a dlopen'ed library gets otherwise calls
// __tls_get_addr, whose code and tables cost about a sixth of the probe's
// own time per callback on the H100 (measured with
// STREAMLINT_PROBE_SELF_TIME, docs/probe.md). The pointer takes 8 bytes of
// glibc's static TLS reserve for dlopen'ed libraries; the state itself
// (about 40 KiB: the stack memo) is mapped at the thread's first callback
// and unmapped at its exit. Part of libstreamlint_probe.so only.

#include "PinnedMemoryTracker.h"
#include "ProbeHandlers.h"
#include "StackMemo.h"

#include <cstdint>

namespace streamlint::probe {

/// Per-thread reentrancy guard and the call in flight.
struct ThreadState {
  int depth = 0;                // nesting of runtime API calls
  std::uint32_t outerId = 0;    // the outermost call in flight (CUPTI's id)
  bool outerDriver = false;
  bool inProbe = false;         // the probe's own CUDA calls
  signed char driverThread = -1; // -1 unknown, 0 no, 1 yes
  bool skip = false;            // the outermost call in flight is not recorded
  unsigned walkDepth = 0;       // see captureStack
  std::uint64_t startTicks = 0;
  std::uint32_t id = 0;         // the probe's id for the thread (alloc-in-loop churn)
  ApiCall call;
  PinnedMemoryTracker::ThreadCache pinnedCache;
  StackMemo memo; // the call sites' stacks this thread saw (StackMemo.h)
};

#if STREAMLINT_PROBE_STATIC_TLS
__attribute__((tls_model("initial-exec")))
#endif
extern thread_local ThreadState *tThreadState;

/// Creates the key that unmaps a thread's state at its exit; false when no
/// key is left (the probe then stays off).
bool startThreadStates();

/// The calling thread's state, made at its first call; nullptr only when it
/// cannot be mapped (the callback then records nothing).
ThreadState *newThreadState();
inline ThreadState *threadState() {
  ThreadState *state = tThreadState;
  return __builtin_expect(state != nullptr, 1) ? state : newThreadState();
}

} // namespace streamlint::probe
